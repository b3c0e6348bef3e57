//! What every core's `netmeas run <core>` shares: the [`Experiment`] trait a core implements in its own
//! folder (`sim/src/<core>/cli.rs`: its arguments, its seed loop call, its table), the options every
//! experiment takes ([`RunArgs`]), and the seed progress bar. The `netmeas` binary lists the cores once
//! (`CORES` in main.rs) and dispatches `run <core>` and the demo's experiment sections through
//! [`CoreCli`], the object-safe face of [`Experiment`].

use crate::traffic::packet::{Decoder, FrameOrder, Via};
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
    /// The options that name a capture file (the file follows them), for `netmeas replay`; `None` for an
    /// experiment without capture input.
    const CAPTURE: Option<&'static [&'static str]>;
    /// The [`RunArgs`] inside its options.
    fn run_args(args: &mut Self::Args) -> &mut RunArgs;
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
    /// `netmeas replay`: the experiment on the capture `file` with `engine`, its other options `rest`
    /// (parsed as `netmeas run <core>` parses them, `--capture-order` included), the capture's frames
    /// decoded `via` the header parser.
    fn replay(&self, file: &str, engine: &str, rest: &[String], via: Via) -> Result<(), String>;
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
    fn replay(&self, file: &str, engine: &str, rest: &[String], via: Via) -> Result<(), String> {
        let flags =
            E::CAPTURE.ok_or_else(|| format!("`netmeas run {}` takes no capture, so it has no replay", E::NAME))?;
        let mut argv: Vec<String> = vec![format!("netmeas run {}", E::NAME)];
        argv.extend(flags.iter().map(|s| s.to_string()));
        argv.extend([file.to_string(), "--engine".into(), engine.into()]);
        argv.extend(rest.iter().cloned());
        let m = self.command().try_get_matches_from(argv).map_err(|e| e.to_string())?;
        let mut args = E::Args::from_arg_matches(&m).map_err(|e| e.to_string())?;
        E::run_args(&mut args).via = via;
        E::run(&args)
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
    /// A capture's frames in `file` order (what a parser fed the file gives; frames stamped earlier than a
    /// frame before them reach the core so, and only the ground truth is taken in time order) or `time`
    /// order (as a MAC stamping frames on arrival sees them). Synthetic traffic is always in time order.
    #[arg(long, default_value = "file", value_parser = ["file", "time"])]
    pub capture_order: String,
    /// What decodes a capture's frames: software, unless `netmeas replay` sets the header parser (not an
    /// option of `run`).
    #[arg(skip)]
    pub via: Via,
}

impl RunArgs {
    /// How the experiment's capture (if any) is decoded: `via`, in `--capture-order`.
    pub fn decoder(&self) -> Decoder {
        Decoder { via: self.via.clone(), order: FrameOrder::by_name(&self.capture_order).unwrap_or_default() }
    }

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

/// Runs `run(point, seed, tick)` for every point of a sweep and seeds `first..first + seeds`, all (point,
/// seed) pairs at once on rayon's pool when `parallel` (one after the other otherwise, e.g. for Verilated
/// cores), with a progress bar per point (`label` names it) when `progress`. A job counts `ticks` steps on
/// its point's bar: `run` may call `tick` as it goes (a job over several seeds of its own: one tick per
/// seed), and whatever it did not count is counted when it returns. Returns each point's results in seed
/// order, or the first error in (point, seed) order.
#[allow(clippy::too_many_arguments)]
pub fn sweep_seeds<P: Sync, R: Send>(
    points: &[P],
    first: u64,
    seeds: u64,
    ticks: u64,
    parallel: bool,
    progress: bool,
    label: impl Fn(&P) -> String,
    run: impl Fn(&P, u64, &dyn Fn()) -> Result<R, String> + Sync,
) -> Result<Vec<Vec<R>>, String> {
    use rayon::prelude::*;
    use std::sync::atomic::{AtomicU64, Ordering};
    let multi = indicatif::MultiProgress::new();
    if !progress {
        multi.set_draw_target(indicatif::ProgressDrawTarget::hidden());
    }
    let bars: Vec<ProgressBar> = points
        .iter()
        .map(|p| {
            let bar =
                multi.add(seed_bar(seeds * ticks, true, "{prefix:>16} {bar:30} seed {pos}/{len} [{elapsed_precise}]"));
            bar.set_prefix(label(p));
            bar
        })
        .collect();
    let jobs: Vec<(usize, u64)> = (0..points.len()).flat_map(|i| (0..seeds).map(move |k| (i, first + k))).collect();
    let one = |&(i, seed): &(usize, u64)| {
        let counted = AtomicU64::new(0);
        let tick = || {
            if counted.fetch_add(1, Ordering::Relaxed) < ticks {
                bars[i].inc(1);
            }
        };
        let r = run(&points[i], seed, &tick);
        bars[i].inc(ticks.saturating_sub(counted.load(Ordering::Relaxed)));
        r
    };
    let results: Vec<Result<R, String>> =
        if parallel { jobs.par_iter().map(one).collect() } else { jobs.iter().map(one).collect() };
    for bar in &bars {
        bar.finish_and_clear();
    }
    let mut out: Vec<Vec<R>> = points.iter().map(|_| Vec::with_capacity(seeds as usize)).collect();
    for ((i, _), r) in jobs.iter().zip(results) {
        out[*i].push(r?);
    }
    Ok(out)
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

/// A parameter a core's `--sweep` can run.
pub trait SweepParam: Copy + PartialEq + Sized + 'static {
    /// Every parameter with its name on the command line.
    const ALL: &'static [(&'static str, Self)];
    /// The values of `--sweep NAME` given without values (the paper's axis).
    fn default_values(self) -> Vec<f64>;
    /// The parameter's name on the command line.
    fn name(self) -> &'static str {
        Self::ALL.iter().find(|(_, p)| *p == self).map_or("?", |(n, _)| n)
    }
}

/// A parsed `--sweep`: the parameter and its values.
#[derive(Debug, Clone, PartialEq)]
pub struct Sweep<P> {
    pub param: P,
    pub values: Vec<f64>,
}

impl<P: SweepParam> Sweep<P> {
    /// `PARAM` (its default axis), `PARAM=V1,V2,…` or `PARAM=A..B:N` (log-spaced), PARAM one of `P::ALL`.
    pub fn parse(s: &str) -> Result<Self, String> {
        let names: Vec<&str> = P::ALL.iter().map(|(n, _)| *n).collect();
        let (name, values) = split_sweep(s, &names)?;
        let param = P::ALL.iter().find(|(n, _)| *n == name).map(|(_, p)| *p).ok_or("unreachable: checked name")?;
        let values = match values {
            Some(v) => sweep_values("sweep", v)?,
            None => param.default_values(),
        };
        Ok(Sweep { param, values })
    }

    /// An error if `given` names an option the sweep replaces (it gives the values itself).
    pub fn refuse(&self, given: Option<&str>) -> Result<(), String> {
        match given {
            Some(flag) => Err(format!("--sweep {} and --{flag} together: the sweep gives the values", self.param.name())),
            None => Ok(()),
        }
    }
}

/// What a sweep prints and draws: JSON (`json`) or the title and the table, then the figure to `plot`.
pub fn sweep_output(
    json: bool,
    title: &str,
    engine: &str,
    plot: Option<&std::path::Path>,
    document: impl FnOnce() -> Result<serde_json::Value, String>,
    table: impl FnOnce(),
    figure: impl FnOnce() -> crate::plot::Figure,
) -> Result<(), String> {
    if json {
        println!("{}", serde_json::to_string_pretty(&document()?).map_err(|e| e.to_string())?);
    } else {
        println!("{title}, engine {engine}");
        table();
    }
    if let Some(path) = plot {
        crate::plot::write_figure(path, &figure())?;
        if !json {
            println!("figure: {}", path.display());
        }
    }
    Ok(())
}

/// Splits a `--sweep` value: `PARAM=VALUES` or `PARAM` alone (the core's default axis for it), PARAM one of
/// `names`. Returns the name and the values text, or an error naming the allowed parameters.
pub fn split_sweep<'a>(s: &'a str, names: &[&str]) -> Result<(&'a str, Option<&'a str>), String> {
    let (name, values) = match s.split_once('=') {
        Some((n, v)) => (n.trim(), Some(v.trim())),
        None => (s.trim(), None),
    };
    if !names.contains(&name) {
        return Err(format!("--sweep {s}: unknown parameter `{name}` (one of: {})", names.join(", ")));
    }
    Ok((name, values))
}

/// The values of a numeric sweep: a comma-separated list (`1e-4,4e-4,1e-3`) or `A..B:N`, N values from A to
/// B spaced evenly on a log scale (A, B > 0; N ≥ 2), as the papers' log axes sample them.
pub fn sweep_values(flag: &str, s: &str) -> Result<Vec<f64>, String> {
    if let Some((range, n)) = s.split_once(':') {
        let (a, b) = range.split_once("..").ok_or_else(|| format!("--{flag} {s}: a range is A..B:N"))?;
        let (a, b, n): (f64, f64, usize) = match (a.trim().parse(), b.trim().parse(), n.trim().parse()) {
            (Ok(a), Ok(b), Ok(n)) => (a, b, n),
            _ => return Err(format!("--{flag} {s}: a range is A..B:N with numbers A, B and a count N")),
        };
        if !(a > 0.0 && b > a && (2..=1000).contains(&n)) {
            return Err(format!("--{flag} {s}: a log-spaced range needs 0 < A < B and 2 ≤ N ≤ 1000"));
        }
        return Ok((0..n).map(|i| a * (b / a).powf(i as f64 / (n - 1) as f64)).collect());
    }
    parse_list(flag, s, |x| x.parse::<f64>().ok().filter(|v| v.is_finite()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sweep_options_parse_lists_ranges_and_defaults() {
        assert_eq!(split_sweep("rho=1e-4,1e-3", &["rho", "loss"]), Ok(("rho", Some("1e-4,1e-3"))));
        assert_eq!(split_sweep("loss", &["rho", "loss"]), Ok(("loss", None)));
        let e = split_sweep("beta=1", &["rho", "loss"]).unwrap_err();
        assert!(e.contains("`beta`") && e.contains("rho, loss"), "{e}");
        assert_eq!(sweep_values("sweep", "1e-4, 4e-4").unwrap(), vec![1e-4, 4e-4]);
        let r = sweep_values("sweep", "1e-6..1e-2:5").unwrap();
        assert_eq!(r.len(), 5);
        for (v, want) in r.iter().zip([1e-6, 1e-5, 1e-4, 1e-3, 1e-2]) {
            assert!((v / want - 1.0).abs() < 1e-9, "{r:?}");
        }
        for bad in ["1e-2..1e-6:5", "0..1:3", "1..2:1", "1..2", "a,b", "", "1..2:x"] {
            assert!(sweep_values("sweep", bad).is_err(), "{bad}");
        }
    }
}
