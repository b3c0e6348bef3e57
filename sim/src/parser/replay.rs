//! A capture's frames through the header parser, byte for byte, as a MAC would hand them over: the frames
//! of `netmeas replay` (and of any experiment given [`crate::traffic::packet::Decoder::Parser`]).
//!
//! - **Frames.** Only Ethernet captures (link type 1) carry what the parser's bus carries; any other link
//!   type is an error (`netmeas run <core> --trace FILE` reads those in software). A frame is its captured
//!   bytes — a capture cut by its snap length is replayed as the cut frame, which the parser marks `short`
//!   and still parses from the IP length. A frame shorter than 60 bytes is **padded with zero bytes to
//!   60** ([`MIN_FRAME`]): a capture on the sending host shows frames before the MAC pads them (a TCP RST
//!   or a pure ACK without options is 54 bytes), but the wire and the receiving MAC only ever carry 60 or
//!   more; padding past the IP length is ignored by the parser, as on the wire. How many were padded is
//!   counted ([`Replayed::padded`]).
//! - **Timestamps.** Each frame's capture time in ns goes into `tuser` in the 64-bit PTP format of
//!   verilog-ethernet (ns in bits 63:16); the parser's record carries bits 63:16, the cores' 48-bit ns
//!   (ns modulo 2^48, about 78 hours). The control plane extends it back to 64 bits as a driver extends a
//!   wrapping hardware counter ([`extend_timestamp`]): the nearest value to the previous frame's time with
//!   those 48 bits, the first frame measured from the capture's first timestamp (the clock's epoch, which
//!   software knows). Exact while consecutive frames are less than 2^47 ns (39 hours) apart. A frame without
//!   a timestamp (a pcapng Simple Packet Block) is sent with `tuser` 0 and reported without one.
//! - **Memory.** The capture's frames are held in memory while the parser runs (the shared capture's 510 591
//!   frames of ≤ 128 bytes: ~70 MB).
//! - **Engines.** [`Engine::Golden`]: the cycle models of the parser (`golden::parser::cycle`) and of the
//!   descriptor stage behind it (`golden::parser::desc`); [`Engine::Rtl`]: the Verilated parser build of
//!   the bus width and `parser_desc` wired behind it, both checked against their cycle models every cycle
//!   on the way. Both run the same stimulus ([`golden::parser::driver`]): idle input cycles with
//!   probability `gaps`, the stage's two lanes held with probability `backpressure` (the parser is held by
//!   the stage's credits), from a seeded PRNG.
//! - **Descriptors.** The stage's lanes are checked equal, descriptor for descriptor, to the descriptors of
//!   the records' TCP segments (`golden::parser::driver::Lanes::check`, in the fridge mode of
//!   [`ReplaySpec::syn_mode`]) — the ones the core's experiment derives from the records, the same
//!   functions as the software path (`golden::parser::descriptors`); a difference is an error.

use crate::traffic::capture::{self, linktype};
use crate::traffic::packet::FrameOrder;
use crate::Engine;
use golden::parser::cycle::Record;
use golden::parser::driver::{run_frontend_model, FrontendRun, Lanes, Stimulus};
use golden::parser::Counters;
use golden::parser::TcpMode;
use std::path::Path;

/// Frames shorter than this (the Ethernet minimum without FCS) are padded to it.
pub const MIN_FRAME: usize = 60;

/// The widths of the parser's builds, in bits (`parser_d8`, `parser_d64`).
pub const BUS_BITS: [usize; 2] = [64, 512];

/// How a replay streams frames through the parser.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ReplaySpec {
    pub engine: Engine,
    /// The AXI4-Stream data width: 64 (10 GbE at 156.25 MHz) or 512 bits.
    pub bus_bits: usize,
    /// Probability of an idle input cycle (`tvalid` low between or inside frames).
    pub gaps: f64,
    /// Probability that the record output is held (`rec_ready` low) in a cycle.
    pub backpressure: f64,
    /// Seed of the gaps and backpressure (and of the RTL's random initial state).
    pub seed: u64,
    /// The descriptor stage's fridge mode (`syn_mode`: SYN → SYN-ACK; else data → ACK): the fridge's
    /// `--tcp-mode` sets it, the other cores read the flow lane, which has no mode.
    pub syn_mode: bool,
}

impl Default for ReplaySpec {
    fn default() -> Self {
        ReplaySpec { engine: Engine::Golden, bus_bits: 64, gaps: 0.0, backpressure: 0.0, seed: 1, syn_mode: false }
    }
}

impl ReplaySpec {
    /// What is wrong with the settings, if anything (before any file is read).
    pub fn check(&self) -> Result<(), String> {
        if !BUS_BITS.contains(&self.bus_bits) {
            return Err(format!("--bus-bits {}: the parser is built for 64 and 512 bits", self.bus_bits));
        }
        self.engine.check()?;
        self.stimulus().check()
    }

    /// What the replay drives onto the parser's bus.
    pub fn stimulus(&self) -> Stimulus {
        Stimulus { data_bytes: self.bus_bits / 8, gaps: self.gaps, backpressure: self.backpressure, seed: self.seed }
    }

    /// The parser build's name.
    pub fn build(&self) -> String {
        format!("parser_d{}", self.bus_bits / 8)
    }

    /// The descriptor stage's fridge mode.
    pub fn tcp_mode(&self) -> TcpMode {
        golden::parser::desc::mode_of(self.syn_mode)
    }
}

/// One frame's outcome.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ReplayedFrame {
    /// The frame's number in the file (from 1, as Wireshark counts).
    pub number: u64,
    /// The frame's time in ns, extended from the record's 48 bits; `None` if the capture had none.
    pub timestamp: Option<u64>,
    /// The frame's length on the wire, from the capture (not seen by the parser).
    pub wire_len: u32,
    pub record: Record,
}

/// A capture's replay: a record per frame, and what it took.
#[derive(Debug, Clone)]
pub struct Replayed {
    pub frames: Vec<ReplayedFrame>,
    /// Clock cycles the parser ran.
    pub cycles: u64,
    /// Bus beats the frames took.
    pub beats: u64,
    /// Frames padded to [`MIN_FRAME`] bytes.
    pub padded: u64,
    /// The parser's statistics over the replay (what its CSR counters hold at the end).
    pub counters: Counters,
    /// The descriptors the descriptor stage gave (checked equal to the records' segments' descriptors).
    pub lanes: Lanes,
    pub spec: ReplaySpec,
}

impl Replayed {
    /// One line for a terminal.
    pub fn summary(&self) -> String {
        let c = &self.counters;
        let drops: Vec<String> = golden::parser::Drop::ALL
            .iter()
            .filter(|&&d| c.dropped(d) > 0)
            .map(|&d| format!("{} {}", d.name(), c.dropped(d)))
            .collect();
        format!(
            "replay through {} ({}, gaps {}, backpressure {}): {} frames ({} padded to {MIN_FRAME} bytes) in {} beats, \
             {} cycles ({:.3} frames/cycle); accepted {} (short {}); dropped: {}; descriptor stage ({:?}): {} fridge \
             and {} flow descriptors, equal to the records' ({})",

            self.spec.build(),
            self.spec.engine.name(),
            self.spec.gaps,
            self.spec.backpressure,
            self.frames.len(),
            self.padded,
            self.beats,
            self.cycles,
            self.frames.len() as f64 / self.cycles.max(1) as f64,
            c.accepted,
            c.short,
            if drops.is_empty() { "none".to_string() } else { drops.join(", ") },
            self.spec.tcp_mode(),
            self.lanes.fridge.len(),
            self.lanes.flow.len(),
            if self.spec.engine == Engine::Rtl { "parser_desc RTL" } else { "cycle model" },
        )
    }
}

/// The 64-bit time whose low 48 bits are `ts48` nearest to `reference` (see the module docs).
pub fn extend_timestamp(reference: u64, ts48: u64) -> u64 {
    const M: u64 = 1 << 48;
    let delta = ts48.wrapping_sub(reference) & (M - 1);
    // delta in [0, 2^48): forward if below half the range, else backward.
    if delta < M / 2 {
        reference.wrapping_add(delta)
    } else {
        reference.wrapping_sub(M - delta)
    }
}

/// Streams the Ethernet capture `path` through the parser as `spec` says, its frames in `order` (see the
/// module docs); the result's frames are in that order.
pub fn replay_capture(path: &Path, spec: &ReplaySpec, order: FrameOrder) -> Result<Replayed, String> {
    spec.check()?;
    let name = path.display();
    let (mut frames, mut meta) = (Vec::new(), Vec::new());
    let mut padded = 0;
    capture::for_each_frame(path, |f| {
        if f.link_type != linktype::ETHERNET {
            return Err(format!(
                "{name}: frame {} has link type {}; replay streams Ethernet frames (link type {}) through the \
                 parser — `netmeas run <core> --trace FILE` reads the other link types in software",
                f.number,
                f.link_type,
                linktype::ETHERNET
            ));
        }
        let mut bytes = f.data.to_vec();
        if bytes.len() < MIN_FRAME {
            bytes.resize(MIN_FRAME, 0);
            padded += 1;
        }
        frames.push((bytes, f.timestamp_ns.map_or(0, |t| t << 16)));
        meta.push((f.number, f.timestamp_ns, f.orig_len));
        Ok(())
    })?;
    if order != FrameOrder::File {
        let perm = order.permutation(&meta.iter().map(|m| m.1).collect::<Vec<_>>());
        frames = perm.iter().map(|&i| std::mem::take(&mut frames[i])).collect();
        meta = perm.iter().map(|&i| meta[i]).collect();
    }
    let bytes = spec.bus_bits / 8;
    // A spinner while the engine runs (hidden when stderr is not a terminal).
    let bar = indicatif::ProgressBar::new_spinner();
    bar.set_message(format!("{} frames through {} ({})", frames.len(), spec.build(), spec.engine.name()));
    bar.enable_steady_tick(std::time::Duration::from_millis(200));
    let run = match spec.engine {
        Engine::Golden => run_frontend_model(&frames, &spec.stimulus(), spec.syn_mode),
        Engine::Rtl => rtl(&frames, &spec.stimulus(), spec.syn_mode),
    };
    bar.finish_and_clear();
    let FrontendRun { records, lanes, cycles } = run?;
    lanes
        .check(&records, spec.tcp_mode())
        .map_err(|e| format!("{name}: the descriptor stage's output is not the records' descriptors: {e}"))?;
    let beats = frames.iter().map(|(b, _)| b.len().div_ceil(bytes) as u64).sum();
    let mut counters = Counters::default();
    let mut reference = meta.iter().find_map(|m| m.1).unwrap_or(0);
    let frames = records
        .into_iter()
        .zip(meta)
        .map(|(record, (number, ts, wire_len))| {
            record.count_into(&mut counters);
            let timestamp = ts.map(|_| {
                reference = extend_timestamp(reference, record.timestamp);
                reference
            });
            ReplayedFrame { number, timestamp, wire_len, record }
        })
        .collect();
    Ok(Replayed { frames, cycles, beats, padded, counters, lanes, spec: *spec })
}

#[cfg(feature = "rtl")]
fn rtl(frames: &[(Vec<u8>, u64)], s: &Stimulus, syn_mode: bool) -> Result<FrontendRun, String> {
    testbench::parser::replay(frames, s, syn_mode)
}

#[cfg(not(feature = "rtl"))]
fn rtl(_: &[(Vec<u8>, u64)], _: &Stimulus, _: bool) -> Result<FrontendRun, String> {
    Err(crate::RTL_MISSING.into())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn timestamps_extend_across_the_48_bit_wrap_both_ways() {
        const M: u64 = 1 << 48;
        let base = 1_700_000_000_000_000_000u64;
        // Exact within half the 48-bit range either side of the reference.
        for t in [base, base + 5, base + M / 2 - 1, base - M / 2, base - 3] {
            assert_eq!(extend_timestamp(base, t % M), t, "{t}");
        }
        // Beyond it the nearest value wins (a frame 2^48 − 1 ns later reads as 1 ns earlier).
        assert_eq!(extend_timestamp(base, (base + M - 1) % M), base - 1);
        // Across a wrap of the low bits.
        let r = (base | (M - 1)) - 10;
        assert_eq!(extend_timestamp(r, (r + 25) % M), r + 25);
        assert_eq!(extend_timestamp(r + 25, r % M), r);
    }

    #[test]
    fn bad_settings_are_clear_errors() {
        let bad = |s: ReplaySpec| s.check().unwrap_err();
        assert!(bad(ReplaySpec { bus_bits: 128, ..Default::default() }).contains("64 and 512"));
        assert!(bad(ReplaySpec { gaps: 1.0, ..Default::default() }).contains("--gaps"));
        assert!(bad(ReplaySpec { backpressure: f64::NAN, ..Default::default() }).contains("--backpressure"));
    }
}
