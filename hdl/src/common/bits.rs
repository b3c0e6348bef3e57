//! Width-changing leaves: `ZeroExt<I, O>` zero-extends an I-bit value to O bits (O ≥ I); `Slice<I, O>`
//! takes O bits at a fixed offset.
//!
//! rust-hdl has no concatenation, and its `bit_cast` emits expressions whose widths Verilator flags; so
//! packing fields into a word is written as `zx(a) | (zx(b) << OFF_B) | …` over O-bit values, with this
//! leaf as the only place a width changes (`{{(O-I){1'b0}}, in}` — exact widths, lint clean).

use rust_hdl::prelude::*;

#[derive(LogicBlock, Default)]
pub struct ZeroExt<const I: usize, const O: usize> {
    pub din: Signal<In, Bits<I>>,
    pub out: Signal<Out, Bits<O>>,
}

impl<const I: usize, const O: usize> Logic for ZeroExt<I, O> {
    fn update(&mut self) {
        assert!(O >= I, "ZeroExt<{I}, {O}> narrows");
        self.out.next = Bits::<O>::from(num_bigint::BigUint::from(self.din.val()));
    }
    fn connect(&mut self) {
        self.out.connect();
    }
    fn hdl(&self) -> Verilog {
        assert!(O >= I, "ZeroExt<{I}, {O}> narrows");
        if O == I {
            Verilog::Custom("always @(*) out = din;\n".into())
        } else {
            Verilog::Custom(format!("always @(*) out = {{{{{}{{1'b0}}}}, din}};\n", O - I))
        }
    }
}

/// `Slice<I, O>`: the O bits of an I-bit value starting at a generation-time bit offset.
///
/// rust-hdl's `get_bits` with a variable offset emits an index whose width Verilator flags; this leaf
/// emits the offset as a literal (`din[OFF +: O]`).
#[derive(LogicBlock, Default)]
pub struct Slice<const I: usize, const O: usize> {
    pub din: Signal<In, Bits<I>>,
    pub out: Signal<Out, Bits<O>>,
    _offset: usize,
}

impl<const I: usize, const O: usize> Slice<I, O> {
    pub fn new(offset: usize) -> Self {
        assert!(offset + O <= I, "Slice<{I}, {O}> at offset {offset} reads past the input");
        Slice { din: Default::default(), out: Default::default(), _offset: offset }
    }
}

impl<const I: usize, const O: usize> Logic for Slice<I, O> {
    fn update(&mut self) {
        self.out.next = self.din.val().get_bits::<O>(self._offset);
    }
    fn connect(&mut self) {
        self.out.connect();
    }
    fn hdl(&self) -> Verilog {
        // The input is the whole word the slice picks from; the other bits are unused by design
        // (Verilator does not flag signals named *unused*; synthesis removes them).
        Verilog::Custom(format!("always @(*) out = din[{} +: {O}];\nwire unused_bits = ^din;\n", self._offset))
    }
}

/// A generation-time constant of W bits.
pub fn constant<const W: usize>(v: u64) -> Constant<Bits<W>> {
    Constant::new(Bits::from(v))
}

/// Generation-time constants of W bits, one per value (per-fridge tables and the like).
pub fn consts<const W: usize>(v: impl IntoIterator<Item = u64>) -> Vec<Constant<Bits<W>>> {
    v.into_iter().map(constant).collect()
}
