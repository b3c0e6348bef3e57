//! What every core's `netmeas run <core>` shares: the [`Experiment`] trait a core implements in its own
//! folder (`sim/src/<core>/cli.rs`: its arguments, its seed loop call, its table), the options every
//! experiment takes ([`RunArgs`]), and the seed progress bar. The `netmeas` binary lists the cores once
//! (`CORES` in main.rs) and dispatches `run <core>` and the demo's experiment sections through
//! [`CoreCli`], the object-safe face of [`Experiment`].

use crate::Engine;
use clap::{ArgMatches, Args, Command, FromArgMatches};
use indicatif::{ProgressBar, ProgressStyle};

/// A core's experiment as the CLI runs it.
pub trait Experiment: Sync {
    /// The subcommand: `netmeas run <NAME>`.
    const NAME: &'static str;
    /// Its help text (one paragraph: the list of `netmeas run --help` shows it too).
    const ABOUT: &'static str;
    /// Its options (with [`RunArgs`] flattened in).
    type Args: Args + FromArgMatches;
    /// `netmeas run <NAME>`: the experiment over its seeds, printed as a table or JSON.
    fn run(args: &Self::Args) -> Result<(), String>;
    /// The core's section of `netmeas demo`: a reduced experiment on the RTL engine against ground truth.
    fn demo(seed: u64) -> Result<(), String>;
}

/// [`Experiment`] as a trait object, so the binary can hold its cores in one list.
pub trait CoreCli: Sync {
    fn name(&self) -> &'static str;
    /// The `run` subcommand of this core, with its options and help.
    fn command(&self) -> Command;
    /// Parses the subcommand's matches and runs the experiment.
    fn run(&self, matches: &ArgMatches) -> Result<(), String>;
    fn demo(&self, seed: u64) -> Result<(), String>;
}

impl<E: Experiment> CoreCli for E {
    fn name(&self) -> &'static str {
        E::NAME
    }
    fn command(&self) -> Command {
        E::Args::augment_args(Command::new(E::NAME)).about(E::ABOUT).long_about(None)
    }
    fn run(&self, matches: &ArgMatches) -> Result<(), String> {
        E::run(&E::Args::from_arg_matches(matches).map_err(|e| e.to_string())?)
    }
    fn demo(&self, seed: u64) -> Result<(), String> {
        E::demo(seed)
    }
}

/// Options every `netmeas run <core>` experiment takes.
#[derive(clap::Args, Debug, Clone)]
pub struct RunArgs {
    /// Repetitions, each with fresh random traffic (a new synthetic trace or interval, a new PRNG seed; a
    /// capture file is reused); metrics are averaged over them.
    #[arg(long, default_value_t = 10, value_parser = clap::value_parser!(u64).range(1..=1000))]
    pub seeds: u64,
    /// First seed.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// `golden` (the transaction-level golden model) or `rtl` (the Verilated core, checked against golden
    /// cycle by cycle on the way; only for cores and configurations that have an RTL build).
    #[arg(long, default_value = "golden", value_parser = ["golden", "rtl"])]
    pub engine: String,
}

impl RunArgs {
    /// The `--engine` choice.
    pub fn engine(&self) -> Engine {
        if self.engine == "rtl" {
            Engine::Rtl
        } else {
            Engine::Golden
        }
    }
}

/// A progress bar over seeds (`template` as indicatif's), hidden unless `show`.
pub fn seed_bar(seeds: u64, show: bool, template: &str) -> ProgressBar {
    let bar = if show { ProgressBar::new(seeds) } else { ProgressBar::hidden() };
    bar.set_style(ProgressStyle::with_template(template).unwrap_or_else(|_| ProgressStyle::default_bar()));
    bar
}

/// A comma-separated option value, each item parsed by `one` (`--{flag} {s}: ... is not a valid value`, or
/// `empty list`).
pub fn parse_list<T>(flag: &str, s: &str, one: impl Fn(&str) -> Option<T>) -> Result<Vec<T>, String> {
    let v: Vec<T> = s
        .split(',')
        .map(|x| one(x.trim()).ok_or_else(|| format!("--{flag} {s}: `{}` is not a valid value", x.trim())))
        .collect::<Result<_, _>>()?;
    if v.is_empty() {
        return Err(format!("--{flag}: empty list"));
    }
    Ok(v)
}
