//! MAPLE's RTL engine (`netmeas run maple --engine rtl`, issue 16): the SVBF store of the experiment
//! co-simulated in a Verilated build through `testbench::maple_trace::run_trace`, checked cycle by cycle against
//! the golden cycle model while it runs and, here, every lookup answer against the golden transaction model's
//! lookup on the same epoch and every flushed bank against its flush. Only in builds with the `rtl` feature.
//!
//! **Scale.** 5 Mbit per epoch does not fit the LFE5U-85F's block RAM; the co-simulated builds are small
//! (`maple_k64`: h = 4 segments of 2^7 32-bit words = 16 384 bits per bank, k ≤ 64, 128-bit keys). The
//! engine keeps the experiment's **bits per packet** instead: with the golden store's budget `M` bits for
//! the `n` packets of a 1 s epoch (n = the mean of the two warm-up epochs, the golden dimensioning's load)
//! and `M_b` bits in the build's bank, a hardware epoch holds `N = round(M_b · n / M)` packets: each 1 s
//! epoch of `len` packets is cut into `max(1, round(len / N))` **hardware epochs** of near-equal length
//! (`--memory-mbit 5`, i.e. 5·10^6 bits, and ≈ 380 k packets: N ≈ 1 245, 13.2 bits per packet). A hardware epoch counts with the
//! centers of its 1 s epoch (the control plane's pipeline is the golden run's, unchanged). The RTL runs the
//! build's `h` (4), so the same store in golden — `h`, `m` and epochs of the build — is run beside it for the
//! comparison (its numbers are golden's; the cross-check makes them equal to the RTL's).

use super::experiment::{core_runtime, Budget, EpochSink, FlushedEpoch, Setup, StoreResult};
use super::metrics::Tally;
use crate::traffic::maple::Delayed;
use golden::maple::cycle::MapleHwConfig;
use golden::maple::{Centers, Descriptor, FlushRecord, MapleModel, MapleRuntime, SvbfLayout, TieBreak};
use std::collections::HashMap;
use std::sync::Mutex;
use std::time::Instant;
use testbench::maple::Desc;
use testbench::maple_trace::{flush_record, lookup_of, run_trace, TraceEpoch};

/// The co-simulated builds, in the order they are tried.
const BUILDS: [&str; 2] = ["maple_k64", "maple_k8"];
/// The experiment's key width (the stores hash 128-bit keys).
const KEY_BITS: usize = 128;

/// The build that runs `setup`'s SVBF: enough centers, 128-bit keys; a memory budget (the hardware epochs
/// keep its bits per packet) and the partitioned layout. Checked before any traffic is made.
pub fn build_for(setup: &Setup) -> Result<(&'static str, MapleHwConfig), String> {
    crate::Engine::Rtl.check()?;
    if let Budget::Pcf(_) = setup.budget {
        return Err("--engine rtl runs the build's store at the bits per packet of a memory budget: use \
                    --memory-mbit, not --pcf"
            .into());
    }
    if setup.layout != SvbfLayout::Partitioned {
        return Err("--engine rtl: the RTL store is partitioned (--layout partitioned)".into());
    }
    let built = BUILDS.map(|n| (n, testbench::maple::top_config(n)));
    crate::pick_build(
        &built,
        |b: &MapleHwConfig| b.max_centers >= setup.k && b.store.key_bits >= KEY_BITS,
        |_| true,
        |n, b| {
            format!(
                "{n} (h = {} segments of 2^{} words of {} bits = {} bits per bank, k ≤ {}, {}-bit keys)",
                b.store.hashes,
                b.addr_bits(),
                b.store.word_bits,
                b.store.memory_bits(),
                b.max_centers,
                b.store.key_bits
            )
        },
        || format!("k = {} centers with {KEY_BITS}-bit keys", setup.k),
    )
}

/// What the RTL engine measured.
#[derive(Debug, Clone)]
pub struct RtlOutcome {
    pub build: &'static str,
    /// Packets per hardware epoch targeted (`N`, mean over seeds) and bits per packet of the golden budget.
    pub epoch_packets: f64,
    pub bits_per_packet: f64,
    pub hw_epochs: u64,
    /// The RTL's SVBF and golden's at the same h, m and epochs.
    pub rtl: StoreResult,
    pub golden: StoreResult,
    pub tallies: [Tally; 2],
    /// Co-simulated cycles and the wall time they took (RTL and golden cycle model stepped together).
    pub cycles: u64,
    pub seconds: f64,
}

#[derive(Default)]
struct Acc {
    warmup: HashMap<u64, Vec<usize>>,
    /// `N` per seed.
    n: HashMap<u64, f64>,
    hw_epochs: u64,
    tallies: [Tally; 2],
    cycles: u64,
    seconds: f64,
}

/// The engine as the experiment's epoch sink (forwarding every epoch to `inner`, e.g. `--save-epochs`).
pub struct RtlSink<'a> {
    name: &'static str,
    hw: MapleHwConfig,
    sampling: f64,
    inner: Option<&'a dyn EpochSink>,
    acc: Mutex<Acc>,
}

impl<'a> RtlSink<'a> {
    pub fn new(setup: &Setup, inner: Option<&'a dyn EpochSink>) -> Result<Self, String> {
        let (name, hw) = build_for(setup)?;
        Ok(RtlSink { name, hw, sampling: setup.sampling, inner, acc: Mutex::new(Acc::default()) })
    }

    /// The results once the run is over.
    pub fn finish(self) -> Result<RtlOutcome, String> {
        let a = self.acc.into_inner().map_err(|_| "an RTL thread panicked".to_string())?;
        let bits = self.hw.store.memory_bits() as f64;
        let n = a.n.values().sum::<f64>() / a.n.len().max(1) as f64;
        let result = |store: &'static str, t: &Tally| StoreResult {
            store,
            memory_bits: bits,
            hashes: self.hw.store.hashes,
            summary: t.summary(),
            lookup_words: None,
        };
        Ok(RtlOutcome {
            build: self.name,
            epoch_packets: n,
            bits_per_packet: if n > 0.0 { bits / n } else { 0.0 },
            hw_epochs: a.hw_epochs,
            rtl: result("svbf_rtl", &a.tallies[0]),
            golden: result("svbf_golden_same", &a.tallies[1]),
            tallies: a.tallies,
            cycles: a.cycles,
            seconds: a.seconds,
        })
    }

    /// One 1 s epoch in hardware epochs of ≈ `n` packets: RTL and golden, compared; tallies of both.
    fn measure(&self, seed: u64, n: f64, tie: TieBreak, rec: &FlushRecord, packets: &[Delayed]) -> Result<(), String> {
        let name = self.name;
        let centers = Centers::new(rec.centers.clone()).map_err(|e| e.to_string())?;
        let parts = ((packets.len() as f64 / n).round() as usize).clamp(1, packets.len().max(1));
        let cut = |i: usize| i * packets.len() / parts;
        let chunks: Vec<&[Delayed]> = (0..parts).map(|i| &packets[cut(i)..cut(i + 1)]).collect();
        let epochs: Vec<TraceEpoch> = chunks
            .iter()
            .map(|c| TraceEpoch {
                centers: rec.centers.clone(),
                packets: c.iter().map(|d| Desc { key: d.key, latency: d.latency }).collect(),
            })
            .collect();
        // The golden run's settings; the trace flushes on command.
        let rt = MapleRuntime { manual_flush: true, ..core_runtime(self.sampling, tie, seed) };
        let started = Instant::now();
        let run = match name {
            "maple_k64" => run_trace(name, &rt, &epochs, testbench::models::MapleK64::new)?,
            _ => run_trace(name, &rt, &epochs, testbench::models::MapleK8::new)?,
        };
        let seconds = started.elapsed().as_secs_f64();
        let mut gold = MapleModel::new(&self.hw.store, rt, centers.clone()).map_err(|e| e.to_string())?;
        let mut tallies = [Tally::default(), Tally::default()];
        for (h, (chunk, got)) in chunks.iter().zip(&run.epochs).enumerate() {
            chunk.iter().for_each(|d| {
                gold.step(&Descriptor { key: d.key, latency: d.latency });
            });
            gold.epoch();
            if got.answers.len() != chunk.len() {
                return Err(format!("{name}: {} answers for {} packets", got.answers.len(), chunk.len()));
            }
            let starts = tallies.each_ref().map(|t| (t.packets, t.multi));
            for (d, a) in chunk.iter().zip(&got.answers) {
                let l = lookup_of(a).ok_or_else(|| format!("{name}: answer kind {}", a.kind))?;
                let (g, _) = gold.lookup(d.key).ok_or("golden has no frozen epoch")?;
                if l != g {
                    return Err(format!(
                        "{name}: seed {seed}, hardware epoch {h}: the RTL answers {l:?} for key {:#x}, the golden \
                         transaction model {g:?}",
                        d.key
                    ));
                }
                let truth = centers.nearest(d.latency);
                tallies[0].lookup(&l, truth, d.latency, l.refined);
                tallies[1].lookup(&g, truth, d.latency, g.refined);
            }
            tallies.iter_mut().zip(starts).for_each(|(t, s)| t.end_epoch(s));
            let flushed = flush_record(name, &rec.centers, &got.records)?;
            if Some(&flushed) != gold.flush().as_ref() {
                return Err(format!("{name}: seed {seed}, hardware epoch {h}: the flushed bank differs from golden's"));
            }
        }
        let mut a = self.acc.lock().map_err(|_| "an RTL thread panicked".to_string())?;
        a.hw_epochs += parts as u64;
        a.cycles += run.cycles;
        a.seconds += seconds;
        for (acc, t) in a.tallies.iter_mut().zip(&tallies) {
            acc.merge(t);
        }
        Ok(())
    }
}

impl EpochSink for RtlSink<'_> {
    fn epoch(&self, e: &FlushedEpoch) -> Result<(), String> {
        if let Some(s) = self.inner {
            s.epoch(e)?;
        }
        let FlushedEpoch { seed, measured, cfg, tie, record, packets, .. } = *e;
        let n = {
            let mut a = self.acc.lock().map_err(|_| "an RTL thread panicked".to_string())?;
            let w = a.warmup.entry(seed).or_default();
            if !measured {
                w.push(packets.len());
                return Ok(());
            }
            // The golden budget's bits per packet at its dimensioning load (the warm-up epochs' mean).
            let load = w.iter().sum::<usize>() as f64 / w.len().max(1) as f64;
            let n = (self.hw.store.memory_bits() as f64 * load / cfg.svbf_bits as f64).round().max(1.0);
            a.n.insert(seed, n);
            n
        };
        self.measure(seed, n, tie, record, packets)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use golden::maple::MatchKind;
    use rand::{Rng, SeedableRng};
    use testbench::maple::top_config;
    use testbench::models::{MapleK8, MapleK8MutAnd};

    fn trace(cfg: &MapleHwConfig, seed: u64) -> Vec<TraceEpoch> {
        let mut r = rand::rngs::StdRng::seed_from_u64(seed);
        let mask = golden::common::mask128(cfg.store.key_bits);
        [vec![100, 200, 300, 400, 500, 600, 700, 800], vec![50, 5_000], vec![7]]
            .into_iter()
            .map(|centers| TraceEpoch {
                packets: (0..600)
                    .map(|_| Desc { key: r.gen::<u128>() & mask, latency: r.gen_range(0..1_000) })
                    .collect(),
                centers,
            })
            .collect()
    }

    /// `testbench::maple_trace::run_trace`: a trace of three epochs on `maple_k8`: every answer equals the transaction model's lookup on the same
    /// epoch, every flushed bank its flush; no inserted packet is a No-Match, and the loaded SVBF multi-matches.
    #[test]
    fn a_trace_answers_as_the_transaction_model() {
        let cfg = top_config("maple_k8");
        let epochs = trace(&cfg, 5);
        let rt = MapleRuntime { manual_flush: true, ..MapleRuntime::default() };
        let out = run_trace("maple_k8", &rt, &epochs, MapleK8::new).unwrap();
        assert_eq!(out.epochs.len(), 3);
        let mut gold = MapleModel::new(&cfg.store, rt, Centers::new(epochs[0].centers.clone()).unwrap()).unwrap();
        let mut multi = 0;
        for (e, (ep, got)) in epochs.iter().zip(&out.epochs).enumerate() {
            ep.packets.iter().for_each(|d| {
                gold.step(&Descriptor { key: d.key, latency: d.latency });
            });
            if let Some(next) = epochs.get(e + 1) {
                gold.load_centers(Centers::new(next.centers.clone()).unwrap());
            }
            gold.epoch();
            assert_eq!(got.answers.len(), ep.packets.len());
            for (d, a) in ep.packets.iter().zip(&got.answers) {
                let l = lookup_of(a).unwrap();
                assert_eq!(Some(l), gold.lookup(d.key).map(|x| x.0), "epoch {e} key {:#x}", d.key);
                assert_ne!(l.kind, MatchKind::NoMatch);
                multi += (l.kind == MatchKind::MultiMatch) as usize;
            }
            assert_eq!(flush_record("maple_k8", &ep.centers, &got.records).unwrap(), gold.flush().unwrap());
        }
        assert!(multi > 20, "{multi} multi-matches");
        assert!(out.lookup_cycles > 600 * 3 * 8 && out.cycles > out.insert_cycles + out.lookup_cycles);
    }

    /// The trace fails on a mutant whose lookup skips segment 0, naming the cycle.
    #[test]
    fn a_trace_catches_a_wrong_lookup() {
        let epochs = trace(&top_config("maple_k8"), 6);
        let e = run_trace("maple_k8_mut_and", &MapleRuntime::default(), &epochs, MapleK8MutAnd::new).unwrap_err();
        assert!(e.contains("cycle"), "{e}");
    }
}
