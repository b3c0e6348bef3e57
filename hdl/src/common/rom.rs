//! Read-only memory (`Rom<A, W>`): 2^A words of W ≤ 128 bits with contents fixed at generation time
//! (e.g. a table computed by the golden model), registered read: `data` shows `mem[addr]` one cycle after
//! `addr`. The Verilog carries the contents as an `initial` block, which Verilator executes and Yosys maps
//! into block-RAM initialisation; the read register itself has an initial value only in the synthesis
//! flavour (see [`super::reg`]).

use super::reg::initial_values;
use rust_hdl::prelude::*;
use std::fmt::Write as _;

#[derive(LogicBlock)]
pub struct Rom<const A: usize, const W: usize> {
    pub clock: Signal<In, Clock>,
    pub addr: Signal<In, Bits<A>>,
    pub data: Signal<Out, Bits<W>>,
    _mem: Vec<u128>,
}

impl<const A: usize, const W: usize> Rom<A, W> {
    /// A ROM holding `contents` (missing words are zero; extra words and bits above W are an error).
    pub fn new(contents: &[u128]) -> Result<Self, String> {
        if W > 128 || contents.len() > 1 << A || contents.iter().any(|w| W < 128 && w >> W != 0) {
            return Err(format!("ROM of 2^{A} × {W} bits cannot hold {} words of these values", contents.len()));
        }
        let mut mem = contents.to_vec();
        mem.resize(1 << A, 0);
        Ok(Rom { clock: Default::default(), addr: Default::default(), data: Default::default(), _mem: mem })
    }
}

impl<const A: usize, const W: usize> Logic for Rom<A, W> {
    fn update(&mut self) {
        if self.clock.pos_edge() {
            let w = self._mem[self.addr.val().index()];
            self.data.next = Bits::<W>::from(num_bigint::BigUint::from(w));
        }
    }
    fn connect(&mut self) {
        self.data.connect();
    }
    fn hdl(&self) -> Verilog {
        let mut v = format!("reg [{}:0] mem [0:{}];\ninitial begin\n", W - 1, (1usize << A) - 1);
        for (i, w) in self._mem.iter().enumerate() {
            let _ = writeln!(v, "   mem[{i}] = {W}'h{w:x};");
        }
        if initial_values() {
            v.push_str("   data = 0;\n");
        }
        v.push_str("end\nalways @(posedge clock) data <= mem[addr];\n");
        Verilog::Custom(v)
    }
    fn timing(&self) -> Vec<TimingInfo> {
        vec![TimingInfo {
            name: "rom".into(),
            clock: "clock".into(),
            inputs: vec!["addr".into()],
            outputs: vec!["data".into()],
        }]
    }
}
