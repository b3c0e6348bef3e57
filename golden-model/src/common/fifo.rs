//! Report FIFO: never stalls the packet path. A push into a full FIFO is dropped and counted.
//!
//! First-word-fall-through: `out_valid`/`out_data` show the head; it leaves in a cycle with `out_ready`.
//! A push is accepted when the FIFO is not full *or* the head leaves in the same cycle. `level` and `drops`
//! (wrapping 32-bit) are registered. Reset empties the FIFO and clears `drops`.

use super::Word;
use std::collections::VecDeque;

/// One cycle's inputs; `T` is the entry type (`u128`, or `[u32; N]` for entries wider than 128 bits).
#[derive(Debug, Clone, Copy, Default)]
pub struct FifoInputs<T = u128> {
    pub reset: bool,
    pub in_valid: bool,
    pub in_data: T,
    pub out_ready: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FifoOutputs<T = u128> {
    pub out_valid: bool,
    /// The head, defined only when `out_valid`.
    pub out_data: Option<T>,
    pub level: usize,
    pub drops: u32,
}

#[derive(Debug, Clone)]
pub struct FifoModel<T: Word = u128> {
    depth: usize,
    width: usize,
    q: VecDeque<T>,
    drops: u32,
    started: bool,
}

impl<T: Word> FifoModel<T> {
    pub fn new(addr_bits: usize, width: usize) -> Self {
        FifoModel {
            depth: 1 << addr_bits,
            width,
            q: VecDeque::new(),
            drops: 0,
            started: false,
        }
    }
    /// Entries now.
    pub fn level(&self) -> usize {
        self.q.len()
    }
    /// Drop counter now.
    pub fn drops(&self) -> u32 {
        self.drops
    }
    pub fn depth(&self) -> usize {
        self.depth
    }
    /// Outputs during this cycle; `None` before the first reset.
    pub fn step(&mut self, i: &FifoInputs<T>) -> Option<FifoOutputs<T>> {
        let out = self.started.then(|| FifoOutputs {
            out_valid: !self.q.is_empty(),
            out_data: self.q.front().copied(),
            level: self.q.len(),
            drops: self.drops,
        });
        if i.reset {
            self.q.clear();
            self.drops = 0;
            self.started = true;
            return out;
        }
        if !self.started {
            return out;
        }
        let pop = i.out_ready && !self.q.is_empty();
        let accept = i.in_valid && (self.q.len() < self.depth || pop);
        if pop {
            self.q.pop_front();
        }
        if accept {
            self.q.push_back(i.in_data.masked(self.width));
        } else if i.in_valid {
            self.drops = self.drops.wrapping_add(1);
        }
        out
    }
}
