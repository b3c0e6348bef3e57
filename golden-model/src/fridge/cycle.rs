//! Cycle model of the fridge core, stage for stage as the RTL (`hdl::fridge::FridgeCore`):
//!
//! | cycle | stage | what happens |
//! |---|---|---|
//! | t   | in  | descriptor accepted (`in_valid && in_ready`) into the front register F1; the hash units see its id |
//! | t+1 | F1 = S0 | hashes ready: fridge, address, signature, scaled timestamp, entry decision (PRNG ≤ threshold), counter, the expiry interval; handed to the RMW pipeline when it is ready, else F1 holds (and `in_ready` falls) |
//! | +2, +3 | S1, S2 | the table read and the forwarding choice ([`LOOKAHEAD`] = 2 look-ahead levels) |
//! | +4  | SL = S3 | the RTL decides on each candidate for the entry (the word before the packet ahead, the packet ahead's write) |
//! | +5  | SM = S4 | table entry (forwarded) meets the payload: [`super::modify`] → write and report |
//! | +6  | S5  | report register → report FIFO push (dropped and counted when full), and into the tally ([`super::tally::TallyCycleModel`], its own stages from here) |
//!
//! With [`FridgeConfig::registered_ram`] the table read takes two cycles more (S1–S4; SL = S5, SM = S6,
//! the report register S7): the shared RMW model's registered timing, nothing else changes.
//!
//! `in_ready = !reset && (F1 empty || the RMW pipeline takes F1 this cycle)`; with a tally, F1 also waits
//! for the tally banks' reset sweep, so no report finds the tally busy. Run-time settings are read from
//! the CSR bank in the cycle the packet leaves F1 — thresholds and mode for the entry decision, mode and
//! expiry for the write decision — and travel with it ([`Carried`]): a CSR write affects the packets that
//! leave F1 after it. A write of `prng_seed` in cycle c loads the PRNG from that register at the end of
//! cycle c+1 (taking precedence over a draw in the same cycle). A write of `tally_dump` in cycle c starts
//! the tally's walk at the end of cycle c+1 (a registered pulse, as for the seed).

use super::*;
use crate::common::csr::{CsrInputs, CsrModel};
use crate::common::fifo::{FifoInputs, FifoModel};
use crate::common::handover::F1Handover;
use crate::common::latency::{measure, path, Latency};
use crate::common::rmw::{RmwInputs, RmwModel};
use crate::common::Word;
use tally::{TallyCycleModel, TallyInputs};

/// CSR addresses of the run-time settings, in [`FridgeConfig::csr_layout`] order.
pub const CSR_MODE: u8 = 0;
pub const CSR_EXPIRY: u8 = 1;
pub const CSR_PRNG_SEED: u8 = 2;
pub const CSR_THRESHOLD0: u8 = 3;

/// What travels with a packet through the RMW pipeline: its packed [`Payload`] and the write decision's
/// settings as the CSR bank held them when the packet left F1.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Carried {
    pub payload: u128,
    /// The CSR `mode` value ([`FridgeMode::from_csr`]).
    pub mode: u32,
    pub expiry: u32,
}

impl Word for Carried {
    fn masked(self, _bits: usize) -> Carried {
        self
    }
}

#[derive(Debug, Clone, Copy, Default)]
pub struct FridgeInputs {
    pub reset: bool,
    pub in_valid: bool,
    pub desc: Option<Descriptor>,
    pub rep_ready: bool,
    pub csr_addr: u8,
    pub csr_wr_en: bool,
    pub csr_wr_data: u32,
    pub csr_rd_en: bool,
    pub tally_ready: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FridgeOutputs {
    pub in_ready: Option<bool>,
    pub rep_valid: Option<bool>,
    pub rep_data: Option<u128>,
    pub csr_rd_valid: Option<bool>,
    pub csr_rd_data: Option<u32>,
    pub tally_valid: Option<bool>,
    pub tally_data: Option<u128>,
}

/// Status counters (CSR status registers), wrapping 32-bit.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct FridgeStats {
    pub packets: u32,
    pub requests: u32,
    pub insertions: u32,
    pub reports: u32,
}

pub struct FridgeCycleModel {
    pub cfg: FridgeConfig,
    pub front: Front,
    pub rmw: RmwModel<u128, Carried>,
    pub fifo: FifoModel,
    pub csr: CsrModel,
    pub tally: Option<TallyCycleModel>,
    f1: Option<Descriptor>,
    report_reg: Option<Report>,
    /// A `prng_seed` write happened last cycle: the PRNG loads the register at the end of this one.
    seed_pending: bool,
    /// A `tally_dump` write happened last cycle: the walk starts at the end of this one.
    dump_pending: bool,
    pub stats: FridgeStats,
    started: bool,
}

impl FridgeCycleModel {
    pub fn new(cfg: &FridgeConfig) -> Result<Self, ConfigError> {
        let front = Front::new(cfg)?;
        Ok(FridgeCycleModel {
            cfg: cfg.clone(),
            rmw: RmwModel::with_lookahead(
                cfg.ports,
                cfg.ram_timing(),
                LOOKAHEAD,
                cfg.ram_addr_bits(),
                cfg.entry_bits(),
            )?,
            fifo: FifoModel::new(cfg.report_fifo_bits, cfg.report_bits()),
            csr: CsrModel::new(cfg.csr_layout()),
            tally: cfg.tally.then(|| TallyCycleModel::new(cfg)),
            front,
            f1: None,
            report_reg: None,
            seed_pending: false,
            dump_pending: false,
            stats: FridgeStats::default(),
            started: false,
        })
    }

    /// The run-time settings the CSR bank holds now.
    pub fn runtime(&self) -> FridgeRuntime {
        let c = self.csr.config();
        FridgeRuntime {
            mode: FridgeMode::from_csr(c[CSR_MODE as usize]),
            expiry: c[CSR_EXPIRY as usize],
            seed: c[CSR_PRNG_SEED as usize],
            thresholds: c[CSR_THRESHOLD0 as usize..][..self.cfg.fridges()].to_vec(),
        }
    }

    fn status(&self) -> Vec<u32> {
        let s = &self.stats;
        let mut v = vec![s.packets, s.requests, s.insertions, s.reports, self.fifo.drops(), self.fifo.level() as u32];
        v.extend(self.tally.as_ref().map_or([0, 0], |t| [t.busy() as u32, t.fifo.drops()]));
        v
    }

    pub fn step(&mut self, i: &FridgeInputs) -> FridgeOutputs {
        let rt = self.runtime();
        let status = self.status();
        let rmw_ready = match &self.tally {
            Some(t) => self.rmw.ready(i.reset).zip(t.ready()).map(|(a, b)| a && b),
            None => self.rmw.ready(i.reset),
        };
        let F1Handover { in_ready, accept, transfer } =
            F1Handover::new(i.reset, self.started, self.f1.is_some(), rmw_ready, i.in_valid);
        // F1 → RMW.
        let mut rmw_in = RmwInputs { reset: i.reset, ..Default::default() };
        if transfer {
            let d = self.f1.expect("F1 holds a packet");
            let p = self.front.process(&rt, &d);
            self.stats.requests = self.stats.requests.wrapping_add(p.is_request as u32);
            self.stats.insertions = self.stats.insertions.wrapping_add((p.is_request && p.enters) as u32);
            let in_payload = Carried { payload: p.pack(&self.cfg), mode: rt.mode as u32, expiry: rt.expiry };
            rmw_in = RmwInputs { reset: false, in_valid: true, in_index: p.addr, in_payload };
        }
        // SM: modify.
        let cfg = &self.cfg;
        let mut report = None;
        self.rmw.step(&rmw_in, |st| {
            let (c, p) = (st.payload, Payload::unpack(cfg, st.payload.payload, st.index));
            let (new, rep) = modify(cfg, FridgeMode::from_csr(c.mode), c.expiry, &p, &Entry::unpack(cfg, st.old));
            report = rep;
            new.map(|e| e.pack(cfg))
        });
        // S5 → report FIFO.
        let fifo_out = self.fifo.step(&FifoInputs {
            reset: i.reset,
            in_valid: self.report_reg.is_some(),
            in_data: self.report_reg.map(|r| r.pack(cfg)).unwrap_or(0),
            out_ready: i.rep_ready,
        });
        self.stats.reports = self.stats.reports.wrapping_add(self.report_reg.is_some() as u32);
        let tally_out = self.tally.as_mut().map(|t| {
            t.step(&TallyInputs {
                reset: i.reset,
                report: self.report_reg,
                corrected: rt.mode == FridgeMode::Fridge,
                active: self.csr.config()[cfg.csr_tally_bank() as usize] & 1 == 1,
                dump_start: self.dump_pending,
                out_ready: i.tally_ready,
            })
        });
        let csr_out = self.csr.step(&CsrInputs::from_port(i, status));
        // Edge.
        if i.reset {
            self.front.reset();
            self.f1 = None;
            self.report_reg = None;
            self.seed_pending = false;
            self.dump_pending = false;
            self.stats = FridgeStats::default();
            self.started = true;
        } else {
            if self.seed_pending {
                self.front.seed(rt.seed);
            }
            self.seed_pending = i.csr_wr_en && i.csr_addr == CSR_PRNG_SEED;
            self.dump_pending = self.tally.is_some() && i.csr_wr_en && i.csr_addr == cfg.csr_tally_bank() + 1;
            if accept {
                self.f1 = i.desc;
                self.stats.packets = self.stats.packets.wrapping_add(1);
            } else if transfer {
                self.f1 = None;
            }
            self.report_reg = report;
        }
        FridgeOutputs {
            in_ready,
            rep_valid: fifo_out.map(|o| o.out_valid),
            rep_data: fifo_out.and_then(|o| o.out_data),
            csr_rd_valid: csr_out.as_ref().map(|o| o.rd_valid),
            csr_rd_data: csr_out.map(|o| o.rd_data),
            tally_valid: match tally_out {
                Some(o) => o.out_valid,
                None => Some(false),
            },
            tally_data: tally_out.and_then(|o| o.out_data),
        }
    }
}

/// The fridge's latency paths ([`crate::common::latency`]): a response accepted → its report (`rep`),
/// measured on a request and its response back to back with the registers at their reset values (fridge
/// mode, every request enters).
pub fn latency(cfg: &FridgeConfig) -> Vec<Latency> {
    let Ok(mut m) = FridgeCycleModel::new(cfg) else { return vec![] };
    let idle = FridgeInputs { rep_ready: true, tally_ready: true, ..Default::default() };
    let packet =
        |kind, timestamp| FridgeInputs { in_valid: true, desc: Some(Descriptor { kind, id: 1, timestamp }), ..idle };
    let offers = [packet(PacketKind::Request, 1), packet(PacketKind::Response, 2)];
    let reset = FridgeInputs { reset: true, ..idle };
    let cycles =
        measure(|i| m.step(i), &reset, &idle, &offers, |o| o.in_ready == Some(true), |o| o.rep_valid == Some(true));
    vec![path("in", "rep", "a response's report (registers at reset values)", cycles)]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fridge::{threshold_for, FridgeModel};
    use rand::{Rng, SeedableRng};

    /// Driven at full rate with the reports drained, the cycle model reports exactly what the
    /// transaction model reports, in the same order.
    #[test]
    fn cycle_model_equals_transaction_model() {
        let mut rng = rand::rngs::SmallRng::seed_from_u64(5);
        // Each mode at another tally resolution (4, 8, 16 bins per octave).
        for (mode, bins) in
            [FridgeMode::Fridge, FridgeMode::Simple, FridgeMode::Expiry].into_iter().zip(tally::BINS_PER_OCTAVE)
        {
            // The expiry mode on registered RAM (the pipeline two cycles deeper).
            let registered_ram = mode == FridgeMode::Expiry;
            let cfg = FridgeConfig {
                addr_bits: vec![6, 5],
                tally_bins_per_octave: bins,
                registered_ram,
                ..FridgeConfig::default()
            };
            let rt =
                FridgeRuntime { mode, expiry: 300, seed: 77, thresholds: vec![threshold_for(0.6), threshold_for(0.3)] };
            let mut ids: Vec<u128> = vec![];
            let mut t = 0u64;
            let packets: Vec<Descriptor> = (0..20_000)
                .map(|_| {
                    t += rng.gen_range(0..200);
                    if ids.is_empty() || rng.gen_bool(0.5) {
                        let id = rng.gen();
                        ids.push(id);
                        Descriptor { kind: PacketKind::Request, id, timestamp: t }
                    } else {
                        let id = ids.swap_remove(rng.gen_range(0..ids.len()));
                        Descriptor { kind: PacketKind::Response, id, timestamp: t }
                    }
                })
                .collect();
            let mut tm = FridgeModel::new(&cfg, rt.clone()).unwrap();
            let want: Vec<Report> = packets.iter().filter_map(|d| tm.step(d)).collect();
            let mut cm = FridgeCycleModel::new(&cfg).unwrap();
            let mut writes = vec![(CSR_MODE, rt.mode as u32), (CSR_EXPIRY, rt.expiry), (CSR_PRNG_SEED, rt.seed)];
            writes.extend(rt.thresholds.iter().enumerate().map(|(k, t)| (CSR_THRESHOLD0 + k as u8, *t)));
            writes.reverse();
            let (mut got, mut next, mut cycle) = (vec![], 0, 0u64);
            while next < packets.len() || cycle < 200_000 && got.len() < want.len() {
                let mut i = FridgeInputs { reset: cycle == 0, rep_ready: true, ..Default::default() };
                if cycle > 0 {
                    if let Some((a, v)) = writes.pop() {
                        (i.csr_addr, i.csr_wr_en, i.csr_wr_data) = (a, true, v);
                    }
                }
                i.desc = packets.get(next).copied().filter(|_| writes.is_empty() && cycle > 10);
                i.in_valid = i.desc.is_some();
                let o = cm.step(&i);
                if o.rep_valid == Some(true) {
                    got.push(Report::unpack(&cfg, o.rep_data.unwrap()));
                }
                if i.in_valid && o.in_ready == Some(true) {
                    next += 1;
                }
                cycle += 1;
            }
            let first = want.iter().zip(&got).position(|(a, b)| a != b);
            assert_eq!(got.len(), want.len(), "{mode:?}: first difference at report {first:?}");
            assert_eq!(first, None, "{mode:?}");
            // Swap the tally bank, start the walk, and read it with a stalling consumer.
            let want_tally = tm.tally.as_mut().unwrap().swap_and_dump();
            let bank = cfg.csr_tally_bank();
            let mut writes = vec![(bank + 1, 1), (bank, 1)];
            let mut records = vec![];
            for _ in 0..5_000 {
                let mut i = FridgeInputs { rep_ready: true, tally_ready: rng.gen_bool(0.3), ..Default::default() };
                if let Some((a, v)) = writes.pop() {
                    (i.csr_addr, i.csr_wr_en, i.csr_wr_data) = (a, true, v);
                }
                let o = cm.step(&i);
                if o.tally_valid == Some(true) && i.tally_ready {
                    records.push(tally::TallyRecord::unpack(o.tally_data.unwrap(), tally::Bins::of(&cfg)));
                }
            }
            assert_eq!(records, want_tally, "{mode:?}");
            assert!(records.iter().any(|r| r.sum_g > 0), "{mode:?}: the tally saw reports");
            assert_eq!(cm.tally.as_ref().unwrap().fifo.drops(), 0);
        }
    }
}
