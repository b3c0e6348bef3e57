//! Constants and configuration validation shared by golden and RTL.

use std::fmt;

/// Width of packet timestamps at every core input (nanoseconds, wrapping).
pub const TIMESTAMP_BITS: usize = 48;
/// Widest hash key the shared hash units accept (a 104-bit IPv4 5-tuple fits).
pub const KEY_BITS_MAX: usize = 128;
/// Width of the CSR data bus.
pub const CSR_DATA_BITS: usize = 32;
/// Width of the CSR address bus.
pub const CSR_ADDR_BITS: usize = 8;
/// First CSR address of the read-only status/counter window; config registers start at 0.
pub const CSR_STATUS_BASE: u8 = 0x80;
/// Value a read of an unmapped CSR address returns.
pub const CSR_UNMAPPED: u32 = 0;
/// CSR address of every core's read-only identity register (a four-character code, e.g. `FRDG`).
pub const CSR_ID_ADDR: u8 = 0xFE;
/// CSR address of every core's read-only version register (`major << 16 | minor`).
pub const CSR_VERSION_ADDR: u8 = 0xFF;

/// A configuration the hardware cannot be generated or run with.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ConfigError(pub String);

impl fmt::Display for ConfigError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "invalid configuration: {}", self.0)
    }
}

impl std::error::Error for ConfigError {}

/// Checks that `bits` is in `lo..=hi`; `what` names the parameter in the error.
pub fn check_range(what: &str, bits: usize, lo: usize, hi: usize) -> Result<(), ConfigError> {
    if bits < lo || bits > hi {
        Err(ConfigError(format!("{what} = {bits} is outside {lo}..={hi}")))
    } else {
        Ok(())
    }
}
