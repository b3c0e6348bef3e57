//! Cycle model of the heavy-hitter core, stage for stage as the RTL (`hdl::heavy_hitters::HhCore`):
//!
//! | cycle | stage | what happens |
//! |---|---|---|
//! | t   | in  | descriptor accepted (`in_valid && in_ready`) into F1; the index hash unit loads its key |
//! | t+1 | F1 = S0 | indices ready; the packet enters the active bank's [`MultiRmwModel`] (two look-ahead levels, [`LOOKAHEAD`]) when it is ready (else F1 holds and `in_ready` falls); it draws the PRNG, whose value `r` addresses the reciprocal ROM |
//! | +2  | S1  | ROM word read; the mantissa and the draw's leading-one position registered |
//! | +3  | S2  | threshold `T(r)` (the mantissa shifted) registered; the banks' forward choice over the RAM and distances 3.. registered (the second look-ahead level) |
//! | +4  | S3 = SL | threshold `T(r)` beside the bank's look-ahead stage: the RTL compares the words known so far — each row's early word, or the write of the packet two ahead, and the write of the packet directly ahead, whose modify stage this is — and registers the per-candidate results |
//! | +5  | S4 = SM | the bank's modify stage: [`decide`] over the d forwarded buckets → at most one write |
//! | +6  | S5  | the write lands; the packet's result is registered and counted |
//! | +7  | S6  | the result port (`res_*`; the RTL picks the row's count from S5's registers) |
//!
//! The walk (CSR `dump`) reads and clears the frozen bank through the same bank pipeline: one op per cycle
//! for `(row, index)` in row-major order, issued only in a cycle in which no packet enters that bank and
//! only while the record FIFO has room for every op in flight (`level ≤ depth − `[`WALK_IN_FLIGHT`]), so no
//! record is ever dropped by the walk itself. The walk op's bucket is read at SM = S4 and registered at S5 (the
//! RTL registers the bank's words and picks the row there); a non-empty one becomes a [`Record`] registered
//! at S6 and pushed into the record FIFO. A `dump` write in cycle c starts the walk at the end of cycle c+1
//! (a registered pulse, as for `prng_seed`) over the bank that is frozen then; a `dump` write during a walk
//! is ignored. A swap of `bank` during a walk does not change the bank it reads (packets then share that
//! bank with it, and take precedence). `dump_busy` falls when the last op is issued (its record, if any, is
//! pushed at S6, six cycles after the issue).
//!
//! Run-time settings are read from the CSR bank in the cycle they are used: `bank` and `admission` at S0,
//! `method` at SM = S4 (the modify stage).

use super::admission::Admission;
use super::table::{decide, HhStats, Outcome, PacketResult};
use super::{Bucket, HhConfig, Method, Record, RecordWord};
use crate::common::config::ConfigError;
use crate::common::csr::{CsrInputs, CsrModel};
use crate::common::fifo::{FifoInputs, FifoModel};
use crate::common::handover::F1Handover;
use crate::common::hash::XorHash;
use crate::common::latency::{measure, path, Latency};
use crate::common::multi_rmw::{MultiRmwInputs, MultiRmwModel};
use crate::common::prng::{seed_state, xorshift32, PRNG_DEFAULT_SEED};
use crate::common::sram::{RamPorts, RamTiming};
use crate::common::walk::BankWalk;
use crate::common::Word;

/// CSR addresses of the run-time settings, in [`HhConfig::csr_layout`] order.
pub const CSR_METHOD: u8 = 0;
pub const CSR_ADMISSION: u8 = 1;
pub const CSR_PRNG_SEED: u8 = 2;
pub const CSR_BANK: u8 = 3;
pub const CSR_DUMP: u8 = 4;

/// Look-ahead levels of the bank pipelines ([`MultiRmwModel::with_lookahead`]): two, so the decision's
/// compares and increments run at SL on flip-flop words (each row's early word or the write of the packet
/// two ahead) and the modify stage only picks. One level (SL = S2) left the banks' forward mux in front of
/// the 104-bit key compares (d2: 94 MHz).
pub const LOOKAHEAD: usize = 2;

/// The banks' modify stage SM (S0 = F1): S4.
pub const SM_STAGE: usize = crate::common::rmw::modify_stage_la(RamTiming::Short, LOOKAHEAD);

/// Walk ops between an issue and its record's FIFO push: the shared bank pipeline's
/// ([`crate::common::walk::WALK_IN_FLIGHT`]), one per look-ahead level and one for the bucket's register at
/// S5 (S0..S6, the record registered at S6).
pub const WALK_IN_FLIGHT: usize = crate::common::walk::WALK_IN_FLIGHT + LOOKAHEAD + 1;

/// Cycles from a packet's acceptance to its result on the result port (`res_*`): in F1 at t+1, SM = S4 at
/// t+5, registered at t+6 and again at t+7. Fixed once the reset sweep is over (F1 then passes its packet on at once), which is
/// what a core fed by the result port relies on (the reordering hybrid's delay line).
pub const RESULT_LATENCY: usize = SM_STAGE + 3;

/// What travels through a bank pipeline with an op.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Op {
    /// Nothing (the RMW's idle payload).
    #[default]
    Idle,
    /// A packet with its key.
    Packet(u128),
    /// A walk op: read and clear `row`.
    Walk(usize),
}

impl Word for Op {
    fn masked(self, _bits: usize) -> Op {
        self
    }
}

#[derive(Debug, Clone, Copy, Default)]
pub struct HhInputs {
    pub reset: bool,
    pub in_valid: bool,
    pub in_key: u128,
    pub rec_ready: bool,
    pub csr_addr: u8,
    pub csr_wr_en: bool,
    pub csr_wr_data: u32,
    pub csr_rd_en: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct HhOutputs {
    pub in_ready: Option<bool>,
    /// The reset sweep is over: from now until the next reset the core takes a descriptor in every cycle
    /// (a core fed by another's fixed-latency output waits for it: the reordering hybrid).
    pub swept: Option<bool>,
    /// The result port: the packet that left SM two cycles before ([`outcome_code`], its row, its count).
    pub res_valid: Option<bool>,
    pub res_outcome: Option<u64>,
    pub res_row: Option<u64>,
    pub res_count: Option<u64>,
    pub rec_valid: Option<bool>,
    pub rec_data: Option<RecordWord>,
    pub csr_rd_valid: Option<bool>,
    pub csr_rd_data: Option<u32>,
}

/// The CSR writes that set `rt` (method, admission rule, PRNG seed: the seed lands a cycle after its
/// write); None for the exact admission rule, which has no hardware.
pub fn csr_writes(rt: &super::HhRuntime) -> Option<Vec<(u8, u32)>> {
    Some(vec![(CSR_METHOD, rt.method as u32), (CSR_ADMISSION, rt.admission.csr()?), (CSR_PRNG_SEED, rt.seed)])
}

/// Outcome code on the result port: 0 reject, 1 hit, 2 insert, 3 admit.
pub fn outcome_code(o: Outcome) -> (u64, usize) {
    match o {
        Outcome::Reject => (0, 0),
        Outcome::Hit { row } => (1, row),
        Outcome::Insert { row } => (2, row),
        Outcome::Admit { row } => (3, row),
    }
}

pub struct HhCycleModel {
    pub cfg: HhConfig,
    hash: XorHash,
    pub banks: [MultiRmwModel<Bucket, Op>; 2],
    pub fifo: FifoModel<RecordWord>,
    pub csr: CsrModel,
    f1: Option<u128>,
    prng: u32,
    /// Draws of the packets in S1 ..= SM (the side pipeline that becomes `T(r)` at SL = S3, which the RTL
    /// compares there), with their admission rule.
    draws: [Option<(u32, Admission)>; SM_STAGE],
    result_reg: Option<PacketResult>,
    /// The result port's register (S6).
    result_out: Option<PacketResult>,
    /// The walk's record at S5 (its bucket registered) and S6 (the record register the FIFO takes).
    record_s5: Option<Record>,
    record_reg: Option<Record>,
    walk: BankWalk,
    seed_pending: bool,
    dump_pending: bool,
    pub stats: HhStats,
    records: u32,
    started: bool,
}

impl HhCycleModel {
    pub fn new(cfg: &HhConfig) -> Result<Self, ConfigError> {
        cfg.check()?;
        if cfg.record_fifo_bits < 3 {
            return Err(ConfigError(format!(
                "record_fifo_bits must be at least 3 (the walk keeps {WALK_IN_FLIGHT} records in flight)"
            )));
        }
        let bank = || {
            MultiRmwModel::with_lookahead(
                RamPorts::Dual,
                RamTiming::Short,
                LOOKAHEAD,
                cfg.rows,
                cfg.addr_bits,
                cfg.bucket_bits(),
            )
        };
        Ok(HhCycleModel {
            cfg: cfg.clone(),
            hash: cfg.hash()?,
            banks: [bank()?, bank()?],
            fifo: FifoModel::new(cfg.record_fifo_bits, cfg.record_bits()),
            csr: CsrModel::new(cfg.csr_layout()),
            f1: None,
            prng: PRNG_DEFAULT_SEED,
            draws: [None; SM_STAGE],
            result_reg: None,
            result_out: None,
            record_s5: None,
            record_reg: None,
            walk: BankWalk::new(cfg.rows, cfg.buckets_per_row()),
            seed_pending: false,
            dump_pending: false,
            stats: HhStats::default(),
            records: 0,
            started: false,
        })
    }

    fn status(&self) -> Vec<u32> {
        let s = &self.stats;
        [s.packets, s.hits, s.inserts, s.admissions, s.rejections]
            .iter()
            .map(|&v| v as u32)
            .chain([self.walk.busy() as u32, self.records, self.fifo.drops(), self.fifo.level() as u32])
            .collect()
    }

    pub fn step(&mut self, i: &HhInputs) -> HhOutputs {
        let cfg = self.cfg.clone();
        let conf = self.csr.config().to_vec();
        let (method, admission) =
            (Method::from_csr(conf[CSR_METHOD as usize]), Admission::from_csr(conf[CSR_ADMISSION as usize]));
        let active = (conf[CSR_BANK as usize] & 1) as usize;
        let status = self.status();
        let rmw_ready = self.banks[active].ready(i.reset);
        let swept = self.banks[0].ready(i.reset);
        let F1Handover { in_ready, accept, transfer } =
            F1Handover::new(i.reset, self.started, self.f1.is_some(), rmw_ready, i.in_valid);
        // S0 of each bank: the packet into the active one, a walk op into the walk's bank if it is free.
        let room = self.fifo.level() + WALK_IN_FLIGHT <= self.fifo.depth();
        let walk_issue = self.walk.issue(i.reset, transfer.then_some(active), room);
        let mut ops: [MultiRmwInputs<Op>; 2] = Default::default();
        for (b, op) in ops.iter_mut().enumerate() {
            op.reset = i.reset;
            if transfer && b == active {
                let key = self.f1.expect("F1 holds a packet");
                op.in_valid = true;
                op.in_index = cfg.indices(self.hash.eval(key));
                op.in_payload = Op::Packet(key);
            } else if let Some(w) = walk_issue.filter(|w| b == w.bank) {
                op.in_valid = true;
                op.in_index = vec![w.index; cfg.rows];
                op.in_payload = Op::Walk(w.row);
            }
        }
        // SM = S4 of both banks.
        let threshold = self.draws[SM_STAGE - 1].map(|(r, rule)| rule.threshold(r));
        let (mut result, mut record) = (None, None);
        for (bank, op) in self.banks.iter_mut().zip(&ops) {
            bank.step(op, |st| {
                let mut writes = vec![None; st.old.len()];
                match st.payload {
                    Op::Packet(key) => {
                        let t = threshold.expect("a packet at SM has its threshold");
                        let (w, res) = decide(&cfg, method, key, t, &st.old);
                        if let Some((row, b)) = w {
                            writes[row] = Some(b);
                        }
                        result = Some(res);
                    }
                    Op::Walk(row) => {
                        let b = st.old[row];
                        if !b.is_empty() {
                            record = Some(Record { row, index: st.index[row], key: b.key, count: b.count });
                        }
                        writes[row] = Some(Bucket::default());
                    }
                    Op::Idle => unreachable!("idle ops are never issued"),
                }
                writes
            });
        }
        // S6 → record FIFO.
        let fifo_out = self.fifo.step(&FifoInputs {
            reset: i.reset,
            in_valid: self.record_reg.is_some(),
            in_data: self.record_reg.map(|r| r.pack(&cfg)).unwrap_or_default(),
            out_ready: i.rec_ready,
        });
        let csr_out = self.csr.step(&CsrInputs::from_port(i, status));
        let res_out = self.result_out;
        let was_started = self.started;
        // Edge.
        self.walk.edge(i.reset, rmw_ready == Some(true), self.dump_pending, active, walk_issue);
        if i.reset {
            self.f1 = None;
            self.prng = PRNG_DEFAULT_SEED;
            self.draws = [None; SM_STAGE];
            self.result_reg = None;
            self.result_out = None;
            self.record_s5 = None;
            self.record_reg = None;
            self.seed_pending = false;
            self.dump_pending = false;
            self.stats = HhStats::default();
            self.records = 0;
            self.started = true;
        } else {
            if let Some(r) = self.result_reg {
                self.stats.outcome(r.outcome); // packets count at acceptance
            }
            self.records = self.records.wrapping_add(self.record_reg.is_some() as u32);
            self.result_out = self.result_reg;
            self.result_reg = result;
            self.record_reg = self.record_s5;
            self.record_s5 = record;
            self.draws.rotate_right(1);
            self.draws[0] = transfer.then_some((self.prng, admission));
            self.prng = if self.seed_pending {
                seed_state(conf[CSR_PRNG_SEED as usize])
            } else if transfer {
                xorshift32(self.prng)
            } else {
                self.prng
            };
            self.seed_pending = i.csr_wr_en && i.csr_addr == CSR_PRNG_SEED;
            self.dump_pending = i.csr_wr_en && i.csr_addr == CSR_DUMP;
            if accept {
                self.f1 = Some(i.in_key & crate::common::mask128(cfg.key_bits));
                self.stats.packets += 1;
            } else if transfer {
                self.f1 = None;
            }
        }
        let code = res_out.map(|r| outcome_code(r.outcome));
        HhOutputs {
            in_ready,
            swept,
            res_valid: was_started.then_some(res_out.is_some()),
            res_outcome: code.map(|c| c.0),
            res_row: code.map(|c| c.1 as u64),
            res_count: res_out.map(|r| r.count),
            rec_valid: fifo_out.map(|o| o.out_valid),
            rec_data: fifo_out.and_then(|o| o.out_data),
            csr_rd_valid: csr_out.as_ref().map(|o| o.rd_valid),
            csr_rd_data: csr_out.map(|o| o.rd_data),
        }
    }
}

impl HhOutputs {
    /// The per-packet result, when the port shows one.
    pub fn result(&self) -> Option<(u64, u64, u64)> {
        (self.res_valid == Some(true))
            .then(|| (self.res_outcome.unwrap(), self.res_row.unwrap(), self.res_count.unwrap()))
    }
}

/// The heavy-hitter core's latency paths ([`crate::common::latency`]): a key accepted → its result (`res`).
pub fn latency(cfg: &HhConfig) -> Vec<Latency> {
    let Ok(mut m) = HhCycleModel::new(cfg) else { return vec![] };
    let idle = HhInputs { rec_ready: true, ..Default::default() };
    let offer = HhInputs { in_valid: true, in_key: 1, ..idle };
    let reset = HhInputs { reset: true, ..idle };
    let cycles =
        measure(|i| m.step(i), &reset, &idle, &[offer], |o| o.in_ready == Some(true), |o| o.res_valid == Some(true));
    vec![path("in", "res", "every key's result", cycles)]
}
