//! Multi-row read-modify-write: `D` hash-indexed rows decided together, one packet per cycle.
//!
//! Cores that keep one bucket per row for a packet and decide on all of them at once (d-way heavy hitters,
//! the IFPD sketch) need, at the modify stage, every row's word *as if every earlier packet had finished*,
//! and may write any subset of the rows. Each row is a [`super::rmw::RmwModel`] of its own (its own RAM,
//! its own forwarding on its own index); all rows take the packet in the same cycle, so they stay in
//! lockstep and a packet meets its `D` words in one modify stage. A packet 1–3 cycles behind another meets
//! that packet's writes in every row where the two share an index (and only there): the per-row forwarding
//! of the single-row pipeline is exactly the cross-row hazard scheme, so it is not written twice.
//!
//! The RTL is `hdl::common::multi_rmw::MultiRmw` (`D` `RmwPipeline`s sharing one input handshake);
//! timing as in [`super::rmw`]: accept at S0, modify at SM (M = 2, or 4 with [`RamTiming::Registered`];
//! one more per look-ahead level, [`MultiRmwModel::with_lookahead`]).

use super::config::ConfigError;
use super::rmw::{RmwInputs, RmwModel, RmwStage};
use super::sram::{RamPorts, RamTiming};
use super::Word;

/// One cycle's inputs: one index per row, one payload for all rows.
#[derive(Debug, Clone, Default)]
pub struct MultiRmwInputs<P = u128> {
    pub reset: bool,
    pub in_valid: bool,
    pub in_index: Vec<usize>,
    pub in_payload: P,
}

/// What the modify stage presents: the payload and, per row, its index and current word.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MultiRmwStage<T = u128, P = u128> {
    pub payload: P,
    pub index: Vec<usize>,
    pub old: Vec<T>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MultiRmwOutputs<T = u128, P = u128> {
    pub ready: Option<bool>,
    pub stage: Option<MultiRmwStage<T, P>>,
}

/// `rows` rows of `2^addr_bits` words of `width` bits.
#[derive(Debug, Clone)]
pub struct MultiRmwModel<T: Word = u128, P: Word = u128> {
    pub rows: Vec<RmwModel<T, P>>,
}

impl<T: Word, P: Word> MultiRmwModel<T, P> {
    pub fn new(ports: RamPorts, rows: usize, addr_bits: usize, width: usize) -> Self {
        Self::with_timing(ports, RamTiming::Short, rows, addr_bits, width)
    }

    pub fn with_timing(ports: RamPorts, timing: RamTiming, rows: usize, addr_bits: usize, width: usize) -> Self {
        MultiRmwModel { rows: (0..rows).map(|_| RmwModel::with_timing(ports, timing, addr_bits, width)).collect() }
    }

    /// With the rows' `lookahead` look-ahead levels ([`RmwModel::with_lookahead`]).
    pub fn with_lookahead(
        ports: RamPorts,
        timing: RamTiming,
        lookahead: usize,
        rows: usize,
        addr_bits: usize,
        width: usize,
    ) -> Result<Self, ConfigError> {
        let rows = (0..rows)
            .map(|_| RmwModel::with_lookahead(ports, timing, lookahead, addr_bits, width))
            .collect::<Result<_, _>>()?;
        Ok(MultiRmwModel { rows })
    }

    /// `in_ready` during this cycle (all rows agree: they share reset, sweep length and phase).
    pub fn ready(&self, reset: bool) -> Option<bool> {
        self.rows[0].ready(reset)
    }

    /// Row `r`'s table.
    pub fn mem(&self, r: usize) -> &[T] {
        &self.rows[r].mem
    }

    /// One cycle. `modify(stage)` is the core's combinational decision: one entry per row, `Some(new)`
    /// writes `new` into that row's bucket.
    pub fn step(
        &mut self,
        i: &MultiRmwInputs<P>,
        modify: impl FnOnce(&MultiRmwStage<T, P>) -> Vec<Option<T>>,
    ) -> MultiRmwOutputs<T, P> {
        assert!(!i.in_valid || i.in_index.len() == self.rows.len(), "one index per row");
        // The modify stage is the same for every row: gather the rows' stages first (they do not depend on
        // this cycle's writes), decide once, then clock every row with its answer.
        let stages: Vec<Option<RmwStage<T, P>>> = self.rows.iter().map(|r| r.peek_stage()).collect();
        let stage = stages.iter().all(|s| s.is_some()).then(|| MultiRmwStage {
            payload: stages[0].expect("row 0 has the packet").payload,
            index: stages.iter().map(|s| s.expect("every row has it").index).collect(),
            old: stages.iter().map(|s| s.expect("every row has it").old).collect(),
        });
        debug_assert!(stage.is_some() || stages.iter().all(|s| s.is_none()), "rows out of lockstep");
        let mut writes = match (&stage, i.reset) {
            (Some(st), false) => modify(st),
            _ => vec![None; self.rows.len()],
        };
        writes.resize(self.rows.len(), None);
        let mut ready = None;
        for (r, (row, write)) in self.rows.iter_mut().zip(writes).enumerate() {
            let inp = RmwInputs {
                reset: i.reset,
                in_valid: i.in_valid,
                in_index: i.in_index.get(r).copied().unwrap_or(0),
                in_payload: i.in_payload,
            };
            ready = row.step(&inp, |_| write).ready;
        }
        MultiRmwOutputs { ready, stage: if i.reset { None } else { stage } }
    }
}
