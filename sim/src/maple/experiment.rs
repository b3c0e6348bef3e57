//! The MAPLE experiments (§5.2, §5.3): clustering schemes and storage structures on traffic through the
//! RED queue, per seed, over 1 s epochs.
//!
//! Per seed: the arrivals (a new synthetic trace, or the capture) go through the queue at the target
//! utilisation; the golden MAPLE core ([`MapleModel`], the SVBF) runs epoch by epoch, its sampler feeding the
//! control plane. The **pipeline** is the paper's: the samples of epoch `e` give the centers of epoch
//! `e + 2` (online stage during `e + 1`, offline at its end, loaded as the shadow set during `e + 1`); the
//! first two epochs use the logarithmic centers and are not measured ("the first 2 epochs are used for
//! clustering only"). The oracle takes each epoch's own latencies.
//!
//! - **Stores** (`--store`) all use the same centers — those of the store scheme (`--clustering` when it
//!   names one scheme, else hybrid, the paper's choice after §5.2) — and the same per-center counters.
//!   After each epoch marker every packet of the frozen epoch is looked up: the SVBF through the core's
//!   lookup port, PBF/COMB/perfect in software ([`EpochState`]). Estimates are refined latencies
//!   (mean of the center's packets), except the perfect store's, which answers the center value: the
//!   paper's "Clustering" curve of Fig. 6(c).
//! - **Dimensioning** ([`Budget`]): with a memory budget `M` every store gets `M` bits; `h` =
//!   `round(M/n · ln 2)` for SVBF and PBF and `round(M/n · ln 2 / θ)` for COMB (9 and 3 at 5 Mbit and
//!   ≈ 380 k packets: the paper's values), where `n` is the mean packet count of the two unmeasured
//!   epochs. With a target `pcf`, SVBF and PBF get Table 2's `h` and `m = n·h/ln 2`, COMB its own.
//!   The PBF splits its memory by the samples of epoch `e − 2` matched to epoch `e`'s centers.
//! - **Clustering** (`--clustering`): each scheme's centers per epoch, scored with a perfect store and the
//!   center value (Fig. 5(a)); the offline stage's time per epoch is measured (Fig. 5(b)).

use super::clustering::{from_samples, logarithmic, oracle, Hybrid, LogRange, Scheme};
use super::metrics::{Summary, Tally};
use crate::traffic::packet::Decoder;
use crate::traffic::maple::{capture_maple, synthetic_maple, through_queue, Arrival, Delayed, MapleTraffic};
use crate::traffic::maple::{QueueStats, RedParams};
use golden::maple::baselines::{Comb, Pbf, PbfPolicy, Perfect};
use golden::maple::dimension::{hashes_at_load, hashes_for, svbf_for_pcf};
use golden::maple::{Centers, EpochState, FlushRecord, MapleConfig, MapleModel, MapleRuntime, Store, SvbfLayout};
use golden::maple::TieBreak;
use rayon::prelude::*;
use serde::Serialize;
use std::f64::consts::LN_2;
use std::time::Instant;

/// Epochs used for clustering only.
pub const WARMUP_EPOCHS: usize = 2;
/// Epoch length, ns.
pub const EPOCH_NS: u64 = 1_000_000_000;

/// A store.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
pub enum StoreKind {
    Svbf,
    Pbf,
    Comb,
    Perfect,
}

impl StoreKind {
    pub const ALL: [StoreKind; 4] = [StoreKind::Svbf, StoreKind::Pbf, StoreKind::Comb, StoreKind::Perfect];
    pub fn name(self) -> &'static str {
        match self {
            StoreKind::Svbf => "svbf",
            StoreKind::Pbf => "pbf",
            StoreKind::Comb => "comb",
            StoreKind::Perfect => "perfect",
        }
    }
    pub fn by_name(s: &str) -> Option<StoreKind> {
        StoreKind::ALL.into_iter().find(|x| x.name() == s)
    }
}

/// How the stores are sized.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub enum Budget {
    /// Bits per store.
    Memory(f64),
    /// Target classification failure.
    Pcf(f64),
}

/// Where the arrivals come from.
#[derive(Debug, Clone)]
pub enum Source {
    Synthetic(MapleTraffic),
    Capture { name: String, arrivals: Vec<Arrival> },
}

/// The experiment.
#[derive(Debug, Clone)]
pub struct Setup {
    pub source: Source,
    pub utilization: f64,
    /// Queue limit, ms of service.
    pub limit_ms: f64,
    pub k: usize,
    pub schemes: Vec<Scheme>,
    pub store_scheme: Scheme,
    pub stores: Vec<StoreKind>,
    pub budget: Budget,
    pub sampling: f64,
    pub layout: SvbfLayout,
    pub tie: TieBreak,
    pub pbf_policy: PbfPolicy,
    /// COMB's (f, θ).
    pub comb: (usize, usize),
    pub log: LogRange,
    /// Hybrid clustering's static share and offline stage (clustering module docs).
    pub hybrid: Hybrid,
    pub seeds: u64,
    pub first_seed: u64,
}

impl Setup {
    /// The paper's §5.3 setting on `source` with `budget`: 85 %, a 10 ms queue, k = 50, every scheme and
    /// store (the stores on hybrid centers), 10 % sampling, partitioned SVBF, the count tie-break, a
    /// capacity-stopped PBF, COMB(8, 3), one seed from 1.
    pub fn paper(source: Source, budget: Budget) -> Setup {
        Setup {
            source,
            utilization: 0.85,
            limit_ms: 10.0,
            k: 50,
            schemes: Scheme::ALL.to_vec(),
            store_scheme: Scheme::Hybrid,
            stores: StoreKind::ALL.to_vec(),
            budget,
            sampling: 0.1,
            layout: SvbfLayout::Partitioned,
            tie: TieBreak::Count,
            pbf_policy: PbfPolicy::StopAtCapacity,
            comb: (8, 3),
            log: LogRange::default(),
            hybrid: Hybrid::default(),
            seeds: 1,
            first_seed: 1,
        }
    }
}

/// One store's shape and result.
#[derive(Debug, Clone, Serialize)]
pub struct StoreResult {
    pub store: &'static str,
    /// Bits (0 for the perfect store, which is not a bounded structure).
    pub memory_bits: f64,
    pub hashes: usize,
    pub summary: Summary,
    /// SVBF: mean words read per lookup.
    pub lookup_words: Option<f64>,
}

/// One clustering scheme's result.
#[derive(Debug, Clone, Serialize)]
pub struct SchemeResult {
    pub scheme: &'static str,
    pub summary: Summary,
    /// Mean time to compute an epoch's centers (online stage replay + offline stage), ms.
    pub offline_ms: f64,
    /// Mean candidates the offline stage saw.
    pub candidates: f64,
    /// Hybrid: the share of packets whose nearest center is a static (logarithmic) one (the paper: 53 % at
    /// high, 1.5 % at low utilisation, §5.2).
    pub static_share: Option<f64>,
}

/// The whole run.
#[derive(Debug, Clone, Serialize)]
pub struct Outcome {
    pub stores: Vec<StoreResult>,
    pub schemes: Vec<SchemeResult>,
    /// Per seed: the queue's statistics and the packets per epoch.
    pub queue: Vec<QueueStats>,
    pub epoch_packets_mean: f64,
    pub measured_epochs: usize,
    pub sample_drops: u64,
    /// Error CDFs for the figure (ns), stores then schemes.
    #[serde(skip)]
    pub tallies: Vec<(String, Tally)>,
}

/// Sizes (bits, hashes) of a store for `n` packets per epoch; `h` is capped at what the structures hold
/// (16 for SVBF and PBF, `64/f` per code bit for COMB), which only a very light load reaches.
pub fn dimension(store: StoreKind, budget: Budget, n: f64, k: usize, comb: (usize, usize)) -> (f64, usize) {
    let f = comb.0;
    let cap = if store == StoreKind::Comb { 64 / f.max(1) } else { golden::maple::MAX_HASHES };
    let (bits, h) = dimension_uncapped(store, budget, n, k, comb);
    (bits, h.clamp(1, cap))
}

fn dimension_uncapped(store: StoreKind, budget: Budget, n: f64, k: usize, comb: (usize, usize)) -> (f64, usize) {
    let (f, theta) = comb;
    match (store, budget) {
        (StoreKind::Comb, Budget::Memory(m)) => (m, hashes_at_load(m / n, theta)),
        (_, Budget::Memory(m)) => (m, hashes_at_load(m / n, 1)),
        (StoreKind::Comb, Budget::Pcf(p)) => {
            let h = hashes_for(p, f - theta);
            (n * theta as f64 * h / LN_2, h.ceil() as usize)
        }
        (_, Budget::Pcf(p)) => {
            let (h, load) = svbf_for_pcf(p, k);
            (n * load, h)
        }
    }
}

/// Per-seed output.
struct SeedOut {
    stores: Vec<(Tally, f64, usize, u64)>,
    /// Per scheme: errors, offline ms, candidates, packets matched to a static center (hybrid).
    schemes: Vec<(Tally, f64, f64, u64)>,
    queue: QueueStats,
    epoch_packets: f64,
    measured: usize,
    drops: u64,
}

/// Where each epoch of the SVBF core goes as it is flushed (`netmeas run maple --save-epochs`): called
/// after every epoch marker of every seed (seeds run in parallel), warm-up epochs included.
pub trait EpochSink: Sync {
    /// One flushed epoch.
    fn epoch(&self, e: &FlushedEpoch) -> Result<(), String>;
}

/// An epoch as the sink gets it: epoch `epoch` of `seed` (`measured`: past the warm-up), the core's shape and
/// tie-break, the flushed record, and the epoch's delivered packets (keys in arrival order with their true
/// latencies).
pub struct FlushedEpoch<'a> {
    pub seed: u64,
    pub epoch: usize,
    pub measured: bool,
    pub cfg: &'a MapleConfig,
    pub tie: TieBreak,
    pub record: &'a FlushRecord,
    pub packets: &'a [Delayed],
}

/// Runs the experiment; `tick` after each seed's epoch.
pub fn run(setup: &Setup, tick: &(dyn Fn() + Sync)) -> Result<Outcome, String> {
    run_with(setup, tick, None)
}

/// [`run`], handing every flushed epoch to `sink`.
pub fn run_with(setup: &Setup, tick: &(dyn Fn() + Sync), sink: Option<&dyn EpochSink>) -> Result<Outcome, String> {
    if !(1..=64).contains(&setup.k) {
        return Err(format!("--centers {}: 1..=64", setup.k));
    }
    if !(setup.sampling > 0.0 && setup.sampling <= 1.0) {
        return Err(format!("--sampling {}: must be in (0, 1]", setup.sampling));
    }
    let (f, theta) = setup.comb;
    if setup.stores.contains(&StoreKind::Comb) && (theta >= f || binomial(f, theta) < setup.k as u64) {
        return Err(format!("COMB({f}, {theta}) has {} codes for {} centers", binomial(f, theta), setup.k));
    }
    let outs: Vec<SeedOut> = (0..setup.seeds)
        .into_par_iter()
        .map(|i| run_seed(setup, setup.first_seed.wrapping_add(i), tick, sink))
        .collect::<Result<_, _>>()?;
    let mut stores = vec![];
    let mut tallies = vec![];
    for (si, &kind) in setup.stores.iter().enumerate() {
        let mut t = Tally::default();
        let (mut words, mut lookups) = (0.0, 0u64);
        outs.iter().for_each(|o| {
            t.merge(&o.stores[si].0);
            words += o.stores[si].1;
            lookups += o.stores[si].0.packets;
        });
        let hashes = outs[0].stores[si].2;
        stores.push(StoreResult {
            store: kind.name(),
            memory_bits: outs.iter().map(|o| o.stores[si].3 as f64).sum::<f64>() / outs.len() as f64,
            hashes,
            lookup_words: (kind == StoreKind::Svbf).then(|| words / lookups.max(1) as f64),
            summary: t.summary(),
        });
        tallies.push((kind.name().to_string(), t));
    }
    let mut schemes = vec![];
    for (si, &s) in setup.schemes.iter().enumerate() {
        let mut t = Tally::default();
        outs.iter().for_each(|o| t.merge(&o.schemes[si].0));
        let n = outs.len() as f64;
        schemes.push(SchemeResult {
            scheme: s.name(),
            summary: t.summary(),
            offline_ms: outs.iter().map(|o| o.schemes[si].1).sum::<f64>() / n,
            candidates: outs.iter().map(|o| o.schemes[si].2).sum::<f64>() / n,
            static_share: (s == Scheme::Hybrid)
                .then(|| outs.iter().map(|o| o.schemes[si].3).sum::<u64>() as f64 / t.packets.max(1) as f64),
        });
        tallies.push((s.name().to_string(), t));
    }
    let n = outs.len() as f64;
    Ok(Outcome {
        stores,
        schemes,
        queue: outs.iter().map(|o| o.queue).collect(),
        epoch_packets_mean: outs.iter().map(|o| o.epoch_packets).sum::<f64>() / n,
        measured_epochs: outs.iter().map(|o| o.measured).sum(),
        sample_drops: outs.iter().map(|o| o.drops).sum(),
        tallies,
    })
}

fn binomial(n: usize, r: usize) -> u64 {
    (0..r.min(n)).fold(1u64, |acc, i| acc * (n - i) as u64 / (i as u64 + 1))
}

/// One seed: traffic, queue, the pipeline, the lookups.
/// The core's run-time settings for `seed`: sampling at rate `sampling`, the PRNG seeded from the seed's two
/// halves, the tie-break; the flush at the epoch marker.
pub(super) fn core_runtime(sampling: f64, tie: TieBreak, seed: u64) -> MapleRuntime {
    MapleRuntime {
        sample_threshold: MapleRuntime::threshold_for(sampling),
        prng_seed: (seed as u32) ^ (seed >> 32) as u32,
        tie,
        manual_flush: false,
    }
}

fn run_seed(setup: &Setup, seed: u64, tick: &(dyn Fn() + Sync), sink: Option<&dyn EpochSink>) -> Result<SeedOut, String> {
    let generated;
    let arrivals = match &setup.source {
        Source::Synthetic(t) => {
            generated = synthetic_maple(t, seed)?;
            &generated
        }
        Source::Capture { arrivals, .. } => arrivals,
    };
    let red = RedParams::for_utilization(arrivals, setup.utilization, setup.limit_ms)?;
    let (epochs, queue) = through_queue(arrivals, red, EPOCH_NS, seed);
    let e_total = epochs.len();
    if e_total <= WARMUP_EPOCHS {
        return Err(format!(
            "the trace has {e_total} epoch(s) of 1 s; MAPLE needs more than {WARMUP_EPOCHS} (the first {WARMUP_EPOCHS} only cluster)"
        ));
    }
    let n_dim = (epochs[0].len() + epochs[1].len()) as f64 / 2.0;
    if n_dim < 1.0 {
        return Err("the first two epochs carry no packets".into());
    }
    let k = setup.k;
    let cerr = |e: golden::common::ConfigError| e.to_string();
    let bootstrap = Centers::from_unsorted(logarithmic(k, &setup.log)).map_err(cerr)?;
    // Centers per scheme per epoch (the store scheme too, as the last row).
    let mut rows: Vec<Scheme> = setup.schemes.clone();
    rows.push(setup.store_scheme);
    let mut centers: Vec<Vec<Option<Centers>>> = vec![vec![None; e_total + 2]; rows.len()];
    let own = |e: usize| -> Result<Centers, String> {
        let lat: Vec<u32> = epochs[e].iter().map(|d| d.latency).collect();
        if lat.is_empty() {
            return Ok(bootstrap.clone());
        }
        Centers::from_unsorted(oracle(&lat, k)).map_err(cerr)
    };
    for (r, &s) in rows.iter().enumerate() {
        for (e, c) in centers[r].iter_mut().enumerate().take(WARMUP_EPOCHS.min(e_total)) {
            *c = Some(if s == Scheme::Oracle { own(e)? } else { bootstrap.clone() });
        }
    }
    let store_row = rows.len() - 1;
    let dims: Vec<(f64, usize)> = setup
        .stores
        .iter()
        .map(|&s| if s == StoreKind::Perfect { (0.0, 0) } else { dimension(s, setup.budget, n_dim, k, setup.comb) })
        .collect();
    let svbf_dim = dimension(StoreKind::Svbf, setup.budget, n_dim, k, setup.comb);
    let cfg = MapleConfig {
        hashes: svbf_dim.1.clamp(1, golden::maple::MAX_HASHES),
        svbf_bits: svbf_dim.0 as usize,
        layout: setup.layout,
        sample_fifo_bits: 12,
        ..MapleConfig::default()
    };
    let rt = core_runtime(setup.sampling, setup.tie, seed);
    let mut model = MapleModel::new(&cfg, rt, centers[store_row][0].clone().expect("set")).map_err(cerr)?;
    let mut samples: Vec<Vec<u32>> = vec![];
    let mut store_tallies: Vec<(Tally, f64, usize, u64)> =
        dims.iter().map(|&(bits, h)| (Tally::default(), 0.0, h, bits as u64)).collect();
    let mut scheme_tallies: Vec<(Tally, f64, f64, u64)> =
        vec![(Tally::default(), 0.0, 0.0, 0); setup.schemes.len()];
    // Hybrid's static centers, as the core holds them (rounded ns; none when k/2 is 0).
    let static_set = setup.hybrid.static_set(k, &setup.log);
    let statics: Vec<u32> = if static_set.is_empty() {
        vec![]
    } else {
        Centers::from_unsorted(static_set).map_err(cerr)?.values().to_vec()
    };
    let mut timed = vec![0usize; setup.schemes.len()];
    for e in 0..e_total {
        let mut got = vec![];
        let packets: Vec<_> =
            epochs[e].iter().map(|d| golden::maple::Descriptor { key: d.key, latency: d.latency }).collect();
        model.run(&packets, |m, _, _| got.extend(m.pop_sample()));
        // The control plane: centers of e + 2 from this epoch's samples.
        for (r, &s) in rows.iter().enumerate() {
            if e + 2 >= e_total || s == Scheme::Oracle {
                continue;
            }
            let t = Instant::now();
            let n_hint = samples.last().map_or(got.len(), |v: &Vec<u32>| v.len());
            let (c, cand) = if got.is_empty() {
                (bootstrap.values().iter().map(|&x| x as f64).collect(), 0)
            } else {
                from_samples(s, &got, k, &setup.log, &setup.hybrid, n_hint, seed ^ e as u64)
            };
            centers[r][e + 2] = Some(Centers::from_unsorted(c).map_err(cerr)?);
            if r < setup.schemes.len() {
                scheme_tallies[r].1 += t.elapsed().as_secs_f64() * 1e3;
                scheme_tallies[r].2 += cand as f64;
                timed[r] += 1;
            }
        }
        for (r, &s) in rows.iter().enumerate() {
            if s == Scheme::Oracle && e + 1 < e_total && centers[r][e + 1].is_none() {
                let t = Instant::now();
                centers[r][e + 1] = Some(own(e + 1)?);
                if r < setup.schemes.len() {
                    scheme_tallies[r].1 += t.elapsed().as_secs_f64() * 1e3;
                    timed[r] += 1;
                }
            }
        }
        samples.push(got);
        if e + 1 < e_total {
            model.load_centers(centers[store_row][e + 1].clone().expect("computed two epochs ago"));
        }
        model.epoch();
        if let Some(sink) = sink {
            let record = model.flush().expect("an epoch is frozen");
            sink.epoch(&FlushedEpoch {
                seed,
                epoch: e,
                measured: e >= WARMUP_EPOCHS,
                cfg: &model.cfg,
                tie: setup.tie,
                record: &record,
                packets: &epochs[e],
            })?;
        }
        if e >= WARMUP_EPOCHS {
            let c_e = centers[store_row][e].as_ref().expect("set");
            measure_stores(setup, &mut model, &epochs[e], c_e, &samples[e - 2], &mut store_tallies)?;
            for (r, t) in scheme_tallies.iter_mut().enumerate() {
                let c = centers[r][e].as_ref().expect("set");
                let start = (t.0.packets, t.0.multi);
                for err in super::clustering::abs_errors(&epochs[e], c) {
                    t.0.packets += 1;
                    t.0.error(err as u32);
                }
                if setup.schemes[r] == Scheme::Hybrid {
                    let at = |l: u32| statics.binary_search(&c.get(c.nearest(l))).is_ok();
                    t.3 += epochs[e].iter().filter(|d| at(d.latency)).count() as u64;
                }
                t.0.end_epoch(start);
            }
        }
        tick();
    }
    for (r, t) in scheme_tallies.iter_mut().enumerate() {
        t.1 /= timed[r].max(1) as f64;
        t.2 /= timed[r].max(1) as f64;
    }
    Ok(SeedOut {
        stores: store_tallies,
        schemes: scheme_tallies,
        queue,
        epoch_packets: epochs.iter().map(|e| e.len()).sum::<usize>() as f64 / e_total as f64,
        measured: e_total - WARMUP_EPOCHS,
        drops: model.sample_drops() as u64,
    })
}

/// Looks up every packet of the just-frozen epoch in every store.
fn measure_stores(
    setup: &Setup,
    model: &mut MapleModel,
    epoch: &[Delayed],
    c: &Centers,
    old_samples: &[u32],
    out: &mut [(Tally, f64, usize, u64)],
) -> Result<(), String> {
    let cerr = |e: golden::common::ConfigError| e.to_string();
    let truth: Vec<usize> = epoch.iter().map(|d| c.nearest(d.latency)).collect();
    for (si, &kind) in setup.stores.iter().enumerate() {
        let (t, words, h, bits) = &mut out[si];
        let start = (t.packets, t.multi);
        let h = *h;
        match kind {
            StoreKind::Svbf => {
                for (d, &tc) in epoch.iter().zip(&truth) {
                    let (l, w) = model.lookup(d.key).expect("an epoch is frozen");
                    *words += w as f64;
                    t.lookup(&l, tc, d.latency, l.refined);
                }
                *bits = model.cfg.memory_bits() as u64;
            }
            StoreKind::Pbf => {
                let mut shares = vec![0.0; c.k()];
                old_samples.iter().for_each(|&l| shares[c.nearest(l)] += 1.0);
                let pbf = Pbf::new(*bits as usize, h, 128, &shares, setup.pbf_policy).map_err(cerr)?;
                software(t, EpochState::new(pbf, c.clone()), epoch, &truth, setup.tie, true);
            }
            StoreKind::Comb => {
                let comb = Comb::new(*bits as usize, setup.comb.0, setup.comb.1, h, c.k(), 128).map_err(cerr)?;
                software(t, EpochState::new(comb, c.clone()), epoch, &truth, setup.tie, true);
            }
            StoreKind::Perfect => {
                software(t, EpochState::new(Perfect::default(), c.clone()), epoch, &truth, setup.tie, false)
            }
        }
        t.end_epoch(start);
    }
    Ok(())
}

/// Inserts the epoch into a software store, then looks every packet up.
fn software<S: Store>(
    t: &mut Tally,
    mut e: EpochState<S>,
    epoch: &[Delayed],
    truth: &[usize],
    tie: TieBreak,
    refined: bool,
) {
    for d in epoch {
        e.insert(d.key, d.latency);
    }
    for (d, &tc) in epoch.iter().zip(truth) {
        let l = e.lookup(d.key, tie);
        t.lookup(&l, tc, d.latency, if refined { l.refined } else { l.latency });
    }
}

/// The capture source of `path`.
pub fn capture_source(path: &std::path::Path, decoder: &Decoder) -> Result<(Source, String), String> {
    let (arrivals, st) = capture_maple(path, decoder)?;
    let what = format!("{}: {} frames, {} TCP packets, {} skipped", path.display(), st.frames, st.packets, st.skipped);
    Ok((Source::Capture { name: path.display().to_string(), arrivals }, what))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn small(stores: Vec<StoreKind>, schemes: Vec<Scheme>, store_scheme: Scheme) -> Setup {
        let t = MapleTraffic { epochs: 4, packets_per_epoch: 30_000, ..MapleTraffic::default() };
        let paper = Setup::paper(Source::Synthetic(t), Budget::Memory(0.4e6));
        Setup { schemes, store_scheme, stores, seeds: 2, ..paper }
    }

    #[test]
    fn stores_rank_as_the_paper_and_the_svbf_meets_equation_3() {
        let o = run(&small(StoreKind::ALL.to_vec(), vec![Scheme::Hybrid], Scheme::Hybrid), &|| {}).unwrap();
        let [svbf, pbf, comb, perfect] = [0, 1, 2, 3].map(|i| &o.stores[i].summary);
        assert_eq!(o.measured_epochs, 4);
        assert!(svbf.packets > 100_000 && svbf.packets == perfect.packets);
        assert_eq!((svbf.false_negative, comb.false_negative), (0.0, 0.0), "SVBF and COMB never lose a packet");
        assert_eq!((perfect.classification_failure, perfect.false_classification), (0.0, 0.0));
        assert!(pbf.false_negative > 0.01, "a capacity-stopped PBF refuses packets: {pbf:?}");
        assert!(comb.classification_failure > 3.0 * svbf.classification_failure, "{comb:?} {svbf:?}");
        assert!(svbf.false_classification <= svbf.classification_failure);
        // Eq. (3) at the measured load (h = 9 at 0.4 Mbit for ~30 k packets).
        let n = o.epoch_packets_mean;
        let want = golden::maple::dimension::pcf_svbf(0.4e6, n, o.stores[0].hashes, 50, true);
        assert!((svbf.classification_failure - want).abs() < 0.3 * want, "{} vs {want}", svbf.classification_failure);
        // The perfect store's error is the hybrid clustering's (same centers, center values).
        assert_eq!(perfect.abs_err_us, o.schemes[0].summary.abs_err_us);
        assert!(o.stores[0].lookup_words.unwrap() <= 9.0 * 3.0);
    }

    #[test]
    fn the_oracle_clusters_best_and_errors_are_reported() {
        let o = run(&small(vec![], Scheme::ALL.to_vec(), Scheme::Hybrid), &|| {}).unwrap();
        let p90 = |i: usize| o.schemes[i].summary.pct(90);
        assert_eq!(o.schemes[0].scheme, "oracle");
        assert!((1..4).all(|i| p90(0) <= p90(i)), "{:?}", o.schemes);
        assert!(o.schemes[2].candidates > 100.0, "k-medians saw its candidates");
        let mut s = small(vec![StoreKind::Comb], vec![Scheme::Log], Scheme::Log);
        s.comb = (6, 2);
        assert!(run(&s, &|| {}).unwrap_err().contains("codes"));
        s.k = 65;
        assert!(run(&s, &|| {}).unwrap_err().contains("--centers"));
        let s = Setup {
            source: Source::Synthetic(MapleTraffic { epochs: 2, ..MapleTraffic::default() }),
            ..small(vec![], vec![Scheme::Log], Scheme::Log)
        };
        assert!(run(&s, &|| {}).unwrap_err().contains("epoch"));
    }
}
