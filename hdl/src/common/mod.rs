//! Shared RTL blocks: hash units, PRNG, SRAM, ROM, read-modify-write pipeline (one row and several), report
//! FIFO, CSR bank, core shell, input stage.

pub mod axil;
pub mod bits;
pub mod block;
pub mod builds;
pub mod csr;
pub mod delay;
pub mod fifo;
pub mod hash;
pub mod input;
pub mod multi_rmw;
pub mod prng;
pub mod reg;
pub mod rmw;
pub mod rom;
pub mod shell;
pub mod sram;
pub mod sram_ecp5;
pub mod walk;

pub use golden::common::sram::RamPorts;
