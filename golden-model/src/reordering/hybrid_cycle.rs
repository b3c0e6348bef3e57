//! Cycle model of the hybrid core (`hdl::reordering::hybrid::HybridCore`): the heavy-hitter core, the side
//! table and flow sampling on one descriptor stream — three cores wired together, each exactly its own
//! cycle model ([`HhCycleModel`], and [`ReorderCycleModel`] twice: the side table is a flow-sampling core
//! in [`IndexBy::Port`](super::IndexBy::Port) mode, see [`super::hybrid`]).
//!
//! | cycle | what happens |
//! |---|---|
//! | t   | descriptor accepted (`in_valid && in_ready`, `in_ready` = all three cores `swept` at t−1: registered, to keep their handshakes apart); a data segment enters the heavy-hitter core (key = flow key); every accepted descriptor enters the delay line, with the flow's heavy-hitter index hash (its unit loads at t) |
//! | t+7 | the heavy-hitter result port shows the packet ([`RESULT_LATENCY`]) as the delay line's last stage shows the descriptor: rejected or not data → flow sampling's input; hit → the side table's input with `in_force` resident, insert or admission → replace, `in_index` = [`side_index`]`(row, index of that row)` |
//! | t+7 … | that core's own pipeline (its acceptance is the hybrid's t+7) |
//!
//! No core holds a descriptor back once its reset sweep is over (F1 passes its packet on at once; before,
//! F1 takes one and holds it), and the hybrid accepts nothing before all three sweeps are over, so the
//! heavy-hitter result comes exactly [`RESULT_LATENCY`] cycles after acceptance and the delay line needs
//! no handshake. **Reports**: the side table's report port first, then flow sampling's (each of them shows
//! its eviction FIFO before its flush FIFO). The heavy-hitter records (its own readout) carry no
//! reordering: they are read and dropped inside the core.
//!
//! **CSR**: three ports, one per core, each with that core's own register map (`smp_csr_*` flow sampling,
//! `side_csr_*` the side table, `hh_csr_*` the heavy-hitter core). A measurement period ends with the
//! control plane's sequence on all three (input held a few cycles until the pipeline is quiet): toggle
//! every `bank`, write flow sampling's and the side table's `flush` and the heavy-hitter core's `dump`
//! (its walk clears the frozen bank), poll their busy registers. The side table must run with
//! `options` bit 2 (port indexing): [`side_csr_writes`].

use super::cycle::{csr_writes, ReorderCycleModel, ReorderInputs, ReorderOutputs, CSR_BANK, CSR_FLUSH};
use super::hybrid::{side_config, side_force, side_index, side_runtime};
use super::sampling::Force;
use super::{Descriptor, ReorderConfig, ReorderRuntime, FLOW_KEY_BITS};
use crate::common::config::ConfigError;
use crate::common::csr::{CsrPort, CsrRequest};
use crate::common::hash::XorHash;
use crate::common::latency::{measure, path, Latency};
use crate::heavy_hitters::cycle::{
    csr_writes as hh_csr_writes, HhCycleModel, HhInputs, HhOutputs, CSR_BANK as HH_BANK, CSR_DUMP, RESULT_LATENCY,
};
use crate::heavy_hitters::{HhConfig, HhRuntime, Outcome as HhOutcome};

/// Generation-time shape of a hybrid core: flow sampling's and the heavy-hitter table's (the side table's
/// follows: [`side_config`]).
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct HybridConfig {
    pub sampling: ReorderConfig,
    pub hh: HhConfig,
}

impl HybridConfig {
    pub fn check(&self) -> Result<(), ConfigError> {
        self.sampling.check()?;
        self.hh.check()?;
        if self.hh.key_bits != FLOW_KEY_BITS {
            return Err(ConfigError(format!(
                "the hybrid's heavy-hitter table keys on the {FLOW_KEY_BITS}-bit flow key, not {} bits",
                self.hh.key_bits
            )));
        }
        self.side().check()
    }
    pub fn side(&self) -> ReorderConfig {
        side_config(&self.sampling, &self.hh)
    }
}

/// The side table's setting writes for flow-sampling settings `rt` (its port indexing included).
pub fn side_csr_writes(rt: &ReorderRuntime) -> Vec<(u8, u32)> {
    csr_writes(&side_runtime(rt))
}

/// The setting writes of the three CSR ports ([`HybridInputs::csr`] order) for flow-sampling settings `rt`
/// and heavy-hitter settings `hh` (None: the exact admission rule, which has no hardware).
pub fn hybrid_csr_writes(rt: &ReorderRuntime, hh: &HhRuntime) -> Option<[Vec<(u8, u32)>; 3]> {
    Some([csr_writes(rt), side_csr_writes(rt), hh_csr_writes(hh)?])
}

/// The writes that end a measurement period on the three ports: every `bank` set to `bank`, then flow
/// sampling's and the side table's `flush` and the heavy-hitter core's `dump`.
pub fn period_end_writes(bank: u32) -> [Vec<(u8, u32)>; 3] {
    [
        vec![(CSR_BANK, bank), (CSR_FLUSH, 1)],
        vec![(CSR_BANK, bank), (CSR_FLUSH, 1)],
        vec![(HH_BANK, bank), (CSR_DUMP, 1)],
    ]
}

/// One cycle's inputs. CSR ports: `csr[0]` flow sampling, `csr[1]` the side table, `csr[2]` heavy hitters
/// (their `reset` is ignored: the core's is `reset`).
#[derive(Debug, Clone, Copy, Default)]
pub struct HybridInputs {
    pub reset: bool,
    pub in_valid: bool,
    pub desc: Descriptor,
    pub rep_ready: bool,
    pub csr: [CsrRequest; 3],
}

/// One cycle's outputs, named as the RTL's ports: the input handshake, the three cores' result ports, the
/// merged report port, the three CSR answers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct HybridOutputs {
    pub in_ready: Option<bool>,
    pub hh_res_valid: Option<bool>,
    pub hh_res_outcome: Option<u64>,
    pub hh_res_row: Option<u64>,
    pub side_res_valid: Option<bool>,
    pub side_res_outcome: Option<u64>,
    pub side_res_ooo: Option<bool>,
    pub smp_res_valid: Option<bool>,
    pub smp_res_outcome: Option<u64>,
    pub smp_res_ooo: Option<bool>,
    pub rep_valid: Option<bool>,
    pub rep_data: Option<u128>,
    pub smp_csr_rd_valid: Option<bool>,
    pub smp_csr_rd_data: Option<u32>,
    pub side_csr_rd_valid: Option<bool>,
    pub side_csr_rd_data: Option<u32>,
    pub hh_csr_rd_valid: Option<bool>,
    pub hh_csr_rd_data: Option<u32>,
}

impl HybridOutputs {
    fn new(hh: &HhOutputs, side: &ReorderOutputs, smp: &ReorderOutputs) -> Self {
        HybridOutputs {
            in_ready: None,
            hh_res_valid: hh.res_valid,
            hh_res_outcome: hh.res_outcome,
            hh_res_row: hh.res_row,
            side_res_valid: side.res_valid,
            side_res_outcome: side.res_outcome,
            side_res_ooo: side.res_ooo,
            smp_res_valid: smp.res_valid,
            smp_res_outcome: smp.res_outcome,
            smp_res_ooo: smp.res_ooo,
            rep_valid: None,
            rep_data: None,
            smp_csr_rd_valid: smp.csr_rd_valid,
            smp_csr_rd_data: smp.csr_rd_data,
            side_csr_rd_valid: side.csr_rd_valid,
            side_csr_rd_data: side.csr_rd_data,
            hh_csr_rd_valid: hh.csr_rd_valid,
            hh_csr_rd_data: hh.csr_rd_data,
        }
    }
    /// The heavy-hitter result port, when it shows a packet: (outcome code, row).
    pub fn hh_result(&self) -> Option<(u64, u64)> {
        (self.hh_res_valid == Some(true)).then(|| (self.hh_res_outcome.unwrap(), self.hh_res_row.unwrap()))
    }
    /// The side table's result port: (outcome code, out of order).
    pub fn side_result(&self) -> Option<(u64, bool)> {
        (self.side_res_valid == Some(true)).then(|| (self.side_res_outcome.unwrap(), self.side_res_ooo.unwrap()))
    }
    /// Flow sampling's result port: (outcome code, out of order).
    pub fn smp_result(&self) -> Option<(u64, bool)> {
        (self.smp_res_valid == Some(true)).then(|| (self.smp_res_outcome.unwrap(), self.smp_res_ooo.unwrap()))
    }
}

/// A descriptor in the delay line.
#[derive(Debug, Clone, Copy)]
struct Pending {
    desc: Descriptor,
    /// The flow's heavy-hitter index hash (all rows).
    hash: u64,
}

pub struct HybridCycleModel {
    pub cfg: HybridConfig,
    pub hh: HhCycleModel,
    pub side: ReorderCycleModel,
    pub smp: ReorderCycleModel,
    hh_hash: XorHash,
    /// All three cores past their reset sweep in the cycle before (None before the first reset).
    ready_q: Option<bool>,
    line: [Option<Pending>; RESULT_LATENCY],
}

/// A sub-core's CSR pins from a request.
impl HybridCycleModel {
    pub fn new(cfg: &HybridConfig) -> Result<Self, ConfigError> {
        cfg.check()?;
        Ok(HybridCycleModel {
            cfg: cfg.clone(),
            hh: HhCycleModel::new(&cfg.hh)?,
            side: ReorderCycleModel::new(&cfg.side())?,
            smp: ReorderCycleModel::new(&cfg.sampling)?,
            hh_hash: cfg.hh.hash()?,
            ready_q: None,
            line: [None; RESULT_LATENCY],
        })
    }

    pub fn step(&mut self, i: &HybridInputs) -> HybridOutputs {
        let in_ready = if i.reset { Some(false) } else { self.ready_q };
        let accept = in_ready == Some(true) && i.in_valid;
        let mut hi = HhInputs { reset: i.reset, rec_ready: true, ..Default::default() };
        (hi.in_valid, hi.in_key) = (accept && i.desc.data, i.desc.flow);
        (hi.csr_addr, hi.csr_wr_en, hi.csr_wr_data, hi.csr_rd_en) = i.csr[2].csr_request();
        let ho = self.hh.step(&hi);
        // The delay line's last stage meets the heavy-hitter result of its packet.
        let mut side_in = ReorderInputs { reset: i.reset, rep_ready: i.rep_ready, ..Default::default() };
        let mut smp_in = side_in;
        if let Some(p) = self.line[RESULT_LATENCY - 1].filter(|_| !i.reset) {
            let heavy = match p.desc.data {
                true => {
                    let (code, row, _) = ho.result().expect("a data packet's result at the delay line's end");
                    side_force(hh_outcome(code, row as usize))
                }
                false => None,
            };
            match heavy {
                Some((row, force)) => {
                    let index = side_index(&self.cfg.hh, row, self.cfg.hh.index(p.hash, row));
                    (side_in.in_valid, side_in.desc, side_in.in_index, side_in.in_force) = (true, p.desc, index, force);
                }
                None => (smp_in.in_valid, smp_in.desc, smp_in.in_force) = (true, p.desc, Force::None),
            }
        }
        (side_in.csr_addr, side_in.csr_wr_en, side_in.csr_wr_data, side_in.csr_rd_en) = i.csr[1].csr_request();
        (smp_in.csr_addr, smp_in.csr_wr_en, smp_in.csr_wr_data, smp_in.csr_rd_en) = i.csr[0].csr_request();
        let so = self.side.step(&side_in);
        smp_in.rep_ready = i.rep_ready && so.rep_valid != Some(true);
        let mo = self.smp.step(&smp_in);
        for (inputs, outputs) in [(&side_in, &so), (&smp_in, &mo)] {
            assert!(
                !inputs.in_valid || outputs.in_ready == Some(true),
                "a sampling core refused a descriptor from the delay line"
            );
        }
        let (rep_valid, rep_data) = match (so.rep_valid, mo.rep_valid) {
            (Some(true), _) => (Some(true), so.rep_data),
            (Some(false), Some(v)) => (Some(v), mo.rep_data),
            _ => (None, None),
        };
        // Edge: the registered readiness of the three cores, the delay line.
        self.ready_q = match [ho.swept, so.swept, mo.swept] {
            _ if i.reset => Some(false),
            [Some(a), Some(b), Some(c)] => Some(a && b && c),
            _ => None,
        };
        self.line.rotate_right(1);
        self.line[0] = accept.then(|| Pending { desc: i.desc, hash: self.hh_hash.eval(i.desc.flow) });
        if i.reset {
            self.line = [None; RESULT_LATENCY];
        }
        HybridOutputs { in_ready, rep_valid, rep_data, ..HybridOutputs::new(&ho, &so, &mo) }
    }
}

/// The heavy-hitter outcome of a result-port code (`golden::heavy_hitters::cycle::outcome_code`).
fn hh_outcome(code: u64, row: usize) -> HhOutcome {
    match code {
        1 => HhOutcome::Hit { row },
        2 => HhOutcome::Insert { row },
        3 => HhOutcome::Admit { row },
        _ => HhOutcome::Reject,
    }
}

/// The hybrid's latency paths ([`crate::common::latency`]): a packet accepted → its heavy-hitter result
/// (`hh_res`) and its side-table result (`side_res`), for a flow the heavy hitters admit. (A packet reaches
/// flow sampling, `smp_res`, only when the heavy-hitter table rejects its flow: not measured here.)
pub fn latency(cfg: &HybridConfig) -> Vec<Latency> {
    let idle = HybridInputs { rep_ready: true, ..Default::default() };
    let reset = HybridInputs { reset: true, ..idle };
    let desc = Descriptor { addr: 1, flow: 1, seq: 1, ts: 1, data: true };
    let offer = HybridInputs { in_valid: true, desc, ..idle };
    let run = |out: fn(&HybridOutputs) -> bool| {
        let mut m = HybridCycleModel::new(cfg).ok()?;
        measure(|i| m.step(i), &reset, &idle, std::slice::from_ref(&offer), |o| o.in_ready == Some(true), out)
    };
    let paths = [
        path(
            "in",
            "hh_res",
            "every packet's heavy-hitter result (a flow they admit)",
            run(|o| o.hh_res_valid == Some(true)),
        ),
        path(
            "in",
            "side_res",
            "the side-table result of a packet the heavy hitters hold",
            run(|o| o.side_res_valid == Some(true)),
        ),
    ];
    paths.to_vec()
}
