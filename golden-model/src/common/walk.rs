//! The read-and-clear walk of a frozen bank (`BankWalk`): the cores with two banks (ping-pong) read the
//! frozen one out through their own bank pipeline, one op per cycle — the heavy-hitter core's `dump`, the
//! reordering core's `flush`. RTL: `hdl::common::walk::BankWalker`, cycle for cycle.
//!
//! Timing (the RTL's): a start pulse (the core's registered CSR write) in cycle c starts the walk at the end
//! of cycle c over bank `active ^ 1` (the bank frozen then; a swap during the walk does not change it); a
//! start during a walk is ignored. From then the walk issues one op in every cycle in which
//! - the banks were ready in the cycle before (`ready_q`: after a reset the walk waits one cycle longer
//!   than a packet would),
//! - no packet enters the walk's bank in this cycle, and
//! - the core's FIFO has room for every op in flight (the core says so: `room`);
//!
//! row by row, index by index within a row (`rows × buckets` ops). `busy` falls when the last op issues; a
//! reset stops the walk.

/// Most walk ops between an issue and its record's FIFO push in the cores' bank pipelines (S0..S3, the record
/// registered at S3): a core issues only while its FIFO level is at most `depth − WALK_IN_FLIGHT`, so the walk
/// itself never drops a record.
pub const WALK_IN_FLIGHT: usize = 4;

/// [`WALK_IN_FLIGHT`] for a bank pipeline on `timing`: S0 to the record register after its modify stage
/// (4 short, 6 registered).
pub const fn walk_in_flight(timing: super::sram::RamTiming) -> usize {
    WALK_IN_FLIGHT + super::rmw::modify_stage(timing) - 2
}

/// The position of a walk op: the bank it reads, its row and its index in the row.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct WalkPos {
    pub bank: usize,
    pub row: usize,
    pub index: usize,
}

/// See the [module docs](self).
#[derive(Debug, Clone)]
pub struct BankWalk {
    rows: usize,
    buckets: usize,
    pos: Option<WalkPos>,
    ready_q: bool,
}

impl BankWalk {
    /// A walk over `rows` rows of `buckets` buckets (both ≥ 1).
    pub fn new(rows: usize, buckets: usize) -> Self {
        BankWalk { rows: rows.max(1), buckets: buckets.max(1), pos: None, ready_q: false }
    }

    /// A walk is in progress (the core's `*_busy` status flag).
    pub fn busy(&self) -> bool {
        self.pos.is_some()
    }

    /// The banks were ready in the cycle before (`BankWalker::primed`): other ops of a core issue on it too.
    pub fn primed(&self) -> bool {
        self.ready_q
    }

    /// The position of the next op while a walk is on.
    pub fn pos(&self) -> Option<WalkPos> {
        self.pos
    }

    /// The op issued in this cycle, if any: `packet_bank` is the bank a packet enters now (None: no
    /// packet), `room` whether the core's FIFO has room for every op in flight.
    pub fn issue(&self, reset: bool, packet_bank: Option<usize>, room: bool) -> Option<WalkPos> {
        let w = self.pos.filter(|_| !reset && self.ready_q)?;
        (packet_bank != Some(w.bank) && room).then_some(w)
    }

    /// The clock edge: `ready` is the banks' `in_ready` in this cycle, `start` the start pulse, `active` the
    /// bank packets update, `issued` what [`BankWalk::issue`] returned in this cycle.
    pub fn edge(&mut self, reset: bool, ready: bool, start: bool, active: usize, issued: Option<WalkPos>) {
        self.ready_q = ready;
        if reset {
            self.pos = None;
        } else if start && self.pos.is_none() {
            self.pos = Some(WalkPos { bank: active ^ 1, row: 0, index: 0 });
        } else if let Some(w) = issued {
            self.pos = match (w.index + 1 == self.buckets, w.row + 1 == self.rows) {
                (true, true) => None,
                (true, false) => Some(WalkPos { row: w.row + 1, index: 0, ..w }),
                (false, _) => Some(WalkPos { index: w.index + 1, ..w }),
            };
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Issues every (row, index) of the frozen bank once, in order, skipping cycles a packet takes that bank
    /// or the FIFO is full, and ends `busy` with the last op.
    #[test]
    fn walks_every_bucket_once_in_order_around_packets() {
        let mut w = BankWalk::new(3, 4);
        w.edge(true, false, false, 0, None);
        w.edge(false, true, true, 0, None);
        assert!(w.busy());
        let mut seen = Vec::new();
        for cycle in 0..100 {
            let packet_bank = (cycle % 3 == 0).then_some(1);
            let room = cycle % 5 != 0;
            let issued = w.issue(false, packet_bank, room);
            if let Some(p) = issued {
                assert_eq!(p.bank, 1);
                assert!(packet_bank != Some(1) && room);
                seen.push((p.row, p.index));
            }
            // A swap and a second start during the walk change nothing.
            w.edge(false, true, cycle == 7, 1, issued);
        }
        assert!(!w.busy());
        let want: Vec<_> = (0..3).flat_map(|r| (0..4).map(move |i| (r, i))).collect();
        assert_eq!(seen, want);
    }

    #[test]
    fn waits_a_cycle_after_ready_and_stops_on_reset() {
        let mut w = BankWalk::new(1, 8);
        w.edge(false, false, true, 1, None);
        assert_eq!(w.issue(false, None, true), None, "the banks were not ready in the cycle before");
        w.edge(false, true, false, 1, None);
        assert_eq!(w.issue(false, None, true), Some(WalkPos { bank: 0, row: 0, index: 0 }));
        assert_eq!(w.issue(true, None, true), None, "nothing issues under reset");
        w.edge(true, true, false, 1, None);
        assert!(!w.busy());
    }
}
