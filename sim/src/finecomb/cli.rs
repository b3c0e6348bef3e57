//! `netmeas run finecomb` and FineComb's section of `netmeas demo`: options and the table.

use super::experiment::{accumulate_seeds, plans, Accumulator, Method, Setup, StashChoice};
use super::sweep::{self, Param, Sweep};
use crate::cli::{parse_list, seed_bar, sweep_output, Experiment, RunArgs, SweepParam};
use crate::traffic::finecomb::{FinecombTrafficParams, Reorder};
use crate::Engine;

/// FineComb in the CLI's list of cores.
pub struct Finecomb;

#[derive(clap::Args)]
pub struct FinecombArgs {
    /// Loss rate β of the path, in [0, 1) [default: 0.01].
    #[arg(long)]
    loss: Option<f64>,
    /// Exactly this many packets of the interval lost instead of a rate (Fig. 7(b): 5, 10, 50, 100); the
    /// methods are tuned for β = lost/T.
    #[arg(long, conflicts_with = "loss")]
    lost: Option<u64>,
    /// Reordering model (§V-A): `forward` ⟨0,x,0,0⟩, the last x packets of the previous interval arrive
    /// after the interval-start message; `backward` ⟨x,0,0,0⟩, the first x packets of the interval arrive
    /// before it. x = ρT/4.
    #[arg(long, default_value = "backward", value_parser = ["forward", "backward"])]
    reorder: String,
    /// Reordering rate ρ = R/T, in [0, 1] (the paper sweeps 4e-6 to 4e-2) [default: 0.004].
    #[arg(long)]
    rho: Option<f64>,
    /// Total storage S of FineComb in bucket-sized entries (buckets M plus stash W); LDA gets the same
    /// memory as 1.5·(M + W/2) of its smaller buckets [default: 1000].
    #[arg(long)]
    buckets: Option<usize>,
    /// Stash entries W of FineComb, or `auto` for W* = p*·R (eq. 8); split into four substashes of ⌈W/4⌉.
    #[arg(long, default_value = "auto")]
    stash: String,
    /// Banks: 1, or 4 tuned for β ∈ {1e-4, 1e-2} × ρ ∈ {4e-4, 4e-2} (§III-E, §V-D; LDA then has 2 banks).
    #[arg(long, default_value_t = 1)]
    banks: usize,
    /// Which methods to run: `all`, or a comma-separated list of finecomb, finecomb- (no stash), lda, lda+.
    #[arg(long, default_value = "all")]
    method: String,
    /// Run the paper's x-axis instead of one point: `rho`, `loss`, `buckets` or `lost`, alone for the
    /// paper's values (ρ 4e-6 … 4e-2, §V-A; β 1e-4, 1e-3, 1e-2, Fig. 4(a); S 250 … 8000, Fig. 5; 5, 10,
    /// 50, 100 lost packets, Fig. 7(b)), or with values:
    /// `rho=1e-4,4e-4,1e-3`, or `rho=4e-6..4e-2:9` (9 values log-spaced). Every (value, seed) runs in
    /// parallel; the table has a row per value and method with the errors' standard deviations over seeds.
    /// Fig. 4: `--loss 0.01 --method finecomb,finecomb- --sweep rho`; Fig. 6(a)/7(a): `--loss 1e-4
    /// --sweep rho`; Fig. 6(b): add `--reorder forward`; Fig. 8(a)(c): `--banks 4 --sweep rho=4e-4..4e-2:6`.
    #[arg(long, value_name = "PARAM[=VALUES]")]
    sweep: Option<String>,
    /// With --sweep: draw the figure (useful samples with eq. (2)'s expectation; the relative errors of
    /// mean delay, standard deviation and loss rate per method against the swept value, with FineComb's
    /// loss error as the bucket model predicts it and with the residual check; log axes; error bars ±1
    /// standard deviation over seeds, as the paper's). SVG or PNG by the extension.
    #[arg(long, value_name = "FILE")]
    plot: Option<std::path::PathBuf>,
    /// Packets per interval T (the paper: 5 M in 1 s, 0.2 µs apart).
    #[arg(long, default_value_t = 5_000_000, value_parser = clap::value_parser!(u64).range(1000..=100_000_000))]
    packets: u64,
    #[command(flatten)]
    run: RunArgs,
    /// Print one JSON object with a key per method run (finecomb, finecomb_nostash, lda, lda_plus), each
    /// holding mean_delay_rel_err, stddev_rel_err, loss_rel_err, useful_samples and expected_useful_samples
    /// (eq. 2), averaged over seeds, null where a method gave no estimate. Without --json a table also
    /// shows each method's banks (M, W, p), stash recovery statistics and time, and FineComb's loss error
    /// with the single-lost-packet residual check (an extension of §III-D, not in the paper). With --sweep:
    /// `{"param", "points": [{"value", "<method>": {the five metrics, their *_std over seeds,
    /// seeds_with_estimate}}]}`.
    #[arg(long)]
    json: bool,
}

impl FinecombArgs {
    /// The experiment's settings, or what is wrong with the options.
    fn setup(&self) -> Result<Setup, String> {
        let rho = self.rho.unwrap_or(0.004);
        if let Some(n) = self.lost.filter(|&n| n >= self.packets) {
            return Err(format!("--lost {n}: must be below the {} packets of the interval (--packets)", self.packets));
        }
        let loss = match self.lost {
            Some(n) => n as f64 / self.packets as f64,
            None => self.loss.unwrap_or(0.01),
        };
        if !(0.0..1.0).contains(&loss) {
            return Err(format!("--loss {loss}: must be in [0, 1)"));
        }
        if !(0.0..=1.0).contains(&rho) {
            return Err(format!("--rho {rho}: must be in [0, 1]"));
        }
        let stash = match self.stash.as_str() {
            "auto" => StashChoice::Auto,
            v => StashChoice::Fixed(
                v.parse().map_err(|_| format!("--stash {v}: expected a number of entries or `auto`"))?,
            ),
        };
        let methods: Vec<Method> = match self.method.as_str() {
            "all" => Method::ALL.to_vec(),
            list => {
                let picked = parse_list("method", list, |n| Method::ALL.into_iter().find(|m| m.cli_name() == n))?;
                Method::ALL.into_iter().filter(|m| picked.contains(m)).collect()
            }
        };
        let reorder = if self.reorder == "forward" { Reorder::Forward } else { Reorder::Backward };
        let setup = Setup {
            traffic: FinecombTrafficParams {
                packets: self.packets,
                lost: self.lost,
                ..FinecombTrafficParams::paper(loss, reorder, rho)
            },
            storage: self.buckets.unwrap_or(1000),
            stash,
            banks: self.banks,
            methods,
            engine: self.run.engine(),
        };
        setup.traffic.check().map_err(|e| format!("--rho/--loss/--packets: {e}"))?;
        Ok(setup)
    }

    /// The `--sweep` option, checked against the options it replaces, and `--plot`'s need of it.
    fn sweep(&self) -> Result<Option<Sweep>, String> {
        let Some(text) = &self.sweep else {
            return match &self.plot {
                Some(_) => Err("--plot draws a sweep's figure: add --sweep rho (or loss, buckets, lost)".into()),
                None => Ok(None),
            };
        };
        crate::plot::Format::check_option(&self.plot)?;
        let sweep = Sweep::parse(text)?;
        sweep.refuse(match sweep.param {
            Param::Rho => self.rho.is_some().then_some("rho"),
            Param::Loss | Param::Lost => {
                self.loss.is_some().then_some("loss").or(self.lost.is_some().then_some("lost"))
            }
            Param::Buckets => self.buckets.is_some().then_some("buckets"),
        })?;
        Ok(Some(sweep))
    }
}

/// Runs the experiment of `setup` over `seeds` seeds from `first` (with a progress bar if `progress`).
fn accumulate(setup: &Setup, seeds: u64, first: u64, progress: bool) -> Result<Vec<(Method, Accumulator)>, String> {
    let bar = seed_bar(seeds, progress, "{bar:30} seed {pos}/{len} [{elapsed_precise}]");
    let acc = accumulate_seeds(setup, first, seeds, || bar.inc(1));
    bar.finish_and_clear();
    acc
}

impl Experiment for Finecomb {
    const NAME: &'static str = "finecomb";
    const ABOUT: &'static str = "FineComb (ToN 2014, §V): FineComb, FineComb− (no stash), LDA and LDA+ on one \
                                 simulated 1 s interval per seed (Weibull delays with a 10 µs mean, random loss, \
                                 forward or backward reordering around the sync messages), all with the same \
                                 storage, scored by relative errors of mean delay, standard deviation and loss \
                                 rate against the interval's ground truth";
    type Args = FinecombArgs;
    const CAPTURE: Option<&'static [&'static str]> = None;

    fn run_args(a: &mut FinecombArgs) -> &mut RunArgs {
        &mut a.run
    }

    fn run(a: &FinecombArgs) -> Result<(), String> {
        let setup = a.setup()?;
        if let Some(sweep) = a.sweep()? {
            return run_sweep(a, &setup, &sweep);
        }
        let acc = accumulate(&setup, a.run.seeds, a.run.seed, !a.json)?;
        if a.json {
            let obj: serde_json::Map<String, serde_json::Value> = acc
                .iter()
                .map(|(m, ac)| {
                    Ok((m.key().to_string(), serde_json::to_value(ac.summary()).map_err(|e| e.to_string())?))
                })
                .collect::<Result<_, String>>()?;
            println!("{}", serde_json::to_string_pretty(&obj).map_err(|e| e.to_string())?);
            return Ok(());
        }
        println!(
            "FineComb §V: T = {} packets/interval, β = {}, {} reordering ρ = {} (tuple {:?}), storage {}, {} bank(s), \
             {} seeds, engine {}",
            a.packets,
            setup.traffic.loss,
            a.reorder,
            setup.traffic.rho,
            setup.traffic.tuple(),
            setup.storage,
            a.banks,
            a.run.seeds,
            a.run.engine
        );
        print_rows(&setup, &acc)
    }

    /// FineComb on the RTL engine against ground truth: one reduced §V interval (200 000 packets, β = 0.01,
    /// backward reordering ρ = 0.004, storage 1000), every method, sender and receiver Verilated.
    fn demo(seed: u64) -> Result<(), String> {
        let setup = Setup {
            traffic: FinecombTrafficParams {
                packets: 200_000,
                ..FinecombTrafficParams::paper(0.01, Reorder::Backward, 0.004)
            },
            storage: 1000,
            stash: StashChoice::Auto,
            banks: 1,
            methods: Method::ALL.to_vec(),
            engine: Engine::Rtl,
        };
        println!(
            "\nFineComb experiment on the RTL (both ends Verilated, cross-checked against golden cycle by cycle and \
             against the golden transaction model): one interval of 200 000 packets, β = 0.01, backward ρ = 0.004, \
             storage 1000"
        );
        let acc = accumulate(&setup, 1, seed, true)?;
        print_rows(&setup, &acc)?;
        println!("(one seed at 1/25 of the paper's interval; `netmeas run finecomb` runs the full experiment)");
        Ok(())
    }
}

/// `netmeas run finecomb --sweep …`: the table or JSON, and the figure.
fn run_sweep(a: &FinecombArgs, setup: &Setup, sweep: &Sweep) -> Result<(), String> {
    let points = sweep::run(setup, sweep, a.run.seed, a.run.seeds, !a.json)?;
    let fixed = |p: Param, v: String| if p == sweep.param { None } else { Some(v) };
    let settings: Vec<String> = [
        (!matches!(sweep.param, Param::Loss | Param::Lost)).then(|| match setup.traffic.lost {
            Some(n) => format!("{n} lost"),
            None => format!("β = {}", setup.traffic.loss),
        }),
        Some(format!("{} reordering", a.reorder)),
        fixed(Param::Rho, format!("ρ = {}", setup.traffic.rho)),
        fixed(Param::Buckets, format!("S = {}", setup.storage)),
        Some(format!("{} bank(s)", setup.banks)),
        Some(format!("T = {}", setup.traffic.packets)),
        Some(format!("{} seeds", a.run.seeds)),
    ]
    .into_iter()
    .flatten()
    .collect();
    let title = format!("FineComb §V vs {}: {}", sweep.param.name(), settings.join(", "));
    sweep_output(
        a.json,
        &title,
        &a.run.engine,
        a.plot.as_deref(),
        || Ok(sweep::json(sweep, &points)),
        || sweep::print_table(sweep, &points),
        || sweep::figure(&title, sweep, &points),
    )
}

/// The table of `netmeas run finecomb` (and of the demo's FineComb experiment).
fn print_rows(setup: &Setup, acc: &[(Method, Accumulator)]) -> Result<(), String> {
    let (fc, ns, lda) = plans(setup)?;
    println!(
        "{:<17} {:>10} {:>10} {:>10} {:>12} {:>12} {:>8}  banks (M, W, p)",
        "method", "mean_err", "sd_err", "loss_err", "useful", "expected", "seeds"
    );
    let f = |v: Option<f64>| v.map(|x| format!("{x:.4}")).unwrap_or_else(|| "-".into());
    let g = |v: Option<f64>| v.map(|x| format!("{x:.0}")).unwrap_or_else(|| "-".into());
    for (m, ac) in acc {
        let plan = match m {
            Method::Finecomb => &fc,
            Method::FinecombNoStash => &ns,
            _ => &lda,
        };
        let s = ac.summary();
        let banks: Vec<String> =
            plan.banks.iter().map(|b| format!("({}, {}, {:.3e})", b.buckets, 4 * b.stash_depth, b.p)).collect();
        println!(
            "{:<17} {:>10} {:>10} {:>10} {:>12} {:>12} {:>8}  {}",
            m.cli_name(),
            f(s.mean_delay_rel_err),
            f(s.stddev_rel_err),
            f(s.loss_rel_err),
            g(s.useful_samples),
            g(s.expected_useful_samples),
            format!("{}/{}", ac.seeds_with_estimate(), ac.seeds),
            banks.join(" ")
        );
        if *m == Method::Finecomb && plan.stash_entries() > 0 {
            println!(
                "  stash recovery: {} of {} useless buckets with stash candidates recovered, {} subsets tried, {:.2} ms per interval",
                ac.recovery.recovered,
                ac.recovery.attempted,
                ac.recovery.subsets,
                ac.recovery_time.as_secs_f64() * 1e3 / ac.seeds.max(1) as f64
            );
            println!(
                "  loss_err {} with the single-lost-packet residual check (extension, not in the paper; {} more buckets explained)",
                f(ac.loss_one_lost_rel_err()),
                ac.recovery.one_lost
            );
        }
    }
    println!(
        "(relative errors |estimate − truth| / truth averaged over seeds; \"seeds\": seeds with a delay estimate)"
    );
    Ok(())
}
