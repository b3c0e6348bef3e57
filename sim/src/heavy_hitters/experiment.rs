//! The heavy-hitter experiments: the RAP theorem's setting (dissertation ch. 4, defense slides "Our
//! result") and the usual top-k metrics on Zipf streams and captures, for SpaceSaving, RAP, d-way RAP and
//! PRECISION.
//!
//! - **Methods** ([`HhMethod`]): `ss` and `rap` are the global-minimum references of
//!   [`golden::heavy_hitters::reference`] with `m` = the memory in buckets; `dway` and `precision` are the
//!   core ([`golden::heavy_hitters::HhModel`], [`Method::Dway`] / [`Method::Precision`]) with `d` = `rows`
//!   rows of `buckets/d` buckets each, **rounded down to a power of two** (the core's rows are powers of
//!   two; rounding down never gives the hardware more memory than the references). The table says how many
//!   buckets each method really had.
//! - **Engines** ([`EngineFn`]): the core runs through a function that takes the configuration, run-time
//!   settings and the key stream and returns the final table (the active bank's records): [`golden_engine`],
//!   or the Verilated core (`rtl.rs`, `--engine rtl`: the build with the same rows and buckets per row, its
//!   table read out through the walk and checked against golden). SpaceSaving and RAP have no hardware and
//!   always run on golden.
//! - **Theorem runs**: every run draws a new stream (new keys, new order) and seeds the admission PRNG from
//!   the run's seed; all methods see the same stream (paired comparison). The stored fraction is the share
//!   of the k heavy elements that hold a bucket at the end of the stream; `theorem_probability` is the share
//!   of runs where it is ≥ 0.65 (the theorem: ≥ 0.7 for RAP with k buckets, ε < 10⁻⁷).
//! - **Stream runs**: per seed, a new Zipf stream (a capture is read once; only the PRNG seed changes); the
//!   true top-k against the k largest estimates.
//!
//! Measured (golden, 1000 runs per order, k = 64 heavies × f = 200, 64 buckets, d = 2 rows of 32 for the
//! core; `netmeas run heavy-hitters [--sweep epsilon=...] [--unequal]`, 2 cores):
//! - ε = 0.1 (the default, 7.8 s for all methods and orders): RAP stores ≥ 0.65·k in every run of every
//!   order (P = 1.000, margin +0.30); its 5 % quantile of the stored fraction is 0.98–1.00 except in the
//!   adversarial order (0.83). d-way RAP and PRECISION at equal memory: P 0.995–1.000, medians 0.75–0.81 —
//!   with 64 keys hashed into 2 × 32 buckets, collisions rather than admission decide. SpaceSaving:
//!   P 0.99–1.00 in four orders, 0 in the adversarial one (every light evicts a heavy).
//! - Raising ε: RAP keeps P = 1.000 up to ε = 1.0 in the random, bunched, spread and light-first orders;
//!   in the adversarial order P = 0.995 (ε 0.2), 0.813 (0.3), 0.720 (0.32), 0.621 (0.34), 0.280 (0.4),
//!   0.037 (0.5) — the bound stops holding at ε ≈ 0.33, where the median stored fraction ≈ 1 − ε as the
//!   order's argument predicts. d-way RAP (random order) P 0.923 (0.4), 0.808 (0.5), 0.630 (0.6); PRECISION
//!   0.960, 0.887, 0.761. In the adversarial order d-way RAP breaks at ε ≈ 0.25 (0.895 at 0.2, 0.497 at 0.3),
//!   PRECISION at ≈ 0.35 (0.762 at 0.3, 0.419 at 0.4).
//! - Unequal frequencies (uniform in [f/2, 3f/2]): RAP P = 1.000 in every order up to ε = 0.4 (adversarial
//!   median 0.92: the heavies end at different counts, so the lights must climb from one to the next instead
//!   of evicting a heavy per admission); SpaceSaving breaks in the spread order already at ε = 0.2 (0.041).
//! - The admission rule does not matter here: `--admission exact` gives the reciprocal table's numbers
//!   (adversarial ε 0.3: 0.814 vs 0.813; ε 0.4: 0.280 both).

use super::metrics::{quantiles, stored, topk_metrics, Quantiles};
use crate::traffic::keys::{key_mask, theorem_stream, true_counts, zipf, Order, TheoremParams, ZipfParams};
use crate::Engine;
use golden::heavy_hitters::reference::{Rap, SpaceSaving};
use golden::heavy_hitters::{Admission, HhConfig, HhModel, HhRuntime, Method, Record};
use rayon::prelude::*;
use serde::Serialize;
use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

/// A heavy-hitter algorithm of the experiments.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum HhMethod {
    /// SpaceSaving, global minimum (golden reference).
    Ss,
    /// RAP, global minimum (golden reference).
    Rap,
    /// d-way RAP (the core).
    Dway,
    /// PRECISION (the core).
    Precision,
}

impl HhMethod {
    pub const ALL: [HhMethod; 4] = [HhMethod::Ss, HhMethod::Rap, HhMethod::Dway, HhMethod::Precision];
    pub fn name(self) -> &'static str {
        match self {
            HhMethod::Ss => "ss",
            HhMethod::Rap => "rap",
            HhMethod::Dway => "dway",
            HhMethod::Precision => "precision",
        }
    }
    pub fn by_name(s: &str) -> Option<HhMethod> {
        HhMethod::ALL.into_iter().find(|m| m.name() == s)
    }
    /// The admission rule when `--admission` does not name one (None: SpaceSaving always admits).
    pub fn default_admission(self) -> Option<Admission> {
        match self {
            HhMethod::Ss => None,
            HhMethod::Rap | HhMethod::Dway => Some(Admission::Reciprocal),
            HhMethod::Precision => Some(Admission::PowerOfTwo),
        }
    }
    /// Whether the method is the core (runs on the chosen engine) rather than a golden-only reference.
    pub fn is_core(self) -> bool {
        matches!(self, HhMethod::Dway | HhMethod::Precision)
    }
}

/// An engine: runs the core of `cfg` with settings `rt` over `keys` and returns the final table contents
/// (the records of the active bank, in the walk's order).
pub type EngineFn = fn(&HhConfig, &HhRuntime, &[u128]) -> Result<Vec<Record>, String>;

/// The golden engine: [`HhModel`] steps every key, then the active bank's records.
pub fn golden_engine(cfg: &HhConfig, rt: &HhRuntime, keys: &[u128]) -> Result<Vec<Record>, String> {
    let mut m = HhModel::new(cfg, *rt).map_err(|e| e.to_string())?;
    for &k in keys {
        m.step(k);
    }
    Ok(m.records(m.active))
}

/// The engine function of `--engine`.
pub fn engine_fn(engine: Engine) -> Result<EngineFn, String> {
    match engine {
        Engine::Golden => Ok(golden_engine),
        #[cfg(feature = "rtl")]
        Engine::Rtl => Ok(super::rtl::rtl_engine),
        #[cfg(not(feature = "rtl"))]
        Engine::Rtl => Err(crate::RTL_MISSING.into()),
    }
}

/// Whether `engine` can run every core plan of `plans` (the RTL engine has a few built sizes): checked
/// before any work.
pub fn check_engine<'a>(engine: Engine, plans: impl IntoIterator<Item = &'a Plan>) -> Result<(), String> {
    #[cfg(feature = "rtl")]
    if engine == Engine::Rtl {
        for cfg in plans.into_iter().filter_map(|p| p.cfg.as_ref()) {
            super::rtl::build_for(cfg)?;
        }
    }
    // (Without the rtl feature, `engine_fn` has already refused the RTL engine.)
    #[cfg(not(feature = "rtl"))]
    let _ = (engine, plans);
    Ok(())
}

/// Estimated count per stored key from a table's records (a key stored twice — PRECISION — reports the
/// larger count, as [`HhModel::estimates`]).
pub fn estimates_of(records: &[Record]) -> HashMap<u128, u64> {
    let mut m = HashMap::with_capacity(records.len());
    for r in records {
        let e = m.entry(r.key).or_insert(0);
        *e = (*e).max(r.count);
    }
    m
}

/// Memory and admission settings shared by all methods of a run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Memory {
    /// Total buckets requested.
    pub buckets: usize,
    /// Rows of the core's methods (1..=4).
    pub rows: usize,
    /// `--admission` (None: each method's default).
    pub admission: Option<Admission>,
    pub key_bits: usize,
}

/// One method at one memory size, ready to run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Plan {
    pub method: HhMethod,
    /// Buckets the method really has.
    pub buckets: usize,
    pub admission: Option<Admission>,
    /// The core's configuration (core methods only).
    pub cfg: Option<HhConfig>,
    pub key_bits: usize,
}

impl Plan {
    pub fn new(method: HhMethod, mem: &Memory) -> Result<Plan, String> {
        let admission = if method == HhMethod::Ss { None } else { mem.admission.or(method.default_admission()) };
        if mem.buckets == 0 {
            return Err("--buckets 0: a table needs at least one bucket".into());
        }
        if !(1..=128).contains(&mem.key_bits) {
            return Err(format!("--key-bits {}: must be in 1..=128", mem.key_bits));
        }
        if !method.is_core() {
            return Ok(Plan { method, buckets: mem.buckets, admission, cfg: None, key_bits: mem.key_bits });
        }
        if !(1..=golden::heavy_hitters::MAX_ROWS).contains(&mem.rows) {
            return Err(format!("--rows {}: must be in 1..={}", mem.rows, golden::heavy_hitters::MAX_ROWS));
        }
        let per_row = mem.buckets / mem.rows;
        if per_row < 4 {
            return Err(format!(
                "--buckets {} with --rows {}: {} buckets per row, the core needs at least 4 per row",
                mem.buckets, mem.rows, per_row
            ));
        }
        let addr_bits = (usize::BITS - 1 - per_row.leading_zeros()) as usize;
        if addr_bits > 16 {
            return Err(format!(
                "--buckets {} with --rows {}: {} buckets per row, the core holds at most 65536 per row",
                mem.buckets, mem.rows, per_row
            ));
        }
        let cfg = HhConfig { rows: mem.rows, addr_bits, key_bits: mem.key_bits, count_bits: 32, record_fifo_bits: 4 };
        cfg.check().map_err(|e| e.to_string())?;
        Ok(Plan { method, buckets: cfg.buckets(), admission, cfg: Some(cfg), key_bits: mem.key_bits })
    }

    /// Runs the method over `keys` (masked to the key width) with PRNG seed `seed`: the estimated count of
    /// each stored key. The core runs on `engine`; the references on golden.
    pub fn run(&self, engine: EngineFn, keys: &[u128], seed: u32) -> Result<HashMap<u128, u64>, String> {
        let mask = key_mask(self.key_bits);
        match self.method {
            HhMethod::Ss => {
                let mut t = SpaceSaving::new(self.buckets);
                keys.iter().for_each(|&k| t.step(k & mask));
                Ok(t.estimates())
            }
            HhMethod::Rap => {
                let mut t = Rap::new(self.buckets, self.admission.unwrap_or(Admission::Reciprocal), seed);
                keys.iter().for_each(|&k| t.step(k & mask));
                Ok(t.estimates())
            }
            HhMethod::Dway | HhMethod::Precision => {
                let cfg = self.cfg.as_ref().ok_or("a core method without a configuration")?;
                let method = if self.method == HhMethod::Dway { Method::Dway } else { Method::Precision };
                let rt = HhRuntime { method, admission: self.admission.unwrap_or(Admission::Reciprocal), seed };
                let masked: Vec<u128>;
                let keys = if keys.iter().all(|&k| k & !mask == 0) {
                    keys
                } else {
                    masked = keys.iter().map(|&k| k & mask).collect();
                    &masked
                };
                Ok(estimates_of(&engine(cfg, &rt, keys)?))
            }
        }
    }

    /// The admission rule's name ("-" for SpaceSaving).
    pub fn admission_name(&self) -> &'static str {
        self.admission.map(Admission::name).unwrap_or("-")
    }
}

/// The core's PRNG seed of a run (never 0, which would load the default seed for every run).
pub fn prng_seed(seed: u64) -> u32 {
    ((seed.wrapping_add(1).wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 32) as u32).max(1)
}

/// Packets run and time spent, per method (thread time summed over the parallel runs).
#[derive(Debug, Default)]
pub struct Throughput {
    packets: AtomicU64,
    nanos: AtomicU64,
}

impl Throughput {
    fn add(&self, packets: usize, since: Instant) {
        self.packets.fetch_add(packets as u64, Ordering::Relaxed);
        self.nanos.fetch_add(since.elapsed().as_nanos() as u64, Ordering::Relaxed);
    }
    /// Packets per second of one thread.
    pub fn per_second(&self) -> f64 {
        let n = self.nanos.load(Ordering::Relaxed).max(1);
        self.packets.load(Ordering::Relaxed) as f64 / (n as f64 * 1e-9)
    }
}

// ---------------------------------------------------------------------------------------------------
// The theorem's setting

/// One point of the theorem experiment: the stream parameters, the orders and the memory.
#[derive(Debug, Clone)]
pub struct TheoremSetup {
    pub params: TheoremParams,
    pub orders: Vec<Order>,
    pub methods: Vec<HhMethod>,
    pub memory: Memory,
    pub runs: u64,
    pub first_seed: u64,
    pub engine: Engine,
}

/// The share of runs whose stored fraction must reach [`THEOREM_FRACTION`].
pub const THEOREM_PROBABILITY: f64 = 0.7;
/// The stored fraction of the theorem.
pub const THEOREM_FRACTION: f64 = 0.65;

/// One method in one order (JSON row of `netmeas run heavy-hitters --json`).
#[derive(Debug, Clone, Serialize)]
pub struct TheoremResult {
    pub method: HhMethod,
    pub order: Order,
    pub k: usize,
    pub f: u64,
    pub epsilon: f64,
    pub unequal: bool,
    pub lights: usize,
    /// Buckets the method had.
    pub buckets: usize,
    pub rows: Option<usize>,
    pub admission: &'static str,
    pub runs: u64,
    /// Share of runs storing at least 0.65·k of the k heavy elements.
    pub theorem_probability: f64,
    /// `theorem_probability − 0.7`: above zero the bound holds.
    pub margin: f64,
    /// Quantiles of the stored fraction over the runs.
    pub stored_fraction: Quantiles,
    /// Golden packets per second of one thread (time in the method's run only).
    pub packets_per_second: f64,
    /// The stored fractions of all runs, sorted (for plots; not serialised).
    #[serde(skip)]
    pub fractions: Vec<f64>,
}

/// Runs `setup` in `order`: `runs` streams, every method on each, in parallel over runs; `tick` after each
/// run. One result per method.
pub fn theorem_point(
    setup: &TheoremSetup,
    order: Order,
    tick: &(dyn Fn() + Sync),
) -> Result<Vec<TheoremResult>, String> {
    let engine = if setup.methods.iter().any(|m| m.is_core()) { engine_fn(setup.engine)? } else { golden_engine };
    let plans: Vec<Plan> = setup.methods.iter().map(|&m| Plan::new(m, &setup.memory)).collect::<Result<_, _>>()?;
    check_engine(setup.engine, &plans)?;
    let p = &setup.params;
    p.check()?;
    let speed: Vec<Throughput> = plans.iter().map(|_| Throughput::default()).collect();
    let stored_per_run: Vec<Vec<usize>> = (0..setup.runs)
        .into_par_iter()
        .map(|r| {
            let seed = setup.first_seed.wrapping_add(r);
            let s = theorem_stream(p, order, seed)?;
            let out = plans
                .iter()
                .zip(&speed)
                .map(|(plan, sp)| {
                    let t = Instant::now();
                    let est = plan.run(engine, &s.keys, prng_seed(seed))?;
                    sp.add(s.keys.len(), t);
                    Ok(stored(&s.heavy, &est))
                })
                .collect::<Result<Vec<usize>, String>>()?;
            tick();
            Ok(out)
        })
        .collect::<Result<_, String>>()?;
    Ok(plans
        .iter()
        .enumerate()
        .map(|(i, plan)| {
            let mut fr: Vec<f64> = stored_per_run.iter().map(|v| v[i] as f64 / p.k as f64).collect();
            // stored ≥ 0.65·k, in integers: 100·stored ≥ 65·k.
            let ok = stored_per_run.iter().filter(|v| 100 * v[i] >= 65 * p.k).count();
            let prob = ok as f64 / setup.runs.max(1) as f64;
            let q = quantiles(&mut fr);
            TheoremResult {
                method: plan.method,
                order,
                k: p.k,
                f: p.f,
                epsilon: p.epsilon,
                unequal: p.unequal,
                lights: p.lights(),
                buckets: plan.buckets,
                rows: plan.cfg.as_ref().map(|c| c.rows),
                admission: plan.admission_name(),
                runs: setup.runs,
                theorem_probability: prob,
                margin: prob - THEOREM_PROBABILITY,
                stored_fraction: q,
                packets_per_second: speed[i].per_second(),
                fractions: fr,
            }
        })
        .collect())
}

// ---------------------------------------------------------------------------------------------------
// Zipf streams and captures

/// Where the stream runs' keys come from.
#[derive(Debug, Clone)]
pub enum StreamSource {
    /// A new i.i.d. Zipf stream per seed.
    Zipf(ZipfParams),
    /// The keys of a capture (read once by the caller).
    Keys { name: String, keys: Vec<u128> },
}

/// The stream experiment: methods × memory sizes over seeds.
#[derive(Debug, Clone)]
pub struct StreamSetup {
    pub source: StreamSource,
    pub methods: Vec<HhMethod>,
    /// Memory sizes (total buckets requested).
    pub buckets: Vec<usize>,
    pub rows: usize,
    pub admission: Option<Admission>,
    pub key_bits: usize,
    /// k of the top-k.
    pub top_k: usize,
    pub seeds: u64,
    pub first_seed: u64,
    pub engine: Engine,
}

/// One method at one memory size over all seeds (JSON row of `--stream ... --json`).
#[derive(Debug, Clone, Serialize)]
pub struct StreamResult {
    pub method: HhMethod,
    /// Buckets requested.
    pub memory: usize,
    /// Buckets the method had.
    pub buckets: usize,
    pub rows: Option<usize>,
    pub admission: &'static str,
    pub top_k: usize,
    pub seeds: u64,
    /// Means over seeds.
    pub recall: f64,
    pub precision: f64,
    pub are: f64,
    /// Mean packets and distinct keys per stream.
    pub packets: f64,
    pub distinct: f64,
    pub packets_per_second: f64,
}

/// Runs the stream experiment; `tick` after each (seed, method, memory) job.
pub fn stream_runs(setup: &StreamSetup, tick: &(dyn Fn() + Sync)) -> Result<Vec<StreamResult>, String> {
    if setup.top_k == 0 {
        return Err("--k 0: the top-k needs k ≥ 1".into());
    }
    let engine = if setup.methods.iter().any(|m| m.is_core()) { engine_fn(setup.engine)? } else { golden_engine };
    let mut plans = Vec::new();
    for &b in &setup.buckets {
        for &m in &setup.methods {
            let mem = Memory { buckets: b, rows: setup.rows, admission: setup.admission, key_bits: setup.key_bits };
            plans.push((b, Plan::new(m, &mem)?));
        }
    }
    check_engine(setup.engine, plans.iter().map(|(_, p)| p))?;
    let speed: Vec<Throughput> = plans.iter().map(|_| Throughput::default()).collect();
    let mut sums = vec![[0.0f64; 3]; plans.len()];
    let (mut packets, mut distinct) = (0.0, 0.0);
    for i in 0..setup.seeds {
        let seed = setup.first_seed.wrapping_add(i);
        let generated;
        let keys: &[u128] = match &setup.source {
            StreamSource::Zipf(z) => {
                generated = zipf(ZipfParams { key_bits: setup.key_bits, ..*z }, seed)?.1;
                &generated
            }
            StreamSource::Keys { keys, .. } => keys,
        };
        let truth = true_counts(keys);
        packets += keys.len() as f64;
        distinct += truth.len() as f64;
        let m: Vec<_> = plans
            .par_iter()
            .zip(&speed)
            .map(|((_, plan), sp)| {
                let t = Instant::now();
                let est = plan.run(engine, keys, prng_seed(seed))?;
                sp.add(keys.len(), t);
                tick();
                Ok(topk_metrics(&truth, &est, setup.top_k))
            })
            .collect::<Result<_, String>>()?;
        for (s, x) in sums.iter_mut().zip(m) {
            s[0] += x.recall;
            s[1] += x.precision;
            s[2] += x.are;
        }
    }
    let n = setup.seeds.max(1) as f64;
    Ok(plans
        .iter()
        .zip(&sums)
        .zip(&speed)
        .map(|(((memory, plan), s), sp)| StreamResult {
            method: plan.method,
            memory: *memory,
            buckets: plan.buckets,
            rows: plan.cfg.as_ref().map(|c| c.rows),
            admission: plan.admission_name(),
            top_k: setup.top_k,
            seeds: setup.seeds,
            recall: s[0] / n,
            precision: s[1] / n,
            are: s[2] / n,
            packets: packets / n,
            distinct: distinct / n,
            packets_per_second: sp.per_second(),
        })
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mem(buckets: usize, rows: usize) -> Memory {
        Memory { buckets, rows, admission: None, key_bits: 104 }
    }

    #[test]
    fn plans_round_rows_down_to_powers_of_two() {
        let p = Plan::new(HhMethod::Dway, &mem(100, 2)).unwrap();
        assert_eq!((p.buckets, p.cfg.as_ref().unwrap().addr_bits), (64, 5));
        assert_eq!(Plan::new(HhMethod::Rap, &mem(100, 2)).unwrap().buckets, 100);
        assert_eq!(Plan::new(HhMethod::Precision, &mem(64, 2)).unwrap().admission, Some(Admission::PowerOfTwo));
        assert_eq!(Plan::new(HhMethod::Ss, &mem(64, 2)).unwrap().admission, None);
        assert!(Plan::new(HhMethod::Dway, &mem(7, 2)).unwrap_err().contains("at least 4 per row"));
        assert!(Plan::new(HhMethod::Dway, &mem(64, 5)).is_err());
        assert!(Plan::new(HhMethod::Dway, &mem(1 << 20, 1)).is_err());
        assert!(Plan::new(HhMethod::Ss, &mem(0, 1)).is_err());
    }

    #[test]
    fn golden_engine_matches_the_model() {
        let cfg = HhConfig { rows: 2, addr_bits: 4, key_bits: 16, count_bits: 16, record_fifo_bits: 4 };
        let rt = HhRuntime::default();
        let keys: Vec<u128> = (0..500u128).map(|i| (i * 7919) % 61).collect();
        let mut m = HhModel::new(&cfg, rt).unwrap();
        keys.iter().for_each(|&k| {
            m.step(k);
        });
        assert_eq!(estimates_of(&golden_engine(&cfg, &rt, &keys).unwrap()), m.estimates());
    }

    #[test]
    fn rap_meets_the_theorem_in_a_small_random_setting() {
        let setup = TheoremSetup {
            params: TheoremParams { k: 32, f: 100, epsilon: 0.1, unequal: false, key_bits: 104 },
            orders: vec![Order::Random],
            methods: vec![HhMethod::Ss, HhMethod::Rap],
            memory: mem(32, 2),
            runs: 40,
            first_seed: 1,
            engine: Engine::Golden,
        };
        let r = theorem_point(&setup, Order::Random, &|| {}).unwrap();
        assert_eq!(r.len(), 2);
        assert!(r[1].theorem_probability >= 0.7, "{:?}", r[1]);
        assert!(r.iter().all(|x| x.fractions.len() == 40 && x.stored_fraction.min <= x.stored_fraction.p50));
    }
}
