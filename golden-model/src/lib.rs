//! # golden — the netmeas specification
//!
//! Bit-accurate, cycle-accurate reference models of every netmeas hardware block, plus the configuration
//! types and constants (hash polynomials, masks, seeds, widths) that the RTL in the `hdl` crate is generated
//! from. Nothing here depends on `hdl` or Verilator: this crate *is* the spec the RTL is checked against.
//!
//! Every block model follows one convention: `step(&Inputs) -> Outputs` advances one clock cycle. The
//! returned outputs are the values visible on the block's output ports *during* that cycle (before the
//! rising edge that ends it); the state update is the rising edge. Values the RTL leaves undefined (e.g.
//! memory read before the reset sweep reached a word) are `None` and are not compared.

pub mod common;
pub mod finecomb;
pub mod fridge;
pub mod heavy_hitters;
pub mod ifpd;
pub mod maple;
pub mod parser;
pub mod reordering;
