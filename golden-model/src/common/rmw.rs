//! Read-modify-write pipeline with forwarding: the one hazard-handling pattern every table core uses.
//!
//! A packet accepted in cycle `t` (stage S0) reads its word; the core sees it in stage S2 (cycle `t+2`)
//! as `old`, decides `new` (and whether to write) combinationally, and the write lands in S3 (`t+3`).
//! Semantically every packet sees the table exactly as if all earlier packets had finished: the RTL
//! forwards the S3, S4 and S5 write registers for packets to the same index 1, 2 and 3 cycles apart, and
//! the RAM itself serves anything older. This model is that sequential semantics plus the timing:
//!
//! - `ready` is false in a reset cycle, during the RAM's reset sweep (`depth` cycles), and — single-port
//!   only — in every other cycle (II = 2: reads in even phases, writes in odd ones).
//! - a reset drops every packet in flight; nothing is presented in a reset cycle.
//! - before the first reset, nothing is defined (`ready` is `None`).

use super::sram::RamPorts;
use super::Word;

/// Pipeline depth from acceptance to the modify stage S2.
pub const RMW_MODIFY_STAGE: usize = 2;

/// One cycle's inputs; `P` is the payload that travels with the packet to the modify stage.
#[derive(Debug, Clone, Copy, Default)]
pub struct RmwInputs<P = u128> {
    pub reset: bool,
    pub in_valid: bool,
    pub in_index: usize,
    pub in_payload: P,
}

/// What the modify stage presents to the core in one cycle.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RmwStage<T = u128, P = u128> {
    pub index: usize,
    pub payload: P,
    pub old: T,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RmwOutputs<T = u128, P = u128> {
    pub ready: Option<bool>,
    pub stage: Option<RmwStage<T, P>>,
}

/// The pipeline over a table of `T` words (written words are truncated to `width` bits with
/// [`Word::masked`]); `P` is the payload type.
#[derive(Debug, Clone)]
pub struct RmwModel<T: Word = u128, P: Word = u128> {
    pub ports: RamPorts,
    pub mem: Vec<T>,
    width: usize,
    /// Sweep cycles left; `None` before the first reset.
    busy_left: Option<usize>,
    /// Single-port phase (false = even = may accept).
    phase: bool,
    /// Packets in S1 and S2.
    pipe: [Option<(usize, P)>; RMW_MODIFY_STAGE],
}

impl<T: Word, P: Word> RmwModel<T, P> {
    pub fn new(ports: RamPorts, addr_bits: usize, width: usize) -> Self {
        RmwModel {
            ports,
            mem: vec![T::default(); 1 << addr_bits],
            width,
            busy_left: None,
            phase: false,
            pipe: [None; RMW_MODIFY_STAGE],
        }
    }

    /// `in_ready` during this cycle (what [`RmwModel::step`] will report), for cores whose own input
    /// handshake depends on it.
    pub fn ready(&self, reset: bool) -> Option<bool> {
        if reset {
            return Some(false);
        }
        self.busy_left.map(|b| b == 0 && (self.ports == RamPorts::Dual || !self.phase))
    }

    /// The packet at the modify stage in this cycle and the word it meets (what [`RmwModel::step`] will
    /// present), without clocking.
    pub fn peek_stage(&self) -> Option<RmwStage<T, P>> {
        self.busy_left?;
        self.pipe[RMW_MODIFY_STAGE - 1].map(|(index, payload)| RmwStage { index, payload, old: self.mem[index] })
    }

    /// One cycle. `modify(stage)` is the core's combinational decision: `Some(new)` writes `new`.
    pub fn step(&mut self, i: &RmwInputs<P>, modify: impl FnOnce(&RmwStage<T, P>) -> Option<T>) -> RmwOutputs<T, P> {
        if i.reset {
            self.busy_left = Some(self.mem.len());
            self.phase = false;
            self.pipe = [None; RMW_MODIFY_STAGE];
            self.mem.iter_mut().for_each(|w| *w = T::default());
            return RmwOutputs { ready: Some(false), stage: None };
        }
        let (Some(busy_left), Some(ready)) = (self.busy_left, self.ready(false)) else {
            return RmwOutputs { ready: None, stage: None };
        };
        let stage = self.peek_stage();
        if let Some(st) = &stage {
            if let Some(new) = modify(st) {
                self.mem[st.index] = new.masked(self.width);
            }
        }
        self.pipe.rotate_right(1);
        self.pipe[0] = (i.in_valid && ready).then_some((i.in_index % self.mem.len(), i.in_payload));
        self.busy_left = Some(busy_left.saturating_sub(1));
        self.phase = !self.phase;
        RmwOutputs { ready: Some(ready), stage }
    }
}
