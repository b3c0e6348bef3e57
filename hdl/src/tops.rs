//! Top modules of the shared blocks: what `netmeas verilog` emits, lint checks and co-simulation runs.
//!
//! Each top is either a shared block itself or a thin wrapper that gives it a concrete core-like job
//! (e.g. the RMW pipeline adding a delta to a counter table). Their parameters are the constants below,
//! shared with the testbench through [`crate::emit::TopInfo::params`] and the manifest.

use crate::common::csr::Csr;
use crate::common::hash::HashUnit;
use crate::common::reg::Reg;
use crate::common::rmw::RmwPipeline;
use golden::common::config::ConfigError;
use golden::common::csr::CsrLayout;
use golden::common::hash::HashKind;
use golden::common::sram::RamPorts;
use rust_hdl::prelude::*;

/// Address bits of the SRAM test tops.
pub const SRAM_TOP_ADDR_BITS: usize = 6;
/// Word width of the SRAM test tops.
pub const SRAM_TOP_WIDTH: usize = 40;
/// Address bits of the RMW test tops (64 entries: many natural hazards).
pub const RMW_TOP_ADDR_BITS: usize = 6;
/// Counter width of the RMW test tops.
pub const RMW_TOP_WIDTH: usize = 32;
/// Address bits of the report-FIFO test top (16 entries: overflows often).
pub const FIFO_TOP_ADDR_BITS: usize = 4;
/// Entry width of the report-FIFO test top.
pub const FIFO_TOP_WIDTH: usize = 72;
/// H3 output width in the hash tops.
pub const HASH_TOP_H3_BITS: usize = 32;

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

/// The hash functions of a [`HashTop`], in port order.
pub const HASH_TOP_KINDS: [HashKind; 4] =
    [HashKind::Crc16Umts, HashKind::Crc16En13757, HashKind::Crc32Mpeg2, HashKind::H3 { out_bits: HASH_TOP_H3_BITS }];

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
/// nonzero (a zero delta is a read-only lookup). The modify-stage view is registered onto the outputs.
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
    rmw: RmwPipeline<A, W, W>,
    new_value: Signal<Local, Bits<W>>,
    /// The forward candidates: an add after the mux is short enough (`mod_old` suffices).
    unused_candidates: Signal<Local, bool>,
    r_valid: Reg<bool>,
    r_index: Reg<Bits<A>>,
    r_old: Reg<Bits<W>>,
    r_new: Reg<Bits<W>>,
}

impl<const A: usize, const W: usize> RmwAddTop<A, W> {
    pub fn new(ports: RamPorts, forward_enable: u64) -> Self {
        RmwAddTop {
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
            rmw: RmwPipeline::with_forwarding(ports, forward_enable),
            new_value: Default::default(),
            unused_candidates: Default::default(),
            r_valid: Default::default(),
            r_index: Default::default(),
            r_old: Default::default(),
            r_new: Default::default(),
        }
    }
}

impl<const A: usize, const W: usize> Logic for RmwAddTop<A, W> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, r_valid, r_index, r_old, r_new);
        clock!(self, clock, rmw);
        self.rmw.reset.next = self.reset.val();
        self.rmw.in_valid.next = self.in_valid.val();
        self.rmw.in_index.next = self.in_index.val();
        self.rmw.in_payload.next = self.in_delta.val();
        self.in_ready.next = self.rmw.in_ready.val();
        self.new_value.next = self.rmw.mod_old.val() + self.rmw.mod_payload.val();
        self.rmw.mod_new.next = self.new_value.val();
        self.rmw.mod_write.next = self.rmw.mod_payload.val().any();
        self.unused_candidates.next = self.rmw.mod_ram.val().any()
            || self.rmw.mod_s3.val().any()
            || self.rmw.mod_s4.val().any()
            || self.rmw.mod_s5.val().any()
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

/// The CSR layout of the CSR test top: the PRNG seed plus three core-like parameters, five counters
/// (5 × 32 = 160 status bits, so the harness's `[u32; N]` path for ports wider than 128 bits is exercised).
pub fn csr_top_layout() -> CsrLayout {
    CsrLayout {
        config: vec![
            ("prng_seed".into(), 0),
            ("threshold".into(), 0x8000_0000),
            ("mode".into(), 1),
            ("expiry".into(), 100_000),
        ],
        status: vec!["packets".into(), "insertions".into(), "reports".into(), "drops".into(), "evictions".into()],
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
        let layout = csr_top_layout();
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

/// Bucket index bits of the FineComb front-end top `finecomb_front` (bucket counts M up to 2^16 still
/// exercise the whole multiply; the index keeps its low 8 bits as a core with IA = 8 would).
pub const FINECOMB_FRONT_INDEX_BITS: usize = 8;

/// Configuration of the standalone tally top `fridge_tally`: two fridges of 256 and 8 entries (ROM steps of
/// 4 and of 1 insertion), 24-bit delays, 16-bit counters (so x runs past the ROM's last step).
pub fn fridge_tally_config() -> golden::fridge::FridgeConfig {
    golden::fridge::FridgeConfig { addr_bits: vec![8, 3], ts_bits: 24, counter_bits: 16, ..Default::default() }
}

/// Fridge core tops: (name, configuration). The generics of each are spelled out in `emit`.
pub fn fridge_tops() -> Vec<(&'static str, golden::fridge::FridgeConfig)> {
    use golden::fridge::FridgeConfig;
    let single = FridgeConfig::default();
    let four = FridgeConfig {
        // Four fridges of different sizes — the multi-fridge layout of 1024 entries (M/2, M/4, M/8, M/8) —
        // narrow fields: 16-bit signatures, 24-bit timestamps in 256 ns units (they wrap every 4.3 s),
        // 20-bit counters, and a 16-entry report FIFO that overflows.
        addr_bits: vec![9, 8, 7, 7],
        sig_bits: 16,
        ts_bits: 24,
        ts_shift: 8,
        counter_bits: 20,
        ports: RamPorts::Dual,
        report_fifo_bits: 4,
        tally: true,
    };
    vec![
        ("fridge_dp", single.clone()),
        // The single-port build is also the build without a tally.
        ("fridge_sp", FridgeConfig { ports: RamPorts::Single, tally: false, ..single }),
        ("fridge4_dp", four),
    ]
}

/// FineComb core tops: (name, configuration). The generics of each are spelled out in `emit`.
///
/// Bucket counts and stash depths are run-time CSRs, so the two large builds (2^13 buckets per set and
/// bank, 2^10 stash slots) run every experiment of `netmeas run finecomb --engine rtl`; co-simulation
/// also runs them with small run-time M and w (same-bucket hazards). A receiver with every w_b = 0
/// behaves as a sender; `finecomb_tx` is the sender build (no stash memories) on its own.
pub fn finecomb_tops() -> Vec<(&'static str, golden::finecomb::cycle::FinecombCoreConfig)> {
    use golden::finecomb::cycle::FinecombCoreConfig;
    use golden::finecomb::{BankConfig, FinecombConfig, Role};
    let bank = |buckets, stash_depth| BankConfig { buckets, stash_depth };
    let core = |role, isd, banks: Vec<BankConfig>, ia, sa| FinecombCoreConfig {
        shape: FinecombConfig { role, banks, isd },
        bucket_addr_bits: ia,
        stash_slot_bits: sa,
    };
    vec![
        ("finecomb_tx", core(Role::Sender, true, vec![bank(61, 0)], 6, 1)),
        ("finecomb_rx", core(Role::Receiver, true, vec![bank(61, 5)], 6, 3)),
        ("finecomb", core(Role::Receiver, true, vec![bank(1000, 50); 4], 13, 10)),
        ("finecomb_lda", core(Role::Receiver, false, vec![bank(1500, 0); 4], 13, 1)),
    ]
}
