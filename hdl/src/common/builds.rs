//! Builds of the shared blocks (see [`crate::registry`]): the tops that `netmeas verilog` emits, the
//! testbench co-simulates and `netmeas synth` synthesizes, one function per block.
//!
//! Co-simulation tops are small (many natural hazards, FIFOs that overflow); the synthesis-only builds are
//! the sizes a core would use.

use crate::common::delay::DelayLine;
use crate::common::fifo::ReportFifo;
use crate::common::prng::Prng;
use crate::common::rmw::FORWARD_ALL;
use crate::common::sram::Sram;
use crate::registry::{Build, MemoryNeed};
use crate::tops::*;
use golden::common::sram::{RamPorts, RamTiming};
use serde_json::json;

fn table(entries: u64, width: u64) -> Vec<MemoryNeed> {
    vec![MemoryNeed::new("table", entries, width)]
}

/// The four hash functions on a 128-bit and a 104-bit key; synthesized on both keys.
pub fn hash() -> Result<Vec<Build>, String> {
    let kinds: Vec<String> = HASH_TOP_KINDS.iter().map(|k| k.name()).collect();
    let params = |key_bits: usize| json!({"key_bits": key_bits, "functions": kinds});
    Ok(vec![
        Build::new(
            "hash128",
            "CRC-16/UMTS, CRC-16/EN-13757, CRC-32/MPEG-2 and H3 units on one 128-bit key",
            params(128),
            HashTop::<128>::new,
        ),
        Build::new(
            "hash104",
            "the same four hash units on a 104-bit key (an IPv4 5-tuple)",
            params(104),
            HashTop::<104>::new,
        ),
        Build::new("", "four hash units, 104-bit key", params(104), HashTop::<104>::new).synth_only(
            "hash",
            "k104",
            true,
            vec![],
        ),
        Build::new("", "four hash units, 128-bit key", params(128), HashTop::<128>::new).synth_only(
            "hash",
            "k128",
            true,
            vec![],
        ),
    ])
}

/// The delay line.
pub fn delay() -> Result<Vec<Build>, String> {
    let params = json!({"width": DELAY_TOP_WIDTH, "stages": DELAY_TOP_STAGES});
    let make = || DelayLine::<DELAY_TOP_WIDTH>::new(DELAY_TOP_STAGES).map_err(golden::common::ConfigError);
    Ok(vec![Build::new("delay", "40-bit word and valid bit, 3 cycles late", params, make)])
}

/// The 32-bit xorshift PRNG.
pub fn prng() -> Result<Vec<Build>, String> {
    let make = || Ok(Prng::default());
    Ok(vec![
        Build::new("prng", "32-bit xorshift PRNG", json!({}), make),
        Build::new("", "32-bit xorshift PRNG", json!({}), make).synth_only("prng", "xorshift32", true, vec![]),
    ])
}

/// The SRAM with reset sweep, dual- and single-port, short and registered timing (co-simulation only).
pub fn sram() -> Result<Vec<Build>, String> {
    let build = |name: &str, ports: RamPorts, timing: RamTiming| {
        Build::new(
            name,
            "SRAM register file with reset sweep",
            json!({"addr_bits": SRAM_TOP_ADDR_BITS, "width": SRAM_TOP_WIDTH, "ports": ports, "timing": timing, "sweep": true}),
            move || Ok(Sram::<SRAM_TOP_ADDR_BITS, SRAM_TOP_WIDTH>::with_timing(ports, timing, true)),
        )
    };
    Ok(vec![
        build("sram_dp", RamPorts::Dual, RamTiming::Short),
        build("sram_sp", RamPorts::Single, RamTiming::Short),
        build("sram_dp_reg", RamPorts::Dual, RAM_TOP_REGISTERED),
        build("sram_sp_reg", RamPorts::Single, RAM_TOP_REGISTERED),
    ])
}

/// Counter width of the RMW synthesis builds (a packet or byte counter per entry).
pub const RMW_SYNTH_WIDTH: usize = 32;

fn rmw_synth<const A: usize>(ports: RamPorts, registered: bool) -> Build {
    const W: usize = RMW_SYNTH_WIDTH;
    let (tag, ii1) = match ports {
        RamPorts::Dual => ("dp", true),
        RamPorts::Single => ("sp", false),
    };
    let (timing, suffix) = (RamTiming::chosen(registered, A, W), if registered { "_reg" } else { "" });
    Build::new(
        "",
        "RMW counter table (old + delta) with forwarding",
        json!({"addr_bits": A, "width": W, "ports": ports, "timing": timing}),
        move || Ok(RmwAddTop::<A, W>::new(ports, timing, FORWARD_ALL)),
    )
    .synth_only("rmw", format!("{tag}_a{A}_w{W}{suffix}"), ii1, table(1 << A, W as u64))
}

/// The RMW pipeline as a counter table: the co-simulation tops (64 entries, short and registered RAM timing,
/// each also with one and two look-ahead levels (`…_la`, `…_la2`; single-port: two, `rmw_sp_la2`), and eight test-only builds with one forwarding distance
/// disabled each), and for synthesis 2^10 entries and
/// 2^16 (the largest power of two of 32-bit words that fits the LFE5U-85F's 208 DP16KD: 128 blocks), dual-
/// and single-port, at 2^16 also on registered RAM (`…_reg`).
pub fn rmw() -> Result<Vec<Build>, String> {
    let mut out = Vec::new();
    const SHORT: RamTiming = RamTiming::Short;
    const REG: RamTiming = RAM_TOP_REGISTERED;
    for (name, ports, timing, fwd, test_only) in [
        ("rmw_dp", RamPorts::Dual, SHORT, FORWARD_ALL, false),
        ("rmw_sp", RamPorts::Single, SHORT, FORWARD_ALL, false),
        ("rmw_dp_nofwd1", RamPorts::Dual, SHORT, FORWARD_ALL & !0b001, true),
        ("rmw_dp_nofwd2", RamPorts::Dual, SHORT, FORWARD_ALL & !0b010, true),
        ("rmw_dp_nofwd3", RamPorts::Dual, SHORT, FORWARD_ALL & !0b100, true),
        ("rmw_dp_reg", RamPorts::Dual, REG, FORWARD_ALL, false),
        ("rmw_sp_reg", RamPorts::Single, REG, FORWARD_ALL, false),
        ("rmw_dp_reg_nofwd1", RamPorts::Dual, REG, FORWARD_ALL & !0b00001, true),
        ("rmw_dp_reg_nofwd2", RamPorts::Dual, REG, FORWARD_ALL & !0b00010, true),
        ("rmw_dp_reg_nofwd3", RamPorts::Dual, REG, FORWARD_ALL & !0b00100, true),
        ("rmw_dp_reg_nofwd4", RamPorts::Dual, REG, FORWARD_ALL & !0b01000, true),
        ("rmw_dp_reg_nofwd5", RamPorts::Dual, REG, FORWARD_ALL & !0b10000, true),
        ("rmw_dp_la", RamPorts::Dual, SHORT, FORWARD_ALL, false),
        ("rmw_dp_reg_la", RamPorts::Dual, REG, FORWARD_ALL, false),
        ("rmw_dp_la2", RamPorts::Dual, SHORT, FORWARD_ALL, false),
        ("rmw_dp_reg_la2", RamPorts::Dual, REG, FORWARD_ALL, false),
        ("rmw_sp_la2", RamPorts::Single, SHORT, FORWARD_ALL, false),
    ] {
        let lookahead = if name.ends_with("_la2") { 2 } else { name.ends_with("_la") as usize };
        let desc = if test_only {
            "RMW counter table with one forwarding distance disabled (deliberately broken, test-only)"
        } else {
            "read-modify-write pipeline with forwarding, as a counter table (old + delta)"
        };
        let params = json!({"addr_bits": RMW_TOP_ADDR_BITS, "width": RMW_TOP_WIDTH, "ports": ports,
            "timing": timing, "lookahead": lookahead, "forward_enable": fwd});
        let b = Build::new(name, desc, params, move || {
            RmwAddTop::<RMW_TOP_ADDR_BITS, RMW_TOP_WIDTH>::with_lookahead(ports, timing, lookahead, fwd)
        });
        out.push(if test_only { b.test_only() } else { b });
    }
    out.push(rmw_synth::<10>(RamPorts::Dual, false));
    out.push(rmw_synth::<10>(RamPorts::Single, false));
    out.push(rmw_synth::<16>(RamPorts::Dual, false));
    out.push(rmw_synth::<16>(RamPorts::Single, false));
    out.push(rmw_synth::<16>(RamPorts::Dual, true));
    out.push(rmw_synth::<16>(RamPorts::Single, true));
    Ok(out)
}

/// The multi-row RMW as a sketch of counters (rows × 16 buckets, a delta added to any subset of the rows),
/// a test-only build whose row 1 lacks the distance-2 forwarding path, and the same sketch on registered RAM
/// (`multi_rmw_reg`: banks of 4 words, forwarding distances 1–5).
pub fn multi_rmw() -> Result<Vec<Build>, String> {
    const A: usize = MULTI_RMW_TOP_ADDR_BITS;
    const W: usize = MULTI_RMW_TOP_WIDTH;
    const D: usize = MULTI_RMW_TOP_ROWS;
    let build = |name: &'static str, timing: RamTiming, fwd: [u64; D], test_only: bool| {
        let desc = if test_only {
            "multi-row RMW counter sketch with row 1's distance-2 forwarding disabled (deliberately broken, test-only)"
        } else {
            "multi-row RMW counter sketch: a delta added to any subset of the rows, forwarding per row"
        };
        let params = json!({"rows": D, "addr_bits": A, "width": W, "timing": timing, "forward_enable": fwd});
        let b = Build::new(name, desc, params, move || {
            MultiRmwAddTop::<A, W, D, { D * A }, { D * W }, { W + D }>::new(timing, &fwd)
        });
        if test_only {
            b.test_only()
        } else {
            b
        }
    };
    Ok(vec![
        build("multi_rmw", RamTiming::Short, [FORWARD_ALL; D], false),
        build("multi_rmw_nofwd", RamTiming::Short, [FORWARD_ALL, FORWARD_ALL & !0b010, FORWARD_ALL], true),
        build("multi_rmw_reg", MULTI_RMW_TOP_REGISTERED, [FORWARD_ALL; D], false),
    ])
}

/// The report FIFO: 16 entries for co-simulation (overflows often), 512 reports of 72 bits for synthesis.
pub fn fifo() -> Result<Vec<Build>, String> {
    const A: usize = 9;
    const W: usize = 72;
    Ok(vec![
        Build::new(
            "fifo",
            "report FIFO that drops and counts when full",
            json!({"addr_bits": FIFO_TOP_ADDR_BITS, "width": FIFO_TOP_WIDTH}),
            || Ok(ReportFifo::<FIFO_TOP_ADDR_BITS, FIFO_TOP_WIDTH, { FIFO_TOP_ADDR_BITS + 1 }>::default()),
        ),
        Build::new("", "report FIFO, drops and counts when full", json!({"addr_bits": A, "width": W}), || {
            Ok(ReportFifo::<A, W, { A + 1 }>::default())
        })
        .synth_only("fifo", format!("a{A}_w{W}"), true, table(1 << A, W as u64)),
    ])
}

/// The CSR test bank (4 config, 5 status registers) with its PRNG; `csr_r2`: the same read in two cycles.
pub fn csr() -> Result<Vec<Build>, String> {
    Ok(vec![
        Build::new("csr", "CSR bank with a PRNG seeded through it", json!({"layout": csr_top_layout()}), CsrTop::new)
            .csr(csr_top_layout()),
        Build::new(
            "csr_r2",
            "CSR bank read in two cycles (a first level of the read multiplexer registered) with a PRNG",
            json!({"layout": csr_top_layout().with_registered_read()}),
            CsrTop::registered_read,
        )
        .csr(csr_top_layout().with_registered_read()),
        Build::new("", "CSR bank with a PRNG seeded through it", json!({}), CsrTop::new).synth_only(
            "csr",
            "4cfg_5status",
            true,
            vec![],
        ),
    ])
}

/// The AXI4-Lite slave in front of the CSR test bank: the generated AXI flavour (`crate::ip::axi_of`) of the
/// bank behind a core CSR port, co-simulated as `axil_csr_axi`, synthesized as `axil_csr 4cfg_5status` (the
/// slave's cost beside the bank).
pub fn axil_csr() -> Result<Vec<Build>, String> {
    let desc = "CSR test bank (4 config, 5 status registers, identity) on a core CSR port";
    let bank = || Build::new("axil_csr", desc, json!({"layout": csr_top_layout()}), CsrPortTop::new).csr(csr_top_layout());
    Ok(vec![
        crate::ip::axi_of(bank(), false),
        crate::ip::axi_of(bank(), false).synth_only("axil_csr", "4cfg_5status", true, vec![]),
    ])
}
