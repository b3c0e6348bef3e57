//! `netmeas generate <core>`: one configuration of a core as IP for someone else's design (`hdl::ip`):
//! the Verilog, its manifest, the register map as Markdown, C header and SystemRDL, a FuseSoC core file.

use hdl::ip::{self, Bus};
use std::path::PathBuf;

#[derive(clap::Args, Debug)]
pub struct GenerateArgs {
    /// The core (fridge, finecomb, heavy_hitters, reordering, ifpd, maple; `--list` shows every build).
    pub core: String,
    /// The build (configuration) of the core; default: its first (`--list` shows them with their
    /// parameters).
    #[arg(long)]
    pub build: Option<String>,
    /// axi: AXI4-Lite registers (s_axil_*) and AXI4-Stream descriptors and reports (s_axis_*, m_axis_*), the
    /// conventions of verilog-ethernet/corundum; native: the core's own ports (valid/ready, 8-bit CSR port).
    #[arg(long, default_value = "axi", value_parser = ["axi", "native"])]
    pub bus: String,
    /// Output directory (created if missing; files of the same names are replaced).
    #[arg(long, default_value = "out/ip")]
    pub out: PathBuf,
    /// Without `initial` values (the flavour the co-simulation models are built from).
    #[arg(long)]
    pub no_initial: bool,
    /// List the core's builds with their parameters; write nothing.
    #[arg(long)]
    pub list: bool,
    /// Print the manifest (JSON) on stdout instead of the summary.
    #[arg(long)]
    pub json: bool,
}

pub fn run(a: &GenerateArgs) -> Result<(), String> {
    if a.list {
        for b in ip::builds(&a.core)? {
            let params = serde_json::to_string(&b.params).unwrap_or_default();
            println!("{:<16} {}\n{:<16} {params}", b.name, b.description, "");
        }
        return Ok(());
    }
    let bus = if a.bus == "native" { Bus::Native } else { Bus::Axi };
    let build = ip::find_build(&a.core, a.build.as_deref())?;
    // Everything is generated before anything is written: a bad request writes nothing.
    let ip = ip::generate(&build, bus, !a.no_initial)?;
    let files = ip.files();
    let paths = ip::Ip::write(&a.out, &files)?;
    if a.json {
        let (_, manifest) = files.iter().find(|(n, _)| n.ends_with(".json")).ok_or("no manifest generated")?;
        print!("{manifest}");
        return Ok(());
    }
    println!("{} ({} bus): {}", ip.module, bus.name(), ip.core.description);
    if let Some(plan) = &ip.plan {
        if plan.csr {
            let n = ip.core.csr.as_ref().map_or(0, |l| l.registers().len());
            println!("  {:<18} AXI4-Lite slave, {n} registers (byte offset = 4 × address)", "s_axil_*");
        }
        for s in &plan.streams {
            let dir = if s.input { "in " } else { "out" };
            let ready = if s.ready { "" } else { ", no tready" };
            let bus = format!("{}_*", s.prefix());
            println!("  {bus:<18} {dir} AXI4-Stream, tdata {} bits{ready}", s.tdata_bits);
            for f in &s.fields {
                println!("      tdata[{}:{}]  {}", f.lsb + f.width - 1, f.lsb, f.port);
            }
        }
        for p in &plan.passthrough {
            println!("  {:<18} {} (passed through)", p.name, p.dir);
        }
    }
    for f in &paths {
        println!("wrote {}", f.display());
    }
    Ok(())
}
