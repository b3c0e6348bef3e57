//! The FineComb experiments of §V end to end on the golden cores, at T = 1 M packets per interval instead
//! of 5 M (the useful-sample counts, and so the errors, depend on S/β and ρ, not on T: p* and p** scale
//! as 1/T). Each test checks one of the targets (Figures 4, 6, 7, 8) where it holds at this
//! scale and the contrast with LDA; README.md (FineComb) has the full-scale numbers.

use sim::finecomb::experiment::{accumulate_seeds, run_interval, Accumulator, Method, MethodSummary, Setup, StashChoice};
use sim::traffic::finecomb::{FinecombTrafficParams, Reorder};
use sim::Engine;

const T: u64 = 1_000_000;

fn setup(loss: f64, reorder: Reorder, rho: f64, banks: usize, methods: &[Method]) -> Setup {
    Setup {
        traffic: FinecombTrafficParams { packets: T, ..FinecombTrafficParams::paper(loss, reorder, rho) },
        storage: 1000,
        stash: StashChoice::Auto,
        banks,
        methods: methods.to_vec(),
        engine: Engine::Golden,
    }
}

/// Per-method accumulators over `seeds` seeds.
fn accumulate(s: &Setup, seeds: u64) -> Vec<(Method, Accumulator)> {
    accumulate_seeds(s, 1, seeds, || {}).unwrap()
}

/// Per-method summaries over `seeds` seeds.
fn summaries(s: &Setup, seeds: u64) -> Vec<(Method, MethodSummary, usize)> {
    accumulate(s, seeds).iter().map(|(m, a)| (*m, a.summary(), a.seeds_with_estimate())).collect()
}

fn get(v: &[(Method, MethodSummary, usize)], m: Method) -> MethodSummary {
    v.iter().find(|x| x.0 == m).unwrap().1
}

#[test]
fn fig4_finecomb_mean_delay_and_useful_samples_under_high_loss() {
    for rho in [4e-4, 4e-3] {
        // ~35 000 and ~27 000 useful samples of a delay with σ/μ = 1.76: E|error| ≈ 0.8 % and 0.9 %, the
        // average over 12 seeds has a standard deviation of about 0.2 %.
        let v = summaries(&setup(0.01, Reorder::Backward, rho, 1, &[Method::Finecomb]), 12);
        let f = get(&v, Method::Finecomb);
        eprintln!("β 0.01 backward ρ {rho}: {f:?}");
        assert!(f.mean_delay_rel_err.unwrap() < 0.012, "ρ {rho}: {f:?}");
        let ratio = f.useful_samples.unwrap() / f.expected_useful_samples.unwrap();
        assert!((ratio - 1.0).abs() < 0.05, "ρ {rho}: useful / eq. (2) = {ratio}");
    }
}

#[test]
fn fig6b_forward_reordering_breaks_lda_but_not_finecomb() {
    let methods = [Method::Finecomb, Method::FinecombNoStash, Method::Lda, Method::LdaPlus];
    let v = summaries(&setup(1e-4, Reorder::Forward, 4e-3, 1, &methods), 4);
    for m in &v {
        eprintln!("{:?}: {:?} ({} seeds with an estimate)", m.0, m.1, m.2);
    }
    let (fc, lda, plus) = (get(&v, Method::Finecomb), get(&v, Method::Lda), get(&v, Method::LdaPlus));
    assert!(fc.mean_delay_rel_err.unwrap() < 0.012, "{fc:?}");
    assert!(get(&v, Method::FinecombNoStash).mean_delay_rel_err.unwrap() < 0.012);
    assert!(lda.mean_delay_rel_err.unwrap() >= 1.0, "LDA should be off by ≥ 100%: {lda:?}");
    // Under the §III-A model the forward extras arrive at the start of the interval, so an LDA bucket that
    // swapped a lost packet for one has a negative delay sum, which LDA+ drops (README.md, FineComb).
    assert!(plus.mean_delay_rel_err.unwrap() < lda.mean_delay_rel_err.unwrap() / 10.0, "{plus:?}");
}

#[test]
fn fig7_loss_estimates_finecomb_against_lda() {
    let methods = [Method::Finecomb, Method::FinecombNoStash, Method::Lda];
    // Little reordering: the stash catches it all and the loss estimate is within the paper's 30%.
    let v = summaries(&setup(1e-4, Reorder::Backward, 4e-5, 1, &methods), 4);
    let fc = get(&v, Method::Finecomb);
    eprintln!("ρ 4e-5: {v:?}");
    assert!(fc.loss_rel_err.unwrap() <= 0.3, "{fc:?}");
    // More reordering: the stash keeps FineComb's estimate far better than FineComb−'s and LDA's, which
    // count every reordered packet as lost.
    let v = summaries(&setup(1e-4, Reorder::Backward, 4e-4, 1, &methods), 4);
    eprintln!("ρ 4e-4: {v:?}");
    let fc = get(&v, Method::Finecomb).loss_rel_err.unwrap();
    for m in [Method::FinecombNoStash, Method::Lda] {
        let other = get(&v, m).loss_rel_err.unwrap();
        assert!(other > 2.0 * fc, "{m:?}: {other} vs FineComb {fc}");
    }
}

#[test]
fn fig7_single_loss_residual_extension_improves_the_loss_estimate() {
    // The paper's recovery cannot repair a bucket that holds a lost and a reordered packet, and with p*
    // most lost packets share a bucket with reordered ones at ρ ≥ 4e-4 (README.md, FineComb). Explaining such
    // buckets by one lost packet (checked against the residual digest) cuts the loss error by a factor of
    // two or more (10 seeds at T = 5 M, ρ = 4e-3 backward: 160 % → 49 %; at ρ = 4e-4 it reaches the
    // paper's ≤ 30 %).
    // The check has log2(M/p) bits of redundancy and p* grows as 1/T, so this one runs at the paper's
    // T = 5 M where ρ = 4e-3 needs it (at 1 M, p* is 5× larger and the check rejects or errs more often).
    for reorder in [Reorder::Backward, Reorder::Forward] {
        for (rho, packets) in [(4e-4, T), (4e-3, 5 * T)] {
            let mut s = setup(1e-4, reorder, rho, 1, &[Method::Finecomb]);
            s.traffic.packets = packets;
            let acc = accumulate(&s, 3);
            let a = &acc[0].1;
            let (paper, ext) = (a.summary().loss_rel_err.unwrap(), a.loss_one_lost_rel_err().unwrap());
            eprintln!("{reorder:?} ρ {rho}: loss error {paper} (paper), {ext} (residual check)");
            assert!(ext < paper / 2.0, "{reorder:?} ρ {rho}: {ext} vs {paper}");
            if rho < 1e-3 {
                assert!(ext <= 0.3, "{reorder:?} ρ {rho}: {ext}");
            }
            assert!(a.recovery.one_lost > 0);
        }
    }
}

#[test]
fn fig8_four_banks_stay_accurate_across_reordering_rates() {
    for rho in [4e-4, 4e-2] {
        // The paper's < 1 % is not reached with four banks of S/5 (1.8–1.9 % over 10 seeds at ρ = 4e-4; see
        // README.md): this guards the level, with room for the average over 6 seeds.
        let v = summaries(&setup(0.01, Reorder::Backward, rho, 4, &[Method::Finecomb]), 6);
        let f = get(&v, Method::Finecomb);
        eprintln!("4 banks, ρ {rho}: {f:?}");
        assert!(f.mean_delay_rel_err.unwrap() < 0.025, "ρ {rho}: {f:?}");
        // Loss (Fig. 8(c)): the paper reports < 20 % up to ρ = 0.016 and about 55 % beyond.
        assert!(f.loss_rel_err.unwrap() < if rho < 0.016 { 0.2 } else { 0.55 }, "ρ {rho}: {f:?}");
        assert!(f.expected_useful_samples.is_none());
    }
}

#[test]
fn stddev_estimate_converges_as_useful_buckets_grow() {
    // No reordering, little loss, p = 1: every bucket is a sum of ~T/M delays. The estimator's relative
    // error should shrink like 1/√(2K) with K useful buckets.
    let mut errs = vec![];
    for storage in [100, 1000, 10_000] {
        let s = Setup { storage, ..setup(1e-5, Reorder::Backward, 0.0, 1, &[Method::FinecombNoStash]) };
        let v = summaries(&s, 4);
        let e = get(&v, Method::FinecombNoStash).stddev_rel_err.unwrap();
        eprintln!("{storage} buckets: stddev relative error {e}");
        errs.push(e);
    }
    // Measured: 3.7 %, 1.2 %, 0.43 % (4 seeds each).
    assert!(errs[2] < errs[1] && errs[1] < errs[0], "{errs:?}");
    assert!(errs[0] < 0.12 && errs[1] < 0.05 && errs[2] < 0.02, "{errs:?}");
}

#[test]
fn bad_setups_are_errors() {
    let s = setup(0.01, Reorder::Backward, 0.004, 3, &[Method::Finecomb]);
    assert!(run_interval(&s, 1).unwrap_err().contains("--banks"));
    let s = Setup { stash: StashChoice::Fixed(2000), ..setup(0.01, Reorder::Backward, 0.004, 1, &[Method::Finecomb]) };
    assert!(run_interval(&s, 1).unwrap_err().contains("no buckets"));
    let s = Setup { storage: 4, ..setup(0.01, Reorder::Backward, 0.004, 1, &[Method::Finecomb]) };
    assert!(run_interval(&s, 1).unwrap_err().contains("--buckets"));
    let s = setup(1.5, Reorder::Backward, 0.004, 1, &[Method::Finecomb]);
    assert!(run_interval(&s, 1).is_err());
    let s = setup(0.01, Reorder::Backward, 0.004, 1, &[]);
    assert!(run_interval(&s, 1).is_err());
    #[cfg(not(feature = "rtl"))]
    {
        let s = Setup { engine: Engine::Rtl, ..setup(0.01, Reorder::Backward, 0.004, 1, &[Method::Finecomb]) };
        assert!(run_interval(&s, 1).unwrap_err().contains("without the rtl feature"));
    }
}

/// The RTL engine (sender and receiver Verilated, cycle-checked against the golden cycle model, readouts
/// checked against the golden transaction model inside `run_interval`) gives exactly golden's numbers:
/// one bank with stash (and FineComb−, LDA) and the four-bank layout, at T = 100 000.
#[cfg(feature = "rtl")]
#[test]
fn rtl_engine_gives_exactly_golden_results() {
    for banks in [1, 4] {
        let golden = Setup {
            traffic: FinecombTrafficParams {
                packets: 100_000,
                ..FinecombTrafficParams::paper(0.01, Reorder::Backward, 4e-3)
            },
            ..setup(0.01, Reorder::Backward, 4e-3, banks, &Method::ALL)
        };
        let rtl = Setup { engine: Engine::Rtl, ..golden.clone() };
        let (g, r) = (run_interval(&golden, 7).unwrap(), run_interval(&rtl, 7).unwrap());
        assert_eq!(g.results.len(), 4);
        for ((mg, og), (mr, or)) in g.results.iter().zip(&r.results) {
            assert_eq!(mg, mr);
            let key = |o: &sim::finecomb::experiment::Outcome| (o.mean_ns, o.stddev_ns, o.loss, o.useful_samples);
            assert_eq!(key(og), key(or), "{banks} bank(s), {mg:?}");
            assert!(og.useful_samples > 1000, "{banks} bank(s), {mg:?}: {} useful samples", og.useful_samples);
        }
    }
}

/// Issue 19 (Fig. 7): the measured loss error of FineComb follows the bucket model of
/// `sim::finecomb::loss_model` (reordered samples sharing a bucket with a loss, the one substash the
/// drifting packets compete for) in both reordering directions, over a decade of ρ: the growth with ρ is
/// the estimator's, not a simulation artefact.
#[test]
fn fig7_loss_error_follows_the_bucket_model() {
    use sim::finecomb::sweep::{run, Param, Sweep};
    for reorder in [Reorder::Backward, Reorder::Forward] {
        let s = setup(1e-4, reorder, 0.0, 1, &[Method::Finecomb]);
        let points = run(&s, &Sweep { param: Param::Rho, values: vec![4e-4, 4e-3] }, 1, 6, false).unwrap();
        for p in &points {
            let measured = p.methods[0].1.summary.loss_rel_err.unwrap();
            let model = p.loss_model.unwrap();
            eprintln!("{reorder:?} ρ {}: measured {measured:.3}, model {:.3} ({model:?})", p.value, model.mean_rel_err);
            assert!((measured / model.mean_rel_err - 1.0).abs() < 0.4, "{reorder:?} ρ {}: {measured} vs {model:?}", p.value);
        }
        let grows = points[1].methods[0].1.summary.loss_rel_err.unwrap() / points[0].methods[0].1.summary.loss_rel_err.unwrap();
        assert!(grows > 2.5, "{reorder:?}: the error grows with ρ ({grows})");
    }
}

/// Fig. 7(b) at the paper's scale (T = 5 M, S = 1000, ρ = 1e-4, backward): with exactly 5 or 100 lost
/// packets the paper's estimator misses by ≈ 20–30 % (≈ 0.25 reordered samples per bucket: a loss shares
/// its bucket with one about a fifth of the time, and the unrepaired bucket counts it as lost too), where
/// the paper reports "well within 10 %"; the single-lost-packet residual check (extension) reaches it.
#[test]
fn fig7b_exact_losses_need_the_residual_check_to_reach_ten_percent() {
    for lost in [5, 100] {
        let mut s = setup(lost as f64 / 5e6, Reorder::Backward, 1e-4, 1, &[Method::Finecomb]);
        s.traffic.packets = 5_000_000;
        s.traffic.lost = Some(lost);
        let acc = accumulate(&s, 4);
        let a = &acc[0].1;
        let (paper, ext) = (a.summary().loss_rel_err.unwrap(), a.loss_one_lost_rel_err().unwrap());
        eprintln!("{lost} lost: paper's estimator {paper:.3}, with the residual check {ext:.3}");
        assert!(paper > 0.12, "{lost} lost: {paper}");
        assert!(ext < 0.1, "{lost} lost: {ext}");
    }
}
