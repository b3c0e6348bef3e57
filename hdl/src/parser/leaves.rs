//! The parser's two generated leaves: [`ByteRev`] (a beat's bytes in reverse order, so that frame byte 0
//! lands in the most significant byte of the big-endian header window) and [`be`] (a big-endian field of
//! the window at a byte offset, a [`Slice`]).

use crate::common::bits::Slice;
use rust_hdl::prelude::*;

/// The window's width in bits (128 bytes).
pub const WIN: usize = 1024;

/// The `N`-bit big-endian field at byte offset `o` of the window (frame byte `i` is window bits
/// `WIN − 8i − 1 … WIN − 8i − 8`).
pub fn be<const N: usize>(o: usize) -> Slice<WIN, N> {
    Slice::new(WIN - 8 * o - N)
}

/// `out` = `din` with its bytes in reverse order (W a multiple of 8).
#[derive(LogicBlock, Default)]
pub struct ByteRev<const W: usize> {
    pub din: Signal<In, Bits<W>>,
    pub out: Signal<Out, Bits<W>>,
}

impl<const W: usize> Logic for ByteRev<W> {
    fn update(&mut self) {
        let mut bytes = num_bigint::BigUint::from(self.din.val()).to_bytes_le();
        bytes.resize(W / 8, 0);
        self.out.next = Bits::<W>::from(num_bigint::BigUint::from_bytes_be(&bytes));
    }
    fn connect(&mut self) {
        self.out.connect();
    }
    fn hdl(&self) -> Verilog {
        assert!(W % 8 == 0 && W >= 8, "ByteRev<{W}>");
        let parts: Vec<String> = (0..W / 8).map(|i| format!("din[{}:{}]", 8 * i + 7, 8 * i)).collect();
        Verilog::Custom(format!("always @(*) out = {{{}}};\n", parts.join(", ")))
    }
}
