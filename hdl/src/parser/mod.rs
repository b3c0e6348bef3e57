//! Packet header parser (issue 18): an AXI4-Stream of Ethernet frames in (`DW` data bits, `KW = DW / 8`
//! tkeep bits, the PTP timestamp in `tuser`), one header record per frame out (valid/ready), the
//! statistics counters on the CSR port. Specification: `golden::parser` (transaction model) and
//! `golden::parser::cycle` (the cycle model this RTL matches: timing, credits, register map).
//!
//! Pipeline (slot `k` holds a frame `k + 1` cycles after its tlast beat; the slots never stall — every
//! frame moves one slot on every cycle, no clock enables —, the record register writes an output FIFO of
//! `FIFO_DEPTH` records whose head is the output; `s_axis_tready` is a flip-flop, high while fewer than
//! `FIFO_DEPTH` records exist in the slots and the FIFO, so every frame taken has its FIFO entry):
//! - **S0 capture**: beat `k` of a frame goes into window register `k` (bytes reversed: frame byte 0 is the
//!   window's most significant byte); the beat's tkeep bits counted (a contiguous run from bit 0; one XOR
//!   tree per count bit, `golden::parser::cycle::keep_bytes`) into `lnb`, the frame's earlier bytes in
//!   `len[0]` (so no adder sits behind the tkeep decode); the first beat samples the timestamp.
//! - **S1 L2**: the window registers joined into one 1024-bit word and copied; the three candidate
//!   ethertypes at bytes 12, 16, 20 compared with the TPIDs → tags (0–2), too many, IPv4/IPv6; the frame
//!   length `len[0] + lnb`, saturating.
//! - **S2**: the window shifted by the L3 offset (14, 18, 22: a 3:1 choice): the IP header at byte 0; runt;
//!   `avail = min(len, 128)` (a header ending at `e` is present iff `e ≤ avail`; if not, the frame is
//!   truncated when `len ≤ 128`, else it goes beyond the window).
//! - **S3**: the IP header's raw fields (fixed offsets), the addresses chosen by IP version; the first
//!   extension header's length; the window's and the frame's bytes after the L3 start (`ar`, `lr`), so the
//!   later bounds compare offsets relative to L3 with no adder in front.
//! - **S4**: IPv4 checks (version, IHL, length, fragment, protocol, options present), the L4 offset
//!   (IHL·4) and bytes; IPv6 checks and its first extension header (at the fixed offset 40); `short`. Each
//!   check is a flag register; the first failing one is taken at S5 (a priority ladder behind the compares
//!   does not fit one cycle at 156.25 MHz).
//! - **S5**: S4's first failing check; the second extension header's first 4 bytes at the variable offset
//!   after the first (offsets are multiples of 4 from the L3 start: a 32:1 choice of words) and its length;
//!   the window bytes after the first.
//! - **S6**: the first failing L2/L3 reason by priority; the second extension header's checks (flags again,
//!   taken at S7), the chain's end (extension limit, unsupported), the L4 offset and bytes.
//! - **S7**: the second extension header's first failing check; the L4 header's 20 bytes at the variable
//!   L4 offset (a 32:1 choice of words); the bounds of the L4 header against the window and the frame, from
//!   the bytes after the L3 start (subtracted at S3).
//! - **S8 record register**: the TCP/UDP checks, payload length, `l4_header_cut`, the record.
//! - **FIFO**: the record register's record is packed into one word (`REC_*` offsets) and written into the
//!   house `ReportFifo` (first-word fall-through: on the output the next cycle if it is empty); the
//!   counters count it then, from registers only.

pub mod builds;
pub mod desc;
pub mod leaves;

use crate::common::bits::{constant, consts, Slice, ZeroExt};
use crate::common::fifo::ReportFifo;
use crate::common::reg::Reg;
use crate::common::shell::{CoreShell, StatusSources};
use crate::declare_block;
use golden::common::config::ConfigError;
use golden::parser::cycle::{csr_layout, keep_mask, FIFO_BITS, FIFO_DEPTH, LATENCY, LEN_BITS, LEN_MAX, SLOTS};
use golden::parser::Drop;
use leaves::{ByteRev, WIN};
use rust_hdl::prelude::*;

/// Status registers (4 + 14 counters) and config registers (the scratch register) of the CSR bank.
pub const STATUS_BITS: usize = 32 * 18;
pub const CONFIG_BITS: usize = 32;

/// A deliberate design mistake, for the co-simulation's non-vacuity check (test-only builds).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Mutant {
    #[default]
    None,
    /// The IPv4 L4 offset off by 4 bytes (IHL·4 + 4).
    IhlOffBy4,
    /// The L3 offset ignores the second VLAN tag (18 instead of 22).
    OneTagOnly,
    /// The last beat counts all its bytes (tkeep ignored).
    KeepIgnored,
}

/// Every status register is a counter the shell keeps, pulsed when a record enters the output register.
const COUNTERS: [&str; 18] = [
    "frames",
    "accepted",
    "short",
    "l4_header_cut",
    "runt",
    "truncated_l2",
    "too_many_vlan_tags",
    "not_ip",
    "truncated_ip",
    "bad_ip_version",
    "bad_ihl",
    "bad_ip_length",
    "fragment",
    "ipv6_ext_limit",
    "unsupported_l4",
    "beyond_window",
    "truncated_l4",
    "bad_l4_header",
];

/// Status code of a drop reason on `m_rec_status` (0: accepted).
const fn code(d: Drop) -> u64 {
    d as u64 + 1
}

type L = Bits<LEN_BITS>;

/// The record's word in the output FIFO: bit offsets of its fields (flags first — `update` reads them with
/// `get_bit(0/1/2)` —, then by port order).
pub const REC_IS_V6: usize = 0;
pub const REC_SHORT: usize = 1;
pub const REC_CUT: usize = 2;
pub const REC_STATUS: usize = 3;
pub const REC_TIMESTAMP: usize = REC_STATUS + 4;
pub const REC_SRC: usize = REC_TIMESTAMP + 48;
pub const REC_DST: usize = REC_SRC + 128;
pub const REC_PROTOCOL: usize = REC_DST + 128;
pub const REC_SPORT: usize = REC_PROTOCOL + 8;
pub const REC_DPORT: usize = REC_SPORT + 16;
pub const REC_SEQ: usize = REC_DPORT + 16;
pub const REC_ACK: usize = REC_SEQ + 32;
pub const REC_FLAGS: usize = REC_ACK + 32;
pub const REC_PAYLOAD_LEN: usize = REC_FLAGS + 8;
pub const REC_IP_ID: usize = REC_PAYLOAD_LEN + 16;
/// The record word's width (455 bits).
pub const REC_BITS: usize = REC_IP_ID + 16;
/// The shift of each packed field, in `update`'s order: status, timestamp, src, dst, protocol,
/// ports, seq, ack, flags, payload length, IP ID.
const REC_SHIFTS: [usize; 12] = [
    REC_STATUS,
    REC_TIMESTAMP,
    REC_SRC,
    REC_DST,
    REC_PROTOCOL,
    REC_SPORT,
    REC_DPORT,
    REC_SEQ,
    REC_ACK,
    REC_FLAGS,
    REC_PAYLOAD_LEN,
    REC_IP_ID,
];
/// Bits of the credit count (0 ..= FIFO_DEPTH).
const USED_BITS: usize = FIFO_BITS + 1;

declare_block! {
    /// See the [module docs](self).
    #[derive(LogicBlock)]
    pub struct Parser<const DW: usize, const KW: usize>
    fn build(shell: CoreShell<CONFIG_BITS, STATUS_BITS>, mutant: Mutant) with csr_port {
        pub clock: Signal<In, Clock>,
        pub reset: Signal<In, bool>,
        pub s_axis_tdata: Signal<In, Bits<DW>>,
        pub s_axis_tkeep: Signal<In, Bits<KW>>,
        pub s_axis_tvalid: Signal<In, bool>,
        pub s_axis_tready: Signal<Out, bool>,
        pub s_axis_tlast: Signal<In, bool>,
        pub s_axis_tuser: Signal<In, Bits<64>>,
        pub m_rec_valid: Signal<Out, bool>,
        pub m_rec_ready: Signal<In, bool>,
        /// 0 accepted, else 1 + the drop reason's index (`golden::parser::Drop::ALL`).
        pub m_rec_status: Signal<Out, Bits<4>>,
        pub m_rec_timestamp: Signal<Out, Bits<48>>,
        pub m_rec_is_v6: Signal<Out, bool>,
        pub m_rec_src_addr: Signal<Out, Bits<128>>,
        pub m_rec_dst_addr: Signal<Out, Bits<128>>,
        pub m_rec_protocol: Signal<Out, Bits<8>>,
        pub m_rec_src_port: Signal<Out, Bits<16>>,
        pub m_rec_dst_port: Signal<Out, Bits<16>>,
        pub m_rec_seq: Signal<Out, Bits<32>>,
        pub m_rec_ack: Signal<Out, Bits<32>>,
        pub m_rec_tcp_flags: Signal<Out, Bits<8>>,
        pub m_rec_payload_len: Signal<Out, Bits<16>>,
        pub m_rec_ip_id: Signal<Out, Bits<16>>,
        pub m_rec_short: Signal<Out, bool>,
        pub m_rec_l4_header_cut: Signal<Out, bool>,
        shell: CoreShell<CONFIG_BITS, STATUS_BITS> = shell,
        accept: Signal<Local, bool>,
        // Credits and the output FIFO.
        used: Reg<Bits<USED_BITS>>,
        used_next: Signal<Local, Bits<USED_BITS>>,
        tready_q: Reg<bool>,
        pop: Signal<Local, bool>,
        fifo: ReportFifo<FIFO_BITS, REC_BITS, USED_BITS>,
        rec_in: Signal<Local, Bits<REC_BITS>>,
        pk4: ZeroExt<4, REC_BITS>,
        pk48: ZeroExt<48, REC_BITS>,
        pk8: Vec<ZeroExt<8, REC_BITS>> = (0..2).map(|_| ZeroExt::default()).collect(),
        pk16: Vec<ZeroExt<16, REC_BITS>> = (0..4).map(|_| ZeroExt::default()).collect(),
        pk32: Vec<ZeroExt<32, REC_BITS>> = (0..2).map(|_| ZeroExt::default()).collect(),
        pk128: Vec<ZeroExt<128, REC_BITS>> = (0..2).map(|_| ZeroExt::default()).collect(),
        rec_off: Vec<Constant<Bits<16>>> = consts(REC_SHIFTS.map(|o| o as u64)),
        un4: Slice<REC_BITS, 4> = Slice::new(REC_STATUS),
        un48: Slice<REC_BITS, 48> = Slice::new(REC_TIMESTAMP),
        un8: Vec<Slice<REC_BITS, 8>> = [REC_PROTOCOL, REC_FLAGS].into_iter().map(Slice::new).collect(),
        un16: Vec<Slice<REC_BITS, 16>> =
            [REC_SPORT, REC_DPORT, REC_PAYLOAD_LEN, REC_IP_ID].into_iter().map(Slice::new).collect(),
        un32: Vec<Slice<REC_BITS, 32>> = [REC_SEQ, REC_ACK].into_iter().map(Slice::new).collect(),
        un128: Vec<Slice<REC_BITS, 128>> = [REC_SRC, REC_DST].into_iter().map(Slice::new).collect(),
        rec_bit: Vec<Constant<Bits<REC_BITS>>> = consts([REC_IS_V6, REC_SHORT, REC_CUT].map(|o| 1 << o)),
        /// The FIFO's drop count (never counts: credits) and level are not used.
        unused_fifo: Signal<Local, bool>,
        one_used: Constant<Bits<USED_BITS>> = constant(1),
        zero_used: Constant<Bits<USED_BITS>> = constant(0),
        fifo_depth: Constant<Bits<USED_BITS>> = constant(FIFO_DEPTH as u64),
        // S0: capture.
        rev: ByteRev<DW>,
        tuser_ns: Slice<64, 48> = Slice::new(16),
        /// The scratch register has no effect.
        unused_cfg: Signal<Local, Bits<CONFIG_BITS>>,
        beats: Vec<Reg<Bits<DW>>> = (0..WIN / DW).map(|_| Reg::default()).collect(),
        /// One-hot beat pointer: `hot[k]` — the next beat (not a first) goes to window register k + 1; the
        /// last — past the window (held there). `sel[i]`: register i takes this cycle's beat (i = NB: none).
        hot: Vec<Reg<bool>> = (0..WIN / DW).map(|_| Reg::default()).collect(),
        sel: Vec<Signal<Local, bool>> = (0..=WIN / DW).map(|_| Default::default()).collect(),
        first: Reg<bool>,
        nbytes: Signal<Local, L>,
        /// The last beat taken's byte count (`len[0]`: the frame's bytes before it, saturated), so the
        /// frame length `len0` = their sum is added after flip-flops — not behind the tkeep decode — and read
        /// at S1, the cycle after the tlast beat.
        lnb: Reg<L>,
        zx_base: ZeroExt<LEN_BITS, 18>,
        zx_n: ZeroExt<LEN_BITS, 18>,
        sum: Signal<Local, Bits<18>>,
        len0: Signal<Local, L>,
        // Slot-indexed pipeline registers (index = slot; unused low slots are left out by starting later).
        v: Vec<Reg<bool>> = (0..SLOTS).map(|_| Reg::default()).collect(),
        ts: Vec<Reg<Bits<48>>> = (0..SLOTS).map(|_| Reg::default()).collect(),
        len: Vec<Reg<L>> = (0..3).map(|_| Reg::default()).collect(),
        avail: Vec<Reg<L>> = (0..3).map(|_| Reg::default()).collect(),
        big: Vec<Reg<bool>> = (0..SLOTS).map(|_| Reg::default()).collect(),
        w: Vec<Reg<Bits<WIN>>> = (0..6).map(|_| Reg::default()).collect(),
        is_v4: Vec<Reg<bool>> = (0..7).map(|_| Reg::default()).collect(),
        is_v6: Vec<Reg<bool>> = (0..SLOTS).map(|_| Reg::default()).collect(),
        runt: Vec<Reg<bool>> = (0..7).map(|_| Reg::default()).collect(),
        too_many: Vec<Reg<bool>> = (0..7).map(|_| Reg::default()).collect(),
        ntags: Reg<Bits<2>>,
        l3: Vec<Reg<L>> = (0..3).map(|_| Reg::default()).collect(),
        src: Vec<Reg<Bits<128>>> = (0..SLOTS).map(|_| Reg::default()).collect(),
        dst: Vec<Reg<Bits<128>>> = (0..SLOTS).map(|_| Reg::default()).collect(),
        ip_id: Vec<Reg<Bits<16>>> = (0..SLOTS).map(|_| Reg::default()).collect(),
        short: Vec<Reg<bool>> = (0..SLOTS).map(|_| Reg::default()).collect(),
        /// Window bytes (`avail − l3`) and frame bytes (`len − l3`) from the L3 start (slots 3–6).
        ar: Vec<Reg<L>> = (0..7).map(|_| Reg::default()).collect(),
        lr: Vec<Reg<L>> = (0..7).map(|_| Reg::default()).collect(),
        // S1 (L2).
        win: Signal<Local, Bits<WIN>>,
        zx_beat: Vec<ZeroExt<DW, WIN>> = (0..WIN / DW).map(|_| ZeroExt::default()).collect(),
        off_beat: Vec<Constant<Bits<16>>> = consts((0..WIN / DW).map(|k| (WIN - DW * (k + 1)) as u64)),
        et: Vec<Signal<Local, Bits<16>>> = (0..3).map(|_| Default::default()).collect(),
        tp: Vec<Signal<Local, bool>> = (0..3).map(|_| Default::default()).collect(),
        /// Candidate ethertype j is IPv4 / IPv6.
        v4c: Vec<Signal<Local, bool>> = (0..3).map(|_| Default::default()).collect(),
        v6c: Vec<Signal<Local, bool>> = (0..3).map(|_| Default::default()).collect(),
        tpids: Vec<Constant<Bits<16>>> = consts([0x8100, 0x88A8, 0x9100, 0x9200, 0x9300]),
        eth_v4: Constant<Bits<16>> = constant(0x0800),
        eth_v6: Constant<Bits<16>> = constant(0x86DD),
        // S2.
        sh_l3: Vec<Constant<Bits<16>>> = consts([112, 144, 176]),
        l3_of: Vec<Constant<L>> = consts([14, 18, 22]),
        // S3: the IP header's raw fields.
        ver: Reg<Bits<4>>,
        ihl: Reg<Bits<4>>,
        total: Reg<Bits<16>>,
        frag: Reg<Bits<16>>,
        proto: Reg<Bits<8>>,
        paylen: Reg<Bits<16>>,
        next0: Reg<Bits<8>>,
        e1: Reg<Bits<32>>,
        /// The first IPv6 extension header's length and its end (40 + length) from the L3 start.
        e1len_q: Reg<L>,
        e1end: Reg<L>,
        /// 8 + the first extension header's length (slot 3); on a chain, 8 + its end and the payload
        /// after it − 8 (slot 4): the second header's length is 8 + `xs`.
        e1len8: Reg<L>,
        p4p8: Reg<L>,
        /// The second extension header would be a fragment header / AH (S4); the chain goes on past the
        /// first (slot 4).
        frag5: Signal<Local, bool>,
        ah5: Signal<Local, bool>,
        more5: Reg<bool>,
        /// `more5` a slot on (S6: the second header's checks and the next header after it apply).
        more6: Reg<bool>,
        pay4m8: Reg<L>,
        /// Per word of the second header's 16-byte group (k = 0..3, word k at bytes 4k..4k + 4): its length
        /// byte (S4), 8 less than its length (`xs`, slot 4), its length, and the L4 offset and payload after
        /// it (S5).
        e2l_byte: Vec<Slice<128, 8>> = [112, 80, 48, 16].into_iter().map(Slice::new).collect(),
        zx_e2l: Vec<ZeroExt<8, LEN_BITS>> = (0..4).map(|_| ZeroExt::default()).collect(),
        xs: Vec<Reg<L>> = (0..4).map(|_| Reg::default()).collect(),
        e2len_c: Vec<Signal<Local, L>> = (0..4).map(|_| Default::default()).collect(),
        pl4_c: Vec<Signal<Local, L>> = (0..4).map(|_| Default::default()).collect(),
        payl4_c: Vec<Signal<Local, L>> = (0..4).map(|_| Default::default()).collect(),
        word_lo: Vec<Constant<L>> = consts([0, 4, 8, 12]),
        zx_src4: ZeroExt<32, 128>,
        zx_dst4: ZeroExt<32, 128>,
        // S4.
        zx_ihl: ZeroExt<4, LEN_BITS>,
        zx_total: ZeroExt<16, LEN_BITS>,
        zx_paylen: ZeroExt<16, LEN_BITS>,
        zx_e1l: ZeroExt<8, LEN_BITS>,
        ihl4: Signal<Local, L>,
        /// The first extension header's length less 8 (S3).
        e1x: Signal<Local, L>,
        /// The IPv4 checks (slot 4): version, IHL, length, fragment, protocol, header beyond the window's
        /// bytes; S5 takes the first that fails.
        v4_ver: Reg<bool>,
        v4_ihl: Reg<bool>,
        v4_len: Reg<bool>,
        v4_frag: Reg<bool>,
        v4_proto: Reg<bool>,
        v4_out: Reg<bool>,
        /// The IPv6 checks (slot 4): fixed header beyond the window's bytes, version, TCP/UDP next, a next
        /// header that is no extension header, a fragment header first (beyond the bytes; M or offset set),
        /// the first extension header beyond the bytes, the payload length below it.
        v6_out: Reg<bool>,
        v6_ver: Reg<bool>,
        v6_l4: Reg<bool>,
        v6_other: Reg<bool>,
        v6_frag: Reg<bool>,
        v6_frag_out: Reg<bool>,
        v6_frag_bits: Reg<bool>,
        v6_e1_out: Reg<bool>,
        v6_len: Reg<bool>,
        p: Vec<Reg<L>> = (0..8).map(|_| Reg::default()).collect(),
        pay: Vec<Reg<L>> = (0..SLOTS).map(|_| Reg::default()).collect(),
        nh: Vec<Reg<Bits<8>>> = (0..SLOTS).map(|_| Reg::default()).collect(),
        // S5.
        /// The IP checks' code for a header beyond the window's bytes (beyond the window, or truncated).
        s_out5: Signal<Local, Bits<4>>,
        d4: Signal<Local, Bits<4>>,
        d6: Signal<Local, Bits<4>>,
        /// The IP checks' first failing reason (slot 5).
        ipdrop: Reg<Bits<4>>,
        e2a_word: Slice<WIN, 128> = Slice::new(WIN - 128),
        /// The 16 bytes from the first extension header's end rounded down to 16 (slot 4).
        e2a: Reg<Bits<128>>,
        e2_word: Slice<128, 32> = Slice::new(96),
        e2: Reg<Bits<32>>,
        /// Window bytes after the first extension header's end (`ar − p`; a chain that gets here has them).
        room: Reg<L>,
        /// The second extension header's length.
        e2len_q: Reg<L>,
        /// The L4 offset (from the L3 start) and the payload after the whole chain (slot 5).
        pl4: Reg<L>,
        payl4: Reg<L>,
        l4a_word: Slice<WIN, 256> = Slice::new(WIN - 256),
        /// The 32 bytes from the L4 offset rounded down to 16 (slot 6).
        l4a: Reg<Bits<256>>,
        // S6.
        /// The second extension header's checks (slot 6), in S7's priority order: the chain went on past
        /// the first header; the second is no extension header; it is a fragment header (beyond the bytes;
        /// M or offset set); it goes beyond the bytes; the payload is shorter; TCP/UDP follows it; no
        /// extension header follows it.
        x2_more: Reg<bool>,
        x2_other: Reg<bool>,
        x2_frag: Reg<bool>,
        x2_frag_out: Reg<bool>,
        x2_frag_bits: Reg<bool>,
        x2_out: Reg<bool>,
        x2_len: Reg<bool>,
        x2_l4: Reg<bool>,
        x2_bad_next: Reg<bool>,
        l3code: Vec<Reg<Bits<4>>> = (0..8).map(|_| Reg::default()).collect(),
        // S7.
        s_out7: Signal<Local, Bits<4>>,
        d6b: Signal<Local, Bits<4>>,
        l4_word: Slice<256, 160> = Slice::new(96),
        l4: Reg<Bits<160>>,
        /// The TCP (20 bytes) / UDP (8 bytes) header goes beyond the window's bytes.
        f20: Reg<bool>,
        f8: Reg<bool>,
        /// Frame bytes from the L4 header's start.
        rem: Reg<L>,
        // S8.
        zx_doff: ZeroExt<4, LEN_BITS>,
        zx_ulen: ZeroExt<16, LEN_BITS>,
        doff: Signal<Local, L>,
        ulen: Signal<Local, L>,
        d8: Signal<Local, Bits<4>>,
        out_pay: Slice<LEN_BITS, 16> = Slice::new(0),
        status: Reg<Bits<4>>,
        sport: Reg<Bits<16>>,
        dport: Reg<Bits<16>>,
        seq: Reg<Bits<32>>,
        ack: Reg<Bits<32>>,
        tflags: Reg<Bits<8>>,
        paylen_out: Reg<L>,
        cut: Reg<bool>,
        // Constants (lengths `c<n>`, header byte values `b<n>`, status codes `s_<reason>`).
        c2: Constant<L> = constant(2),
        c4: Constant<L> = constant(4),
        c8: Constant<L> = constant(8),
        c16: Constant<L> = constant(16),
        c20: Constant<L> = constant(20),
        c40: Constant<L> = constant(40),
        c48: Constant<L> = constant(48),
        c44: Constant<L> = constant(44),
        c60: Constant<L> = constant(60),
        c128: Constant<L> = constant(128),
        b4: Constant<Bits<4>> = constant(4),
        b5: Constant<Bits<4>> = constant(5),
        b6v: Constant<Bits<4>> = constant(6),
        b_tcp: Constant<Bits<8>> = constant(6),
        b_udp: Constant<Bits<8>> = constant(17),
        b_frag: Constant<Bits<8>> = constant(44),
        b_ah: Constant<Bits<8>> = constant(51),
        b_ext8: Vec<Constant<Bits<8>>> = consts([0, 43, 60, 135, 139, 140]),
        s_ok: Constant<Bits<4>> = constant(0),
        s_runt: Constant<Bits<4>> = constant(code(Drop::Runt)),
        s_too_many: Constant<Bits<4>> = constant(code(Drop::TooManyVlanTags)),
        s_not_ip: Constant<Bits<4>> = constant(code(Drop::NotIp)),
        s_trunc_ip: Constant<Bits<4>> = constant(code(Drop::TruncatedIp)),
        s_version: Constant<Bits<4>> = constant(code(Drop::BadIpVersion)),
        s_ihl: Constant<Bits<4>> = constant(code(Drop::BadIhl)),
        s_length: Constant<Bits<4>> = constant(code(Drop::BadIpLength)),
        s_fragment: Constant<Bits<4>> = constant(code(Drop::Fragment)),
        s_ext_limit: Constant<Bits<4>> = constant(code(Drop::Ipv6ExtLimit)),
        s_unsupported: Constant<Bits<4>> = constant(code(Drop::UnsupportedL4)),
        s_beyond: Constant<Bits<4>> = constant(code(Drop::BeyondWindow)),
        s_trunc_l4: Constant<Bits<4>> = constant(code(Drop::TruncatedL4)),
        s_bad_l4: Constant<Bits<4>> = constant(code(Drop::BadL4Header)),
        mask_frag4: Constant<Bits<16>> = constant(0x3FFF),
        mask_frag6: Constant<Bits<16>> = constant(0xFFF9),
        zero16: Constant<Bits<16>> = constant(0),
        zero32: Constant<Bits<32>> = constant(0),
        zero8: Constant<Bits<8>> = constant(0),
        zero_l: Constant<L> = constant(0),
        zero_win: Constant<Bits<WIN>> = Constant::new(Bits::default()),
        hi_mask: Constant<L> = constant(0x70),
        lo_mask: Constant<L> = constant(0x0C),
        sh3: Constant<Bits<16>> = constant(3),
        len_max18: Constant<Bits<18>> = constant(LEN_MAX as u64),
        len_max: Constant<L> = constant(LEN_MAX as u64),
        codes: Vec<Constant<Bits<4>>> = consts(1..15),
        keep_masks: Vec<Constant<Bits<KW>>> = consts((0..=KW.trailing_zeros()).map(|j| keep_mask(j, KW))),
        keep_bit: Vec<Constant<L>> = consts((0..=KW.trailing_zeros()).map(|j| 1 << j)),
        keep_full: Constant<L> = constant(KW as u64),
        tags_n: Vec<Constant<Bits<2>>> = consts(0..3),
        mut_ihl: Constant<bool> = Constant::new(mutant == Mutant::IhlOffBy4),
        mut_tags: Constant<bool> = Constant::new(mutant == Mutant::OneTagOnly),
        mut_keep: Constant<bool> = Constant::new(mutant == Mutant::KeepIgnored),
        _nb: usize = WIN / DW,
        _last: usize = WIN / DW - 1,
        _kbits: usize = KW.trailing_zeros() as usize + 1,
    }
}

impl<const DW: usize, const KW: usize> Parser<DW, KW> {
    /// The parser on a bus of `DW` bits (64: 10 GbE at 156.25 MHz; 512).
    pub fn new() -> Result<Self, ConfigError> {
        Self::with_mutant(Mutant::None)
    }
    /// Test-only: a deliberately wrong parser (see [`Mutant`]).
    pub fn with_mutant(mutant: Mutant) -> Result<Self, ConfigError> {
        if DW != 8 * KW || !KW.is_power_of_two() || !(8..=64).contains(&KW) || LATENCY != 10 || SLOTS != 9 {
            return Err(ConfigError(format!("Parser<DW={DW}, KW={KW}>: needs DW = 8·KW, KW a power of two 8..=64")));
        }
        let sources = StatusSources { counters: &COUNTERS, doubled: 0, flags: &[], words: &[] };
        Ok(Self::build(CoreShell::new(csr_layout(), &sources)?, mutant))
    }
}

mod update;
