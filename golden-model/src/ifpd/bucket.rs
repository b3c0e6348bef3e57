//! The bucket word and the per-packet decision over the `d` buckets of a packet.
//!
//! [`decide`] is a pure function of the `d` current words (as a modify stage sees them, every earlier
//! packet's write forwarded), the packet and the Bloom filter's answer: it says which rows are written, with
//! what, the estimate and the case. The transaction model ([`super::sketch`]) calls it with the words it
//! reads from its rows; a cycle model calls it from `MultiRmwModel::step`'s modify closure
//! ([`Decision::writes`] gives the per-row write list that closure returns).

use super::{Case3Rule, IfpdConfig, IfpdRuntime, Mode, MAX_ROWS};
use crate::common::Word;
use serde::{Deserialize, Serialize};

/// One bucket. IFPD mode: empty iff `fp == 0`; CM modes: empty iff `t == 0` (`fp` unused, written 0).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct Bucket {
    pub fp: u32,
    pub t: u32,
}

impl Bucket {
    /// Empty under `mode`'s encoding.
    pub fn is_empty(&self, mode: Mode) -> bool {
        match mode {
            Mode::Ifpd => self.fp == 0,
            Mode::Cm | Mode::CmBf => self.t == 0,
        }
    }
    /// The RAM word: t | fp << ts_bits.
    pub fn pack(&self, cfg: &IfpdConfig) -> u64 {
        (self.t as u64 & cfg.ts_max() as u64) | (self.fp as u64) << cfg.ts_bits
    }
    pub fn unpack(cfg: &IfpdConfig, w: u64) -> Bucket {
        Bucket { t: (w & cfg.ts_max() as u64) as u32, fp: (w >> cfg.ts_bits) as u32 }
    }
}

/// The model's RAM word is the bucket itself; the core keeps both fields in range.
impl Word for Bucket {
    fn masked(self, _bits: usize) -> Bucket {
        self
    }
}

/// What a packet brings to the decision: its fingerprint (never 0) and its stored time.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Packet {
    pub fp: u32,
    pub t: u32,
}

/// The packet travels a multi-row RMW pipeline to its modify stage as the payload.
impl Word for Packet {
    fn masked(self, _bits: usize) -> Packet {
        self
    }
}

/// The paper's three cases (the CM modes use two of them).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Case {
    /// Case 1: a row holds the fingerprint (CM modes: an estimate `t − t_min`).
    Match,
    /// Case 2: the first empty row takes the flow, `D = 0` (CM modes: judged a first packet, `D = 0`).
    Insert,
    /// Case 3: the bucket with the largest timestamp is replaced (IFPD mode only).
    Replace,
}

impl Case {
    /// The report's code: 1, 2, 3.
    pub fn code(self) -> u32 {
        match self {
            Case::Match => 1,
            Case::Insert => 2,
            Case::Replace => 3,
        }
    }
    pub fn from_code(c: u32) -> Option<Case> {
        match c {
            1 => Some(Case::Match),
            2 => Some(Case::Insert),
            3 => Some(Case::Replace),
            _ => None,
        }
    }
}

/// A packet's decision.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Decision {
    /// IFPD: the one row written; CM modes: the row holding `t_min` (every row is written).
    pub row: usize,
    /// Every row written (CM modes) instead of `row` alone.
    pub all_rows: bool,
    /// The word written.
    pub new: Bucket,
    /// The estimate in stored units.
    pub d_est: u32,
    pub case: Case,
}

impl Decision {
    /// Whether row `r` is written.
    pub fn writes_row(&self, r: usize) -> bool {
        self.all_rows || r == self.row
    }
    /// The per-row writes of a multi-row RMW's modify stage (`Some(new)` where written).
    pub fn writes(&self, rows: usize) -> Vec<Option<Bucket>> {
        (0..rows).map(|r| self.writes_row(r).then_some(self.new)).collect()
    }
    /// Whether the packet is reported.
    pub fn reported(&self, rt: &IfpdRuntime) -> bool {
        self.d_est >= rt.threshold
    }
}

/// The row whose bucket is most recent (smallest age `now − t`, i.e. the largest timestamp in wrap-correct
/// order; `oldest` flips it to the largest age, i.e. the smallest timestamp), ties to the lowest row, and
/// that bucket's age (the estimate: returned with the row, so the caller does not index `old` again by a
/// row only known at run time).
#[inline(always)]
fn extreme_row<const D: usize>(age: impl Fn(u32) -> u32, old: &[Bucket; D], oldest: bool) -> (usize, u32) {
    let (mut best, mut m) = (0, age(old[0].t));
    for (r, b) in old.iter().enumerate().skip(1) {
        let a = age(b.t);
        if if oldest { a > m } else { a < m } {
            (best, m) = (r, a);
        }
    }
    (best, m)
}

/// Bit `r` set iff `yes(v[r])`.
#[inline(always)]
fn row_mask<const D: usize>(v: &[u32; D], yes: impl Fn(u32) -> bool) -> u32 {
    v.iter().enumerate().fold(0, |m, (r, &x)| m | (yes(x) as u32) << r)
}

/// The decision of packet `p` on its buckets `old` (one per row, in row order; 1 to [`MAX_ROWS`] rows).
/// `bf_first`: the Bloom filter found the flow new (CM-BF; ignored in the other modes). The CM modes never
/// read `p.fp`.
#[inline]
pub fn decide(cfg: &IfpdConfig, rt: &IfpdRuntime, old: &[Bucket], p: Packet, bf_first: bool) -> Decision {
    // The rows' count as a constant of the decision (see `decide_rows`).
    fn fixed<const D: usize>(old: &[Bucket]) -> &[Bucket; D] {
        old.try_into().expect("the match below gives the length")
    }
    match old.len() {
        1 => decide_rows(cfg, rt, fixed::<1>(old), p, bf_first),
        2 => decide_rows(cfg, rt, fixed::<2>(old), p, bf_first),
        3 => decide_rows(cfg, rt, fixed::<3>(old), p, bf_first),
        4 => decide_rows(cfg, rt, fixed::<4>(old), p, bf_first),
        5 => decide_rows(cfg, rt, fixed::<5>(old), p, bf_first),
        6 => decide_rows(cfg, rt, fixed::<6>(old), p, bf_first),
        7 => decide_rows(cfg, rt, fixed::<7>(old), p, bf_first),
        8 => decide_rows(cfg, rt, fixed::<8>(old), p, bf_first),
        n => panic!("a decision over {n} rows: a core has 1..={MAX_ROWS}"),
    }
}

/// [`decide`] over `D` rows, `D` a constant: the per-row loops are unrolled and index without bounds checks
/// (the transaction model's form, compiled once per row count).
#[inline(always)]
pub(crate) fn decide_rows<const D: usize>(
    cfg: &IfpdConfig,
    rt: &IfpdRuntime,
    old: &[Bucket; D],
    p: Packet,
    bf_first: bool,
) -> Decision {
    let ts_max = cfg.ts_max();
    let age = |then: u32| p.t.wrapping_sub(then) & ts_max;
    match rt.mode {
        Mode::Ifpd => {
            // Algorithm 2. The row scan ("the first row holding `fp`, else the first empty row", see the
            // module docs of [`super`]) is taken on all rows at once: bit `r` of `holds` says row `r` holds
            // `fp`, of `takes` that it holds `fp` or is empty, and the lowest bit of `takes` is the row — the
            // decision of a scan stopping there, without a branch per row (which row decides varies from
            // packet to packet, so such branches are often mispredicted).
            let new = Bucket { fp: p.fp, t: p.t };
            let fps = old.map(|b| b.fp);
            let holds = row_mask(&fps, |f| f == p.fp);
            let takes = holds | row_mask(&fps, |f| f == 0);
            if takes != 0 {
                let row = takes.trailing_zeros() as usize;
                let (d_est, case) =
                    if holds >> row & 1 == 1 { (age(old[row].t), Case::Match) } else { (0, Case::Insert) };
                return Decision { row, all_rows: false, new, d_est, case };
            }
            let (row, newest) = extreme_row(age, old, false);
            let d_est = match rt.case3 {
                Case3Rule::Estimate => newest,
                Case3Rule::Zero => 0,
            };
            Decision { row, all_rows: false, new, d_est, case: Case::Replace }
        }
        Mode::Cm | Mode::CmBf => {
            // Algorithm 1: every row written with `t` (1 for a `t` of 0, the empty mark), the estimate against
            // the oldest of the `d` timestamps unless the flow is judged new (an empty row, or CM-BF's filter).
            // "Some row empty" is folded over all rows rather than a scan stopping at the first (no branch per
            // row: which row is empty, if any, varies from packet to packet).
            let empty = old.iter().fold(false, |e, b| e | (b.t == 0));
            let first = empty | (rt.mode == Mode::CmBf && bf_first);
            let (row, oldest) = extreme_row(age, old, true);
            let new = Bucket { fp: 0, t: p.t.max(1) };
            let (d_est, case) = if first { (0, Case::Insert) } else { (oldest, Case::Match) };
            Decision { row: if first { 0 } else { row }, all_rows: true, new, d_est, case }
        }
    }
}
