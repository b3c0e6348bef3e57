//! A naive implementation of the paper's pseudo-code, for cross-checking the model: empty buckets are
//! `None` (no sentinel encodings), times are absolute units in `u64` (no wrap, no base arithmetic), "largest
//! timestamp" and `t_min` compare raw times, hashes are evaluated bit by bit from their masks, the Bloom
//! filter is a vector of `bool`s and indices are reduced in 128-bit arithmetic. It agrees with the model
//! wherever the model's encodings are exact: times at least one unit after the base and no wrap.

use super::{Case, Case3Rule, IfpdConfig, IfpdRuntime, Mode};
use crate::common::hash::XorHash;

pub struct Reference {
    cfg: IfpdConfig,
    rt: IfpdRuntime,
    rows: Vec<Vec<Option<(u32, u64)>>>,
    seen: Vec<Vec<bool>>,
    row_hash: Vec<XorHash>,
    fp_hash: XorHash,
    bf_hash: Vec<XorHash>,
}

/// What the reference says about one packet: case, row, estimate (units), reported.
pub type RefOutcome = (Case, usize, u64, bool);

impl Reference {
    pub fn new(cfg: &IfpdConfig, rt: IfpdRuntime) -> Reference {
        Reference {
            rows: vec![vec![None; cfg.buckets]; cfg.rows],
            seen: vec![vec![false; cfg.bf_bits]; cfg.bf_hashes],
            row_hash: (0..cfg.rows).map(|r| cfg.row_hash(r).unwrap()).collect(),
            fp_hash: cfg.fp_hash().unwrap(),
            bf_hash: (0..cfg.bf_hashes).map(|p| cfg.bf_hash(p).unwrap()).collect(),
            cfg: cfg.clone(),
            rt,
        }
    }

    fn index(h: &XorHash, flow: u128, n: usize) -> usize {
        ((h.eval_masks(flow) as u128 * n as u128) >> 32) as usize
    }

    pub fn step(&mut self, flow: u128, ts: u64) -> RefOutcome {
        let now = (ts >> self.cfg.ts_shift) - self.rt.base;
        let fpx = match self.fp_hash.eval_masks(flow) as u32 {
            0 => 1,
            f => f,
        };
        let js: Vec<usize> = self.row_hash.iter().map(|h| Self::index(h, flow, self.cfg.buckets)).collect();
        let (case, row, d) = match self.rt.mode {
            Mode::Ifpd => self.algorithm2(&js, fpx, now),
            Mode::Cm | Mode::CmBf => {
                let mut first = false;
                if self.rt.mode == Mode::CmBf {
                    for (p, h) in self.bf_hash.iter().enumerate() {
                        let i = Self::index(h, flow, self.cfg.bf_bits);
                        first |= !self.seen[p][i];
                        self.seen[p][i] = true;
                    }
                }
                self.algorithm1(&js, now, first)
            }
        };
        (case, row, d, d >= self.rt.threshold as u64)
    }

    fn algorithm2(&mut self, js: &[usize], fpx: u32, now: u64) -> (Case, usize, u64) {
        for (i, &j) in js.iter().enumerate() {
            match self.rows[i][j] {
                Some((f, t)) if f == fpx => {
                    self.rows[i][j] = Some((fpx, now));
                    return (Case::Match, i, now - t);
                }
                None => {
                    self.rows[i][j] = Some((fpx, now));
                    return (Case::Insert, i, 0);
                }
                _ => {}
            }
        }
        let t = |i: usize| self.rows[i][js[i]].expect("all full").1;
        let mut bkt = 0;
        for i in 1..js.len() {
            if t(i) > t(bkt) {
                bkt = i;
            }
        }
        let d = if self.rt.case3 == Case3Rule::Zero { 0 } else { now - t(bkt) };
        self.rows[bkt][js[bkt]] = Some((fpx, now));
        (Case::Replace, bkt, d)
    }

    fn algorithm1(&mut self, js: &[usize], now: u64, bf_first: bool) -> (Case, usize, u64) {
        let mut tmin = u64::MAX;
        let mut at = 0;
        for (i, &j) in js.iter().enumerate() {
            let t = self.rows[i][j].map_or(0, |b| b.1);
            if t < tmin {
                (tmin, at) = (t, i);
            }
            self.rows[i][j] = Some((0, now));
        }
        if tmin == 0 || bf_first {
            (Case::Insert, 0, 0)
        } else {
            (Case::Match, at, now - tmin)
        }
    }
}
