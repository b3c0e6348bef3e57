//! The front end, IN → D1 → D1m → D2 (RTL `hdl::finecomb::front`): the input handshake, the digest and
//! per bank the sampling decision and bucket index ([`Front`], the registers inside the core model), and
//! a stand-alone model of that stage ([`FrontModel`]) for its own co-simulation top.

use super::super::{bucket_index_16x16, Descriptor, Digest, StashEntry, MAX_BANKS};
use crate::common::config::TIMESTAMP_BITS;
use crate::common::mask128;

/// The descriptor in D1: a packet with its digest (the hash units' output) and 48-bit timestamp, or a
/// marker.
#[derive(Debug, Clone, Copy)]
pub enum StageD1 {
    Packet { digest: u64, ts: u64 },
    Marker { start: bool, end: bool },
}

/// The descriptor in D2: a packet with, per bank, its sampling decision and bucket index, or a marker.
/// (The RTL registers the two partial products at D1m and adds them at D2; the model registers their sum,
/// [`bucket_index_16x16`] of the M_b read at D1m.)
#[derive(Debug, Clone, Copy)]
pub enum StageD2 {
    Packet { entry: StashEntry, sampled: [bool; MAX_BANKS], index: [usize; MAX_BANKS] },
    Marker { start: bool, end: bool },
}

/// The front end's registers: the descriptor in D1, D1m (the digest registered after the finaliser) and
/// D2. `Front::default()` is the state after reset.
#[derive(Debug, Clone, Copy, Default)]
pub struct Front {
    pub d1: Option<StageD1>,
    pub d1m: Option<StageD1>,
    pub d2: Option<StageD2>,
}

impl Front {
    /// A marker is in D1, D1m or D2.
    pub fn marker_in_flight(&self) -> bool {
        matches!(self.d1, Some(StageD1::Marker { .. }))
            || matches!(self.d1m, Some(StageD1::Marker { .. }))
            || matches!(self.d2, Some(StageD2::Marker { .. }))
    }
    /// `in_ready` during this cycle: `ready_q` is last cycle's AND of the bucket pipelines' ready (`None`
    /// before the first reset), `idle` whether the readout engine is idle, `desc` the descriptor offered.
    pub fn in_ready(&self, reset: bool, ready_q: Option<bool>, idle: bool, desc: Option<Descriptor>) -> Option<bool> {
        let marker_ok = idle && !self.marker_in_flight();
        match reset {
            true => Some(false),
            false => ready_q.map(|q| q && (marker_ok || !desc.is_some_and(|d| d.is_marker()))),
        }
    }
    /// The registers after the edge: `accepted` enters D1; D1m → D2 with the thresholds and bucket counts
    /// M_b of the `nb` banks as the CSRs hold them in this cycle.
    pub fn advance(
        &self,
        digest: &Digest,
        accepted: Option<Descriptor>,
        nb: usize,
        thresholds: &[u32; MAX_BANKS],
        m: &[usize; MAX_BANKS],
    ) -> Front {
        Front {
            d2: self.d1m.map(|d| match d {
                StageD1::Packet { digest, ts } => StageD2::Packet {
                    entry: StashEntry { digest, ts },
                    sampled: std::array::from_fn(|b| b < nb && Digest::sampled(digest, thresholds[b])),
                    index: std::array::from_fn(|b| bucket_index_16x16(digest, m[b])),
                },
                StageD1::Marker { start, end } => StageD2::Marker { start, end },
            }),
            d1m: self.d1,
            d1: accepted.map(|d| match d.is_marker() {
                true => StageD1::Marker { start: d.start, end: d.end },
                false => StageD1::Packet { digest: digest.of(d.key), ts: d.timestamp & mask128(TIMESTAMP_BITS) as u64 },
            }),
        }
    }
}

/// One cycle's inputs of the front end on its own (`hdl::finecomb::front::FcFrontTop`: one bank).
#[derive(Debug, Clone, Copy, Default)]
pub struct FrontInputs {
    pub reset: bool,
    pub in_valid: bool,
    pub desc: Option<Descriptor>,
    /// Every bucket pipeline is ready (registered into `ready_q`).
    pub pipes_ready: bool,
    /// The readout engine is idle.
    pub idle: bool,
    /// The bank's threshold and bucket count M (low 16 bits used).
    pub threshold: u32,
    pub buckets: usize,
}

/// The front end's outputs during one cycle: `in_ready` (`None` before the first reset), the digest at
/// D1m (a packet's) and the descriptor at D2.
#[derive(Debug, Clone, Copy)]
pub struct FrontOutputs {
    /// The registers hold defined values (a reset has passed; before, only `in_ready` may be defined).
    pub defined: bool,
    pub in_ready: Option<bool>,
    pub d1m_digest: Option<u64>,
    pub d2: Option<StageD2>,
}

/// The front end with one bank, cycle by cycle (the co-simulation reference of `finecomb_front`).
#[derive(Debug, Clone)]
pub struct FrontModel {
    digest: Digest,
    front: Front,
    ready_q: Option<bool>,
    started: bool,
}

impl Default for FrontModel {
    fn default() -> Self {
        FrontModel { digest: Digest::new(), front: Front::default(), ready_q: None, started: false }
    }
}

impl FrontModel {
    /// One cycle: the outputs during it, then the edge. Before the first reset every output is undefined.
    pub fn step(&mut self, i: &FrontInputs) -> FrontOutputs {
        let desc = i.desc.filter(|_| i.in_valid);
        let in_ready = self.front.in_ready(i.reset, self.ready_q, i.idle, desc);
        let out = FrontOutputs {
            defined: self.started,
            in_ready,
            d1m_digest: match self.front.d1m {
                Some(StageD1::Packet { digest, .. }) => Some(digest),
                _ => None,
            },
            d2: self.front.d2,
        };
        let (thresholds, m) = ([i.threshold; MAX_BANKS], [i.buckets & 0xffff; MAX_BANKS]);
        self.front = match i.reset {
            true => Front::default(),
            false => self.front.advance(&self.digest, desc.filter(|_| in_ready == Some(true)), 1, &thresholds, &m),
        };
        if i.reset || self.ready_q.is_some() {
            self.ready_q = Some(i.pipes_ready);
        }
        self.started |= i.reset;
        out
    }
}
