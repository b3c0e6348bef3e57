//! Shared blocks every core uses: hashes, PRNG, SRAM, read-modify-write pipeline (one row or several), report
//! FIFO, CSR bank.

pub mod config;
pub mod csr;
pub mod delay;
pub mod fifo;
pub mod handover;
pub mod hash;
pub mod index_hashes;
pub mod preimage;
pub mod prng;
pub mod multi_rmw;
pub mod rmw;
pub mod sram;
pub mod tops;
pub mod walk;
pub mod word;

pub use config::ConfigError;
pub use word::Word;

/// Mask with the low `bits` bits set (`bits` ≤ 128).
pub const fn mask128(bits: usize) -> u128 {
    if bits >= 128 {
        u128::MAX
    } else {
        (1u128 << bits) - 1
    }
}
