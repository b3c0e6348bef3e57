//! The shared CSR driver: what software does on a CSR port, one access per cycle — a queue of pending
//! writes (the settings after a reset, tally swaps…), immediate writes and random reads of any register —
//! and the read-back check: every read is answered with `rd_valid` after the map's read latency (the next
//! cycle, or the one after for a registered read), and `rd_valid` never rises without one. (The answer's
//! data is compared against golden with the rest of the outputs.)

use crate::harness::Scoreboard;
use golden::common::config::CSR_STATUS_BASE;
use golden::common::csr::CsrLayout;
use rand::Rng;
use std::collections::VecDeque;

/// The CSR request fields of a golden inputs struct (defined with the golden CSR bank).
pub use golden::common::csr::CsrPort;

/// Sets the standard CSR pins of a model (`csr_addr`, `csr_wr_en`, `csr_wr_data`, `csr_rd_en`) from the
/// CSR request of a golden inputs struct: `drive_csr_pins!(self, i)` in a core's `drive`.
#[macro_export]
macro_rules! drive_csr_pins {
    ($model:expr, $inputs:expr) => {{
        let (addr, wr_en, wr_data, rd_en) = $crate::csr_driver::CsrPort::csr_request($inputs);
        $model.set_csr_addr(addr as u64);
        $model.set_csr_wr_en(wr_en as u64);
        $model.set_csr_wr_data(wr_data as u64);
        $model.set_csr_rd_en(rd_en as u64);
    }};
}

/// Drives a CSR port (see the module documentation).
#[derive(Debug, Clone)]
pub struct CsrDriver {
    pending: VecDeque<(u8, u32)>,
    n_cfg: u8,
    n_stat: u8,
    /// Whether the requests of the last `latency` cycles were reads, oldest first (its front's answer is
    /// due now once it holds `latency`; shorter in the first cycles).
    answer_due: VecDeque<bool>,
    latency: usize,
}

impl CsrDriver {
    pub fn new(layout: &CsrLayout) -> Self {
        CsrDriver {
            pending: VecDeque::new(),
            n_cfg: layout.config.len() as u8,
            n_stat: layout.status.len() as u8,
            answer_due: VecDeque::new(),
            latency: layout.read_latency as usize,
        }
    }
    /// Replaces the queue by `writes` (software after a reset: the settings).
    pub fn load(&mut self, writes: Vec<(u8, u32)>) {
        self.pending = writes.into();
    }
    /// Queues a write behind the pending ones.
    pub fn push(&mut self, addr: u8, value: u32) {
        self.pending.push_back((addr, value));
    }
    /// No write pending.
    pub fn is_idle(&self) -> bool {
        self.pending.is_empty()
    }
    /// Puts the next queued write on the port, unless this is a reset cycle; false if it put none.
    pub fn write_next(&mut self, i: &mut impl CsrPort) -> bool {
        if i.reset() {
            return false;
        }
        match self.pending.pop_front() {
            Some((a, v)) => {
                i.set_csr(a, Some(v), false);
                true
            }
            None => false,
        }
    }
    /// A write now (ahead of the queue: flushes, threshold rewrites).
    pub fn write(&self, i: &mut impl CsrPort, addr: u8, value: u32) {
        i.set_csr(addr, Some(value), false);
    }
    /// A read of register `addr` now (software polling a status register).
    pub fn read(&self, i: &mut impl CsrPort, addr: u8) {
        i.set_csr(addr, None, true);
    }
    /// A read of a random register: a config or a status register, equally likely.
    pub fn random_read(&self, i: &mut impl CsrPort, r: &mut impl Rng) {
        let addr =
            if r.gen_bool(0.5) { r.gen_range(0..self.n_cfg) } else { CSR_STATUS_BASE + r.gen_range(0..self.n_stat) };
        i.set_csr(addr, None, true);
    }
    /// The read-back check of this cycle (`rd_valid` as the RTL shows it, `i` this cycle's inputs), named
    /// `csr_rd_valid (read-back)` in the scoreboard.
    pub fn observe(&mut self, sb: &mut Scoreboard, cycle: u64, i: &impl CsrPort, rd_valid: bool) {
        self.observe_read(sb, cycle, i.csr_read() && !i.reset(), rd_valid);
        if i.reset() {
            // A reset also cancels the reads still on their way (a registered read's first stage).
            self.answer_due.iter_mut().for_each(|d| *d = false);
        }
    }
    /// [`observe`](Self::observe) with this cycle's request reduced to `read`: a read, not in a reset.
    pub fn observe_read(&mut self, sb: &mut Scoreboard, cycle: u64, read: bool, rd_valid: bool) {
        if self.answer_due.len() == self.latency {
            let due = self.answer_due.pop_front().unwrap_or(false);
            sb.check(cycle, "csr_rd_valid (read-back)", Some(due as u128), rd_valid as u128);
        }
        self.answer_due.push_back(read);
    }
}
