//! MAPLE packet latency store, insert path (`MapleCore`): descriptors `{key, latency}` at one per cycle, a
//! three-stage center match over the active bank's sorted centers (the nearest center is the highest
//! boundary `⌊(c[i] + c[i+1])/2⌋` below the latency, the boundaries computed when the centers are loaded:
//! [`centers::MapleCenters`]),
//! the SVBF insert as `h` segment rows of a [`MultiRmw`] per bank (the modify ORs the bit in; forwarding
//! keeps back-to-back inserts into one word correct) beside a per-center counter [`RmwPipeline`]
//! (`count | sum << 32`), PRNG sampling into the sample FIFO, and epochs: two banks, shadow centers loaded
//! through the CSR port, and the flush of the frozen bank (a [`BankWalker`] read-and-clear walk into the
//! record FIFO, at the epoch marker or on the `flush` command), and the lookup port on the frozen bank
//! ([`lookup::MapleLookup`]: its read ops enter the frozen bank's pipelines when no packet and no flush op
//! does). Specification and stage table: `golden::maple::cycle` and `golden::maple::lookup`.
//!
//! Generics: `K` key, `H` hashes, `A` segment address bits, `LW` log2 of the word width `W`, `MB = A + LW`
//! base bits, `HA = H·A`, `HW = H·W`, `P` bank payload, `R` record, `SA`/`SL` sample FIFO address/level bits,
//! `FA`/`FL` record FIFO address/level bits, `AW` the lookup's window bits, `CA` the counter RAM's address
//! bits (`⌈log2 max_centers⌉`: the counters are `2^CA` rows deep, not `2^A`). The number of centers held is a
//! constructor parameter.

pub mod builds;
pub mod centers;
pub mod lookup;

use crate::common::bits::{constant, consts, Slice, ZeroExt};
use crate::common::fifo::ReportFifo;
use crate::common::hash::HashUnit;
use crate::common::multi_rmw::MultiRmw;
use crate::common::prng::Prng;
use crate::common::input::InputStage;
use crate::common::reg::Reg;
use crate::common::rmw::{RmwPipeline, FORWARD_ALL};
use crate::common::shell::{cfg_field, CoreShell, StatusSources};
use crate::common::walk::BankWalker;
use crate::declare_block;
use centers::MapleCenters;
use golden::common::config::ConfigError;
use golden::common::csr::CsrLayout;
use golden::common::sram::RamPorts;
use golden::maple::cycle::{
    MapleHwConfig, COUNTER_BITS, COUNT_BITS, CSR_EPOCH, CSR_FLUSH, CSR_PRNG_SEED, RECORD_ROW_BITS,
};
use golden::maple::MatchKind;
use lookup::{LookupMutant, MapleLookup};
use rust_hdl::prelude::*;

/// Status registers (14 × 32 bits) and config registers (8 × 32 bits) of the CSR bank.
pub const STATUS_BITS: usize = 448;
pub const CONFIG_BITS: usize = 256;
/// Bits of a center index (0..=64).
pub(crate) const CB: usize = 7;

/// A deliberate design mistake, for test-only builds that prove the co-simulation catches it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Mutant {
    #[default]
    None,
    /// The center offset dropped: bit `b_j` instead of `b_j + i`.
    NoOffset,
    /// Hash `j`'s base written into segment `j + 1`.
    WrongSegment,
    /// Segment row 0 of both banks without the distance-2 forwarding path.
    Row0NoDist2,
    /// A latency midway between two centers goes to the upper one.
    TiesHigh,
    /// The lookup's burst one word short (`⌈k/w⌉` words).
    BurstShort,
    /// The lookup's AND without segment 0.
    AndSkip0,
}

const STATUS: StatusSources = StatusSources {
    counters: &["packets", "epochs", "samples", "lookups", "lookup_match", "lookup_multi", "lookup_none", "records"],
    doubled: 0,
    flags: &["flush_busy"],
    words: &["sample_drops", "sample_fifo_level", "active_centers", "record_drops", "record_fifo_level"],
};

fn field<const N: usize>(layout: &CsrLayout, name: &str) -> Slice<CONFIG_BITS, N> {
    cfg_field(layout, name).expect("the core's own register map")
}

declare_block! {
    #[derive(LogicBlock)]
    pub struct MapleCore<
        const K: usize, const H: usize, const A: usize, const LW: usize, const MB: usize, const W: usize,
        const HA: usize, const HW: usize, const P: usize, const R: usize, const SA: usize, const SL: usize,
        const FA: usize, const FL: usize, const AW: usize, const CA: usize,
    > fn build(
        cfg: &MapleHwConfig,
        layout: &CsrLayout,
        shell: CoreShell<CONFIG_BITS, STATUS_BITS>,
        h_base: Vec<HashUnit<K, MB>>,
        svbf: Vec<MultiRmw<A, W, P, H, HA, HW>>,
        walker: BankWalker<A, RECORD_ROW_BITS>,
        lookup: MapleLookup<K, H, A, LW, MB, W, HA, HW, AW>,
        mutant: Mutant
    ) with csr_port {
        pub clock: Signal<In, Clock>,
        pub reset: Signal<In, bool>,
        pub in_valid: Signal<In, bool>,
        pub in_key: Signal<In, Bits<K>>,
        pub in_latency: Signal<In, Bits<32>>,
        pub in_ready: Signal<Out, bool>,
        pub swept: Signal<Out, bool>,
        /// The packet entering its bank and its center.
        pub res_valid: Signal<Out, bool>,
        pub res_center: Signal<Out, Bits<CB>>,
        pub smp_valid: Signal<Out, bool>,
        pub smp_data: Signal<Out, Bits<32>>,
        pub smp_ready: Signal<In, bool>,
        pub rec_valid: Signal<Out, bool>,
        pub rec_data: Signal<Out, Bits<R>>,
        pub rec_ready: Signal<In, bool>,
        /// The lookup port: a key in, the answer out (held until `ans_ready`).
        pub lk_valid: Signal<In, bool>,
        pub lk_key: Signal<In, Bits<K>>,
        pub lk_ready: Signal<Out, bool>,
        pub ans_valid: Signal<Out, bool>,
        pub ans_kind: Signal<Out, Bits<2>>,
        pub ans_cand: Signal<Out, Bits<64>>,
        pub ans_center_valid: Signal<Out, bool>,
        pub ans_center: Signal<Out, Bits<CB>>,
        pub ans_latency: Signal<Out, Bits<32>>,
        pub ans_refined: Signal<Out, Bits<32>>,
        pub ans_ready: Signal<In, bool>,
        lookup: MapleLookup<K, H, A, LW, MB, W, HA, HW, AW> = lookup,
        lk_grant: Signal<Local, bool>,
        lk_taken: Signal<Local, bool>,
        read_payload: Signal<Local, Bits<P>>,
        pay_read: Vec<Slice<P, 1>> = (0..2).map(|_| Slice::new(P - 1)).collect(),
        off_read: Constant<Bits<16>> = constant(P as u64 - 1),
        cfg_options: Slice<CONFIG_BITS, 2> = field(layout, "options"),
        csr_flush: Constant<Bits<8>> = constant(CSR_FLUSH as u64),
        flush_pending: Reg<bool>,
        /// The answer kinds' codes, indexed by code (No-Match, Match, Multi-Match).
        kind_codes: Vec<Constant<Bits<2>>> = consts([MatchKind::NoMatch, MatchKind::Match, MatchKind::MultiMatch].map(|k| k as u64)),
        shell: CoreShell<CONFIG_BITS, STATUS_BITS> = shell,
        h_base: Vec<HashUnit<K, MB>> = h_base,
        prng: Prng,
        svbf: Vec<MultiRmw<A, W, P, H, HA, HW>> = svbf,
        cnt: Vec<RmwPipeline<CA, COUNTER_BITS, P>> = (0..2)
            .map(|_| RmwPipeline::with_timing(RamPorts::Dual, cfg.ram_timing(CA, COUNTER_BITS), FORWARD_ALL))
            .collect(),
        walker: BankWalker<A, RECORD_ROW_BITS> = walker,
        smp_fifo: ReportFifo<SA, 32, SL>,
        rec_fifo: ReportFifo<FA, R, FL>,
        cfg_threshold: Slice<CONFIG_BITS, 32> = field(layout, "sample_threshold"),
        cfg_seed: Slice<CONFIG_BITS, 32> = field(layout, "prng_seed"),
        cfg_count: Slice<CONFIG_BITS, 32> = field(layout, "center_count"),
        seed_pending: Reg<bool>,
        epoch_pending: Reg<bool>,
        st1: Reg<bool>,
        st2: Reg<bool>,
        st3: Reg<bool>,
        /// The centers and the match of a packet's latency against them (F1 → M3).
        centers: MapleCenters<CA> = MapleCenters::build(cfg.max_centers, mutant == Mutant::TiesHigh),
        /// F1 and the input handshake (`accept`, `transfer`: a packet enters F1, leaves it).
        f1: InputStage,
        f1_key: Reg<Bits<K>>,
        f1_lat: Reg<Bits<32>>,
        m1_v: Reg<bool>,
        m1_bank: Reg<bool>,
        m1_lat: Reg<Bits<32>>,
        m1_base: Vec<Reg<Bits<MB>>> = (0..H).map(|_| Reg::default()).collect(),
        m2_v: Reg<bool>,
        m2_bank: Reg<bool>,
        m2_lat: Reg<Bits<32>>,
        m2_base: Vec<Reg<Bits<MB>>> = (0..H).map(|_| Reg::default()).collect(),
        m3_v: Reg<bool>,
        m3_bank: Reg<bool>,
        m3_lat: Reg<Bits<32>>,
        m3_base: Vec<Reg<Bits<MB>>> = (0..H).map(|_| Reg::default()).collect(),
        // S0: word address and bit per segment, the bank inputs.
        zx_center: ZeroExt<CB, MB>,
        pos: Vec<Signal<Local, Bits<MB>>> = (0..H).map(|_| Default::default()).collect(),
        pos_addr: Vec<Slice<MB, A>> = (0..H).map(|_| Slice::new(LW)).collect(),
        pos_bit: Vec<Slice<MB, LW>> = (0..H).map(|_| Slice::new(0)).collect(),
        zx_addr: Vec<ZeroExt<A, HA>> = (0..H).map(|_| ZeroExt::default()).collect(),
        zx_bit: Vec<ZeroExt<LW, P>> = (0..H).map(|_| ZeroExt::default()).collect(),
        zx_lat: ZeroExt<32, P>,
        cidx: Slice<MB, CA> = Slice::new(0),
        /// The counter RAM's index of a walk op and of a lookup read (`2^CA ≥ max_centers` rows, the walk's
        /// higher addresses aliasing onto rows it has already cleared: `golden::maple::cycle::sizes`).
        walk_cidx: Slice<A, CA> = Slice::new(0),
        lk_cidx: Slice<A, CA> = Slice::new(0),
        /// A returning lookup read's counter index, back to `A` bits for the engine.
        ret_cidx: Signal<Local, Bits<CA>>,
        zx_ret_cidx: ZeroExt<CA, A>,
        /// A walk op's address at S2 (segment row 0's index: the walk drives every row with it).
        mod_addr: Vec<Slice<HA, A>> = (0..2).map(|_| Slice::new(0)).collect(),
        pkt_index: Signal<Local, Bits<HA>>,
        pkt_payload: Signal<Local, Bits<P>>,
        walk_issue: Signal<Local, bool>,
        zx_walk_addr: ZeroExt<A, HA>,
        zx_walk_row: ZeroExt<RECORD_ROW_BITS, P>,
        walk_index: Signal<Local, Bits<HA>>,
        walk_payload: Signal<Local, Bits<P>>,
        // S2, per bank: the payload's fields, the segment words.
        pay_walk: Vec<Slice<P, 1>> = (0..2).map(|_| Slice::new(32 + H * LW)).collect(),
        pay_row: Vec<Slice<P, RECORD_ROW_BITS>> = (0..2).map(|_| Slice::new(33 + H * LW)).collect(),
        pay_lat: Vec<Slice<P, 32>> = (0..2).map(|_| Slice::new(0)).collect(),
        pay_bit0: Vec<Slice<P, LW>> = (0..H).map(|j| Slice::new(32 + j * LW)).collect(),
        pay_bit1: Vec<Slice<P, LW>> = (0..H).map(|j| Slice::new(32 + j * LW)).collect(),
        old0: Vec<Slice<HW, W>> = (0..H).map(|j| Slice::new(j * W)).collect(),
        old1: Vec<Slice<HW, W>> = (0..H).map(|j| Slice::new(j * W)).collect(),
        zx_old0: Vec<ZeroExt<W, HW>> = (0..H).map(|_| ZeroExt::default()).collect(),
        zx_old1: Vec<ZeroExt<W, HW>> = (0..H).map(|_| ZeroExt::default()).collect(),
        zx_sh0: Vec<ZeroExt<LW, 16>> = (0..H).map(|_| ZeroExt::default()).collect(),
        zx_sh1: Vec<ZeroExt<LW, 16>> = (0..H).map(|_| ZeroExt::default()).collect(),
        new_words: Vec<Signal<Local, Bits<HW>>> = (0..2).map(|_| Default::default()).collect(),
        /// The counter update per forward candidate (`[6·b + c]`: bank b, candidate c = the RAM word, then
        /// distances 1..=5, the counter pipeline's `mod_pick` order), picked after the adders: the forward
        /// mux before a 64-bit add was the critical path (115 MHz).
        cand_w: Vec<Signal<Local, Bits<COUNTER_BITS>>> = (0..12).map(|_| Default::default()).collect(),
        cnt_count: Vec<Slice<COUNTER_BITS, 32>> = (0..12).map(|_| Slice::new(0)).collect(),
        cnt_sum: Vec<Slice<COUNTER_BITS, 64>> = (0..12).map(|_| Slice::new(COUNT_BITS)).collect(),
        zx_cnt: Vec<ZeroExt<32, COUNTER_BITS>> = (0..12).map(|_| ZeroExt::default()).collect(),
        zx_sum: Vec<ZeroExt<64, COUNTER_BITS>> = (0..12).map(|_| ZeroExt::default()).collect(),
        cnt_new: Vec<Signal<Local, Bits<COUNTER_BITS>>> = (0..2).map(|_| Default::default()).collect(),
        zx_lat64: Vec<ZeroExt<32, 64>> = (0..2).map(|_| ZeroExt::default()).collect(),
        // S3: the record. Its word is registered per bank before any bank or row mux (zero unless that bank's
        // walk op reads that row: the segment word in `rec_seg`, the counter word in `rec_cnt`), so each forward
        // mux feeds a register of its own and the record FIFO's input is an OR of registers; `rec_d` holds the
        // address and row. Before, the counter pipeline's forward mux ran through the bank and row muxes into one
        // register, the critical path at 118.9 MHz (6.6 of its 8.4 ns routing).
        rec_walk: Signal<Local, bool>,
        rec_addr: Signal<Local, Bits<A>>,
        rec_row: Signal<Local, Bits<RECORD_ROW_BITS>>,
        zx_rec_addr: ZeroExt<A, R>,
        zx_rec_row: ZeroExt<RECORD_ROW_BITS, R>,
        rec_v: Reg<bool>,
        rec_d: Reg<Bits<R>>,
        rec_seg: Vec<Reg<Bits<W>>> = (0..2).map(|_| Reg::default()).collect(),
        rec_cnt: Vec<Reg<Bits<COUNTER_BITS>>> = (0..2).map(|_| Reg::default()).collect(),
        zx_rec_seg: ZeroExt<W, R>,
        zx_rec_cnt: ZeroExt<COUNTER_BITS, R>,
        smp_v: Reg<bool>,
        smp_d: Reg<Bits<32>>,
        zx_slevel: ZeroExt<SL, 32>,
        zx_rlevel: ZeroExt<FL, 32>,
        zx_k: ZeroExt<CB, 32>,
        /// Outputs read in part only: bank 1's and the counter pipelines' `in_ready` (the same sweep), the
        /// PRNG's look-ahead values, F1's `valid` (the packet enters its bank on `transfer`), the segment
        /// rows' `mod_index` (the counter row's carries the walk address), the counter pipelines' forward
        /// candidates and `mod_valid` (lockstep with the rows').
        unused_outputs: Signal<Local, bool>,
        // Constants.
        row_ids: Vec<Constant<Bits<RECORD_ROW_BITS>>> = consts(0..H as u64),
        counter_row: Constant<Bits<RECORD_ROW_BITS>> = constant(H as u64),
        row_bits: Vec<Constant<Bits<H>>> = consts((0..H).map(|j| 1u64 << j)),
        off_addr: Vec<Constant<Bits<16>>> = consts((0..H).map(|j| (j * A) as u64)),
        off_bit: Vec<Constant<Bits<16>>> = consts((0..H).map(|j| (32 + j * LW) as u64)),
        off_word: Vec<Constant<Bits<16>>> = consts((0..H).map(|j| (j * W) as u64)),
        off_walk: Constant<Bits<16>> = constant((32 + H * LW) as u64),
        off_walk_row: Constant<Bits<16>> = constant((33 + H * LW) as u64),
        off_sum: Constant<Bits<16>> = constant(COUNT_BITS as u64),
        off_rec_addr: Constant<Bits<16>> = constant(COUNTER_BITS as u64),
        off_rec_row: Constant<Bits<16>> = constant((COUNTER_BITS + A) as u64),
        bank_ids: Vec<Constant<bool>> = vec![Constant::new(false), Constant::new(true)],
        one32: Constant<Bits<32>> = constant(1),
        one_w: Constant<Bits<W>> = constant(1),
        zero_w: Constant<Bits<W>> = constant(0),
        one_p: Constant<Bits<P>> = constant(1),
        zero_ha: Constant<Bits<HA>> = Constant::new(Bits::default()),
        zero_hw: Constant<Bits<HW>> = Constant::new(Bits::default()),
        zero_h: Constant<Bits<H>> = constant(0),
        ones_h: Constant<Bits<H>> = constant((1u64 << H) - 1),
        zero_c: Constant<Bits<COUNTER_BITS>> = Constant::new(Bits::default()),
        room_level: Constant<Bits<FL>> = constant(((1usize << FA) - cfg.walk_in_flight()) as u64),
        csr_seed: Constant<Bits<8>> = constant(CSR_PRNG_SEED as u64),
        csr_epoch: Constant<Bits<8>> = constant(CSR_EPOCH as u64),
        offset_on: Constant<bool> = Constant::new(mutant != Mutant::NoOffset),
        _h: usize = H,
        _cfg: MapleHwConfig = cfg.clone(),
    }
}

mod logic;

macro_rules! maple_core_impl {
    ($($tr:ident for)? { $($body:tt)* }) => {
        impl<
                const K: usize, const H: usize, const A: usize, const LW: usize, const MB: usize, const W: usize,
                const HA: usize, const HW: usize, const P: usize, const R: usize, const SA: usize,
                const SL: usize, const FA: usize, const FL: usize, const AW: usize, const CA: usize,
            > $($tr for)? MapleCore<K, H, A, LW, MB, W, HA, HW, P, R, SA, SL, FA, FL, AW, CA>
        {
            $($body)*
        }
    };
}
pub(crate) use maple_core_impl;

maple_core_impl!({
    pub fn new(cfg: &MapleHwConfig) -> Result<Self, ConfigError> {
        Self::with_mutant(cfg, Mutant::None)
    }
    /// Test-only: the core with a deliberate mistake (see [`Mutant`]).
    pub fn with_mutant(cfg: &MapleHwConfig, mutant: Mutant) -> Result<Self, ConfigError> {
        cfg.check()?;
        let (a, lw) = (cfg.addr_bits(), cfg.word_log2());
        let expect = [
            ("K", K, cfg.store.key_bits),
            ("H", H, cfg.store.hashes),
            ("A", A, a),
            ("LW", LW, lw),
            ("MB", MB, a + lw),
            ("W", W, cfg.store.word_bits),
            ("HA", HA, H * a),
            ("HW", HW, H * cfg.store.word_bits),
            ("P", P, golden::maple::cycle::sizes::payload_bits(H, lw)),
            ("R", R, cfg.record_bits()),
            ("SA", SA, cfg.store.sample_fifo_bits),
            ("SL", SL, cfg.store.sample_fifo_bits + 1),
            ("FA", FA, cfg.record_fifo_bits),
            ("FL", FL, cfg.record_fifo_bits + 1),
            ("AW", AW, golden::maple::cycle::sizes::window_bits(cfg.max_centers, lw)),
            ("CA", CA, golden::maple::cycle::sizes::center_addr_bits(cfg.max_centers)),
        ];
        for (name, got, want) in expect {
            if got != want {
                return Err(ConfigError(format!("MapleCore generic {name} = {got}, the configuration needs {want}")));
            }
        }
        if H > 8 || R > 128 {
            return Err(ConfigError("MapleCore: at most 8 hashes and 128-bit records".into()));
        }
        let layout = cfg.csr_layout();
        let shell = CoreShell::new(layout.clone(), &STATUS)?;
        let src = |j: usize| {
            if mutant == Mutant::WrongSegment {
                (j + 1) % H
            } else {
                j
            }
        };
        let h_base = (0..H).map(|j| HashUnit::from_fn(cfg.base_hash(src(j))?)).collect::<Result<Vec<_>, _>>()?;
        let mut forward = vec![FORWARD_ALL; H];
        if mutant == Mutant::Row0NoDist2 {
            forward[0] &= !0b010;
        }
        let timing = cfg.ram_timing(A, W);
        let svbf = vec![MultiRmw::with_timing(timing, &forward)?, MultiRmw::with_timing(timing, &forward)?];
        let walker = BankWalker::new(H + 1).map_err(ConfigError)?;
        let lk_base = (0..H).map(|j| HashUnit::from_fn(cfg.base_hash(j)?)).collect::<Result<Vec<_>, _>>()?;
        let lk_mutant = match mutant {
            Mutant::BurstShort => LookupMutant::BurstShort,
            Mutant::AndSkip0 => LookupMutant::AndSkip0,
            _ => LookupMutant::None,
        };
        let lookup = MapleLookup::new(lk_base, cfg.max_centers, lk_mutant).map_err(ConfigError)?;
        Ok(Self::build(cfg, &layout, shell, h_base, svbf, walker, lookup, mutant))
    }
    pub fn config(&self) -> &MapleHwConfig {
        &self._cfg
    }
});
