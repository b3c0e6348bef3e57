//! The IFPD experiments (§4.2): the IFPD sketch, CM and CM-BF in the same memory against the exact IFPD of
//! every packet, per memory size and threshold, over seeds.
//!
//! - **Memory** ([`MethodSpec`]): a budget of `M` KB (1 KB = 1024 bytes) gives each method the buckets its
//!   own layout affords: the sketch `w = ⌊8·1024·M / (d·48)⌋` per row (16-bit fingerprint + 32-bit time),
//!   CM `⌊8·1024·M / (d·32)⌋`, CM-BF a share `bf_share` of the bits for its Bloom filter (`k` partitions of
//!   `⌊share·bits / k⌋` bits) and the rest for CM rows. The paper does not say how it split CM-BF's memory;
//!   the default share is 1/4 (at 400 KB for ~100 k flows: 8 bits per flow, 4 hashes, ~2 % false "seen").
//! - **Runs**: one segment per seed (a new synthetic trace; a capture is reused), the interval base at its
//!   first packet; every method runs the whole segment once with the report threshold at the lowest θ of the
//!   run, and each θ is scored on the reports with `D_est ≥ θ` (the estimate does not depend on the
//!   threshold, so this equals one run per θ). Metrics are means over seeds (and the minimum for precision
//!   and recall).
//! - **Engines** ([`EngineFn`]): the core runs through a function of its configuration and the descriptors
//!   returning every report with its packet's index, so a Verilated core can plug in beside
//!   [`golden_engine`]; `--engine rtl` runs the Verilated build of the same shape (`rtl.rs`: rows, buckets,
//!   widths and time unit; CM-BF also the filter) and is an error naming the builds for any other size.
//!
//! Measured results and the commands are in README.md's IFPD section.

use super::metrics::{score, Score};
use crate::traffic::ifpd::{synthetic_ifpd, table1_fit, true_ifpd, IfpdParams, Table1Fit};
use crate::Engine;
use golden::ifpd::{Case3Rule, Descriptor, IfpdConfig, IfpdModel, IfpdRuntime, IfpdStats, Mode, Report};
use rayon::prelude::*;
use serde::Serialize;

/// One method at one memory budget, fully configured.
#[derive(Debug, Clone, PartialEq)]
pub struct MethodSpec {
    pub mode: Mode,
    pub memory_kb: f64,
    pub cfg: IfpdConfig,
}

impl MethodSpec {
    /// Plans `mode` in `memory_kb` KB with `rows` rows; CM-BF gives `bf_share` of the bits to `bf_hashes`
    /// Bloom partitions.
    pub fn new(mode: Mode, memory_kb: f64, rows: usize, bf_share: f64, bf_hashes: usize) -> Result<MethodSpec, String> {
        if !(memory_kb > 0.0 && memory_kb.is_finite()) {
            return Err(format!("--memory-kb {memory_kb}: must be a positive number of KB"));
        }
        if !(bf_share > 0.0 && bf_share < 1.0) {
            return Err(format!("--bf-share {bf_share}: must be in (0, 1)"));
        }
        let bits = (memory_kb * 8192.0) as usize;
        let base = IfpdConfig { rows, bf_hashes, bf_bits: 0, ..IfpdConfig::default() };
        let (rows_bits, bf_bits) = match mode {
            Mode::CmBf => {
                let per = ((bits as f64 * bf_share) as usize / bf_hashes.max(1)).max(64);
                (bits.saturating_sub(per * bf_hashes), per)
            }
            _ => (bits, 0),
        };
        let buckets = rows_bits / (rows.max(1) * base.bucket_bits(mode));
        let cfg = IfpdConfig { buckets, bf_bits, ..base };
        cfg.check().map_err(|e| format!("--memory-kb {memory_kb} for {} with {rows} rows: {e}", mode.name()))?;
        Ok(MethodSpec { mode, memory_kb, cfg })
    }
    /// Bits the method uses (at most the budget).
    pub fn memory_bits(&self) -> usize {
        self.cfg.memory_bits(self.mode)
    }
}

/// An engine: the core of `cfg` with settings `rt` over `packets`; every report with its packet's index, and
/// the counters.
pub type EngineFn = fn(&IfpdConfig, &IfpdRuntime, &[Descriptor]) -> Result<(Vec<(usize, Report)>, IfpdStats), String>;

/// The golden engine: [`IfpdModel`], one interval from `rt.base`.
pub fn golden_engine(
    cfg: &IfpdConfig,
    rt: &IfpdRuntime,
    packets: &[Descriptor],
) -> Result<(Vec<(usize, Report)>, IfpdStats), String> {
    let mut m = IfpdModel::new(cfg, *rt).map_err(|e| e.to_string())?;
    let mut out = Vec::new();
    m.run(packets, |i, o| out.extend(o.report.map(|r| (i, r))));
    Ok((out, m.stats))
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

/// Where the descriptors come from.
#[derive(Debug, Clone)]
pub enum Source {
    /// A new synthetic segment per seed.
    Synthetic(IfpdParams),
    /// A capture's descriptors (read once).
    Capture { name: String, packets: Vec<Descriptor> },
}

/// The experiment: methods × memory budgets × thresholds over seeds.
#[derive(Debug, Clone)]
pub struct Setup {
    pub source: Source,
    pub methods: Vec<Mode>,
    pub memory_kb: Vec<f64>,
    pub thresholds_ms: Vec<f64>,
    pub rows: usize,
    pub bf_share: f64,
    pub bf_hashes: usize,
    pub case3: Case3Rule,
    pub seeds: u64,
    pub first_seed: u64,
    pub engine: Engine,
}

/// One method at one (memory, threshold) point over all seeds.
#[derive(Debug, Clone, Serialize)]
pub struct MethodResult {
    pub method: &'static str,
    /// Means over seeds.
    pub precision: f64,
    pub recall: f64,
    pub f1: f64,
    pub rel_err: f64,
    pub reported: f64,
    pub true_high: f64,
    pub precision_min: f64,
    pub recall_min: f64,
    /// The method's shape in the budget.
    pub buckets_per_row: usize,
    pub bf_bits_per_hash: usize,
    pub memory_bits: usize,
    /// Cases 1/2/3 per seed, means (CM modes: 1 = estimated, 2 = judged first).
    pub cases: [f64; 3],
}

/// One (memory, threshold) point: a result per method.
#[derive(Debug, Clone, Serialize)]
pub struct Point {
    pub memory_kb: f64,
    pub threshold_ms: f64,
    pub results: Vec<MethodResult>,
}

/// Runs the experiment; `tick` after each (seed, memory, method) run.
pub fn run(setup: &Setup, tick: &(dyn Fn() + Sync)) -> Result<(Vec<Point>, Table1Fit), String> {
    let engine = engine_fn(setup.engine)?;
    if setup.thresholds_ms.is_empty() || setup.memory_kb.is_empty() || setup.methods.is_empty() {
        return Err("nothing to run: give at least one method, memory size and threshold".into());
    }
    if let Some(t) = setup.thresholds_ms.iter().find(|t| !(**t > 0.0 && t.is_finite())) {
        return Err(format!("--threshold-ms {t}: must be a positive number of ms"));
    }
    let mut specs = vec![];
    for &m in &setup.memory_kb {
        for &mode in &setup.methods {
            specs.push(MethodSpec::new(mode, m, setup.rows, setup.bf_share, setup.bf_hashes)?);
        }
    }
    // The RTL engine has a few built shapes: checked before any work.
    #[cfg(feature = "rtl")]
    if setup.engine == Engine::Rtl {
        for s in &specs {
            super::rtl::build_for(&s.cfg, s.mode)?;
        }
    }
    let unit = IfpdConfig::default().ts_unit_ns();
    let th_ns: Vec<u64> = setup.thresholds_ms.iter().map(|t| (t * 1e6).round() as u64).collect();
    let th_units: Vec<u64> = th_ns.iter().map(|&ns| ns.div_ceil(unit)).collect();
    let lowest = *th_units.iter().min().expect("thresholds checked non-empty");
    let lowest = u32::try_from(lowest).map_err(|_| format!("threshold of {lowest} units exceeds 32 bits"))?;
    // Per seed: per spec, the scores at every threshold and the counters; and the trace's Table 1.
    type SeedOut = (Vec<(Vec<Score>, IfpdStats)>, Table1Fit);
    let per_seed: Vec<SeedOut> = (0..setup.seeds)
        .into_par_iter()
        .map(|i| {
            let seed = setup.first_seed.wrapping_add(i);
            let generated;
            let packets = match &setup.source {
                Source::Synthetic(p) => {
                    generated = synthetic_ifpd(p, seed)?;
                    &generated
                }
                Source::Capture { packets, .. } => packets,
            };
            let truth = true_ifpd(packets);
            let base = packets.first().map_or(0, |d| d.ts >> IfpdConfig::default().ts_shift);
            let runs = specs
                .iter()
                .map(|spec| {
                    let rt = IfpdRuntime { mode: spec.mode, threshold: lowest, base, case3: setup.case3 };
                    let (reports, stats) = engine(&spec.cfg, &rt, packets)?;
                    let scores = th_units
                        .iter()
                        .zip(&th_ns)
                        .map(|(&u, &ns)| {
                            let returned = reports
                                .iter()
                                .filter(|(_, r)| r.d_est as u64 >= u)
                                .map(|(i, r)| (*i, (r.d_est as u64) << spec.cfg.ts_shift));
                            score(&truth, returned, ns)
                        })
                        .collect();
                    tick();
                    Ok((scores, stats))
                })
                .collect::<Result<Vec<_>, String>>()?;
            Ok((runs, table1_fit(packets, &truth)))
        })
        .collect::<Result<_, String>>()?;
    let n = setup.seeds.max(1) as f64;
    let mut points = vec![];
    for (mi, &memory_kb) in setup.memory_kb.iter().enumerate() {
        for (ti, &threshold_ms) in setup.thresholds_ms.iter().enumerate() {
            let results = (0..setup.methods.len())
                .map(|k| {
                    let si = mi * setup.methods.len() + k;
                    let spec = &specs[si];
                    let runs: Vec<(&Score, &IfpdStats)> =
                        per_seed.iter().map(|s| (&s.0[si].0[ti], &s.0[si].1)).collect();
                    let mean = |f: &dyn Fn(&Score) -> f64| runs.iter().map(|r| f(r.0)).sum::<f64>() / n;
                    let min = |f: &dyn Fn(&Score) -> f64| runs.iter().map(|r| f(r.0)).fold(f64::INFINITY, f64::min);
                    let case = |f: &dyn Fn(&IfpdStats) -> u64| runs.iter().map(|r| f(r.1) as f64).sum::<f64>() / n;
                    let (precision, recall) = (mean(&|s| s.precision), mean(&|s| s.recall));
                    MethodResult {
                        method: spec.mode.name(),
                        precision,
                        recall,
                        f1: mean(&|s| s.f1),
                        rel_err: mean(&|s| s.rel_err),
                        reported: mean(&|s| s.reported as f64),
                        true_high: mean(&|s| s.true_high as f64),
                        precision_min: min(&|s| s.precision),
                        recall_min: min(&|s| s.recall),
                        buckets_per_row: spec.cfg.buckets,
                        bf_bits_per_hash: spec.cfg.bf_bits,
                        memory_bits: spec.memory_bits(),
                        cases: [case(&|s| s.case1_match), case(&|s| s.case2_insert), case(&|s| s.case3_replace)],
                    }
                })
                .collect();
            points.push(Point { memory_kb, threshold_ms, results });
        }
    }
    Ok((points, mean_fit(per_seed.iter().map(|s| &s.1))))
}

/// Table 1 averaged over the seeds' traces.
fn mean_fit<'a>(fits: impl Iterator<Item = &'a Table1Fit>) -> Table1Fit {
    let fits: Vec<&Table1Fit> = fits.collect();
    let n = fits.len().max(1) as f64;
    let mut out = fits.first().map(|f| (*f).clone()).expect("at least one seed");
    let avg = |f: &dyn Fn(&Table1Fit) -> f64| fits.iter().map(|x| f(x)).sum::<f64>() / n;
    out.packets = avg(&|f| f.packets as f64).round() as usize;
    out.flows = avg(&|f| f.flows as f64).round() as usize;
    out.span_s = avg(&|f| f.span_s);
    out.mean_abs_log_ratio = avg(&|f| f.mean_abs_log_ratio);
    for (k, row) in out.rows.iter_mut().enumerate() {
        row.ifpd_share = avg(&|f| f.rows[k].ifpd_share);
        row.flow_share = avg(&|f| f.rows[k].flow_share);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_method_gets_the_same_budget() {
        for kb in [100.0, 400.0, 600.0] {
            let bits = (kb * 8192.0) as usize;
            for mode in Mode::ALL {
                let s = MethodSpec::new(mode, kb, 4, 0.25, 4).unwrap();
                assert!(
                    s.memory_bits() <= bits && s.memory_bits() + 4 * 48 > bits,
                    "{mode:?} {kb}: {}",
                    s.memory_bits()
                );
            }
        }
        let s = MethodSpec::new(Mode::Ifpd, 600.0, 4, 0.25, 4).unwrap();
        assert_eq!((s.cfg.buckets, s.cfg.bf_bits), (25_600, 0));
        assert_eq!(MethodSpec::new(Mode::Cm, 600.0, 4, 0.25, 4).unwrap().cfg.buckets, 38_400);
        let bf = MethodSpec::new(Mode::CmBf, 400.0, 4, 0.25, 4).unwrap();
        assert_eq!((bf.cfg.bf_bits, bf.cfg.buckets), (204_800, 19_200));
        assert!(MethodSpec::new(Mode::Ifpd, 0.01, 4, 0.25, 4).unwrap_err().contains("buckets"));
        assert!(MethodSpec::new(Mode::Ifpd, 100.0, 9, 0.25, 4).unwrap_err().contains("rows"));
        assert!(MethodSpec::new(Mode::CmBf, 100.0, 4, 1.5, 4).unwrap_err().contains("--bf-share"));
        #[cfg(not(feature = "rtl"))]
        assert_eq!(engine_fn(Engine::Rtl).err().unwrap(), crate::RTL_MISSING);
    }

    #[test]
    fn small_segment_ranks_the_methods_as_the_paper() {
        let setup = Setup {
            source: Source::Synthetic(IfpdParams { packets: 60_000, ..IfpdParams::default() }),
            methods: Mode::ALL.to_vec(),
            memory_kb: vec![40.0],
            thresholds_ms: vec![300.0, 700.0],
            rows: 4,
            bf_share: 0.25,
            bf_hashes: 4,
            case3: Case3Rule::Estimate,
            seeds: 2,
            first_seed: 1,
            engine: Engine::Golden,
        };
        let (points, fit) = run(&setup, &|| {}).unwrap();
        assert_eq!(points.len(), 2);
        assert!(fit.flows > 3000 && fit.packets >= 60_000);
        for p in &points {
            let [ifpd, cm, bf] = [0, 1, 2].map(|k| &p.results[k]);
            assert!(ifpd.true_high > 0.0 && ifpd.true_high == cm.true_high);
            assert!(ifpd.precision > 0.9 && ifpd.recall > 0.9, "{ifpd:?}");
            assert!(cm.precision < ifpd.precision, "{cm:?}");
            assert!(bf.precision > cm.precision && bf.recall < ifpd.recall, "{bf:?}");
            assert!(ifpd.rel_err < bf.rel_err && ifpd.rel_err < cm.rel_err);
        }
    }

    /// `--engine rtl` runs the Verilated build of the experiment's shape — ifpd_d1 (one row of 32 buckets at
    /// the experiment's widths) and ifpd_d4_a14 (`--memory-kb 384`: 4 rows of 2^14 buckets, the experiment's
    /// scale) — and gives exactly the golden engine's points; other shapes are refused before any work,
    /// naming the builds.
    #[cfg(feature = "rtl")]
    #[test]
    fn rtl_engine_equals_golden_for_the_built_shapes() {
        let setup = |engine, rows, memory_kb| Setup {
            source: Source::Synthetic(IfpdParams { packets: 40_000, ..IfpdParams::default() }),
            methods: vec![Mode::Ifpd],
            memory_kb: vec![memory_kb],
            thresholds_ms: vec![50.0, 300.0, 700.0],
            rows,
            bf_share: 0.25,
            bf_hashes: 4,
            case3: Case3Rule::Estimate,
            seeds: 2,
            first_seed: 3,
            engine,
        };
        for (rows, memory_kb, buckets) in [(1, 0.1875, 32), (4, 384.0, 1 << 14)] {
            let (rtl, _) = run(&setup(Engine::Rtl, rows, memory_kb), &|| {}).unwrap();
            let (gold, _) = run(&setup(Engine::Golden, rows, memory_kb), &|| {}).unwrap();
            assert_eq!(rtl[0].results[0].buckets_per_row, buckets);
            assert!(gold[0].results[0].reported > 0.0, "{:?}", gold[0].results[0]);
            assert_eq!(format!("{rtl:?}"), format!("{gold:?}"));
        }
        let e = run(&setup(Engine::Rtl, 1, 400.0), &|| {}).unwrap_err();
        assert!(e.contains("no RTL build") && e.contains("ifpd_d1") && e.contains("ifpd_d4_a14"), "{e}");
    }
}
