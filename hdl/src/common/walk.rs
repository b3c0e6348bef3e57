//! Bank walker (`BankWalker<A, RB>`): the read-and-clear walk of the frozen bank of a core with two banks
//! (ping-pong) — the heavy-hitter core's `dump`, the reordering core's `flush`. It holds the walk's state
//! (busy, the bank it reads, row and index) and says when the next op issues; the core builds the op from
//! `bank`, `row` and `addr` and clears the bucket itself. Model: `golden::common::walk::BankWalk` (its docs
//! give the timing).
//!
//! Generics: `A` index bits, `RB` row bits; the number of rows is a constructor parameter (`rows ≤ 2^RB`).
//! `start` (a registered pulse) starts a walk of bank `!active` unless one is on. The core decides the
//! issue itself — it knows whether a packet enters the walk's bank and whether its FIFO has room — as
//! golden's `BankWalk::issue`: `issue = busy && primed && room && !(packet && active == bank)`, where
//! `primed` is the banks' readiness of the cycle before, registered here. The walker has no combinational
//! path from an input to an output: a path through it and back into the core's single `always` block
//! would be a Verilator UNOPTFLAT loop.

use super::bits::constant;
use super::reg::Reg;
use crate::declare_block;
use rust_hdl::prelude::*;

declare_block! {
    /// See the [module docs](self).
    #[derive(LogicBlock)]
    pub struct BankWalker<const A: usize, const RB: usize> fn build(rows: usize) {
        pub clock: Signal<In, Clock>,
        pub reset: Signal<In, bool>,
        /// Start a walk of the bank that is not `active` (ignored while one is on).
        pub start: Signal<In, bool>,
        /// The bank packets update (false: bank 0).
        pub active: Signal<In, bool>,
        /// The banks' `in_ready` (registered here as `primed`: the walk issues on the cycle before's).
        pub ready: Signal<In, bool>,
        /// The core issues the op at (`bank`, `row`, `addr`) in this cycle.
        pub issue: Signal<In, bool>,
        /// A walk is on (the core's `*_busy` flag).
        pub busy: Signal<Out, bool>,
        /// The bank, row and index of the op; valid while `busy`.
        pub bank: Signal<Out, bool>,
        pub row: Signal<Out, Bits<RB>>,
        pub addr: Signal<Out, Bits<A>>,
        /// The banks were ready in the cycle before.
        pub primed: Signal<Out, bool>,
        walking: Reg<bool>,
        walk_bank: Reg<bool>,
        walk_row: Reg<Bits<RB>>,
        walk_addr: Reg<Bits<A>>,
        ready_q: Reg<bool>,
        last: Signal<Local, bool>,
        zero_a: Constant<Bits<A>> = constant(0),
        one_a: Constant<Bits<A>> = constant(1),
        last_a: Constant<Bits<A>> = constant((1u64 << A) - 1),
        zero_row: Constant<Bits<RB>> = constant(0),
        one_row: Constant<Bits<RB>> = constant(1),
        last_row: Constant<Bits<RB>> = constant(rows.max(1) as u64 - 1),
    }
}

impl<const A: usize, const RB: usize> BankWalker<A, RB> {
    /// A walker over `rows` rows (1 ≤ rows ≤ 2^RB) of 2^A buckets.
    pub fn new(rows: usize) -> Result<Self, String> {
        if rows == 0 || rows > 1 << RB || A == 0 || A > 32 {
            return Err(format!("BankWalker<{A}, {RB}>: {rows} rows of 2^{A} buckets do not fit"));
        }
        Ok(Self::build(rows))
    }
}

impl<const A: usize, const RB: usize> Logic for BankWalker<A, RB> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, walking, walk_bank, walk_row, walk_addr, ready_q);
        self.ready_q.d.next = self.ready.val();
        self.last.next =
            (self.walk_addr.q.val() == self.last_a.val()) && (self.walk_row.q.val() == self.last_row.val());
        if self.reset.val() {
            self.walking.d.next = false;
        } else if self.start.val() && !self.walking.q.val() {
            self.walking.d.next = true;
            self.walk_bank.d.next = !self.active.val();
            self.walk_row.d.next = self.zero_row.val();
            self.walk_addr.d.next = self.zero_a.val();
        } else if self.issue.val() {
            self.walking.d.next = !self.last.val();
            self.walk_addr.d.next = self.walk_addr.q.val() + self.one_a.val();
            if self.walk_addr.q.val() == self.last_a.val() {
                self.walk_row.d.next = self.walk_row.q.val() + self.one_row.val();
            }
        }
        self.busy.next = self.walking.q.val();
        self.bank.next = self.walk_bank.q.val();
        self.row.next = self.walk_row.q.val();
        self.addr.next = self.walk_addr.q.val();
        self.primed.next = self.ready_q.q.val();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use golden::common::walk::BankWalk;
    use rand::{rngs::SmallRng, Rng, SeedableRng};

    /// The walker against golden's `BankWalk` in rust-hdl's simulator, on random starts, swaps, resets,
    /// packets, FIFO room and readiness: the issue is golden's (as a core computes it from the walker's
    /// outputs), and busy, bank, row and index must equal golden's in every cycle.
    fn matches_golden(rows: usize) {
        const A: usize = 3;
        let mut uut = BankWalker::<A, 2>::new(rows).unwrap();
        uut.connect_all();
        rust_hdl::core::check_error::check_all(&uut).expect("a well-formed walker");
        let mut sim = Simulation::new();
        sim.add_clock(5, |x: &mut Box<BankWalker<A, 2>>| x.clock.next = !x.clock.val());
        sim.add_testbench(move |mut sim: Sim<BankWalker<A, 2>>| {
            let mut x = sim.init()?;
            let mut gold = BankWalk::new(rows, 1 << A);
            let mut rng = SmallRng::seed_from_u64(0x9e37_79b9_7f4a_7c15 ^ rows as u64);
            let (mut issues, mut walks) = (0, 0);
            for cycle in 0..4000 {
                let r: u64 = rng.gen();
                let reset = cycle == 0 || r % 211 == 0;
                let (start, active, ready) = (r & 0x70 == 0, r & 0x100 != 0, r & 0x600 != 0);
                let (packet, room) = (r & 0x800 != 0, r & 0x3000 != 0);
                if cycle > 0 {
                    sim_assert_eq!(sim, x.busy.val(), gold.busy(), x);
                    if let Some(p) = gold.pos() {
                        sim_assert_eq!(sim, x.bank.val(), p.bank == 1, x);
                        sim_assert_eq!(sim, x.row.val().index(), p.row, x);
                        sim_assert_eq!(sim, x.addr.val().index(), p.index, x);
                    }
                }
                let issued = gold.issue(reset, packet.then_some(active as usize), room);
                issues += issued.is_some() as u32;
                walks += (start && !gold.busy() && !reset) as u32;
                x.reset.next = reset;
                x.start.next = start;
                x.active.next = active;
                x.ready.next = ready;
                x.issue.next = issued.is_some();
                gold.edge(reset, ready, start, active as usize, issued);
                wait_clock_cycle!(sim, clock, x);
            }
            sim_assert!(sim, issues > 1000 && walks > 20, x);
            sim.done(x)
        });
        sim.run(Box::new(uut), 100_000).unwrap();
    }

    #[test]
    fn one_row_matches_golden() {
        matches_golden(1);
    }

    #[test]
    fn three_rows_match_golden() {
        matches_golden(3);
    }
}
