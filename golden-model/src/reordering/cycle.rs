//! Cycle model of the flow-sampling core, stage for stage as the RTL (`hdl::reordering::ReorderCore`):
//!
//! | cycle | stage | what happens |
//! |---|---|---|
//! | t   | in  | descriptor accepted (`in_valid && in_ready`); counted; a data segment goes into F1 with its prefix (`prefix_len` read now), stored timestamp, `in_force` and `in_index`; the index hash unit loads the prefix (or the flow key: `options` bit 1, read now) and the fingerprint unit the flow key |
//! | t+1 | F1 = S0 | index (the hash's, or F1's `in_index` when `options` bit 2 was set at t) and fingerprint ready; the packet enters the active bank's [`RmwModel`] (two look-ahead levels, [`LOOKAHEAD`]) when it is ready (else F1 holds and `in_ready` falls) |
//! | +2  | S1  | RAM read |
//! | +3  | S2 = SL−1 | the bank's forward mux (distances 3–5 and the RAM) |
//! | +4  | S3 = SL | the look-ahead stage; **`timeout`, `count_c`, `reorder_r`, `conditions`, `options` bit 0 read now** and carried with the packet (the RTL decides here on every candidate: the word before the packets ahead, the word the packet two ahead wrote, the word the packet directly ahead writes) |
//! | +5  | S4 = SM | [`decide`] on the forwarded bucket with the settings read at SL → at most one write, an eviction report |
//! | +6  | S5  | the write lands; the result (`res_*`) and the eviction report are registered; the report enters the eviction FIFO (a full FIFO drops it and counts) |
//!
//! Non-data descriptors are accepted and counted (`packets`) and go no further: they never occupy F1.
//!
//! **Flush** (CSR `flush`): the read-and-clear walk of the frozen bank, exactly as the heavy-hitter core's
//! walk — one index per cycle through the same bank pipeline, issued only in a cycle in which no packet
//! enters that bank and only while the **flush FIFO** has room for every op in flight
//! (`level ≤ depth − `[`WALK_IN_FLIGHT`]), so the walk itself never drops. A valid bucket with `n > 0`
//! becomes a [`Reason::Flushed`] report at SM = S4, registered at S5 and pushed into the flush FIFO. A `flush`
//! write in cycle c starts the walk at the end of cycle c+1 over the bank frozen then; a `flush` write
//! during a walk is ignored; `flush_busy` falls when the last op is issued.
//!
//! **Two FIFOs, one report port.** An eviction (active bank) and a flushed bucket (frozen bank) can leave
//! SM in the same cycle, so each has its own FIFO; the report port shows the eviction FIFO's head when
//! it has one, else the flush FIFO's (evictions first: theirs is the FIFO that drops).
//!
//! **Settings wider than the fields**: the core reads the low `ts_bits` of `timeout`, the low `n_bits` of
//! `count_c`, the low `o_bits` of `reorder_r` and the low 6 bits of `prefix_len` (values 32..=63 mean 32);
//! the control plane writes only values that fit ([`ReorderRuntime::check`]).

use super::sampling::{decide, Bucket, Force, Outcome, SamplingStats};
use super::{Descriptor, IndexBy, Reason, ReorderConfig, ReorderRuntime};
use crate::common::config::ConfigError;
use crate::common::csr::{CsrInputs, CsrModel};
use crate::common::fifo::{FifoInputs, FifoModel};
use crate::common::handover::F1Handover;
use crate::common::hash::XorHash;
use crate::common::latency::{measure, path, Latency};
use crate::common::rmw::{RmwInputs, RmwModel};
use crate::common::sram::{RamPorts, RamTiming};
use crate::common::walk::BankWalk;
use crate::common::Word;

/// CSR addresses of the run-time settings, in [`ReorderConfig::csr_layout`] order.
pub const CSR_PREFIX_LEN: u8 = 0;
pub const CSR_TIMEOUT: u8 = 1;
pub const CSR_COUNT: u8 = 2;
pub const CSR_REORDER: u8 = 3;
pub const CSR_CONDITIONS: u8 = 4;
pub const CSR_OPTIONS: u8 = 5;
pub const CSR_BANK: u8 = 6;
pub const CSR_FLUSH: u8 = 7;

/// Look-ahead levels of the bank pipelines ([`RmwModel::with_lookahead`]): two, so the decision runs at SL on
/// words that are flip-flops (the word before the packets ahead, the write of the packet two ahead) or one
/// 2:1 choice after them (the write of the packet directly ahead), and the modify stage only picks.
pub const LOOKAHEAD: usize = 2;

/// Walk ops between an issue and its report's FIFO push: the shared bank pipeline's
/// ([`crate::common::walk::WALK_IN_FLIGHT`]) and one per look-ahead level (S0..S5, the report registered at S5).
pub const WALK_IN_FLIGHT: usize = crate::common::walk::WALK_IN_FLIGHT + LOOKAHEAD;

/// A data packet as it travels to the modify stage.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Packet {
    pub prefix: u32,
    pub fp: u32,
    pub seq: u32,
    /// Stored timestamp.
    pub ts: u64,
    pub force: Force,
}

/// What travels through a bank pipeline with an op.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Op {
    #[default]
    Idle,
    Packet(Packet),
    /// A walk op: report and clear the bucket.
    Walk,
}

impl Word for Op {
    fn masked(self, _bits: usize) -> Op {
        self
    }
}

impl Word for Bucket {
    /// Buckets are written by [`decide`], whose fields already fit their widths.
    fn masked(self, _bits: usize) -> Bucket {
        self
    }
}

/// Result-port code of an outcome: 0 miss, 1 hit, 2 insert, 3 overwrite.
pub fn outcome_code(o: Outcome) -> u64 {
    match o {
        Outcome::Miss | Outcome::NotData => 0,
        Outcome::Hit { .. } => 1,
        Outcome::Insert => 2,
        Outcome::Overwrite => 3,
    }
}

#[derive(Debug, Clone, Copy, Default)]
pub struct ReorderInputs {
    pub reset: bool,
    pub in_valid: bool,
    pub desc: Descriptor,
    /// The bucket index when `options` bit 2 selects [`IndexBy::Port`] (low `addr_bits` read).
    pub in_index: usize,
    /// [`Force`] of the packet (the `in_force` port).
    pub in_force: Force,
    pub rep_ready: bool,
    pub csr_addr: u8,
    pub csr_wr_en: bool,
    pub csr_wr_data: u32,
    pub csr_rd_en: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ReorderOutputs {
    pub in_ready: Option<bool>,
    /// The reset sweep is over: from now until the next reset the core takes a descriptor in every cycle
    /// (a core fed by another's fixed-latency output waits for it: the reordering hybrid).
    pub swept: Option<bool>,
    /// The data packet that left SM in the cycle before: [`outcome_code`] and whether it was out of order.
    pub res_valid: Option<bool>,
    pub res_outcome: Option<u64>,
    pub res_ooo: Option<bool>,
    pub rep_valid: Option<bool>,
    /// [`super::Report::pack`].
    pub rep_data: Option<u128>,
    pub csr_rd_valid: Option<bool>,
    pub csr_rd_data: Option<u32>,
}

impl ReorderOutputs {
    /// The per-packet result, when the port shows one: (outcome code, out of order).
    pub fn result(&self) -> Option<(u64, bool)> {
        (self.res_valid == Some(true)).then(|| (self.res_outcome.unwrap(), self.res_ooo.unwrap()))
    }
}

/// The run-time settings the core reads from its config registers (see the module docs for the widths).
pub fn runtime_from_csr(cfg: &ReorderConfig, conf: &[u32]) -> ReorderRuntime {
    let low = |v: u32, bits: usize| (v as u64 & ((1u64 << bits) - 1)) as u32;
    let (cond, opt) = (conf[CSR_CONDITIONS as usize], conf[CSR_OPTIONS as usize]);
    ReorderRuntime {
        prefix_len: (conf[CSR_PREFIX_LEN as usize] & 63).min(32) as u8,
        timeout: low(conf[CSR_TIMEOUT as usize], cfg.ts_bits.min(32)) as u64,
        count: low(conf[CSR_COUNT as usize], cfg.n_bits),
        reorder: low(conf[CSR_REORDER as usize], cfg.o_bits),
        stale_en: cond & 1 == 1,
        count_en: cond >> 1 & 1 == 1,
        reorder_en: cond >> 2 & 1 == 1,
        count_first: opt & 1 == 1,
        index: match opt >> 1 & 3 {
            0 => IndexBy::Prefix,
            1 => IndexBy::Flow,
            _ => IndexBy::Port,
        },
    }
}

/// The CSR writes that set `rt` (every setting register, in address order).
pub fn csr_writes(rt: &ReorderRuntime) -> Vec<(u8, u32)> {
    vec![
        (CSR_PREFIX_LEN, rt.prefix_len as u32),
        (CSR_TIMEOUT, rt.timeout as u32),
        (CSR_COUNT, rt.count),
        (CSR_REORDER, rt.reorder),
        (CSR_CONDITIONS, rt.conditions_word()),
        (CSR_OPTIONS, rt.options_word()),
    ]
}

pub struct ReorderCycleModel {
    pub cfg: ReorderConfig,
    index_hash: XorHash,
    fp_hash: XorHash,
    pub banks: [RmwModel<Bucket, Op>; 2],
    pub evict_fifo: FifoModel<u128>,
    pub flush_fifo: FifoModel<u128>,
    pub csr: CsrModel,
    /// F1: the packet and its bucket index.
    f1: Option<(Packet, usize)>,
    result_reg: Option<Outcome>,
    evict_reg: Option<u128>,
    flush_reg: Option<u128>,
    walk: BankWalk,
    flush_pending: bool,
    /// The settings read at SL in the cycle before (a packet at SM was at SL then).
    rt_sl: Option<ReorderRuntime>,
    pub stats: SamplingStats,
    started: bool,
}

impl ReorderCycleModel {
    pub fn new(cfg: &ReorderConfig) -> Result<Self, ConfigError> {
        cfg.check()?;
        if cfg.report_fifo_bits < 3 {
            return Err(ConfigError("report_fifo_bits must be at least 3 (the walk keeps 6 reports in flight)".into()));
        }
        let bank =
            || RmwModel::with_lookahead(RamPorts::Dual, RamTiming::Short, LOOKAHEAD, cfg.addr_bits, cfg.bucket_bits());
        let fifo = || FifoModel::new(cfg.report_fifo_bits, cfg.report_bits());
        Ok(ReorderCycleModel {
            cfg: cfg.clone(),
            index_hash: cfg.index_hash()?,
            fp_hash: cfg.fp_hash()?,
            banks: [bank()?, bank()?],
            evict_fifo: fifo(),
            flush_fifo: fifo(),
            csr: CsrModel::new(cfg.csr_layout()),
            f1: None,
            result_reg: None,
            evict_reg: None,
            flush_reg: None,
            walk: BankWalk::new(1, cfg.buckets()),
            flush_pending: false,
            rt_sl: None,
            stats: SamplingStats::default(),
            started: false,
        })
    }

    /// The status registers in [`ReorderConfig::csr_layout`] order.
    fn status(&self) -> Vec<u32> {
        let s = &self.stats;
        [s.packets, s.data_packets, s.hits, s.inserts, s.overwrites, s.misses, s.out_of_order, s.reports]
            .iter()
            .map(|&v| v as u32)
            .chain([
                self.evict_fifo.drops(),
                self.evict_fifo.level() as u32,
                self.walk.busy() as u32,
                self.flush_fifo.level() as u32,
            ])
            .collect()
    }

    pub fn step(&mut self, i: &ReorderInputs) -> ReorderOutputs {
        let cfg = self.cfg.clone();
        let conf = self.csr.config().to_vec();
        let rt = runtime_from_csr(&cfg, &conf);
        let active = (conf[CSR_BANK as usize] & 1) as usize;
        let status = self.status();
        let rmw_ready = self.banks[active].ready(i.reset);
        let swept = self.banks[0].ready(i.reset);
        let F1Handover { in_ready, accept, transfer } =
            F1Handover::new(i.reset, self.started, self.f1.is_some(), rmw_ready, i.in_valid);
        let room = self.flush_fifo.level() + WALK_IN_FLIGHT <= self.flush_fifo.depth();
        let walk_issue = self.walk.issue(i.reset, transfer.then_some(active), room);
        let mut ops: [RmwInputs<Op>; 2] = Default::default();
        for (b, op) in ops.iter_mut().enumerate() {
            op.reset = i.reset;
            if transfer && b == active {
                let (p, index) = self.f1.expect("F1 holds a packet");
                (op.in_valid, op.in_index, op.in_payload) = (true, index, Op::Packet(p));
            } else if let Some(w) = walk_issue.filter(|w| b == w.bank) {
                (op.in_valid, op.in_index, op.in_payload) = (true, w.index, Op::Walk);
            }
        }
        // SM of both banks, with the settings read at SL.
        let rt_sm = self.rt_sl.unwrap_or(rt);
        let (mut result, mut evicted, mut flushed) = (None, None, None);
        for (bank, op) in self.banks.iter_mut().zip(&ops) {
            bank.step(op, |st| match st.payload {
                Op::Packet(p) => {
                    let (w, outcome, report) = decide(&cfg, &rt_sm, &st.old, (p.prefix, p.fp, p.seq, p.ts), p.force);
                    result = Some(outcome);
                    evicted = report.map(|r| r.pack(&cfg));
                    w
                }
                Op::Walk => {
                    flushed = st.old.report(Reason::Flushed).map(|r| r.pack(&cfg));
                    Some(Bucket::default())
                }
                Op::Idle => unreachable!("idle ops are never issued"),
            });
        }
        // S5 → FIFOs → the report port (evictions first).
        let ev = self.evict_fifo.step(&FifoInputs {
            reset: i.reset,
            in_valid: self.evict_reg.is_some(),
            in_data: self.evict_reg.unwrap_or_default(),
            out_ready: i.rep_ready,
        });
        let ev_valid = ev.is_some_and(|o| o.out_valid);
        let fl = self.flush_fifo.step(&FifoInputs {
            reset: i.reset,
            in_valid: self.flush_reg.is_some(),
            in_data: self.flush_reg.unwrap_or_default(),
            out_ready: i.rep_ready && !ev_valid,
        });
        let (rep_valid, rep_data) = match (ev, fl) {
            (Some(e), Some(_)) if e.out_valid => (Some(true), e.out_data),
            (Some(_), Some(f)) => (Some(f.out_valid), f.out_data),
            _ => (None, None),
        };
        let csr_out = self.csr.step(&CsrInputs::from_port(i, status));
        let res_out = self.result_reg;
        let was_started = self.started;
        // Edge.
        self.walk.edge(i.reset, rmw_ready == Some(true), self.flush_pending, active, walk_issue);
        self.rt_sl = Some(rt);
        if i.reset {
            self.f1 = None;
            self.result_reg = None;
            self.evict_reg = None;
            self.flush_reg = None;
            self.flush_pending = false;
            self.stats = SamplingStats::default();
            self.started = true;
        } else {
            if let Some(o) = self.result_reg {
                self.stats.count_decision(o);
            }
            self.stats.reports += self.evict_reg.is_some() as u64 + self.flush_reg.is_some() as u64;
            self.result_reg = result;
            self.evict_reg = evicted;
            self.flush_reg = flushed;
            self.flush_pending = i.csr_wr_en && i.csr_addr == CSR_FLUSH;
            if accept {
                self.stats.packets += 1;
                self.stats.data_packets += i.desc.data as u64;
            }
            if accept && i.desc.data {
                let d = &i.desc;
                let flow = d.flow & crate::common::mask128(super::FLOW_KEY_BITS);
                let index = match rt.index {
                    IndexBy::Prefix => self.index_hash.eval(rt.prefix(d.addr) as u128) as usize,
                    IndexBy::Flow => self.index_hash.eval(flow) as usize,
                    IndexBy::Port => i.in_index & (cfg.buckets() - 1),
                };
                let p = Packet {
                    prefix: rt.prefix(d.addr),
                    fp: self.fp_hash.eval(flow) as u32,
                    seq: d.seq,
                    ts: cfg.stored_ts(d.ts),
                    force: i.in_force,
                };
                self.f1 = Some((p, index));
            } else if transfer {
                self.f1 = None;
            }
        }
        ReorderOutputs {
            in_ready,
            swept,
            res_valid: was_started.then_some(res_out.is_some()),
            res_outcome: res_out.map(outcome_code),
            res_ooo: res_out.map(|o| o == Outcome::Hit { ooo: true }),
            rep_valid,
            rep_data: rep_data.filter(|_| rep_valid == Some(true)),
            csr_rd_valid: csr_out.as_ref().map(|o| o.rd_valid),
            csr_rd_data: csr_out.map(|o| o.rd_data),
        }
    }
}

/// The reordering core's latency paths ([`crate::common::latency`]): a packet accepted → its result (`res`).
pub fn latency(cfg: &ReorderConfig) -> Vec<Latency> {
    let Ok(mut m) = ReorderCycleModel::new(cfg) else { return vec![] };
    let idle = ReorderInputs { rep_ready: true, ..Default::default() };
    let desc = Descriptor { addr: 1, flow: 1, seq: 1, ts: 1, data: true };
    let offer = ReorderInputs { in_valid: true, desc, ..idle };
    let reset = ReorderInputs { reset: true, ..idle };
    let cycles =
        measure(|i| m.step(i), &reset, &idle, &[offer], |o| o.in_ready == Some(true), |o| o.res_valid == Some(true));
    vec![path("in", "res", "every packet's result", cycles)]
}
