//! SRAM register file: dual-port (one read and one write port per cycle) or single-port (one access per
//! cycle), registered read data, zero-initialised and swept to zero after reset.
//!
//! Timing, identical for both kinds (RTL `hdl::common::sram::Sram`):
//! - read: the address presented in cycle `c` is read at the edge ending `c`; `rdata` shows it in `c+1`.
//! - write: `we`/`waddr`/`wdata` in cycle `c` write at the edge ending `c`. A read of the same address in
//!   the same cycle returns an *undefined* word: the array is marked `(* no_rw_check *)`, so synthesis may
//!   map it to a block RAM in any read-during-write mode. Users forward around it (the RMW pipeline and the
//!   report FIFO do); the co-simulation Verilog returns random bits there to prove they do.
//! - single-port: the one address is `waddr` when `we`, else `raddr`; the read data of a writing cycle is
//!   undefined likewise.
//! - sweep: `reset` in cycle `r` makes `busy` true in cycles `r+1 ..= r+depth`, during which the block writes
//!   zero to addresses `0..depth` in order and ignores `we`. No write happens in a reset cycle.
//!
//! Words the RTL leaves undefined (never written since power-up without initial values) are `None` here.

use super::config::ConfigError;
use super::mask128;

/// Port structure of a RAM.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum RamPorts {
    /// One read port and one write port per cycle: cores run at II = 1.
    Dual,
    /// One access per cycle (PISA-like register arrays): cores run at II = 2.
    Single,
}

/// Checks a RAM shape: 1..=16 address bits, 1..=128 data bits.
pub fn check_shape(addr_bits: usize, width: usize) -> Result<(), ConfigError> {
    super::config::check_range("RAM address bits", addr_bits, 1, 16)?;
    super::config::check_range("RAM width", width, 1, 128)
}

#[derive(Debug, Clone, Copy, Default)]
pub struct SramInputs {
    pub reset: bool,
    pub raddr: usize,
    pub we: bool,
    pub waddr: usize,
    pub wdata: u128,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SramOutputs {
    pub rdata: Option<u128>,
    pub busy: Option<bool>,
}

/// Cycle model of the SRAM block.
#[derive(Debug, Clone)]
pub struct SramModel {
    pub ports: RamPorts,
    pub width: usize,
    /// Words; `None` = undefined.
    pub mem: Vec<Option<u128>>,
    rdata: Option<u128>,
    /// Next address the sweep writes; `None` when not sweeping; outer `None` before the first reset.
    sweep: Option<Option<usize>>,
    /// Whether the block sweeps after reset (the report FIFO's storage does not need to).
    pub sweep_enabled: bool,
}

impl SramModel {
    pub fn new(ports: RamPorts, addr_bits: usize, width: usize, sweep_enabled: bool) -> Self {
        SramModel {
            ports,
            width,
            mem: vec![None; 1 << addr_bits],
            rdata: None,
            sweep: if sweep_enabled { None } else { Some(None) },
            sweep_enabled,
        }
    }
    pub fn depth(&self) -> usize {
        self.mem.len()
    }
    /// Busy (sweeping) during this cycle.
    pub fn busy(&self) -> Option<bool> {
        self.sweep.map(|s| s.is_some())
    }

    pub fn step(&mut self, i: &SramInputs) -> SramOutputs {
        let out = SramOutputs { rdata: self.rdata, busy: self.busy() };
        let depth = self.depth();
        // Effective write this cycle.
        let write: Option<(usize, Option<u128>)> = if i.reset {
            None
        } else {
            match self.sweep {
                Some(Some(a)) => Some((a, Some(0))),
                Some(None) if i.we => Some((i.waddr % depth, Some(i.wdata & mask128(self.width)))),
                Some(None) => None,
                // Before the first reset the sweep state is undefined: a sweeping block would write 0 to an
                // unknown address, an idle one would honour `we`. Either way, the written word is unknown.
                None if self.sweep_enabled => {
                    self.mem.iter_mut().for_each(|w| *w = None);
                    None
                }
                None => None,
            }
        };
        let raddr = match (self.ports, write) {
            (RamPorts::Single, Some((a, _))) => a,
            _ => i.raddr % depth,
        };
        self.rdata = match write {
            Some((a, _)) if a == raddr => None,
            _ => self.mem[raddr],
        };
        if let Some((a, d)) = write {
            self.mem[a] = d;
        }
        self.sweep = if i.reset && self.sweep_enabled {
            Some(Some(0))
        } else {
            match self.sweep {
                Some(Some(a)) if a + 1 < depth => Some(Some(a + 1)),
                Some(Some(_)) => Some(None),
                s => s,
            }
        };
        out
    }
}
