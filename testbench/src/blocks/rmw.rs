//! Read-modify-write pipeline as a counter table (`old + delta` written for an odd delta; an even one only
//! reads).
//!
//! Traffic: ~90% valid cycles; the index repeats the previous packet's in ≥10% of packets, the one two and
//! three packets back in ~8% each, four and five back in ~6% each, six and seven back in ~5% (the forwarding
//! distances of the short and the registered pipeline, one more per look-ahead level), the rest
//! uniform over 64 entries; 20% read-only packets (even deltas, half
//! of them nonzero); garbage on the index and delta lines in cycles without a packet; resets mid-stream,
//! sometimes a second one during the reset sweep. At the end every entry is read back (final memory
//! contents). The `run_broken_*` runners drive pipelines with one forwarding distance disabled, to prove
//! the comparison catches each. Every runner is run for both RAM timings (`*_registered`:
//! `RamTiming::Registered`, modify stage 4, distances 1–5); the dual-port ones also with one and two
//! look-ahead levels (`*_lookahead`, `*_lookahead2`: modify stage 3 or 5, 4 or 6; the single-port one with
//! two, `run_single_lookahead2`: modify stage 4, packets an even distance apart), where the top adds at SL
//! and corrects at SM as a deep core would, and SL's view (`pre_valid`, payload, `pre_old`, and its parts
//! `pre_early`, `pre_near2`) is compared with `RmwModel::peek_pre` and `peek_pre_parts` too.

use super::Run;
use crate::harness::{RunConfig, RunReport, Sim};
use crate::models::{
    RmwDp, RmwDpLa, RmwDpLa2, RmwDpNofwd1, RmwDpNofwd2, RmwDpNofwd3, RmwDpReg, RmwDpRegLa, RmwDpRegLa2, RmwDpRegNofwd1, RmwDpRegNofwd2,
    RmwDpRegNofwd3, RmwDpRegNofwd4, RmwDpRegNofwd5, RmwSp, RmwSpLa2, RmwSpReg,
};
use crate::ports::ReadOutputs;
use golden::common::rmw::{RmwInputs, RmwModel, RmwStage};
use golden::common::sram::{RamPorts, RamTiming};
use golden::common::tops::{RAM_TOP_REGISTERED, RMW_TOP_ADDR_BITS, RMW_TOP_WIDTH};
use rand::Rng;

/// The counter-table decision: write `old + delta` when delta is odd; an even delta only reads (the top
/// still presents `old + delta` as the new word, so a pipeline that forwarded a write it was not given
/// would be seen).
pub fn add_modify(st: &RmwStage) -> Option<u128> {
    (st.payload & 1 == 1).then(|| (st.old + st.payload) & golden::common::mask128(RMW_TOP_WIDTH))
}

macro_rules! rmw_runner {
    ($fn_name:ident, $model:ident, $ports:expr, $timing:expr) => {
        rmw_runner!($fn_name, $model, $ports, $timing, 0);
    };
    ($fn_name:ident, $model:ident, $ports:expr, $timing:expr, $lookahead:expr) => {
        pub fn $fn_name(cfg: &RunConfig) -> RunReport {
            run_top::<$model>(cfg, $ports, $timing, $lookahead, $model::new)
        }
    };
}

const SHORT: RamTiming = RamTiming::Short;
const REG: RamTiming = RAM_TOP_REGISTERED;
rmw_runner!(run_dual, RmwDp, RamPorts::Dual, SHORT);
rmw_runner!(run_single, RmwSp, RamPorts::Single, SHORT);
rmw_runner!(run_broken_distance1, RmwDpNofwd1, RamPorts::Dual, SHORT);
rmw_runner!(run_broken_distance2, RmwDpNofwd2, RamPorts::Dual, SHORT);
rmw_runner!(run_broken_distance3, RmwDpNofwd3, RamPorts::Dual, SHORT);
rmw_runner!(run_dual_registered, RmwDpReg, RamPorts::Dual, REG);
rmw_runner!(run_single_registered, RmwSpReg, RamPorts::Single, REG);
rmw_runner!(run_broken_registered_distance1, RmwDpRegNofwd1, RamPorts::Dual, REG);
rmw_runner!(run_broken_registered_distance2, RmwDpRegNofwd2, RamPorts::Dual, REG);
rmw_runner!(run_broken_registered_distance3, RmwDpRegNofwd3, RamPorts::Dual, REG);
rmw_runner!(run_broken_registered_distance4, RmwDpRegNofwd4, RamPorts::Dual, REG);
rmw_runner!(run_broken_registered_distance5, RmwDpRegNofwd5, RamPorts::Dual, REG);
rmw_runner!(run_dual_lookahead, RmwDpLa, RamPorts::Dual, SHORT, 1);
rmw_runner!(run_dual_registered_lookahead, RmwDpRegLa, RamPorts::Dual, REG, 1);
rmw_runner!(run_dual_lookahead2, RmwDpLa2, RamPorts::Dual, SHORT, 2);
rmw_runner!(run_dual_registered_lookahead2, RmwDpRegLa2, RamPorts::Dual, REG, 2);
rmw_runner!(run_single_lookahead2, RmwSpLa2, RamPorts::Single, SHORT, 2);

crate::top_outputs! {
    /// Outputs of an RMW test top during one cycle (`out_*`: the registered modify stage of the cycle before).
    pub struct RmwOutputs {
        in_ready: bool,
        out_valid: bool,
        out_index: u64,
        out_old: u128,
        out_new: u128,
        out_pre_valid: bool,
        out_pre_delta: u128,
        out_pre_old: u128,
        out_pre_early: u128,
        out_pre_near2: bool,
    }
    read from RmwDp, RmwSp, RmwDpNofwd1, RmwDpNofwd2, RmwDpNofwd3, RmwDpReg, RmwSpReg, RmwDpRegNofwd1,
        RmwDpRegNofwd2, RmwDpRegNofwd3, RmwDpRegNofwd4, RmwDpRegNofwd5, RmwDpLa, RmwDpRegLa, RmwDpLa2, RmwDpRegLa2, RmwSpLa2
}

/// Ports common to the RMW test tops (generated per top; this trait lets one runner drive them all).
pub trait RmwTop: crate::harness::Model + ReadOutputs<Outputs = RmwOutputs> {
    fn drive(&mut self, i: &RmwInputs);
}

crate::impl_for! {
    impl RmwTop => RmwDp, RmwSp, RmwDpNofwd1, RmwDpNofwd2, RmwDpNofwd3, RmwDpReg, RmwSpReg, RmwDpRegNofwd1,
        RmwDpRegNofwd2, RmwDpRegNofwd3, RmwDpRegNofwd4, RmwDpRegNofwd5, RmwDpLa, RmwDpRegLa, RmwDpLa2,
        RmwDpRegLa2, RmwSpLa2; {
        fn drive(&mut self, i: &RmwInputs) {
            self.set_reset(i.reset as u64);
            self.set_in_valid(i.in_valid as u64);
            self.set_in_index(i.in_index as u64);
            self.set_in_delta(i.in_payload as u64);
        }
    }
}

/// Runs an RMW top against [`RmwModel`] with [`add_modify`]. Coverage counters: `accepted` (every accepted
/// packet, read-back included), `same_index_{1..6}_back` (accepted packets whose index equals that of the
/// packet accepted 1..6 packets before), `resets`, `reset_during_sweep`, `final_entries_read_back`, and
/// with the look-ahead stage `pre_stage_checked` (packets whose SL view was compared) and `pre_near2` (of
/// those, packets whose SL word was the write of the packet two ahead: two levels only).
pub fn run_top<M: RmwTop>(
    cfg: &RunConfig,
    ports: RamPorts,
    timing: RamTiming,
    lookahead: usize,
    make: impl FnOnce(u64) -> M,
) -> RunReport {
    let m = make(cfg.x_seed);
    let mut run = Run::new(m.name(), cfg);
    let mut sim = Sim::new(m, cfg.vcd.clone());
    let mut gold = RmwModel::with_lookahead(ports, timing, lookahead, RMW_TOP_ADDR_BITS, RMW_TOP_WIDTH)
        .expect("the runner's shapes are valid");
    let depth = 1usize << RMW_TOP_ADDR_BITS;
    // Indices of the last seven accepted packets.
    let mut history = [0usize; 7];
    // The test top registers the modify stage: its outputs in cycle c are the golden stage of c-1; the same
    // for the look-ahead stage (`prev_pre`).
    let mut prev: Option<Option<(RmwStage, u128)>> = None;
    let mut prev_pre: Option<Option<(RmwStage, (u128, bool))>> = None;
    let mut pending: Option<RmwInputs> = None; // a packet waiting for ready, held like a real source
    let mut mid_reset = crate::core_run::MidReset::default();
    let mut since_reset = u64::MAX;
    // The final read-back: one read-only packet per entry after the random traffic.
    let mut readback = (0..depth).rev().collect::<Vec<_>>();
    let mut readback_seen = 0u64;
    let mut sweep_reset_due = false;
    while run.transactions < cfg.transactions || !readback.is_empty() || pending.is_some() {
        // Reset in the first cycle, once halfway through the packets, at random, and sometimes again
        // while the sweep of the previous reset is running.
        let halfway = mid_reset.now(run.transactions, cfg.transactions);
        let in_sweep = since_reset < depth as u64 && run.transactions < cfg.transactions;
        let random_phase = run.transactions < cfg.transactions;
        let forced_sweep_reset = sweep_reset_due && since_reset == 17;
        sweep_reset_due = (sweep_reset_due || halfway) && !forced_sweep_reset;
        let reset = sim.cycle == 0
            || halfway
            || forced_sweep_reset
            || (random_phase && run.rng.gen_ratio(1, 50_000))
            || (in_sweep && since_reset > 0 && run.rng.gen_ratio(1, 4 * depth as u32));
        if in_sweep && reset && sim.cycle > 0 {
            run.count("reset_during_sweep", 1);
        }
        since_reset = if reset { 0 } else { since_reset.saturating_add(1) };
        let r = &mut run.rng;
        if pending.is_none() && run.transactions >= cfg.transactions {
            if let Some(in_index) = readback.pop() {
                pending = Some(RmwInputs { reset: false, in_valid: true, in_index, in_payload: 0 });
            }
        } else if pending.is_none() && r.gen_bool(0.9) {
            let in_index = match r.gen_range(0..100) {
                0..=11 => history[0],
                12..=19 => history[1],
                20..=27 => history[2],
                28..=33 => history[3],
                34..=39 => history[4],
                40..=44 => history[5],
                45..=49 => history[6],
                _ => r.gen_range(0..depth),
            };
            // 10 % zero and 10 % other even deltas (read-only), 80 % odd (writes).
            let in_payload = match r.gen_range(0..10) {
                0 => 0,
                1 => (r.gen::<u32>() & !1) as u128,
                _ => (r.gen::<u32>() | 1) as u128,
            };
            pending = Some(RmwInputs { reset: false, in_valid: true, in_index, in_payload });
        }
        // Without a packet the data lines carry garbage (a unit that ignores `in_valid` shows it).
        let idle = || RmwInputs { reset: false, in_valid: false, in_index: r.gen_range(0..depth), in_payload: r.gen::<u32>() as u128 };
        let inp = RmwInputs { reset, ..pending.unwrap_or_else(idle) };
        sim.m.drive(&inp);
        sim.settle();
        let pre = if inp.reset { None } else { gold.peek_pre().zip(gold.peek_pre_parts()) };
        let out = gold.step(&inp, add_modify);
        let rtl = sim.m.outputs();
        let c = sim.cycle;
        run.sb.check(c, "in_ready", out.ready.map(u128::from), rtl.in_ready as u128);
        if let (true, Some(p)) = (lookahead > 0, prev_pre) {
            run.sb.check(c, "out_pre_valid", Some(p.is_some() as u128), rtl.out_pre_valid as u128);
            if let Some((st, (early, near2))) = p {
                run.sb.check(c, "out_pre_delta", Some(st.payload), rtl.out_pre_delta);
                run.sb.check(c, "out_pre_old", Some(st.old), rtl.out_pre_old);
                run.sb.check(c, "out_pre_early", Some(early), rtl.out_pre_early);
                run.sb.check(c, "out_pre_near2", Some(near2 as u128), rtl.out_pre_near2 as u128);
                run.count("pre_stage_checked", 1);
                run.count("pre_near2", near2 as u64);
            }
        }
        prev_pre = Some(pre);
        if let Some(p) = prev {
            run.sb.check(c, "out_valid", Some(p.is_some() as u128), rtl.out_valid as u128);
            if let Some((st, new)) = p {
                run.sb.check(c, "out_index", Some(st.index as u128), rtl.out_index as u128);
                run.sb.check(c, "out_old", Some(st.old), rtl.out_old);
                run.sb.check(c, "out_new", Some(new), rtl.out_new);
            }
        }
        prev = Some(out.stage.map(|st| {
            let new = (st.old + st.payload) & golden::common::mask128(RMW_TOP_WIDTH);
            (st, new)
        }));
        if reset {
            run.count("resets", 1);
            pending = None;
        } else if inp.in_valid && out.ready == Some(true) {
            run.count("accepted", 1);
            let names = [
                "same_index_1_back",
                "same_index_2_back",
                "same_index_3_back",
                "same_index_4_back",
                "same_index_5_back",
                "same_index_6_back",
                "same_index_7_back",
            ];
            for (what, h) in names.into_iter().zip(history) {
                run.count(what, (h == inp.in_index) as u64);
            }
            history.rotate_right(1);
            history[0] = inp.in_index;
            run.transactions += 1;
            readback_seen += (run.transactions > cfg.transactions) as u64;
            pending = None;
        }
        sim.tick();
    }
    // Let the last read-back packets reach the outputs and be compared.
    for _ in 0..gold.modify_stage() + 2 {
        sim.m.drive(&RmwInputs::default());
        sim.settle();
        let out = gold.step(&RmwInputs::default(), add_modify);
        let rtl = sim.m.outputs();
        if let Some(Some((st, new))) = prev {
            run.sb.check(sim.cycle, "out_old", Some(st.old), rtl.out_old);
            run.sb.check(sim.cycle, "out_new", Some(new), rtl.out_new);
        }
        prev = Some(out.stage.map(|st| (st, (st.old + st.payload) & golden::common::mask128(RMW_TOP_WIDTH))));
        sim.tick();
    }
    run.transactions -= readback_seen;
    run.count("final_entries_read_back", readback_seen);
    run.finish(sim.cycle)
}
