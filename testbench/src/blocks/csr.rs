//! CSR bank with a PRNG seeded through it: random reads and writes over config, status and unmapped
//! addresses (the identity registers among them), simultaneous read and write of one register, changing
//! status inputs, resets. Both banks: `csr` (read latency 1) and `csr_r2` (the read registered after a
//! first level of its multiplexer: latency 2).

use super::Run;
use crate::csr_driver::CsrDriver;
use crate::harness::{Model, RunConfig, RunReport, Sim};
use crate::models::{Csr, CsrR2};
use golden::common::config::{CSR_ID_ADDR, CSR_STATUS_BASE, CSR_VERSION_ADDR};
use golden::common::csr::{CsrInputs, CsrModel};
use golden::common::prng::{PrngInputs, PrngModel};
use golden::common::tops::csr_top_layout;
use rand::Rng;

/// Ports common to the CSR test tops (generated per top; this trait lets one runner drive both).
pub trait CsrTopModel: Model {
    fn drive(&mut self, i: &CsrInputs, advance: bool);
    /// `(rd_valid, rd_data, cfg, prng_value)`.
    fn outputs(&self) -> (bool, u32, u128, u32);
}

crate::impl_for! {
    impl CsrTopModel => Csr, CsrR2; {
        fn drive(&mut self, i: &CsrInputs, advance: bool) {
            self.set_reset(i.reset as u64);
            self.set_addr(i.addr as u64);
            self.set_wr_en(i.wr_en as u64);
            self.set_wr_data(i.wr_data as u64);
            self.set_rd_en(i.rd_en as u64);
            self.set_status(std::array::from_fn(|k| i.status[k]));
            self.set_advance(advance as u64);
        }
        fn outputs(&self) -> (bool, u32, u128, u32) {
            (self.rd_valid() != 0, self.rd_data() as u32, self.cfg(), self.prng_value() as u32)
        }
    }
}

/// The bank read in one cycle.
pub fn run(cfg: &RunConfig) -> RunReport {
    run_on(cfg, csr_top_layout(), Csr::new)
}

/// The bank read in two cycles.
pub fn run_r2(cfg: &RunConfig) -> RunReport {
    run_on(cfg, csr_top_layout().with_registered_read(), CsrR2::new)
}

fn run_on<T: CsrTopModel>(
    cfg: &RunConfig,
    layout: golden::common::csr::CsrLayout,
    make: impl FnOnce(u64) -> T,
) -> RunReport {
    let m = make(cfg.x_seed);
    let mut run = Run::new(m.name(), cfg);
    let mut sim = Sim::new(m, cfg.vcd.clone());
    let seed_addr = layout.config_addr("prng_seed").expect("layout has prng_seed");
    let (n_cfg, n_stat) = (layout.config.len() as u8, layout.status.len() as u8);
    let mut gold = CsrModel::new(layout.clone());
    let mut prng = PrngModel::new();
    let mut status = vec![0u32; n_stat as usize];
    let mut csr = CsrDriver::new(&layout);
    for i in 0..cfg.transactions {
        let reset = run.reset_now(i, cfg.transactions, 20_000);
        let r = &mut run.rng;
        for s in status.iter_mut() {
            if r.gen_ratio(1, 4) {
                *s = s.wrapping_add(r.gen_range(0..3));
            }
        }
        let addr = match r.gen_range(0..10) {
            0..=4 => r.gen_range(0..n_cfg),
            5..=7 => CSR_STATUS_BASE + r.gen_range(0..n_stat),
            _ => r.gen(),
        };
        let inp = CsrInputs {
            reset,
            addr,
            wr_en: r.gen_ratio(1, 3),
            wr_data: if r.gen_ratio(1, 8) { 0 } else { r.gen() },
            rd_en: r.gen_bool(0.5),
            status: status.clone(),
        };
        let advance = r.gen_bool(0.5);
        let seed_write = inp.wr_en && inp.addr == seed_addr && !inp.reset;
        run.count("prng_seeded_via_csr", seed_write as u64);
        run.count("read_and_write_same_cycle", (inp.wr_en && inp.rd_en && !inp.reset) as u64);
        let ident = inp.addr == CSR_ID_ADDR || inp.addr == CSR_VERSION_ADDR;
        run.count("identity_read", (ident && inp.rd_en && !inp.reset) as u64);
        sim.m.drive(&inp, advance);
        sim.settle();
        let c = sim.cycle;
        let p = prng.step(&PrngInputs {
            reset: inp.reset,
            seed_load: inp.wr_en && inp.addr == seed_addr,
            seed: inp.wr_data,
            advance,
        });
        let (rd_valid, rd_data, cfg_rtl, prng_value) = sim.m.outputs();
        run.sb.check(c, "prng_value", p.map(u128::from), prng_value as u128);
        csr.observe(&mut run.sb, c, &inp, rd_valid);
        if let Some(e) = gold.step(&inp) {
            run.sb.check(c, "rd_valid", Some(e.rd_valid as u128), rd_valid as u128);
            run.sb.check(c, "rd_data", Some(e.rd_data as u128), rd_data as u128);
            let cfg_word = e.config.iter().rev().fold(0u128, |a, v| (a << 32) | *v as u128);
            run.sb.check(c, "cfg", Some(cfg_word), cfg_rtl);
        }
        sim.tick();
        run.transactions += 1;
    }
    run.finish(sim.cycle)
}
