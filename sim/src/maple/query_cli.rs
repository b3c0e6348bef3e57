//! `netmeas query maple`: per-packet and per-flow queries over a run's stored epochs
//! (`netmeas run maple --save-epochs DIR`), and the §5.4 evaluation (Fig. 8(a), Fig. 8(c)) against the
//! run's ground truth.

use super::aggregate::{groups, stat, FiveTuple, Level};
use super::cli::cdf_points;
use super::epochs::{SeedEntry, StoredRun};
use super::evaluate::{evaluate, quantile, EvalSetup, Evaluation, PCTS};
use super::query::{Answer, Combine, QueryEngine, Timing};
use crate::cli::{parse_list, seed_bar};
use crate::plot::{charts_figure, write_figure, Chart, Scale, Series, Ticks};
use crate::traffic::maple::Delayed;
use std::path::PathBuf;
use synth::table::{Align, Table};

pub const ABOUT: &str = "Query MAPLE's stored epochs (from `netmeas run maple --save-epochs DIR`) as the \
                         paper's query engine (§4, §5.4): --key looks packets up, --flow averages a flow's \
                         packets, and without either every measured packet is queried against the run's \
                         ground truth: relative error of the average latency per packet / sub-flow / flow / \
                         host / prefix16 (Fig. 8(a)) and per-packet error with b bogus previous epochs \
                         (Fig. 8(c))";

#[derive(clap::Args)]
#[command(about = ABOUT, long_about = None, after_help = "\
Examples:
  netmeas run maple --store svbf --clustering hybrid --seeds 1 --save-epochs run1
  netmeas query maple --epochs run1 --bogus 2 --plot fig8.svg          # Fig. 8(a) and 8(c)
  netmeas query maple --epochs run1 --level flow --top 5                # the largest flows' averages
  netmeas query maple --epochs run1 --flow 1.2.3.4:5-6.7.8.9:10/tcp     # one flow, every epoch
  netmeas query maple --epochs run1 --key 0x0102...  --epoch 4 --bogus 1  # one packet, with timing slack
Timing slack: a query looks in its epoch, --bogus previous and --after next epochs; candidates of all of \
them are pooled and a Multi-Match goes to the center with the most packets in its own epoch (--combine \
union), or the nearest epoch with a single candidate answers first (--combine first-match).")]
pub struct QueryArgs {
    /// A directory written by `netmeas run maple --save-epochs DIR`.
    #[arg(long, value_name = "DIR")]
    epochs: PathBuf,
    /// Look up packet keys (hex, at most key_bits/4 digits, `0x` optional; comma-separated or repeated).
    /// With --epoch: one answer per key over the epoch and its slack; without: the answer of every stored
    /// epoch.
    #[arg(long, value_name = "HEX", conflicts_with = "flow")]
    key: Vec<String>,
    /// Average a flow's packets (keys from the stored packets) per epoch: SRC:PORT-DST:PORT/PROTO (IPv4;
    /// PROTO tcp, udp or a number). Repeatable.
    #[arg(long, value_name = "SRC:PORT-DST:PORT/PROTO")]
    flow: Vec<String>,
    /// The epoch the packets went through (the client's rough time; default: every stored epoch).
    #[arg(long)]
    epoch: Option<usize>,
    /// Levels: packet, subflow, flow, host, prefix16 (comma-separated, or all) for the evaluation; flow or
    /// subflow with --flow.
    #[arg(long, default_value = "all")]
    level: String,
    /// Previous (bogus) epochs also looked in; the evaluation draws b = 0..=B (Fig. 8(c)).
    #[arg(long, default_value_t = 0, value_parser = clap::value_parser!(u64).range(0..=16))]
    bogus: u64,
    /// Next epochs also looked in (--key, --flow).
    #[arg(long, default_value_t = 0, value_parser = clap::value_parser!(u64).range(0..=16))]
    after: u64,
    /// How answers of several epochs combine: `union` or `first-match`.
    #[arg(long, default_value = "union", value_parser = ["union", "first-match"])]
    combine: String,
    /// The stored seed (default: the first for --key/--flow, all for the evaluation).
    #[arg(long)]
    seed: Option<u64>,
    /// Evaluation: also list the N groups with the most packets per level (not the packet level).
    #[arg(long, default_value_t = 0)]
    top: usize,
    /// One JSON document: the evaluation has a key per level (relative_error percentiles, groups,
    /// single_packet) and `bogus` (per b: abs_err_us percentiles, multi_match, wrong_epoch).
    #[arg(long)]
    json: bool,
    /// Evaluation: write the CDFs (one curve per level; one per b) to FILE.svg or FILE.png.
    #[arg(long)]
    plot: Option<PathBuf>,
}

fn rule(a: &QueryArgs) -> Combine {
    Combine::by_name(&a.combine).unwrap_or(Combine::Union)
}

fn levels(a: &QueryArgs) -> Result<Vec<Level>, String> {
    if a.level == "all" {
        return Ok(Level::ALL.to_vec());
    }
    parse_list("level", &a.level, Level::by_name)
}

/// A key argument: hex of at most `bits` bits.
pub fn parse_key(s: &str, bits: usize) -> Result<u128, String> {
    let h = s.trim().trim_start_matches("0x").trim_start_matches("0X");
    let digits = bits.div_ceil(4);
    if h.is_empty() || !h.chars().all(|c| c.is_ascii_hexdigit()) {
        return Err(format!("--key {s}: not a hexadecimal key"));
    }
    if h.len() > digits {
        return Err(format!("--key {s}: {} hex digits, the run's keys are {bits} bits ({digits} digits)", h.len()));
    }
    let k = u128::from_str_radix(h, 16).map_err(|e| format!("--key {s}: {e}"))?;
    if bits < 128 && k >> bits != 0 {
        return Err(format!("--key {s}: wider than the run's {bits}-bit keys"));
    }
    Ok(k)
}

/// The seed's engine holding `which` of its epochs (all when `None`), with a progress bar.
fn engine(run: &StoredRun, seed: &SeedEntry, which: Option<(usize, usize)>, show: bool) -> Result<QueryEngine, String> {
    let mut q = QueryEngine::new(seed.config.clone(), seed.tie_break);
    let wanted: Vec<_> =
        seed.epochs.iter().filter(|e| which.is_none_or(|(lo, hi)| (lo..=hi).contains(&e.epoch))).collect();
    let bar = seed_bar(wanted.len() as u64, show, "{bar:30} {pos}/{len} epochs loaded [{elapsed_precise}]");
    for e in wanted {
        q.add(e.epoch, &run.record(seed, e)?)?;
        bar.inc(1);
    }
    bar.finish_and_clear();
    Ok(q)
}

fn window(a: &QueryArgs, e: usize) -> Timing {
    Timing { epoch: e, before: a.bogus as usize, after: a.after as usize }
}

fn us(v: Option<u32>) -> String {
    v.map_or("-".into(), |x| format!("{:.2}", x as f64 / 1e3))
}

fn lookup_keys(a: &QueryArgs, run: &StoredRun) -> Result<(), String> {
    let seed = run.seed(a.seed)?;
    let keys: Vec<u128> = a
        .key
        .iter()
        .flat_map(|s| s.split(','))
        .map(|s| parse_key(s, seed.config.key_bits))
        .collect::<Result<_, _>>()?;
    let stored: Vec<usize> = seed.epochs.iter().map(|e| e.epoch).collect();
    let range = a.epoch.map(|e| (e.saturating_sub(a.bogus as usize), e + a.after as usize));
    if let Some(e) = a.epoch.filter(|e| !stored.contains(e)) {
        return Err(format!("--epoch {e}: not stored (stored: {:?})", stored));
    }
    let q = engine(run, seed, range, !a.json)?;
    // The true latency of the keys in the stated epoch, when the run has its packets.
    let truth: Vec<Delayed> = match a.epoch.and_then(|e| seed.epochs.iter().find(|x| x.epoch == e)) {
        Some(e) => run.truth(seed, e)?.unwrap_or_default(),
        None => vec![],
    };
    let mut out = vec![];
    let mut t = Table::new(&[
        ("key", Align::Left),
        ("epoch", Align::Right),
        ("answer", Align::Left),
        ("from", Align::Right),
        ("center", Align::Right),
        ("center µs", Align::Right),
        ("refined µs", Align::Right),
        ("true µs", Align::Right),
    ]);
    for &k in &keys {
        let answers: Vec<(usize, Answer)> = match a.epoch {
            Some(e) => vec![(e, q.query(k, window(a, e), rule(a)).expect("the stated epoch is stored"))],
            None => q.epochs().map(|e| (e, Answer::of(e, &q.lookup(e, k).expect("stored")))).collect(),
        };
        let true_ns = truth.iter().find(|d| d.key == k).map(|d| d.latency);
        for (e, ans) in &answers {
            t.row(
                vec![
                    format!("{k:032x}"),
                    e.to_string(),
                    ans.kind.name().into(),
                    ans.epoch.map_or("-".into(), |x| x.to_string()),
                    ans.center.map_or("-".into(), |x| x.to_string()),
                    us(ans.latency),
                    us(ans.refined),
                    us(true_ns),
                ]
                .into_iter()
                .map(Into::into)
                .collect(),
            );
        }
        let answers: Vec<_> =
            answers.into_iter().map(|(e, ans)| serde_json::json!({"epoch": e, "answer": ans})).collect();
        out.push(serde_json::json!({"key": format!("{k:032x}"), "true_latency_ns": true_ns, "answers": answers}));
    }
    if a.json {
        let doc = serde_json::json!({"seed": seed.seed, "bogus": a.bogus, "after": a.after, "combine": a.combine, "keys": out});
        println!("{}", serde_json::to_string_pretty(&doc).map_err(|e| e.to_string())?);
    } else {
        print!("{}", t.text());
        println!("(seed {}; answers: the center's latency and the refined estimate, the mean of that epoch's packets at the center)", seed.seed);
    }
    Ok(())
}

fn flows(a: &QueryArgs, run: &StoredRun) -> Result<(), String> {
    let seed = run.seed(a.seed)?;
    let layout = &run.manifest.key_layout;
    let level = match levels(a)?[..] {
        [l @ (Level::Flow | Level::Subflow)] => l,
        _ if a.level == "all" => Level::Flow,
        _ => return Err(format!("--level {}: --flow takes flow or subflow", a.level)),
    };
    let wanted: Vec<(String, u128)> = a
        .flow
        .iter()
        .map(|s| {
            let t: FiveTuple = s.parse()?;
            let id = layout.flow_of(&t).ok_or_else(|| {
                format!(
                    "--flow {s}: protocol {} is not stored (the run's keys are protocol {})",
                    t.protocol, layout.protocol
                )
            })?;
            Ok((s.clone(), id))
        })
        .collect::<Result<_, String>>()?;
    let q = engine(run, seed, None, !a.json)?;
    let epochs: Vec<_> = seed.epochs.iter().filter(|e| a.epoch.is_none_or(|x| x == e.epoch)).collect();
    if epochs.is_empty() {
        return Err(format!("--epoch {}: not stored", a.epoch.unwrap_or(0)));
    }
    let bar = seed_bar(epochs.len() as u64, !a.json, "{bar:30} {pos}/{len} epochs searched [{elapsed_precise}]");
    let mut rows = vec![];
    for e in epochs {
        let Some(packets) = run.truth(seed, e)? else {
            return Err(format!("epoch {}: stored without its packets, so the flow's keys are unknown", e.epoch));
        };
        let keys: Vec<u128> = packets.iter().map(|d| d.key).collect();
        let truth: Vec<u32> = packets.iter().map(|d| d.latency).collect();
        for g in groups(layout, level, &keys) {
            let Some((name, _)) = wanted.iter().find(|(_, id)| *id == g.id) else { continue };
            let mut est = vec![None; keys.len()];
            for &i in &g.members {
                est[i] = q.query(keys[i], window(a, e.epoch), rule(a)).and_then(|x| x.refined);
            }
            let st = stat(&g, &truth, &est);
            rows.push(serde_json::json!({
                "flow": name, "part": g.part, "epoch": e.epoch, "packets": st.packets, "answered": st.answered,
                "estimate_ns": st.estimate, "true_ns": st.truth, "relative_error": st.relative_error(),
            }));
        }
        bar.inc(1);
    }
    bar.finish_and_clear();
    if a.json {
        let doc = serde_json::json!({"seed": seed.seed, "level": level.name(), "bogus": a.bogus, "after": a.after, "groups": rows});
        println!("{}", serde_json::to_string_pretty(&doc).map_err(|e| e.to_string())?);
        return Ok(());
    }
    let mut t = Table::new(&[
        ("flow", Align::Left),
        ("part", Align::Right),
        ("epoch", Align::Right),
        ("packets", Align::Right),
        ("answered", Align::Right),
        ("estimate µs", Align::Right),
        ("true µs", Align::Right),
        ("rel. error", Align::Right),
    ]);
    for r in &rows {
        let f = |k: &str, s: f64| r[k].as_f64().map_or("-".into(), |v| format!("{:.3}", v * s));
        let cells = [r["flow"].as_str().unwrap_or("").to_string(), r["part"].to_string(), r["epoch"].to_string()];
        let mut cells: Vec<String> = cells.into();
        cells.extend([r["packets"].to_string(), r["answered"].to_string(), f("estimate_ns", 1e-3), f("true_ns", 1e-3)]);
        cells.push(f("relative_error", 1.0));
        t.row(cells.into_iter().map(Into::into).collect());
    }
    if rows.is_empty() {
        println!("no packet of {} in the stored epochs of seed {}", a.flow.join(", "), seed.seed);
    } else {
        print!("{}", t.text());
    }
    Ok(())
}

fn print_evaluation(o: &Evaluation) {
    let mut cols = vec![
        ("level", Align::Left),
        ("groups", Align::Right),
        ("1 packet", Align::Right),
        ("no estimate", Align::Right),
    ];
    let names: Vec<String> = PCTS.iter().map(|p| format!("p{p}")).collect();
    cols.extend(names.iter().map(|n| (n.as_str(), Align::Right)));
    let mut t = Table::new(&cols);
    for l in &o.levels {
        let mut row = vec![
            l.level.to_string(),
            l.groups.to_string(),
            format!("{:.1} %", 100.0 * l.single_packet),
            l.unanswered.to_string(),
        ];
        row.extend(l.relative_error.values().map(|v| format!("{:.2} %", 100.0 * v)));
        t.row(row.into_iter().map(Into::into).collect());
    }
    println!("Fig. 8(a): relative error of the average latency (each packet in its own epoch)");
    print!("{}", t.text());
    let mut cols = vec![("bogus b", Align::Right), ("multi-match", Align::Right), ("bogus answer", Align::Right)];
    cols.extend(names.iter().map(|n| (n.as_str(), Align::Right)));
    let mut t = Table::new(&cols);
    for b in &o.bogus {
        let mut row = vec![b.bogus.to_string(), format!("{:.4}", b.multi_match), format!("{:.4}", b.wrong_epoch)];
        row.extend(b.abs_err_us.values().map(|v| format!("{v:.2}")));
        t.row(row.into_iter().map(Into::into).collect());
    }
    println!("Fig. 8(c): per-packet absolute error (µs), true epoch plus b previous ({} rule)", o.rule);
    print!("{}", t.text());
    for l in o.levels.iter().filter(|l| !l.top.is_empty()) {
        let mut t = Table::new(&[
            ("seed", Align::Right),
            ("epoch", Align::Right),
            (l.level, Align::Left),
            ("packets", Align::Right),
            ("estimate µs", Align::Right),
            ("true µs", Align::Right),
            ("rel. error", Align::Right),
        ]);
        for g in &l.top {
            let cells = [
                g.seed.to_string(),
                g.epoch.to_string(),
                g.group.clone(),
                g.stat.packets.to_string(),
                g.stat.estimate.map_or("-".into(), |v| format!("{:.3}", v / 1e3)),
                format!("{:.3}", g.stat.truth / 1e3),
                g.relative_error.map_or("-".into(), |v| format!("{:.2} %", 100.0 * v)),
            ];
            t.row(cells.into_iter().map(Into::into).collect());
        }
        println!("largest {} groups", l.level);
        print!("{}", t.text());
    }
}

/// A labelled CDF curve.
type Curve = (String, Vec<(f64, f64)>);

fn plot(path: &std::path::Path, o: &Evaluation, title: &str) -> Result<(), String> {
    let log = |lo: f64| move |v: f64| v.max(lo).log10();
    let level_curves =
        o.levels.iter().map(|l| (l.level.to_string(), cdf_points(|q| quantile(&l.sorted, q), log(1e-5))));
    // Fig. 8(c) as the paper draws it: the upper 30 % of the CDF, where the bogus epochs show.
    let tail = |mut p: Vec<(f64, f64)>| {
        p.retain(|&(_, q)| q >= 0.7);
        p
    };
    let bogus_curves = o
        .bogus
        .iter()
        .map(|b| (format!("b = {}", b.bogus), tail(cdf_points(|q| b.cdf.quantile(q), |ns| log(1e-3)(ns / 1e3)))));
    let all: Vec<Curve> = level_curves.chain(bogus_curves).collect();
    let n = o.levels.len();
    // Every curve in both charts (empty where it does not belong): one legend, one colour per curve.
    let series = |mine: &dyn Fn(usize) -> bool| -> Vec<Series> {
        let pick = |(i, (l, p)): (usize, &Curve)| Series {
            label: l.clone(),
            points: if mine(i) { p.clone() } else { vec![] },
            markers: false,
            ..Series::default()
        };
        all.iter().enumerate().map(pick).collect()
    };
    let chart = |t: &str, x: &str, r: (f64, f64), y0: f64, s| Chart {
        title: t.into(),
        x_label: x.into(),
        y_label: "CDF".into(),
        x_range: r,
        y_range: (y0, 1.0),
        x_scale: Scale::Linear,
        y_scale: Scale::Linear,
        x_ticks: Ticks::Plain,
        series: s,
        guides: vec![],
    };
    let charts = [
        chart("Fig. 8(a): average latency per level", "log10 relative error", (-5.0, 1.0), 0.0, series(&|i| i < n)),
        chart("Fig. 8(c): true + b bogus epochs", "log10 absolute error (µs)", (0.0, 4.0), 0.7, series(&|i| i >= n)),
    ];
    write_figure(path, &charts_figure(title, &charts, 2)).map_err(|e| format!("--plot {e}"))
}

fn evaluation(a: &QueryArgs, run: &StoredRun) -> Result<(), String> {
    let setup = EvalSetup { levels: levels(a)?, bogus: a.bogus as usize, rule: rule(a), seed: a.seed, top: a.top };
    let seeds: Vec<&SeedEntry> = match a.seed {
        Some(s) => vec![run.seed(Some(s))?],
        None => run.manifest.seeds.iter().collect(),
    };
    let measured = seeds.iter().flat_map(|s| &s.epochs).filter(|e| e.measured && e.epoch >= setup.bogus).count();
    let bar = seed_bar(measured as u64, !a.json, "{bar:30} {pos}/{len} epochs queried [{elapsed_precise}]");
    let o = evaluate(run, &setup, &|| bar.inc(1));
    bar.finish_and_clear();
    let o = o?;
    if a.json {
        let mut doc = serde_json::json!({
            "epochs_dir": run.dir.display().to_string(), "seeds": o.seeds, "epochs": o.epochs,
            "packets": o.packets, "combine": o.rule, "bogus": o.bogus, "setting": run.manifest.setting,
        });
        for l in &o.levels {
            doc[l.level] = serde_json::to_value(l).map_err(|e| e.to_string())?;
        }
        println!("{}", serde_json::to_string_pretty(&doc).map_err(|e| e.to_string())?);
    } else {
        println!(
            "{}: seeds {:?}, {} measured epochs with {} previous stored, {} packets",
            run.dir.display(),
            o.seeds,
            o.epochs,
            setup.bogus,
            o.packets
        );
        print_evaluation(&o);
    }
    if let Some(p) = &a.plot {
        plot(p, &o, &format!("MAPLE query engine: {}", run.dir.display()))?;
    }
    Ok(())
}

/// `netmeas query maple`.
pub fn run(a: &QueryArgs) -> Result<(), String> {
    crate::plot::Format::check_option(&a.plot)?;
    levels(a)?;
    let run = StoredRun::open(&a.epochs)?;
    if !a.key.is_empty() {
        lookup_keys(a, &run)
    } else if !a.flow.is_empty() {
        flows(a, &run)
    } else {
        evaluation(a, &run)
    }
}
