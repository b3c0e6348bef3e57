//! Read-modify-write pipeline with forwarding (`RmwPipeline<A, W, P>`): the one place hazards are handled.
//!
//! A core puts a packet in (`in_index`, `in_payload`, valid/ready), sees it again two cycles later at the
//! modify stage S2 with the table word `mod_old`, and answers in the same cycle with `mod_write` and
//! `mod_new`. The pipeline guarantees `mod_old` is the word as if every earlier packet had completed:
//!
//! | stage | cycle | what happens |
//! |---|---|---|
//! | S0 | t   | accept; RAM read address = `in_index` |
//! | S1 | t+1 | RAM data out; compare index with the packets now in S2, S3, S4 (they will be in S3, S4, S5) |
//! | S2 | t+2 | RAM data registered; forward mux (S3 > S4 > S5 > RAM) → `mod_old`; core computes `mod_new` |
//! | S3 | t+3 | write register → RAM write port |
//! | S4, S5 | t+4, t+5 | write history: a packet 2 or 3 cycles behind read the RAM before this write landed |
//!
//! The index compares sit in S1, a stage before the forward mux; the mux and the core's modify logic
//! share S2 (registered into S3), so that stage's depth is mux + the core's arithmetic. Whether that meets
//! the 150 MHz target is measured by the synthesis flow (`netmeas synth`), not assumed.
//! Dual-port RAM: one packet per cycle (II = 1). Single-port RAM: `in_ready` only in even phases (II = 2),
//! so reads (even) and S3 writes (odd) never collide. `in_ready` is low during reset and the RAM's reset
//! sweep. Model: `golden::common::rmw`.
//!
//! Cores whose decision after the mux is deep (compares on carry chains) can take the mux off that path:
//! `mod_ram`, `mod_s3`, `mod_s4`, `mod_s5` are the four candidates for `mod_old` (all registers) and
//! `mod_pick` says one-hot which one `mod_old` is (bit 0 RAM, 1 S3, 2 S4, 3 S5; from six register bits),
//! so the core can decide on each candidate in parallel and pick the one-bit answer. Cores that do not
//! use them name them `unused_*` for the lint.
//!
//! `forward_enable` is a test-only generation parameter (bit k-1 enables forwarding across distance k);
//! production builds pass [`FORWARD_ALL`] and the constant folds away. The co-simulation suite builds one
//! deliberately broken variant to prove its RMW test catches a missing forwarding path.

use super::reg::Reg;
use super::sram::Sram;
use golden::common::sram::RamPorts;
use rust_hdl::prelude::*;

/// Forward across distances 1, 2 and 3 (the only correct setting).
pub const FORWARD_ALL: u64 = 0b111;

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
    pub mod_s3: Signal<Out, Bits<W>>,
    pub mod_s4: Signal<Out, Bits<W>>,
    pub mod_s5: Signal<Out, Bits<W>>,
    pub mod_pick: Signal<Out, Bits<4>>,
    pub mod_write: Signal<In, bool>,
    pub mod_new: Signal<In, Bits<W>>,
    ram: Sram<A, W>,
    accept: Signal<Local, bool>,
    phase: Reg<bool>,
    s1_valid: Reg<bool>,
    s1_index: Reg<Bits<A>>,
    s1_payload: Reg<Bits<P>>,
    s2_valid: Reg<bool>,
    s2_index: Reg<Bits<A>>,
    s2_payload: Reg<Bits<P>>,
    s2_data: Reg<Bits<W>>,
    fwd3: Reg<bool>,
    fwd4: Reg<bool>,
    fwd5: Reg<bool>,
    s3_we: Reg<bool>,
    s3_index: Reg<Bits<A>>,
    s3_data: Reg<Bits<W>>,
    s4_we: Reg<bool>,
    s4_index: Reg<Bits<A>>,
    s4_data: Reg<Bits<W>>,
    s5_we: Reg<bool>,
    s5_data: Reg<Bits<W>>,
    single_port: Constant<bool>,
    pick_ram: Constant<Bits<4>>,
    pick_s3: Constant<Bits<4>>,
    pick_s4: Constant<Bits<4>>,
    pick_s5: Constant<Bits<4>>,
    forward_enable: Constant<Bits<3>>,
}

impl<const A: usize, const W: usize, const P: usize> RmwPipeline<A, W, P> {
    pub fn new(ports: RamPorts) -> Self {
        Self::with_forwarding(ports, FORWARD_ALL)
    }
    /// Test-only: `forward_enable` other than [`FORWARD_ALL`] builds a broken pipeline.
    pub fn with_forwarding(ports: RamPorts, forward_enable: u64) -> Self {
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
            mod_s3: Default::default(),
            mod_s4: Default::default(),
            mod_s5: Default::default(),
            mod_pick: Default::default(),
            mod_write: Default::default(),
            mod_new: Default::default(),
            ram: Sram::new(ports, true),
            accept: Default::default(),
            phase: Default::default(),
            s1_valid: Default::default(),
            s1_index: Default::default(),
            s1_payload: Default::default(),
            s2_valid: Default::default(),
            s2_index: Default::default(),
            s2_payload: Default::default(),
            s2_data: Default::default(),
            fwd3: Default::default(),
            fwd4: Default::default(),
            fwd5: Default::default(),
            s3_we: Default::default(),
            s3_index: Default::default(),
            s3_data: Default::default(),
            s4_we: Default::default(),
            s4_index: Default::default(),
            s4_data: Default::default(),
            s5_we: Default::default(),
            s5_data: Default::default(),
            single_port: Constant::new(ports == RamPorts::Single),
            pick_ram: Constant::new(Bits::from(0b0001u64)),
            pick_s3: Constant::new(Bits::from(0b0010u64)),
            pick_s4: Constant::new(Bits::from(0b0100u64)),
            pick_s5: Constant::new(Bits::from(0b1000u64)),
            forward_enable: Constant::new(Bits::from(forward_enable)),
        }
    }
}

impl<const A: usize, const W: usize, const P: usize> Logic for RmwPipeline<A, W, P> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self, clock, phase, s1_valid, s1_index, s1_payload, s2_valid, s2_index, s2_payload, s2_data,
            fwd3, fwd4, fwd5, s3_we, s3_index, s3_data, s4_we, s4_index, s4_data, s5_we, s5_data
        );
        clock!(self, clock, ram);
        self.ram.reset.next = self.reset.val();
        // S0: accept and issue the read.
        self.in_ready.next = !self.reset.val()
            && !self.ram.busy.val()
            && (!self.single_port.val() || !self.phase.q.val());
        self.accept.next = self.in_valid.val() && self.in_ready.val();
        self.ram.raddr.next = self.in_index.val();
        self.phase.d.next = !self.reset.val() && !self.phase.q.val();
        self.s1_valid.d.next = self.accept.val();
        self.s1_index.d.next = self.in_index.val();
        self.s1_payload.d.next = self.in_payload.val();
        // S1: compare against the packets that will be in S3, S4, S5 when this one is in S2.
        self.s2_valid.d.next = self.s1_valid.q.val() && !self.reset.val();
        self.s2_index.d.next = self.s1_index.q.val();
        self.s2_payload.d.next = self.s1_payload.q.val();
        self.s2_data.d.next = self.ram.rdata.val();
        self.fwd3.d.next = self.s1_index.q.val() == self.s2_index.q.val() && self.forward_enable.val().get_bit(0);
        self.fwd4.d.next = self.s1_index.q.val() == self.s3_index.q.val() && self.forward_enable.val().get_bit(1);
        self.fwd5.d.next = self.s1_index.q.val() == self.s4_index.q.val() && self.forward_enable.val().get_bit(2);
        // S2: forward mux; the core decides.
        self.mod_valid.next = self.s2_valid.q.val() && !self.reset.val();
        self.mod_index.next = self.s2_index.q.val();
        self.mod_payload.next = self.s2_payload.q.val();
        self.mod_ram.next = self.s2_data.q.val();
        self.mod_s3.next = self.s3_data.q.val();
        self.mod_s4.next = self.s4_data.q.val();
        self.mod_s5.next = self.s5_data.q.val();
        if self.fwd3.q.val() && self.s3_we.q.val() {
            self.mod_old.next = self.s3_data.q.val();
            self.mod_pick.next = self.pick_s3.val();
        } else if self.fwd4.q.val() && self.s4_we.q.val() {
            self.mod_old.next = self.s4_data.q.val();
            self.mod_pick.next = self.pick_s4.val();
        } else if self.fwd5.q.val() && self.s5_we.q.val() {
            self.mod_old.next = self.s5_data.q.val();
            self.mod_pick.next = self.pick_s5.val();
        } else {
            self.mod_old.next = self.s2_data.q.val();
            self.mod_pick.next = self.pick_ram.val();
        }
        // S3: write; S4, S5: write history for forwarding.
        self.s3_we.d.next = self.s2_valid.q.val() && self.mod_write.val() && !self.reset.val();
        self.s3_index.d.next = self.s2_index.q.val();
        self.s3_data.d.next = self.mod_new.val();
        self.ram.we.next = self.s3_we.q.val();
        self.ram.waddr.next = self.s3_index.q.val();
        self.ram.wdata.next = self.s3_data.q.val();
        self.s4_we.d.next = self.s3_we.q.val() && !self.reset.val();
        self.s4_index.d.next = self.s3_index.q.val();
        self.s4_data.d.next = self.s3_data.q.val();
        self.s5_we.d.next = self.s4_we.q.val() && !self.reset.val();
        self.s5_data.d.next = self.s4_data.q.val();
    }
}
