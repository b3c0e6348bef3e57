//! Shared blocks every core uses: hashes, PRNG, SRAM, read-modify-write pipeline, report FIFO, CSR bank.

pub mod config;
pub mod csr;
pub mod fifo;
pub mod hash;
pub mod prng;
pub mod rmw;
pub mod sram;
pub mod tops;

pub use config::ConfigError;

/// Mask with the low `bits` bits set (`bits` ≤ 128).
pub const fn mask128(bits: usize) -> u128 {
    if bits >= 128 {
        u128::MAX
    } else {
        (1u128 << bits) - 1
    }
}
