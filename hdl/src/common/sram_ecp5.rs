//! Lattice ECP5 block RAM with its output register, for the banks of a registered [`super::sram::Sram`].
//!
//! Why: a registered bank is address register → block RAM → bank register `q2` → bank mux. Yosys's ECP5
//! block-RAM mapping (share/lattice/brams_16kd.txt) knows only `REGMODE = "NOREG"`, so `q2` becomes a fabric
//! flip-flop and the path into it starts at the DP16KD's slow unregistered output (4.26 ns clock-to-out on
//! LFE5U-85F-8) plus the route to wherever the placer put `q2` (2.6 ns in the IFPD's d4_a12 build: 145.6 MHz).
//! With `REGMODE_B = "OUTREG"` the DP16KD's own output register is `q2`: same cycle, same latency, and the
//! route starts at a register.
//!
//! How: when the Verilog is read with `NETMEAS_ECP5` defined (`netmeas synth` does: `read_verilog
//! -DNETMEAS_ECP5`), each bank of 2^10..=2^14 words instantiates DP16KD tiles of the one shape that holds
//! exactly 2^BA words: 16K × 1, 8K × 2, 4K × 4, 2K × 9 or 1K × 18 (`W` bits need ⌈W / TW⌉ tiles, the
//! same count Yosys's own mapping reaches). Port A writes (`wd` at `wa`, single-port: `ra`), port B reads
//! (`ra`) through its output register; `CEA`/`CEB`/`OCEB` tied high, chip selects and resets unused.
//! Address pins: `AD[13:s]` = word address, `s` = log2 of the tile's width class (x1: 0, x2: 1, x4: 2,
//! x9: 3, x18: 4); x18's `AD[1:0]` are its byte enables (both on), `AD[3:2]` zero.
//! Without the define (simulators, other FPGA families) the bank stays the portable inferred block. Banks
//! smaller than 2^10 words (co-simulation tops) have no primitive flavour: a 512 × 36 tile would need the
//! PDPW16KD, and no synthesis build has such a bank (`RamTiming::registered` picks at least 2^10 words for
//! tables of that size and up; see `golden::common::sram`).
//!
//! Proof: hdl/tests/ecp5_bram.rs Verilates both flavours of several bank shapes (the primitive one with a
//! behavioural DP16KD of the documented pin map, hdl/tests/ecp5/dp16kd_model.v) and requires identical read
//! data on random traffic, cycle by cycle.

/// The Verilog macro that selects the DP16KD flavour.
pub const DEFINE: &str = "NETMEAS_ECP5";

/// Width classes of a DP16KD port by bank address bits: `(tile width, low address pins s)`, or `None` when
/// the bank has no primitive flavour (outside 2^10..=2^14 words).
pub fn tile_shape(bank_addr_bits: usize) -> Option<(usize, usize)> {
    match bank_addr_bits {
        14 => Some((1, 0)),
        13 => Some((2, 1)),
        12 => Some((4, 2)),
        11 => Some((9, 3)),
        10 => Some((18, 4)),
        _ => None,
    }
}

/// The primitive flavour of one bank (inside the bank's generate block: `wd`, `wen` and the address
/// registers `wr_addr`/`rd_addr` exist there; `w` = word bits). Drives `bank_q[g]`. `None`: no flavour.
pub fn bank_tiles(bank_addr_bits: usize, w: usize, wr_addr: &str, rd_addr: &str) -> Option<String> {
    let (tw, s) = tile_shape(bank_addr_bits)?;
    let nt = w.div_ceil(tw);
    // Low address pins: x18's byte enables on, every other sub-word pin zero.
    let low = if tw == 18 { "4'b0011".to_string() } else if s == 0 { String::new() } else { format!("{s}'b0") };
    let cat = |a: &str| if low.is_empty() { a.to_string() } else { format!("{{{a}, {low}}}") };
    let pad = if nt * tw > w { format!("{{{}'b0}}, ", nt * tw - w) } else { String::new() };
    let mut pins: Vec<String> = ["A", "B"]
        .iter()
        .flat_map(|p| {
            // Port A writes, port B only reads.
            let we = if *p == "A" { "wen" } else { "1'b0" };
            [
                format!("CLK{p}(clock)"),
                format!("CE{p}(1'b1)"),
                format!("OCE{p}(1'b1)"),
                format!("WE{p}({we})"),
                format!("RST{p}(1'b0)"),
            ]
        })
        .collect();
    for (port, addr) in [("A", "ad_w"), ("B", "ad_r")] {
        pins.extend((0..14).rev().map(|k| format!("AD{port}{k}({addr}[{k}])")));
        pins.extend((0..3).rev().map(|k| format!("CS{port}{k}(1'b0)")));
    }
    for k in (0..18).rev() {
        pins.push(if k < tw { format!("DIA{k}(di[t*{tw}+{k}])") } else { format!("DIA{k}(1'b0)") });
        pins.push(format!("DIB{k}(1'b0)"));
        pins.push(format!("DOA{k}()"));
        pins.push(if k < tw { format!("DOB{k}(dob[{k}])") } else { format!("DOB{k}()") });
    }
    let pins = pins.iter().map(|p| format!("         .{p}")).collect::<Vec<_>>().join(",\n");
    Some(format!(
        "   // ECP5 (`{DEFINE}`): {nt} DP16KD of {depth} x {tw}, read port B with its output register.\n\
   wire [13:0] ad_w = {aw};\n   wire [13:0] ad_r = {ar};\n   wire [{top}:0] di = {{{pad}wd}};\n\
   wire [{top}:0] dq;\n\
   for (t = 0; t < {nt}; t = t + 1) begin : tile\n\
      wire [{tm}:0] dob;\n\
      DP16KD #(\n         .DATA_WIDTH_A({tw}),\n         .DATA_WIDTH_B({tw}),\n\
         .REGMODE_A(\"NOREG\"),\n         .REGMODE_B(\"OUTREG\"),\n\
         .RESETMODE(\"SYNC\"),\n         .ASYNC_RESET_RELEASE(\"SYNC\"),\n\
         .CSDECODE_A(\"0b000\"),\n         .CSDECODE_B(\"0b000\"),\n\
         .WRITEMODE_A(\"NORMAL\"),\n         .WRITEMODE_B(\"NORMAL\"),\n         .GSR(\"AUTO\")\n\
      ) ram (\n{pins}\n      );\n\
      assign dq[t*{tw} +: {tw}] = dob;\n   end\n   assign bank_q[g] = dq[W-1:0];\n",
        depth = 1usize << bank_addr_bits,
        aw = cat(&format!("{wr_addr}[BA-1:0]")),
        ar = cat(&format!("{rd_addr}[BA-1:0]")),
        top = nt * tw - 1,
        tm = tw - 1,
    ))
}
