//! FineComb interval and capture control (`golden::finecomb::cycle`, "D2: a marker" and "Captures and
//! the readout engine"): which bucket set counts, which stash region fills, the open capture and its
//! completion or cut, the jobs queued for the readout engine, and the flush's cut request.

use crate::common::bits::constant;
use crate::common::reg::Reg;
use crate::declare_block;
use rust_hdl::prelude::*;

declare_block! {
    /// The control registers every bank shares (the per-bank pointers are in [`super::stash::FcStash`]).
    #[derive(LogicBlock)]
    pub struct FcCapture fn new() {
        pub clock: Signal<In, Clock>,
        pub reset: Signal<In, bool>,
        /// The descriptor at D2.
        pub d2_valid: Signal<In, bool>,
        pub d2_marker: Signal<In, bool>,
        pub d2_start: Signal<In, bool>,
        pub d2_end: Signal<In, bool>,
        /// Every bank's post capture is full.
        pub all_full: Signal<In, bool>,
        /// The engine: a job-A phase runs; a job starts.
        pub job_a: Signal<In, bool>,
        pub start_a: Signal<In, bool>,
        pub start_b: Signal<In, bool>,
        /// A flush written two cycles ago.
        pub flush: Signal<In, bool>,
        /// A packet at D2; an effective marker at D2; the open capture closes.
        pub packet: Signal<Out, bool>,
        pub eff_marker: Signal<Out, bool>,
        pub close: Signal<Out, bool>,
        pub counting_o: Signal<Out, bool>,
        pub active_o: Signal<Out, bool>,
        pub par_o: Signal<Out, bool>,
        pub filling_o: Signal<Out, bool>,
        pub a_queued_o: Signal<Out, bool>,
        pub a_walk_o: Signal<Out, bool>,
        pub a_flags_o: Signal<Out, Bits<16>>,
        pub b_pending_o: Signal<Out, bool>,
        pub b_region_o: Signal<Out, bool>,
        counting: Reg<bool>,
        active: Reg<bool>,
        par: Reg<bool>,
        filling: Reg<bool>,
        cut_req: Reg<bool>,
        b_pending: Reg<bool>,
        b_region: Reg<bool>,
        a_queued: Reg<bool>,
        a_walk: Reg<bool>,
        a_flags: Reg<Bits<16>>,
        eff_end: Signal<Local, bool>,
        eff_start: Signal<Local, bool>,
        complete: Signal<Local, bool>,
        zero_16: Constant<Bits<16>> = constant(0),
        flag_end: Constant<Bits<16>> = constant(1),
        flag_start: Constant<Bits<16>> = constant(2),
    }
}

impl Logic for FcCapture {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, counting, active, par, filling, cut_req, b_pending, b_region, a_queued, a_walk, a_flags);
        // D2: a packet's updates or a marker's bookkeeping.
        self.packet.next = self.d2_valid.val() && !self.d2_marker.val() && !self.reset.val();
        self.eff_end.next = self.d2_end.val() && self.counting.q.val();
        self.eff_start.next = self.d2_start.val() && (!self.counting.q.val() || self.d2_end.val());
        self.eff_marker.next = self.d2_valid.val()
            && self.d2_marker.val()
            && (self.eff_end.val() || self.eff_start.val())
            && !self.reset.val();

        // Capture completion (the marker below takes precedence).
        self.complete.next = self.filling.q.val()
            && (self.all_full.val() || self.cut_req.q.val())
            && !self.a_queued.q.val()
            && !self.job_a.val();
        // The open capture closes (job B pending with the post lengths so far) when it completes or an
        // effective marker cuts it (no job B starts in such a cycle: b_pending was clear).
        self.close.next = self.complete.val() || (self.eff_marker.val() && self.filling.q.val());
        if self.close.val() {
            self.b_pending.d.next = true;
            self.b_region.d.next = self.par.q.val();
        }
        if self.complete.val() {
            self.filling.d.next = false;
            self.cut_req.d.next = false;
        }
        // The engine takes a pending job B, else a queued job A.
        if self.start_b.val() {
            self.b_pending.d.next = false;
        }
        if self.start_a.val() {
            self.a_queued.d.next = false;
        }

        // A marker (its cut of the open capture is above): open marker m's capture, swap the bucket set, queue
        // job A.
        if self.eff_marker.val() {
            self.par.d.next = !self.par.q.val();
            self.filling.d.next = true;
            self.cut_req.d.next = false;
            if self.eff_end.val() {
                self.active.d.next = !self.active.q.val();
                self.counting.d.next = false;
            }
            if self.eff_start.val() {
                self.counting.d.next = true;
            }
            self.a_queued.d.next = true;
            self.a_walk.d.next = self.eff_end.val();
            self.a_flags.d.next = self.zero_16.val();
            if self.eff_end.val() && self.eff_start.val() {
                self.a_flags.d.next = self.flag_end.val() | self.flag_start.val();
            } else if self.eff_end.val() {
                self.a_flags.d.next = self.flag_end.val();
            } else if self.eff_start.val() {
                self.a_flags.d.next = self.flag_start.val();
            }
        }
        if self.flush.val() {
            self.cut_req.d.next = true;
        }
        if self.reset.val() {
            self.counting.d.next = false;
            self.active.d.next = false;
            self.par.d.next = false;
            self.filling.d.next = false;
            self.cut_req.d.next = false;
            self.b_pending.d.next = false;
            self.a_queued.d.next = false;
        }
        self.counting_o.next = self.counting.q.val();
        self.active_o.next = self.active.q.val();
        self.par_o.next = self.par.q.val();
        self.filling_o.next = self.filling.q.val();
        self.a_queued_o.next = self.a_queued.q.val();
        self.a_walk_o.next = self.a_walk.q.val();
        self.a_flags_o.next = self.a_flags.q.val();
        self.b_pending_o.next = self.b_pending.q.val();
        self.b_region_o.next = self.b_region.q.val();
    }
}
