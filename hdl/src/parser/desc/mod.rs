//! The descriptor stage (issue 18): the parser's records in (`s_rec_*`, the parser's `m_rec_*` wired
//! straight in), the cores' descriptors out on two lanes — the fridge's (`m_fridge_*`, 0–2 per TCP segment,
//! the response first) and the flow-keyed cores' (`m_flow_*`, one per TCP segment). Specification:
//! `golden::parser::descriptors` (what a segment gives) and `golden::parser::desc` (the cycle model this
//! RTL matches: timing, credits, the lanes' handshake).
//!
//! - **S0** registers a TCP record taken (status 0, protocol 6; anything else is taken and forgotten).
//! - **S1**: the addresses into two H3 hash units (`HashUnit`, registered: their outputs are S1's); the
//!   IPv4 address bits `src | dst`; the sequence space the segment takes (`payload + SYN + FIN`, or 1 in
//!   SYN mode); the response and request decisions; the invariant key's `seq ^ rotl(ack, 13) ^ ip_id << 16`.
//! - **FIFO write** (from S1's registers): the 64 address bits (IPv6 `H(src) ^ rotl(H(dst), 32)`, a 2:1
//!   choice after one XOR) and `seq + len` (one adder), packed with the rest into one word (`E_*`
//!   offsets) of the house `ReportFifo`.
//! - **Head**: the ids and keys are wiring of the head's fields — a response's id has the address halves
//!   swapped and the ports crossed. `sent1`: the head's response is taken and its request is next;
//!   `fr_fin` / `fl_fin`: a lane is done with the head, which leaves when both are.
//! - **Credits**: `s_rec_ready` is a flip-flop, high while fewer than `DESC_FIFO_DEPTH` TCP records exist in
//!   S0, S1 and the FIFO.

use crate::common::bits::{constant, consts, Slice, ZeroExt};
use crate::common::fifo::ReportFifo;
use crate::common::hash::HashUnit;
use crate::common::reg::Reg;
use crate::declare_block;
use golden::common::config::ConfigError;
use golden::parser::desc::{DESC_FIFO_BITS, DESC_FIFO_DEPTH};
use golden::parser::descriptors::ipv6_fold;
use rust_hdl::prelude::*;

/// The FIFO entry's fields: bit offsets (the four flags at bits 0–3 are read with `get_bit`).
pub const E_RESP: usize = 0;
pub const E_REQ: usize = 1;
pub const E_DATA: usize = 2;
pub const E_V4: usize = 3;
pub const E_ADDR_BITS: usize = 4;
pub const E_SPORT: usize = E_ADDR_BITS + 64;
pub const E_DPORT: usize = E_SPORT + 16;
pub const E_ACK: usize = E_DPORT + 16;
pub const E_END: usize = E_ACK + 32;
pub const E_X: usize = E_END + 32;
pub const E_SEQ: usize = E_X + 32;
pub const E_TS: usize = E_SEQ + 32;
pub const E_ADDR: usize = E_TS + 48;
/// The entry's width (308 bits).
pub const E_BITS: usize = E_ADDR + 32;
/// Bits of the credit count (0 ..= DESC_FIFO_DEPTH).
const USED_BITS: usize = DESC_FIFO_BITS + 1;
type E = Bits<E_BITS>;

declare_block! {
    /// See the [module docs](self).
    #[derive(LogicBlock)]
    pub struct TcpDesc
    fn build(hs: HashUnit<128, 64>, hd: HashUnit<128, 64>) {
        pub clock: Signal<In, Clock>,
        pub reset: Signal<In, bool>,
        /// 1: SYN → SYN-ACK pairs (`golden::parser::TcpMode::SynSynAck`); 0: data → ACK.
        pub syn_mode: Signal<In, bool>,
        pub s_rec_valid: Signal<In, bool>,
        pub s_rec_ready: Signal<Out, bool>,
        pub s_rec_status: Signal<In, Bits<4>>,
        pub s_rec_timestamp: Signal<In, Bits<48>>,
        pub s_rec_is_v6: Signal<In, bool>,
        pub s_rec_src_addr: Signal<In, Bits<128>>,
        pub s_rec_dst_addr: Signal<In, Bits<128>>,
        pub s_rec_protocol: Signal<In, Bits<8>>,
        pub s_rec_src_port: Signal<In, Bits<16>>,
        pub s_rec_dst_port: Signal<In, Bits<16>>,
        pub s_rec_seq: Signal<In, Bits<32>>,
        pub s_rec_ack: Signal<In, Bits<32>>,
        pub s_rec_tcp_flags: Signal<In, Bits<8>>,
        pub s_rec_payload_len: Signal<In, Bits<16>>,
        pub s_rec_ip_id: Signal<In, Bits<16>>,
        pub m_fridge_valid: Signal<Out, bool>,
        pub m_fridge_ready: Signal<In, bool>,
        /// 1: a request, 0: a response (the fridge core's `in_request`).
        pub m_fridge_request: Signal<Out, bool>,
        pub m_fridge_id: Signal<Out, Bits<128>>,
        pub m_fridge_ts: Signal<Out, Bits<48>>,
        pub m_flow_valid: Signal<Out, bool>,
        pub m_flow_ready: Signal<In, bool>,
        /// The 5-tuple key (`golden::parser::descriptors::five_tuple_key`).
        pub m_flow_key: Signal<Out, Bits<104>>,
        /// The invariant-field key (`golden::parser::descriptors::invariant_key`).
        pub m_flow_invariant: Signal<Out, Bits<128>>,
        /// The destination address's low 32 bits (IPv4: the address).
        pub m_flow_addr: Signal<Out, Bits<32>>,
        pub m_flow_seq: Signal<Out, Bits<32>>,
        pub m_flow_ts: Signal<Out, Bits<48>>,
        /// The segment carries payload.
        pub m_flow_data: Signal<Out, bool>,
        pub m_flow_v4: Signal<Out, bool>,
        hs: HashUnit<128, 64> = hs,
        hd: HashUnit<128, 64> = hd,
        // Credits.
        take: Signal<Local, bool>,
        pop: Signal<Local, bool>,
        used: Reg<Bits<USED_BITS>>,
        used_next: Signal<Local, Bits<USED_BITS>>,
        ready_q: Reg<bool>,
        one_used: Constant<Bits<USED_BITS>> = constant(1),
        zero_used: Constant<Bits<USED_BITS>> = constant(0),
        depth: Constant<Bits<USED_BITS>> = constant(DESC_FIFO_DEPTH as u64),
        // S0.
        v0: Reg<bool>,
        src0: Reg<Bits<128>>,
        dst0: Reg<Bits<128>>,
        v6_0: Reg<bool>,
        sport0: Reg<Bits<16>>,
        dport0: Reg<Bits<16>>,
        seq0: Reg<Bits<32>>,
        ack0: Reg<Bits<32>>,
        flags0: Reg<Bits<8>>,
        pay0: Reg<Bits<16>>,
        ipid0: Reg<Bits<16>>,
        ts0: Reg<Bits<48>>,
        s_tcp: Constant<Bits<8>> = constant(6),
        s_ok: Constant<Bits<4>> = constant(0),
        // S1.
        v1: Reg<bool>,
        v6_1: Reg<bool>,
        a4: Reg<Bits<64>>,
        sport1: Reg<Bits<16>>,
        dport1: Reg<Bits<16>>,
        seq1: Reg<Bits<32>>,
        ack1: Reg<Bits<32>>,
        seql: Reg<Bits<32>>,
        x1: Reg<Bits<32>>,
        ts1: Reg<Bits<48>>,
        addr1: Reg<Bits<32>>,
        resp1: Reg<bool>,
        req1: Reg<bool>,
        data1: Reg<bool>,
        src32: Slice<128, 32> = Slice::new(0),
        dst32: Slice<128, 32> = Slice::new(0),
        zx_a4s: ZeroExt<32, 64>,
        zx_a4d: ZeroExt<32, 64>,
        zx_pay: ZeroExt<16, 32>,
        zx_ipid: ZeroExt<16, 32>,
        inc: Signal<Local, Bits<32>>,
        one32: Constant<Bits<32>> = constant(1),
        two32: Constant<Bits<32>> = constant(2),
        zero32: Constant<Bits<32>> = constant(0),
        zero16: Constant<Bits<16>> = constant(0),
        sh13: Constant<Bits<16>> = constant(13),
        sh19: Constant<Bits<16>> = constant(19),
        sh16: Constant<Bits<16>> = constant(16),
        sh32: Constant<Bits<16>> = constant(32),
        // FIFO write.
        fold: Signal<Local, Bits<64>>,
        seq_end: Signal<Local, Bits<32>>,
        fifo: ReportFifo<DESC_FIFO_BITS, E_BITS, USED_BITS>,
        pk64: ZeroExt<64, E_BITS>,
        pk16: Vec<ZeroExt<16, E_BITS>> = (0..2).map(|_| ZeroExt::default()).collect(),
        pk32: Vec<ZeroExt<32, E_BITS>> = (0..5).map(|_| ZeroExt::default()).collect(),
        pk48: ZeroExt<48, E_BITS>,
        e_off: Vec<Constant<Bits<16>>> =
            consts([E_ADDR_BITS, E_SPORT, E_DPORT, E_ACK, E_END, E_X, E_SEQ, E_TS, E_ADDR].map(|o| o as u64)),
        e_bit: Vec<Constant<E>> = [E_RESP, E_REQ, E_DATA, E_V4].map(|o| Constant::new(E::from(1u64 << o))).to_vec(),
        flags_e: Signal<Local, E>,
        zero_e: Constant<E> = Constant::new(E::default()),
        // Head.
        un64: Slice<E_BITS, 64> = Slice::new(E_ADDR_BITS),
        un16: Vec<Slice<E_BITS, 16>> = [E_SPORT, E_DPORT].into_iter().map(Slice::new).collect(),
        un32: Vec<Slice<E_BITS, 32>> = [E_ACK, E_END, E_X, E_SEQ, E_ADDR].into_iter().map(Slice::new).collect(),
        un48: Slice<E_BITS, 48> = Slice::new(E_TS),
        sent1: Reg<bool>,
        fr_fin: Reg<bool>,
        fl_fin: Reg<bool>,
        resp_now: Signal<Local, bool>,
        pending: Signal<Local, bool>,
        fr_take: Signal<Local, bool>,
        fr_last: Signal<Local, bool>,
        fr_done: Signal<Local, bool>,
        fl_done: Signal<Local, bool>,
        rot: Signal<Local, Bits<64>>,
        id_hi: Signal<Local, Bits<64>>,
        id_pa: Signal<Local, Bits<16>>,
        id_pb: Signal<Local, Bits<16>>,
        id_lo: Signal<Local, Bits<32>>,
        zx_id64: Vec<ZeroExt<64, 128>> = (0..2).map(|_| ZeroExt::default()).collect(),
        zx_id16: Vec<ZeroExt<16, 128>> = (0..4).map(|_| ZeroExt::default()).collect(),
        zx_id32: Vec<ZeroExt<32, 128>> = (0..2).map(|_| ZeroExt::default()).collect(),
        zx_k64: ZeroExt<64, 104>,
        zx_k16: Vec<ZeroExt<16, 104>> = (0..2).map(|_| ZeroExt::default()).collect(),
        sh_id: Vec<Constant<Bits<16>>> = consts([64, 48, 32]),
        sh_key: Vec<Constant<Bits<16>>> = consts([40, 24, 8]),
        proto104: Constant<Bits<104>> = Constant::new(Bits::from(6u64)),
        /// The FIFO's drop count (never counts: credits) and level are not used.
        unused_fifo: Signal<Local, bool>,
    }
}

impl TcpDesc {
    /// The stage, its two hash units computing `golden::parser::descriptors::ipv6_fold`.
    pub fn new() -> Result<Self, ConfigError> {
        let unit = || HashUnit::<128, 64>::from_fn(ipv6_fold().clone());
        Ok(Self::build(unit()?, unit()?))
    }
}

mod update;
