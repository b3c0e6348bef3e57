//! The registry of cores: one list, [`CORES`], of every core and shared block with its builds.
//!
//! A *build* is one top module of a core at one configuration: its module name, description,
//! generation parameters (for the manifest), whether it is emitted (and so linted and co-simulated) or
//! test-only, whether and how it is synthesized, and a generator that turns it into Verilog. Every
//! consumer iterates [`CORES`]: Verilog emission and the manifest ([`crate::emit::all_tops`]), the
//! synthesis configurations ([`crate::synth_tops::configs`]), the testbench's Verilator build (through
//! `all_tops`), `netmeas verilog` and `netmeas synth`.
//!
//! A core declares its builds in its own folder (`hdl/src/<core>/builds.rs`: e.g. [`crate::fridge::builds`])
//! and adds one line to [`CORES`]; the generics of a core's RTL are written once there, the derived ones
//! computed from the configuration's independent parameters by `const fn`s in `golden` (the way
//! rust-hdl's `declare_sync_fifo!` computes a FIFO's widths).

use crate::emit::{generate, parse_ports, TopInfo};
use golden::common::config::ConfigError;
use rust_hdl::prelude::Block;
use serde::Serialize;
use std::collections::BTreeMap;

/// A memory array the algorithm itself needs (its theoretical storage), as opposed to what the flow maps
/// it to. The synthesis report compares `entries × width` with the block RAM bits actually used.
#[derive(Debug, Clone, Serialize)]
pub struct MemoryNeed {
    pub name: String,
    pub entries: u64,
    pub width: u64,
}

impl MemoryNeed {
    /// `entries × width`.
    pub fn bits(&self) -> u64 {
        self.entries * self.width
    }
    /// A memory of `entries` words of `width` bits.
    pub fn new(name: impl Into<String>, entries: u64, width: u64) -> Self {
        MemoryNeed { name: name.into(), entries, width }
    }
}

/// How a build is synthesized by `netmeas synth`.
#[derive(Debug, Clone)]
pub struct SynthUse {
    /// Configuration name as `netmeas synth --config` takes it (unique within the core).
    pub config: String,
    /// Whether the configuration accepts one packet per cycle (the 150 MHz target applies to these).
    pub ii1: bool,
    /// Memories the algorithm needs.
    pub memories: Vec<MemoryNeed>,
    /// Read with `NETMEAS_ECP5` defined: registered RAM banks as DP16KD tiles whose own output register
    /// is the bank register (`crate::common::sram_ecp5`). Per configuration, by measurement: it removes
    /// the block RAM's 4.3 ns unregistered output from the IFPD's paths (d4_a12, seed 1: 159.8 MHz against
    /// 145.5), but the RMW rows at 2^16 placed worse with it (seed 1: dual-port 134.9 against 147.2 MHz,
    /// single-port 149.0 against 155.4).
    pub ecp5_bram: bool,
}

/// What a build needs to run at line rate, as its manifest states it (`netmeas generate`).
#[derive(Debug, Clone)]
pub struct Resources {
    /// One packet per cycle (else one per two).
    pub ii1: bool,
    /// Memories the algorithm needs.
    pub memories: Vec<MemoryNeed>,
    /// Latency paths, measured on the core's golden cycle model (`<core>::cycle::latency`; empty for a core
    /// without a per-packet output, e.g. FineComb, whose records come at readout).
    pub latency: Vec<golden::common::latency::Latency>,
}

/// Stack of the thread that generates a top's Verilog ([`Build::generate`]); only the touched pages are
/// committed.
pub const GENERATOR_STACK: usize = 64 << 20;

type Generator = Box<dyn Fn(&str) -> Result<String, String> + Send + Sync>;

/// One top module of a core at one configuration.
pub struct Build {
    /// Module name (`<name>.v`; submodules are `<name>$<path>`).
    pub name: String,
    pub description: String,
    /// Generation parameters, as the manifest lists them.
    pub params: BTreeMap<String, serde_json::Value>,
    /// Built only for the test suite (e.g. a deliberately broken variant), never for synthesis.
    pub test_only: bool,
    /// Emitted by `netmeas verilog` (and so linted and co-simulated); `false` for synthesis-only builds.
    pub emitted: bool,
    /// Synthesized by `netmeas synth`, as this configuration.
    pub synth: Option<SynthUse>,
    /// Initiation interval and memories (a synthesized build's are its [`SynthUse`]'s).
    pub resources: Option<Resources>,
    /// The register map of the top's CSR port (from the core's golden model).
    pub csr: Option<golden::common::csr::CsrLayout>,
    /// The register maps of its prefixed CSR ports (`<prefix>csr_*`): `(prefix, map)`.
    pub csr_ports: Vec<(String, golden::common::csr::CsrLayout)>,
    generator: Generator,
}

impl Build {
    /// An emitted build: `make` constructs the rust-hdl top (a configuration error becomes the build's
    /// error, naming the module).
    pub fn new<U, F>(name: impl Into<String>, description: impl Into<String>, params: impl Serialize, make: F) -> Self
    where
        U: Block,
        F: Fn() -> Result<U, ConfigError> + Send + Sync + 'static,
    {
        let params = match serde_json::to_value(params) {
            Ok(serde_json::Value::Object(m)) => m.into_iter().collect(),
            _ => BTreeMap::new(),
        };
        Build::verilog(name, description, params, move |module| {
            generate(module, make().map_err(|e| format!("{module}: {e}"))?)
        })
    }
    /// A build whose Verilog `make(module)` writes as text (e.g. the AXI flavour of another build:
    /// `crate::ip::axi_build`); it runs with the initial-values switch of [`Self::generate`] set.
    pub fn verilog<F>(
        name: impl Into<String>,
        description: impl Into<String>,
        params: BTreeMap<String, serde_json::Value>,
        make: F,
    ) -> Self
    where
        F: Fn(&str) -> Result<String, String> + Send + Sync + 'static,
    {
        Build {
            name: name.into(),
            description: description.into(),
            params,
            test_only: false,
            emitted: true,
            synth: None,
            resources: None,
            csr: None,
            csr_ports: Vec::new(),
            generator: Box::new(make),
        }
    }
    /// Declares the top's register map (published in the manifest, as Markdown and as a C header).
    pub fn csr(mut self, layout: golden::common::csr::CsrLayout) -> Self {
        self.csr = Some(layout);
        self
    }
    /// Declares the register map of the top's CSR port `<prefix>csr_*` (a top with several, e.g. the
    /// reordering hybrid's `hh_`, `side_`, `smp_`).
    pub fn csr_port(mut self, prefix: &str, layout: golden::common::csr::CsrLayout) -> Self {
        self.csr_ports.push((prefix.to_string(), layout));
        self
    }
    /// States the build's initiation interval (`ii1`: one packet per cycle) and memories.
    pub fn resources(mut self, ii1: bool, memories: Vec<MemoryNeed>) -> Self {
        self.resources = Some(Resources { ii1, memories, latency: vec![] });
        self
    }
    /// States the build's latency paths (after [`Self::resources`]: calling it first is a mistake in the
    /// core's build list, which the registry's tests hit).
    pub fn latency(mut self, paths: Vec<golden::common::latency::Latency>) -> Self {
        let r = self.resources.as_mut();
        r.unwrap_or_else(|| panic!("{}: Build::latency before Build::resources", self.name)).latency = paths;
        self
    }
    /// Replaces the description.
    pub fn with_description(mut self, description: impl Into<String>) -> Self {
        self.description = description.into();
        self
    }
    /// Marks the build test-only (emitted for the test suite only, never synthesized).
    pub fn test_only(mut self) -> Self {
        self.test_only = true;
        self
    }
    /// Also synthesizes the build as configuration `config`.
    pub fn synth(mut self, config: impl Into<String>, ii1: bool, memories: Vec<MemoryNeed>) -> Self {
        self.resources.get_or_insert(Resources { ii1, memories: memories.clone(), latency: vec![] });
        self.synth = Some(SynthUse { config: config.into(), ii1, memories, ecp5_bram: false });
        self
    }
    /// Synthesizes the build with the ECP5 block-RAM flavour ([`SynthUse::ecp5_bram`]); after `synth`.
    pub fn ecp5_bram(mut self) -> Self {
        if let Some(s) = self.synth.as_mut() {
            s.ecp5_bram = true;
        }
        self
    }
    /// Synthesizes the build only (not emitted, linted or co-simulated: e.g. the same RTL at a table size
    /// too large to co-simulate), as configuration `config` of `core`; the module is `<core>_<config>`.
    pub fn synth_only(mut self, core: &str, config: impl Into<String>, ii1: bool, memories: Vec<MemoryNeed>) -> Self {
        let config = config.into();
        self.name = format!("{core}_{config}");
        self.emitted = false;
        self.synth(config, ii1, memories)
    }
    /// Generates the top's Verilog (with `initial` values or without, for co-simulation).
    ///
    /// Runs on a thread of its own with a [`GENERATOR_STACK`] stack: a generator builds a whole core by value
    /// and walks it, and `hdl` is compiled at opt-level 0 (workspace Cargo.toml), whose stack frames are
    /// large — the largest tops need more than the 2 MiB of a test or rayon thread (measured: 2 MiB
    /// overflows, 4 MiB suffices for every top).
    pub fn generate(&self, initial: bool) -> Result<TopInfo, String> {
        let verilog = std::thread::scope(|s| {
            let worker = std::thread::Builder::new()
                .name(format!("generate {}", self.name))
                .stack_size(GENERATOR_STACK)
                .spawn_scoped(s, || crate::common::reg::with_initial_values(initial, || (self.generator)(&self.name)))
                .map_err(|e| format!("{}: cannot start the generator thread: {e}", self.name))?;
            worker.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic))
        })?;
        Ok(TopInfo { ports: parse_ports(&self.name, &verilog), verilog, ..self.info() })
    }
    /// The top's manifest entry without generating it: no ports, no Verilog.
    pub fn info(&self) -> TopInfo {
        TopInfo {
            ports: Vec::new(),
            name: self.name.clone(),
            description: self.description.clone(),
            test_only: self.test_only,
            params: self.params.clone(),
            csr: self.csr.clone(),
            csr_ports: self.csr_ports.clone(),
            verilog: String::new(),
        }
    }
}

/// A core (or shared block) and its builds.
pub struct Core {
    /// Name as `netmeas synth --core` takes it.
    pub name: &'static str,
    /// Its builds, in emission order.
    pub builds: fn() -> Result<Vec<Build>, String>,
    /// Its generation parameters, when `netmeas generate` offers any configuration of it
    /// ([`crate::custom`]); the first build is the default configuration.
    pub custom: Option<crate::custom::Custom>,
}

/// Every core and shared block, in emission order. A new core adds one line.
pub const CORES: &[Core] = &[
    Core { name: "hash", builds: crate::common::builds::hash, custom: None },
    Core { name: "prng", builds: crate::common::builds::prng, custom: None },
    Core { name: "sram", builds: crate::common::builds::sram, custom: None },
    Core { name: "rmw", builds: crate::common::builds::rmw, custom: None },
    Core { name: "multi_rmw", builds: crate::common::builds::multi_rmw, custom: None },
    Core { name: "fifo", builds: crate::common::builds::fifo, custom: None },
    Core { name: "delay", builds: crate::common::builds::delay, custom: None },
    Core { name: "fridge", builds: crate::fridge::builds::builds, custom: Some(crate::fridge::builds::PARAMS) },
    Core { name: "finecomb", builds: crate::finecomb::builds::builds, custom: Some(crate::finecomb::builds::PARAMS) },
    Core {
        name: "heavy_hitters",
        builds: crate::heavy_hitters::builds::builds,
        custom: Some(crate::heavy_hitters::builds::PARAMS),
    },
    Core {
        name: "reordering",
        builds: crate::reordering::builds::builds,
        custom: Some(crate::reordering::builds::PARAMS),
    },
    Core { name: "ifpd", builds: crate::ifpd::builds::builds, custom: Some(crate::ifpd::builds::PARAMS) },
    Core { name: "maple", builds: crate::maple::builds::builds, custom: Some(crate::maple::builds::PARAMS) },
    Core { name: "parser", builds: crate::parser::builds::builds, custom: None },
    Core { name: "csr", builds: crate::common::builds::csr, custom: None },
    Core { name: "axil_csr", builds: crate::common::builds::axil_csr, custom: None },
    Core { name: "axi", builds: crate::ip::axi_builds, custom: None },
];

/// The core called `name`, or an error listing the known ones.
pub fn core(name: &str) -> Result<&'static Core, String> {
    CORES.iter().find(|c| c.name == name).ok_or_else(|| {
        let names: Vec<&str> = CORES.iter().map(|c| c.name).collect();
        format!("unknown core `{name}`; known: all, {}", names.join(", "))
    })
}

/// Checks that every `(name, configuration)` of a core reads back from its build's manifest parameters (what
/// the testbench does with the manifest, `testbench::harness::top_config`).
pub fn check_manifest_configs<C>(core: &str, configs: &[(&str, C)]) -> Result<(), String>
where
    C: serde::de::DeserializeOwned + PartialEq + std::fmt::Debug,
{
    let builds = (self::core(core)?.builds)()?;
    for (name, cfg) in configs {
        let b = builds.iter().find(|b| b.name == *name).ok_or_else(|| format!("no build {name} in {core}"))?;
        let params = serde_json::Value::Object(b.params.clone().into_iter().collect());
        let back: C = serde_json::from_value(params).map_err(|e| format!("{name}: {e}"))?;
        if back != *cfg {
            return Err(format!("{name}: the manifest gives {back:?}, the build is {cfg:?}"));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn module_names_are_unique_and_synth_configs_unique_per_core() {
        let mut names = std::collections::BTreeSet::new();
        for c in CORES {
            let mut configs = std::collections::BTreeSet::new();
            for b in (c.builds)().unwrap() {
                assert!(names.insert(b.name.clone()), "module {} declared twice", b.name);
                if let Some(s) = &b.synth {
                    assert!(!b.test_only, "{}: a test-only build is never synthesized", b.name);
                    assert!(configs.insert(s.config.clone()), "{}: synth config {} twice", c.name, s.config);
                }
                assert!(b.emitted || b.synth.is_some(), "{}: neither emitted nor synthesized", b.name);
            }
        }
    }

    #[test]
    fn unknown_core_is_a_clear_error() {
        let e = core("nope").err().unwrap();
        assert!(e.contains("unknown core `nope`") && e.contains("fridge"), "{e}");
    }
}
