//! Shapes of the shared blocks' co-simulation tops (`hdl::tops`, declared as builds in
//! `hdl::common::builds`): sizes, hash functions and the CSR test bank's register map, used by the RTL and by
//! the testbench that drives it.

use super::csr::{CoreIdent, CsrLayout};
use super::hash::HashKind;
use super::sram::RamTiming;

/// Address bits of the SRAM test tops.
pub const SRAM_TOP_ADDR_BITS: usize = 6;
/// Word width of the SRAM test tops.
pub const SRAM_TOP_WIDTH: usize = 40;
/// The registered timing of the SRAM and RMW test tops: four banks of 16 words (the bank mux and the
/// per-bank write enables are exercised; the default bank size would make a 64-word table one bank).
pub const RAM_TOP_REGISTERED: RamTiming = RamTiming::Registered { bank_addr_bits: 4 };
/// The registered timing of the multi-row RMW test tops: four banks of 4 words per row.
pub const MULTI_RMW_TOP_REGISTERED: RamTiming = RamTiming::Registered { bank_addr_bits: 2 };
/// Address bits of the RMW test tops (64 entries: many natural hazards).
pub const RMW_TOP_ADDR_BITS: usize = 6;
/// Counter width of the RMW test tops.
pub const RMW_TOP_WIDTH: usize = 32;
/// Address bits of the report-FIFO test top (16 entries: overflows often).
pub const FIFO_TOP_ADDR_BITS: usize = 4;
/// Entry width of the report-FIFO test top.
pub const FIFO_TOP_WIDTH: usize = 72;
/// Word width of the delay-line test top.
pub const DELAY_TOP_WIDTH: usize = 40;
/// Stages of the delay-line test top.
pub const DELAY_TOP_STAGES: usize = 3;
/// H3 output width in the hash tops.
pub const HASH_TOP_H3_BITS: usize = 32;

/// The hash functions of a hash top (`hdl::tops::HashTop`), in port order.
pub const HASH_TOP_KINDS: [HashKind; 4] =
    [HashKind::Crc16Umts, HashKind::Crc16En13757, HashKind::Crc32Mpeg2, HashKind::H3 { out_bits: HASH_TOP_H3_BITS }];

/// The CSR layout of the CSR test top: the PRNG seed plus three core-like parameters, five counters
/// (5 × 32 = 160 status bits, so the harness's `[u32; N]` path for ports wider than 128 bits is exercised).
pub fn csr_top_layout() -> CsrLayout {
    CsrLayout::new(
        vec![
            ("prng_seed".into(), 0),
            ("threshold".into(), 0x8000_0000),
            ("mode".into(), 1),
            ("expiry".into(), 100_000),
        ],
        vec!["packets".into(), "insertions".into(), "reports".into(), "drops".into(), "evictions".into()],
    )
    .with_ident(CSR_TOP_IDENT)
    .doc("prng_seed", "PRNG seed (a write loads the PRNG at the same edge)")
    .doc("threshold", "a core-like parameter")
    .doc("mode", "a core-like parameter")
    .doc("expiry", "a core-like parameter")
    .doc("packets", "status input word 0")
    .doc("insertions", "status input word 1")
    .doc("reports", "status input word 2")
    .doc("drops", "status input word 3")
    .doc("evictions", "status input word 4")
}

/// Identity of the CSR test top (so the co-simulation also reads the identity registers).
pub const CSR_TOP_IDENT: CoreIdent = CoreIdent::new(b"CSRT", 1, 0);

/// Rows of the multi-row RMW test tops.
pub const MULTI_RMW_TOP_ROWS: usize = 3;
/// Address bits per row of the multi-row RMW test tops (16 buckets per row: collisions in every row).
pub const MULTI_RMW_TOP_ADDR_BITS: usize = 4;
/// Counter width per row of the multi-row RMW test tops (3 × 20 = 60 bits of words on one port).
pub const MULTI_RMW_TOP_WIDTH: usize = 20;
