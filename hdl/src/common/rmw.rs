//! Read-modify-write pipeline with forwarding (`RmwPipeline<A, W, P>`): the one place hazards are handled.
//!
//! A core puts a packet in (`in_index`, `in_payload`, valid/ready), sees it again `M` cycles later at the
//! modify stage SM with the table word `mod_old`, and answers in the same cycle with `mod_write` and
//! `mod_new`. The pipeline guarantees `mod_old` is the word as if every earlier packet had completed.
//! `M` follows the RAM's timing, a generation parameter ([`RamTiming`]; model: `golden::common::rmw`):
//!
//! | stage | `Short` (M = 2) | `Registered` (M = 4) |
//! |---|---|---|
//! | S0 | accept; RAM read address = `in_index` | accept; RAM read address = `in_index` |
//! | S1 .. SM-1 | RAM data out; at SM-1 compare the index with the packets in SM .. S2M | the RAM's address, bank and bank-mux registers; compare at S3 |
//! | SM | RAM data registered; forward mux → `mod_old`; core computes `mod_new` | RAM data (the RAM's own last register); forward mux; core decides |
//! | SM+1 | write register → RAM write port | write register → RAM (registered again inside, per bank) |
//! | SM+2 .. S2M+1 | write history: packets 2..M+1 cycles behind read the RAM before this write landed | the same |
//!
//! A packet `k` cycles behind another (k = 1..=M+1) meets that packet's write from the history register of
//! distance k (nearest wins), older writes from the RAM. The index compares sit a stage before the forward
//! mux, and so does the choice among distances 2..M+1 and the RAM, whose write flags are known a cycle
//! early: the mux selects are flip-flops (one-hot, an AND-OR), and distance 1 — its index match a
//! flip-flop, its write flag the core's answer of the cycle before (the `wr_we` register of distance 1) —
//! is a 2:1 mux after it whose select is the AND of those two flip-flops. The mux and
//! the core's modify logic share SM (registered into SM+1), so that stage's depth is mux + the core's
//! arithmetic. Whether that meets the 150 MHz target is measured by the synthesis flow (`netmeas synth`),
//! not assumed. Dual-port RAM: one packet per cycle (II = 1). Single-port RAM:
//! `in_ready` only in even phases (II = 2), so reads (even) and writes (odd: M is even) never collide.
//! `in_ready` is low during reset and the RAM's reset sweep.
//!
//! Cores whose decision after the mux is deep (compares on carry chains) can take the mux off that path:
//! `mod_ram` and `mod_fwd1` .. `mod_fwd5` are the candidates for `mod_old` (all registers; distances 4
//! and 5 only exist with `Registered` timing, otherwise they are never picked) and `mod_pick` says
//! one-hot which one `mod_old` is (bit 0 RAM, bit k distance k), so the core can decide on each candidate
//! in parallel and pick the one-bit answer. Cores that do not use them name them `unused_*` for the lint.
//!
//! **Look-ahead stage** (generation parameter `lookahead`; a single-port RAM takes 0 or 2 levels; model
//! `golden::common::rmw::RmwModel::with_lookahead`): the stage that was SM becomes the look-ahead stage
//! SL = SM-1 and the modify stage moves one cycle later (M = 3 short, 5 registered; forwarding 1..=M+1). At
//! SL the pipeline presents `pre_valid`, `pre_payload` and `pre_old`: the word as if every earlier packet
//! *except the one directly ahead* had finished — the one ahead is at SM deciding in the same cycle, and
//! the forward mux above (now one stage earlier) serves distances 2..=M+1. At SM, `mod_old` is that word
//! registered, or — `mod_pick` bit 1 — the write of the packet directly ahead (its index match registered
//! at SL, ANDed with its write flag `wr_we[0]`); `mod_ram` is the registered early word, `mod_fwd1` the
//! write. A core whose decision is deep (carry chains, many rows) computes at SL on `pre_old` and at SM
//! only corrects for that one write, so the decision loop from one packet's write to the next packet's
//! write-enable is a few LUTs; `mod_old` stays the full word for anything off that loop. Without the
//! stage, `pre_valid` is low and `pre_*` are not meant to be read.
//!
//! **Second look-ahead level** (`lookahead = 2`; M = 4 short, 6 registered; forwarding 1..=M+1): the
//! forward mux moves one more stage earlier, to SL-1, and serves distances 3..=M+1 and the RAM; its result
//! is registered into SL (`early2`). At SL, `pre_old` is `early2` or — its index match with the packet
//! then at SM registered at SL-1, ANDed with that packet's write flag `wr_we[0]` — the write of the packet
//! two ahead (`wr_data[0]`): one LUT after flip-flops, so a core's compares at SL start there instead of
//! after the AND-OR mux. What the core sees (`pre_old`, `mod_old`) is the one-level pipeline's, a cycle
//! later; SM is unchanged. `pre_early` and `pre_near2` are that choice's inputs, for a core that compares
//! on both candidates and chooses after its carry chains.
//!
//! `forward_enable` is a test-only generation parameter (bit k-1 enables forwarding across distance k);
//! production builds pass [`FORWARD_ALL`] and the constant folds away. The co-simulation suite builds
//! deliberately broken variants to prove its RMW test catches a missing forwarding path.

use super::reg::Reg;
use super::sram::Sram;
use golden::common::config::ConfigError;
use golden::common::rmw::{check_lookahead, forward_distances_la, modify_stage, modify_stage_la};
use golden::common::sram::{RamPorts, RamTiming};
use rust_hdl::prelude::*;

/// Forward across every distance the pipeline has (1–3 short, 1–5 registered, one more per look-ahead
/// level): the only correct setting.
pub const FORWARD_ALL: u64 = 0b1111111;

/// Forwarding distances of the deepest timing: the write history every pipeline keeps (the short one
/// masks distances 4 and 5 off, so one port list and one mux serve both; the look-ahead levels serve the
/// nearest one or two distances outside the mux, so the mux never needs more than five).
const HISTORY: usize = 5;

#[derive(LogicBlock)]
pub struct RmwPipeline<const A: usize, const W: usize, const P: usize> {
    pub clock: Signal<In, Clock>,
    pub reset: Signal<In, bool>,
    pub in_valid: Signal<In, bool>,
    pub in_index: Signal<In, Bits<A>>,
    pub in_payload: Signal<In, Bits<P>>,
    pub in_ready: Signal<Out, bool>,
    pub mod_valid: Signal<Out, bool>,
    pub mod_index: Signal<Out, Bits<A>>,
    pub mod_payload: Signal<Out, Bits<P>>,
    pub mod_old: Signal<Out, Bits<W>>,
    pub mod_ram: Signal<Out, Bits<W>>,
    pub mod_fwd1: Signal<Out, Bits<W>>,
    pub mod_fwd2: Signal<Out, Bits<W>>,
    pub mod_fwd3: Signal<Out, Bits<W>>,
    pub mod_fwd4: Signal<Out, Bits<W>>,
    pub mod_fwd5: Signal<Out, Bits<W>>,
    pub mod_pick: Signal<Out, Bits<6>>,
    /// The look-ahead stage SL (see the module docs): the packet and the word before the packet ahead.
    pub pre_valid: Signal<Out, bool>,
    pub pre_payload: Signal<Out, Bits<P>>,
    pub pre_old: Signal<Out, Bits<W>>,
    /// `pre_old` in two parts (the second level's flip-flops, for cores that compare before choosing):
    /// `pre_old` = `pre_near2` ? the write of the packet two ahead (`mod_fwd1` in this cycle) : `pre_early`.
    /// With fewer levels `pre_near2` is low and `pre_early` is `pre_old`.
    pub pre_early: Signal<Out, Bits<W>>,
    pub pre_near2: Signal<Out, bool>,
    pub mod_write: Signal<In, bool>,
    pub mod_new: Signal<In, Bits<W>>,
    ram: Sram<A, W>,
    accept: Signal<Local, bool>,
    phase: Reg<bool>,
    /// Stages S1..=SM-1: valid, payload and index (`[s-1]` = stage s); SM's valid and payload registers
    /// are named (the modify stage reads them directly: a loop result there would tie the core's answer
    /// to the outputs in the simulator's view), SM..=SM+4's index is `tail[s-M]`.
    valid: Vec<Reg<bool>>,
    payload: Vec<Reg<Bits<P>>>,
    head: Vec<Reg<Bits<A>>>,
    valid_m: Reg<bool>,
    payload_m: Reg<Bits<P>>,
    tail: Vec<Reg<Bits<A>>>,
    /// The last head stage's valid, payload and index (loop results: the packet entering SM), and the
    /// index of the compare stage (the stage before the forward mux: SM-1, or SL-1 with the look-ahead).
    last_valid: Signal<Local, bool>,
    last_payload: Signal<Local, Bits<P>>,
    last_index: Signal<Local, Bits<A>>,
    cmp_index: Signal<Local, Bits<A>>,
    /// Short timing: the register after the block RAM (registered timing: the RAM's own last register).
    ram_data: Reg<Bits<W>>,
    ram_word: Signal<Local, Bits<W>>,
    /// Per distance k = 1..=5 at `[k-1]`: write flag (k ≤ 4: distance 5's is only needed a cycle early, as
    /// `wr_we[3]`) and word of the packet k cycles ahead (stage SM+k).
    wr_we: Vec<Reg<bool>>,
    wr_data: Vec<Reg<Bits<W>>>,
    /// The forward selects, registered at SM-1 so the mux's wide fan-out starts at flip-flops: distance 1
    /// (`near_hit`: index match with the packet now at SM; whether that packet writes is its `wr_we[0]`,
    /// ANDed in at the mux — one more input to each mux LUT — so the core's decision, the longest path of
    /// the modify stage, ends at `wr_we[0]` and not also at this select),
    /// and one-hot over distances 2..=5 and the RAM (`psel[k-2]`, `use_ram`: nearest write wins; the write
    /// flags of those packets are known a cycle early).
    near_hit: Reg<bool>,
    psel: Vec<Reg<bool>>,
    use_ram: Reg<bool>,
    taken: Signal<Local, bool>,
    far_word: Signal<Local, Bits<W>>,
    /// The forward mux's result (`mod_old` without, `pre_old` with the look-ahead stage).
    mux_word: Signal<Local, Bits<W>>,
    /// Look-ahead only: SL's word registered into SM, and the index match with the packet directly ahead.
    early_word: Reg<Bits<W>>,
    near1: Reg<bool>,
    /// Second level only: the mux's word registered into SL, the index match (registered at SL-1) with the
    /// packet two ahead, and SL's word (`early2` or that packet's write).
    early2: Reg<Bits<W>>,
    near2: Reg<bool>,
    sl_word: Signal<Local, Bits<W>>,
    sl1_index: Signal<Local, Bits<A>>,
    zero_w: Constant<Bits<W>>,
    pick: Vec<Constant<Bits<6>>>,
    pick_ram: Constant<Bits<6>>,
    single_port: Constant<bool>,
    registered: Constant<bool>,
    lookahead: Constant<bool>,
    lookahead2: Constant<bool>,
    /// The forward mux's distances (bit 0: the nearest it serves: 1, 2 or 3 after 0, 1 or 2 look-ahead
    /// levels).
    forward_enable: Constant<Bits<5>>,
    /// Look-ahead only: distance 1 forwarded at SM.
    near1_enable: Constant<bool>,
    /// Second level only: distance 2 forwarded at SL.
    near2_enable: Constant<bool>,
    _head: usize,
    /// Head stages up to and including the compare stage.
    _cmp_end: usize,
    _history: usize,
}

impl<const A: usize, const W: usize, const P: usize> RmwPipeline<A, W, P> {
    pub fn new(ports: RamPorts) -> Self {
        Self::with_forwarding(ports, FORWARD_ALL)
    }
    /// Test-only: `forward_enable` other than [`FORWARD_ALL`] builds a broken pipeline.
    pub fn with_forwarding(ports: RamPorts, forward_enable: u64) -> Self {
        Self::with_timing(ports, RamTiming::Short, forward_enable)
    }
    /// The pipeline on a RAM of the given timing (`forward_enable`: [`FORWARD_ALL`] except in tests).
    pub fn with_timing(ports: RamPorts, timing: RamTiming, forward_enable: u64) -> Self {
        Self::build(ports, timing, 0, forward_enable)
    }
    /// With `lookahead` look-ahead levels (0..=2, see the module docs); dual-port RAM only.
    pub fn with_lookahead(
        ports: RamPorts,
        timing: RamTiming,
        lookahead: usize,
        forward_enable: u64,
    ) -> Result<Self, ConfigError> {
        check_lookahead(ports, lookahead)?;
        Ok(Self::build(ports, timing, lookahead, forward_enable))
    }
    fn build(ports: RamPorts, timing: RamTiming, lookahead: usize, forward_enable: u64) -> Self {
        let m = modify_stage_la(timing, lookahead);
        let enable = forward_enable & ((1u64 << forward_distances_la(timing, lookahead)) - 1);
        RmwPipeline {
            clock: Default::default(),
            reset: Default::default(),
            in_valid: Default::default(),
            in_index: Default::default(),
            in_payload: Default::default(),
            in_ready: Default::default(),
            mod_valid: Default::default(),
            mod_index: Default::default(),
            mod_payload: Default::default(),
            mod_old: Default::default(),
            mod_ram: Default::default(),
            mod_fwd1: Default::default(),
            mod_fwd2: Default::default(),
            mod_fwd3: Default::default(),
            mod_fwd4: Default::default(),
            mod_fwd5: Default::default(),
            mod_pick: Default::default(),
            pre_valid: Default::default(),
            pre_payload: Default::default(),
            pre_old: Default::default(),
            pre_early: Default::default(),
            pre_near2: Default::default(),
            mod_write: Default::default(),
            mod_new: Default::default(),
            ram: Sram::with_timing(ports, timing, true),
            accept: Default::default(),
            phase: Default::default(),
            valid: (0..m - 1).map(|_| Reg::default()).collect(),
            payload: (0..m - 1).map(|_| Reg::default()).collect(),
            head: (0..m - 1).map(|_| Reg::default()).collect(),
            valid_m: Default::default(),
            payload_m: Default::default(),
            tail: (0..HISTORY).map(|_| Reg::default()).collect(),
            last_valid: Default::default(),
            last_payload: Default::default(),
            last_index: Default::default(),
            cmp_index: Default::default(),
            ram_data: Default::default(),
            ram_word: Default::default(),
            wr_we: (1..HISTORY).map(|_| Reg::default()).collect(),
            wr_data: (0..HISTORY).map(|_| Reg::default()).collect(),
            near_hit: Default::default(),
            psel: (1..HISTORY).map(|_| Reg::default()).collect(),
            use_ram: Default::default(),
            taken: Default::default(),
            far_word: Default::default(),
            mux_word: Default::default(),
            early_word: Default::default(),
            near1: Default::default(),
            early2: Default::default(),
            near2: Default::default(),
            sl_word: Default::default(),
            sl1_index: Default::default(),
            zero_w: Constant::new(Bits::default()),
            pick: (0..HISTORY).map(|k| Constant::new(Bits::from(2u64 << k))).collect(),
            pick_ram: Constant::new(Bits::from(1u64)),
            single_port: Constant::new(ports == RamPorts::Single),
            registered: Constant::new(timing != RamTiming::Short),
            lookahead: Constant::new(lookahead >= 1),
            lookahead2: Constant::new(lookahead >= 2),
            forward_enable: Constant::new(Bits::from((enable >> lookahead) & 0b11111)),
            near1_enable: Constant::new(lookahead >= 1 && enable & 1 == 1),
            near2_enable: Constant::new(lookahead >= 2 && enable & 2 == 2),
            _head: m - 1,
            _cmp_end: modify_stage(timing) - 1,
            _history: HISTORY,
        }
    }
}

impl<const A: usize, const W: usize, const P: usize> Logic for RmwPipeline<A, W, P> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, phase, ram_data, valid_m, payload_m, near_hit, use_ram, early_word, near1, early2, near2);
        clock!(self, clock, ram);
        for s in 0..self._head {
            self.valid[s].clock.next = self.clock.val();
            self.payload[s].clock.next = self.clock.val();
            self.head[s].clock.next = self.clock.val();
        }
        for k in 0..self._history {
            self.tail[k].clock.next = self.clock.val();
            self.wr_data[k].clock.next = self.clock.val();
        }
        for k in 1..self._history {
            self.wr_we[k - 1].clock.next = self.clock.val();
            self.psel[k - 1].clock.next = self.clock.val();
        }
        self.ram.reset.next = self.reset.val();
        // S0: accept and issue the read.
        self.in_ready.next =
            !self.reset.val() && !self.ram.busy.val() && (!self.single_port.val() || !self.phase.q.val());
        self.accept.next = self.in_valid.val() && self.in_ready.val();
        self.ram.raddr.next = self.in_index.val();
        self.phase.d.next = !self.reset.val() && !self.phase.q.val();
        // S1..SM: the packet travels; the index on through the write history.
        self.valid[0].d.next = self.accept.val();
        self.payload[0].d.next = self.in_payload.val();
        self.head[0].d.next = self.in_index.val();
        for s in 1..self._head {
            self.valid[s].d.next = self.valid[s - 1].q.val() && !self.reset.val();
            self.payload[s].d.next = self.payload[s - 1].q.val();
            self.head[s].d.next = self.head[s - 1].q.val();
        }
        self.last_valid.next = false;
        self.last_payload.next = self.payload[0].q.val();
        self.last_index.next = self.head[0].q.val();
        for s in 0..self._head {
            self.last_valid.next = self.valid[s].q.val();
            self.last_payload.next = self.payload[s].q.val();
            self.last_index.next = self.head[s].q.val();
        }
        self.cmp_index.next = self.head[0].q.val();
        for s in 0..self._cmp_end {
            self.cmp_index.next = self.head[s].q.val();
        }
        self.valid_m.d.next = self.last_valid.val() && !self.reset.val();
        self.payload_m.d.next = self.last_payload.val();
        self.tail[0].d.next = self.last_index.val();
        for k in 1..self._history {
            self.tail[k].d.next = self.tail[k - 1].q.val();
        }
        // SM-1 (SL-1): compare against the packets that will be 1..5 stages ahead of SM (SL) when this one
        // is at SM (SL); for the distances after the nearest their write flags are known now (next cycle's
        // `wr_we[k]`), so the nearest match is picked here and registered one-hot. With the look-ahead
        // stage, `tail[0]` is the packet at SM: distance 2 from this one (3 with two levels).
        self.near_hit.d.next = self.cmp_index.val() == self.tail[0].q.val()
            && self.forward_enable.val().get_bit(0)
            && self.valid_m.q.val()
            && !self.reset.val();
        self.taken.next = false;
        for k in 1..self._history {
            self.psel[k - 1].d.next = !self.taken.val()
                && self.cmp_index.val() == self.tail[k].q.val()
                && self.forward_enable.val().get_bit(k)
                && self.wr_we[k - 1].q.val()
                && !self.reset.val();
            self.taken.next = self.taken.val() || self.psel[k - 1].d.val();
        }
        self.use_ram.d.next = !self.taken.val();
        // SM (SL): the RAM word, the forward mux (nearest write wins); the core decides (looks ahead).
        self.ram_data.d.next = self.ram.rdata.val();
        if self.registered.val() {
            self.ram_word.next = self.ram.rdata.val();
        } else {
            self.ram_word.next = self.ram_data.q.val();
        }
        self.mod_valid.next = self.valid_m.q.val() && !self.reset.val();
        self.mod_index.next = self.tail[0].q.val();
        self.mod_payload.next = self.payload_m.q.val();
        self.mod_fwd1.next = self.wr_data[0].q.val();
        self.mod_fwd2.next = self.wr_data[1].q.val();
        self.mod_fwd3.next = self.wr_data[2].q.val();
        self.mod_fwd4.next = self.wr_data[3].q.val();
        self.mod_fwd5.next = self.wr_data[4].q.val();
        // The far candidates (RAM, distances 2..5) as an AND-OR on the one-hot selects, then distance 1.
        self.far_word.next = self.zero_w.val();
        self.mod_pick.next = self.pick_ram.val();
        if self.use_ram.q.val() {
            self.far_word.next = self.ram_word.val();
        }
        for k in 1..self._history {
            if self.psel[k - 1].q.val() {
                self.far_word.next = self.far_word.val() | self.wr_data[k].q.val();
                self.mod_pick.next = self.pick[k].val();
            }
        }
        self.mux_word.next = self.far_word.val();
        if self.near_hit.q.val() && self.wr_we[0].q.val() {
            self.mux_word.next = self.wr_data[0].q.val();
            self.mod_pick.next = self.pick[0].val();
        }
        // Second level: the mux's word registered into SL; there the write of the packet two ahead (its index
        // match registered at SL-1 against `tail[0]`, the packet then at SM) replaces it.
        self.sl1_index.next = self.head[0].q.val();
        for s in 1..self._head {
            self.sl1_index.next = self.head[s - 1].q.val();
        }
        self.early2.d.next = self.mux_word.val();
        self.near2.d.next = self.sl1_index.val() == self.tail[0].q.val()
            && self.near2_enable.val()
            && self.valid_m.q.val()
            && !self.reset.val();
        self.sl_word.next = self.mux_word.val();
        self.pre_early.next = self.mux_word.val();
        self.pre_near2.next = false;
        if self.lookahead2.val() {
            self.sl_word.next = self.early2.q.val();
            self.pre_early.next = self.early2.q.val();
            if self.near2.q.val() && self.wr_we[0].q.val() {
                self.sl_word.next = self.wr_data[0].q.val();
                self.pre_near2.next = true;
            }
        }
        // Look-ahead: SL's word registered; at SM the write of the packet directly ahead (its index match
        // registered at SL against `tail[0]`, the packet then at SM) replaces it.
        self.early_word.d.next = self.sl_word.val();
        self.near1.d.next = self.last_index.val() == self.tail[0].q.val()
            && self.near1_enable.val()
            && self.valid_m.q.val()
            && !self.reset.val();
        self.pre_valid.next = self.lookahead.val() && self.last_valid.val() && !self.reset.val();
        self.pre_payload.next = self.last_payload.val();
        self.pre_old.next = self.sl_word.val();
        if self.lookahead.val() {
            self.mod_ram.next = self.early_word.q.val();
            self.mod_old.next = self.early_word.q.val();
            self.mod_pick.next = self.pick_ram.val();
            if self.near1.q.val() && self.wr_we[0].q.val() {
                self.mod_old.next = self.wr_data[0].q.val();
                self.mod_pick.next = self.pick[0].val();
            }
        } else {
            self.mod_ram.next = self.ram_word.val();
            self.mod_old.next = self.mux_word.val();
        }
        // SM+1: write; SM+2 ..: write history for forwarding.
        self.wr_we[0].d.next = self.valid_m.q.val() && self.mod_write.val() && !self.reset.val();
        self.wr_data[0].d.next = self.mod_new.val();
        for k in 1..self._history {
            self.wr_data[k].d.next = self.wr_data[k - 1].q.val();
        }
        for k in 2..self._history {
            self.wr_we[k - 1].d.next = self.wr_we[k - 2].q.val() && !self.reset.val();
        }
        self.ram.we.next = self.wr_we[0].q.val();
        self.ram.waddr.next = self.tail[1].q.val();
        self.ram.wdata.next = self.wr_data[0].q.val();
    }
}
