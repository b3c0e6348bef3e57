//! Multi-row RMW as a sketch of counters: each packet has its own index in each of the rows and adds its
//! delta to the rows of its mask (an empty mask only reads).
//!
//! Traffic: ~90 % valid cycles. A packet repeats a packet 1, 2, 3, 4 or 5 back in every row (the same key
//! again) in ~10 %, ~6 %, ~6 %, ~4 %, ~4 % of packets; otherwise each row independently takes the index that
//! row had 1–5 packets back with probability 0.3 (a different key colliding in that row only), else a
//! uniform index. `run_registered` drives the build on registered RAMs (distances 1–5 are forwarded).
//! Cycles without a packet carry garbage on the index and payload lines. Resets at the start, halfway and
//! at random. At the end every bucket of every row is read back.
//! `run_broken` drives the build whose row 1 lacks distance-2 forwarding.

use super::Run;
use crate::harness::{RunConfig, RunReport, Sim};
use crate::models::{MultiRmw, MultiRmwNofwd, MultiRmwReg};
use crate::ports::ReadOutputs;
use golden::common::mask128;
use golden::common::multi_rmw::{MultiRmwInputs, MultiRmwModel, MultiRmwStage};
use golden::common::sram::{RamPorts, RamTiming};
use golden::common::tops::{
    MULTI_RMW_TOP_ADDR_BITS as A, MULTI_RMW_TOP_REGISTERED, MULTI_RMW_TOP_ROWS as D, MULTI_RMW_TOP_WIDTH as W,
};
use rand::Rng;

crate::coverage_names!(
    accepted,
    same_key_back,
    row_collision_1_back,
    row_collision_2_back,
    row_collision_3_back,
    row_collision_4_back,
    row_collision_5_back,
    resets,
    final_buckets_read_back
);

crate::top_outputs! {
    /// Outputs of a multi-row RMW test top (`out_*`: the registered modify stage of the cycle before).
    pub struct MultiRmwOutputs {
        in_ready: bool,
        out_valid: bool,
        out_index: u64,
        out_old: u64,
        out_new: u64,
    }
    read from MultiRmw, MultiRmwNofwd, MultiRmwReg
}

/// Ports of the multi-row RMW test tops.
pub trait MultiRmwTop: crate::harness::Model + ReadOutputs<Outputs = MultiRmwOutputs> {
    fn drive(&mut self, i: &MultiRmwInputs);
}

crate::impl_for! {
    impl MultiRmwTop => MultiRmw, MultiRmwNofwd, MultiRmwReg; {
        fn drive(&mut self, i: &MultiRmwInputs) {
            self.set_reset(i.reset as u64);
            self.set_in_valid(i.in_valid as u64);
            let index = i.in_index.iter().enumerate().fold(0u64, |a, (r, &x)| a | (x as u64) << (r * A));
            self.set_in_index(index);
            self.set_in_delta((i.in_payload & mask128(W)) as u64);
            self.set_in_rows((i.in_payload >> W) as u64);
        }
    }
}

/// The sketch's decision: `old + delta` into every row of the mask.
fn add_rows(st: &MultiRmwStage) -> Vec<Option<u128>> {
    let (delta, mask) = (st.payload & mask128(W), st.payload >> W);
    st.old.iter().enumerate().map(|(r, &o)| ((mask >> r) & 1 == 1).then(|| (o + delta) & mask128(W))).collect()
}

/// Packs per-row words the way the top's ports do (row r at bits r·width).
fn packed(words: impl IntoIterator<Item = u128>, width: usize) -> u128 {
    words.into_iter().enumerate().fold(0, |a, (r, w)| a | w << (r * width))
}

pub fn run(cfg: &RunConfig) -> RunReport {
    run_top(cfg, RamTiming::Short, MultiRmw::new)
}

pub fn run_broken(cfg: &RunConfig) -> RunReport {
    run_top(cfg, RamTiming::Short, MultiRmwNofwd::new)
}

pub fn run_registered(cfg: &RunConfig) -> RunReport {
    run_top(cfg, MULTI_RMW_TOP_REGISTERED, MultiRmwReg::new)
}

fn run_top<M: MultiRmwTop>(cfg: &RunConfig, timing: RamTiming, make: impl FnOnce(u64) -> M) -> RunReport {
    let m = make(cfg.x_seed);
    let mut run = Run::new(m.name(), cfg);
    let mut sim = Sim::new(m, cfg.vcd.clone());
    let mut gold = MultiRmwModel::<u128, u128>::with_timing(RamPorts::Dual, timing, D, A, W);
    let depth = 1usize << A;
    let mut history: [Vec<usize>; 5] = Default::default();
    let mut prev: Option<Option<(MultiRmwStage, Vec<u128>)>> = None;
    let mut pending: Option<MultiRmwInputs> = None;
    let mut mid_reset = crate::core_run::MidReset::default();
    let mut readback: Vec<usize> = (0..depth).rev().collect();
    let mut readback_seen = 0u64;
    while run.transactions < cfg.transactions || !readback.is_empty() || pending.is_some() {
        let random_phase = run.transactions < cfg.transactions;
        let reset = sim.cycle == 0
            || mid_reset.now(run.transactions, cfg.transactions)
            || (random_phase && run.rng.gen_ratio(1, 40_000));
        let r = &mut run.rng;
        if pending.is_none() && !random_phase {
            if let Some(b) = readback.pop() {
                pending = Some(MultiRmwInputs { in_valid: true, in_index: vec![b; D], ..Default::default() });
            }
        } else if pending.is_none() && r.gen_bool(0.9) {
            let back = |r: &mut rand::rngs::SmallRng| r.gen_range(0..5usize);
            let in_index: Vec<usize> = match r.gen_range(0..100) {
                0..=9 if !history[0].is_empty() => history[0].clone(),
                10..=15 if !history[1].is_empty() => history[1].clone(),
                16..=21 if !history[2].is_empty() => history[2].clone(),
                22..=25 if !history[3].is_empty() => history[3].clone(),
                26..=29 if !history[4].is_empty() => history[4].clone(),
                _ => (0..D)
                    .map(|row| {
                        let h = &history[back(r)];
                        if r.gen_bool(0.3) && !h.is_empty() {
                            h[row]
                        } else {
                            r.gen_range(0..depth)
                        }
                    })
                    .collect(),
            };
            let mask = if r.gen_ratio(1, 5) { 0 } else { r.gen_range(1..1u128 << D) };
            let delta = r.gen_range(1..1u128 << W);
            pending = Some(MultiRmwInputs { in_valid: true, in_index, in_payload: delta | mask << W, reset: false });
        }
        // Without a packet the data lines carry garbage (a unit that ignores `in_valid` shows it).
        let idle = || MultiRmwInputs {
            reset: false,
            in_valid: false,
            in_index: (0..D).map(|_| r.gen_range(0..depth)).collect(),
            in_payload: r.gen_range(0..1u128 << (W + D)),
        };
        let inp = MultiRmwInputs { reset, ..pending.clone().unwrap_or_else(idle) };
        sim.m.drive(&inp);
        sim.settle();
        let out = gold.step(&inp, add_rows);
        let rtl = sim.m.outputs();
        let c = sim.cycle;
        run.sb.check(c, "in_ready", out.ready.map(u128::from), rtl.in_ready as u128);
        if let Some(p) = &prev {
            run.sb.check(c, "out_valid", Some(p.is_some() as u128), rtl.out_valid as u128);
            if let Some((st, new)) = p {
                run.sb.check(
                    c,
                    "out_index",
                    Some(packed(st.index.iter().map(|&i| i as u128), A)),
                    rtl.out_index as u128,
                );
                run.sb.check(c, "out_old", Some(packed(st.old.iter().copied(), W)), rtl.out_old as u128);
                run.sb.check(c, "out_new", Some(packed(new.iter().copied(), W)), rtl.out_new as u128);
            }
        }
        prev = Some(out.stage.map(|st| {
            let delta = st.payload & mask128(W);
            let new = st.old.iter().map(|&o| (o + delta) & mask128(W)).collect();
            (st, new)
        }));
        if reset {
            run.count(cov::resets, 1);
            pending = None;
        } else if inp.in_valid && out.ready == Some(true) {
            run.count(cov::accepted, 1);
            run.count(cov::same_key_back, history.iter().any(|h| *h == inp.in_index) as u64);
            let names = [
                cov::row_collision_1_back,
                cov::row_collision_2_back,
                cov::row_collision_3_back,
                cov::row_collision_4_back,
                cov::row_collision_5_back,
            ];
            for (what, h) in names.into_iter().zip(&history) {
                let partial = !h.is_empty() && *h != inp.in_index && h.iter().zip(&inp.in_index).any(|(a, b)| a == b);
                run.count(what, partial as u64);
            }
            history.rotate_right(1);
            history[0] = inp.in_index.clone();
            run.transactions += 1;
            readback_seen += (run.transactions > cfg.transactions) as u64;
            pending = None;
        }
        sim.tick();
    }
    // Let the last read-back packets reach the outputs and be compared.
    for _ in 0..gold.rows[0].modify_stage() + 2 {
        let idle = MultiRmwInputs::default();
        sim.m.drive(&idle);
        sim.settle();
        let out = gold.step(&idle, add_rows);
        let rtl = sim.m.outputs();
        if let Some(Some((st, _))) = &prev {
            run.sb.check(sim.cycle, "out_old", Some(packed(st.old.iter().copied(), W)), rtl.out_old as u128);
        }
        prev = Some(out.stage.map(|st| (st, vec![])));
        sim.tick();
    }
    run.transactions -= readback_seen;
    run.count(cov::final_buckets_read_back, readback_seen);
    run.finish(sim.cycle)
}
