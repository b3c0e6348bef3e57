//! The AXI flavour of a core (`<top>_axi`): the core's native ports mapped onto standard buses, the way
//! verilog-ethernet and corundum modules present theirs — `clk`, synchronous active-high `rst`, an AXI4-Lite
//! slave `s_axil_*` for the registers ([`crate::common::axil::AxilCsr`] in front of the core's CSR port),
//! and one AXI4-Stream per valid/ready group of ports.
//!
//! # Mapping (derived from the top's ports, so every core follows it)
//! - A **stream** is a group of ports `<g>_valid`, optional `<g>_ready`, and fields `<g>_<f>`. A group whose
//!   `valid` is an input is a slave stream `s_axis_<g>_{tdata,tvalid,tready}`; one whose `valid` is an
//!   output is a master stream `m_axis_<g>_{tdata,tvalid,tready,tlast}`. A name `<g>_<x>_valid` inside
//!   another group `<g>` is a field of that group (MAPLE's `ans_center_valid`), not a stream.
//! - `tdata` is the fields in port order, the first at bit 0, padded with zeros to whole bytes
//!   ([`Stream::fields`] lists each field's bit range; the manifest and `netmeas generate` print them).
//!   Every record or report is one beat, so `tlast` is high on every beat (one record per AXI4-Stream
//!   packet). The wrapper adds no register on any stream: the core's cycle behaviour is unchanged, `tready`
//!   is the core's `ready` and `tvalid` its `valid`.
//! - A master stream without `<g>_ready` (per-packet results, which the core produces at line rate and
//!   cannot hold) has no `tready`: the user must take every beat.
//! - Other ports keep their names (e.g. `swept`).
//! - A top with several CSR ports `<p>csr_*` (the reordering hybrid: `smp_`, `side_`, `hh_`) gets one
//!   AXI4-Lite slave per port, `s_axil_<p>*` (`s_axil_hh_awaddr`), each its own module `<top>_<p>axil`
//!   with that port's register map (the sub-cores' maps stay separate, as their software does).

use crate::emit::Port;
use serde::Serialize;

/// One field of a stream's `tdata`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Field {
    /// The core's port.
    pub port: String,
    /// Lowest bit in `tdata`.
    pub lsb: usize,
    pub width: usize,
}

/// One AXI4-Stream of the wrapper.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Stream {
    /// Group name: the bus is `s_axis_<name>_*` (input) or `m_axis_<name>_*` (output).
    pub name: String,
    /// Descriptors into the core (a slave stream).
    pub input: bool,
    /// The stream has `tready` (the core's `<name>_ready`).
    pub ready: bool,
    pub fields: Vec<Field>,
    /// `tdata` width: the fields' total rounded up to whole bytes.
    pub tdata_bits: usize,
}

impl Stream {
    /// The bus signal prefix: `s_axis_<name>` or `m_axis_<name>`.
    pub fn prefix(&self) -> String {
        format!("{}_axis_{}", if self.input { "s" } else { "m" }, self.name)
    }
    fn field_bits(&self) -> usize {
        self.fields.iter().map(|f| f.width).sum()
    }
}

/// How a top's ports map onto the AXI flavour.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct AxiPlan {
    /// The top's CSR ports by prefix (`""` for `csr_*`, `"hh_"` for `hh_csr_*`), in port order: each is
    /// served by an AXI4-Lite slave ([`slave_bus`], [`slave_module`]).
    pub csrs: Vec<String>,
    pub streams: Vec<Stream>,
    /// Ports passed through under their own names.
    pub passthrough: Vec<Port>,
}

const CSR_PINS: [&str; 6] = ["addr", "wr_en", "wr_data", "rd_en", "rd_valid", "rd_data"];

/// The plan for a top with `ports` (see the [module docs](self)).
pub fn plan(top: &str, ports: &[Port]) -> Result<AxiPlan, String> {
    let find = |n: &str| ports.iter().find(|p| p.name == n);
    if find("clock").is_none() || find("reset").is_none() {
        return Err(format!("{top} has no clock and reset ports of a netmeas core (an AXI flavour already?)"));
    }
    let csrs: Vec<String> = ports
        .iter()
        .filter_map(|p| p.name.strip_suffix("csr_addr"))
        .filter(|p| p.is_empty() || p.ends_with('_'))
        .map(String::from)
        .collect();
    for p in &csrs {
        if let Some(missing) = CSR_PINS.iter().find(|n| find(&format!("{p}csr_{n}")).is_none()) {
            return Err(format!("{top}: CSR port {p}csr_* without {p}csr_{missing}"));
        }
    }
    let in_csr = |name: &str| csrs.iter().any(|p| CSR_PINS.iter().any(|n| name == format!("{p}csr_{n}")));
    // A CSR port's pins (`csr_rd_valid`) belong to it, not to a stream.
    let groups: Vec<&str> =
        ports.iter().filter(|p| !in_csr(&p.name)).filter_map(|p| p.name.strip_suffix("_valid")).collect();
    // A group is a stream unless it is a field of another group (`ans_center` inside `ans`).
    let streams: Vec<&str> =
        groups.iter().copied().filter(|g| !groups.iter().any(|h| h != g && g.starts_with(&format!("{h}_")))).collect();
    let owner = |name: &str| -> Option<&str> {
        streams.iter().copied().filter(|g| name.starts_with(&format!("{g}_"))).max_by_key(|g| g.len())
    };
    let mut out = AxiPlan { csrs: csrs.clone(), streams: Vec::new(), passthrough: Vec::new() };
    for g in &streams {
        let valid = find(&format!("{g}_valid")).expect("the group's valid port");
        let input = valid.dir == "input";
        let ready = find(&format!("{g}_ready"));
        if let Some(r) = ready {
            if (r.dir == "input") == input {
                return Err(format!("{top}: {g}_ready has the direction of {g}_valid"));
            }
        }
        let mut s = Stream { name: g.to_string(), input, ready: ready.is_some(), fields: Vec::new(), tdata_bits: 0 };
        for p in ports.iter().filter(|p| owner(&p.name) == Some(g)) {
            if p.name == valid.name || Some(p) == ready {
                continue;
            }
            if (p.dir == "input") != input {
                return Err(format!("{top}: field {} of stream {g} runs against the stream", p.name));
            }
            s.fields.push(Field { port: p.name.clone(), lsb: s.field_bits(), width: p.width });
        }
        s.tdata_bits = s.field_bits().div_ceil(8).max(1) * 8;
        out.streams.push(s);
    }
    for p in ports {
        if p.name != "clock" && p.name != "reset" && !in_csr(&p.name) && owner(&p.name).is_none() {
            out.passthrough.push(p.clone());
        }
    }
    Ok(out)
}

fn range(width: usize) -> String {
    if width == 1 {
        String::new()
    } else {
        format!("[{}:0] ", width - 1)
    }
}

/// The AXI4-Lite slave's ports as (direction, width, name suffix).
const AXIL_PORTS: [(&str, usize, &str); 17] = [
    ("input", golden::common::axil::AXIL_ADDR_BITS, "awaddr"),
    ("input", 1, "awvalid"),
    ("output", 1, "awready"),
    ("input", 32, "wdata"),
    ("input", 4, "wstrb"),
    ("input", 1, "wvalid"),
    ("output", 1, "wready"),
    ("output", 2, "bresp"),
    ("output", 1, "bvalid"),
    ("input", 1, "bready"),
    ("input", golden::common::axil::AXIL_ADDR_BITS, "araddr"),
    ("input", 1, "arvalid"),
    ("output", 1, "arready"),
    ("output", 32, "rdata"),
    ("output", 2, "rresp"),
    ("output", 1, "rvalid"),
    ("input", 1, "rready"),
];

/// The AXI4-Lite bus serving CSR port `<prefix>csr_*`: `s_axil` (ports `s_axil_awaddr`, …), or
/// `s_axil_<prefix without its '_'>` (`s_axil_hh_awaddr`, …).
pub fn slave_bus(prefix: &str) -> String {
    match prefix.trim_end_matches('_') {
        "" => "s_axil".into(),
        p => format!("s_axil_{p}"),
    }
}

/// The slave module of top `top`'s CSR port `<prefix>csr_*`: `<top>_axil` or `<top>_<prefix>axil`.
pub fn slave_module(top: &str, prefix: &str) -> String {
    format!("{top}_{prefix}axil")
}

/// The wrapper module `<top>_axi` around module `top` (and one slave per CSR port, [`slave_module`]), as
/// Verilog text.
pub fn wrapper(top: &str, description: &str, plan: &AxiPlan) -> String {
    let mut ports: Vec<String> = vec!["input wire clk".into(), "input wire rst".into()];
    let mut body = String::new();
    let mut core_conn: Vec<String> = vec![".clock(clk)".into(), ".reset(rst)".into()];
    for prefix in &plan.csrs {
        let bus = slave_bus(prefix);
        let whose = if prefix.is_empty() { "the core's".to_string() } else { format!("port {prefix}csr_*:") };
        ports.push(format!("// AXI4-Lite slave: {whose} registers (byte address 4k = register k)"));
        for (dir, w, n) in AXIL_PORTS {
            ports.push(format!("{dir} wire {}{bus}_{n}", range(w)));
        }
        let p = prefix;
        body += &format!("wire [7:0] {p}csr_addr;\nwire {p}csr_wr_en;\nwire [31:0] {p}csr_wr_data;\n");
        body += &format!("wire {p}csr_rd_en;\nwire {p}csr_rd_valid;\nwire [31:0] {p}csr_rd_data;\n");
        let mut conn: Vec<String> = vec![".clock(clk)".into(), ".reset(rst)".into()];
        conn.extend(AXIL_PORTS.iter().map(|(_, _, n)| format!(".s_axil_{n}({bus}_{n})")));
        conn.extend(CSR_PINS.iter().map(|n| format!(".csr_{n}({p}csr_{n})")));
        let module = slave_module(top, prefix);
        body += &format!("{module} {p}axil (\n    {}\n);\n", conn.join(",\n    "));
        core_conn.extend(CSR_PINS.iter().map(|n| format!(".{p}csr_{n}({p}csr_{n})")));
    }
    for s in &plan.streams {
        let p = s.prefix();
        let (din, dout) = if s.input { ("input", "output") } else { ("output", "input") };
        let layout: Vec<String> =
            s.fields.iter().map(|f| format!("{}[{}:{}]", f.port, f.lsb + f.width - 1, f.lsb)).collect();
        ports.push(format!(
            "// AXI4-Stream {}: tdata = {}",
            if s.input { "slave (into the core)" } else { "master (out of the core)" },
            if layout.is_empty() { "(no fields)".into() } else { layout.join(", ") }
        ));
        ports.push(format!("{din} wire {}{p}_tdata", range(s.tdata_bits)));
        ports.push(format!("{din} wire {p}_tvalid"));
        if s.ready {
            ports.push(format!("{dout} wire {p}_tready"));
        }
        core_conn.push(format!(".{}_valid({p}_tvalid)", s.name));
        if s.ready {
            core_conn.push(format!(".{}_ready({p}_tready)", s.name));
        }
        for f in &s.fields {
            core_conn.push(format!(".{}({p}_tdata[{}:{}])", f.port, f.lsb + f.width - 1, f.lsb));
        }
        let used = s.field_bits();
        if s.input {
            if used < s.tdata_bits {
                body += &format!("wire unused_{p}_pad = |{p}_tdata[{}:{used}];\n", s.tdata_bits - 1);
            }
        } else {
            ports.push(format!("output wire {p}_tlast"));
            body += &format!("assign {p}_tlast = 1'b1;\n");
            if used < s.tdata_bits {
                body += &format!("assign {p}_tdata[{}:{used}] = {}'d0;\n", s.tdata_bits - 1, s.tdata_bits - used);
            }
        }
    }
    for p in &plan.passthrough {
        ports.push(format!("{} wire {}{}", p.dir, range(p.width), p.name));
        core_conn.push(format!(".{0}({0})", p.name));
    }
    // Non-ANSI header (names only, then one declaration per line), the style of the rust-hdl modules, so
    // one port parser (`crate::emit::parse_ports`) reads every top.
    let names: Vec<String> = ports
        .iter()
        .filter(|p| !p.starts_with("//"))
        .map(|p| p.rsplit(' ').next().unwrap_or_default().to_string())
        .collect();
    let decls: String =
        ports.iter().map(|p| if p.starts_with("//") { format!("{p}\n") } else { format!("{p};\n") }).collect();
    format!(
        "// {top}_axi: {description}; AXI4-Lite registers and AXI4-Stream descriptors and reports.\n\
         // Generated by netmeas (hdl::axi); do not edit.\n\
         module {top}_axi({});\n{decls}{body}{top} core (\n    {}\n);\nendmodule\n",
        names.join(", "),
        core_conn.join(",\n    ")
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(name: &str, dir: &str, width: usize) -> Port {
        Port { name: name.into(), dir: dir.into(), width }
    }

    #[test]
    fn groups_fields_nested_valids_and_passthrough() {
        let ports = vec![
            p("clock", "input", 1),
            p("reset", "input", 1),
            p("in_valid", "input", 1),
            p("in_key", "input", 64),
            p("in_latency", "input", 3),
            p("in_ready", "output", 1),
            p("swept", "output", 1),
            p("ans_valid", "output", 1),
            p("ans_center_valid", "output", 1),
            p("ans_center", "output", 7),
            p("ans_ready", "input", 1),
            p("res_valid", "output", 1),
            p("res_row", "output", 2),
            p("csr_addr", "input", 8),
            p("csr_wr_en", "input", 1),
            p("csr_wr_data", "input", 32),
            p("csr_rd_en", "input", 1),
            p("csr_rd_valid", "output", 1),
            p("csr_rd_data", "output", 32),
        ];
        let plan = plan("t", &ports).unwrap();
        assert_eq!(plan.csrs, [""]);
        let names: Vec<&str> = plan.streams.iter().map(|s| s.name.as_str()).collect();
        assert_eq!(names, ["in", "ans", "res"]);
        let input = &plan.streams[0];
        assert!(input.input && input.ready);
        assert_eq!(input.fields[1], Field { port: "in_latency".into(), lsb: 64, width: 3 });
        assert_eq!(input.tdata_bits, 72);
        let ans = &plan.streams[1];
        assert_eq!(ans.fields.iter().map(|f| f.port.as_str()).collect::<Vec<_>>(), ["ans_center_valid", "ans_center"]);
        assert!(!plan.streams[2].ready && !plan.streams[2].input);
        assert_eq!(plan.passthrough, vec![p("swept", "output", 1)]);
        let v = wrapper("t", "test", &plan);
        assert!(v.contains(".in_latency(s_axis_in_tdata[66:64])"), "{v}");
        assert!(v.contains("wire unused_s_axis_in_pad = |s_axis_in_tdata[71:67];"), "{v}");
        assert!(v.contains("assign m_axis_res_tdata[7:2] = 6'd0;"), "{v}");
        assert!(!v.contains("assign m_axis_ans_tdata"), "ans fills its byte: {v}");
        assert!(!v.contains("m_axis_res_tready"), "{v}");
        assert!(v.contains("t_axil axil ("), "{v}");
        // The one port parser reads the wrapper like every rust-hdl top.
        let parsed = crate::emit::parse_ports("t_axi", &v);
        assert_eq!(parsed.len(), 2 + 17 + 3 + 4 + 3 + 1, "{parsed:?}");
        assert!(
            parsed.contains(&p("s_axil_awaddr", "input", 10)) && parsed.contains(&p("m_axis_res_tdata", "output", 8))
        );
    }

    /// Several CSR ports: one slave each, named by the port's prefix; their pins are no stream's fields.
    #[test]
    fn several_csr_ports_get_a_slave_each() {
        let mut ports = vec![p("clock", "input", 1), p("reset", "input", 1), p("in_valid", "input", 1)];
        for prefix in ["smp_", "hh_"] {
            for (n, dir, w) in [("addr", "input", 8), ("wr_en", "input", 1), ("wr_data", "input", 32)] {
                ports.push(p(&format!("{prefix}csr_{n}"), dir, w));
            }
            for (n, dir, w) in [("rd_en", "input", 1), ("rd_valid", "output", 1), ("rd_data", "output", 32)] {
                ports.push(p(&format!("{prefix}csr_{n}"), dir, w));
            }
        }
        let plan = plan("ro_hy", &ports).unwrap();
        assert_eq!(plan.csrs, ["smp_", "hh_"]);
        assert_eq!(plan.streams.len(), 1, "{plan:?}");
        assert!(plan.passthrough.is_empty(), "{plan:?}");
        let v = wrapper("ro_hy", "test", &plan);
        for says in ["ro_hy_smp_axil smp_axil (", "ro_hy_hh_axil hh_axil (", ".s_axil_awaddr(s_axil_hh_awaddr)"] {
            assert!(v.contains(says), "{says}: {v}");
        }
        assert!(v.contains(".hh_csr_rd_data(hh_csr_rd_data)") && v.contains("wire [7:0] smp_csr_addr;"), "{v}");
        let parsed = crate::emit::parse_ports("ro_hy_axi", &v);
        assert_eq!(parsed.len(), 2 + 2 * 17 + 2, "{parsed:?}");
        assert!(parsed.contains(&p("s_axil_smp_rdata", "output", 32)), "{parsed:?}");
        // A port missing a pin is named.
        ports.retain(|q| q.name != "hh_csr_rd_en");
        assert!(super::plan("ro_hy", &ports).unwrap_err().contains("hh_csr_* without hh_csr_rd_en"));
        let e = super::plan("t_axi", &[p("clk", "input", 1), p("rst", "input", 1)]).unwrap_err();
        assert!(e.contains("AXI flavour already"), "{e}");
    }
}
