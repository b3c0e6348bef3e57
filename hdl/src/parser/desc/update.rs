//! The descriptor stage's logic (see the [module docs](super)): the head and its lanes, the credits, S0,
//! S1, the FIFO write — in that order, so every local signal is assigned before it is read.

use super::*;

impl Logic for TcpDesc {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self, clock, used, ready_q, v0, src0, dst0, v6_0, sport0, dport0, seq0, ack0, flags0, pay0, ipid0, ts0, v1,
            v6_1, a4, sport1, dport1, seq1, ack1, seql, x1, ts1, addr1, resp1, req1, data1, sent1, fr_fin, fl_fin
        );
        clock!(self, clock, fifo, hs, hd);

        // Head: the FIFO's first entry, unpacked; the fridge lane offers its response, then its request.
        self.un64.din.next = self.fifo.out_data.val();
        self.un16[0].din.next = self.fifo.out_data.val();
        self.un16[1].din.next = self.fifo.out_data.val();
        for i in 0..5 {
            self.un32[i].din.next = self.fifo.out_data.val();
        }
        self.un48.din.next = self.fifo.out_data.val();
        self.resp_now.next = self.fifo.out_data.val().get_bit(0) && !self.sent1.q.val();
        self.pending.next = !self.fr_fin.q.val() && (self.resp_now.val() || self.fifo.out_data.val().get_bit(1));
        self.fr_take.next = self.fifo.out_valid.val() && self.pending.val() && self.m_fridge_ready.val();
        self.fr_last.next = self.fr_take.val() && !(self.resp_now.val() && self.fifo.out_data.val().get_bit(1));
        self.fr_done.next = self.fr_fin.q.val() || !self.pending.val() || self.fr_last.val();
        self.fl_done.next = self.fl_fin.q.val() || self.m_flow_ready.val();
        self.pop.next = self.fifo.out_valid.val() && self.fr_done.val() && self.fl_done.val();
        self.fifo.out_ready.next = self.pop.val();
        if self.pop.val() {
            self.sent1.d.next = false;
            self.fr_fin.d.next = false;
            self.fl_fin.d.next = false;
        } else {
            if self.fr_take.val() && self.resp_now.val() {
                self.sent1.d.next = true;
            }
            if self.fr_last.val() {
                self.fr_fin.d.next = true;
            }
            if self.fifo.out_valid.val() && self.m_flow_ready.val() {
                self.fl_fin.d.next = true;
            }
        }
        // The fridge lane: a response's id is the reverse direction's (address halves swapped, ports
        // crossed, the ack number); a request's the forward one with `seq + len`.
        self.rot.next = (self.un64.out.val() << self.sh32.val()) | (self.un64.out.val() >> self.sh32.val());
        self.id_hi.next = self.un64.out.val();
        self.id_pa.next = self.un16[0].out.val();
        self.id_pb.next = self.un16[1].out.val();
        self.id_lo.next = self.un32[1].out.val();
        if self.resp_now.val() {
            self.id_hi.next = self.rot.val();
            self.id_pa.next = self.un16[1].out.val();
            self.id_pb.next = self.un16[0].out.val();
            self.id_lo.next = self.un32[0].out.val();
        }
        self.zx_id64[0].din.next = self.id_hi.val();
        self.zx_id16[0].din.next = self.id_pa.val();
        self.zx_id16[1].din.next = self.id_pb.val();
        self.zx_id32[0].din.next = self.id_lo.val();
        self.m_fridge_valid.next = self.fifo.out_valid.val() && self.pending.val();
        self.m_fridge_request.next = !self.resp_now.val();
        self.m_fridge_id.next = (self.zx_id64[0].out.val() << self.sh_id[0].val())
            | (self.zx_id16[0].out.val() << self.sh_id[1].val())
            | (self.zx_id16[1].out.val() << self.sh_id[2].val())
            | self.zx_id32[0].out.val();
        self.m_fridge_ts.next = self.un48.out.val();
        // The flow lane.
        self.zx_k64.din.next = self.un64.out.val();
        self.zx_k16[0].din.next = self.un16[0].out.val();
        self.zx_k16[1].din.next = self.un16[1].out.val();
        self.zx_id64[1].din.next = self.un64.out.val();
        self.zx_id16[2].din.next = self.un16[0].out.val();
        self.zx_id16[3].din.next = self.un16[1].out.val();
        self.zx_id32[1].din.next = self.un32[2].out.val();
        self.m_flow_valid.next = self.fifo.out_valid.val() && !self.fl_fin.q.val();
        self.m_flow_key.next = (self.zx_k64.out.val() << self.sh_key[0].val())
            | (self.zx_k16[0].out.val() << self.sh_key[1].val())
            | (self.zx_k16[1].out.val() << self.sh_key[2].val())
            | self.proto104.val();
        self.m_flow_invariant.next = (self.zx_id64[1].out.val() << self.sh_id[0].val())
            | (self.zx_id16[2].out.val() << self.sh_id[1].val())
            | (self.zx_id16[3].out.val() << self.sh_id[2].val())
            | self.zx_id32[1].out.val();
        self.m_flow_addr.next = self.un32[4].out.val();
        self.m_flow_seq.next = self.un32[3].out.val();
        self.m_flow_ts.next = self.un48.out.val();
        self.m_flow_data.next = self.fifo.out_data.val().get_bit(2);
        self.m_flow_v4.next = self.fifo.out_data.val().get_bit(3);

        // Credits: `used` counts the TCP records in S0, S1 and the FIFO; `s_rec_ready` is a flip-flop.
        self.s_rec_ready.next = self.ready_q.q.val();
        self.take.next = self.s_rec_valid.val()
            && self.ready_q.q.val()
            && !self.reset.val()
            && self.s_rec_status.val() == self.s_ok.val()
            && self.s_rec_protocol.val() == self.s_tcp.val();
        self.used_next.next = self.used.q.val();
        if self.take.val() && !self.pop.val() {
            self.used_next.next = self.used.q.val() + self.one_used.val();
        }
        if self.pop.val() && !self.take.val() {
            self.used_next.next = self.used.q.val() - self.one_used.val();
        }
        self.used.d.next = self.used_next.val();
        self.ready_q.d.next = self.used_next.val() < self.depth.val();

        // S0: every cycle's record (only a TCP one taken is valid).
        self.v0.d.next = self.take.val();
        self.src0.d.next = self.s_rec_src_addr.val();
        self.dst0.d.next = self.s_rec_dst_addr.val();
        self.v6_0.d.next = self.s_rec_is_v6.val();
        self.sport0.d.next = self.s_rec_src_port.val();
        self.dport0.d.next = self.s_rec_dst_port.val();
        self.seq0.d.next = self.s_rec_seq.val();
        self.ack0.d.next = self.s_rec_ack.val();
        self.flags0.d.next = self.s_rec_tcp_flags.val();
        self.pay0.d.next = self.s_rec_payload_len.val();
        self.ipid0.d.next = self.s_rec_ip_id.val();
        self.ts0.d.next = self.s_rec_timestamp.val();

        // S1: the hashes (registered in their units), the IPv4 address bits, the fridge decisions, the
        // sequence space taken (flag bits: FIN 0, SYN 1, ACK 4), the invariant key's low word.
        self.hs.key.next = self.src0.q.val();
        self.hd.key.next = self.dst0.q.val();
        self.hs.load.next = true;
        self.hd.load.next = true;
        self.v1.d.next = self.v0.q.val();
        self.v6_1.d.next = self.v6_0.q.val();
        self.src32.din.next = self.src0.q.val();
        self.dst32.din.next = self.dst0.q.val();
        self.zx_a4s.din.next = self.src32.out.val();
        self.zx_a4d.din.next = self.dst32.out.val();
        self.a4.d.next = (self.zx_a4s.out.val() << self.sh32.val()) | self.zx_a4d.out.val();
        self.addr1.d.next = self.dst32.out.val();
        self.sport1.d.next = self.sport0.q.val();
        self.dport1.d.next = self.dport0.q.val();
        self.seq1.d.next = self.seq0.q.val();
        self.ack1.d.next = self.ack0.q.val();
        self.ts1.d.next = self.ts0.q.val();
        self.data1.d.next = self.pay0.q.val() != self.zero16.val();
        self.zx_pay.din.next = self.pay0.q.val();
        self.inc.next = self.zero32.val();
        if self.flags0.q.val().get_bit(1) || self.flags0.q.val().get_bit(0) {
            self.inc.next = self.one32.val();
        }
        if self.flags0.q.val().get_bit(1) && self.flags0.q.val().get_bit(0) {
            self.inc.next = self.two32.val();
        }
        if self.syn_mode.val() {
            self.seql.d.next = self.one32.val();
            self.resp1.d.next = self.flags0.q.val().get_bit(1) && self.flags0.q.val().get_bit(4);
            self.req1.d.next = self.flags0.q.val().get_bit(1) && !self.flags0.q.val().get_bit(4);
        } else {
            self.seql.d.next = self.zx_pay.out.val() + self.inc.val();
            self.resp1.d.next = self.flags0.q.val().get_bit(4);
            self.req1.d.next = self.pay0.q.val() != self.zero16.val();
        }
        self.zx_ipid.din.next = self.ipid0.q.val();
        self.x1.d.next = self.seq0.q.val()
            ^ ((self.ack0.q.val() << self.sh13.val()) | (self.ack0.q.val() >> self.sh19.val()))
            ^ (self.zx_ipid.out.val() << self.sh16.val());

        // FIFO write: S1's entry, the 64 address bits and `seq + len` computed on the way.
        self.fold.next = self.a4.q.val();
        if self.v6_1.q.val() {
            self.fold.next = self.hs.hash.val()
                ^ ((self.hd.hash.val() << self.sh32.val()) | (self.hd.hash.val() >> self.sh32.val()));
        }
        self.seq_end.next = self.seq1.q.val() + self.seql.q.val();
        self.pk64.din.next = self.fold.val();
        self.pk16[0].din.next = self.sport1.q.val();
        self.pk16[1].din.next = self.dport1.q.val();
        self.pk32[0].din.next = self.ack1.q.val();
        self.pk32[1].din.next = self.seq_end.val();
        self.pk32[2].din.next = self.x1.q.val();
        self.pk32[3].din.next = self.seq1.q.val();
        self.pk32[4].din.next = self.addr1.q.val();
        self.pk48.din.next = self.ts1.q.val();
        self.flags_e.next = self.zero_e.val();
        if self.resp1.q.val() {
            self.flags_e.next = self.flags_e.val() | self.e_bit[0].val();
        }
        if self.req1.q.val() {
            self.flags_e.next = self.flags_e.val() | self.e_bit[1].val();
        }
        if self.data1.q.val() {
            self.flags_e.next = self.flags_e.val() | self.e_bit[2].val();
        }
        if !self.v6_1.q.val() {
            self.flags_e.next = self.flags_e.val() | self.e_bit[3].val();
        }
        self.fifo.in_data.next = (self.pk64.out.val() << self.e_off[0].val())
            | (self.pk16[0].out.val() << self.e_off[1].val())
            | (self.pk16[1].out.val() << self.e_off[2].val())
            | (self.pk32[0].out.val() << self.e_off[3].val())
            | (self.pk32[1].out.val() << self.e_off[4].val())
            | (self.pk32[2].out.val() << self.e_off[5].val())
            | (self.pk32[3].out.val() << self.e_off[6].val())
            | (self.pk48.out.val() << self.e_off[7].val())
            | (self.pk32[4].out.val() << self.e_off[8].val())
            | self.flags_e.val();
        self.fifo.in_valid.next = self.v1.q.val();
        self.fifo.reset.next = self.reset.val();
        self.unused_fifo.next = self.fifo.drops.val().any() || self.fifo.level.val().any();

        if self.reset.val() {
            self.v0.d.next = false;
            self.v1.d.next = false;
            self.sent1.d.next = false;
            self.fr_fin.d.next = false;
            self.fl_fin.d.next = false;
            self.used.d.next = self.zero_used.val();
            self.ready_q.d.next = true;
        }
    }
}
