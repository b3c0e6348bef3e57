//! The parser's logic, stage by stage (see the [module docs](super)). The extraction slots move on every
//! cycle (no clock enables); only the capture holds a beat's bytes until the next beat. Only the valid bits,
//! the capture's `first` flag, the credit count, `tready` and the output FIFO reset.
//!
//! Why one `update` of ~650 lines (the house aims at ~300): rust-hdl's `hdl_gen` translates one function
//! per block, and the nine slots share ~80 carried registers (valid, timestamp, addresses, offsets, drop
//! codes) that every stage reads; a block per stage would turn each carried field into a port pair and a
//! wiring line on both sides, more text than it removes. The stages are marked `// S<k>` in slot order.

use super::*;

impl<const DW: usize, const KW: usize> Logic for Parser<DW, KW> {
    crate::core_update!(cfg()
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self, clock, first, ntags, ver, ihl, total, frag, proto, paylen, next0, e1, e1len_q, e1end, e2, e2a,
            e1len8, p4p8, pay4m8, more5, more6, e2len_q, room, pl4, payl4, l4a, l4, f20, f8, rem, status, sport, dport,
            seq, ack, tflags, paylen_out, cut, used, tready_q, lnb
        );
        // S4's and S6's check flags.
        dff_setup!(self, clock, v4_ver, v4_ihl, v4_len, v4_frag, v4_proto, v4_out, ipdrop, x2_more, x2_other);
        dff_setup!(self, clock, v6_out, v6_ver, v6_l4, v6_other, v6_frag, v6_frag_out, v6_frag_bits, v6_e1_out, v6_len);
        dff_setup!(self, clock, x2_frag, x2_frag_out, x2_frag_bits, x2_out, x2_len, x2_l4, x2_bad_next);
        clock!(self, clock, shell, fifo);
        for i in 0..self._nb {
            self.beats[i].clock.next = self.clock.val();
            self.beats[i].d.next = self.beats[i].q.val();
        }
        for i in 0..9 {
            self.v[i].clock.next = self.clock.val();
            self.ts[i].clock.next = self.clock.val();
            self.big[i].clock.next = self.clock.val();
            self.is_v6[i].clock.next = self.clock.val();
            self.src[i].clock.next = self.clock.val();
            self.dst[i].clock.next = self.clock.val();
            self.ip_id[i].clock.next = self.clock.val();
            self.short[i].clock.next = self.clock.val();
            self.pay[i].clock.next = self.clock.val();
            self.nh[i].clock.next = self.clock.val();
            self.v[i].d.next = self.v[i].q.val();
            self.ts[i].d.next = self.ts[i].q.val();
            self.big[i].d.next = self.big[i].q.val();
            self.is_v6[i].d.next = self.is_v6[i].q.val();
            self.src[i].d.next = self.src[i].q.val();
            self.dst[i].d.next = self.dst[i].q.val();
            self.ip_id[i].d.next = self.ip_id[i].q.val();
            self.short[i].d.next = self.short[i].q.val();
            self.pay[i].d.next = self.pay[i].q.val();
            self.nh[i].d.next = self.nh[i].q.val();
        }
        // Length, window bytes and L3 offset live to slot 2 (later stages use `ar`, `lr`).
        for i in 0..3 {
            self.len[i].clock.next = self.clock.val();
            self.avail[i].clock.next = self.clock.val();
            self.l3[i].clock.next = self.clock.val();
            self.len[i].d.next = self.len[i].q.val();
            self.avail[i].d.next = self.avail[i].q.val();
            self.l3[i].d.next = self.l3[i].q.val();
        }
        for i in 0..8 {
            self.p[i].clock.next = self.clock.val();
            self.l3code[i].clock.next = self.clock.val();
            self.p[i].d.next = self.p[i].q.val();
            self.l3code[i].d.next = self.l3code[i].q.val();
        }
        for i in 0..7 {
            self.ar[i].clock.next = self.clock.val();
            self.lr[i].clock.next = self.clock.val();
            self.ar[i].d.next = self.ar[i].q.val();
            self.lr[i].d.next = self.lr[i].q.val();
            self.is_v4[i].clock.next = self.clock.val();
            self.runt[i].clock.next = self.clock.val();
            self.too_many[i].clock.next = self.clock.val();
            self.is_v4[i].d.next = self.is_v4[i].q.val();
            self.runt[i].d.next = self.runt[i].q.val();
            self.too_many[i].d.next = self.too_many[i].q.val();
        }
        for i in 0..6 {
            self.w[i].clock.next = self.clock.val();
            self.w[i].d.next = self.w[i].q.val();
        }
        for k in 0..4 {
            self.xs[k].clock.next = self.clock.val();
            self.xs[k].d.next = self.xs[k].q.val();
        }

        // Credits: `used` counts the records that exist (slots and FIFO); `tready` is a flip-flop, high
        // while fewer than FIFO_DEPTH exist, so every frame taken has its FIFO entry.
        self.s_axis_tready.next = self.tready_q.q.val();
        self.accept.next = self.s_axis_tvalid.val() && self.tready_q.q.val() && !self.reset.val();
        self.pop.next = self.fifo.out_valid.val() && self.m_rec_ready.val();
        self.used_next.next = self.used.q.val();
        if self.accept.val() && self.s_axis_tlast.val() && !self.pop.val() {
            self.used_next.next = self.used.q.val() + self.one_used.val();
        }
        if self.pop.val() && !(self.accept.val() && self.s_axis_tlast.val()) {
            self.used_next.next = self.used.q.val() - self.one_used.val();
        }
        self.used.d.next = self.used_next.val();
        self.tready_q.d.next = self.used_next.val() < self.fifo_depth.val();

        // S0: capture.
        self.rev.din.next = self.s_axis_tdata.val();
        self.tuser_ns.din.next = self.s_axis_tuser.val();
        self.unused_cfg.next = self.shell.cfg.val();
        // Which window register takes the beat: register 0 on a first beat, else the one-hot pointer's
        // (`hot[k]`: register k + 1; the last: past the window), so each register's enable is one LUT.
        self.sel[0].next = self.first.q.val();
        for k in 0..self._nb {
            self.hot[k].clock.next = self.clock.val();
            self.hot[k].d.next = self.hot[k].q.val();
            self.sel[k + 1].next = !self.first.q.val() && self.hot[k].q.val();
        }
        // The beat's bytes: bit j = parity of tkeep bits m·2^j − 1 (`golden::parser::cycle::keep_bytes`).
        self.nbytes.next = self.zero_l.val();
        for j in 0..self._kbits {
            if (self.s_axis_tkeep.val() & self.keep_masks[j].val()).xor() {
                self.nbytes.next = self.nbytes.val() | self.keep_bit[j].val();
            }
        }
        if self.mut_keep.val() {
            self.nbytes.next = self.keep_full.val();
        }
        self.zx_base.din.next = self.len[0].q.val();
        self.zx_n.din.next = self.lnb.q.val();
        self.sum.next = self.zx_base.out.val() + self.zx_n.out.val();
        if self.sum.val() > self.len_max18.val() {
            self.len0.next = self.len_max.val();
        } else {
            self.len0.next = self.sum.val().get_bits::<17>(0);
        }
        if self.accept.val() {
            for i in 0..self._nb {
                if self.sel[i].val() {
                    self.beats[i].d.next = self.rev.out.val();
                }
                self.hot[i].d.next = self.sel[i].val();
            }
            // The last pointer bit holds past the window.
            for k in self._last..self._nb {
                self.hot[k].d.next = self.sel[k].val() || self.sel[k + 1].val();
            }
            self.lnb.d.next = self.nbytes.val();
            if self.first.q.val() {
                self.len[0].d.next = self.zero_l.val();
            } else {
                self.len[0].d.next = self.len0.val();
            }
            if self.first.q.val() {
                self.ts[0].d.next = self.tuser_ns.out.val();
            }
            self.first.d.next = self.s_axis_tlast.val();
        }
        self.v[0].d.next = self.accept.val() && self.s_axis_tlast.val();

        // S1: L2.
        self.win.next = self.zero_win.val();
        for i in 0..self._nb {
            self.zx_beat[i].din.next = self.beats[i].q.val();
            self.win.next = self.win.val() | (self.zx_beat[i].out.val() << self.off_beat[i].val());
        }
        self.et[0].next = self.win.val().get_bits::<16>(912);
        self.et[1].next = self.win.val().get_bits::<16>(880);
        self.et[2].next = self.win.val().get_bits::<16>(848);
        // Each candidate ethertype compared in parallel (a TPID; IPv4; IPv6), the tags' choice after.
        for j in 0..3 {
            self.tp[j].next = false;
            for t in 0..5 {
                if self.et[j].val() == self.tpids[t].val() {
                    self.tp[j].next = true;
                }
            }
            self.v4c[j].next = self.et[j].val() == self.eth_v4.val();
            self.v6c[j].next = self.et[j].val() == self.eth_v6.val();
        }
        self.ntags.d.next = self.tags_n[0].val();
        self.is_v4[1].d.next = self.v4c[0].val();
        self.is_v6[1].d.next = self.v6c[0].val();
        if self.tp[0].val() {
            self.ntags.d.next = self.tags_n[1].val();
            self.is_v4[1].d.next = self.v4c[1].val();
            self.is_v6[1].d.next = self.v6c[1].val();
            if self.tp[1].val() {
                if !self.mut_tags.val() {
                    self.ntags.d.next = self.tags_n[2].val();
                }
                self.is_v4[1].d.next = self.v4c[2].val();
                self.is_v6[1].d.next = self.v6c[2].val();
            }
        }
        self.w[1].d.next = self.win.val();
        self.too_many[1].d.next = self.tp[0].val() && self.tp[1].val() && self.tp[2].val();

        // S2: the window from the L3 header on; the frame length's bounds (the length came in at S1).
        self.runt[2].d.next = self.len[1].q.val() < self.c60.val();
        self.big[2].d.next = self.len[1].q.val() > self.c128.val();
        if self.len[1].q.val() > self.c128.val() {
            self.avail[2].d.next = self.c128.val();
        } else {
            self.avail[2].d.next = self.len[1].q.val();
        }
        if self.ntags.q.val() == self.tags_n[0].val() {
            self.w[2].d.next = self.w[1].q.val() << self.sh_l3[0].val();
            self.l3[2].d.next = self.l3_of[0].val();
        } else if self.ntags.q.val() == self.tags_n[1].val() {
            self.w[2].d.next = self.w[1].q.val() << self.sh_l3[1].val();
            self.l3[2].d.next = self.l3_of[1].val();
        } else {
            self.w[2].d.next = self.w[1].q.val() << self.sh_l3[2].val();
            self.l3[2].d.next = self.l3_of[2].val();
        }

        // S3: raw IP fields (IPv4 and IPv6 offsets) and the addresses; the first extension header's length
        // (IPv6: its next header at byte 6, its length byte L at 40 + 1): 8 (fragment), (L + 2)·4 (AH) or
        // (L + 1)·8, each 8 + `e1x` with `e1x` = 0, 4L or 8L, so its length, 8 + it and its end (40 + it)
        // are one constant adder each after the kind's choice.
        self.zx_e1l.din.next = self.w[2].q.val().get_bits::<8>(688);
        if self.w[2].q.val().get_bits::<8>(968) == self.b_frag.val() {
            self.e1x.next = self.zero_l.val();
        } else if self.w[2].q.val().get_bits::<8>(968) == self.b_ah.val() {
            self.e1x.next = self.zx_e1l.out.val() << self.c2.val();
        } else {
            self.e1x.next = self.zx_e1l.out.val() << self.sh3.val();
        }
        self.zx_src4.din.next = self.w[2].q.val().get_bits::<32>(896);
        self.zx_dst4.din.next = self.w[2].q.val().get_bits::<32>(864);
        self.ver.d.next = self.w[2].q.val().get_bits::<4>(1020);
        self.ihl.d.next = self.w[2].q.val().get_bits::<4>(1016);
        self.total.d.next = self.w[2].q.val().get_bits::<16>(992);
        self.frag.d.next = self.w[2].q.val().get_bits::<16>(960);
        self.proto.d.next = self.w[2].q.val().get_bits::<8>(944);
        self.paylen.d.next = self.w[2].q.val().get_bits::<16>(976);
        self.next0.d.next = self.w[2].q.val().get_bits::<8>(968);
        self.e1len_q.d.next = self.e1x.val() + self.c8.val();
        self.e1len8.d.next = self.e1x.val() + self.c16.val();
        self.e1end.d.next = self.e1x.val() + self.c48.val();
        self.e1.d.next = self.w[2].q.val().get_bits::<32>(672);
        // Bytes from the L3 start to the window's end and to the frame's end (S7's bounds).
        self.ar[3].d.next = self.avail[2].q.val() - self.l3[2].q.val();
        self.lr[3].d.next = self.len[2].q.val() - self.l3[2].q.val();
        if self.is_v6[2].q.val() {
            self.src[3].d.next = self.w[2].q.val().get_bits::<128>(832);
            self.dst[3].d.next = self.w[2].q.val().get_bits::<128>(704);
            self.ip_id[3].d.next = self.zero16.val();
        } else {
            self.src[3].d.next = self.zx_src4.out.val();
            self.dst[3].d.next = self.zx_dst4.out.val();
            self.ip_id[3].d.next = self.w[2].q.val().get_bits::<16>(976);
        }

        // S4: IPv4 checks; IPv6 fixed header and its first extension header.
        self.zx_ihl.din.next = self.ihl.q.val();
        self.zx_total.din.next = self.total.q.val();
        self.zx_paylen.din.next = self.paylen.q.val();
        self.ihl4.next = self.zx_ihl.out.val() << self.c2.val();
        if self.mut_ihl.val() {
            self.ihl4.next = (self.zx_ihl.out.val() << self.c2.val()) + self.c4.val();
        }
        // The IPv4 and IPv6 checks, each to a flag; S5 takes the first failing one by priority (a ladder
        // behind the compares was this stage's critical path).
        self.v4_ver.d.next = self.ver.q.val() != self.b4.val();
        self.v4_ihl.d.next = self.ihl.q.val() < self.b5.val();
        self.v4_len.d.next = self.zx_total.out.val() < self.ihl4.val();
        self.v4_frag.d.next = (self.frag.q.val() & self.mask_frag4.val()) != self.zero16.val();
        self.v4_proto.d.next = (self.proto.q.val() != self.b_tcp.val()) && (self.proto.q.val() != self.b_udp.val());
        self.v4_out.d.next = self.ihl4.val() > self.ar[3].q.val();
        self.v6_out.d.next = self.c40.val() > self.ar[3].q.val();
        self.v6_ver.d.next = self.ver.q.val() != self.b6v.val();
        self.v6_l4.d.next = (self.next0.q.val() == self.b_tcp.val()) || (self.next0.q.val() == self.b_udp.val());
        self.v6_other.d.next = (self.next0.q.val() != self.b_frag.val())
            && (self.next0.q.val() != self.b_ah.val())
            && (self.next0.q.val() != self.b_ext8[0].val())
            && (self.next0.q.val() != self.b_ext8[1].val())
            && (self.next0.q.val() != self.b_ext8[2].val())
            && (self.next0.q.val() != self.b_ext8[3].val())
            && (self.next0.q.val() != self.b_ext8[4].val())
            && (self.next0.q.val() != self.b_ext8[5].val());
        self.v6_frag.d.next = self.next0.q.val() == self.b_frag.val();
        self.v6_frag_out.d.next = self.c44.val() > self.ar[3].q.val();
        self.v6_frag_bits.d.next = (self.e1.q.val().get_bits::<16>(0) & self.mask_frag6.val()) != self.zero16.val();
        self.v6_e1_out.d.next = self.e1end.q.val() > self.ar[3].q.val();
        self.v6_len.d.next = self.zx_paylen.out.val() < self.e1len_q.q.val();
        if self.is_v6[3].q.val() {
            self.short[4].d.next = self.lr[3].q.val() < self.c40.val() + self.zx_paylen.out.val();
            if (self.next0.q.val() == self.b_tcp.val()) || (self.next0.q.val() == self.b_udp.val()) {
                self.p[4].d.next = self.c40.val();
                self.pay[4].d.next = self.zx_paylen.out.val();
                self.nh[4].d.next = self.next0.q.val();
            } else {
                self.p[4].d.next = self.e1end.q.val();
                self.pay[4].d.next = self.zx_paylen.out.val() - self.e1len_q.q.val();
                self.nh[4].d.next = self.e1.q.val().get_bits::<8>(24);
            }
        } else {
            self.short[4].d.next = self.lr[3].q.val() < self.zx_total.out.val();
            self.p[4].d.next = self.ihl4.val();
            self.pay[4].d.next = self.zx_total.out.val() - self.ihl4.val();
            self.nh[4].d.next = self.proto.q.val();
        }

        // S4 (continued): the second extension header's word, first level of the choice — the 16-byte
        // group at the first one's end (an 8:1 choice by bits 6:4 of e1end): 16 bytes kept.
        self.e2a_word.din.next = self.w[3].q.val() << ((self.e1end.q.val() & self.hi_mask.val()) << self.sh3.val());
        // On a chain, the bases of the L4 offset and payload after the second header (its length is
        // 8 + a shifted byte, so S5 adds one term).
        self.e2a.d.next = self.e2a_word.out.val();
        self.p4p8.d.next = self.e1end.q.val() + self.c8.val();
        self.pay4m8.d.next = self.zx_paylen.out.val() - self.e1len8.q.val();
        // The second header's kind, from the first one's next-header byte (which is nh[4] on a chain):
        // fragment, AH; and for each word k of the group (k = 0..3, word k at bytes 4k..4k + 4) its length
        // if it is the header, 8 + xs: fragment 8, AH (len + 2)·4 = 8 + len·4, others (len + 1)·8 — so S5's
        // adders see flip-flops. And whether the chain goes on.
        self.frag5.next = self.e1.q.val().get_bits::<8>(24) == self.b_frag.val();
        self.ah5.next = self.e1.q.val().get_bits::<8>(24) == self.b_ah.val();
        for k in 0..4 {
            self.e2l_byte[k].din.next = self.e2a_word.out.val();
            self.zx_e2l[k].din.next = self.e2l_byte[k].out.val();
            if self.frag5.val() {
                self.xs[k].d.next = self.zero_l.val();
            } else if self.ah5.val() {
                self.xs[k].d.next = self.zx_e2l[k].out.val() << self.c2.val();
            } else {
                self.xs[k].d.next = self.zx_e2l[k].out.val() << self.sh3.val();
            }
        }
        self.more5.d.next = self.is_v6[3].q.val()
            && (self.next0.q.val() != self.b_tcp.val())
            && (self.next0.q.val() != self.b_udp.val())
            && (self.e1.q.val().get_bits::<8>(24) != self.b_tcp.val())
            && (self.e1.q.val().get_bits::<8>(24) != self.b_udp.val());

        // S5 (first): S4's checks by priority, the first failing one (IPv6 or IPv4 by the version).
        if self.big[4].q.val() {
            self.s_out5.next = self.s_beyond.val();
        } else {
            self.s_out5.next = self.s_trunc_ip.val();
        }
        self.d4.next = self.s_ok.val();
        if self.v4_ver.q.val() {
            self.d4.next = self.s_version.val();
        } else if self.v4_ihl.q.val() {
            self.d4.next = self.s_ihl.val();
        } else if self.v4_len.q.val() {
            self.d4.next = self.s_length.val();
        } else if self.v4_frag.q.val() {
            self.d4.next = self.s_fragment.val();
        } else if self.v4_proto.q.val() {
            self.d4.next = self.s_unsupported.val();
        } else if self.v4_out.q.val() {
            self.d4.next = self.s_out5.val();
        }
        self.d6.next = self.s_ok.val();
        if self.v6_out.q.val() {
            self.d6.next = self.s_out5.val();
        } else if self.v6_ver.q.val() {
            self.d6.next = self.s_version.val();
        } else if self.v6_l4.q.val() {
            self.d6.next = self.s_ok.val();
        } else if self.v6_other.q.val() {
            self.d6.next = self.s_unsupported.val();
        } else if self.v6_frag.q.val() && self.v6_frag_out.q.val() {
            self.d6.next = self.s_out5.val();
        } else if self.v6_frag.q.val() && self.v6_frag_bits.q.val() {
            self.d6.next = self.s_fragment.val();
        } else if self.v6_e1_out.q.val() {
            self.d6.next = self.s_out5.val();
        } else if self.v6_len.q.val() {
            self.d6.next = self.s_length.val();
        }
        if self.is_v6[4].q.val() {
            self.ipdrop.d.next = self.d6.val();
        } else {
            self.ipdrop.d.next = self.d4.val();
        }

        // S5: the second extension header's first word (second level: 4:1 by bits 3:2 of its offset, which
        // is p[4] = e1end on a chain), its length, and the L4 offset and payload after it. The length and the
        // sums are computed for each of the group's four words and the word is picked after the adders.
        self.e2_word.din.next = self.e2a.q.val() << ((self.p[4].q.val() & self.lo_mask.val()) << self.sh3.val());
        self.e2.d.next = self.e2_word.out.val();
        self.room.d.next = self.ar[4].q.val() - self.p[4].q.val();
        for k in 0..4 {
            self.e2len_c[k].next = self.xs[k].q.val() + self.c8.val();
            self.pl4_c[k].next = self.p4p8.q.val() + self.xs[k].q.val();
            self.payl4_c[k].next = self.pay4m8.q.val() - self.xs[k].q.val();
        }
        self.e2len_q.d.next = self.e2len_c[0].val();
        self.pl4.d.next = self.p[4].q.val();
        self.payl4.d.next = self.pay[4].q.val();
        for k in 0..4 {
            if (self.p[4].q.val() & self.lo_mask.val()) == self.word_lo[k].val() {
                self.e2len_q.d.next = self.e2len_c[k].val();
                if self.more5.q.val() {
                    self.pl4.d.next = self.pl4_c[k].val();
                    self.payl4.d.next = self.payl4_c[k].val();
                }
            }
        }

        // S6: the first L2/L3 reason by priority, the second extension header's checks each to a flag (S7
        // takes the first failing one), the chain's end.
        if self.runt[5].q.val() {
            self.l3code[6].d.next = self.s_runt.val();
        } else if self.too_many[5].q.val() {
            self.l3code[6].d.next = self.s_too_many.val();
        } else if !self.is_v4[5].q.val() && !self.is_v6[5].q.val() {
            self.l3code[6].d.next = self.s_not_ip.val();
        } else {
            self.l3code[6].d.next = self.ipdrop.q.val();
        }
        self.x2_more.d.next = self.more6.q.val();
        self.x2_other.d.next = (self.nh[5].q.val() != self.b_frag.val())
            && (self.nh[5].q.val() != self.b_ah.val())
            && (self.nh[5].q.val() != self.b_ext8[0].val())
            && (self.nh[5].q.val() != self.b_ext8[1].val())
            && (self.nh[5].q.val() != self.b_ext8[2].val())
            && (self.nh[5].q.val() != self.b_ext8[3].val())
            && (self.nh[5].q.val() != self.b_ext8[4].val())
            && (self.nh[5].q.val() != self.b_ext8[5].val());
        self.x2_frag.d.next = self.nh[5].q.val() == self.b_frag.val();
        self.x2_frag_out.d.next = self.c4.val() > self.room.q.val();
        self.x2_frag_bits.d.next = (self.e2.q.val().get_bits::<16>(0) & self.mask_frag6.val()) != self.zero16.val();
        self.x2_out.d.next = self.e2len_q.q.val() > self.room.q.val();
        self.x2_len.d.next = self.pay[5].q.val() < self.e2len_q.q.val();
        self.x2_l4.d.next = (self.e2.q.val().get_bits::<8>(24) == self.b_tcp.val())
            || (self.e2.q.val().get_bits::<8>(24) == self.b_udp.val());
        self.x2_bad_next.d.next = (self.e2.q.val().get_bits::<8>(24) != self.b_frag.val())
            && (self.e2.q.val().get_bits::<8>(24) != self.b_ah.val())
            && (self.e2.q.val().get_bits::<8>(24) != self.b_ext8[0].val())
            && (self.e2.q.val().get_bits::<8>(24) != self.b_ext8[1].val())
            && (self.e2.q.val().get_bits::<8>(24) != self.b_ext8[2].val())
            && (self.e2.q.val().get_bits::<8>(24) != self.b_ext8[3].val())
            && (self.e2.q.val().get_bits::<8>(24) != self.b_ext8[4].val())
            && (self.e2.q.val().get_bits::<8>(24) != self.b_ext8[5].val());
        if self.more6.q.val() {
            self.nh[6].d.next = self.e2.q.val().get_bits::<8>(24);
        } else {
            self.nh[6].d.next = self.nh[5].q.val();
        }
        self.p[6].d.next = self.pl4.q.val();
        self.pay[6].d.next = self.payl4.q.val();
        // The L4 header's 20 bytes, first level: the 32-byte run from its 16-byte group (8:1 by bits 6:4).
        self.l4a_word.din.next = self.w[5].q.val() << ((self.pl4.q.val() & self.hi_mask.val()) << self.sh3.val());
        self.l4a.d.next = self.l4a_word.out.val();

        // S7 (first): the second extension header's reason by priority, after any L2/L3 reason.
        if self.big[6].q.val() {
            self.s_out7.next = self.s_beyond.val();
        } else {
            self.s_out7.next = self.s_trunc_ip.val();
        }
        self.d6b.next = self.s_ok.val();
        if !self.x2_more.q.val() {
            self.d6b.next = self.s_ok.val();
        } else if self.x2_other.q.val() {
            self.d6b.next = self.s_unsupported.val();
        } else if self.x2_frag.q.val() && self.x2_frag_out.q.val() {
            self.d6b.next = self.s_out7.val();
        } else if self.x2_frag.q.val() && self.x2_frag_bits.q.val() {
            self.d6b.next = self.s_fragment.val();
        } else if self.x2_out.q.val() {
            self.d6b.next = self.s_out7.val();
        } else if self.x2_len.q.val() {
            self.d6b.next = self.s_length.val();
        } else if self.x2_l4.q.val() {
            self.d6b.next = self.s_ok.val();
        } else if self.x2_bad_next.q.val() {
            self.d6b.next = self.s_unsupported.val();
        } else {
            self.d6b.next = self.s_ext_limit.val();
        }
        if self.l3code[6].q.val() != self.s_ok.val() {
            self.l3code[7].d.next = self.l3code[6].q.val();
        } else {
            self.l3code[7].d.next = self.d6b.val();
        }

        // S7: the L4 header's 20 bytes at the L4 offset (second level: 4:1 by bits 3:2).
        self.l4_word.din.next = self.l4a.q.val() << ((self.p[6].q.val() & self.lo_mask.val()) << self.sh3.val());
        // The L4 header's bounds, relative to the L3 start (`ar`, `lr`: window and frame bytes after it).
        self.l4.d.next = self.l4_word.out.val();
        self.f20.d.next = self.p[6].q.val() + self.c20.val() > self.ar[6].q.val();
        self.f8.d.next = self.p[6].q.val() + self.c8.val() > self.ar[6].q.val();
        self.rem.d.next = self.lr[6].q.val() - self.p[6].q.val();

        // S8: TCP/UDP checks, the record.
        self.zx_doff.din.next = self.l4.q.val().get_bits::<4>(60);
        self.zx_ulen.din.next = self.l4.q.val().get_bits::<16>(112);
        self.doff.next = self.zx_doff.out.val() << self.c2.val();
        self.ulen.next = self.zx_ulen.out.val();
        self.d8.next = self.s_ok.val();
        if self.nh[7].q.val() == self.b_tcp.val() {
            if self.f20.q.val() {
                if self.big[7].q.val() {
                    self.d8.next = self.s_beyond.val();
                } else {
                    self.d8.next = self.s_trunc_l4.val();
                }
            } else if (self.doff.val() < self.c20.val()) || (self.doff.val() > self.pay[7].q.val()) {
                self.d8.next = self.s_bad_l4.val();
            }
        } else if self.f8.q.val() {
            if self.big[7].q.val() {
                self.d8.next = self.s_beyond.val();
            } else {
                self.d8.next = self.s_trunc_l4.val();
            }
        } else if (self.ulen.val() < self.c8.val()) || (self.ulen.val() > self.pay[7].q.val()) {
            self.d8.next = self.s_bad_l4.val();
        }
        if self.l3code[7].q.val() != self.s_ok.val() {
            self.status.d.next = self.l3code[7].q.val();
        } else {
            self.status.d.next = self.d8.val();
        }
        self.sport.d.next = self.l4.q.val().get_bits::<16>(144);
        self.dport.d.next = self.l4.q.val().get_bits::<16>(128);
        if self.nh[7].q.val() == self.b_tcp.val() {
            self.seq.d.next = self.l4.q.val().get_bits::<32>(96);
            self.ack.d.next = self.l4.q.val().get_bits::<32>(64);
            self.tflags.d.next = self.l4.q.val().get_bits::<8>(48);
            self.paylen_out.d.next = self.pay[7].q.val() - self.doff.val();
            self.cut.d.next = self.rem.q.val() < self.doff.val();
        } else {
            self.seq.d.next = self.zero32.val();
            self.ack.d.next = self.zero32.val();
            self.tflags.d.next = self.zero8.val();
            self.paylen_out.d.next = self.ulen.val() - self.c8.val();
            self.cut.d.next = false;
        }

        // The slots move: carried fields one slot on (stage logic above wrote its own slot first).
        for i in 1..9 {
            self.v[i].d.next = self.v[i - 1].q.val();
            self.ts[i].d.next = self.ts[i - 1].q.val();
        }
        self.len[1].d.next = self.len0.val();
        self.len[2].d.next = self.len[1].q.val();
        for i in 2..9 {
            self.is_v6[i].d.next = self.is_v6[i - 1].q.val();
        }
        for i in 3..9 {
            self.big[i].d.next = self.big[i - 1].q.val();
        }
        for i in 4..9 {
            self.src[i].d.next = self.src[i - 1].q.val();
            self.dst[i].d.next = self.dst[i - 1].q.val();
            self.ip_id[i].d.next = self.ip_id[i - 1].q.val();
        }
        for i in 5..9 {
            self.short[i].d.next = self.short[i - 1].q.val();
        }
        for i in 4..7 {
            self.ar[i].d.next = self.ar[i - 1].q.val();
            self.lr[i].d.next = self.lr[i - 1].q.val();
        }
        for i in 3..6 {
            self.w[i].d.next = self.w[i - 1].q.val();
        }
        for i in 2..7 {
            self.is_v4[i].d.next = self.is_v4[i - 1].q.val();
            self.too_many[i].d.next = self.too_many[i - 1].q.val();
        }
        for i in 3..7 {
            self.runt[i].d.next = self.runt[i - 1].q.val();
        }
        self.more6.d.next = self.more5.q.val();
        self.pay[5].d.next = self.pay[4].q.val();
        self.nh[5].d.next = self.nh[4].q.val();
        self.pay[7].d.next = self.pay[6].q.val();
        self.nh[7].d.next = self.nh[6].q.val();
        self.nh[8].d.next = self.nh[7].q.val();
        if self.reset.val() {
            for i in 0..9 {
                self.v[i].d.next = false;
            }
            self.first.d.next = true;
            self.used.d.next = self.zero_used.val();
            self.tready_q.d.next = true;
        }

        // The record register into the output FIFO (packed at the offsets `REC_*`; flags at bits 0–2); its
        // head is the output.
        self.out_pay.din.next = self.paylen_out.q.val();
        self.pk4.din.next = self.status.q.val();
        self.pk48.din.next = self.ts[8].q.val();
        self.pk128[0].din.next = self.src[8].q.val();
        self.pk128[1].din.next = self.dst[8].q.val();
        self.pk8[0].din.next = self.nh[8].q.val();
        self.pk8[1].din.next = self.tflags.q.val();
        self.pk16[0].din.next = self.sport.q.val();
        self.pk16[1].din.next = self.dport.q.val();
        self.pk16[2].din.next = self.out_pay.out.val();
        self.pk16[3].din.next = self.ip_id[8].q.val();
        self.pk32[0].din.next = self.seq.q.val();
        self.pk32[1].din.next = self.ack.q.val();
        self.rec_in.next = (self.pk4.out.val() << self.rec_off[0].val())
            | (self.pk48.out.val() << self.rec_off[1].val())
            | (self.pk128[0].out.val() << self.rec_off[2].val())
            | (self.pk128[1].out.val() << self.rec_off[3].val())
            | (self.pk8[0].out.val() << self.rec_off[4].val())
            | (self.pk16[0].out.val() << self.rec_off[5].val())
            | (self.pk16[1].out.val() << self.rec_off[6].val())
            | (self.pk32[0].out.val() << self.rec_off[7].val())
            | (self.pk32[1].out.val() << self.rec_off[8].val())
            | (self.pk8[1].out.val() << self.rec_off[9].val())
            | (self.pk16[2].out.val() << self.rec_off[10].val())
            | (self.pk16[3].out.val() << self.rec_off[11].val());
        if self.is_v6[8].q.val() {
            self.rec_in.next = self.rec_in.val() | self.rec_bit[0].val();
        }
        if self.short[8].q.val() {
            self.rec_in.next = self.rec_in.val() | self.rec_bit[1].val();
        }
        if self.cut.q.val() {
            self.rec_in.next = self.rec_in.val() | self.rec_bit[2].val();
        }
        self.fifo.reset.next = self.reset.val();
        self.fifo.in_valid.next = self.v[8].q.val();
        self.fifo.in_data.next = self.rec_in.val();
        self.fifo.out_ready.next = self.m_rec_ready.val();
        self.m_rec_valid.next = self.fifo.out_valid.val();
        self.un4.din.next = self.fifo.out_data.val();
        self.un48.din.next = self.fifo.out_data.val();
        self.un128[0].din.next = self.fifo.out_data.val();
        self.un128[1].din.next = self.fifo.out_data.val();
        self.un8[0].din.next = self.fifo.out_data.val();
        self.un16[0].din.next = self.fifo.out_data.val();
        self.un16[1].din.next = self.fifo.out_data.val();
        self.un32[0].din.next = self.fifo.out_data.val();
        self.un32[1].din.next = self.fifo.out_data.val();
        self.un8[1].din.next = self.fifo.out_data.val();
        self.un16[2].din.next = self.fifo.out_data.val();
        self.un16[3].din.next = self.fifo.out_data.val();
        self.m_rec_status.next = self.un4.out.val();
        self.m_rec_timestamp.next = self.un48.out.val();
        self.m_rec_is_v6.next = self.fifo.out_data.val().get_bit(0);
        self.m_rec_src_addr.next = self.un128[0].out.val();
        self.m_rec_dst_addr.next = self.un128[1].out.val();
        self.m_rec_protocol.next = self.un8[0].out.val();
        self.m_rec_src_port.next = self.un16[0].out.val();
        self.m_rec_dst_port.next = self.un16[1].out.val();
        self.m_rec_seq.next = self.un32[0].out.val();
        self.m_rec_ack.next = self.un32[1].out.val();
        self.m_rec_tcp_flags.next = self.un8[1].out.val();
        self.m_rec_payload_len.next = self.un16[2].out.val();
        self.m_rec_ip_id.next = self.un16[3].out.val();
        self.m_rec_short.next = self.fifo.out_data.val().get_bit(1);
        self.m_rec_l4_header_cut.next = self.fifo.out_data.val().get_bit(2);
        self.unused_fifo.next = self.fifo.drops.val().any() || self.fifo.level.val().any();

        // The counters count the record register's record as it enters the FIFO (from registers only).
        self.shell.count[0].next = self.v[8].q.val();
        self.shell.count[1].next = self.v[8].q.val() && (self.status.q.val() == self.s_ok.val());
        self.shell.count[2].next =
            self.v[8].q.val() && (self.status.q.val() == self.s_ok.val()) && self.short[8].q.val();
        self.shell.count[3].next = self.v[8].q.val() && (self.status.q.val() == self.s_ok.val()) && self.cut.q.val();
        for i in 0..14 {
            self.shell.count[i + 4].next = self.v[8].q.val() && (self.status.q.val() == self.codes[i].val());
        }
    });
}
