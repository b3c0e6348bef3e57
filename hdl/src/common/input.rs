//! Input stage (`InputStage`): F1, the one-packet register in front of a core's pipeline, with the
//! valid/ready handshake every core's input port has (the fridge, IFPD, MAPLE, heavy-hitter and reordering
//! cores; each cycle model's F1 in `golden::<core>::cycle`).
//!
//! - `in_ready = !reset && (!valid || out_ready)`: F1 takes a packet when it is empty or hands its packet
//!   on in the same cycle; reset holds the port closed.
//! - `accept = in_valid && in_ready`: a packet enters F1 (the core loads F1's data registers — their
//!   widths are its own — and its hash units on `accept`).
//! - `transfer = valid && out_ready`: F1's packet enters the pipeline behind it (`out_ready`: that
//!   pipeline's input ready, e.g. the banks' `in_ready`, low during their reset sweep).
//! - `valid`: F1 holds a packet. It clears on reset, sets on `accept` with `keep`, clears on a `transfer`
//!   without one. A packet accepted with `keep` low is consumed without entering F1 (the reordering core
//!   counts non-data segments and drops them there); the other cores tie `keep` high.
//!
//! The outputs are combinational from `valid`'s register and the inputs, as the cores wrote them before
//! this block existed (same logic, one definition).

use crate::common::reg::Reg;
use crate::declare_block;
use rust_hdl::prelude::*;

declare_block! {
    /// See the [module docs](self).
    #[derive(LogicBlock)]
    pub struct InputStage fn build() {
        pub clock: Signal<In, Clock>,
        pub reset: Signal<In, bool>,
        pub in_valid: Signal<In, bool>,
        /// The packet at the port enters F1 when accepted (else it is consumed at the port).
        pub keep: Signal<In, bool>,
        /// The pipeline behind F1 takes a packet this cycle.
        pub out_ready: Signal<In, bool>,
        pub in_ready: Signal<Out, bool>,
        pub accept: Signal<Out, bool>,
        pub transfer: Signal<Out, bool>,
        pub valid: Signal<Out, bool>,
        f1_valid: Reg<bool>,
    }
}

impl Default for InputStage {
    fn default() -> Self {
        Self::build()
    }
}

impl Logic for InputStage {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, f1_valid);
        self.valid.next = self.f1_valid.q.val();
        self.transfer.next = self.f1_valid.q.val() && self.out_ready.val();
        self.in_ready.next = !self.reset.val() && (!self.f1_valid.q.val() || self.out_ready.val());
        self.accept.next = self.in_valid.val() && self.in_ready.val();
        if self.reset.val() {
            self.f1_valid.d.next = false;
        } else if self.accept.val() && self.keep.val() {
            self.f1_valid.d.next = true;
        } else if self.transfer.val() {
            self.f1_valid.d.next = false;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{rngs::SmallRng, Rng, SeedableRng};

    /// Random `in_valid`, `keep` (low one packet in four), `out_ready` and resets (one cycle in 23) in rust-hdl's simulator against a plain
    /// model of the handshake: every output every cycle, and no packet lost or duplicated (packets in =
    /// packets out + the one F1 holds, since the last reset).
    #[test]
    fn handshake_matches_its_model_under_random_stalls_and_resets() {
        let mut uut = InputStage::build();
        uut.connect_all();
        rust_hdl::core::check_error::check_all(&uut).expect("a well-formed block");
        let mut sim = Simulation::new();
        sim.add_clock(5, |x: &mut Box<InputStage>| x.clock.next = !x.clock.val());
        sim.add_testbench(move |mut sim: Sim<InputStage>| {
            let mut x = sim.init()?;
            let mut rng = SmallRng::seed_from_u64(0x6a09_e667_f3bc_c908);
            let mut valid = false;
            let (mut taken, mut passed, mut stalls) = (0u64, 0u64, 0u64);
            for cycle in 0..4000 {
                let r: u64 = rng.gen();
                let reset = cycle == 0 || r % 23 == 0;
                let (in_valid, out_ready, keep) = (r & 0x100 != 0, r & 0x600 != 0, r & 0x1800 != 0);
                x.reset.next = reset;
                x.in_valid.next = in_valid;
                x.keep.next = keep;
                x.out_ready.next = out_ready;
                // The edge: the model's register moves on this cycle's inputs.
                let in_ready = !reset && (!valid || out_ready);
                let (accept, transfer) = (in_valid && in_ready, valid && out_ready);
                stalls += (in_valid && !in_ready) as u64;
                if reset {
                    (taken, passed) = (0, 0);
                } else {
                    taken += (accept && keep) as u64;
                    passed += transfer as u64;
                }
                valid = !reset && ((accept && keep) || (valid && !transfer));
                wait_clock_cycle!(sim, clock, x);
                // Mid-cycle (after the edge, the same inputs): the register and the combinational outputs.
                let in_ready = !reset && (!valid || out_ready);
                sim_assert_eq!(sim, x.valid.val(), valid, x);
                sim_assert_eq!(sim, x.in_ready.val(), in_ready, x);
                sim_assert_eq!(sim, x.accept.val(), in_valid && in_ready, x);
                sim_assert_eq!(sim, x.transfer.val(), valid && out_ready, x);
                sim_assert_eq!(sim, taken, passed + (valid as u64), x);
            }
            assert!(stalls > 100, "{stalls} stalled packets");
            sim.done(x)
        });
        sim.run(Box::new(uut), 200_000).unwrap();
    }
}
