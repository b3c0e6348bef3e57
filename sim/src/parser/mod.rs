//! The header parser's control plane (issue 18): `netmeas replay` streams a capture's Ethernet frames byte
//! for byte through the parser and the descriptor stage behind it — their cycle models or their Verilated
//! RTL, under idle gaps and backpressure; the stage's descriptors checked equal to the records' — and
//! hands the TCP segments of its records to a core's experiment exactly where `netmeas run <core>
//! --trace FILE` hands the segments its software reader decodes ([`crate::traffic::packet::Decoder`]).
//! On a capture within the hardware's limits the two give the same segments, so the same core input and
//! the same numbers (the tests assert it).
//!
//! - [`replay`]: frames, padding, timestamps, the engines ([`replay_capture`]).
//! - [`cli`]: `netmeas replay FILE --core <core> [replay options] [-- <core's run options>]`.

pub mod cli;
pub mod replay;

pub use replay::{replay_capture, ReplaySpec, Replayed};
