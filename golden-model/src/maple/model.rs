//! The MAPLE store as a transaction model: one packet, one epoch marker, one lookup at a time — what the
//! RTL computes, on the shared PRNG and report-FIFO models (see the module docs of [`super`]).

use super::store::{EpochState, Lookup, MatchKind};
use super::{Centers, Descriptor, MapleConfig, Svbf, TieBreak, MAPLE_IDENT};
use crate::common::config::ConfigError;
use crate::common::csr::CsrLayout;
use crate::common::fifo::{FifoInputs, FifoModel};
use crate::common::prng::{PrngInputs, PrngModel};
use serde::{Deserialize, Serialize};

/// Width of a sample in the sample FIFO: the packet's latency (ns).
pub const SAMPLE_BITS: usize = 32;

/// Run-time settings (CSRs).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct MapleRuntime {
    /// Sample a packet when the PRNG state is ≤ this ([`MapleRuntime::threshold_for`]).
    pub sample_threshold: u32,
    /// PRNG seed (0 loads the PRNG's default seed).
    pub prng_seed: u32,
    pub tie: TieBreak,
    /// The flush of a frozen bank waits for a write of CSR `flush` instead of starting at the epoch marker
    /// (`options` bit 1), so the lookup port can answer on the whole frozen epoch first.
    pub manual_flush: bool,
}

impl Default for MapleRuntime {
    /// 10 % sampling (the paper's §3.2 rate), the default seed, the count tie-break.
    fn default() -> Self {
        MapleRuntime {
            sample_threshold: MapleRuntime::threshold_for(0.1),
            prng_seed: 0,
            tie: TieBreak::Count,
            manual_flush: false,
        }
    }
}

impl MapleRuntime {
    /// The sampling threshold of rate `r` (clamped to 0..=1): `⌊r·(2^32 − 1)⌋`.
    pub fn threshold_for(r: f64) -> u32 {
        (r.clamp(0.0, 1.0) * u32::MAX as f64) as u32
    }
    /// CSR `options`.
    pub fn options_word(&self) -> u32 {
        (self.tie == TieBreak::None) as u32 | (self.manual_flush as u32) << 1
    }
}

/// Counters (the CSR status registers of the same names).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct MapleStats {
    pub packets: u64,
    pub epochs: u64,
    pub samples: u64,
    pub lookups: u64,
    pub lookup_match: u64,
    pub lookup_multi: u64,
    pub lookup_none: u64,
    /// Words the lookups read (burst lengths summed over hashes).
    pub lookup_words: u64,
}

/// What one packet did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Outcome {
    /// The matched center's index.
    pub center: usize,
    /// The packet was sampled (pushed into the sample FIFO, or dropped there if it was full).
    pub sampled: bool,
}

/// A frozen epoch as the flush engine streams it: the vector's words, the centers and the counters.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct FlushRecord {
    pub centers: Vec<u32>,
    pub count: Vec<u64>,
    pub sum: Vec<u64>,
    /// `w`-bit words, segment by segment ([`Svbf::words`]).
    pub words: Vec<u64>,
}

impl FlushRecord {
    /// The stored epoch as software looks packets up in it (the same answers as the lookup port).
    pub fn open(&self, cfg: &MapleConfig) -> Result<EpochState<Svbf>, ConfigError> {
        let mut e = EpochState::new(Svbf::from_words(cfg, &self.words)?, Centers::new(self.centers.clone())?);
        if self.count.len() != e.count.len() || self.sum.len() != e.sum.len() {
            return Err(ConfigError("flush record counters do not match its centers".into()));
        }
        e.count.clone_from(&self.count);
        e.sum.clone_from(&self.sum);
        Ok(e)
    }
}

/// The core: two banks, the shadow centers, the sampler, the counters.
#[derive(Debug, Clone)]
pub struct MapleModel {
    pub cfg: MapleConfig,
    pub rt: MapleRuntime,
    active: EpochState<Svbf>,
    frozen: Option<EpochState<Svbf>>,
    shadow: Centers,
    prng: PrngModel,
    fifo: FifoModel,
    pub stats: MapleStats,
}

impl MapleModel {
    /// A core after reset, counting with `centers` in its first epoch (also the shadow set).
    pub fn new(cfg: &MapleConfig, rt: MapleRuntime, centers: Centers) -> Result<MapleModel, ConfigError> {
        cfg.check()?;
        let mut prng = PrngModel::new();
        prng.step(&PrngInputs { reset: true, ..Default::default() });
        prng.step(&PrngInputs { seed_load: true, seed: rt.prng_seed, ..Default::default() });
        let mut fifo = FifoModel::new(cfg.sample_fifo_bits, SAMPLE_BITS);
        fifo.step(&FifoInputs { reset: true, ..Default::default() });
        Ok(MapleModel {
            active: EpochState::new(Svbf::new(cfg)?, centers.clone()),
            frozen: None,
            shadow: centers,
            prng,
            fifo,
            cfg: cfg.clone(),
            rt,
            stats: MapleStats::default(),
        })
    }

    /// One packet.
    #[inline]
    pub fn step(&mut self, d: &Descriptor) -> Outcome {
        // `self.active.insert(key, latency)` spelled out for the SVBF (it never refuses a packet).
        let center = self.active.centers.nearest(d.latency);
        let at = self.active.store.positions(d.key, center);
        self.active.add(center, d.latency);
        self.active.store.set(&at[..self.cfg.hashes]);
        Outcome { center, sampled: self.sample(d) }
    }

    /// `packets` in order, each as [`Self::step`] (a test checks the equality), then `each(self, i, outcome)`
    /// (e.g. to drain the sample FIFO, or an epoch marker): the experiments' and the speed benchmark's path.
    /// One loop per hash count `h` (1..=16), so the per-hash work unrolls with `h` a constant; on x86_64 with
    /// AVX2 (checked at run time) the loop is compiled for AVX2 as well (the hash bank's table rows are
    /// XORed in with fewer instructions — the same values).
    pub fn run(&mut self, packets: &[Descriptor], mut each: impl FnMut(&mut MapleModel, usize, Outcome)) {
        macro_rules! per_count {
            ($($h:literal)*) => {
                match self.cfg.hashes {
                    $($h => self.run_n::<$h>(packets, &mut each),)*
                    _ => self.run_n_body::<0>(packets, &mut each),
                }
            };
        }
        per_count!(1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16)
    }

    crate::avx2_twin! {
        /// [`Self::run`] with `H` hashes (compiled for AVX2 as well).
        fn run_n / run_n_avx2<const H: usize>(
            &mut self, packets: &[Descriptor], each: &mut impl FnMut(&mut Self, usize, Outcome)
        ) {
            self.run_n_body::<H>(packets, each)
        }
    }

    /// The loop: [`Self::step`] with `H` hashes a constant (`H = 0`: the hash count of the configuration, as
    /// `step` — a count the macro of [`Self::run`] does not list).
    #[inline(always)]
    fn run_n_body<const H: usize>(&mut self, packets: &[Descriptor], each: &mut impl FnMut(&mut Self, usize, Outcome)) {
        for (i, d) in packets.iter().enumerate() {
            let o = if H == 0 {
                self.step(d)
            } else {
                let center = self.active.centers.nearest(d.latency);
                let at = self.active.store.positions_n::<H>(d.key, center);
                self.active.add(center, d.latency);
                self.active.store.set(&at);
                Outcome { center, sampled: self.sample(d) }
            };
            each(self, i, o);
        }
    }

    /// The packet's sampling decision (the PRNG advances every packet), the FIFO push and the counters.
    #[inline(always)]
    fn sample(&mut self, d: &Descriptor) -> bool {
        let r = self.prng.step(&PrngInputs { advance: true, ..Default::default() }).expect("seeded at reset");
        let sampled = r <= self.rt.sample_threshold;
        if sampled {
            self.fifo.step(&FifoInputs { in_valid: true, in_data: d.latency as u128, ..Default::default() });
            self.stats.samples += 1;
        }
        self.stats.packets += 1;
        sampled
    }

    /// The oldest sample in the FIFO, removed (the control plane's read).
    pub fn pop_sample(&mut self) -> Option<u32> {
        let out = self.fifo.step(&FifoInputs { out_ready: true, ..Default::default() })?;
        out.out_data.map(|v| v as u32)
    }

    /// Samples the FIFO dropped (full).
    pub fn sample_drops(&self) -> u32 {
        self.fifo.drops()
    }

    pub fn sample_fifo_level(&self) -> usize {
        self.fifo.level()
    }

    /// Loads the shadow centers: they count from the next epoch marker on.
    pub fn load_centers(&mut self, centers: Centers) {
        self.shadow = centers;
    }

    /// The epoch marker: the active bank freezes (replacing the previous frozen one, whose flush is done),
    /// the cleared other bank becomes active with the shadow centers.
    pub fn epoch(&mut self) {
        let store = match self.frozen.take() {
            Some(mut old) => {
                old.store.clear();
                old.store
            }
            None => Svbf::new(&self.cfg).expect("config checked at construction"),
        };
        self.frozen = Some(std::mem::replace(&mut self.active, EpochState::new(store, self.shadow.clone())));
        self.stats.epochs += 1;
    }

    /// The active epoch (counting now).
    pub fn active(&self) -> &EpochState<Svbf> {
        &self.active
    }

    /// The frozen epoch (the lookup port's and the flush engine's).
    pub fn frozen(&self) -> Option<&EpochState<Svbf>> {
        self.frozen.as_ref()
    }

    /// The lookup port on the frozen epoch: the answer and the words read (`None` before the first epoch
    /// marker).
    pub fn lookup(&mut self, key: u128) -> Option<(Lookup, usize)> {
        let e = self.frozen.as_ref()?;
        let (cand, words) = e.store.lookup_words(key, e.centers.k());
        let l = super::store::resolve(cand, &e.centers, &e.count, &e.sum, self.rt.tie);
        self.stats.lookups += 1;
        self.stats.lookup_words += words as u64;
        match l.kind {
            MatchKind::Match => self.stats.lookup_match += 1,
            MatchKind::MultiMatch => self.stats.lookup_multi += 1,
            MatchKind::NoMatch => self.stats.lookup_none += 1,
        }
        Some((l, words))
    }

    /// The frozen epoch as the flush engine streams it.
    pub fn flush(&self) -> Option<FlushRecord> {
        let e = self.frozen.as_ref()?;
        Some(FlushRecord {
            centers: e.centers.values().to_vec(),
            count: e.count.clone(),
            sum: e.sum.clone(),
            words: e.store.words(),
        })
    }

    /// The status registers' values in [`MapleConfig::csr_layout`] order.
    pub fn status(&self) -> Vec<u32> {
        let s = &self.stats;
        [
            s.packets,
            s.epochs,
            s.samples,
            self.fifo.drops() as u64,
            self.fifo.level() as u64,
            s.lookups,
            s.lookup_match,
            s.lookup_multi,
            s.lookup_none,
            self.active.centers.k() as u64,
            // The flush engine is the cycle model's (`super::cycle`): idle here, nothing streamed.
            0,
            0,
            0,
            0,
        ]
        .map(|v| v as u32)
        .to_vec()
    }
}

/// Status registers, in address order.
pub const STATUS: [&str; 14] = [
    "packets",
    "epochs",
    "samples",
    "sample_drops",
    "sample_fifo_level",
    "lookups",
    "lookup_match",
    "lookup_multi",
    "lookup_none",
    "active_centers",
    "flush_busy",
    "records",
    "record_drops",
    "record_fifo_level",
];

impl MapleConfig {
    /// The register map (run-time settings, the shadow-center load, counters).
    pub fn csr_layout(&self) -> CsrLayout {
        let d = MapleRuntime::default();
        let config = vec![
            ("sample_threshold".to_string(), d.sample_threshold),
            ("prng_seed".to_string(), d.prng_seed),
            ("options".to_string(), d.options_word()),
            ("center_count".to_string(), 1),
            ("center_index".to_string(), 0),
            ("center_value".to_string(), 0),
            ("epoch".to_string(), 0),
            ("flush".to_string(), 0),
        ];
        CsrLayout::new(config, STATUS.map(String::from).to_vec())
            .with_ident(MAPLE_IDENT)
            .doc("sample_threshold", "sample a packet toward the control plane when the PRNG state is <= this (rate r: floor(r * (2^32 - 1)))")
            .doc("prng_seed", "sampling PRNG seed (xorshift32; a write loads the PRNG at the same edge, 0 loads the default seed)")
            .doc("options", "bit 0: a multi-match answers no center instead of the center with the most packets this epoch; bit 1: the flush of a frozen bank waits for a write of flush (lookups first) instead of starting at the epoch marker")
            .doc("center_count", "k of the shadow center set (1..=64): the centers of the next epoch")
            .doc("center_index", "shadow slot the next center_value write fills (a write sets the core's write pointer, which advances after each center_value write; the register reads back the value written)")
            .doc("center_value", "write: shadow center[center_index] = value (latency in ns; the set must be ascending); swapped in at the epoch marker")
            .doc("epoch", "write (any value): epoch marker — the active bank freezes and its flush starts, the other bank counts with the shadow centers (write it after flush_busy falls)")
            .doc("flush", "write (any value): start the flush of the frozen bank (with options bit 1; ignored while a flush runs)")
            .doc("packets", "descriptors accepted")
            .doc("epochs", "epoch markers (bank swaps)")
            .doc("samples", "packets sampled (pushed into the sample FIFO or dropped there)")
            .doc("sample_drops", "samples dropped by a full sample FIFO")
            .doc("sample_fifo_level", "samples waiting in the sample FIFO")
            .doc("lookups", "lookups answered on the frozen bank (counted when the answer is taken)")
            .doc("lookup_match", "lookups with exactly one candidate center")
            .doc("lookup_multi", "lookups with several candidate centers (tie-broken by the per-center counts)")
            .doc("lookup_none", "lookups with no candidate center")
            .doc("active_centers", "k of the active epoch's center set")
            .doc("flush_busy", "1 while the flush engine reads and clears the frozen bank")
            .doc("records", "flush records pushed into the record FIFO")
            .doc("record_drops", "flush records dropped by a full record FIFO (the flush waits for room: 0)")
            .doc("record_fifo_level", "flush records waiting in the record FIFO")
    }
}
