//! A core configuration as IP (`netmeas generate`): one self-contained Verilog file with a documented top
//! module — the core's native ports, or its AXI flavour ([`crate::axi`]: one AXI4-Lite slave per CSR port)
//! — plus a manifest (ports, streams, parameters, registers with their bus offsets — per port for a top with
//! several, `csr_ports` —, initiation interval, memory bits, latency measured on the golden cycle model),
//! each register map as Markdown, C header and SystemRDL (all from the one definition in `golden`), and a
//! FuseSoC `.core` file.

use crate::axi::{self, AxiPlan};
use crate::common::axil::AxilCsr;
use crate::emit::{parse_ports, Port, TopInfo};
use crate::registry::{self, Build};
use serde_json::json;

/// Which ports the IP's top module has.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Bus {
    /// The core's own ports (descriptor valid/ready, the 8-bit CSR port).
    Native,
    /// AXI4-Lite registers and AXI4-Stream descriptors and reports ([`crate::axi`]).
    Axi,
}

impl Bus {
    pub fn name(self) -> &'static str {
        match self {
            Bus::Native => "native",
            Bus::Axi => "axi",
        }
    }
}

/// One generated IP.
pub struct Ip {
    /// The top module (`<build>` or `<build>_axi`).
    pub module: String,
    pub bus: Bus,
    /// The core top inside (its name, parameters, register map, native ports).
    pub core: TopInfo,
    /// Every module of the IP in one file.
    pub verilog: String,
    /// The top module's ports.
    pub ports: Vec<Port>,
    /// The AXI mapping (AXI flavour only).
    pub plan: Option<AxiPlan>,
    /// Initiation interval (packets per cycle = 1/ii) and the memory the algorithm needs, when the build
    /// states them ([`crate::registry::Resources`]).
    pub ii: Option<u32>,
    pub memory_bits: Option<u64>,
    /// Latency paths (measured on the golden cycle model; [`crate::registry::Resources::latency`]).
    pub latency: Vec<golden::common::latency::Latency>,
}

/// The builds `netmeas generate <core>` offers: the emitted, non-test builds of `core`.
pub fn builds(core: &str) -> Result<Vec<Build>, String> {
    let c = registry::core(core)?;
    Ok((c.builds)()?.into_iter().filter(|b| b.emitted && !b.test_only).collect())
}

/// Build `name` of `core` (default: its first), or an error listing the builds.
pub fn find_build(core: &str, name: Option<&str>) -> Result<Build, String> {
    let all = builds(core)?;
    let names: Vec<String> = all.iter().map(|b| b.name.clone()).collect();
    let found = match name {
        None => all.into_iter().next(),
        Some(n) => all.into_iter().find(|b| b.name == n),
    };
    found.ok_or_else(|| match name {
        Some(n) => format!("core {core} has no build `{n}`; its builds: {}", names.join(", ")),
        None => format!("core {core} has no build to generate"),
    })
}

/// Generates the IP of `build` (with `initial` values: the synthesis flavour; without: co-simulation).
pub fn generate(build: &Build, bus: Bus, initial: bool) -> Result<Ip, String> {
    let core = build.generate(initial)?;
    let (module, verilog, ports, plan) = match bus {
        Bus::Native => (core.name.clone(), core.verilog.clone(), core.ports.clone(), None),
        Bus::Axi => {
            let plan = axi::plan(&core.name, &core.ports)?;
            let mut v = core.verilog.clone();
            let maps = core.register_maps();
            for prefix in &plan.csrs {
                let layout = maps.iter().find(|(p, _)| p == prefix).map(|(_, l)| *l);
                let layout =
                    layout.ok_or_else(|| format!("{}: CSR port {prefix}csr_* without a register map", core.name))?;
                let slave = AxilCsr::new(layout);
                let name = axi::slave_module(&core.name, prefix);
                v += &crate::common::reg::with_initial_values(initial, || crate::emit::generate(&name, slave))?;
            }
            let module = format!("{}_axi", core.name);
            let wrapper = axi::wrapper(&core.name, &core.description, &plan);
            let ports = parse_ports(&module, &wrapper);
            (module, format!("{wrapper}\n{v}"), ports, Some(plan))
        }
    };
    let res = build.resources.as_ref();
    Ok(Ip {
        module,
        bus,
        core,
        verilog,
        ports,
        plan,
        ii: res.map(|s| if s.ii1 { 1 } else { 2 }),
        memory_bits: res.map(|s| s.memories.iter().map(|m| m.bits()).sum()),
        latency: res.map(|s| s.latency.clone()).unwrap_or_default(),
    })
}

/// The AXI flavour of build `inner` of `core` as a build of its own: see [`axi_of`].
pub fn axi_build(core: &str, inner: &str, synth: bool) -> Result<Build, String> {
    Ok(axi_of(find_build(core, Some(inner))?, synth))
}

/// The AXI flavour of build `b` as a build of its own (the same register map and parameters): with `synth`,
/// the synthesis configuration `<b>` of core `axi` (module `axi_<b>`, when `b` is synthesized); without,
/// the emitted, co-simulated top `<b>_axi`.
pub fn axi_of(b: Build, synth: bool) -> Build {
    let inner = b.name.clone();
    let (desc, params, csr, csr_ports) = (b.description.clone(), b.params.clone(), b.csr.clone(), b.csr_ports.clone());
    let synth = if synth { b.synth.clone() } else { None };
    let resources = b.resources.clone();
    let gen = std::sync::Arc::new(b);
    let mut out = Build::verilog(format!("{inner}_axi"), format!("{desc}, AXI flavour"), params, move |module| {
        let ip = generate(&gen, Bus::Axi, crate::common::reg::initial_values())?;
        Ok(ip.verilog.replacen(&format!("module {}(", ip.module), &format!("module {module}("), 1))
    });
    out.csr = csr;
    out.csr_ports = csr_ports;
    out.resources = resources;
    if let Some(s) = synth {
        out = out.synth_only("axi", &inner, s.ii1, s.memories);
        if s.ecp5_bram {
            out = out.ecp5_bram();
        }
    }
    out
}

/// The AXI flavours the registry lists (core `axi`): each measurement core's default build, synthesized
/// only (`netmeas synth --core axi --config <build>`: the wrapper's cost and Fmax beside the bare core's),
/// and the report FIFO's, co-simulated.
pub fn axi_builds() -> Result<Vec<Build>, String> {
    [("fridge", "fridge_dp"), ("finecomb", "finecomb_tx"), ("heavy_hitters", "hh_d2"), ("reordering", "ro_a6")]
        .into_iter()
        .chain([("ifpd", "ifpd_d4"), ("maple", "maple_k8")])
        .map(|(core, inner)| axi_build(core, inner, true))
        // Co-simulated: the report FIFO's AXI flavour (`fifo_axi`: a slave stream without tready, a master
        // stream under backpressure, the level and drop count passed through) and the IFPD, fridge,
        // FineComb, MAPLE, heavy-hitter and reordering cores' and the reordering hybrid's (three slaves),
        // driven through their AXI4-Lite slaves and streams by the cores' own traffic.
        .chain(
            [("fifo", "fifo"), ("ifpd", "ifpd_d4"), ("fridge", "fridge_dp"), ("finecomb", "finecomb_tx")]
                .into_iter()
                .chain([("maple", "maple_k8"), ("heavy_hitters", "hh_d2"), ("reordering", "ro_a6")])
                .chain([("reordering", "ro_hy4")])
                .map(|(core, inner)| axi_build(core, inner, false)),
        )
        .collect()
}

impl Ip {
    /// The files of the IP: `(file name, contents)`.
    pub fn files(&self) -> Vec<(String, String)> {
        let m = &self.module;
        let mut files = vec![(format!("{m}.v"), self.verilog.clone())];
        let mut names = vec![format!("{m}.v"), format!("{m}.json"), format!("{m}.core")];
        for (prefix, l) in self.core.register_maps() {
            let c = self.core.map_stem(prefix);
            files.push((format!("{c}.regs.md"), l.markdown(&format!("{c} registers"))));
            files.push((format!("{c}_regs.h"), l.c_header(&format!("nm_{c}"))));
            files.push((format!("{c}.rdl"), l.systemrdl(&format!("nm_{c}"), &format!("{c} registers"))));
            names.extend([format!("{c}.regs.md"), format!("{c}_regs.h"), format!("{c}.rdl")]);
        }
        files.push((format!("{m}.json"), self.manifest(&names)));
        files.push((format!("{m}.core"), self.fusesoc()));
        files
    }
    /// What `netmeas generate` prints: the module, its buses and every stream field's bits in `tdata`.
    pub fn summary(&self) -> String {
        use std::fmt::Write;
        let mut o = format!("{} ({} bus): {}\n", self.module, self.bus.name(), self.core.description);
        for l in &self.latency {
            let (from, to) = self.stream_names(l);
            let cycles =
                l.cycles.map_or("not measured (no answer within 2^22 cycles)".into(), |n| format!("{n} cycles"));
            let _ = writeln!(o, "  latency {from} → {to}: {cycles} ({})", l.note);
        }
        let Some(plan) = &self.plan else { return o };
        let maps = self.core.register_maps();
        for prefix in &plan.csrs {
            let n = maps.iter().find(|(p, _)| p == prefix).map_or(0, |(_, l)| l.registers().len());
            let bus = format!("{}_*", axi::slave_bus(prefix));
            let _ = writeln!(o, "  {bus:<18} AXI4-Lite slave, {n} registers (byte offset = 4 × address)");
        }
        for s in &plan.streams {
            let dir = if s.input { "in " } else { "out" };
            let ready = if s.ready { "" } else { ", no tready" };
            let bus = format!("{}_*", s.prefix());
            let _ = writeln!(o, "  {bus:<18} {dir} AXI4-Stream, tdata {} bits{ready}", s.tdata_bits);
            for f in &s.fields {
                let _ = writeln!(o, "      tdata[{}:{}]  {}", f.lsb + f.width - 1, f.lsb, f.port);
            }
        }
        for p in &plan.passthrough {
            let _ = writeln!(o, "  {:<18} {} (passed through)", p.name, p.dir);
        }
        o
    }
    /// A latency path's streams as this flavour names them (`in`, or `s_axis_in` for the AXI flavour).
    fn stream_names(&self, l: &golden::common::latency::Latency) -> (String, String) {
        match self.bus {
            Bus::Axi => (format!("s_axis_{}", l.from), format!("m_axis_{}", l.to)),
            Bus::Native => (l.from.to_string(), l.to.to_string()),
        }
    }
    /// Writes `files` (from [`Self::files`]) into `dir` (created if missing); returns their paths.
    pub fn write(dir: &std::path::Path, files: &[(String, String)]) -> Result<Vec<std::path::PathBuf>, String> {
        std::fs::create_dir_all(dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
        let mut out = Vec::new();
        for (name, text) in files {
            let p = dir.join(name);
            std::fs::write(&p, text).map_err(|e| format!("cannot write {}: {e}", p.display()))?;
            out.push(p);
        }
        Ok(out)
    }
    fn manifest(&self, files: &[String]) -> String {
        let regs = |l: &golden::common::csr::CsrLayout| -> Vec<serde_json::Value> {
            l.registers()
                .into_iter()
                .map(|r| {
                    let offset = r.offset();
                    let mut v = serde_json::to_value(r).unwrap_or_default();
                    v["offset"] = json!(offset);
                    v
                })
                .collect()
        };
        let registers = self.core.csr.as_ref().map_or(vec![], regs);
        // A top with several CSR ports: each prefixed port's map, under its AXI4-Lite bus name (AXI flavour) or
        // its port's prefix (`hh_csr`, native).
        let port_name = |p: &str| match self.bus {
            Bus::Axi => axi::slave_bus(p),
            Bus::Native => format!("{p}csr"),
        };
        let buses: serde_json::Map<String, serde_json::Value> =
            self.core.csr_ports.iter().map(|(p, l)| (port_name(p), json!(regs(l)))).collect();
        let latency: Vec<serde_json::Value> = self
            .latency
            .iter()
            .map(|l| {
                let (from, to) = self.stream_names(l);
                json!({"from": from, "to": to, "cycles": l.cycles, "note": l.note})
            })
            .collect();
        let m = json!({
            "generator": format!("netmeas {} (rust-hdl 0.46)", env!("CARGO_PKG_VERSION")),
            "module": self.module,
            "core": self.core.name,
            "description": self.core.description,
            "bus": self.bus.name(),
            "params": self.core.params,
            "ports": self.ports,
            "native_ports": self.core.ports,
            "streams": self.plan.as_ref().map(|p| &p.streams),
            "registers": registers,
            "csr_ports": buses,
            "initiation_interval": self.ii,
            "latency": latency,
            "memory_bits": self.memory_bits,
            "reset": "synchronous, active high",
            "files": files,
        });
        serde_json::to_string_pretty(&m).unwrap_or_default() + "\n"
    }
    /// A FuseSoC CAPI2 core description of the Verilog file (a default target and a Verilator lint target).
    fn fusesoc(&self) -> String {
        let m = &self.module;
        format!(
            "CAPI=2:\n# Generated by netmeas; do not edit.\nname: netmeas:cores:{m}:{}\ndescription: \"{}\"\n\n\
             filesets:\n  rtl:\n    files:\n      - {m}.v\n    file_type: verilogSource\n\n\
             targets:\n  default:\n    filesets: [rtl]\n    toplevel: {m}\n  lint:\n    default_tool: verilator\n\
             \x20   filesets: [rtl]\n    toplevel: {m}\n    tools:\n      verilator:\n        mode: lint-only\n\
             \x20       verilator_options: [-Wall, -Wno-DECLFILENAME]\n",
            env!("CARGO_PKG_VERSION"),
            self.core.description.replace('"', "'"),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unknown_builds_are_named_with_the_choices() {
        let e = find_build("fridge", Some("fridge_x")).err().unwrap();
        assert!(e.contains("no build `fridge_x`") && e.contains("fridge_dp"), "{e}");
        assert!(find_build("nope", None).err().unwrap().contains("fridge"));
    }

    /// Every build `generate` offers states its latency paths (measured on golden's cycle model), the
    /// manifest lists them in the flavour's stream names — but FineComb's, whose records come at readout.
    /// The default builds' values are pinned: a change of a core's pipeline depth shows here.
    #[test]
    fn manifests_state_the_latency_of_every_core_but_finecomb() {
        let expected: &[(&str, &[(&str, &str, u64)])] = &[
            ("fridge", &[("in", "rep", 7)]),
            ("finecomb", &[]),
            ("heavy_hitters", &[("in", "res", 7)]),
            ("reordering", &[("in", "res", 6)]), // (the hybrid builds: two paths, checked below)
            ("ifpd", &[("in", "res", 7)]),
            ("maple", &[("in", "res", 4), ("lk", "ans", 8)]),
        ];
        for (core, paths) in expected {
            // (Blocks a core offers as tops of their own — the fridge's tally, FineComb's stages — state none.)
            let single = |b: &Build| b.resources.is_some() && !b.name.starts_with("ro_hy");
            for b in builds(core).unwrap().into_iter().filter(single) {
                let latency = &b.resources.as_ref().unwrap().latency;
                assert_eq!(latency.len(), paths.len(), "{}", b.name);
                for (l, (from, to, _)) in latency.iter().zip(*paths) {
                    assert_eq!((l.from, l.to), (*from, *to), "{}", b.name);
                    assert!(l.cycles.is_some_and(|n| (1..=32).contains(&n)), "{}: {l:?}", b.name);
                }
            }
            let ip = generate(&find_build(core, None).unwrap(), Bus::Axi, false).unwrap();
            let cycles: Vec<Option<u64>> = ip.latency.iter().map(|l| l.cycles).collect();
            assert_eq!(cycles, paths.iter().map(|p| Some(p.2)).collect::<Vec<_>>(), "{core}");
            let manifest: serde_json::Value = serde_json::from_str(&ip.manifest(&[])).unwrap();
            for (m, (from, to, n)) in manifest["latency"].as_array().unwrap().iter().zip(*paths) {
                let want = json!({"from": format!("s_axis_{from}"), "to": format!("m_axis_{to}"), "cycles": n});
                assert_eq!([&m["from"], &m["to"], &m["cycles"]], [&want["from"], &want["to"], &want["cycles"]]);
            }
        }
        for b in ["ro_hy4", "ro_hy"] {
            let l = &find_build("reordering", Some(b)).unwrap().resources.unwrap().latency;
            let paths: Vec<_> = l.iter().map(|l| (l.from, l.to, l.cycles)).collect();
            assert_eq!(paths.iter().map(|p| p.1).collect::<Vec<_>>(), ["hh_res", "side_res"], "{b}");
            assert!(paths.iter().all(|p| p.2.is_some_and(|n| (1..=32).contains(&n))), "{b}: {paths:?}");
        }
    }
}
