//! Hybrid reordering detector co-simulation: the Verilated `HybridCore` against
//! `golden::reordering::hybrid_cycle`, cycle by cycle, on the flow-sampling runner's randomized traffic
//! (`crate::reordering`'s pool of prefixes and flows: repeats, reordering, wraps, pure ACKs, bursts of one
//! flow).
//!
//! Settings are drawn at every reset and rewritten now and then: flow sampling's (conditions in turn, prefix
//! or flow indexing), the side table's (the same with port indexing), the heavy-hitter core's (d-way RAP or
//! PRECISION, either admission rule, a PRNG seed). Measurement periods end under traffic: every bank
//! toggled (one CSR write per port, so the three cores swap within a few cycles of each other), flushes and
//! the dump; a reader that stalls (the eviction FIFOs fill and drop); resets in the middle. All three CSR
//! ports are read at random and their answers checked.

use crate::core_run::{CoreRun, Held, MidReset, Stall};
use crate::csr_driver::CsrDriver;
use crate::harness::{RunConfig, RunReport};
use crate::models::{RoHy, RoHy4};
use crate::reordering::{settings, Traffic};
use golden::common::csr::CsrRequest;
use golden::heavy_hitters::admission::Admission;
use golden::heavy_hitters::cycle::{
    csr_writes as hh_csr_writes, CSR_ADMISSION, CSR_BANK as HH_BANK, CSR_DUMP, CSR_METHOD,
};
use golden::heavy_hitters::{HhRuntime, Method};
use golden::reordering::cycle::{csr_writes, CSR_BANK, CSR_FLUSH};
use golden::reordering::hybrid_cycle::{
    side_csr_writes, HybridConfig, HybridCycleModel, HybridInputs, HybridOutputs as GoldenOutputs,
};
use golden::reordering::{Descriptor, IndexBy, Reason, Report};
use rand::Rng;

crate::coverage_names! {
    resets, hh_rejects, hh_hits, hh_inserts, hh_admits, side_hits, side_inserts, side_replaced, side_out_of_order,
    smp_hits, smp_overwrites, smp_misses, evictions, flushed_reports, eviction_drops, period_ends, reader_stalls,
    setting_writes, precision, power_of_two,
}

crate::top_outputs! {
    /// Outputs of a hybrid top during one cycle.
    pub struct HyOutputs {
        in_ready: bool,
        hh_res_valid: bool,
        hh_res_outcome: u64 [when hh_res_valid],
        hh_res_row: u64 [when hh_res_valid],
        side_res_valid: bool,
        side_res_outcome: u64 [when side_res_valid],
        side_res_ooo: bool [when side_res_valid],
        smp_res_valid: bool,
        smp_res_outcome: u64 [when smp_res_valid],
        smp_res_ooo: bool [when smp_res_valid],
        rep_valid: bool,
        rep_data: u128 [when rep_valid],
        smp_csr_rd_valid: bool,
        smp_csr_rd_data: u32,
        side_csr_rd_valid: bool,
        side_csr_rd_data: u32,
        hh_csr_rd_valid: bool,
        hh_csr_rd_data: u32,
    }
    compared with GoldenOutputs;
    read from RoHy4, RoHy
}

/// The hybrid tops' port mapping (three CSR ports: their read-backs are checked by the runner).
macro_rules! hybrid_top {
    ($($model:ty),+) => {$(
        impl crate::core_run::CoreTop for $model {
            type Inputs = HybridInputs;
            type Garbage = Descriptor;
            type Expected = GoldenOutputs;
            type Outputs = HyOutputs;
            fn drive(&mut self, i: &HybridInputs, garbage: &Descriptor) {
                let d = if i.in_valid { &i.desc } else { garbage };
                self.set_reset(i.reset as u64);
                self.set_in_valid(i.in_valid as u64);
                self.set_in_addr(d.addr as u64);
                self.set_in_flow(d.flow);
                self.set_in_seq(d.seq as u64);
                self.set_in_ts(d.ts);
                self.set_in_data(d.data as u64);
                self.set_rep_ready(i.rep_ready as u64);
                let [s, t, h] = &i.csr;
                self.set_smp_csr_addr(s.addr as u64);
                self.set_smp_csr_wr_en(s.wr_en as u64);
                self.set_smp_csr_wr_data(s.wr_data as u64);
                self.set_smp_csr_rd_en(s.rd_en as u64);
                self.set_side_csr_addr(t.addr as u64);
                self.set_side_csr_wr_en(t.wr_en as u64);
                self.set_side_csr_wr_data(t.wr_data as u64);
                self.set_side_csr_rd_en(t.rd_en as u64);
                self.set_hh_csr_addr(h.addr as u64);
                self.set_hh_csr_wr_en(h.wr_en as u64);
                self.set_hh_csr_wr_data(h.wr_data as u64);
                self.set_hh_csr_rd_en(h.rd_en as u64);
            }
            fn compare(&self, sb: &mut crate::harness::Scoreboard, cycle: u64, expected: &GoldenOutputs) -> HyOutputs {
                let o = crate::ports::ReadOutputs::outputs(self);
                o.compare(sb, cycle, expected);
                o
            }
        }
    )+};
}
hybrid_top!(RoHy4, RoHy);

/// The configuration of a hybrid top, from hdl's list.
pub fn top_config(name: &str) -> HybridConfig {
    crate::harness::top_config(name)
}

/// Heavy-hitter settings: either method, either hardware admission rule, a seed.
fn hh_settings(r: &mut impl Rng) -> HhRuntime {
    let method = if r.gen_bool(0.5) { Method::Dway } else { Method::Precision };
    let admission = if r.gen_bool(0.5) { Admission::Reciprocal } else { Admission::PowerOfTwo };
    HhRuntime { method, admission, seed: r.gen() }
}

/// Runs `cfg.transactions` accepted descriptors through a hybrid top and compares every cycle.
pub fn run_top<M>(name: &str, cfg: &RunConfig, make: impl FnOnce(u64) -> M) -> RunReport
where
    M: crate::core_run::CoreTop<
        Inputs = HybridInputs,
        Garbage = Descriptor,
        Expected = GoldenOutputs,
        Outputs = HyOutputs,
    >,
{
    let hcfg = top_config(name);
    let gold = HybridCycleModel::new(&hcfg).expect("valid configuration");
    let mut cr = CoreRun::new(name, cfg, make(cfg.x_seed), gold, &hcfg.sampling.csr_layout());
    // CSR drivers of the side table and the heavy-hitter core (flow sampling's is the run's own).
    let mut side_csr = CsrDriver::new(&hcfg.side().csr_layout());
    let mut hh_csr = CsrDriver::new(&hcfg.hh.csr_layout());
    let mut traffic = Traffic::new(&hcfg.sampling, &mut cr.run.rng);
    let mut held = Held::new();
    let mut stall = Stall::new(1500, 50..2000);
    let mut mid_reset = MidReset::default();
    let (mut drops, mut draws) = (0u32, cr.run.rng.gen_range(0..8u32));
    while cr.run.transactions < cfg.transactions {
        let halfway = mid_reset.now(cr.run.transactions, cfg.transactions);
        let reset = cr.sim.cycle == 0 || halfway || cr.run.rng.gen_ratio(1, 300_000);
        let rewrite = !reset && cr.run.rng.gen_ratio(1, 20_000);
        if reset || rewrite {
            let mut rt = settings(&hcfg.sampling, &mut cr.run.rng, draws);
            if rt.index == IndexBy::Port {
                rt.index = IndexBy::Prefix;
            }
            let hh_rt = hh_settings(&mut cr.run.rng);
            draws += 1;
            cr.csr.load(csr_writes(&rt));
            side_csr.load(side_csr_writes(&rt));
            hh_csr.load(hh_csr_writes(&hh_rt).expect("hardware admission rules"));
            if reset {
                cr.count(cov::resets, 1);
                held.drop_held();
                drops = 0;
            } else {
                cr.count(cov::setting_writes, 1);
            }
        } else if cr.run.rng.gen_ratio(1, 3_000) {
            // A period's end under traffic: toggle every bank, flush, dump.
            let bank = cr.run.rng.gen_range(0..2);
            cr.csr.push(CSR_BANK, bank);
            cr.csr.push(CSR_FLUSH, 1);
            side_csr.push(CSR_BANK, bank);
            side_csr.push(CSR_FLUSH, 1);
            hh_csr.push(HH_BANK, bank);
            hh_csr.push(CSR_DUMP, 1);
            cr.count(cov::period_ends, 1);
        }
        if traffic.burst == 0 && cr.run.rng.gen_ratio(1, 20_000) {
            traffic.burst = 100;
        }
        let r = &mut cr.run.rng;
        if stall.step(r) {
            cr.run.count(cov::reader_stalls, 1);
        }
        let r = &mut cr.run.rng;
        let mut i = HybridInputs { reset, rep_ready: stall.ready(r, 0.7), ..Default::default() };
        i.csr = [CsrRequest { reset, ..Default::default() }; 3];
        let [s, t, h] = &mut i.csr;
        for (port, drv) in [(s, &mut cr.csr), (t, &mut side_csr), (h, &mut hh_csr)] {
            if !reset && !drv.write_next(port) && r.gen_ratio(1, 40) {
                drv.random_read(port, r);
            }
        }
        let garbage = Descriptor { addr: r.gen(), flow: r.gen(), seq: r.gen(), ts: r.gen(), data: r.gen() };
        if held.is_free() && cr.run.rng.gen_bool(0.92) {
            held.hold(traffic.next(&mut cr.run));
        }
        if let Some(d) = held.get() {
            (i.in_valid, i.desc) = (true, d);
        }
        let hh_conf = cr.gold.hh.csr.config().to_vec();
        let cy = cr.step(&i, &garbage);
        let reads = [
            (&mut cr.csr, i.csr[0].rd_en, cy.o.smp_csr_rd_valid),
            (&mut side_csr, i.csr[1].rd_en, cy.o.side_csr_rd_valid),
            (&mut hh_csr, i.csr[2].rd_en, cy.o.hh_csr_rd_valid),
        ];
        for (drv, read, rd_valid) in reads {
            drv.observe_read(&mut cr.run.sb, cy.c, read && !reset, rd_valid);
        }
        if let Some((code, _)) = cy.e.hh_result() {
            cr.count([cov::hh_rejects, cov::hh_hits, cov::hh_inserts, cov::hh_admits][code as usize], 1);
            cr.count(cov::precision, (Method::from_csr(hh_conf[CSR_METHOD as usize]) == Method::Precision) as u64);
            let pow2 = Admission::from_csr(hh_conf[CSR_ADMISSION as usize]) == Admission::PowerOfTwo;
            cr.count(cov::power_of_two, pow2 as u64);
        }
        if let Some((code, ooo)) = cy.e.side_result() {
            let what = [None, Some(cov::side_hits), Some(cov::side_inserts), Some(cov::side_replaced)][code as usize];
            cr.count(what.expect("the side table never misses: its decisions are forced"), 1);
            cr.count(cov::side_out_of_order, ooo as u64);
        }
        if let Some((code, _)) = cy.e.smp_result() {
            let what = [Some(cov::smp_misses), Some(cov::smp_hits), None, Some(cov::smp_overwrites)][code as usize];
            if let Some(w) = what {
                cr.count(w, 1);
            }
        }
        if let (Some(true), Some(w)) = (cy.e.rep_valid, cy.e.rep_data) {
            if i.rep_ready {
                let what = match Report::unpack(&hcfg.sampling, w).reason {
                    Reason::Evicted => cov::evictions,
                    Reason::Flushed => cov::flushed_reports,
                };
                cr.count(what, 1);
            }
        }
        let now = cr.gold.side.evict_fifo.drops().wrapping_add(cr.gold.smp.evict_fifo.drops());
        cr.count(cov::eviction_drops, now.wrapping_sub(drops) as u64);
        drops = now;
        if held.accepted(reset, cy.e.in_ready).is_some() {
            cr.run.transactions += 1;
        }
    }
    cr.finish()
}

pub fn run_ro_hy4(cfg: &RunConfig) -> RunReport {
    run_top("ro_hy4", cfg, RoHy4::new)
}
pub fn run_ro_hy(cfg: &RunConfig) -> RunReport {
    run_top("ro_hy", cfg, RoHy::new)
}

/// The hybrid runners (demo order).
pub const ALL: &[crate::blocks::Runner] = &[("ro_hy4", run_ro_hy4), ("ro_hy", run_ro_hy)];
