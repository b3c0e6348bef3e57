//! MAPLE core co-simulation: the Verilated `MapleCore` against `golden::maple::cycle`, cycle by cycle, on
//! randomized traffic.
//!
//! Traffic: a small key pool over segments of 64–128 words, so that different packets hit the same SVBF word
//! 1–3 cycles apart (counted per distance from golden's inserts); ≥10 % of packets repeat the previous key
//! (same words back to back), ~10 % a key 2–3 packets back. Latencies near a center, exactly between two
//! centers (ties), on a center, below the first and above the last, and anywhere in 32 bits. Center sets
//! (sorted, sometimes with duplicates, k from 1 to the build's maximum) are loaded through the CSR port under
//! traffic and swapped in by epoch markers, mostly after the last flush ended, now and then during one; the
//! flush streams under traffic with a record reader that stalls for long phases; the sample reader stalls
//! too (sample FIFO overflow, drops counted); sampling rate and seed drawn at every reset and rewritten;
//! resets in the middle; garbage on the descriptor lines while `in_valid` is low; random CSR reads.
//! The latencies follow the centers of the epoch they are counted in; in some epochs they alternate between
//! the lowest and the highest center, so the pool's keys multi-match with counts that tie.
//! Lookups: keys from the pool and random ones offered all along (during inserts, flushes and resets),
//! answers taken by a reader that stalls; the flush on command (CSR `options` bit 1, `flush` writes, some
//! during a flush) or at the marker, and the tie-break, drawn at every reset and rewritten.
//! Aimed thresholds: now and then the input pauses, the sampling threshold is written equal to the value the
//! next packet draws or one either side (coverage `sample_below/at/above`), a third of the time after a
//! reseed with F1 empty (`idle_reseeds`).

use crate::axi_core::{check_tlast, pack, unpack, CsrAnswer};
use crate::core_run::{count_boundary, CoreRun, Held, MidReset, Stall};
use crate::harness::{RunConfig, RunReport};
use crate::models::{
    MapleK64, MapleK8, MapleK8Axi, MapleK8MutAnd, MapleK8MutBurst, MapleK8MutFwd, MapleK8MutOffset, MapleK8MutSegment,
    MapleK8MutTies,
};
use crate::ports::{port, PortBits};
use crate::runtime_model::DynTop;
use golden::common::prng::xorshift32;
use golden::maple::cycle::{
    center_load_writes, MapleCycleModel, MapleHwConfig, MapleInputs, MapleOutputs, CSR_EPOCH, CSR_FLUSH, CSR_OPTIONS,
    CSR_PRNG_SEED, CSR_SAMPLE_THRESHOLD, OPT_MANUAL_FLUSH, OPT_TIE_NONE,
};
use golden::maple::MatchKind;
use rand::Rng;

crate::coverage_names! {
    resets, same_key_back, key_2_3_back, same_word_dist1, same_word_dist2, same_word_dist3, segment_wraps,
    center_reloads, epochs, epochs_during_flush, flush_records, flush_reader_stalls, samples, sample_drops,
    tie_latencies, idle_cycles, lookups, lookup_match, lookup_multi, lookup_none, lookup_count_ties,
    lookup_no_center, lookups_during_flush, lookups_during_traffic, answer_stalls, flush_commands,
    sample_below, sample_at, sample_above, aimed_thresholds, idle_reseeds,
}

/// Marks this core's run-time model, `DynTop<Runtime>` (`netmeas verify`: `crate::runtime_model`).
pub enum Runtime {}

crate::top_outputs! {
    /// Outputs of a MAPLE top during one cycle.
    pub struct MapleTopOutputs {
        in_ready: bool,
        swept: bool,
        res_valid: bool,
        res_center: u64 [when res_valid],
        smp_valid: bool,
        smp_data: u32 [when smp_valid],
        rec_valid: bool,
        rec_data: u128 [when rec_valid],
        csr_rd_valid: bool,
        csr_rd_data: u32,
        lk_ready: bool,
        ans_valid: bool,
        ans_kind: u64 [when ans_valid],
        ans_cand: u64 [when ans_valid],
        ans_center_valid: bool [when ans_valid],
        ans_center: u64 [when ans_valid],
        ans_latency: u32 [when ans_valid],
        ans_refined: u32 [when ans_valid],
    }
    compared with MapleOutputs;
    read from MapleK8, MapleK64, MapleK8MutOffset, MapleK8MutSegment, MapleK8MutFwd, MapleK8MutTies, MapleK8MutBurst,
        MapleK8MutAnd, DynTop<Runtime>
}

/// A descriptor (the garbage type too).
#[derive(Debug, Clone, Copy, Default)]
pub struct Desc {
    pub key: u128,
    pub latency: u32,
}

crate::core_top! {
    MapleK8, MapleK64, MapleK8MutOffset, MapleK8MutSegment, MapleK8MutFwd, MapleK8MutTies, MapleK8MutBurst,
    MapleK8MutAnd, DynTop<Runtime>
        => MapleInputs, Desc, MapleOutputs, MapleTopOutputs;
    |m, i, garbage| {
        let d = if i.in_valid { Desc { key: i.key, latency: i.latency } } else { *garbage };
        let lk_key = if i.lk_valid { i.lk_key } else { garbage.key.rotate_left(61) ^ garbage.latency as u128 };
        let mask = golden::common::mask128(m.key_bits());
        m.set_reset(i.reset as u64);
        m.set_in_valid(i.in_valid as u64);
        m.set_in_key((d.key & mask) as _);
        m.set_in_latency(d.latency as u64);
        m.set_smp_ready(i.smp_ready as u64);
        m.set_rec_ready(i.rec_ready as u64);
        m.set_lk_valid(i.lk_valid as u64);
        m.set_lk_key((lk_key & mask) as _);
        m.set_ans_ready(i.ans_ready as u64);
        crate::drive_csr_pins!(m, i);
    }
}

// `maple_k8_axi`, the generated AXI flavour of `maple_k8` (see `crate::axi_core`): inserts and lookups packed
// into `s_axis_in_tdata` and `s_axis_lk_tdata`; results, samples, records and answers read from the master
// streams (`m_axis_res_*` has no tready: one result per packet).
crate::axi_core_top! {
    MapleK8Axi, DynTop<Runtime> => MapleInputs, Desc, MapleOutputs, MapleTopOutputs;
    drive |m, layouts, i, garbage| {
        let d = if i.in_valid { Desc { key: i.key, latency: i.latency } } else { *garbage };
        let lk_key = if i.lk_valid { i.lk_key } else { garbage.key.rotate_left(61) ^ garbage.latency as u128 };
        m.set_s_axis_in_tvalid(i.in_valid as u64);
        m.set_s_axis_in_tdata(pack(&layouts[0], &[("in_key", d.key), ("in_latency", d.latency as u128)]).to());
        m.set_m_axis_smp_tready(i.smp_ready as u64);
        m.set_m_axis_rec_tready(i.rec_ready as u64);
        m.set_s_axis_lk_tvalid(i.lk_valid as u64);
        m.set_s_axis_lk_tdata(PortBits::from(lk_key).to());
        m.set_m_axis_ans_tready(i.ans_ready as u64);
    }
    read |m, layouts, sb, c, e| {
        let ans_words: PortBits = port(m.m_axis_ans_tdata());
        let ans = |f: &str| unpack(&layouts[1], ans_words, f);
        let res_valid: bool = port(m.m_axis_res_tvalid());
        check_tlast(sb, c, "m_axis_res_tlast", res_valid, m.m_axis_res_tlast());
        let (csr_rd_valid, csr_rd_data) = e.csr_answer();
        let (smp_valid, rec_valid, ans_valid): (bool, bool, bool) =
            (port(m.m_axis_smp_tvalid()), port(m.m_axis_rec_tvalid()), port(m.m_axis_ans_tvalid()));
        for (name, valid, last) in [
            ("m_axis_smp_tlast", smp_valid, m.m_axis_smp_tlast()),
            ("m_axis_rec_tlast", rec_valid, m.m_axis_rec_tlast()),
            ("m_axis_ans_tlast", ans_valid, m.m_axis_ans_tlast()),
        ] {
            check_tlast(sb, c, name, valid, last);
        }
        MapleTopOutputs {
            in_ready: port(m.s_axis_in_tready()),
            swept: port(m.swept()),
            res_valid,
            res_center: port(m.m_axis_res_tdata()),
            smp_valid,
            smp_data: port(m.m_axis_smp_tdata()),
            rec_valid,
            rec_data: port(m.m_axis_rec_tdata()),
            csr_rd_valid,
            csr_rd_data,
            lk_ready: port(m.s_axis_lk_tready()),
            ans_valid,
            ans_kind: ans("ans_kind") as u64,
            ans_cand: ans("ans_cand") as u64,
            ans_center_valid: ans("ans_center_valid") != 0,
            ans_center: ans("ans_center") as u64,
            ans_latency: ans("ans_latency") as u32,
            ans_refined: ans("ans_refined") as u32,
        }
    }
}

/// The key width of a top (its `in_key` port).
trait KeyBits {
    fn key_bits(&self) -> usize;
}
crate::impl_for! { impl KeyBits => MapleK8, MapleK8MutOffset, MapleK8MutSegment, MapleK8MutFwd, MapleK8MutTies,
    MapleK8MutBurst, MapleK8MutAnd; {
    fn key_bits(&self) -> usize { 64 }
} }
crate::impl_for! { impl KeyBits => MapleK64; { fn key_bits(&self) -> usize { 128 } } }
impl KeyBits for DynTop<Runtime> {
    fn key_bits(&self) -> usize {
        self.port_width("in_key")
    }
}

crate::top_trait!(
    /// A Verilated MAPLE top.
    pub MapleTop => MapleInputs, Desc, MapleOutputs, MapleTopOutputs
);

pub fn top_config(name: &str) -> MapleHwConfig {
    crate::harness::top_config(name)
}

/// A random center set: sorted, sometimes with duplicates, sometimes not sorted at all (the hardware does
/// not check; golden's cycle model computes what the RTL computes).
fn centers(cfg: &MapleHwConfig, r: &mut impl Rng) -> Vec<u32> {
    let k = if r.gen_bool(0.2) { cfg.max_centers } else { r.gen_range(1..=cfg.max_centers) };
    let scale = [1_000u32, 100_000, u32::MAX / 2][r.gen_range(0..3)];
    let mut v: Vec<u32> = (0..k).map(|_| r.gen_range(0..scale)).collect();
    if k > 2 && r.gen_bool(0.3) {
        v[k / 2] = v[k / 2 - 1];
    }
    if !r.gen_bool(0.05) {
        v.sort_unstable();
    }
    v
}

struct Traffic {
    pool: Vec<u128>,
    history: [u128; 3],
    centers: Vec<u32>,
    /// Latencies alternate between the lowest and the highest center (the pool's keys are then stored
    /// under both with counts that differ by at most one: their lookups tie on the count).
    alternate: bool,
    flip: bool,
}

impl Traffic {
    fn next(&mut self, run: &mut crate::blocks::Run) -> Desc {
        let r = &mut run.rng;
        let key = match r.gen_range(0..100) {
            0..=14 => self.history[0],
            15..=24 => self.history[r.gen_range(1..3)],
            25..=94 => self.pool[r.gen_range(0..self.pool.len())],
            _ => r.gen(),
        };
        if key == self.history[0] {
            run.count(cov::same_key_back, 1);
        } else if self.history[1..].contains(&key) {
            run.count(cov::key_2_3_back, 1);
        }
        self.history = [key, self.history[0], self.history[1]];
        let c = &self.centers;
        if self.alternate {
            self.flip = !self.flip;
            return Desc { key, latency: if self.flip { c[0] } else { c[c.len() - 1] } };
        }
        let r = &mut run.rng;
        let pick = |r: &mut crate::blocks::Run| c[r.rng.gen_range(0..c.len())];
        let latency = match r.gen_range(0..10) {
            0..=3 => pick(run).saturating_add(run.rng.gen_range(0..64)).saturating_sub(32),
            4 => pick(run),
            5..=6 => {
                let (a, b) = (pick(run) as u64, pick(run) as u64);
                let mid = ((a + b) / 2) as u32;
                run.count(cov::tie_latencies, ((a + b) % 2 == 0 && a != b) as u64);
                mid
            }
            7 => run.rng.gen_range(0..4),
            8 => u32::MAX - run.rng.gen_range(0..4),
            _ => run.rng.gen(),
        };
        Desc { key, latency }
    }
}

/// Runs `cfg.transactions` accepted packets through a MAPLE top and compares every cycle.
pub fn run_top<M: MapleTop>(name: &str, cfg: &RunConfig, make: impl FnOnce(u64) -> M) -> RunReport {
    let mcfg = top_config(name);
    let gold = MapleCycleModel::new(&mcfg).expect("valid configuration");
    let mut cr = CoreRun::new(name, cfg, make(cfg.x_seed), gold, &mcfg.csr_layout());
    let key_mask = golden::common::mask128(mcfg.store.key_bits);
    let pool: Vec<u128> = (0..24).map(|_| cr.run.rng.gen::<u128>() & key_mask).collect();
    let mut traffic = Traffic { pool, history: [0; 3], centers: vec![0], alternate: false, flip: false };
    let mut held: Held<Desc> = Held::new();
    let mut smp_stall = Stall::new(3000, 50..2000);
    let mut rec_stall = Stall::new(500, 20..600);
    let mut mid_reset = MidReset::default();
    let mut recent: Vec<(u64, usize, Vec<usize>)> = Vec::new();
    let (mut drops, mut loaded) = (0u32, false);
    // The loaded centers (and whether to alternate on them) take over the traffic at the epoch marker.
    let mut next = (false, vec![0u32]);
    // The lookup port: keys held until taken, answers taken by a reader that stalls; CSR options (flush on
    // command, the tie-break) drawn at every reset and rewritten now and then.
    let mut lk: Held<u128> = Held::new();
    let mut ans_stall = Stall::new(400, 5..200);
    let mut options = 0u32;
    // The frozen bank was flushed since the last marker (a new one is clean).
    let mut flushed = true;
    // An aimed threshold: now and then no new packet is offered for a few cycles, then the threshold is written
    // equal to the PRNG value the next packet leaving F1 draws (or one either side) while the input stays
    // quiet until the write has taken effect; the sampling compare's `≤` then meets its bound exactly. A
    // third of the aims first reseed the PRNG while F1 is empty (a seed load with no packet between
    // acceptance and the hand-over: where a PRNG stepping at acceptance would draw one value ahead).
    let mut aim: Option<(u32, bool)> = None;

    let dist = [cov::same_word_dist1, cov::same_word_dist2, cov::same_word_dist3];
    while cr.run.transactions < cfg.transactions {
        let halfway = mid_reset.now(cr.run.transactions, cfg.transactions);
        let reset = cr.sim.cycle == 0 || halfway || cr.run.rng.gen_ratio(1, 300_000);
        let r = &mut cr.run.rng;
        if reset {
            options = draw_options(r);
            let s = vec![
                (CSR_SAMPLE_THRESHOLD, r.gen::<u32>() >> r.gen_range(0..8)),
                (CSR_PRNG_SEED, r.gen()),
                (CSR_OPTIONS, options),
            ];
            cr.csr.load(s);
            lk.drop_held();
            cr.run.count(cov::resets, 1);
            held.drop_held();
            (drops, loaded, flushed, aim) = (0, false, true, None);
            traffic.centers = vec![0];
            traffic.alternate = false;
            next = (false, vec![0]);
        } else if cr.csr.is_idle() && !loaded && r.gen_ratio(1, 200) {
            // The next epoch's centers, under traffic.
            let c = centers(&mcfg, r);
            center_load_writes(&c).into_iter().for_each(|(a, v)| cr.csr.push(a, v));
            next = (c[0] != c[c.len() - 1] && r.gen_bool(0.3), c);
            loaded = true;
            cr.run.count(cov::center_reloads, 1);
        } else if cr.csr.is_idle() && (loaded || r.gen_bool(0.1)) && r.gen_ratio(1, 1_500) {
            let busy = cr.gold.flush_busy();
            if options & OPT_MANUAL_FLUSH != 0 && (!flushed || busy) && r.gen_bool(0.9) {
                // Flush on command when the epoch is about to end, so lookups see the whole frozen epoch
                // until then (during a flush now and then: ignored).
                if !busy || r.gen_ratio(1, 10) {
                    cr.csr.push(CSR_FLUSH, r.gen());
                    cr.run.count(cov::flush_commands, 1);
                    flushed = true;
                }
            } else if !busy || r.gen_ratio(1, 10) {
                cr.csr.push(CSR_EPOCH, 1);
                (traffic.alternate, traffic.centers) = next.clone();
                cr.run.count(if busy { cov::epochs_during_flush } else { cov::epochs }, 1);
                (loaded, flushed) = (false, false);
            }
        } else if let Some((left, reseeded)) = aim {
            // Quiet: when F1 and the hand-over have drained (the PRNG holds still), a reseed (then quiet
            // again) or the aimed write; then quiet until it has taken effect.
            aim = match left {
                0 if cr.csr.is_idle() => None,
                0 => Some((0, reseeded)),
                // Counting down only while no packet is held: F1 empties behind the last one.
                n if !held.is_free() => Some((n, reseeded)),
                1 if !reseeded && r.gen_ratio(1, 3) => {
                    cr.csr.push(CSR_PRNG_SEED, r.gen());
                    cr.run.count(cov::idle_reseeds, 1);
                    Some((4, true))
                }
                1 => {
                    let delta = [u32::MAX, 0, 1][r.gen_range(0..3)];
                    cr.csr.push(CSR_SAMPLE_THRESHOLD, cr.gold.draw().0.wrapping_add(delta));
                    cr.run.count(cov::aimed_thresholds, 1);
                    Some((0, reseeded))
                }
                n => Some((n - 1, reseeded)),
            };
        } else if cr.csr.is_idle() && r.gen_ratio(1, 2_000) {
            aim = Some((4, false));
        } else if r.gen_ratio(1, 50_000) {
            cr.csr.push(CSR_SAMPLE_THRESHOLD, r.gen::<u32>() >> r.gen_range(0..8));
        } else if r.gen_ratio(1, 40_000) {
            options = draw_options(r);
            cr.csr.push(CSR_OPTIONS, options);
        } else if r.gen_ratio(1, 60_000) {
            cr.csr.push(CSR_FLUSH, 0);
        }
        let r = &mut cr.run.rng;
        smp_stall.step(r);
        if rec_stall.step(r) {
            cr.run.count(cov::flush_reader_stalls, 1);
        }
        if ans_stall.step(&mut cr.run.rng) {
            cr.run.count(cov::answer_stalls, 1);
        }
        let r = &mut cr.run.rng;
        if lk.is_free() && r.gen_ratio(1, 25) {
            lk.hold(if r.gen_bool(0.7) {
                traffic.pool[r.gen_range(0..traffic.pool.len())]
            } else {
                r.gen::<u128>() & key_mask
            });
        }
        let mut i = MapleInputs {
            reset,
            smp_ready: smp_stall.ready(r, 0.9),
            rec_ready: rec_stall.ready(r, 0.8),
            ans_ready: ans_stall.ready(r, 0.7),
            lk_valid: lk.get().is_some(),
            lk_key: lk.get().unwrap_or(0),
            ..Default::default()
        };
        if !reset && !cr.csr.write_next(&mut i) && r.gen_ratio(1, 20) {
            cr.csr.random_read(&mut i, r);
        }
        let garbage = Desc { key: r.gen(), latency: r.gen() };
        if held.is_free() && aim.is_none() && cr.run.rng.gen_bool(0.92) {
            held.hold(traffic.next(&mut cr.run));
        }
        let d = held.get();
        (i.in_valid, i.key, i.latency) = (d.is_some(), d.map_or(0, |d| d.key), d.map_or(0, |d| d.latency));
        if !i.in_valid {
            cr.count(cov::idle_cycles, 1);
        }
        let (drawn, threshold) = cr.gold.draw();
        let cy = cr.step(&i, &garbage);
        if !reset && cr.gold.draw().0 == xorshift32(drawn) {
            // A packet left F1 and drew `drawn`.
            let sides = [cov::sample_below, cov::sample_at, cov::sample_above];
            count_boundary(&mut cr.run, drawn as u64, threshold as u64, sides);
        }
        if let Some(ins) = cr.gold.last_insert.clone() {
            cr.count(cov::segment_wraps, ins.wrapped.iter().any(|&w| w) as u64);
            recent.retain(|e| cy.c - e.0 <= 3);
            for (c, bank, addr) in &recent {
                if *bank == ins.bank && addr.iter().zip(&ins.addr).any(|(a, b)| a == b) {
                    cr.run.count(dist[(cy.c - c - 1) as usize], 1);
                }
            }
            recent.push((cy.c, ins.bank, ins.addr));
        }
        if cy.e.rec_valid == Some(true) && i.rec_ready {
            cr.count(cov::flush_records, 1);
        }
        if cy.e.smp_valid == Some(true) && i.smp_ready {
            cr.count(cov::samples, 1);
        }
        let now = cr.gold.samples.drops();
        cr.count(cov::sample_drops, now.wrapping_sub(drops) as u64);
        drops = now;
        if held.accepted(reset, cy.e.in_ready).is_some() {
            cr.run.transactions += 1;
        }
        lk.accepted(reset, cy.e.lk_ready);
        if let Some(a) = cy.e.answer().filter(|_| i.ans_ready) {
            count_answer(&mut cr, &a, i.in_valid);
        }
    }
    assert_eq!(cr.gold.records.drops(), 0, "{name}: the flush never drops a record");
    cr.finish()
}

/// CSR `options` of a run phase: flush on command (60 %), no tie-break (30 %).
fn draw_options(r: &mut impl Rng) -> u32 {
    (if r.gen_bool(0.6) { OPT_MANUAL_FLUSH } else { 0 }) | (if r.gen_bool(0.3) { OPT_TIE_NONE } else { 0 })
}

/// Coverage of a lookup answer taken: its kind, whether a multi-match tied on the count (from golden's
/// counter row of the engine's bank), whether traffic or a flush ran beside it.
fn count_answer<M: MapleTop>(
    cr: &mut CoreRun<M, MapleCycleModel>,
    a: &golden::maple::lookup::PortAnswer,
    traffic: bool,
) {
    cr.count(cov::lookups, 1);
    let kind = match a.kind {
        k if k == MatchKind::Match as u8 => cov::lookup_match,
        k if k == MatchKind::MultiMatch as u8 => cov::lookup_multi,
        _ => cov::lookup_none,
    };
    cr.count(kind, 1);
    cr.count(cov::lookup_no_center, (a.kind != MatchKind::NoMatch as u8 && !a.center_valid) as u64);
    cr.count(cov::lookups_during_flush, cr.gold.flush_busy() as u64);
    cr.count(cov::lookups_during_traffic, traffic as u64);
    if a.kind == MatchKind::MultiMatch as u8 && a.center_valid {
        let h = cr.gold.cfg.store.hashes;
        let counters = cr.gold.banks[cr.gold.lookup.bank()].mem(h);
        let counts: Vec<u128> =
            (0..64).filter(|&c| a.candidates >> c & 1 == 1).map(|c| counters[c] & 0xffff_ffff).collect();
        let top = counts.iter().max().copied().unwrap_or(0);
        cr.count(cov::lookup_count_ties, (counts.iter().filter(|&&c| c == top).count() > 1) as u64);
    }
}

pub fn run_maple_k8(cfg: &RunConfig) -> RunReport {
    run_top("maple_k8", cfg, MapleK8::new)
}
/// `maple_k8`'s traffic through its AXI flavour `maple_k8_axi` (registers over AXI4-Lite).
pub fn run_maple_k8_axi(cfg: &RunConfig) -> RunReport {
    run_axi("maple_k8", cfg, MapleK8Axi::new)
}
crate::axi_runner!(MapleTop, &["in", "ans"]);
pub fn run_maple_k64(cfg: &RunConfig) -> RunReport {
    run_top("maple_k64", cfg, MapleK64::new)
}

/// The test-only mutants of `maple_k8` (`hdl::maple::builds::MUTANTS`): the co-simulation must fail on each.
pub const MUTANT_RUNNERS: &[crate::blocks::Runner] = &[
    ("maple_k8_mut_offset", |c| run_top("maple_k8_mut_offset", c, MapleK8MutOffset::new)),
    ("maple_k8_mut_segment", |c| run_top("maple_k8_mut_segment", c, MapleK8MutSegment::new)),
    ("maple_k8_mut_fwd", |c| run_top("maple_k8_mut_fwd", c, MapleK8MutFwd::new)),
    ("maple_k8_mut_ties", |c| run_top("maple_k8_mut_ties", c, MapleK8MutTies::new)),
    ("maple_k8_mut_burst", |c| run_top("maple_k8_mut_burst", c, MapleK8MutBurst::new)),
    ("maple_k8_mut_and", |c| run_top("maple_k8_mut_and", c, MapleK8MutAnd::new)),
];

/// The MAPLE runners (demo order).
pub const ALL: &[crate::blocks::Runner] = &[("maple_k8", run_maple_k8), ("maple_k64", run_maple_k64)];
