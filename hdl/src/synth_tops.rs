//! What `netmeas synth` synthesizes: every build of [`crate::registry::CORES`] that has a synthesis
//! configuration ([`crate::registry::Build::synth`]), generated with initial values (what an FPGA flow sees).
//!
//! Module names are `<core>_<config>` for synthesis-only builds and the emitted name otherwise, so several
//! configurations of one core sit side by side in one output directory.

use crate::emit::TopInfo;
pub use crate::registry::MemoryNeed;

/// One synthesis configuration of one core.
#[derive(Debug, Clone)]
pub struct SynthConfig {
    /// Core name as `netmeas synth --core` takes it.
    pub core: &'static str,
    /// Configuration name as `netmeas synth --config` takes it (unique within the core).
    pub config: String,
    /// Whether the configuration accepts one packet per cycle (the 150 MHz target applies to these).
    pub ii1: bool,
    /// The top module (Verilog with initial values).
    pub top: TopInfo,
    /// Memories the algorithm needs.
    pub memories: Vec<MemoryNeed>,
    /// Read with `NETMEAS_ECP5` defined ([`crate::registry::SynthUse::ecp5_bram`]).
    pub ecp5_bram: bool,
}

/// The configurations of `core` (`None` or `"all"`: every core), optionally only those named in `only`
/// (`config` or `core/config`; a name that matches nothing is an error). Only the selected configurations
/// are generated.
pub fn configs(core: Option<&str>, only: &[String]) -> Result<Vec<SynthConfig>, String> {
    let core = core.filter(|c| *c != "all");
    if let Some(c) = core {
        let known: Vec<&str> = list()?.into_iter().map(|(n, _)| n).collect();
        if !known.contains(&c) {
            return Err(format!("unknown core `{c}`; known: all, {}", known.join(", ")));
        }
    }
    let mut out = Vec::new();
    let mut matched = vec![false; only.len()];
    for c in crate::registry::CORES {
        if core.is_some_and(|n| n != c.name) {
            continue;
        }
        for b in (c.builds)()? {
            let Some(s) = b.synth.clone() else { continue };
            // A selector names a configuration (`d4_a4`) or a core's configuration (`ifpd/d4_a4`).
            let hits: Vec<usize> = (0..only.len())
                .filter(|&i| only[i] == s.config || only[i] == format!("{}/{}", c.name, s.config))
                .collect();
            hits.iter().for_each(|&i| matched[i] = true);
            if only.is_empty() || !hits.is_empty() {
                out.push(SynthConfig {
                    core: c.name,
                    config: s.config,
                    ii1: s.ii1,
                    top: b.generate(true)?,
                    memories: s.memories,
                    ecp5_bram: s.ecp5_bram,
                });
            }
        }
    }
    let missing: Vec<&String> = only.iter().zip(&matched).filter(|(_, m)| !**m).map(|(o, _)| o).collect();
    if out.is_empty() || !missing.is_empty() {
        return Err(format!("no configuration matches {:?} in core {}", missing, core.unwrap_or("all")));
    }
    Ok(out)
}

/// Every core with synthesis configurations and their names, without generating anything
/// (`netmeas synth --list`).
pub fn list() -> Result<Vec<(&'static str, Vec<String>)>, String> {
    let mut out = Vec::new();
    for c in crate::registry::CORES {
        let names: Vec<String> = (c.builds)()?.into_iter().filter_map(|b| b.synth.map(|s| s.config)).collect();
        if !names.is_empty() {
            out.push((c.name, names));
        }
    }
    Ok(out)
}
