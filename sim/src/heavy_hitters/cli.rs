//! `netmeas run heavy-hitters` and the heavy-hitter section of `netmeas demo`: options, progress, tables,
//! JSON and plots.

use super::experiment::{
    stream_runs, theorem_point, HhMethod, Memory, StreamSetup, StreamSource, TheoremResult, TheoremSetup,
    THEOREM_FRACTION, THEOREM_PROBABILITY,
};
use super::report::{stream_plot, stream_table, theorem_plot, theorem_table};
use crate::cli::{parse_list, seed_bar, split_sweep, Experiment, RunArgs};
use crate::traffic::keys::{capture_flow_keys, Order, TheoremParams, ZipfParams};
use crate::Engine;
use golden::heavy_hitters::table::admission_by_name;
use golden::heavy_hitters::Admission;
use std::path::PathBuf;
use std::time::Instant;

/// The heavy-hitter core in the CLI's list of cores.
pub struct HeavyHitters;

const DEFAULT_K: usize = 64;
const DEFAULT_F: u64 = 200;
const DEFAULT_EPSILON: f64 = 0.1;
const DEFAULT_RUNS: u64 = 1000;
const DEFAULT_ALPHA: f64 = 1.0;
const DEFAULT_DISTINCT: usize = 100_000;
const DEFAULT_PACKETS: usize = 1_000_000;

#[derive(clap::Args)]
pub struct HhArgs {
    /// The key stream. Without it (or `theorem`): the RAP theorem's setting (dissertation ch. 4) — k heavy
    /// elements of frequency f each plus ε·k·f distinct light elements (each once), in the orders of
    /// --order, --runs streams per order, memory k buckets; reports per method and order the share of runs
    /// storing ≥ 0.65·k heavy elements at the end (the theorem: ≥ 0.7 for RAP) and quantiles of the stored
    /// fraction. `zipf`: i.i.d. Zipf(--alpha) over --distinct keys, --packets per seed. `capture`: the TCP
    /// packets of --file (pcap/pcapng, plain or .gz) keyed by 5-tuple. Both report top-k recall, precision and
    /// the average relative error of the true top-k's counts per method and memory size.
    #[arg(long, value_parser = ["theorem", "zipf", "capture"])]
    stream: Option<String>,
    /// Capture file of --stream capture (classic pcap or pcapng, plain or gzip-compressed).
    #[arg(long)]
    file: Option<PathBuf>,
    /// Theorem setting: the number of heavy elements k (memory defaults to k buckets). Zipf/capture: the k
    /// of the top-k.
    #[arg(long, default_value_t = DEFAULT_K)]
    k: usize,
    /// Theorem setting: frequency f of every heavy element [default: 200].
    #[arg(long)]
    f: Option<u64>,
    /// Theorem setting: ε, the light elements are round(ε·k·f) distinct keys, each once [default: 0.1 — far
    /// above the theorem's ε < 10⁻⁷, which would need f·k ≫ 10⁷ for a single light element; the point is to
    /// see how far the assumption can be relaxed].
    #[arg(long)]
    epsilon: Option<f64>,
    /// Theorem setting: heavy frequencies drawn uniformly from the integers in [⌈f/2⌉, ⌊3f/2⌋] instead of
    /// all equal to f (a relaxation of the equal-frequency assumption; the light count stays round(ε·k·f)).
    #[arg(long)]
    unequal: bool,
    /// Theorem setting: arrival orders, comma-separated, or `all`: `random` (uniform shuffle), `bunched`
    /// (each heavy's f occurrences consecutive, the blocks at random places among the lights), `spread`
    /// (heavies round-robin, lights evenly between them), `light-first` (all lights, then the heavies
    /// shuffled), `adversarial` (heavies round-robin, then all lights: every heavy ends at count ≈ f, so
    /// each ≈ f + 1 lights evict one for good — see the docs of traffic::keys::Order::Adversarial)
    /// [default: all].
    #[arg(long)]
    order: Option<String>,
    /// Theorem setting: streams per order (1..=1000000) [default: 1000]. Every run draws new keys, a new
    /// order and a new admission PRNG seed (from --seed + run); all methods see the same streams. (--seeds
    /// counts the repetitions of --stream zipf/capture only.)
    #[arg(long)]
    runs: Option<u64>,
    /// Theorem setting: repeat the experiment for several values of one parameter, `epsilon=0.1,0.2,0.4`,
    /// `k=16,64,256` or `f=50,200,800` (the memory follows k unless --buckets is given).
    #[arg(long)]
    sweep: Option<String>,
    /// Zipf: skew α ≥ 0 [default: 1.0].
    #[arg(long)]
    alpha: Option<f64>,
    /// Zipf: distinct keys [default: 100000].
    #[arg(long)]
    distinct: Option<usize>,
    /// Zipf: packets per stream [default: 1000000].
    #[arg(long)]
    packets: Option<usize>,
    /// Memory in buckets, one value or a comma-separated list (a sweep: one row per size, and a
    /// recall-vs-memory plot). SpaceSaving and RAP get exactly this many; d-way RAP and PRECISION get
    /// --rows rows of buckets/rows each rounded DOWN to a power of two (4..=65536 per row), and the table
    /// shows what each had. [default: k in the theorem setting, k,2k,4k,8k for zipf and capture]
    #[arg(long)]
    buckets: Option<String>,
    /// Rows d of d-way RAP and PRECISION (1..=4; PRECISION's Tofino version uses 2).
    #[arg(long, default_value_t = 2)]
    rows: usize,
    /// Methods, comma-separated, or `all`: `ss` (SpaceSaving, global minimum), `rap` (RAP, global
    /// minimum), `dway` (d-way RAP, the core), `precision` (PRECISION, the core; see golden's
    /// heavy_hitters::table for how it differs from the switch version).
    #[arg(long, default_value = "all")]
    method: String,
    /// Admission probability of rap, dway and precision: `reciprocal` (1/(m+1) from the core's reciprocal
    /// table, ≤ 0.098 % above exact), `pow2` (2^−⌈log2(m+1)⌉, PRECISION's), `exact` (1/(m+1) to the PRNG's
    /// resolution; golden only). [default: reciprocal for rap and dway, pow2 for precision]
    #[arg(long, value_parser = ["reciprocal", "pow2", "exact"])]
    admission: Option<String>,
    /// Key width in bits (1..=128): every key is masked to it (104 = an IPv4 5-tuple).
    #[arg(long, default_value_t = 104)]
    key_bits: usize,
    #[command(flatten)]
    run: RunArgs,
    /// Print one JSON document instead of the table: `setting` and `results`, one row per method and order
    /// (theorem: theorem_probability, margin = theorem_probability − 0.7, stored_fraction {min, p5, p50, p95,
    /// mean}) or per method and memory size (zipf/capture: recall, precision, are).
    #[arg(long)]
    json: bool,
    /// Write a figure, FILE.svg or FILE.png: the theorem setting's stored-fraction CDF per method (a panel
    /// per order, guides at 0.65 and at 1 − 0.7), or recall and relative error versus memory for
    /// zipf/capture.
    #[arg(long)]
    plot: Option<PathBuf>,
}

/// Which experiment the options select.
enum Mode {
    Theorem { points: Vec<(TheoremParams, Option<usize>)>, orders: Vec<Order>, runs: u64 },
    Stream { source: StreamSource, buckets: Vec<usize> },
}

impl HhArgs {
    fn methods(&self) -> Result<Vec<HhMethod>, String> {
        if self.method == "all" {
            return Ok(HhMethod::ALL.to_vec());
        }
        let mut v = parse_list("method", &self.method, HhMethod::by_name)?;
        v.dedup();
        Ok(v)
    }

    fn admission(&self) -> Result<Option<Admission>, String> {
        let a = self.admission.as_deref().map(|s| admission_by_name(s).ok_or(format!("--admission {s}")));
        let a = a.transpose()?;
        if a == Some(Admission::Exact) && self.run.engine() == Engine::Rtl {
            return Err("--admission exact exists only in the golden model (the core has reciprocal and pow2)".into());
        }
        Ok(a)
    }

    fn buckets(&self) -> Result<Option<Vec<usize>>, String> {
        let Some(b) = &self.buckets else { return Ok(None) };
        let v = parse_list("buckets", b, |x| x.parse::<usize>().ok().filter(|&n| n > 0))?;
        Ok(Some(v))
    }

    /// The experiment the options select, or what is wrong with them.
    fn mode(&self) -> Result<Mode, String> {
        crate::plot::Format::check_option(&self.plot)?;
        if !(1..=128).contains(&self.key_bits) {
            return Err(format!("--key-bits {}: must be in 1..=128", self.key_bits));
        }
        let stream = self.stream.as_deref().unwrap_or("theorem");
        let used =
            |flags: &[(&str, bool)]| flags.iter().filter(|f| f.1).map(|f| format!("--{}", f.0)).collect::<Vec<_>>();
        let theorem_only = used(&[
            ("f", self.f.is_some()),
            ("epsilon", self.epsilon.is_some()),
            ("unequal", self.unequal),
            ("order", self.order.is_some()),
            ("runs", self.runs.is_some()),
            ("sweep", self.sweep.is_some()),
        ]);
        let zipf_only = used(&[
            ("alpha", self.alpha.is_some()),
            ("distinct", self.distinct.is_some()),
            ("packets", self.packets.is_some()),
        ]);
        match stream {
            "theorem" => {
                let bad: Vec<String> =
                    zipf_only.into_iter().chain(self.file.is_some().then(|| "--file".into())).collect();
                if !bad.is_empty() {
                    return Err(format!(
                        "{} belong to --stream zipf/capture, not to the theorem setting (the default stream)",
                        bad.join(", ")
                    ));
                }
                let orders = match self.order.as_deref() {
                    None | Some("all") => Order::ALL.to_vec(),
                    Some(s) => parse_list("order", s, Order::by_name)?,
                };
                let runs = self.runs.unwrap_or(DEFAULT_RUNS);
                if !(1..=1_000_000).contains(&runs) {
                    return Err(format!("--runs {runs}: must be in 1..=1000000"));
                }
                let base = TheoremParams {
                    k: self.k,
                    f: self.f.unwrap_or(DEFAULT_F),
                    epsilon: self.epsilon.unwrap_or(DEFAULT_EPSILON),
                    unequal: self.unequal,
                    key_bits: self.key_bits,
                };
                let mut params = vec![base];
                if let Some(sw) = &self.sweep {
                    let (name, values) = split_sweep(sw, &["epsilon", "k", "f"])?;
                    let values =
                        values.ok_or(format!("--sweep {sw}: expected PARAM=v1,v2,... with PARAM epsilon, k or f"))?;
                    let explicit = match name {
                        "epsilon" => self.epsilon.is_some(),
                        "k" => false,
                        _ => self.f.is_some(),
                    };
                    if explicit {
                        return Err(format!("--sweep {name}=... and --{name} together: give the values in the sweep"));
                    }
                    params = match name {
                        "epsilon" => parse_list("sweep", values, |x| x.parse::<f64>().ok())?
                            .into_iter()
                            .map(|epsilon| TheoremParams { epsilon, ..base })
                            .collect(),
                        "k" => parse_list("sweep", values, |x| x.parse::<usize>().ok())?
                            .into_iter()
                            .map(|k| TheoremParams { k, ..base })
                            .collect(),
                        _ => parse_list("sweep", values, |x| x.parse::<u64>().ok())?
                            .into_iter()
                            .map(|f| TheoremParams { f, ..base })
                            .collect(),
                    };
                }
                for p in &params {
                    p.check()?;
                }
                let points: Vec<(TheoremParams, Option<usize>)> = match self.buckets()? {
                    None => params.into_iter().map(|p| (p, None)).collect(),
                    Some(bs) => params.into_iter().flat_map(|p| bs.iter().map(move |&b| (p, Some(b)))).collect(),
                };
                Ok(Mode::Theorem { points, orders, runs })
            }
            s => {
                if !theorem_only.is_empty() {
                    return Err(format!(
                        "{} belong to the theorem setting (no --stream), not to --stream {s}",
                        theorem_only.join(", ")
                    ));
                }
                let source = if s == "zipf" {
                    if self.file.is_some() {
                        return Err("--file belongs to --stream capture".into());
                    }
                    let z = ZipfParams {
                        alpha: self.alpha.unwrap_or(DEFAULT_ALPHA),
                        distinct: self.distinct.unwrap_or(DEFAULT_DISTINCT),
                        packets: self.packets.unwrap_or(DEFAULT_PACKETS),
                        key_bits: self.key_bits,
                    };
                    if z.packets == 0 || z.packets > 1 << 30 {
                        return Err(format!("--packets {}: must be in 1..={}", z.packets, 1u64 << 30));
                    }
                    // Checks alpha and distinct before any run starts.
                    crate::traffic::keys::zipf(ZipfParams { packets: 0, ..z }, 0)?;
                    StreamSource::Zipf(z)
                } else {
                    if !zipf_only.is_empty() {
                        return Err(format!("{} belong to --stream zipf", zipf_only.join(", ")));
                    }
                    let file = self.file.as_ref().ok_or("--stream capture needs --file FILE (pcap or pcapng)")?;
                    let (keys, stats) = capture_flow_keys(file, self.key_bits, &self.run.decoder())?;
                    if !self.json {
                        println!(
                            "{}: {} frames, {} TCP packets in {} flows (5-tuples), {} frames skipped (not TCP)",
                            file.display(),
                            stats.frames,
                            stats.tcp,
                            stats.flows,
                            stats.skipped
                        );
                    }
                    StreamSource::Keys { name: file.display().to_string(), keys }
                };
                let buckets = self.buckets()?.unwrap_or_else(|| vec![self.k, 2 * self.k, 4 * self.k, 8 * self.k]);
                Ok(Mode::Stream { source, buckets })
            }
        }
    }
}

/// The theorem experiment over its points and orders (a progress bar per point and order).
fn run_theorem(
    a: &HhArgs,
    points: &[(TheoremParams, Option<usize>)],
    orders: &[Order],
    runs: u64,
    methods: &[HhMethod],
    admission: Option<Admission>,
    progress: bool,
) -> Result<Vec<TheoremResult>, String> {
    let mut out = Vec::new();
    for &(params, buckets) in points {
        let setup = TheoremSetup {
            params,
            orders: orders.to_vec(),
            methods: methods.to_vec(),
            memory: Memory { buckets: buckets.unwrap_or(params.k), rows: a.rows, admission, key_bits: a.key_bits },
            runs,
            first_seed: a.run.seed,
            engine: a.run.engine(),
        };
        for &order in orders {
            let bar = seed_bar(runs, progress, "{bar:30} {pos}/{len} runs {msg} [{elapsed_precise}]");
            bar.set_message(format!(
                "{} (k {}, f {}, ε {}, {} buckets)",
                order.name(),
                params.k,
                params.f,
                params.epsilon,
                setup.memory.buckets
            ));
            let r = theorem_point(&setup, order, &|| bar.inc(1));
            bar.finish_and_clear();
            out.extend(r?);
        }
    }
    Ok(out)
}

impl Experiment for HeavyHitters {
    const NAME: &'static str = "heavy-hitters";
    const ABOUT: &'static str = "Heavy hitters (dissertation ch. 4, defense slides): SpaceSaving and RAP with a \
                                 global minimum, d-way RAP and PRECISION (the core). Without --stream: the RAP \
                                 theorem's setting (k heavy elements of frequency f, ε·k·f lights, k buckets) in \
                                 several arrival orders — the share of runs storing ≥ 0.65·k heavies (the \
                                 theorem: ≥ 0.7 for RAP). With --stream zipf|capture: top-k recall, precision \
                                 and average relative error per memory size";
    type Args = HhArgs;
    const CAPTURE: Option<&'static [&'static str]> = Some(&["--stream", "capture", "--file"]);

    fn run_args(a: &mut HhArgs) -> &mut RunArgs {
        &mut a.run
    }

    fn run(a: &HhArgs) -> Result<(), String> {
        let methods = a.methods()?;
        let admission = a.admission()?;
        if a.run.engine() == Engine::Rtl && methods.iter().any(|m| m.is_core()) {
            // Fail before any golden work.
            super::experiment::engine_fn(Engine::Rtl)?;
        }
        let started = Instant::now();
        match a.mode()? {
            Mode::Theorem { points, orders, runs } => {
                let rows = run_theorem(a, &points, &orders, runs, &methods, admission, !a.json)?;
                let secs = started.elapsed().as_secs_f64();
                if a.json {
                    let doc = serde_json::json!({
                        "experiment": "theorem",
                        "setting": {
                            "runs": runs, "first_seed": a.run.seed, "rows": a.rows, "key_bits": a.key_bits,
                            "engine": a.run.engine, "threshold_fraction": THEOREM_FRACTION,
                            "threshold_probability": THEOREM_PROBABILITY, "seconds": secs,
                        },
                        "results": rows,
                    });
                    println!("{}", serde_json::to_string_pretty(&doc).map_err(|e| e.to_string())?);
                } else {
                    let (p, b) = points[0];
                    println!(
                        "RAP theorem setting: k heavy elements × frequency f{}, round(ε·k·f) distinct lights (first \
                         point: k {}, f {}, ε {}, {} lights); memory {}; {runs} runs per order; engine {}; seeds {}..",
                        if p.unequal { " (unequal: uniform in [f/2, 3f/2])" } else { "" },
                        p.k,
                        p.f,
                        p.epsilon,
                        p.lights(),
                        b.map(|b| format!("{b} buckets")).unwrap_or("k buckets".into()),
                        a.run.engine,
                        a.run.seed
                    );
                    print!("{}", theorem_table(&rows).text());
                    println!(
                        "(P(≥0.65k): share of runs storing at least 0.65·k of the k heavy elements at the end; the \
                         theorem (ε < 1e-7) says ≥ 0.7 for rap with k buckets; margin = P − 0.7. min/p5/p50/p95: \
                         quantiles of the stored fraction. Mpkt/s: packets per second of one thread on the \
                         engine ({}; the references always on golden). {:.1} s)",
                        a.run.engine, secs
                    );
                }
                if let Some(path) = &a.plot {
                    theorem_plot(path, &rows, orders.len())?;
                }
            }
            Mode::Stream { source, buckets } => {
                let what = match &source {
                    StreamSource::Zipf(z) => {
                        format!("Zipf(α = {}) over {} keys, {} packets per seed", z.alpha, z.distinct, z.packets)
                    }
                    StreamSource::Keys { name, keys } => format!("{name} ({} packets)", keys.len()),
                };
                let setup = StreamSetup {
                    source,
                    methods: methods.clone(),
                    buckets,
                    rows: a.rows,
                    admission,
                    key_bits: a.key_bits,
                    top_k: a.k,
                    seeds: a.run.seeds,
                    first_seed: a.run.seed,
                    engine: a.run.engine(),
                };
                let jobs = a.run.seeds * (setup.methods.len() * setup.buckets.len()) as u64;
                let bar = seed_bar(jobs, !a.json, "{bar:30} {pos}/{len} runs [{elapsed_precise}]");
                let rows = stream_runs(&setup, &|| bar.inc(1));
                bar.finish_and_clear();
                let rows = rows?;
                let secs = started.elapsed().as_secs_f64();
                if a.json {
                    let doc = serde_json::json!({
                        "experiment": a.stream,
                        "setting": {
                            "stream": what, "top_k": a.k, "seeds": a.run.seeds, "first_seed": a.run.seed,
                            "rows": a.rows, "key_bits": a.key_bits, "engine": a.run.engine, "seconds": secs,
                        },
                        "results": rows,
                    });
                    println!("{}", serde_json::to_string_pretty(&doc).map_err(|e| e.to_string())?);
                } else {
                    println!("{what}; top-{}; {} seeds from {}; engine {}", a.k, a.run.seeds, a.run.seed, a.run.engine);
                    print!("{}", stream_table(&rows).text());
                    println!(
                        "(recall: share of the true top-{k} among the {k} largest estimates; precision: share of \
                         those estimates in the true top-{k}; ARE: mean |estimate − true|/true over the true \
                         top-{k}, a missing key counting 1; means over seeds. {secs:.1} s)",
                        k = a.k
                    );
                }
                if let Some(path) = &a.plot {
                    let short = match &setup.source {
                        StreamSource::Zipf(z) => format!("Zipf alpha {}, {} keys, top-{}", z.alpha, z.distinct, a.k),
                        StreamSource::Keys { name, .. } => {
                            let base = std::path::Path::new(name).file_name().map(|f| f.to_string_lossy().to_string());
                            format!("{}, top-{}", base.unwrap_or_default(), a.k)
                        }
                    };
                    stream_plot(path, &rows, &short)?;
                }
            }
        }
        Ok(())
    }

    /// A short golden run of the theorem setting (k = 32, f = 100, ε = 0.1, 200 runs per order, all methods
    /// and orders).
    fn demo(seed: u64) -> Result<(), String> {
        println!(
            "\nheavy-hitter experiment (d-way RAP and PRECISION on the RTL build hh_d2, every run checked against \
             golden; SpaceSaving and RAP on golden): the RAP theorem setting, k = 64 heavy elements × f = 100, \
             ε = 0.1 (640 lights), 64 buckets (2 × 32 for the core), 100 runs per order"
        );
        let params = TheoremParams { k: 64, f: 100, epsilon: 0.1, unequal: false, key_bits: 104 };
        let setup = TheoremSetup {
            params,
            orders: Order::ALL.to_vec(),
            methods: HhMethod::ALL.to_vec(),
            memory: Memory { buckets: 64, rows: 2, admission: None, key_bits: 104 },
            runs: 100,
            first_seed: seed,
            engine: Engine::Rtl,
        };
        let mut rows = Vec::new();
        for &order in &setup.orders {
            rows.extend(theorem_point(&setup, order, &|| {})?);
        }
        print!("{}", theorem_table(&rows).text());
        println!(
            "(`netmeas run heavy-hitters` runs the full experiment on golden: 1000 runs per order, k = 64, f = 200; \
             add `--engine rtl` for the core)"
        );
        Ok(())
    }
}

/// (The demo runs the RTL: only in builds with the `rtl` feature.)
#[cfg(all(test, feature = "rtl"))]
mod tests {
    use super::*;

    #[test]
    fn demo_runs_on_rtl() {
        let t = Instant::now();
        HeavyHitters::demo(3).unwrap();
        assert!(t.elapsed().as_secs() < 60, "the demo section should take seconds");
    }
}
