//! The ECP5 flavour of the registered RAM banks (`NETMEAS_ECP5`: DP16KD tiles with their output register,
//! hdl/src/common/sram_ecp5.rs) reads exactly what the portable inferred flavour reads, cycle by cycle.
//!
//! The portable flavour is what every co-simulation runs (against the golden model); synthesis for ECP5 uses
//! the other. Both flavours of five RAM shapes — every tile shape (16K × 1 … 1K × 18), single- and dual-port,
//! one and two banks, word widths that leave a tile partly unused — are Verilated (`verilator --binary`,
//! the primitive flavour with the behavioural DP16KD of hdl/tests/ecp5/dp16kd_model.v) under one testbench:
//! after the reset sweep, random writes and reads (half of the addresses in a small window so most reads
//! find a written word; a read never collides with a write, whose result is undefined in both). The test
//! fails at the first cycle whose read data differ and names it.

use golden::common::sram::{RamPorts, RamTiming};
use hdl::common::sram::Sram;
use hdl::common::sram_ecp5;
use std::path::Path;
use std::process::Command;

/// A RAM shape: name, address bits, word bits, ports, bank address bits; its Verilog comes from `verilog`.
struct Shape {
    name: &'static str,
    a: usize,
    w: usize,
    ports: RamPorts,
    ba: usize,
    verilog: String,
}

fn shape<const A: usize, const W: usize>(name: &'static str, ports: RamPorts, ba: usize) -> Shape {
    let ram = Sram::<A, W>::with_timing(ports, RamTiming::Registered { bank_addr_bits: ba }, true);
    let verilog = hdl::emit::generate(name, ram).expect("Verilog of the RAM");
    Shape { name, a: A, w: W, ports, ba, verilog }
}

fn shapes() -> Vec<Shape> {
    vec![
        shape::<11, 20>("ram_x18", RamPorts::Dual, 10),
        shape::<12, 9>("ram_x9", RamPorts::Single, 11),
        shape::<12, 5>("ram_x4", RamPorts::Dual, 12),
        shape::<14, 3>("ram_x2", RamPorts::Single, 13),
        shape::<14, 2>("ram_x1", RamPorts::Dual, 14),
    ]
}

/// Cycles of random traffic after the slowest sweep.
const CYCLES: usize = 30_000;

/// The testbench: every shape driven from one xorshift64 stream; after all sweeps, one line per cycle:
/// `<cycle>` and each shape's read data, or `-` when that read is not comparable (issued before the
/// traffic started, or in a cycle whose write makes it undefined: the same word on the dual-port RAM, any
/// write on the single-port one). Reads arrive 4 cycles after the address (`REGISTERED_READ_LATENCY`); the
/// testbench sees them one edge later, hence the 5-deep `ok` line.
fn testbench(shapes: &[Shape]) -> String {
    let mut decl = String::new();
    let mut drive = String::new();
    let mut print = String::from("    if (running) begin\n      $write(\"%0d\", cycle);\n");
    for (k, s) in shapes.iter().enumerate() {
        let (a, w, n) = (s.a, s.w, s.name);
        // Addresses: the full range, or the bottom 16 words of a random bank.
        let bank = ((1usize << a) - 1) & !((1usize << s.ba) - 1);
        let addr = |bit: usize| format!("r[{bit}] ? r[{a}+7:8] : (r[{a}+7:8] & {a}'d{})", bank | 15);
        decl += &format!(
            "  reg [{a}-1:0] raddr{k} = 0, waddr{k} = 0, nra{k}, nwa{k};\n  reg [{w}-1:0] wdata{k} = 0;\n\
  reg we{k} = 0, nwe{k};\n  reg [4:0] ok{k} = 0;\n  wire [{w}-1:0] rdata{k};\n  wire busy{k};\n\
  {n} u{k}(.clock(clock), .reset(reset), .raddr(raddr{k}), .rdata(rdata{k}), .we(we{k}), .waddr(waddr{k}),\n\
    .wdata(wdata{k}), .busy(busy{k}));\n"
        );
        let collide = match s.ports {
            RamPorts::Dual => "1'b0".to_string(), // moved to the neighbouring word below
            RamPorts::Single => format!("nwe{k}"),
        };
        drive += &format!(
            "    r = next(r);\n    nwe{k} = running && r[0];\n    nwa{k} = {wa};\n    r = next(r);\n\
    wdata{k} <= r[{w}+7:8];\n    r = next(r);\n    nra{k} = {ra};\n",
            wa = addr(1),
            ra = addr(2),
        );
        if s.ports == RamPorts::Dual {
            drive += &format!("    if (nwe{k} && nra{k} == nwa{k}) nra{k} = nra{k} ^ {a}'d1;\n");
        }
        drive += &format!(
            "    we{k} <= nwe{k};\n    waddr{k} <= nwa{k};\n    raddr{k} <= nra{k};\n\
    ok{k} <= {{ok{k}[3:0], running && !{collide}}};\n"
        );
        print += &format!("      if (ok{k}[4]) $write(\" %h\", rdata{k}); else $write(\" -\");\n");
    }
    print += "      $write(\"\\n\");\n    end\n";
    let busy: Vec<String> = (0..shapes.len()).map(|k| format!("busy{k}")).collect();
    format!(
        "module tb;\n  reg clock = 0;\n  reg reset = 1;\n  reg running = 0;\n  integer cycle = 0;\n  integer done = 0;\n\
  reg [63:0] r = 64'h9E3779B97F4A7C15;\n{decl}\
  function [63:0] next(input [63:0] x);\n    reg [63:0] y;\n    begin\n      y = x ^ (x << 13);\n\
      y = y ^ (y >> 7);\n      next = y ^ (y << 17);\n    end\n  endfunction\n\
  always #1 clock = ~clock;\n\
  always @(posedge clock) begin\n    cycle <= cycle + 1;\n    if (cycle == 2) reset <= 0;\n\
    if (cycle > 4 && !({busy})) running <= 1;\n    if (running) done <= done + 1;\n    if (done == {CYCLES}) $finish;\n\
{drive}{print}  end\nendmodule\n",
        busy = busy.join(" || "),
    )
}

/// Verilates and runs the testbench over the shapes' Verilog; `extra`: more Verilator arguments (defines,
/// Verilog files). Its output.
fn run(dir: &Path, flavour: &str, extra: &[&str]) -> String {
    let mdir = dir.join(flavour);
    let o = Command::new(hdl::lint::verilator_bin())
        .args(["--binary", "-Wno-fatal", "-Wno-lint", "-Wno-style", "--top-module", "tb", "-j", "2", "-Mdir"])
        .arg(&mdir)
        .args(extra)
        .arg(dir.join("tb.v"))
        .arg(dir.join("rams.v"))
        .output()
        .expect("Verilator runs");
    assert!(o.status.success(), "verilator --binary ({flavour}) failed:\n{}", String::from_utf8_lossy(&o.stderr));
    let o = Command::new(mdir.join("Vtb")).output().expect("the Verilated testbench runs");
    assert!(o.status.success(), "{flavour} testbench failed:\n{}", String::from_utf8_lossy(&o.stderr));
    String::from_utf8(o.stdout).unwrap()
}

#[test]
fn ecp5_tiles_read_what_the_inferred_banks_read() {
    let shapes = shapes();
    for s in &shapes {
        assert!(sram_ecp5::tile_shape(s.ba).is_some(), "{}: bank of 2^{} words has a tile shape", s.name, s.ba);
        assert!(s.verilog.contains(&format!("`ifdef {}", sram_ecp5::DEFINE)), "{} has the ECP5 flavour", s.name);
    }
    let dir = std::env::temp_dir().join(format!("netmeas-ecp5-bram-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("tb.v"), testbench(&shapes)).unwrap();
    std::fs::write(dir.join("rams.v"), shapes.iter().map(|s| s.verilog.as_str()).collect::<Vec<_>>().join("\n")).unwrap();
    let model = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/ecp5/dp16kd_model.v");
    let inferred = run(&dir, "inferred", &[]);
    let define = format!("-D{}", sram_ecp5::DEFINE);
    let tiles = run(&dir, "tiles", &[&define, model]);
    let (a, b): (Vec<&str>, Vec<&str>) = (inferred.lines().collect(), tiles.lines().collect());
    assert!(a.len() >= CYCLES, "the inferred flavour printed {} cycles, expected {CYCLES}", a.len());
    for (x, y) in a.iter().zip(&b) {
        assert_eq!(x, y, "first differing cycle (cycle, then each shape's read data: {:?}):\ninferred: {x}\ntiles:    {y}",
            shapes.iter().map(|s| s.name).collect::<Vec<_>>());
    }
    assert_eq!(a.len(), b.len(), "both flavours run the same cycles");
    // Not vacuous: every shape returned many different written words.
    for (k, s) in shapes.iter().enumerate() {
        let words: std::collections::HashSet<&str> =
            a.iter().filter_map(|l| l.split(' ').nth(k + 1)).filter(|v| *v != "-" && v.bytes().any(|c| c != b'0')).collect();
        let want = (1usize << s.w).min(200) / 2;
        assert!(words.len() >= want, "{}: only {} distinct non-zero reads (want {want})", s.name, words.len());
    }
    let _ = std::fs::remove_dir_all(&dir);
}
