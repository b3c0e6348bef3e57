//! `netmeas replay FILE --core <core> [options] [-- <the core's run options>]`: a core's experiment on a
//! capture whose frames go through the header parser (see the module docs of [`super`]). The core's
//! options are those of `netmeas run <core>`, after `--`; `--engine` is replay's own and runs both the
//! parser and the core on that engine. The replay's summary (frames, beats, cycles, the parser's drop
//! counters) goes to stderr after the experiment's output, so `--json` on stdout stays one document.

use super::replay::ReplaySpec;
use crate::cli::CoreCli;
use crate::traffic::packet::Via;
use crate::Engine;
use clap::Args;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};

/// `netmeas replay`'s options.
#[derive(Args, Debug, Clone)]
pub struct ReplayArgs {
    /// The capture (pcap or pcapng, plain or gzip-compressed; Ethernet link type): every frame goes onto the
    /// parser's AXI4-Stream bus byte for byte (frames under 60 bytes padded to 60 as a MAC pads them), its
    /// capture time in tuser (PTP format, ns in bits 63:16).
    pub file: PathBuf,
    /// The core whose experiment takes the parser's output: the cores whose `netmeas run` takes a capture
    /// (fridge, heavy-hitters, ifpd, maple, reordering).
    #[arg(long)]
    pub core: String,
    /// `golden` (the cycle models of the parser and its descriptor stage, then the core's golden model) or
    /// `rtl` (the Verilated parser and descriptor stage, checked against their cycle models every cycle, then
    /// the core's RTL engine). On both, the stage's descriptors are checked equal to the records'.
    #[arg(long, default_value = "golden", value_parser = ["golden", "rtl"])]
    pub engine: String,
    /// The parser's AXI4-Stream data width in bits: 64 (10 GbE, the `parser_d8` build) or 512 (`parser_d64`).
    #[arg(long, default_value_t = 64)]
    pub bus_bits: usize,
    /// Probability (0..=0.99) that a cycle on the parser's input is idle (tvalid low), between or inside
    /// frames.
    #[arg(long, default_value_t = 0.0)]
    pub gaps: f64,
    /// Probability (0..=0.99) that the descriptor stage's output lanes are held (not ready) in a cycle; the
    /// stage then holds the parser once its 8-entry FIFO is full, the parser its input once its 16-record
    /// FIFO is, and nothing is lost.
    #[arg(long, default_value_t = 0.0)]
    pub backpressure: f64,
    /// Seed of the gaps, the backpressure and the RTL's random initial state.
    #[arg(long, default_value_t = 1)]
    pub replay_seed: u64,
    /// The core's `netmeas run <core>` options (after `--`), e.g. `-- --memory 4096 --seeds 1 --json`.
    #[arg(last = true)]
    pub core_args: Vec<String>,
}

/// Runs `netmeas replay`.
pub fn run(a: &ReplayArgs, cores: &[&dyn CoreCli]) -> Result<(), String> {
    let spec = ReplaySpec {
        engine: if a.engine == "rtl" { Engine::Rtl } else { Engine::Golden },
        bus_bits: a.bus_bits,
        gaps: a.gaps,
        backpressure: a.backpressure,
        seed: a.replay_seed,
        // The fridge's `--tcp-mode` sets the stage's mode where the fridge reads its trace.
        syn_mode: false,
    };
    spec.check()?;
    let core = cores.iter().find(|c| c.name() == a.core).ok_or_else(|| {
        let names: Vec<&str> = cores.iter().map(|c| c.name()).collect();
        format!("--core {}: one of {}", a.core, names.join(", "))
    })?;
    let log: Arc<Mutex<Vec<String>>> = Default::default();
    let via = Via::Parser { spec, log: log.clone() };
    let file = a.file.to_str().ok_or_else(|| format!("{}: not a UTF-8 path", a.file.display()))?;
    let result = core.replay(file, &a.engine, &a.core_args, via);
    for line in log.lock().map(|l| l.clone()).unwrap_or_default() {
        eprintln!("{line}");
    }
    result
}

/// `netmeas demo`'s replay section: the shared capture (if it is beside the checkout) byte for byte through
/// the Verilated parser and descriptor stage — 64-bit bus, input gaps and lane backpressure, checked against
/// their cycle models every cycle — and on into the fridge's RTL core, its experiment table and the replay's
/// summary.
pub fn demo(seed: u64, cores: &[&dyn CoreCli]) -> Result<(), String> {
    let Some(file) = crate::traffic::capture::shared_capture() else {
        println!("\n(the shared capture is not beside the checkout: replay skipped)");
        return Ok(());
    };
    println!(
        "\nreplay: {} frame by frame through the RTL header parser and descriptor stage (64-bit AXI4-Stream, idle \
         input cycles 10 %, descriptor lanes held 20 %; every cycle checked against the cycle models, the stage's \
         fridge descriptors against the records'), into the RTL fridge (`netmeas replay FILE --core fridge \
         --engine rtl`; equal to `run fridge --trace FILE --engine rtl`)",
        file.display()
    );
    let a = ReplayArgs {
        file,
        core: "fridge".into(),
        engine: "rtl".into(),
        bus_bits: 64,
        gaps: 0.1,
        backpressure: 0.2,
        replay_seed: seed,
        core_args: ["--seeds", "1", "--seed"].iter().map(|s| s.to_string()).chain([seed.to_string()]).collect(),
    };
    run(&a, cores)
}
