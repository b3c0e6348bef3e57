//! Delay line (`DelayLine<W>`): a W-bit word and its valid bit, `n` cycles late (`n ≥ 1` registers, a
//! generation parameter). The valid bits clear on reset; the data registers do not (the word is don't-care
//! while its valid bit is low). Golden model: `golden::common::delay::DelayModel`.
//!
//! Used where a core meets another core's result a fixed number of cycles after handing it a packet (the
//! reordering hybrid's descriptors wait for the heavy-hitter core's result port).

use crate::common::reg::Reg;
use rust_hdl::prelude::*;

#[derive(LogicBlock)]
pub struct DelayLine<const W: usize> {
    pub clock: Signal<In, Clock>,
    pub reset: Signal<In, bool>,
    pub in_valid: Signal<In, bool>,
    pub in_data: Signal<In, Bits<W>>,
    pub out_valid: Signal<Out, bool>,
    pub out_data: Signal<Out, Bits<W>>,
    valid: Vec<Reg<bool>>,
    data: Vec<Reg<Bits<W>>>,
    _n: usize,
}

impl<const W: usize> DelayLine<W> {
    /// `n` cycles of delay (1..=64).
    pub fn new(n: usize) -> Result<Self, String> {
        if !(1..=64).contains(&n) {
            return Err(format!("DelayLine: {n} stages (1..=64)"));
        }
        Ok(DelayLine {
            clock: Default::default(),
            reset: Default::default(),
            in_valid: Default::default(),
            in_data: Default::default(),
            out_valid: Default::default(),
            out_data: Default::default(),
            valid: (0..n).map(|_| Reg::default()).collect(),
            data: (0..n).map(|_| Reg::default()).collect(),
            _n: n,
        })
    }
    pub fn stages(&self) -> usize {
        self._n
    }
}

impl<const W: usize> Logic for DelayLine<W> {
    #[hdl_gen]
    fn update(&mut self) {
        for i in 0..self._n {
            self.valid[i].clock.next = self.clock.val();
            self.data[i].clock.next = self.clock.val();
        }
        self.valid[0].d.next = self.in_valid.val() && !self.reset.val();
        self.data[0].d.next = self.in_data.val();
        for i in 1..self._n {
            self.valid[i].d.next = self.valid[i - 1].q.val() && !self.reset.val();
            self.data[i].d.next = self.data[i - 1].q.val();
        }
        // The last stage's (each stage in turn: the last assignment wins).
        for i in 0..self._n {
            self.out_valid.next = self.valid[i].q.val();
            self.out_data.next = self.data[i].q.val();
        }
    }
}
