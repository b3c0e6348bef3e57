//! `MapleCore`'s logic (stage table: `golden::maple::cycle`). The centers, the match and the return path's
//! center are [`super::centers::MapleCenters`], the lookup engine [`super::lookup::MapleLookup`].
//!
//! Why one `update` of ~340 lines (the house aims at ~300): what stays here is the wiring between the
//! core's blocks (two SVBF banks and two counter pipelines, walker, lookup engine, centers, PRNG, two
//! FIFOs, the shell, the input stage, the hash units) and the modify stage of both banks, which reads and writes those blocks' ports
//! in the same cycle. A further block (e.g. the modify words) would take ~12 of those ports per bank as
//! port pairs and save ~20 lines; the sections are marked by stage (F1, M1–M3, S0, S2, S3).

use super::{maple_core_impl, MapleCore};
use rust_hdl::prelude::*;

maple_core_impl!(Logic for {
    crate::core_update!(cfg(cfg_threshold, cfg_seed, cfg_count, cfg_options)
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self, clock, seed_pending, epoch_pending, st1, st2, st3, f1_key, f1_lat, m1_v, m1_bank, m1_lat,
            m2_v, m2_bank, m2_lat, m3_v, m3_bank, m3_lat, rec_v, rec_d, smp_v, smp_d, flush_pending
        );
        clock!(self, clock, f1, shell, prng, walker, smp_fifo, rec_fifo, lookup, centers);
        for j in 0..self._h {
            self.h_base[j].clock.next = self.clock.val();
            self.m1_base[j].clock.next = self.clock.val();
            self.m2_base[j].clock.next = self.clock.val();
            self.m3_base[j].clock.next = self.clock.val();
            self.m1_base[j].d.next = self.m1_base[j].q.val();
            self.m2_base[j].d.next = self.m2_base[j].q.val();
            self.m3_base[j].d.next = self.m3_base[j].q.val();
        }
        for b in 0..2 {
            self.rec_seg[b].clock.next = self.clock.val();
            self.rec_cnt[b].clock.next = self.clock.val();
        }
        // CSR writes (the CSR pins and config fields are wired by `core_update!`).
        self.seed_pending.d.next =
            self.csr_wr_en.val() && (self.csr_addr.val() == self.csr_seed.val()) && !self.reset.val();
        self.epoch_pending.d.next =
            self.csr_wr_en.val() && (self.csr_addr.val() == self.csr_epoch.val()) && !self.reset.val();
        self.flush_pending.d.next =
            self.csr_wr_en.val() && (self.csr_addr.val() == self.csr_flush.val()) && !self.reset.val();
        // The flush starts three cycles after the marker (options bit 1 clear) or the flush command.
        self.st1.d.next = ((self.epoch_pending.q.val() && !self.cfg_options.out.val().get_bit(1))
            || self.flush_pending.q.val())
            && !self.reset.val();
        self.st2.d.next = self.st1.q.val() && !self.reset.val();
        self.st3.d.next = self.st2.q.val() && !self.reset.val();
        // The centers: the shadow set, the swap at the marker, the match (F1 → M3), the return path.
        self.centers.reset.next = self.reset.val();
        self.centers.epoch.next = self.epoch_pending.q.val();
        self.centers.csr_wr_en.next = self.csr_wr_en.val();
        self.centers.csr_addr.next = self.csr_addr.val();
        self.centers.csr_wr_data.next = self.csr_wr_data.val();
        self.centers.count.next = self.cfg_count.out.val();
        self.centers.lat.next = self.f1_lat.q.val();
        // F1 and the hand-over into the match pipeline.
        self.f1.reset.next = self.reset.val();
        self.f1.in_valid.next = self.in_valid.val();
        self.f1.keep.next = true;
        self.f1.out_ready.next = self.svbf[0].in_ready.val();
        self.in_ready.next = self.f1.in_ready.val();
        self.swept.next = self.svbf[0].in_ready.val();
        if self.f1.accept.val() {
            self.f1_key.d.next = self.in_key.val();
            self.f1_lat.d.next = self.in_latency.val();
        }
        for j in 0..self._h {
            self.h_base[j].key.next = self.in_key.val();
            self.h_base[j].load.next = self.f1.accept.val();
        }
        // Sampling: the packet leaving F1 draws the PRNG.
        self.prng.reset.next = self.reset.val();
        self.prng.seed_load.next = self.seed_pending.q.val();
        self.prng.seed.next = self.cfg_seed.out.val();
        self.prng.advance.next = self.f1.transfer.val();
        self.smp_v.d.next =
            self.f1.transfer.val() && (self.prng.value.val() <= self.cfg_threshold.out.val()) && !self.reset.val();
        self.smp_d.d.next = self.f1_lat.q.val();
        self.smp_fifo.reset.next = self.reset.val();
        self.smp_fifo.in_valid.next = self.smp_v.q.val();
        self.smp_fifo.in_data.next = self.smp_d.q.val();
        self.smp_fifo.out_ready.next = self.smp_ready.val();
        self.smp_valid.next = self.smp_fifo.out_valid.val();
        self.smp_data.next = self.smp_fifo.out_data.val();
        self.m1_v.d.next = self.f1.transfer.val() && !self.reset.val();
        self.m1_bank.d.next = self.centers.active.val();
        self.m1_lat.d.next = self.f1_lat.q.val();
        for j in 0..self._h {
            self.m1_base[j].d.next = self.h_base[j].hash.val();
        }
        self.m2_v.d.next = self.m1_v.q.val() && !self.reset.val();
        self.m2_bank.d.next = self.m1_bank.q.val();
        self.m2_lat.d.next = self.m1_lat.q.val();
        for j in 0..self._h {
            self.m2_base[j].d.next = self.m1_base[j].q.val();
        }
        // M1, M2: the match (in `centers`); the packet carried beside it.
        self.m3_v.d.next = self.m2_v.q.val() && !self.reset.val();
        self.m3_bank.d.next = self.m2_bank.q.val();
        self.m3_lat.d.next = self.m2_lat.q.val();
        for j in 0..self._h {
            self.m3_base[j].d.next = self.m2_base[j].q.val();
        }
        self.res_valid.next = self.m3_v.q.val();
        self.res_center.next = self.centers.center.val();
        // M3 = S0: (b_j + i) mod m_seg per segment.
        self.zx_center.din.next = self.centers.center.val();
        self.cidx.din.next = self.zx_center.out.val();
        self.zx_lat.din.next = self.m3_lat.q.val();
        self.pkt_index.next = self.zero_ha.val();
        self.pkt_payload.next = self.zx_lat.out.val();
        for j in 0..self._h {
            if self.offset_on.val() {
                self.pos[j].next = self.m3_base[j].q.val() + self.zx_center.out.val();
            } else {
                self.pos[j].next = self.m3_base[j].q.val();
            }
            self.pos_addr[j].din.next = self.pos[j].val();
            self.pos_bit[j].din.next = self.pos[j].val();
            self.zx_addr[j].din.next = self.pos_addr[j].out.val();
            self.zx_bit[j].din.next = self.pos_bit[j].out.val();
            self.pkt_index.next = self.pkt_index.val() | (self.zx_addr[j].out.val() << self.off_addr[j].val());
            self.pkt_payload.next = self.pkt_payload.val() | (self.zx_bit[j].out.val() << self.off_bit[j].val());
        }
        // The flush: one (row, addr) per cycle into the walk's bank when no packet enters it and the record
        // FIFO has room for every op in flight.
        self.walker.reset.next = self.reset.val();
        self.walker.start.next = self.st3.q.val();
        self.walker.active.next = self.centers.active.val();
        self.walker.ready.next = self.svbf[0].in_ready.val();
        self.walk_issue.next = self.walker.busy.val()
            && self.walker.primed.val()
            && (self.rec_fifo.level.val() <= self.room_level.val())
            && !(self.m3_v.q.val() && (self.m3_bank.q.val() == self.walker.bank.val()));
        self.walker.issue.next = self.walk_issue.val();
        self.zx_walk_addr.din.next = self.walker.addr.val();
        self.walk_cidx.din.next = self.walker.addr.val();
        self.walk_index.next = self.zero_ha.val();
        for j in 0..self._h {
            self.walk_index.next = self.walk_index.val() | (self.zx_walk_addr.out.val() << self.off_addr[j].val());
        }
        self.zx_walk_row.din.next = self.walker.row.val();
        self.walk_payload.next =
            (self.one_p.val() << self.off_walk.val()) | (self.zx_walk_row.out.val() << self.off_walk_row.val());
        // The lookup engine: its read op enters its bank when no packet and no flush op does.
        self.lookup.reset.next = self.reset.val();
        self.lookup.lk_valid.next = self.lk_valid.val();
        self.lookup.lk_key.next = self.lk_key.val();
        self.lookup.active.next = self.centers.active.val();
        self.lookup.k_frozen.next = self.centers.k_frozen.val();
        self.lookup.tie_none.next = self.cfg_options.out.val().get_bit(0);
        self.lk_grant.next = self.lookup.want.val()
            && self.walker.primed.val()
            && !self.reset.val()
            && !(self.m3_v.q.val() && (self.m3_bank.q.val() == self.lookup.bank.val()))
            && !(self.walk_issue.val() && (self.walker.bank.val() == self.lookup.bank.val()));
        self.lookup.grant.next = self.lk_grant.val();
        self.read_payload.next = self.one_p.val() << self.off_read.val();
        self.lookup.ans_ready.next = self.ans_ready.val();
        self.lk_ready.next = self.lookup.idle.val() && !self.reset.val();
        self.ans_valid.next = self.lookup.ans_valid.val() && !self.reset.val();
        self.ans_kind.next = self.lookup.ans_kind.val();
        self.ans_cand.next = self.lookup.ans_cand.val();
        self.ans_center_valid.next = self.lookup.ans_center_valid.val();
        self.ans_center.next = self.lookup.ans_center.val();
        self.ans_latency.next = self.lookup.ans_latency.val();
        self.ans_refined.next = self.lookup.ans_refined.val();
        self.lk_taken.next = self.ans_valid.val() && self.ans_ready.val();
        for b in 0..2 {
            self.svbf[b].clock.next = self.clock.val();
            self.svbf[b].reset.next = self.reset.val();
            self.cnt[b].clock.next = self.clock.val();
            self.cnt[b].reset.next = self.reset.val();
            // A flush op and a packet never meet in a bank (`walk_issue` yields to the packet), so the flush
            // op, whose issue is decided last, is tested first: its select is the outermost mux, the last
            // one before the banks' inputs (the counter row's LUT RAM reads at `in_index` in this cycle).
            if self.walk_issue.val() && (self.walker.bank.val() == self.bank_ids[b].val()) {
                self.svbf[b].in_valid.next = true;
                self.svbf[b].in_index.next = self.walk_index.val();
                self.svbf[b].in_payload.next = self.walk_payload.val();
                self.cnt[b].in_valid.next = true;
                self.cnt[b].in_index.next = self.walk_cidx.out.val();
                self.cnt[b].in_payload.next = self.walk_payload.val();
            } else if self.m3_v.q.val() && (self.m3_bank.q.val() == self.bank_ids[b].val()) {
                self.svbf[b].in_valid.next = true;
                self.svbf[b].in_index.next = self.pkt_index.val();
                self.svbf[b].in_payload.next = self.pkt_payload.val();
                self.cnt[b].in_valid.next = true;
                self.cnt[b].in_index.next = self.cidx.out.val();
                self.cnt[b].in_payload.next = self.pkt_payload.val();
            } else {
                self.svbf[b].in_valid.next = self.lk_grant.val() && (self.lookup.bank.val() == self.bank_ids[b].val());
                self.svbf[b].in_index.next = self.lookup.op_index.val();
                self.svbf[b].in_payload.next = self.read_payload.val();
                self.cnt[b].in_valid.next = self.lk_grant.val() && (self.lookup.bank.val() == self.bank_ids[b].val());
                self.cnt[b].in_index.next = self.lk_cidx.out.val();
                self.cnt[b].in_payload.next = self.read_payload.val();
            }
        }
        self.lk_cidx.din.next = self.lookup.op_cidx.val();
        // S2 of both banks: packets OR their bits in and count; flush ops read and clear their row.
        self.rec_walk.next = false;
        self.rec_addr.next = self.mod_addr[0].out.val();
        self.rec_row.next = self.pay_row[0].out.val();
        // A lookup read at S2 goes back to the engine (only the engine's bank carries one).
        self.lookup.ret.next = false;
        self.lookup.ret_words.next = self.svbf[0].mod_old.val();
        self.lookup.ret_counter.next = self.cnt[0].mod_old.val();
        self.ret_cidx.next = self.cnt[0].mod_index.val();
        for b in 0..2 {
            self.mod_addr[b].din.next = self.svbf[b].mod_index.val();
            self.pay_read[b].din.next = self.svbf[b].mod_payload.val();
            if self.svbf[b].mod_valid.val() && self.pay_read[b].out.val().any() {
                self.lookup.ret.next = true;
                self.lookup.ret_words.next = self.svbf[b].mod_old.val();
                self.lookup.ret_counter.next = self.cnt[b].mod_old.val();
                self.ret_cidx.next = self.cnt[b].mod_index.val();
            }
        }
        self.zx_ret_cidx.din.next = self.ret_cidx.val();
        self.lookup.ret_index.next = self.zx_ret_cidx.out.val();
        // The returning counter word's center latency in the engine's bank (0 past `max_centers`), two cycles
        // later — ready when the engine takes that word into its best.
        self.centers.ret_cidx.next = self.ret_cidx.val();
        self.centers.ret_bank.next = self.lookup.bank.val();
        self.lookup.ret_center.next = self.centers.ret_center.val();
        for b in 0..2 {
            self.pay_walk[b].din.next = self.svbf[b].mod_payload.val();
            self.pay_row[b].din.next = self.svbf[b].mod_payload.val();
            self.pay_lat[b].din.next = self.cnt[b].mod_payload.val();
            self.zx_lat64[b].din.next = self.pay_lat[b].out.val();
            // {count + 1, sum + latency} of every forward candidate, then the one `mod_pick` names.
            self.cand_w[6 * b].next = self.cnt[b].mod_ram.val();
            self.cand_w[6 * b + 1].next = self.cnt[b].mod_fwd1.val();
            self.cand_w[6 * b + 2].next = self.cnt[b].mod_fwd2.val();
            self.cand_w[6 * b + 3].next = self.cnt[b].mod_fwd3.val();
            self.cand_w[6 * b + 4].next = self.cnt[b].mod_fwd4.val();
            self.cand_w[6 * b + 5].next = self.cnt[b].mod_fwd5.val();
            self.cnt_new[b].next = self.zero_c.val();
            for c in 0..6 {
                self.cnt_count[6 * b + c].din.next = self.cand_w[6 * b + c].val();
                self.cnt_sum[6 * b + c].din.next = self.cand_w[6 * b + c].val();
                self.zx_cnt[6 * b + c].din.next = self.cnt_count[6 * b + c].out.val() + self.one32.val();
                self.zx_sum[6 * b + c].din.next = self.cnt_sum[6 * b + c].out.val() + self.zx_lat64[b].out.val();
                if self.cnt[b].mod_pick.val().get_bit(c) {
                    self.cnt_new[b].next = self.zx_cnt[6 * b + c].out.val()
                        | (self.zx_sum[6 * b + c].out.val() << self.off_sum.val());
                }
            }
        }
        self.new_words[0].next = self.zero_hw.val();
        self.new_words[1].next = self.zero_hw.val();
        for j in 0..self._h {
            self.pay_bit0[j].din.next = self.svbf[0].mod_payload.val();
            self.pay_bit1[j].din.next = self.svbf[1].mod_payload.val();
            self.old0[j].din.next = self.svbf[0].mod_old.val();
            self.old1[j].din.next = self.svbf[1].mod_old.val();
            self.zx_sh0[j].din.next = self.pay_bit0[j].out.val();
            self.zx_sh1[j].din.next = self.pay_bit1[j].out.val();
            self.zx_old0[j].din.next = self.old0[j].out.val() | (self.one_w.val() << self.zx_sh0[j].out.val());
            self.zx_old1[j].din.next = self.old1[j].out.val() | (self.one_w.val() << self.zx_sh1[j].out.val());
            self.new_words[0].next = self.new_words[0].val() | (self.zx_old0[j].out.val() << self.off_word[j].val());
            self.new_words[1].next = self.new_words[1].val() | (self.zx_old1[j].out.val() << self.off_word[j].val());
        }
        for b in 0..2 {
            self.svbf[b].mod_write.next = self.zero_h.val();
            self.svbf[b].mod_new.next = self.zero_hw.val();
            self.cnt[b].mod_write.next = false;
            self.cnt[b].mod_new.next = self.zero_c.val();
            self.rec_seg[b].d.next = self.zero_w.val();
            self.rec_cnt[b].d.next = self.zero_c.val();
            if self.svbf[b].mod_valid.val() && !self.pay_walk[b].out.val().any() && !self.pay_read[b].out.val().any() {
                self.svbf[b].mod_write.next = self.ones_h.val();
                self.svbf[b].mod_new.next = self.new_words[b].val();
                self.cnt[b].mod_write.next = true;
                self.cnt[b].mod_new.next = self.cnt_new[b].val();
            }
            if self.svbf[b].mod_valid.val() && self.pay_walk[b].out.val().any() {
                self.rec_walk.next = true;
                self.rec_addr.next = self.mod_addr[b].out.val();
                self.rec_row.next = self.pay_row[b].out.val();
                for j in 0..self._h {
                    if self.pay_row[b].out.val() == self.row_ids[j].val() {
                        self.svbf[b].mod_write.next = self.row_bits[j].val();
                    }
                }
                if self.pay_row[b].out.val() == self.counter_row.val() {
                    self.cnt[b].mod_write.next = true;
                    self.rec_cnt[b].d.next = self.cnt[b].mod_old.val();
                }
            }
        }
        for j in 0..self._h {
            if self.svbf[0].mod_valid.val()
                && self.pay_walk[0].out.val().any()
                && (self.pay_row[0].out.val() == self.row_ids[j].val())
            {
                self.rec_seg[0].d.next = self.old0[j].out.val();
            }
            if self.svbf[1].mod_valid.val()
                && self.pay_walk[1].out.val().any()
                && (self.pay_row[1].out.val() == self.row_ids[j].val())
            {
                self.rec_seg[1].d.next = self.old1[j].out.val();
            }
        }
        // S3: the record into the record FIFO (the word: an OR of the per-bank registers, zero but the one read).
        self.zx_rec_addr.din.next = self.rec_addr.val();
        self.zx_rec_row.din.next = self.rec_row.val();
        self.rec_v.d.next = self.rec_walk.val() && !self.reset.val();
        self.rec_d.d.next = (self.zx_rec_addr.out.val() << self.off_rec_addr.val())
            | (self.zx_rec_row.out.val() << self.off_rec_row.val());
        self.zx_rec_seg.din.next = self.rec_seg[0].q.val() | self.rec_seg[1].q.val();
        self.zx_rec_cnt.din.next = self.rec_cnt[0].q.val() | self.rec_cnt[1].q.val();
        self.rec_fifo.reset.next = self.reset.val();
        self.rec_fifo.in_valid.next = self.rec_v.q.val();
        self.rec_fifo.in_data.next = self.rec_d.q.val() | self.zx_rec_seg.out.val() | self.zx_rec_cnt.out.val();
        self.rec_fifo.out_ready.next = self.rec_ready.val();
        self.rec_valid.next = self.rec_fifo.out_valid.val();
        self.rec_data.next = self.rec_fifo.out_data.val();
        self.unused_outputs.next = self.svbf[1].in_ready.val()
            || self.cnt[0].in_ready.val()
            || self.cnt[1].in_ready.val()
            || self.prng.advanced_value.val().any()
            || self.prng.seed_value.val().any()
            || self.f1.valid.val();
        for b in 0..2 {
            self.unused_outputs.next = self.unused_outputs.val()
                || self.svbf[b].mod_near.val().any()
                || self.svbf[b].pre_valid.val()
                || self.svbf[b].pre_payload.val().any()
                || self.svbf[b].pre_old.val().any()
                || self.svbf[b].pre_early.val().any()
                || self.svbf[b].pre_near2.val().any()
                || self.cnt[b].mod_valid.val()
                || self.cnt[b].pre_valid.val()
                || self.cnt[b].pre_payload.val().any()
                || self.cnt[b].pre_old.val().any()
                || self.cnt[b].pre_early.val().any()
                || self.cnt[b].pre_near2.val();
        }
        // Statistics (the counters are the shell's, in STATUS order).
        self.shell.count[0].next = self.f1.accept.val();
        self.shell.count[1].next = self.epoch_pending.q.val();
        self.shell.count[2].next = self.smp_v.q.val();
        self.shell.count[3].next = self.lk_taken.val();
        self.shell.count[4].next = self.lk_taken.val() && (self.lookup.ans_kind.val() == self.kind_codes[1].val());
        self.shell.count[5].next = self.lk_taken.val() && (self.lookup.ans_kind.val() == self.kind_codes[2].val());
        self.shell.count[6].next = self.lk_taken.val() && (self.lookup.ans_kind.val() == self.kind_codes[0].val());
        self.shell.count[7].next = self.rec_v.q.val();
        self.shell.flag[0].next = self.walker.busy.val();
        self.shell.status[0].next = self.smp_fifo.drops.val();
        self.zx_slevel.din.next = self.smp_fifo.level.val();
        self.shell.status[1].next = self.zx_slevel.out.val();
        self.zx_k.din.next = self.centers.k_active.val();
        self.shell.status[2].next = self.zx_k.out.val();
        self.shell.status[3].next = self.rec_fifo.drops.val();
        self.zx_rlevel.din.next = self.rec_fifo.level.val();
        self.shell.status[4].next = self.zx_rlevel.out.val();
    });
});
