//! The lookup port's engine, cycle for cycle as the RTL (`hdl::maple::lookup::MapleLookup`): one lookup at
//! a time on the frozen bank, answering what [`super::store::resolve`] answers on the same epoch (proved in
//! `cycle_tests.rs` against [`super::MapleModel::lookup`]).
//!
//! | phase | cycles | what happens |
//! |---|---|---|
//! | Idle | — | `lk_ready`; a key accepted loads the `h` base hash units; the engine latches the bank frozen now (`active ^ 1`) and its `k` |
//! | Burst | ≥ B | `B = ⌈k/w⌉ + 1` read ops into the bank's pipeline (op `n` reads word `(b_j >> log2 w) + n mod 2^A` of every segment `j` at once); each returning op's `h` words are stored as word `n` of the segment's window register |
//! | Align | 1 | per segment the window `acc_j >> (b_j mod w)`, the AND over the segments, masked to `k` bits: the candidate bitmap |
//! | Classify | 1 | no candidate → No-Match; one → Match; several → Multi-Match, scanned when the tie-break is `Count` (CSR `options` bit 0 clear), else answered without a center |
//! | Scan | ≥ c + 2 | one counter-row read per candidate `i` (ascending, one op per granted cycle); the returning `{count, sum}` and its center's latency (read as the word is registered, [`EngineEdge::centers`]) replace the best when it is the first or its count is strictly larger (ties: lowest index, as `resolve`) |
//! | DivStart | 1 | `count = 0` → refined = the best center's latency; `⌊sum / 2^32⌋ ≥ count` (the mean does not fit 32 bits: only after counter wrap) → refined = 2^32 − 1; else the division starts |
//! | Divide | 32 | restoring division, one quotient bit per cycle: refined = `⌊sum / count⌋` |
//! | Answer | ≥ 1 | `ans_valid` until `ans_ready` |
//!
//! Ops are granted by the core when the engine wants one, the banks were ready in the cycle before (the
//! walker's `primed`), no packet enters the engine's bank and the flush does not issue into it (the flush
//! has priority). Read ops write nothing. A returning op is registered at the engine's input (`ret` is
//! seen one cycle after its bank's modify stage: the forwarding mux of the bank's pipeline and the engine's
//! count compare are two cycles' work at 150 MHz). From the accept (cycle 0) an uncontended lookup issues
//! its burst in cycles 1..=B, the last word is at S2 in B + 2 and at the engine in B + 3, Align is B + 4,
//! Classify B + 5: a No-Match (or a Multi-Match without tie-break) is answered in cycle **B + 6**. With
//! `c` candidates the scan reads issue in B + 6 .. B + 5 + c, the last is at the engine in B + 8 + c,
//! DivStart is B + 10 + c, and the answer comes in **B + 11 + c + 32** (B + 11 + c when the center's count
//! is 0) ([`LookupEngine::latency`]; on registered RAM the burst's and the scan's reads each return two
//! cycles later: + 2 and + 4): 46 cycles for a Match with k ≤ 32 and w = 32 (B = 2), and a lookup
//! every 47 cycles at most when answers are taken at once (one idle cycle between answer and the next
//! accept).
//!
//! The bank is the one frozen when the lookup was accepted. An epoch marker while a lookup runs makes that
//! bank the active one again (cleared, counting with new centers): such an answer is undefined — the
//! control plane looks up between markers, and before the flush with CSR `options` bit 1 (flush on the
//! `flush` command), since the flush clears the bank.

use super::store::MatchKind;
use super::{TieBreak, MAX_HASHES};
use crate::common::hash::XorHash;

/// Phase of the engine (the RTL's state register, in this encoding).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Phase {
    #[default]
    Idle = 0,
    Burst = 1,
    Align = 2,
    Classify = 3,
    Scan = 4,
    DivStart = 5,
    Divide = 6,
    Answer = 7,
}

/// Cycles of the division (one quotient bit each).
pub const DIVIDE_CYCLES: usize = 32;

/// The answer the port presents while `ans_valid`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct PortAnswer {
    /// [`MatchKind`] as its 2-bit code.
    pub kind: u8,
    /// The candidate bitmap (over the bank's `k` centers).
    pub candidates: u64,
    /// The answered center (`center_valid`), its latency and refined latency (all 0 without a center).
    pub center_valid: bool,
    pub center: usize,
    pub latency: u32,
    pub refined: u32,
}

/// A read op the engine wants issued: per segment row its word address, and the counter row's index.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReadOp {
    pub bank: usize,
    pub index: Vec<usize>,
}

/// What a returning read op brought (the bank's modify stage): the segment words and the counter word with
/// its index.
#[derive(Debug, Clone)]
pub struct ReadReturn {
    pub words: Vec<u128>,
    pub counter: u128,
    pub counter_index: usize,
}

/// The engine's inputs at the clock edge.
pub struct EngineEdge<'a> {
    pub reset: bool,
    pub lk_valid: bool,
    pub lk_key: u128,
    /// The bank packets update now (the engine latches the other one).
    pub active: usize,
    /// `k` of the bank frozen now.
    pub k_frozen: usize,
    /// The op [`LookupEngine::want`] asked for was issued in this cycle.
    pub grant: bool,
    /// A read op of this engine is at its bank's modify stage (registered: the engine acts on it at the
    /// next edge).
    pub ret: Option<&'a ReadReturn>,
    pub tie: TieBreak,
    /// The center latencies of the engine's bank in this cycle (the core's center registers; 0 past
    /// `max_centers`). The engine reads the registered returning word's center here and keeps its latency
    /// with the count, so DivStart reads a register, not the core's center mux (the answer is the same
    /// unless an epoch marker swaps the bank's centers mid-lookup, which makes it undefined anyway: see the
    /// module docs).
    pub centers: &'a [u32],
    pub ans_ready: bool,
}

/// See the [module docs](self).
#[derive(Debug, Clone)]
pub struct LookupEngine {
    hashes: Vec<XorHash>,
    addr_bits: usize,
    word_log2: usize,
    pub phase: Phase,
    bank: usize,
    k: usize,
    bases: [usize; MAX_HASHES],
    n_iss: usize,
    n_ret: usize,
    acc: [u128; MAX_HASHES],
    cand: u64,
    scan: u64,
    kind: MatchKind,
    have: bool,
    best: usize,
    best_cnt: u32,
    best_sum: u64,
    /// The best center's latency (taken with its count from the returning word).
    best_cv: u32,
    rem: u32,
    div: u32,
    steps: usize,
    ans: PortAnswer,
    /// The returning read op registered at the input (the RTL's `ret_v` and its data registers).
    ret_q: Option<ReadReturn>,
    /// The banks' modify stage (2, or 4 on registered RAM): read data returns `modify − 2` cycles later
    /// than the latencies in the table above.
    modify: usize,
}

/// `k` ones (k ≤ 64).
fn ones(k: usize) -> u64 {
    if k >= 64 {
        u64::MAX
    } else {
        (1u64 << k) - 1
    }
}

impl LookupEngine {
    /// An engine over the insert path's base hashes (`log2 m_seg` bits each), segments of `2^addr_bits`
    /// words of `2^word_log2` bits, on banks whose modify stage is `modify` (2 or 4).
    pub fn new(hashes: Vec<XorHash>, addr_bits: usize, word_log2: usize, modify: usize) -> Self {
        LookupEngine {
            hashes,
            addr_bits,
            word_log2,
            phase: Phase::Idle,
            bank: 0,
            k: 1,
            bases: [0; MAX_HASHES],
            n_iss: 0,
            n_ret: 0,
            acc: [0; MAX_HASHES],
            cand: 0,
            scan: 0,
            kind: MatchKind::NoMatch,
            have: false,
            best: 0,
            best_cnt: 0,
            best_sum: 0,
            best_cv: 0,
            rem: 0,
            div: 0,
            steps: 0,
            ans: PortAnswer::default(),
            ret_q: None,
            modify,
        }
    }

    /// Words per segment a lookup over `k` centers reads: `⌈k/w⌉ + 1`.
    pub fn burst(&self, k: usize) -> usize {
        k.div_ceil(1 << self.word_log2) + 1
    }

    /// Cycles from the accept to `ans_valid` of an uncontended lookup over `k` centers with `c` candidates
    /// answered with a center (`c = 0`: No-Match; `divides`: the count is non-zero and the mean fits).
    pub fn latency(&self, k: usize, c: usize, divides: bool) -> usize {
        let (b, late) = (self.burst(k), self.modify - 2);
        if c == 0 {
            b + 6 + late
        } else {
            b + 11 + 2 * late + c + if divides { DIVIDE_CYCLES } else { 0 }
        }
    }

    /// `lk_ready` (None before the first reset is the core's business).
    pub fn ready(&self, reset: bool) -> bool {
        !reset && self.phase == Phase::Idle
    }

    /// The bank the engine reads.
    pub fn bank(&self) -> usize {
        self.bank
    }

    /// The candidate holding the best count so far (DivStart: the answered center).
    pub fn best(&self) -> usize {
        self.best
    }

    /// The read op the engine wants issued in this cycle.
    /// (The counter row is row `h`, after the `h` segment rows.)
    pub fn want(&self, reset: bool) -> Option<ReadOp> {
        let h = self.hashes.len();
        let index: Vec<usize> = match self.phase {
            _ if reset => return None,
            Phase::Burst if self.n_iss < self.burst(self.k) => {
                let mask = (1 << self.addr_bits) - 1;
                let words = self.bases[..h].iter().map(|&b| ((b >> self.word_log2) + self.n_iss) & mask);
                words.chain([0]).collect()
            }
            Phase::Scan if self.scan != 0 => {
                std::iter::repeat_n(0, h).chain([self.scan.trailing_zeros() as usize]).collect()
            }
            _ => return None,
        };
        Some(ReadOp { bank: self.bank, index })
    }

    /// The answer while `ans_valid`.
    pub fn answer(&self, reset: bool) -> Option<PortAnswer> {
        (!reset && self.phase == Phase::Answer).then_some(self.ans)
    }

    /// The clock edge.
    pub fn edge(&mut self, i: &EngineEdge) {
        let ret = std::mem::replace(&mut self.ret_q, if i.reset { None } else { i.ret.cloned() });
        if i.reset {
            self.phase = Phase::Idle;
            return;
        }
        let h = self.hashes.len();
        let w = 1usize << self.word_log2;
        match self.phase {
            Phase::Idle => {
                if i.lk_valid {
                    for (b, f) in self.bases.iter_mut().zip(&self.hashes) {
                        *b = f.eval(i.lk_key) as usize;
                    }
                    self.bank = i.active ^ 1;
                    self.k = i.k_frozen;
                    (self.n_iss, self.n_ret) = (0, 0);
                    self.phase = Phase::Burst;
                }
            }
            Phase::Burst => {
                self.n_iss += i.grant as usize;
                if let Some(r) = &ret {
                    let sh = self.n_ret * w;
                    for (acc, &word) in self.acc[..h].iter_mut().zip(&r.words) {
                        *acc = *acc & !((ones(w) as u128) << sh) | (word & ones(w) as u128) << sh;
                    }
                    self.n_ret += 1;
                    if self.n_ret == self.burst(self.k) {
                        self.phase = Phase::Align;
                    }
                }
            }
            Phase::Align => {
                let mut c = ones(self.k);
                for (acc, &b) in self.acc[..h].iter().zip(&self.bases) {
                    c &= (acc >> (b & (w - 1))) as u64;
                }
                self.cand = c;
                self.phase = Phase::Classify;
            }
            Phase::Classify => {
                (self.n_iss, self.n_ret, self.have) = (0, 0, false);
                self.ans = PortAnswer { candidates: self.cand, ..Default::default() };
                self.best = 0;
                self.scan = self.cand;
                self.kind = match self.cand.count_ones() {
                    0 => MatchKind::NoMatch,
                    1 => MatchKind::Match,
                    _ => MatchKind::MultiMatch,
                };
                self.ans.kind = self.kind as u8;
                let scan =
                    self.kind == MatchKind::Match || self.kind == MatchKind::MultiMatch && i.tie == TieBreak::Count;
                self.phase = if scan { Phase::Scan } else { Phase::Answer };
            }
            Phase::Scan => {
                let done = self.scan == 0 && self.n_iss == self.n_ret;
                if i.grant {
                    self.scan &= self.scan - 1;
                    self.n_iss += 1;
                }
                if let Some(r) = &ret {
                    let (cnt, sum) = (r.counter as u32, (r.counter >> 32) as u64);
                    if !self.have || cnt > self.best_cnt {
                        (self.best, self.best_cnt, self.best_sum, self.have) = (r.counter_index, cnt, sum, true);
                        self.best_cv = i.centers.get(r.counter_index).copied().unwrap_or(0);
                    }
                    self.n_ret += 1;
                }
                if done {
                    self.phase = Phase::DivStart;
                }
            }
            Phase::DivStart => {
                self.ans.center_valid = true;
                self.ans.center = self.best;
                self.ans.latency = self.best_cv;
                let hi = (self.best_sum >> 32) as u32;
                if self.best_cnt == 0 {
                    self.ans.refined = self.best_cv;
                    self.phase = Phase::Answer;
                } else if hi >= self.best_cnt {
                    self.ans.refined = u32::MAX;
                    self.phase = Phase::Answer;
                } else {
                    (self.rem, self.div, self.steps) = (hi, self.best_sum as u32, DIVIDE_CYCLES);
                    self.phase = Phase::Divide;
                }
            }
            Phase::Divide => {
                let t = (self.rem as u64) << 1 | (self.div >> 31) as u64;
                let ge = t >= self.best_cnt as u64;
                self.rem = if ge { t - self.best_cnt as u64 } else { t } as u32;
                self.div = self.div << 1 | ge as u32;
                self.steps -= 1;
                if self.steps == 0 {
                    self.ans.refined = self.div;
                    self.phase = Phase::Answer;
                }
            }
            Phase::Answer => {
                if i.ans_ready {
                    self.phase = Phase::Idle;
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The restoring division is `⌊sum / count⌋` whenever the quotient fits 32 bits.
    #[test]
    fn division_is_the_floor() {
        let mut e = LookupEngine::new(vec![], 6, 5, 2);
        for (sum, cnt) in [(0u64, 1u32), (7, 2), (u32::MAX as u64 * 5, 5), ((3u64 << 32) + 17, 4), (1 << 40, 1 << 9)] {
            (e.phase, e.best_sum, e.best_cnt, e.have) = (Phase::DivStart, sum, cnt, true);
            let edge = EngineEdge {
                reset: false,
                lk_valid: false,
                lk_key: 0,
                active: 0,
                k_frozen: 1,
                grant: false,
                ret: None,
                tie: TieBreak::Count,
                centers: &[9; 4],
                ans_ready: false,
            };
            let mut n = 0;
            while e.phase != Phase::Answer {
                e.edge(&edge);
                n += 1;
            }
            assert_eq!(e.ans.refined as u64, sum / cnt as u64, "{sum} / {cnt}");
            assert_eq!(n, 1 + DIVIDE_CYCLES);
        }
    }
}
