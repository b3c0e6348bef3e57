//! What `netmeas synth` synthesizes: per core, the configurations (top module + the memory the algorithm
//! needs) that go through Yosys + nextpnr-ecp5 (see `sim/src/synth.rs` and `synth/`).
//!
//! One entry point for every core: [`CORES`] lists `(core name, function building its configurations)`.
//! A new core adds one line there and one function here that builds its tops with [`Builder`] — the same
//! machinery as [`crate::emit::all_tops`], with initial values (what an FPGA flow sees).
//!
//! Module names are `<core>_<config>` so that several configurations of one core can sit side by side in
//! one output directory.

use crate::common::fifo::ReportFifo;
use crate::common::prng::Prng;
use crate::emit::{Builder, TopInfo};
use crate::tops::{CsrTop, HashTop, RmwAddTop, HASH_TOP_KINDS};
use golden::common::sram::RamPorts;
use serde::Serialize;
use serde_json::json;

/// A memory array the algorithm itself needs (its theoretical storage), as opposed to what the flow maps
/// it to. The synthesis report compares `entries × width` with the block RAM bits actually used.
#[derive(Debug, Clone, Serialize)]
pub struct MemoryNeed {
    pub name: String,
    pub entries: u64,
    pub width: u64,
}

impl MemoryNeed {
    pub fn bits(&self) -> u64 {
        self.entries * self.width
    }
}

/// One synthesis configuration of one core.
#[derive(Debug, Clone)]
pub struct SynthConfig {
    /// Core name as `netmeas synth --core` takes it.
    pub core: &'static str,
    /// Configuration name as `netmeas synth --config` takes it (unique within the core).
    pub config: String,
    /// Whether the configuration accepts one packet per cycle (the 150 MHz target applies to these).
    pub ii1: bool,
    /// The top module (Verilog with initial values).
    pub top: TopInfo,
    /// Memories the algorithm needs.
    pub memories: Vec<MemoryNeed>,
}

/// Builds the configurations of one core.
pub type CoreConfigs = fn() -> Result<Vec<SynthConfig>, String>;

/// Every core with synthesis configurations. Later cores (MAPLE, IFPD, …) add a line here.
pub const CORES: &[(&str, CoreConfigs)] = &[
    ("rmw", rmw_configs),
    ("hash", hash_configs),
    ("fifo", fifo_configs),
    ("csr", csr_configs),
    ("prng", prng_configs),
    ("fridge", fridge_configs),
    ("finecomb", finecomb_configs),
];

/// The configurations of `core` (`None` or `"all"`: every core), optionally only those named in `only`.
pub fn configs(core: Option<&str>, only: &[String]) -> Result<Vec<SynthConfig>, String> {
    let core = core.filter(|c| *c != "all");
    if let Some(c) = core {
        if !CORES.iter().any(|(n, _)| *n == c) {
            let names: Vec<&str> = CORES.iter().map(|(n, _)| *n).collect();
            return Err(format!("unknown core `{c}`; known: all, {}", names.join(", ")));
        }
    }
    let mut out = Vec::new();
    for (name, build) in CORES {
        if core.is_some_and(|c| c != *name) {
            continue;
        }
        out.extend(build()?.into_iter().filter(|s| only.is_empty() || only.contains(&s.config)));
    }
    if out.is_empty() {
        return Err(format!("no configuration matches {:?} in core {}", only, core.unwrap_or("all")));
    }
    Ok(out)
}

fn one(
    core: &'static str,
    config: impl Into<String>,
    ii1: bool,
    memories: Vec<MemoryNeed>,
    build: impl FnOnce(&mut Builder, &str) -> Result<(), String>,
) -> Result<SynthConfig, String> {
    let config = config.into();
    let name = format!("{core}_{config}");
    let mut b = Builder::new(true);
    build(&mut b, &name)?;
    let top = b.finish().pop().ok_or_else(|| format!("{name}: nothing generated"))?;
    Ok(SynthConfig { core, config, ii1, top, memories })
}

/// A top of [`crate::emit::all_tops`] (`tops`) as configuration `name` without its `<core>_` prefix, so that
/// a co-simulated top is synthesized exactly as emitted (generics spelled out once, in `emit`).
fn emitted(
    tops: &[crate::emit::TopInfo],
    core: &'static str,
    name: &str,
    ii1: bool,
    memories: Vec<MemoryNeed>,
) -> Result<SynthConfig, String> {
    let top =
        tops.iter().find(|t| t.name == name).cloned().ok_or_else(|| format!("top {name} is not in emit::all_tops"))?;
    let config = name.strip_prefix(core).and_then(|c| c.strip_prefix('_')).unwrap_or(name).to_string();
    Ok(SynthConfig { core, config, ii1, top, memories })
}

fn table(entries: u64, width: u64) -> Vec<MemoryNeed> {
    vec![MemoryNeed { name: "table".into(), entries, width }]
}

/// Counter width of the RMW synthesis tops (a packet or byte counter per entry).
pub const RMW_SYNTH_WIDTH: usize = 32;

fn rmw<const A: usize>(ports: RamPorts) -> Result<SynthConfig, String> {
    const W: usize = RMW_SYNTH_WIDTH;
    let (tag, ii1) = match ports {
        RamPorts::Dual => ("dp", true),
        RamPorts::Single => ("sp", false),
    };
    one("rmw", format!("{tag}_a{A}_w{W}"), ii1, table(1 << A, W as u64), |b, name| {
        b.add(
            name,
            "RMW counter table (old + delta) with forwarding",
            false,
            json!({"addr_bits": A, "width": W, "ports": ports}),
            RmwAddTop::<A, W>::new(ports, crate::common::rmw::FORWARD_ALL),
        )
    })
}

/// The RMW pipeline as a counter table: 2^10 entries and 2^16 (the largest power of two of 32-bit words
/// that fits the LFE5U-85F's 208 DP16KD: 128 blocks), dual- and single-port.
fn rmw_configs() -> Result<Vec<SynthConfig>, String> {
    Ok(vec![
        rmw::<10>(RamPorts::Dual)?,
        rmw::<10>(RamPorts::Single)?,
        rmw::<16>(RamPorts::Dual)?,
        rmw::<16>(RamPorts::Single)?,
    ])
}

/// The four hash units on a 104-bit (IPv4 5-tuple) and a 128-bit key.
fn hash_configs() -> Result<Vec<SynthConfig>, String> {
    let err = |e: golden::common::ConfigError| e.to_string();
    let kinds: Vec<String> = HASH_TOP_KINDS.iter().map(|k| k.name()).collect();
    Ok(vec![
        one("hash", "k104", true, vec![], |b, name| {
            b.add(
                name,
                "four hash units, 104-bit key",
                false,
                json!({"key_bits": 104, "functions": kinds}),
                HashTop::<104>::new().map_err(err)?,
            )
        })?,
        one("hash", "k128", true, vec![], |b, name| {
            b.add(
                name,
                "four hash units, 128-bit key",
                false,
                json!({"key_bits": 128, "functions": kinds}),
                HashTop::<128>::new().map_err(err)?,
            )
        })?,
    ])
}

/// A report FIFO of realistic size: 512 reports of 72 bits.
fn fifo_configs() -> Result<Vec<SynthConfig>, String> {
    const A: usize = 9;
    const W: usize = 72;
    Ok(vec![one("fifo", format!("a{A}_w{W}"), true, table(1 << A, W as u64), |b, name| {
        b.add(
            name,
            "report FIFO, drops and counts when full",
            false,
            json!({"addr_bits": A, "width": W}),
            ReportFifo::<A, W, { A + 1 }>::default(),
        )
    })?])
}

/// The CSR test bank (4 config, 5 status registers) with its PRNG.
fn csr_configs() -> Result<Vec<SynthConfig>, String> {
    Ok(vec![one("csr", "4cfg_5status", true, vec![], |b, name| {
        b.add(
            name,
            "CSR bank with a PRNG seeded through it",
            false,
            json!({}),
            CsrTop::new().map_err(|e| e.to_string())?,
        )
    })?])
}

/// The 32-bit xorshift PRNG.
fn prng_configs() -> Result<Vec<SynthConfig>, String> {
    Ok(vec![one("prng", "xorshift32", true, vec![], |b, name| {
        b.add(name, "32-bit xorshift PRNG", false, json!({}), Prng::default())
    })?])
}

/// What a fridge configuration's algorithm stores: the table (all fridges, `1 + S + T + C` bits per entry),
/// the report FIFO and, with a tally (`golden::fridge::tally`), its two banks of `fridges × 128` words, the
/// weight ROM (`fridges × 1024` words) and the tally FIFO.
fn fridge_memories(cfg: &golden::fridge::FridgeConfig) -> Vec<MemoryNeed> {
    use golden::fridge::tally::{BINS, FIFO_BITS, RECORD_BITS, ROM_INDEX_BITS, ROM_WORD_BITS, WORD_BITS};
    let need = |name: &str, entries: usize, width: usize| MemoryNeed {
        name: name.into(),
        entries: entries as u64,
        width: width as u64,
    };
    let entries: usize = (0..cfg.fridges()).map(|k| cfg.entries(k)).sum();
    let mut m = vec![
        need("table", entries, cfg.entry_bits()),
        need("report_fifo", 1 << cfg.report_fifo_bits, cfg.report_bits()),
    ];
    if cfg.tally {
        let n = cfg.fridges();
        m.push(need("tally_bank0", n * BINS, WORD_BITS));
        m.push(need("tally_bank1", n * BINS, WORD_BITS));
        m.push(need("tally_rom", n << ROM_INDEX_BITS, ROM_WORD_BITS));
        m.push(need("tally_fifo", 1 << FIFO_BITS, RECORD_BITS));
    }
    m
}

/// Address bits of the largest fridge table that fits the LFE5U-85F next to the rest of the core: one
/// fridge of 2^15 entries of the default 97-bit entry is 176 DP16KD (2048 × 9 tiles); with the report FIFO
/// (2), the tally banks (2 × 4) and ROM (5), 191 of 208. 2^16 entries would need 352.
pub const FRIDGE_SYNTH_LARGE_BITS: usize = 15;

/// The fridge tops of [`crate::emit::all_tops`] as they are (configurations: [`crate::tops::fridge_tops`]),
/// taken from there so that the generics are spelled out in one place, plus the default single fridge at
/// the largest table that fits ([`FRIDGE_SYNTH_LARGE_BITS`]) for the scaling target (synthesized only, not
/// co-simulated: the RTL is the same at every depth).
fn fridge_configs() -> Result<Vec<SynthConfig>, String> {
    let tops = crate::emit::all_tops(true, false)?;
    let mut out = crate::tops::fridge_tops()
        .into_iter()
        .map(|(name, cfg)| emitted(&tops, "fridge", name, cfg.ports == RamPorts::Dual, fridge_memories(&cfg)))
        .collect::<Result<Vec<_>, String>>()?;
    const A: usize = FRIDGE_SYNTH_LARGE_BITS;
    let cfg = golden::fridge::FridgeConfig { addr_bits: vec![A], ..Default::default() };
    let params = serde_json::to_value(&cfg).map_err(|e| e.to_string())?;
    out.push(one("fridge", format!("dp_a{A}"), true, fridge_memories(&cfg), |b, name| {
        let core = crate::fridge::FridgeCore::<A, 32, 32, 32, 97, 67, 9, 10, 192, 7, 10>::new(&cfg)
            .map_err(|e| e.to_string())?;
        b.add(name, &format!("fridge core: one fridge of 2^{A} entries, dual-port table"), false, params, core)
    })?);
    Ok(out)
}

/// What a FineComb core stores: per bank two bucket sets of 2^IA words (a 96-bit `TS | C` table and, unless
/// LDA, a 64-bit ISD table each), with a stash two ring and two post regions of 2^SA entries of 112 bits,
/// and the record FIFO.
fn finecomb_memories(cfg: &golden::finecomb::cycle::FinecombCoreConfig) -> Vec<MemoryNeed> {
    use golden::finecomb::cycle::{FIFO_BITS, RECORD_BITS, STASH_WORD_BITS, TSC_WORD_BITS};
    let need = |name: String, entries: u64, width: usize| MemoryNeed { name, entries, width: width as u64 };
    let words = 1u64 << cfg.bucket_addr_bits;
    let mut m = vec![];
    for b in 0..cfg.banks() {
        for s in 0..2 {
            m.push(need(format!("bank{b}_set{s}_tsc"), words, TSC_WORD_BITS));
            if cfg.shape.isd {
                m.push(need(format!("bank{b}_set{s}_isd"), words, 64));
            }
        }
        if cfg.has_stash() {
            m.push(need(format!("bank{b}_ring"), 2 << cfg.stash_slot_bits, STASH_WORD_BITS));
            m.push(need(format!("bank{b}_post"), 2 << cfg.stash_slot_bits, STASH_WORD_BITS));
        }
    }
    m.push(need("record_fifo".into(), 1 << FIFO_BITS, RECORD_BITS));
    m
}

/// FineComb: the co-simulated sender and receiver builds of [`crate::tops::finecomb_tops`] (one bank of up
/// to 64 buckets), and the §III-E four-bank receiver at a size that fits the LFE5U-85F: 2^10 buckets per
/// bank and set, substashes of up to 2^8 entries (the `finecomb` experiment build, 2^13 buckets per bank,
/// needs 10.5 Mbit of tables, three times the device's block RAM).
fn finecomb_configs() -> Result<Vec<SynthConfig>, String> {
    use golden::finecomb::cycle::FinecombCoreConfig;
    use golden::finecomb::{BankConfig, FinecombConfig, Role};
    let tops = crate::emit::all_tops(true, false)?;
    let mut out = crate::tops::finecomb_tops()
        .into_iter()
        .filter(|(name, _)| matches!(*name, "finecomb_tx" | "finecomb_rx"))
        .map(|(name, cfg)| emitted(&tops, "finecomb", name, true, finecomb_memories(&cfg)))
        .collect::<Result<Vec<_>, String>>()?;
    let cfg = FinecombCoreConfig {
        shape: FinecombConfig {
            role: Role::Receiver,
            banks: vec![BankConfig { buckets: 1000, stash_depth: 200 }; 4],
            isd: true,
        },
        bucket_addr_bits: 10,
        stash_slot_bits: 8,
    };
    let params = serde_json::to_value(&cfg).map_err(|e| e.to_string())?;
    out.push(one("finecomb", "rx4_a10", true, finecomb_memories(&cfg), |b, name| {
        let core = crate::finecomb::FinecombCore::<10, 9, 416>::new(&cfg).map_err(|e| e.to_string())?;
        b.add(name, "FineComb receiver: 4 banks of up to 2^10 buckets, substashes of up to 2^8", false, params, core)
    })?);
    Ok(out)
}
