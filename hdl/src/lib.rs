//! # hdl — netmeas RTL in rust-hdl
//!
//! Synthesizable modules of the shared blocks (`common`) and of each measurement core (`fridge`,
//! `finecomb`), the [`registry`] of every core's builds, and [`emit`], which turns the top modules into
//! Verilog files and a JSON manifest. Every generation-time
//! parameter (hash masks, widths, CSR layouts) comes from the `golden` crate, so the RTL and its reference
//! model cannot drift apart.
//!
//! Style: pipelines are written as `#[hdl_gen]` update functions over [`common::reg::Reg`] registers;
//! the three leaf primitives whose exact Verilog form matters — the RAM array, the hash XOR network
//! (one masked reduction XOR per output bit) and the CSR register bank (a variable number of registers) —
//! are generated text (`Verilog::Custom`, as rust-hdl's own RAM and DFF are), each with a matching
//! rust-hdl `update()`.

/// The golden crate, for the exported build macros (`fridge_core!`, … — [`custom`]).
#[doc(hidden)]
pub use golden;

pub mod axi;
pub mod common;
pub mod custom;
pub mod finecomb;
pub mod fridge;
pub mod heavy_hitters;
pub mod ifpd;
pub mod maple;
pub mod parser;
pub mod reordering;
pub mod emit;
pub mod ip;
pub mod lint;
pub mod registry;
pub mod tops;
pub mod synth_tops;
