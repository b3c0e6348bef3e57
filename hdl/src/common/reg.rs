//! `Reg<T>`: a positive-edge register, like rust-hdl's `DFF` but with a switchable `initial` value.
//!
//! Verilog for synthesis gives every register an initial value (FPGA registers have one). The Verilog the
//! co-simulation models are built from has none, so Verilator's `--x-initial unique` randomises every
//! register and memory at start-up and a hidden dependence on power-up state shows up as a mismatch. The
//! switch is [`with_initial_values`], read while Verilog is generated.

use rust_hdl::prelude::*;
use std::cell::Cell;

thread_local! {
    static EMIT_INITIAL: Cell<bool> = const { Cell::new(true) };
}

/// Runs `f` (which generates Verilog) with initial values on or off, restoring the previous setting.
pub fn with_initial_values<R>(on: bool, f: impl FnOnce() -> R) -> R {
    let before = EMIT_INITIAL.with(|c| c.replace(on));
    let r = f();
    EMIT_INITIAL.with(|c| c.set(before));
    r
}

/// Whether Verilog being generated now carries `initial` values.
pub fn initial_values() -> bool {
    EMIT_INITIAL.with(|c| c.get())
}

#[derive(Clone, Debug, LogicBlock, Default)]
pub struct Reg<T: Synth> {
    pub d: Signal<In, T>,
    pub q: Signal<Out, T>,
    pub clock: Signal<In, Clock>,
}

impl<T: Synth> Logic for Reg<T> {
    fn update(&mut self) {
        if self.clock.pos_edge() {
            self.q.next = self.d.val()
        }
    }
    fn connect(&mut self) {
        self.q.connect();
    }
    fn hdl(&self) -> Verilog {
        let init = if initial_values() {
            format!("initial q = {:x};\n", T::default().verilog())
        } else {
            String::new()
        };
        Verilog::Custom(format!("{init}always @(posedge clock) q <= d;\n"))
    }
    fn timing(&self) -> Vec<TimingInfo> {
        vec![TimingInfo {
            name: "reg".into(),
            clock: "clock".into(),
            inputs: vec!["d".into()],
            outputs: vec!["q".into()],
        }]
    }
}
