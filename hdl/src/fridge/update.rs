//! The fridge core's logic (`update`): F1 (hashes, fridge, sampling look-ahead, counters, the expiry
//! interval), the packet's fields beside the table RMW pipeline, the write decision's inputs at SL − 1, SL
//! and SM, the new word, the report register and the tally. See the [module docs](super).

use super::*;

fridge_core_impl!(Logic for {
    crate::core_update!(cfg(cfg_expiry, cfg_seed)
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self,
            clock,
            f1_request,
            f1_ts,
            mode_fridge,
            mode_expiry,
            r_valid,
            r_data,
            seed_pending
        );
        clock!(self, clock, f1, h_index, h_sig, prng, rmw, fifo, shell, decide);
        for j in 0..self.h_select.len() {
            self.h_select[j].clock.next = self.clock.val();
        }
        for i in 0..self._n {
            self.counters[i].clock.next = self.clock.val();
            self.counters[i].d.next = self.counters[i].q.val();
        }
        for s in 0..self._stages {
            self.dq_request[s].clock.next = self.clock.val();
            self.dq_k[s].clock.next = self.clock.val();
            self.dq_sig[s].clock.next = self.clock.val();
            self.dq_ts[s].clock.next = self.clock.val();
            self.dq_count[s].clock.next = self.clock.val();
        }
        for s in 1..self._stages {
            self.dq_mode_expiry[s - 1].clock.next = self.clock.val();
            self.dq_hi[s - 1].clock.next = self.clock.val();
            self.dq_wrap[s - 1].clock.next = self.clock.val();
            self.dq_ts_max[s - 1].clock.next = self.clock.val();
            self.dq_never[s - 1].clock.next = self.clock.val();
        }
        // The per-threshold config fields (the CSR pins and the other fields: `core_update!`).
        for i in 0..self._n {
            self.cfg_thresholds[i].din.next = self.shell.cfg.val();
        }
        self.wr_mode.next = self.csr_wr_en.val() && (self.csr_addr.val() == self.csr_mode.val());
        if self.reset.val() {
            self.mode_expiry.d.next = self.default_mode_expiry.val();
            self.mode_fridge.d.next = self.default_mode_fridge.val();
        } else if self.wr_mode.val() {
            self.mode_expiry.d.next = self.csr_wr_data.val() == self.mode_expiry_code.val();
            self.mode_fridge.d.next = (self.csr_wr_data.val() != self.mode_expiry_code.val())
                && (self.csr_wr_data.val() != self.mode_simple.val());
        }
        // A write of prng_seed loads the PRNG from the register one cycle later.
        self.seed_pending.d.next =
            self.csr_wr_en.val() && (self.csr_addr.val() == self.csr_seed.val()) && !self.reset.val();
        self.prng.reset.next = self.reset.val();
        self.prng.seed_load.next = self.seed_pending.q.val();
        self.prng.seed.next = self.cfg_seed.out.val();
        // Input handshake and the front register F1 (with a tally, F1 also waits for its reset sweep).
        self.pipe_ready.next = self.rmw.in_ready.val();
        for t in 0..self._tally {
            self.pipe_ready.next = self.rmw.in_ready.val() && self.tally[t].ready.val();
        }
        self.f1.reset.next = self.reset.val();
        self.f1.in_valid.next = self.in_valid.val();
        self.f1.keep.next = true;
        self.f1.out_ready.next = self.pipe_ready.val();
        self.in_ready.next = self.f1.in_ready.val();
        if self.f1.accept.val() {
            self.f1_request.d.next = self.in_request.val();
            self.f1_ts.d.next = self.in_ts.val();
        }
        // The hash registers are F1's view of the id: loaded with the packet F1 takes (a clock enable).
        for j in 0..self.h_select.len() {
            self.h_select[j].key.next = self.in_id.val();
            self.h_select[j].load.next = self.f1.accept.val();
        }
        self.h_index.key.next = self.in_id.val();
        self.h_index.load.next = self.f1.accept.val();
        self.h_sig.key.next = self.in_id.val();
        self.h_sig.load.next = self.f1.accept.val();
        // F1: fridge, address, entry decision, counter.
        self.k.next = self.fridge_ids[0].val();
        self.base.next = self.bases[0].val();
        self.index_mask.next = self.index_masks[0].val();
        self.le.next = self.le_q[0].q.val();
        self.count.next = self.counters[0].q.val();
        for i in 1..self._n {
            if self.h_select[0].hash.val() >= self.bounds[i - 1].val() {
                self.k.next = self.fridge_ids[i].val();
                self.base.next = self.bases[i].val();
                self.index_mask.next = self.index_masks[i].val();
                self.le.next = self.le_q[i].q.val();
                self.count.next = self.counters[i].q.val();
            }
        }
        self.enters.next = self.f1_request.q.val() && (!self.mode_fridge.q.val() || self.le.val());
        self.seed_zero.next = !self.cfg_seed.out.val().any();
        self.unused_seed_value.next = self.prng.seed_value.val().any();
        // Next cycle's `prng ≤ threshold`, per fridge (a reset's defaults need no look-ahead: F1 is empty
        // in the cycle after a reset).
        for i in 0..self._n {
            self.le_q[i].clock.next = self.clock.val();
            if self.csr_wr_en.val() && (self.csr_addr.val() == self.csr_thresholds[i].val()) {
                if self.seed_pending.q.val() {
                    if self.seed_zero.val() {
                        self.le_q[i].d.next = self.default_seed.val() <= self.csr_wr_data.val();
                    } else {
                        self.le_q[i].d.next = self.cfg_seed.out.val() <= self.csr_wr_data.val();
                    }
                } else if self.f1.transfer.val() && self.f1_request.q.val() {
                    self.le_q[i].d.next = self.prng.advanced_value.val() <= self.csr_wr_data.val();
                } else {
                    self.le_q[i].d.next = self.prng.value.val() <= self.csr_wr_data.val();
                }
            } else if self.seed_pending.q.val() {
                if self.seed_zero.val() {
                    self.le_q[i].d.next = self.default_seed.val() <= self.cfg_thresholds[i].out.val();
                } else {
                    self.le_q[i].d.next = self.cfg_seed.out.val() <= self.cfg_thresholds[i].out.val();
                }
            } else if self.f1.transfer.val() && self.f1_request.q.val() {
                self.le_q[i].d.next = self.prng.advanced_value.val() <= self.cfg_thresholds[i].out.val();
            } else {
                self.le_q[i].d.next = self.prng.value.val() <= self.cfg_thresholds[i].out.val();
            }
        }
        self.prng.advance.next = self.f1.transfer.val() && self.f1_request.q.val();
        if self.enters.val() {
            self.snapshot.next = self.count.val() + self.one_c.val();
        } else {
            self.snapshot.next = self.count.val();
        }
        for i in 0..self._n {
            if self.f1.transfer.val() && self.enters.val() && (self.k.val() == self.fridge_ids[i].val()) {
                self.counters[i].d.next = self.snapshot.val();
            }
            if self.reset.val() {
                self.counters[i].d.next = self.zero_c.val();
            }
        }
        self.rmw.reset.next = self.reset.val();
        self.rmw.in_valid.next = self.f1.valid.val();
        self.rmw.in_index.next = (self.h_index.hash.val() & self.index_mask.val()) | self.base.val();
        if self.enters.val() {
            self.rmw.in_payload.next = self.one_1.val();
        } else {
            self.rmw.in_payload.next = self.zero_1.val();
        }
        // F1 → S1: the packet's fields, and the write decision's settings as the CSR bank holds them now.
        self.dq_request[0].d.next = self.f1_request.q.val();
        self.dq_k[0].d.next = self.k.val();
        self.dq_sig[0].d.next = self.h_sig.hash.val();
        self.ts_scaled.din.next = self.f1_ts.q.val();
        self.dq_ts[0].d.next = self.ts_scaled.out.val();
        self.dq_count[0].d.next = self.snapshot.val();
        self.interval.ts.next = self.ts_scaled.out.val();
        self.interval.expiry.next = self.cfg_expiry.out.val();
        self.dq_mode_expiry[0].d.next = self.mode_expiry.q.val();
        self.dq_hi[0].d.next = self.interval.hi.val();
        self.dq_wrap[0].d.next = self.interval.late.val() && (self.ts_scaled.out.val() != self.ts_max_c.val());
        self.dq_ts_max[0].d.next = self.ts_scaled.out.val() == self.ts_max_c.val();
        self.dq_never[0].d.next = self.interval.never.val();
        for s in 1..self._stages {
            self.dq_request[s].d.next = self.dq_request[s - 1].q.val();
            self.dq_k[s].d.next = self.dq_k[s - 1].q.val();
            self.dq_sig[s].d.next = self.dq_sig[s - 1].q.val();
            self.dq_ts[s].d.next = self.dq_ts[s - 1].q.val();
            self.dq_count[s].d.next = self.dq_count[s - 1].q.val();
        }
        for s in 2..self._stages {
            self.dq_mode_expiry[s - 1].d.next = self.dq_mode_expiry[s - 2].q.val();
            self.dq_hi[s - 1].d.next = self.dq_hi[s - 2].q.val();
            self.dq_wrap[s - 1].d.next = self.dq_wrap[s - 2].q.val();
            self.dq_ts_max[s - 1].d.next = self.dq_ts_max[s - 2].q.val();
            self.dq_never[s - 1].d.next = self.dq_never[s - 2].q.val();
        }
        // The write decision (`FridgeDecide`): the packet at SL − 1, SL and SM.
        for s in self._i_pre..self._i_sl {
            self.decide.s2_ts.next = self.dq_ts[s].q.val();
            self.decide.s2_hi.next = self.dq_hi[s].q.val();
            self.decide.s2_sig.next = self.dq_sig[s].q.val();
        }
        self.decide.sl_enters.next = self.rmw.pre_payload.val().any();
        for s in self._i_sl..self._i_sm {
            self.decide.sl_request.next = self.dq_request[s].q.val();
            self.decide.sl_ts.next = self.dq_ts[s].q.val();
            self.decide.sl_sig.next = self.dq_sig[s].q.val();
            self.decide.sl_mode_expiry.next = self.dq_mode_expiry[s].q.val();
            self.decide.sl_hi.next = self.dq_hi[s].q.val();
            self.decide.sl_wrap.next = self.dq_wrap[s].q.val();
            self.decide.sl_ts_max.next = self.dq_ts_max[s].q.val();
            self.decide.sl_never.next = self.dq_never[s].q.val();
        }
        for s in self._i_sm..self._stages {
            self.sm_request.next = self.dq_request[s].q.val();
            self.sm_k.next = self.dq_k[s].q.val();
            self.sm_sig.next = self.dq_sig[s].q.val();
            self.sm_ts.next = self.dq_ts[s].q.val();
            self.sm_count.next = self.dq_count[s].q.val();
        }
        self.decide.sm_request.next = self.sm_request.val();
        self.decide.sm_ts.next = self.sm_ts.val();
        self.decide.sm_sig.next = self.sm_sig.val();
        self.decide.pre_early.next = self.rmw.pre_early.val();
        self.decide.pre_near2.next = self.rmw.pre_near2.val();
        self.decide.pick1.next = self.rmw.mod_pick.val().get_bit(1);
        // SM: the entry meets the packet; the report fields come from the forwarded entry
        // (registered in SM + 1).
        self.old_ts.din.next = self.rmw.mod_old.val();
        self.old_count.din.next = self.rmw.mod_old.val();
        self.age.next = self.sm_ts.val() - self.old_ts.out.val();
        self.unused_mod_index.next = self.rmw.mod_index.val().any()
            || self.rmw.mod_ram.val().any()
            || self.rmw.mod_fwd1.val().any()
            || self.rmw.mod_fwd2.val().any()
            || self.rmw.mod_fwd3.val().any()
            || self.rmw.mod_fwd4.val().any()
            || self.rmw.mod_fwd5.val().any()
            || self.rmw.mod_payload.val().any()
            || self.rmw.pre_valid.val()
            || self.rmw.pre_old.val().any()
            || self.rmw.mod_pick.val().get_bit(0)
            || self.rmw.mod_pick.val().get_bit(2)
            || self.rmw.mod_pick.val().get_bit(3)
            || self.rmw.mod_pick.val().get_bit(4)
            || self.rmw.mod_pick.val().get_bit(5);
        // SM's new word: a request's entry, or the empty entry a matched response leaves.
        self.zx_valid.din.next = self.one_1.val();
        self.zx_sig.din.next = self.sm_sig.val();
        self.zx_ts.din.next = self.sm_ts.val();
        self.zx_count.din.next = self.sm_count.val();
        if self.sm_request.val() {
            self.new_word.next = self.zx_valid.out.val()
                | (self.zx_sig.out.val() << self.off_sig.val())
                | (self.zx_ts.out.val() << self.off_ts.val())
                | (self.zx_count.out.val() << self.off_count.val());
        } else {
            self.new_word.next = self.zero_e.val();
        }
        self.rmw.mod_write.next = self.decide.write.val();
        self.rmw.mod_new.next = self.new_word.val();
        // SM + 1: report register → FIFO.
        self.zx_rep_k.din.next = self.sm_k.val();
        self.zx_rep_delay.din.next = self.age.val();
        self.zx_rep_x.din.next = self.sm_count.val() - self.old_count.out.val();
        self.r_valid.d.next =
            self.rmw.mod_valid.val() && !self.sm_request.val() && self.decide.sig_match.val() && !self.reset.val();
        self.r_data.d.next = self.zx_rep_k.out.val()
            | (self.zx_rep_delay.out.val() << self.off_rep_delay.val())
            | (self.zx_rep_x.out.val() << self.off_rep_x.val());
        self.fifo.reset.next = self.reset.val();
        self.fifo.in_valid.next = self.r_valid.q.val();
        self.fifo.in_data.next = self.r_data.q.val();
        self.fifo.out_ready.next = self.rep_ready.val();
        self.rep_valid.next = self.fifo.out_valid.val();
        self.rep_data.next = self.fifo.out_data.val();
        // SM + 1: the report register → tally.
        self.tally_valid.next = false;
        self.unused_tally_ready.next = self.tally_ready.val();
        self.tally_data.next = self.zero_rec.val();
        self.st_tally_busy.next = false;
        self.st_tally_drops.next = self.zero_32.val();
        for t in 0..self._tally {
            self.tally[t].clock.next = self.clock.val();
            self.dump_pending[t].clock.next = self.clock.val();
            self.dump_pending[t].d.next =
                self.csr_wr_en.val() && (self.csr_addr.val() == self.csr_dump[t].val()) && !self.reset.val();
            self.cfg_tally_bank[t].din.next = self.shell.cfg.val();
            self.rep_k[t].din.next = self.r_data.q.val();
            self.rep_delay[t].din.next = self.r_data.q.val();
            self.rep_x[t].din.next = self.r_data.q.val();
            self.tally[t].reset.next = self.reset.val();
            self.tally[t].rep_valid.next = self.r_valid.q.val();
            self.tally[t].rep_k.next = self.rep_k[t].out.val();
            self.tally[t].rep_delay.next = self.rep_delay[t].out.val();
            self.tally[t].rep_x.next = self.rep_x[t].out.val();
            self.tally[t].corrected.next = self.mode_fridge.q.val();
            self.tally[t].active.next = self.cfg_tally_bank[t].out.val().any();
            self.tally[t].dump_start.next = self.dump_pending[t].q.val();
            self.tally[t].out_ready.next = self.tally_ready.val();
            self.tally_valid.next = self.tally[t].out_valid.val();
            self.tally_data.next = self.tally[t].out_data.val();
            if self.tally[t].busy.val() {
                self.st_tally_busy.next = true;
            }
            self.st_tally_drops.next = self.tally[t].drops.val();
        }
        // Statistics (the shell counts; the tally's busy flag and drops are its own).
        self.shell.count[0].next = self.f1.accept.val();
        self.shell.count[1].next = self.f1.transfer.val() && self.f1_request.q.val();
        self.shell.count[2].next = self.f1.transfer.val() && self.enters.val();
        self.shell.count[3].next = self.r_valid.q.val();
        self.shell.flag[0].next = self.st_tally_busy.val();
        self.shell.status[0].next = self.fifo.drops.val();
        self.zx_level.din.next = self.fifo.level.val();
        self.shell.status[1].next = self.zx_level.out.val();
        self.shell.status[2].next = self.st_tally_drops.val();
    });
});
