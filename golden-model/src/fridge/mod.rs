//! Fridge core (Zheng, "Compact Algorithms for Measuring Network Performance", ch. 2): unbiased delay
//! distributions from a hash-indexed request table with survivorship-bias correction.
//!
//! This module holds the packet descriptor and report types shared by the traffic generators, the golden
//! model, the RTL and the estimators.

use serde::{Deserialize, Serialize};

/// Width of a request/response identifier (e.g. a 104-bit 5-tuple plus sequence bits).
pub const ID_BITS: usize = 128;

/// Whether a packet opens (request) or closes (response) a measurement.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum PacketKind {
    Request,
    Response,
}

/// One packet as the core sees it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Descriptor {
    pub kind: PacketKind,
    /// Identifier shared by a request and its response.
    pub id: u128,
    /// Arrival time in nanoseconds; only the low 48 bits ([`crate::common::config::TIMESTAMP_BITS`]) reach
    /// the hardware, and they wrap.
    pub timestamp: u64,
}
