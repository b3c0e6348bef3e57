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
//!
//! **Timing** ([`RamTiming`], a generation parameter): everything above is the [`RamTiming::Short`] block,
//! whose read data comes from the block RAM's own output. Large tables spread over many DP16KDs, where the
//! address and write nets fan out to every block and the read data needs a wide mux after them; that does
//! not meet 150 MHz (2^16 × 32 bits: 99–118 MHz). [`RamTiming::Registered`] registers both ports (per bank
//! of at most 16 DP16KDs: write enable and read data registered per bank, addresses registered — see the RTL
//! module on which of those synthesis merges) and registers the bank mux: read data arrives
//! [`REGISTERED_READ_LATENCY`] cycles after the address instead of one. Which writes a read sees is unchanged — a read presented in cycle `c` sees every write presented before `c`, and the
//! same-address write presented in `c` makes it undefined — so the registered block is the short one with
//! `rdata` delayed by three more cycles; `busy` and the sweep are the same.

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

/// Read latency of the [`RamTiming::Registered`] block: address register, block RAM, bank register, bank mux
/// register.
pub const REGISTERED_READ_LATENCY: usize = 4;

/// Bits of one bank of a [`RamTiming::Registered`] block by default: 16 DP16KDs of 16 Kib (the data bits
/// only: a 512 × 36 block holds 512 words of up to 32 bits in this count, so wider words get smaller banks).
pub const REGISTERED_BANK_BITS_LOG2: usize = 18;

/// Deepest bank of a [`RamTiming::Registered`] block by default: 2^14 words, a DP16KD's deepest shape
/// (16K × 1). A deeper bank splits its words over blocks by address, so their outputs meet in a mux before
/// the bank's register (a 2^16 × 1 bank, four blocks: 7.9 ns from a block's output to that register in the
/// IFPD's Bloom filter, 127 MHz).
pub const REGISTERED_MAX_BANK_ADDR_BITS: usize = 14;

/// Read/write timing of a RAM (see the module docs); behaviour differs only in the read latency.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum RamTiming {
    /// Read data one cycle after the address (the block RAM's own register). Small tables.
    Short,
    /// Both ports registered per bank of `2^bank_addr_bits` words, bank mux registered: read data
    /// [`REGISTERED_READ_LATENCY`] cycles after the address. Large tables. The bank size changes the
    /// layout only, never the behaviour.
    Registered { bank_addr_bits: usize },
}

impl RamTiming {
    /// The registered timing with the default bank size for `2^addr_bits` words of `width` bits: the
    /// largest power of two of words whose data fits [`REGISTERED_BANK_BITS_LOG2`] (at least 2^9, at most
    /// [`REGISTERED_MAX_BANK_ADDR_BITS`] and the table).
    pub fn registered(addr_bits: usize, width: usize) -> Self {
        let per_word = usize::BITS as usize - (width.max(1) - 1).leading_zeros() as usize; // ceil(log2(width))
        let bank = REGISTERED_BANK_BITS_LOG2.saturating_sub(per_word).clamp(9, REGISTERED_MAX_BANK_ADDR_BITS);
        RamTiming::Registered { bank_addr_bits: bank.min(addr_bits) }
    }
    /// [`RamTiming::registered`] when `registered`, else [`RamTiming::Short`]: a core's per-build switch
    /// (e.g. `IfpdConfig::registered_ram`, `MapleHwConfig::registered_ram`) for one table.
    pub fn chosen(registered: bool, addr_bits: usize, width: usize) -> Self {
        if registered {
            Self::registered(addr_bits, width)
        } else {
            RamTiming::Short
        }
    }
    /// Cycles from the read address to its data on `rdata`.
    pub const fn read_latency(self) -> usize {
        match self {
            RamTiming::Short => 1,
            RamTiming::Registered { .. } => REGISTERED_READ_LATENCY,
        }
    }
    /// Short name for build names and reports: `short` or `reg`.
    pub const fn tag(self) -> &'static str {
        match self {
            RamTiming::Short => "short",
            RamTiming::Registered { .. } => "reg",
        }
    }
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
    pub timing: RamTiming,
    pub width: usize,
    /// Words; `None` = undefined.
    pub mem: Vec<Option<u128>>,
    /// Read data on its way to `rdata`, oldest first: one entry per cycle of read latency.
    rdata: std::collections::VecDeque<Option<u128>>,
    /// Next address the sweep writes; `None` when not sweeping; outer `None` before the first reset.
    sweep: Option<Option<usize>>,
    /// Whether the block sweeps after reset (the report FIFO's storage does not need to).
    pub sweep_enabled: bool,
}

impl SramModel {
    pub fn new(ports: RamPorts, addr_bits: usize, width: usize, sweep_enabled: bool) -> Self {
        Self::with_timing(ports, RamTiming::Short, addr_bits, width, sweep_enabled)
    }
    pub fn with_timing(
        ports: RamPorts,
        timing: RamTiming,
        addr_bits: usize,
        width: usize,
        sweep_enabled: bool,
    ) -> Self {
        SramModel {
            ports,
            timing,
            width,
            mem: vec![None; 1 << addr_bits],
            rdata: vec![None; timing.read_latency()].into(),
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
        let out = SramOutputs { rdata: self.rdata[0], busy: self.busy() };
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
        self.rdata.pop_front();
        self.rdata.push_back(match write {
            Some((a, _)) if a == raddr => None,
            _ => self.mem[raddr],
        });
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

#[cfg(test)]
mod tests {
    use super::*;

    /// The registered block is the short one with `rdata` three cycles later: same random traffic (resets,
    /// same-address read and write, both port kinds), same words.
    #[test]
    fn registered_is_short_delayed() {
        for ports in [RamPorts::Dual, RamPorts::Single] {
            let mut short = SramModel::new(ports, 4, 12, true);
            let timing = RamTiming::registered(4, 12);
            assert_eq!(timing, RamTiming::Registered { bank_addr_bits: 4 });
            let mut reg = SramModel::with_timing(ports, timing, 4, 12, true);
            let mut x = 0x2545_f491_4f6c_dd1du64;
            let mut short_out = Vec::new();
            let mut reg_out = Vec::new();
            for c in 0..5000 {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                let i = SramInputs {
                    reset: c == 0 || x % 997 == 0,
                    raddr: (x >> 8) as usize % 16,
                    we: x & 1 == 1,
                    waddr: (x >> 16) as usize % 16,
                    wdata: (x >> 24) as u128 & 0xfff,
                };
                short_out.push(short.step(&i));
                reg_out.push(reg.step(&i));
            }
            for c in 3..5000 {
                assert_eq!(reg_out[c].rdata, short_out[c - 3].rdata, "{ports:?} cycle {c}");
                assert_eq!(reg_out[c].busy, short_out[c].busy, "{ports:?} cycle {c}");
            }
            assert!(short_out.iter().filter(|o| o.rdata.is_some()).count() > 2000, "defined reads");
        }
    }

    /// The default bank sizes: 16 DP16KD-sized banks, at least 2^9 words, at most 2^14 (no block mux inside a
    /// bank) and the table.
    #[test]
    fn registered_bank_sizes() {
        let bank = |a, w| match RamTiming::registered(a, w) {
            RamTiming::Registered { bank_addr_bits } => bank_addr_bits,
            RamTiming::Short => unreachable!(),
        };
        assert_eq!(bank(16, 32), 13);
        assert_eq!(bank(13, 129), 10);
        assert_eq!(bank(12, 1), 12);
        assert_eq!(bank(16, 1), 14);
        assert_eq!(bank(16, 8), 14);
        assert_eq!(bank(15, 4096), 9);
        assert_eq!(RamTiming::Short.read_latency(), 1);
        assert_eq!(RamTiming::registered(10, 32).read_latency(), REGISTERED_READ_LATENCY);
    }
}
