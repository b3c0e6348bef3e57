//! 32-bit xorshift PRNG (shifts 13/17/5). Model: `golden::common::prng`.
//!
//! `value` is the current state. Priority per cycle: `reset` loads the default seed, `seed_load` loads
//! `seed` (0 loads the default seed: zero is a fixed point of xorshift), `advance` steps the generator.
//! Cores wire `seed_load` to a write of their seed CSR. `next_value` is what `value` will be in the next
//! cycle (the state register's input), for cores that compare the value a cycle ahead. The advanced
//! state (`xorshift(state)`) is itself a register, so the input of the state register is a multiplexer
//! of registers and `next_value` carries no XOR network. Its own input is chosen the same way: the
//! xorshift of every candidate next state (the default seed: a constant; the seed; `advanced`; `state`,
//! whose xorshift is `advanced` itself) is computed from registers beside the control decision, and the
//! late `reset`/`seed_load`/`advance` only select among them.

use super::reg::Reg;
use golden::common::prng::{xorshift32, PRNG_DEFAULT_SEED};
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
    /// xorshift of the seed input and of `advanced`.
    seed_x: Xorshift,
    advanced_x: Xorshift,
    default_seed: Constant<Bits<32>>,
    /// xorshift of the default seed.
    default_advanced: Constant<Bits<32>>,
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
            seed_x: Default::default(),
            advanced_x: Default::default(),
            default_seed: Constant::new(Bits::from(PRNG_DEFAULT_SEED as u64)),
            default_advanced: Constant::new(Bits::from(xorshift32(PRNG_DEFAULT_SEED) as u64)),
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
        self.seed_x.x.next = self.seed.val();
        self.advanced_x.x.next = self.advanced.q.val();
        // Each branch sets the next state and its xorshift.
        self.next_state.next = self.state.q.val();
        self.advanced.d.next = self.advanced.q.val();
        if self.reset.val() {
            self.next_state.next = self.default_seed.val();
            self.advanced.d.next = self.default_advanced.val();
        } else if self.seed_load.val() {
            if self.seed.val() == 0 {
                self.next_state.next = self.default_seed.val();
                self.advanced.d.next = self.default_advanced.val();
            } else {
                self.next_state.next = self.seed.val();
                self.advanced.d.next = self.seed_x.y.val();
            }
        } else if self.advance.val() {
            self.next_state.next = self.advanced.q.val();
            self.advanced.d.next = self.advanced_x.y.val();
        }
        self.state.d.next = self.next_state.val();
    }
}

/// One xorshift32 step (shifts 13/17/5) as combinational logic: `y = xorshift32(x)`.
#[derive(LogicBlock, Default)]
pub struct Xorshift {
    pub x: Signal<In, Bits<32>>,
    pub y: Signal<Out, Bits<32>>,
    s13: Signal<Local, Bits<32>>,
    s17: Signal<Local, Bits<32>>,
}

impl Logic for Xorshift {
    #[hdl_gen]
    fn update(&mut self) {
        self.s13.next = self.x.val() ^ (self.x.val() << 13);
        self.s17.next = self.s13.val() ^ (self.s13.val() >> 17);
        self.y.next = self.s17.val() ^ (self.s17.val() << 5);
    }
}
