//! 32-bit xorshift PRNG (shifts 13/17/5). Model: `golden::common::prng`.
//!
//! `value` is the current state. Priority per cycle: `reset` loads the default seed, `seed_load` loads
//! `seed` (0 loads the default seed: zero is a fixed point of xorshift), `advance` steps the generator.
//! Cores wire `seed_load` to a write of their seed CSR. `next_value` is what `value` will be in the next
//! cycle (the state register's input), for cores that compare the value a cycle ahead. The advanced
//! state (`xorshift(state)`) is itself a register, computed from the next state, so the input of the
//! state register is a multiplexer of registers and `next_value` carries no XOR network.

use super::reg::Reg;
use golden::common::prng::PRNG_DEFAULT_SEED;
use rust_hdl::prelude::*;

#[derive(LogicBlock)]
pub struct Prng {
    pub clock: Signal<In, Clock>,
    pub reset: Signal<In, bool>,
    pub seed_load: Signal<In, bool>,
    pub seed: Signal<In, Bits<32>>,
    pub advance: Signal<In, bool>,
    pub value: Signal<Out, Bits<32>>,
    pub advanced_value: Signal<Out, Bits<32>>,
    pub seed_value: Signal<Out, Bits<32>>,
    state: Reg<Bits<32>>,
    /// `xorshift(state)`, registered alongside `state`.
    advanced: Reg<Bits<32>>,
    next_state: Signal<Local, Bits<32>>,
    s13: Signal<Local, Bits<32>>,
    s17: Signal<Local, Bits<32>>,
    default_seed: Constant<Bits<32>>,
}

impl Default for Prng {
    fn default() -> Self {
        Prng {
            clock: Default::default(),
            reset: Default::default(),
            seed_load: Default::default(),
            seed: Default::default(),
            advance: Default::default(),
            value: Default::default(),
            advanced_value: Default::default(),
            seed_value: Default::default(),
            state: Default::default(),
            advanced: Default::default(),
            next_state: Default::default(),
            s13: Default::default(),
            s17: Default::default(),
            default_seed: Constant::new(Bits::from(PRNG_DEFAULT_SEED as u64)),
        }
    }
}

impl Logic for Prng {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, state, advanced);
        self.value.next = self.state.q.val();
        self.advanced_value.next = self.advanced.q.val();
        if self.seed.val() == 0 {
            self.seed_value.next = self.default_seed.val();
        } else {
            self.seed_value.next = self.seed.val();
        }
        self.next_state.next = self.state.q.val();
        if self.reset.val() {
            self.next_state.next = self.default_seed.val();
        } else if self.seed_load.val() {
            if self.seed.val() == 0 {
                self.next_state.next = self.default_seed.val();
            } else {
                self.next_state.next = self.seed.val();
            }
        } else if self.advance.val() {
            self.next_state.next = self.advanced.q.val();
        }
        self.s13.next = self.next_state.val() ^ (self.next_state.val() << 13);
        self.s17.next = self.s13.val() ^ (self.s13.val() >> 17);
        self.advanced.d.next = self.s17.val() ^ (self.s17.val() << 5);
        self.state.d.next = self.next_state.val();
    }
}
