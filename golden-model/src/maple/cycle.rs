//! Cycle model of the MAPLE insert path, stage for stage as the RTL (`hdl::maple::MapleCore`, co-simulated
//! against it in `testbench/tests/maple.rs`):
//!
//! | cycle | stage | what happens |
//! |---|---|---|
//! | t   | in  | descriptor `{key, latency}` accepted into F1 (`packets` counted); the `h` hash units load the key |
//! | t+1 | F1  | bases `b_j` ready; when the banks are ready the packet moves on and is tagged with the **active bank**; it draws the PRNG (sampled iff the value is ≤ `sample_threshold`, **read now**); `lt[i]` = boundary `i` crossed: `i + 1 < k && c[i] ≠ c[i+1] && ⌊(c[i] + c[i+1])/2⌋ < latency` over that bank's centers (see below) |
//! | +2  | M1  | the highest set bit of `lt`, per group of 8 bits (the RTL's two-level priority encoder); the sample enters the sample FIFO |
//! | +3  | M2  | center `i` = highest set bit of `lt` + 1, 0 when none |
//! | +4  | M3 = S0 | per hash `p_j = (b_j + i) mod m_seg` → word `p_j / w`, bit `p_j mod w`; the packet enters its bank's [`MultiRmwModel`]: `h` segment rows and the counter row at address `i` (the result port shows `i`) |
//! | +6  | S2  | segment rows: `old | 1 << bit`; counter row: `{count + 1, sum + latency}` (32 + 64 bits, wrapping) |
//!
//! With [`MapleHwConfig::registered_ram`] the banks' modify stage is S4 (+8): the modify, the flush's
//! records and the lookup's reads come two cycles later; nothing else moves.
//!
//! **Banks and epochs.** Two banks, each `h + 1` rows in lockstep (rows `0..h` the SVBF segments of `2^A`
//! `w`-bit words, row `h` the per-center counters `count | sum << 32`, `2^CA` words with
//! `CA = sizes::center_addr_bits(max_centers)`), each with its own center set and `k`. A write of CSR
//! `epoch` in cycle c is registered (cycle c+1): at the end of c+1 the active bank flips, the newly active
//! bank takes the shadow centers and `k = clamp(center_count, 1, max_centers)`.
//! Packets that left F1 up to c+1 belong to the old bank and all enter it by c+4; the **flush** of the frozen
//! bank starts at the end of c+4 ([`BankWalk`]: start pulse three cycles after the swap), so it sees every
//! one of them. The walk reads and clears `(row, addr)` for rows `0..=h`, one op per cycle when no packet
//! enters that bank and the record FIFO has room for every op in flight; each op becomes a record
//! `data | addr << 96 | row << (96 + A)` in the record FIFO (never dropped by the walk itself). The
//! control plane issues the next epoch marker after `flush_busy` falls (the transaction model's "the
//! previous flush is done"); a marker during a flush is not refused, the un-flushed bank then keeps its bits.
//! With CSR `options` bit 1 the marker starts no flush: a write of CSR `flush` in cycle c starts it at the
//! end of c+4 instead (the same three-cycle delay from the registered write), so the lookup port
//! ([`super::lookup`]) can answer on the whole frozen epoch first; its read ops enter the frozen bank in the
//! cycles no packet and no flush op does (the walk has priority) and write nothing.
//!
//! **The match.** For a sorted set the boundary between centers `i` and `i + 1` is their midpoint rounded
//! down: a latency above it is strictly nearer `c[i+1]` (a tie stays low), and a boundary between equal
//! centers is never crossed, so the highest crossed boundary + 1 is the nearest center's lowest index —
//! [`super::Centers::nearest`] exactly (checked on random sets in this module's tests). The boundaries are
//! computed from the shadow set and loaded with it at the swap; the comparators then have one value each,
//! no subtraction after the priority encoder (stop 37; before, M1 picked the pair around `#{c < l}` and
//! compared distances, 65 MHz at k ≤ 16). Unsorted sets (the CSR accepts any values) match by the same
//! rule, in hardware and here.
//!
//! **Shadow centers.** A write of `center_index` sets the core's write pointer; a write of `center_value`
//! stores the value at the pointer (pointers ≥ `max_centers` store nothing) and advances it. Both act at
//! the write's edge. The `center_index` register reads back what was last written to it.

use super::lookup::{EngineEdge, LookupEngine, PortAnswer, ReadReturn};
use super::model::SAMPLE_BITS;
use super::{MatchKind, TieBreak, MAX_CENTERS, MAX_HASHES};
use crate::common::config::ConfigError;
use crate::common::csr::{CsrInputs, CsrModel};
use crate::common::fifo::{FifoInputs, FifoModel};
use crate::common::handover::F1Handover;
use crate::common::hash::XorHash;
use crate::common::latency::{measure, path, Latency};
use crate::common::mask128;
use crate::common::multi_rmw::{MultiRmwInputs, MultiRmwModel};
use crate::common::prng::{seed_state, xorshift32, PRNG_DEFAULT_SEED};
use crate::common::sram::RamPorts;
use crate::common::walk::BankWalk;
use crate::common::Word;

pub use super::hw::*;

/// What travels through a bank pipeline with an op.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Op {
    #[default]
    Idle,
    /// A packet: its latency and, per hash, the bit in its word.
    Packet { latency: u32, bit: [u8; MAX_HASHES] },
    /// A flush op: read and clear `row`.
    Walk(usize),
    /// A lookup read (`super::lookup`): writes nothing.
    Read,
}

impl Word for Op {
    fn masked(self, _bits: usize) -> Op {
        self
    }
}

#[derive(Debug, Clone, Copy, Default)]
pub struct MapleInputs {
    pub reset: bool,
    pub in_valid: bool,
    pub key: u128,
    pub latency: u32,
    pub smp_ready: bool,
    pub rec_ready: bool,
    pub csr_addr: u8,
    pub csr_wr_en: bool,
    pub csr_wr_data: u32,
    pub csr_rd_en: bool,
    /// The lookup port.
    pub lk_valid: bool,
    pub lk_key: u128,
    pub ans_ready: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MapleOutputs {
    pub in_ready: Option<bool>,
    pub swept: Option<bool>,
    /// The packet entering its bank in this cycle and its center.
    pub res_valid: Option<bool>,
    pub res_center: Option<u64>,
    pub smp_valid: Option<bool>,
    pub smp_data: Option<u32>,
    pub rec_valid: Option<bool>,
    pub rec_data: Option<u128>,
    pub csr_rd_valid: Option<bool>,
    pub csr_rd_data: Option<u32>,
    /// The lookup port (the answer's fields while `ans_valid`: [`MapleOutputs::answer`]).
    pub lk_ready: Option<bool>,
    pub ans_valid: Option<bool>,
    pub ans_kind: Option<u64>,
    pub ans_cand: Option<u64>,
    pub ans_center_valid: Option<bool>,
    pub ans_center: Option<u64>,
    pub ans_latency: Option<u32>,
    pub ans_refined: Option<u32>,
}

impl MapleOutputs {
    /// The lookup answer presented in this cycle.
    pub fn answer(&self) -> Option<PortAnswer> {
        (self.ans_valid == Some(true)).then(|| PortAnswer {
            kind: self.ans_kind.unwrap_or_default() as u8,
            candidates: self.ans_cand.unwrap_or_default(),
            center_valid: self.ans_center_valid.unwrap_or_default(),
            center: self.ans_center.unwrap_or_default() as usize,
            latency: self.ans_latency.unwrap_or_default(),
            refined: self.ans_refined.unwrap_or_default(),
        })
    }
}

/// A packet in the match pipeline.
#[derive(Debug, Clone, Copy)]
struct InFlight {
    bank: usize,
    latency: u32,
    bases: [usize; MAX_HASHES],
    /// F1: `lt`; M2: the center.
    lt: u64,
    center: usize,
}

/// What the packet entering a bank in the last step did (coverage; no effect on the outputs).
#[derive(Debug, Clone)]
pub struct Insert {
    pub bank: usize,
    pub center: usize,
    /// Per hash: the word address and whether `b_j + i` wrapped at the segment's end.
    pub addr: Vec<usize>,
    pub wrapped: Vec<bool>,
}

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct CycleStats {
    pub packets: u64,
    pub epochs: u64,
    pub samples: u64,
    pub records: u64,
    pub lookups: u64,
    pub lookup_match: u64,
    pub lookup_multi: u64,
    pub lookup_none: u64,
}

pub struct MapleCycleModel {
    pub cfg: MapleHwConfig,
    hashes: Vec<XorHash>,
    pub banks: [MultiRmwModel<u128, Op>; 2],
    pub samples: FifoModel<u128>,
    pub records: FifoModel<u128>,
    pub csr: CsrModel,
    f1: Option<(u128, u32)>,
    m: [Option<InFlight>; 3],
    prng: u32,
    smp_reg: Option<u32>,
    rec_reg: Option<Record>,
    seed_pending: bool,
    epoch_pending: bool,
    start_q: [bool; FLUSH_START_DELAY],
    walk: BankWalk,
    /// The flush's ops in flight (`MapleHwConfig::walk_in_flight`) and the counter row's index mask
    /// (`2^CA − 1`), fixed at construction.
    walk_in_flight: usize,
    counter_mask: usize,
    flush_pending: bool,
    pub lookup: LookupEngine,
    active: usize,
    centers: [[u32; MAX_CENTERS]; 2],
    k: [usize; 2],
    shadow: [u32; MAX_CENTERS],
    widx: u8,
    pub stats: CycleStats,
    pub last_insert: Option<Insert>,
    started: bool,
}

/// Highest set bit of `v` plus one (0 for 0).
fn top(v: u64) -> usize {
    64 - v.leading_zeros() as usize
}

/// The boundary between centers `a ≤ b`: `⌊(a + b)/2⌋` (the RTL's `a/2 + b/2 + (a & b & 1)`).
pub fn boundary(a: u32, b: u32) -> u32 {
    ((a as u64 + b as u64) / 2) as u32
}

/// F1's `lt` over the center registers `c` with `k` in use: bit `i` set when `l` crosses boundary `i`
/// (`i + 1 < k`, `c[i] ≠ c[i+1]`, `boundary(c[i], c[i+1]) < l`); the center is its highest set bit + 1.
pub fn crossed(c: &[u32], k: usize, l: u32) -> u64 {
    (0..c.len().saturating_sub(1))
        .filter(|&i| i + 1 < k && c[i] != c[i + 1] && boundary(c[i], c[i + 1]) < l)
        .fold(0, |v, i| v | 1 << i)
}

impl MapleCycleModel {
    pub fn new(cfg: &MapleHwConfig) -> Result<Self, ConfigError> {
        cfg.check()?;
        let h = cfg.store.hashes;
        let timing = cfg.ram_timing(cfg.addr_bits(), cfg.store.word_bits);
        let bank = || MultiRmwModel::with_timing(RamPorts::Dual, timing, h + 1, cfg.addr_bits(), COUNTER_BITS);
        let hashes: Vec<XorHash> = (0..h).map(|j| cfg.base_hash(j)).collect::<Result<_, _>>()?;
        Ok(MapleCycleModel {
            hashes: hashes.clone(),
            lookup: LookupEngine::new(hashes, cfg.addr_bits(), cfg.word_log2(), cfg.modify_stage()),
            flush_pending: false,
            banks: [bank(), bank()],
            samples: FifoModel::new(cfg.store.sample_fifo_bits, SAMPLE_BITS),
            records: FifoModel::new(cfg.record_fifo_bits, cfg.record_bits()),
            csr: CsrModel::new(cfg.csr_layout()),
            f1: None,
            m: [None; 3],
            prng: PRNG_DEFAULT_SEED,
            smp_reg: None,
            rec_reg: None,
            seed_pending: false,
            epoch_pending: false,
            start_q: [false; FLUSH_START_DELAY],
            walk: BankWalk::new(h + 1, 1 << cfg.addr_bits()),
            walk_in_flight: cfg.walk_in_flight(),
            counter_mask: (1 << sizes::center_addr_bits(cfg.max_centers)) - 1,
            active: 0,
            centers: [[0; MAX_CENTERS]; 2],
            k: [1; 2],
            shadow: [0; MAX_CENTERS],
            widx: 0,
            stats: CycleStats::default(),
            last_insert: None,
            started: false,
            cfg: cfg.clone(),
        })
    }

    /// The bank packets update now.
    pub fn active(&self) -> usize {
        self.active
    }
    /// A flush is in progress.
    /// What a packet leaving F1 now draws and compares with: the PRNG state and `sample_threshold` (a
    /// testbench aims thresholds at draws with it).
    pub fn draw(&self) -> (u32, u32) {
        (self.prng, self.csr.config()[CSR_SAMPLE_THRESHOLD as usize])
    }
    pub fn flush_busy(&self) -> bool {
        self.walk.busy()
    }

    /// Status registers in [`MapleConfig::csr_layout`] order.
    fn status(&self) -> Vec<u32> {
        let s = &self.stats;
        vec![
            s.packets as u32,
            s.epochs as u32,
            s.samples as u32,
            self.samples.drops(),
            self.samples.level() as u32,
            s.lookups as u32,
            s.lookup_match as u32,
            s.lookup_multi as u32,
            s.lookup_none as u32,
            self.k[self.active] as u32,
            self.walk.busy() as u32,
            s.records as u32,
            self.records.drops(),
            self.records.level() as u32,
        ]
    }

    /// `lt[i]` = boundary `i` of bank `b` crossed by `l` (module docs).
    fn lt(&self, b: usize, l: u32) -> u64 {
        crossed(&self.centers[b][..self.cfg.max_centers], self.k[b], l)
    }

    /// The centers stage by stage (see the module table).
    fn m2(&self, mut p: InFlight) -> InFlight {
        p.center = top(p.lt);
        p
    }

    pub fn step(&mut self, i: &MapleInputs) -> MapleOutputs {
        let cfg = self.cfg.clone();
        let (h, w) = (cfg.store.hashes, cfg.store.word_bits);
        let m_seg = cfg.store.segment_bits();
        let conf = self.csr.config().to_vec();
        let status = self.status();
        let rmw_ready = self.banks[0].ready(i.reset);
        let F1Handover { in_ready, accept, transfer } =
            F1Handover::new(i.reset, self.started, self.f1.is_some(), rmw_ready, i.in_valid);
        // M3 = S0: the packet into its bank; else a flush op into the walk's bank.
        let m3 = self.m[2].filter(|_| !i.reset);
        let room = self.records.level() + self.walk_in_flight <= self.records.depth();
        let walk_issue = self.walk.issue(i.reset, m3.map(|p| p.bank), room);
        // The lookup engine's read op: granted when the banks were ready, no packet enters its bank and the
        // flush does not issue into it.
        let lk_op = self.lookup.want(i.reset).filter(|op| {
            self.walk.primed() && m3.map(|p| p.bank) != Some(op.bank) && walk_issue.map(|w| w.bank) != Some(op.bank)
        });
        let mut ops: [MultiRmwInputs<Op>; 2] = Default::default();
        self.last_insert = None;
        for (b, op) in ops.iter_mut().enumerate() {
            op.reset = i.reset;
            if let Some(p) = m3.filter(|p| p.bank == b) {
                let mut bit = [0u8; MAX_HASHES];
                let mut ins = Insert { bank: b, center: p.center, addr: vec![], wrapped: vec![] };
                for (bj, &base) in bit.iter_mut().zip(&p.bases[..h]) {
                    let q = base + p.center;
                    let pos = q % m_seg;
                    *bj = (pos % w) as u8;
                    ins.addr.push(pos / w);
                    ins.wrapped.push(q >= m_seg);
                }
                op.in_valid = true;
                op.in_index = ins.addr.iter().copied().chain([p.center]).collect();
                op.in_payload = Op::Packet { latency: p.latency, bit };
                self.last_insert = Some(ins);
            } else if let Some(wk) = walk_issue.filter(|wk| wk.bank == b) {
                op.in_valid = true;
                op.in_index = vec![wk.index; h + 1];
                // The counter row is 2^CA rows deep (sizes::center_addr_bits): the walk's address wraps there.
                op.in_index[h] &= self.counter_mask;
                op.in_payload = Op::Walk(wk.row);
            } else if let Some(rd) = lk_op.as_ref().filter(|rd| rd.bank == b) {
                op.in_valid = true;
                op.in_index.clone_from(&rd.index);
                op.in_payload = Op::Read;
            }
        }
        // S2 of both banks.
        let mut record = None;
        let mut ret = None;
        for (bank, op) in self.banks.iter_mut().zip(&ops) {
            bank.step(op, |st| {
                let mut writes = vec![None; h + 1];
                match st.payload {
                    Op::Packet { latency, bit } => {
                        for j in 0..h {
                            writes[j] = Some(st.old[j] | 1 << bit[j]);
                        }
                        let c = st.old[h];
                        let count = (c + 1) & mask128(COUNT_BITS);
                        let sum = ((c >> COUNT_BITS) + latency as u128) & mask128(SUM_BITS);
                        writes[h] = Some(count | sum << COUNT_BITS);
                    }
                    Op::Walk(row) => {
                        // The walk's address (every segment row carries it; the counter row's index wraps).
                        record = Some(Record { row, addr: st.index[0], data: st.old[row] });
                        writes[row] = Some(0);
                    }
                    Op::Read => {
                        ret = Some(ReadReturn {
                            words: st.old[..h].to_vec(),
                            counter: st.old[h],
                            counter_index: st.index[h],
                        });
                    }
                    Op::Idle => unreachable!("idle ops are never issued"),
                }
                writes
            });
        }
        let smp_out = self.samples.step(&FifoInputs {
            reset: i.reset,
            in_valid: self.smp_reg.is_some(),
            in_data: self.smp_reg.unwrap_or_default() as u128,
            out_ready: i.smp_ready,
        });
        let rec_out = self.records.step(&FifoInputs {
            reset: i.reset,
            in_valid: self.rec_reg.is_some(),
            in_data: self.rec_reg.map(|r| r.pack(&cfg)).unwrap_or_default(),
            out_ready: i.rec_ready,
        });
        let csr_out = self.csr.step(&CsrInputs::from_port(i, status));
        let res = self.m[2];
        let was_started = self.started;
        let ans = self.lookup.answer(i.reset);
        let lk_ready = self.lookup.ready(i.reset);
        if i.reset || self.started {
            self.lookup.edge(&EngineEdge {
                reset: i.reset,
                lk_valid: i.lk_valid,
                lk_key: i.lk_key & mask128(cfg.store.key_bits),
                active: self.active,
                k_frozen: self.k[self.active ^ 1],
                grant: lk_op.is_some(),
                ret: ret.as_ref(),
                tie: if conf[CSR_OPTIONS as usize] & OPT_TIE_NONE != 0 { TieBreak::None } else { TieBreak::Count },
                centers: &self.centers[self.lookup.bank()][..cfg.max_centers],
                ans_ready: i.ans_ready,
            });
        }
        // Edge.
        self.walk.edge(i.reset, rmw_ready == Some(true), self.start_q[FLUSH_START_DELAY - 1], self.active, walk_issue);
        if i.reset {
            self.f1 = None;
            self.m = [None; 3];
            self.prng = PRNG_DEFAULT_SEED;
            self.smp_reg = None;
            self.rec_reg = None;
            self.seed_pending = false;
            self.epoch_pending = false;
            self.flush_pending = false;
            self.start_q = [false; FLUSH_START_DELAY];
            self.active = 0;
            self.centers = [[0; MAX_CENTERS]; 2];
            self.k = [1; 2];
            self.shadow = [0; MAX_CENTERS];
            self.widx = 0;
            self.stats = CycleStats::default();
            self.started = true;
        } else if self.started {
            self.stats.samples += self.smp_reg.is_some() as u64;
            self.stats.records += self.rec_reg.is_some() as u64;
            if let Some(a) = ans.filter(|_| i.ans_ready) {
                self.stats.lookups += 1;
                match a.kind {
                    k if k == MatchKind::Match as u8 => self.stats.lookup_match += 1,
                    k if k == MatchKind::MultiMatch as u8 => self.stats.lookup_multi += 1,
                    _ => self.stats.lookup_none += 1,
                }
            }
            self.rec_reg = record;
            // The match pipeline (each stage reads its bank's centers now).
            let m2 = self.m[1].map(|p| self.m2(p));
            let m1 = self.m[0];
            let f1 = self.f1.filter(|_| transfer).map(|(key, latency)| {
                let mut bases = [0usize; MAX_HASHES];
                for (b, hf) in bases.iter_mut().zip(&self.hashes) {
                    *b = hf.eval(key) as usize;
                }
                let bank = self.active;
                InFlight { bank, latency, bases, lt: self.lt(bank, latency), center: 0 }
            });
            self.m = [f1, m1, m2];
            // Sampling: the packet leaving F1 draws the PRNG.
            self.smp_reg =
                self.f1.filter(|_| transfer && self.prng <= conf[CSR_SAMPLE_THRESHOLD as usize]).map(|f| f.1);
            self.prng = if self.seed_pending {
                seed_state(conf[CSR_PRNG_SEED as usize])
            } else if transfer {
                xorshift32(self.prng)
            } else {
                self.prng
            };
            // Epochs: the registered marker swaps the banks; the flush starts FLUSH_START_DELAY cycles later.
            if self.epoch_pending {
                self.active ^= 1;
                self.centers[self.active] = self.shadow;
                self.k[self.active] = (conf[CSR_CENTER_COUNT as usize] as usize).clamp(1, cfg.max_centers);
                self.stats.epochs += 1;
            }
            self.start_q.rotate_right(1);
            self.start_q[0] =
                self.epoch_pending && conf[CSR_OPTIONS as usize] & OPT_MANUAL_FLUSH == 0 || self.flush_pending;
            let wr = |addr: u8| i.csr_wr_en && i.csr_addr == addr;
            self.seed_pending = wr(CSR_PRNG_SEED);
            self.epoch_pending = wr(CSR_EPOCH);
            self.flush_pending = wr(CSR_FLUSH);
            // Shadow centers.
            if wr(CSR_CENTER_INDEX) {
                self.widx = i.csr_wr_data as u8;
            } else if wr(CSR_CENTER_VALUE) {
                if (self.widx as usize) < cfg.max_centers {
                    self.shadow[self.widx as usize] = i.csr_wr_data;
                }
                self.widx = self.widx.wrapping_add(1);
            }
            if accept {
                self.f1 = Some((i.key & mask128(cfg.store.key_bits), i.latency));
                self.stats.packets += 1;
            } else if transfer {
                self.f1 = None;
            }
        }
        MapleOutputs {
            in_ready,
            swept: rmw_ready,
            res_valid: was_started.then_some(res.is_some()),
            res_center: res.map(|p| p.center as u64),
            smp_valid: smp_out.map(|o| o.out_valid),
            smp_data: smp_out.and_then(|o| o.out_data).map(|v| v as u32),
            rec_valid: rec_out.map(|o| o.out_valid),
            rec_data: rec_out.and_then(|o| o.out_data),
            csr_rd_valid: csr_out.as_ref().map(|o| o.rd_valid),
            csr_rd_data: csr_out.map(|o| o.rd_data),
            lk_ready: was_started.then_some(lk_ready),
            ans_valid: was_started.then_some(ans.is_some()),
            ans_kind: ans.map(|a| a.kind as u64),
            ans_cand: ans.map(|a| a.candidates),
            ans_center_valid: ans.map(|a| a.center_valid),
            ans_center: ans.map(|a| a.center as u64),
            ans_latency: ans.map(|a| a.latency),
            ans_refined: ans.map(|a| a.refined),
        }
    }
}

/// MAPLE's latency paths ([`crate::common::latency`]): a packet accepted → its result (`res`), and a lookup
/// accepted → its answer (`ans`; registers at their reset values, an empty store).
pub fn latency(cfg: &MapleHwConfig) -> Vec<Latency> {
    let idle = MapleInputs { smp_ready: true, rec_ready: true, ans_ready: true, ..Default::default() };
    let reset = MapleInputs { reset: true, ..idle };
    let insert = MapleInputs { in_valid: true, key: 1, latency: 1, ..idle };
    let lookup = MapleInputs { lk_valid: true, lk_key: 1, ..idle };
    let run = |offer: &MapleInputs, ready: fn(&MapleOutputs) -> bool, out: fn(&MapleOutputs) -> bool| {
        let mut m = MapleCycleModel::new(cfg).ok()?;
        measure(|i| m.step(i), &reset, &idle, std::slice::from_ref(offer), ready, out)
    };
    let res = run(&insert, |o| o.in_ready == Some(true), |o| o.res_valid == Some(true));
    let ans = run(&lookup, |o| o.lk_ready == Some(true), |o| o.ans_valid == Some(true));
    let paths = [
        path("in", "res", "every packet's result", res),
        path("lk", "ans", "a lookup's answer (registers at reset values, empty store)", ans),
    ];
    paths.to_vec()
}
