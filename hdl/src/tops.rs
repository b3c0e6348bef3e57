//! Wrapper tops of the shared blocks (declared as builds in [`crate::common::builds`]): thin modules that
//! give a block a concrete core-like job (e.g. the RMW pipeline adding a delta to a counter table). Their
//! shapes are golden's (`golden::common::tops`, re-exported here), which the testbench uses too.

use crate::common::csr::Csr;
use crate::common::hash::HashUnit;
use crate::common::reg::Reg;
use crate::common::bits::{Slice, ZeroExt};
use crate::common::multi_rmw::MultiRmw;
use crate::common::rmw::RmwPipeline;
use crate::declare_block;
use golden::common::config::ConfigError;
use golden::common::sram::{RamPorts, RamTiming};
use rust_hdl::prelude::*;

pub use golden::common::tops::*;

/// The four hash functions of the shared hash unit side by side on one key.
#[derive(LogicBlock)]
pub struct HashTop<const K: usize> {
    pub clock: Signal<In, Clock>,
    pub key: Signal<In, Bits<K>>,
    pub crc16_umts: Signal<Out, Bits<16>>,
    pub crc16_en13757: Signal<Out, Bits<16>>,
    pub crc32_mpeg2: Signal<Out, Bits<32>>,
    pub h3: Signal<Out, Bits<HASH_TOP_H3_BITS>>,
    u_crc16_umts: HashUnit<K, 16>,
    u_crc16_en13757: HashUnit<K, 16>,
    u_crc32_mpeg2: HashUnit<K, 32>,
    u_h3: HashUnit<K, HASH_TOP_H3_BITS>,
}

impl<const K: usize> HashTop<K> {
    pub fn new() -> Result<Self, ConfigError> {
        Ok(HashTop {
            clock: Default::default(),
            key: Default::default(),
            crc16_umts: Default::default(),
            crc16_en13757: Default::default(),
            crc32_mpeg2: Default::default(),
            h3: Default::default(),
            u_crc16_umts: HashUnit::new(HASH_TOP_KINDS[0])?,
            u_crc16_en13757: HashUnit::new(HASH_TOP_KINDS[1])?,
            u_crc32_mpeg2: HashUnit::new(HASH_TOP_KINDS[2])?,
            u_h3: HashUnit::new(HASH_TOP_KINDS[3])?,
        })
    }
}

impl<const K: usize> Logic for HashTop<K> {
    #[hdl_gen]
    fn update(&mut self) {
        clock!(self, clock, u_crc16_umts, u_crc16_en13757, u_crc32_mpeg2, u_h3);
        self.u_crc16_umts.key.next = self.key.val();
        self.u_crc16_umts.load.next = true;
        self.u_crc16_en13757.key.next = self.key.val();
        self.u_crc16_en13757.load.next = true;
        self.u_crc32_mpeg2.key.next = self.key.val();
        self.u_crc32_mpeg2.load.next = true;
        self.u_h3.key.next = self.key.val();
        self.u_h3.load.next = true;
        self.crc16_umts.next = self.u_crc16_umts.hash.val();
        self.crc16_en13757.next = self.u_crc16_en13757.hash.val();
        self.crc32_mpeg2.next = self.u_crc32_mpeg2.hash.val();
        self.h3.next = self.u_h3.hash.val();
    }
}

/// The RMW pipeline doing a core's job: a table of counters, `old + delta` written back when the delta is
/// odd (an even delta is a read-only lookup, still presenting `old + delta` on `mod_new`). The modify-stage
/// view is registered onto the outputs. With the look-ahead stage the top adds as a deep core would: at SL
/// `pre_old + delta` (registered), at SM that sum, or — `mod_pick` bit 1 — the packet ahead's write plus
/// delta; SL's view (`pre_valid`, the delta, `pre_old` and its parts `pre_early`, `pre_near2`) is registered
/// onto `out_pre_*`.
#[derive(LogicBlock)]
pub struct RmwAddTop<const A: usize, const W: usize> {
    pub clock: Signal<In, Clock>,
    pub reset: Signal<In, bool>,
    pub in_valid: Signal<In, bool>,
    pub in_index: Signal<In, Bits<A>>,
    pub in_delta: Signal<In, Bits<W>>,
    pub in_ready: Signal<Out, bool>,
    pub out_valid: Signal<Out, bool>,
    pub out_index: Signal<Out, Bits<A>>,
    pub out_old: Signal<Out, Bits<W>>,
    pub out_new: Signal<Out, Bits<W>>,
    pub out_pre_valid: Signal<Out, bool>,
    pub out_pre_delta: Signal<Out, Bits<W>>,
    pub out_pre_old: Signal<Out, Bits<W>>,
    pub out_pre_early: Signal<Out, Bits<W>>,
    pub out_pre_near2: Signal<Out, bool>,
    rmw: RmwPipeline<A, W, W>,
    new_value: Signal<Local, Bits<W>>,
    /// Look-ahead: SL's sum, registered into SM.
    early_sum: Reg<Bits<W>>,
    lookahead: Constant<bool>,
    r_pre_valid: Reg<bool>,
    r_pre_delta: Reg<Bits<W>>,
    r_pre_old: Reg<Bits<W>>,
    r_pre_early: Reg<Bits<W>>,
    r_pre_near2: Reg<bool>,
    /// The forward candidates: an add after the mux is short enough (`mod_old` suffices; the look-ahead
    /// path reads distance 1's word and `mod_pick` bit 1).
    unused_candidates: Signal<Local, bool>,
    r_valid: Reg<bool>,
    r_index: Reg<Bits<A>>,
    r_old: Reg<Bits<W>>,
    r_new: Reg<Bits<W>>,
}

impl<const A: usize, const W: usize> RmwAddTop<A, W> {
    /// `forward_enable`: [`crate::common::rmw::FORWARD_ALL`] except in the test-only broken builds.
    pub fn new(ports: RamPorts, timing: RamTiming, forward_enable: u64) -> Self {
        Self::with_lookahead(ports, timing, 0, forward_enable).expect("no look-ahead: any RAM")
    }
    /// With the pipeline's `lookahead` look-ahead levels (0..=2; single-port: 0 or 2).
    pub fn with_lookahead(
        ports: RamPorts,
        timing: RamTiming,
        lookahead: usize,
        forward_enable: u64,
    ) -> Result<Self, ConfigError> {
        Ok(RmwAddTop {
            clock: Default::default(),
            reset: Default::default(),
            in_valid: Default::default(),
            in_index: Default::default(),
            in_delta: Default::default(),
            in_ready: Default::default(),
            out_valid: Default::default(),
            out_index: Default::default(),
            out_old: Default::default(),
            out_new: Default::default(),
            out_pre_valid: Default::default(),
            out_pre_delta: Default::default(),
            out_pre_old: Default::default(),
            out_pre_early: Default::default(),
            out_pre_near2: Default::default(),
            rmw: RmwPipeline::with_lookahead(ports, timing, lookahead, forward_enable)?,
            new_value: Default::default(),
            early_sum: Default::default(),
            lookahead: Constant::new(lookahead >= 1),
            r_pre_valid: Default::default(),
            r_pre_delta: Default::default(),
            r_pre_old: Default::default(),
            r_pre_early: Default::default(),
            r_pre_near2: Default::default(),
            unused_candidates: Default::default(),
            r_valid: Default::default(),
            r_index: Default::default(),
            r_old: Default::default(),
            r_new: Default::default(),
        })
    }
}

impl<const A: usize, const W: usize> Logic for RmwAddTop<A, W> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self, clock, r_valid, r_index, r_old, r_new, early_sum, r_pre_valid, r_pre_delta, r_pre_old, r_pre_early,
            r_pre_near2
        );
        clock!(self, clock, rmw);
        self.rmw.reset.next = self.reset.val();
        self.rmw.in_valid.next = self.in_valid.val();
        self.rmw.in_index.next = self.in_index.val();
        self.rmw.in_payload.next = self.in_delta.val();
        self.in_ready.next = self.rmw.in_ready.val();
        self.early_sum.d.next = self.rmw.pre_old.val() + self.rmw.pre_payload.val();
        if !self.lookahead.val() {
            self.new_value.next = self.rmw.mod_old.val() + self.rmw.mod_payload.val();
        } else if self.rmw.mod_pick.val().get_bit(1) {
            self.new_value.next = self.rmw.mod_fwd1.val() + self.rmw.mod_payload.val();
        } else {
            self.new_value.next = self.early_sum.q.val();
        }
        self.rmw.mod_new.next = self.new_value.val();
        self.r_pre_valid.d.next = self.rmw.pre_valid.val();
        self.r_pre_delta.d.next = self.rmw.pre_payload.val();
        self.r_pre_old.d.next = self.rmw.pre_old.val();
        self.out_pre_valid.next = self.r_pre_valid.q.val();
        self.out_pre_delta.next = self.r_pre_delta.q.val();
        self.out_pre_old.next = self.r_pre_old.q.val();
        self.r_pre_early.d.next = self.rmw.pre_early.val();
        self.r_pre_near2.d.next = self.rmw.pre_near2.val();
        self.out_pre_early.next = self.r_pre_early.q.val();
        self.out_pre_near2.next = self.r_pre_near2.q.val();
        self.rmw.mod_write.next = self.rmw.mod_payload.val().get_bit(0);
        self.unused_candidates.next = self.rmw.mod_ram.val().any()
            || self.rmw.mod_fwd2.val().any()
            || self.rmw.mod_fwd3.val().any()
            || self.rmw.mod_fwd4.val().any()
            || self.rmw.mod_fwd5.val().any()
            || self.rmw.mod_pick.val().any();
        self.r_valid.d.next = self.rmw.mod_valid.val() && !self.reset.val();
        self.r_index.d.next = self.rmw.mod_index.val();
        self.r_old.d.next = self.rmw.mod_old.val();
        self.r_new.d.next = self.new_value.val();
        self.out_valid.next = self.r_valid.q.val();
        self.out_index.next = self.r_index.q.val();
        self.out_old.next = self.r_old.q.val();
        self.out_new.next = self.r_new.q.val();
    }
}

declare_block! {
    /// The multi-row RMW doing a sketch's job: `D` rows of counters, the packet adds `delta` to the rows whose
    /// bit is set in `in_rows` (its own index in each row; no bit set is a read-only lookup). The modify-stage
    /// view (every row's index, old and new word) is registered onto the outputs.
    #[derive(LogicBlock)]
    pub struct MultiRmwAddTop<const A: usize, const W: usize, const D: usize, const DA: usize, const DW: usize, const P: usize>
    fn build(rmw: MultiRmw<A, W, P, D, DA, DW>) {
        pub clock: Signal<In, Clock>,
        pub reset: Signal<In, bool>,
        pub in_valid: Signal<In, bool>,
        pub in_index: Signal<In, Bits<DA>>,
        pub in_delta: Signal<In, Bits<W>>,
        pub in_rows: Signal<In, Bits<D>>,
        pub in_ready: Signal<Out, bool>,
        pub out_valid: Signal<Out, bool>,
        pub out_index: Signal<Out, Bits<DA>>,
        pub out_old: Signal<Out, Bits<DW>>,
        pub out_new: Signal<Out, Bits<DW>>,
        rmw: MultiRmw<A, W, P, D, DA, DW> = rmw,
        zx_delta: ZeroExt<W, P>,
        zx_rows: ZeroExt<D, P>,
        delta: Slice<P, W> = Slice::new(0),
        rows: Slice<P, D> = Slice::new(W),
        old: Vec<Slice<DW, W>> = (0..D).map(|i| Slice::new(i * W)).collect(),
        zx_new: Vec<ZeroExt<W, DW>> = (0..D).map(|_| ZeroExt::default()).collect(),
        new_bus: Signal<Local, Bits<DW>>,
        off_rows: Constant<Bits<16>> = crate::common::bits::constant(W as u64),
        off_word: Vec<Constant<Bits<16>>> = crate::common::bits::consts((0..D).map(|i| (i * W) as u64)),
        zero_dw: Constant<Bits<DW>> = Constant::new(Bits::default()),
        r_valid: Reg<bool>,
        r_index: Reg<Bits<DA>>,
        r_old: Reg<Bits<DW>>,
        r_new: Reg<Bits<DW>>,
        /// The look-ahead outputs (this top has no look-ahead stage).
        unused_lookahead: Signal<Local, bool>,
        _d: usize = D,
    }
}

impl<const A: usize, const W: usize, const D: usize, const DA: usize, const DW: usize, const P: usize>
    MultiRmwAddTop<A, W, D, DA, DW, P>
{
    /// `forward_enable` per row (see [`MultiRmw::with_forwarding`]).
    pub fn new(timing: RamTiming, forward_enable: &[u64]) -> Result<Self, ConfigError> {
        if P != W + D {
            return Err(ConfigError(format!("MultiRmwAddTop: P = {P}, needs W + D = {}", W + D)));
        }
        Ok(Self::build(MultiRmw::with_timing(timing, forward_enable)?))
    }
}

impl<const A: usize, const W: usize, const D: usize, const DA: usize, const DW: usize, const P: usize> Logic
    for MultiRmwAddTop<A, W, D, DA, DW, P>
{
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, r_valid, r_index, r_old, r_new);
        clock!(self, clock, rmw);
        self.rmw.reset.next = self.reset.val();
        self.rmw.in_valid.next = self.in_valid.val();
        self.rmw.in_index.next = self.in_index.val();
        self.zx_delta.din.next = self.in_delta.val();
        self.zx_rows.din.next = self.in_rows.val();
        self.rmw.in_payload.next = self.zx_delta.out.val() | (self.zx_rows.out.val() << self.off_rows.val());
        self.in_ready.next = self.rmw.in_ready.val();
        self.delta.din.next = self.rmw.mod_payload.val();
        self.rows.din.next = self.rmw.mod_payload.val();
        self.new_bus.next = self.zero_dw.val();
        for i in 0..self._d {
            self.old[i].din.next = self.rmw.mod_old.val();
            self.zx_new[i].din.next = self.old[i].out.val() + self.delta.out.val();
            self.new_bus.next = self.new_bus.val() | (self.zx_new[i].out.val() << self.off_word[i].val());
        }
        self.rmw.mod_new.next = self.new_bus.val();
        self.rmw.mod_write.next = self.rows.out.val();
        self.unused_lookahead.next = self.rmw.mod_near.val().any()
            || self.rmw.pre_valid.val()
            || self.rmw.pre_payload.val().any()
            || self.rmw.pre_old.val().any()
            || self.rmw.pre_early.val().any()
            || self.rmw.pre_near2.val().any();
        self.r_valid.d.next = self.rmw.mod_valid.val() && !self.reset.val();
        self.r_index.d.next = self.rmw.mod_index.val();
        self.r_old.d.next = self.rmw.mod_old.val();
        self.r_new.d.next = self.new_bus.val();
        self.out_valid.next = self.r_valid.q.val();
        self.out_index.next = self.r_index.q.val();
        self.out_old.next = self.r_old.q.val();
        self.out_new.next = self.r_new.q.val();
    }
}

/// CSR bank with a PRNG seeded through it: a write to `prng_seed` loads the PRNG at the same edge.
#[derive(LogicBlock)]
pub struct CsrTop {
    pub clock: Signal<In, Clock>,
    pub reset: Signal<In, bool>,
    pub addr: Signal<In, Bits<8>>,
    pub wr_en: Signal<In, bool>,
    pub wr_data: Signal<In, Bits<32>>,
    pub rd_en: Signal<In, bool>,
    pub rd_valid: Signal<Out, bool>,
    pub rd_data: Signal<Out, Bits<32>>,
    pub cfg: Signal<Out, Bits<128>>,
    pub status: Signal<In, Bits<160>>,
    pub advance: Signal<In, bool>,
    pub prng_value: Signal<Out, Bits<32>>,
    csr: Csr<128, 160>,
    prng: crate::common::prng::Prng,
    /// The PRNG's look-ahead candidates: this top shows the value only.
    unused_lookahead: Signal<Local, bool>,
    seed_addr: Constant<Bits<8>>,
}

impl CsrTop {
    pub fn new() -> Result<Self, ConfigError> {
        Self::with_layout(csr_top_layout())
    }
    /// The bank read in two cycles (`CsrLayout::with_registered_read`).
    pub fn registered_read() -> Result<Self, ConfigError> {
        Self::with_layout(csr_top_layout().with_registered_read())
    }
    fn with_layout(layout: golden::common::csr::CsrLayout) -> Result<Self, ConfigError> {
        let seed_addr = layout.config_addr("prng_seed").expect("layout has prng_seed");
        Ok(CsrTop {
            clock: Default::default(),
            reset: Default::default(),
            addr: Default::default(),
            wr_en: Default::default(),
            wr_data: Default::default(),
            rd_en: Default::default(),
            rd_valid: Default::default(),
            rd_data: Default::default(),
            cfg: Default::default(),
            status: Default::default(),
            advance: Default::default(),
            prng_value: Default::default(),
            csr: Csr::new(layout)?,
            prng: Default::default(),
            unused_lookahead: Default::default(),
            seed_addr: Constant::new(Bits::from(seed_addr as u64)),
        })
    }
}

impl Logic for CsrTop {
    #[hdl_gen]
    fn update(&mut self) {
        clock!(self, clock, csr, prng);
        self.csr.reset.next = self.reset.val();
        self.csr.addr.next = self.addr.val();
        self.csr.wr_en.next = self.wr_en.val();
        self.csr.wr_data.next = self.wr_data.val();
        self.csr.rd_en.next = self.rd_en.val();
        self.csr.status.next = self.status.val();
        self.rd_valid.next = self.csr.rd_valid.val();
        self.rd_data.next = self.csr.rd_data.val();
        self.cfg.next = self.csr.cfg.val();
        self.prng.reset.next = self.reset.val();
        self.prng.seed_load.next = self.wr_en.val() && (self.addr.val() == self.seed_addr.val());
        self.prng.seed.next = self.wr_data.val();
        self.prng.advance.next = self.advance.val();
        self.prng_value.next = self.prng.value.val();
        self.unused_lookahead.next = self.prng.advanced_value.val().any() || self.prng.seed_value.val().any();
    }
}

declare_block! {
    /// The CSR test bank ([`csr_top_layout`]) behind the standard core CSR port (`csr_*`): what the AXI
    /// flavour generator (`crate::axi`) wraps as the test top of the AXI4-Lite slave (`axil_csr_axi`).
    /// `status` feeds the status registers; `cfg` shows the config registers.
    #[derive(LogicBlock)]
    pub struct CsrPortTop fn build(bank: Csr<128, 160>) with csr_port {
        pub clock: Signal<In, Clock>,
        pub reset: Signal<In, bool>,
        pub cfg: Signal<Out, Bits<128>>,
        pub status: Signal<In, Bits<160>>,
        bank: Csr<128, 160> = bank,
    }
}

impl CsrPortTop {
    pub fn new() -> Result<Self, ConfigError> {
        Ok(Self::build(Csr::new(csr_top_layout())?))
    }
}

impl Logic for CsrPortTop {
    #[hdl_gen]
    fn update(&mut self) {
        clock!(self, clock, bank);
        self.bank.reset.next = self.reset.val();
        self.bank.addr.next = self.csr_addr.val();
        self.bank.wr_en.next = self.csr_wr_en.val();
        self.bank.wr_data.next = self.csr_wr_data.val();
        self.bank.rd_en.next = self.csr_rd_en.val();
        self.csr_rd_valid.next = self.bank.rd_valid.val();
        self.csr_rd_data.next = self.bank.rd_data.val();
        self.bank.status.next = self.status.val();
        self.cfg.next = self.bank.cfg.val();
    }
}
