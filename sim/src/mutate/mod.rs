//! `netmeas mutate`: mutation testing of the RTL against the co-simulation suite (issue 11).
//!
//! Each core keeps a list of plausible design mistakes in `testbench/mutants/<core>.toml` ([`list`]: file,
//! original text, replacement, what it models, which tests must catch it). The command applies them one
//! at a time to a scratch copy of the repository ([`scratch`]), rebuilds it and runs the named
//! co-simulation tests there, with one traffic seed for the whole run (printed; `--seed` repeats it):
//!
//! | verdict | when |
//! |---|---|
//! | killed | a test failed (the evidence is the failing test and its first differing cycle) |
//! | timeout | the tests ran past `--timeout` (counted as killed, flagged) |
//! | survived | every test passed: the suite cannot see this mistake |
//! | equivalent | survived, and the list says why no test can observe it (not counted) |
//! | stillborn | the mutant does not build, or its build ran past `--build-timeout`: a broken list entry (an error) |
//!
//! Before the mutants, the unmutated tree is built once (every selected test file; the first scratch build
//! recompiles the workspace's crates) and each distinct test selection runs once on it (the baseline): a
//! suite that fails without a mutant would "kill" every mutant. The kill rate is killed (with time-outs)
//! over killed plus survived, per list and in all.

pub mod list;
pub mod scratch;

use list::{Entry, Kind};
use scratch::{Ended, Restore, Scratch};
use serde::Serialize;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};
use synth::table::{flagged, Align, Table};

/// `netmeas mutate` options.
#[derive(clap::Args, Debug, Clone)]
pub struct MutateArgs {
    /// Only these lists (repeat or comma-separate: fridge, tally, finecomb, shared_blocks, …; default all).
    #[arg(long = "core", value_delimiter = ',')]
    pub cores: Vec<String>,
    /// Only the mutants whose id starts with one of these (e.g. fridge.expiry_ge_gt, or fridge.expiry).
    #[arg(long, value_delimiter = ',')]
    pub only: Vec<String>,
    /// The CI subset: the mutants marked `ci = true`.
    #[arg(long)]
    pub ci: bool,
    /// List the selected mutants and check them against the tree; build nothing.
    #[arg(long)]
    pub list: bool,
    /// Traffic seed of every test run (NETMEAS_SEED; default fresh entropy, printed).
    #[arg(long)]
    pub seed: Option<u64>,
    /// Per-mutant limit on the test run, in seconds (a mutant that hangs the co-simulation is killed).
    #[arg(long, default_value_t = 600)]
    pub timeout: u64,
    /// Limit on a build, in seconds. The first build of the scratch tree recompiles every workspace crate
    /// and may re-Verilate models (many minutes on a fresh machine); a mutant's build only its crates.
    #[arg(long, default_value_t = 3600)]
    pub build_timeout: u64,
    /// Skip the baseline run of the unmutated tree (faster when iterating on a list; the verdicts then
    /// assume the suite passes without mutants).
    #[arg(long)]
    pub no_baseline: bool,
    /// Exit non-zero when the kill rate over the selection is below this percentage.
    #[arg(long, value_parser = clap::value_parser!(u8).range(0..=100))]
    pub min_kill: Option<u8>,
    /// Repository root (default: the checkout this command runs in).
    #[arg(long)]
    pub repo: Option<PathBuf>,
    /// The main build's cargo target directory (default: $CARGO_TARGET_DIR, else <repo>/target). The scratch
    /// tree and its build live below it (`netmeas-mutate/`, locked while a run lives); its `release/` is
    /// what the first scratch build is copied from. A second run at the same time needs its own directory.
    #[arg(long)]
    pub target_dir: Option<PathBuf>,
    /// Print the results as JSON (stdout) instead of the tables.
    #[arg(long)]
    pub json: bool,
    /// Print the tables as Markdown (for README sections).
    #[arg(long)]
    pub markdown: bool,
}

/// How a mutant ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Verdict {
    Killed,
    Timeout,
    Survived,
    Equivalent,
    Stillborn,
}

/// One mutant's result.
#[derive(Debug, Clone, Serialize)]
pub struct Outcome {
    pub id: String,
    pub list: String,
    pub kind: Kind,
    pub file: PathBuf,
    pub models: String,
    pub verdict: Verdict,
    pub evidence: String,
    pub seconds: f64,
    pub log: PathBuf,
}

/// Kill counts of a set of outcomes.
#[derive(Debug, Clone, Copy, Default, Serialize)]
pub struct Tally {
    pub mutants: usize,
    pub killed: usize,
    pub timeout: usize,
    pub survived: usize,
    pub equivalent: usize,
    pub stillborn: usize,
    /// Killed (with time-outs) over killed plus survived, in percent; `None` when nothing counts.
    pub kill_rate: Option<f64>,
}

impl Tally {
    pub fn of<'a>(outcomes: impl IntoIterator<Item = &'a Outcome>) -> Tally {
        let mut t = Tally::default();
        for o in outcomes {
            t.mutants += 1;
            match o.verdict {
                Verdict::Killed => t.killed += 1,
                Verdict::Timeout => t.timeout += 1,
                Verdict::Survived => t.survived += 1,
                Verdict::Equivalent => t.equivalent += 1,
                Verdict::Stillborn => t.stillborn += 1,
            }
        }
        let counted = t.killed + t.timeout + t.survived;
        t.kill_rate = (counted > 0).then(|| 100.0 * (t.killed + t.timeout) as f64 / counted as f64);
        t
    }
}

/// The repository root: `--repo`, else the nearest folder above the current one holding `testbench/mutants`.
fn repo_root(arg: &Option<PathBuf>) -> Result<PathBuf, String> {
    if let Some(r) = arg {
        return std::fs::canonicalize(r).map_err(|e| format!("--repo {}: {e}", r.display()));
    }
    let cwd = std::env::current_dir().map_err(|e| e.to_string())?;
    cwd.ancestors()
        .find(|d| d.join(list::LIST_DIR).is_dir() && d.join("Cargo.toml").is_file())
        .map(Path::to_path_buf)
        .ok_or_else(|| format!("no netmeas checkout (with {}) at or above {}; use --repo", list::LIST_DIR, cwd.display()))
}

/// Runs one mutant in the scratch tree.
fn run_one(s: &Scratch, e: &Entry, limits: Limits) -> Result<Outcome, String> {
    let m = &e.mutant;
    let path = s.tree.join(&m.file);
    let original = std::fs::read_to_string(&path).map_err(|err| format!("cannot read {}: {err}", path.display()))?;
    let mutated = m.apply(&original).map_err(|err| format!("{}: {err}", m.id))?;
    let log = s.logs.join(format!("{}.log", m.id));
    let _ = std::fs::remove_file(&log);
    let start = Instant::now();
    let (verdict, evidence) = {
        let _restore = Restore::apply(&path, original, &mutated)?;
        match s.cargo_test(&e.tests, &e.tops, true, &log, limits.build)? {
            Ended::Passed => match s.cargo_test(&e.tests, &e.tops, false, &log, limits.test)? {
                Ended::Passed if m.equivalent.is_some() => (Verdict::Equivalent, m.equivalent.clone().unwrap_or_default()),
                Ended::Passed => (Verdict::Survived, String::new()),
                Ended::Failed => (Verdict::Killed, scratch::evidence(&std::fs::read_to_string(&log).unwrap_or_default())),
                Ended::TimedOut => (Verdict::Timeout, format!("tests ran past {} s", limits.test.as_secs())),
            },
            Ended::Failed => (Verdict::Stillborn, "does not build (see the log)".into()),
            Ended::TimedOut => (Verdict::Stillborn, format!("build ran past {} s", limits.build.as_secs())),
        }
    };
    Ok(Outcome {
        id: m.id.clone(),
        list: e.list.clone(),
        kind: m.kind,
        file: m.file.clone(),
        models: m.models.clone(),
        verdict,
        evidence,
        seconds: start.elapsed().as_secs_f64(),
        log,
    })
}

/// A line above the progress bar. The bar hides itself (and its println) when stderr is no terminal: a log
/// still gets every line.
fn say(bar: &indicatif::ProgressBar, line: String) {
    if bar.is_hidden() {
        eprintln!("{line}");
    } else {
        bar.println(line);
    }
}

/// Time limits of one cargo run: a build, and the tests after it.
#[derive(Debug, Clone, Copy)]
struct Limits {
    build: Duration,
    test: Duration,
}

/// The last `n` lines of a log, for an error message (CI shows stderr, not the log file).
fn tail(log: &Path, n: usize) -> String {
    let text = std::fs::read_to_string(log).unwrap_or_default();
    let lines: Vec<&str> = text.lines().collect();
    lines[lines.len().saturating_sub(n)..].join("\n")
}

/// The baseline: the unmutated tree builds (every selected test, once: the scratch tree's first build is
/// the long one, so it has the build limit, not the test limit), then every distinct test selection passes.
fn baseline(s: &Scratch, entries: &[Entry], limits: Limits, bar: &indicatif::ProgressBar) -> Result<(), String> {
    let mut seen: Vec<&Vec<String>> = Vec::new();
    for e in entries {
        if !seen.contains(&&e.tests) {
            seen.push(&e.tests);
        }
    }
    let fail = |what: &str, how: Ended, log: &Path, limit: Duration| -> String {
        let how = match how {
            Ended::TimedOut => format!("ran past {} s", limit.as_secs()),
            _ => "failed".to_string(),
        };
        format!(
            "the unmutated tree's {what} {how} (log: {}); its last lines:\n{}\nfix the suite before measuring its \
             mutants",
            log.display(),
            tail(log, 40)
        )
    };
    // Every selected test file, once, with the models of every selected test.
    let mut tops: Vec<String> = entries.iter().flat_map(|e| e.tops.iter().cloned()).collect();
    tops.sort();
    tops.dedup();
    let mut files: Vec<String> = Vec::new();
    for tests in &seen {
        let (file, _) = list::test_args(tests)?;
        if !files.contains(&file) {
            files.push(file);
        }
    }
    let build: Vec<String> = files.iter().flat_map(|f| ["--test".to_string(), f.clone()]).collect();
    bar.set_message("baseline: building the scratch tree");
    let log = s.logs.join("baseline-build.log");
    let _ = std::fs::remove_file(&log);
    let start = Instant::now();
    match s.cargo_test(&build, &tops, true, &log, limits.build)? {
        Ended::Passed => {}
        how => {
            let what = format!("build (`cargo test --release --workspace --no-run {}`)", build.join(" "));
            return Err(fail(&what, how, &log, limits.build));
        }
    }
    say(bar, format!("baseline build: {:.0} s", start.elapsed().as_secs_f64()));
    for (i, tests) in seen.iter().enumerate() {
        bar.set_message(format!("baseline: cargo test {}", tests.join(" ")));
        let log = s.logs.join(format!("baseline-{}.log", i + 1));
        let _ = std::fs::remove_file(&log);
        // The build's model list again: a different NETMEAS_MODEL_ONLY would re-run the build script.
        match s.cargo_test(tests, &tops, false, &log, limits.test)? {
            Ended::Passed => {}
            how => {
                let what = format!("`cargo test --release --workspace {}`", tests.join(" "));
                return Err(fail(&what, how, &log, limits.test));
            }
        }
    }
    Ok(())
}

/// Each list's tally, in the order the lists ran.
fn per_list(outcomes: &[Outcome]) -> Vec<(&str, Tally)> {
    let mut names: Vec<&str> = outcomes.iter().map(|o| o.list.as_str()).collect();
    names.dedup();
    names.into_iter().map(|n| (n, Tally::of(outcomes.iter().filter(|o| o.list == n)))).collect()
}

/// The results as tables: one row per mutant, then one per list and the total.
pub fn tables(outcomes: &[Outcome]) -> (Table, Table) {
    let mut rows = Table::new(&[
        ("mutant", Align::Left),
        ("kind", Align::Left),
        ("verdict", Align::Left),
        ("s", Align::Right),
        ("evidence / what it models", Align::Left),
    ]);
    for o in outcomes {
        let verdict = format!("{:?}", o.verdict).to_lowercase();
        let bad = matches!(o.verdict, Verdict::Survived | Verdict::Stillborn);
        let text = if o.evidence.is_empty() { o.models.clone() } else { o.evidence.clone() };
        rows.row(vec![
            o.id.clone().into(),
            format!("{:?}", o.kind).to_lowercase().into(),
            if bad { flagged(verdict) } else { verdict.into() },
            format!("{:.0}", o.seconds).into(),
            text.chars().take(120).collect::<String>().into(),
        ]);
    }
    let mut sum = Table::new(&[
        ("list", Align::Left),
        ("mutants", Align::Right),
        ("killed", Align::Right),
        ("timeout", Align::Right),
        ("survived", Align::Right),
        ("equivalent", Align::Right),
        ("stillborn", Align::Right),
        ("kill rate", Align::Right),
    ]);
    let row = |name: &str, t: Tally| {
        let rate = t.kill_rate.map_or("–".into(), |r| format!("{r:.1} %"));
        vec![
            name.to_string().into(),
            t.mutants.to_string().into(),
            t.killed.to_string().into(),
            t.timeout.to_string().into(),
            t.survived.to_string().into(),
            t.equivalent.to_string().into(),
            t.stillborn.to_string().into(),
            if t.kill_rate.is_some_and(|r| r < 95.0) { flagged(rate) } else { rate.into() },
        ]
    };
    for (n, t) in per_list(outcomes) {
        sum.row(row(n, t));
    }
    sum.row(row("all", Tally::of(outcomes)));
    (rows, sum)
}

/// `netmeas mutate`.
pub fn run(a: &MutateArgs) -> Result<(), String> {
    let repo = repo_root(&a.repo)?;
    let dir = repo.join(list::LIST_DIR);
    let (lists, map) = (list::load(&dir)?, list::load_tops(&dir)?);
    let errs = list::check(&lists, &map, &repo);
    if !errs.is_empty() {
        return Err(format!("{} problem(s) in the mutant lists:\n  {}", errs.len(), errs.join("\n  ")));
    }
    let entries = list::select(&lists, &map, &a.cores, &a.only, a.ci)?;
    if a.list {
        let mut t = Table::new(&[("mutant", Align::Left), ("kind", Align::Left), ("file", Align::Left), ("models", Align::Left)]);
        for e in &entries {
            let m = &e.mutant;
            t.row(vec![
                m.id.clone().into(),
                format!("{:?}", m.kind).to_lowercase().into(),
                m.file.display().to_string().into(),
                m.models.chars().take(100).collect::<String>().into(),
            ]);
        }
        print!("{}", if a.markdown { t.markdown() } else { t.text() });
        println!("{} mutants selected; every one checked against the tree", entries.len());
        return Ok(());
    }
    let target = match (&a.target_dir, std::env::var_os("CARGO_TARGET_DIR")) {
        (Some(t), _) => t.clone(),
        (None, Some(t)) if !t.is_empty() => PathBuf::from(t),
        _ => repo.join("target"),
    };
    let target = if target.is_absolute() { target } else { repo.join(target) };
    let seed = a.seed.unwrap_or_else(rand::random);
    let (s, written) = Scratch::prepare(&repo, &target, seed)?;
    let limits = Limits { build: Duration::from_secs(a.build_timeout.max(1)), test: Duration::from_secs(a.timeout.max(1)) };
    eprintln!(
        "netmeas mutate: {} mutants, scratch tree {} ({written} files updated), traffic seed {seed} \
         (repeat: --seed {seed})",
        entries.len(),
        s.tree.display()
    );
    let bar = crate::cli::seed_bar(entries.len() as u64, !a.json, "{bar:30} {pos}/{len} {elapsed_precise} {msg}");
    if !a.no_baseline {
        baseline(&s, &entries, limits, &bar)?;
    }
    let mut outcomes = Vec::new();
    for e in &entries {
        bar.set_message(e.mutant.id.clone());
        let o = run_one(&s, e, limits)?;
        let line = format!("{:<44} {:<10} {:>4.0} s  {}", o.id, format!("{:?}", o.verdict).to_lowercase(), o.seconds, o.evidence);
        say(&bar, line);
        outcomes.push(o);
        bar.inc(1);
    }
    bar.finish_and_clear();
    let total = Tally::of(&outcomes);
    if a.json {
        let lists: serde_json::Map<String, serde_json::Value> = per_list(&outcomes)
            .into_iter()
            .map(|(n, t)| (n.to_string(), serde_json::to_value(t).unwrap()))
            .collect();
        let doc = serde_json::json!({ "seed": seed, "total": total, "lists": lists, "mutants": outcomes });
        println!("{}", serde_json::to_string_pretty(&doc).map_err(|e| e.to_string())?);
    } else {
        let (rows, sum) = tables(&outcomes);
        let show = |t: &Table| if a.markdown { t.markdown() } else { t.text() };
        println!("{}\n{}", show(&rows), show(&sum));
        println!("traffic seed {seed}; logs in {}", s.logs.display());
    }
    if total.stillborn > 0 {
        return Err(format!("{} mutant(s) do not build: mend their list entries (logs in {})", total.stillborn, s.logs.display()));
    }
    if let (Some(min), Some(rate)) = (a.min_kill, total.kill_rate) {
        if rate < min as f64 {
            return Err(format!("kill rate {rate:.1} % is below --min-kill {min} %"));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn outcome(list: &str, verdict: Verdict) -> Outcome {
        Outcome {
            id: format!("{list}.m"),
            list: list.into(),
            kind: Kind::Decision,
            file: "hdl/src/x.rs".into(),
            models: "m".into(),
            verdict,
            evidence: String::new(),
            seconds: 1.0,
            log: PathBuf::new(),
        }
    }

    #[test]
    fn kill_rate_counts_timeouts_as_killed_and_leaves_out_equivalent_and_stillborn() {
        let os = [
            outcome("a", Verdict::Killed),
            outcome("a", Verdict::Timeout),
            outcome("a", Verdict::Survived),
            outcome("a", Verdict::Equivalent),
            outcome("b", Verdict::Stillborn),
        ];
        let t = Tally::of(&os);
        assert_eq!((t.mutants, t.killed, t.timeout, t.survived, t.equivalent, t.stillborn), (5, 1, 1, 1, 1, 1));
        assert!((t.kill_rate.unwrap() - 200.0 / 3.0).abs() < 1e-9);
        assert_eq!(Tally::of(&os[4..]).kill_rate, None);
        let (rows, sum) = tables(&os);
        assert!(rows.text().contains("SURVIVED") && rows.text().contains("STILLBORN"));
        assert!(sum.text().contains("66.7 %"), "{}", sum.text());
    }

    /// Every committed list is well-formed and matches the tree it mutates (an edit of the RTL that
    /// removes a mutated snippet fails here, not in a long mutation run).
    #[test]
    fn mutant_lists_match_the_tree() {
        let repo = Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap();
        let dir = repo.join(list::LIST_DIR);
        let (lists, map) = (list::load(&dir).unwrap(), list::load_tops(&dir).unwrap());
        let errs = list::check(&lists, &map, repo);
        assert!(errs.is_empty(), "{}", errs.join("\n"));
        // Every test the tops map names exists in its file, and every top it names is an emitted build.
        let mut builds = std::collections::BTreeSet::new();
        for c in hdl::registry::CORES {
            builds.extend((c.builds)().unwrap().into_iter().filter(|b| b.emitted).map(|b| b.name));
        }
        for (file, tests) in &map {
            let src = std::fs::read_to_string(repo.join(format!("testbench/tests/{file}.rs"))).unwrap();
            for (test, tops) in tests {
                assert!(src.contains(&format!("fn {test}()")), "tops.toml: no test {test} in testbench/tests/{file}.rs");
                for t in tops {
                    assert!(builds.contains(t), "tops.toml: {file}::{test} names {t}, which is no emitted top");
                }
            }
        }
        for l in &lists {
            for m in &l.mutants {
                for t in m.tops.iter().flatten() {
                    assert!(builds.contains(t), "{}: tops names {t}, which is no emitted top", m.id);
                }
            }
        }
        for l in &lists {
            assert!(l.mutants.len() >= 15, "list {} has {} mutants; issue 11 asks for at least 15", l.list.name, l.mutants.len());
        }
        // The CI subset: some, and few (each costs a rebuild of its tops in CI's time).
        let ci = lists.iter().flat_map(|l| &l.mutants).filter(|m| m.ci).count();
        assert!((1..=6).contains(&ci), "{ci} mutants marked ci = true; CI runs 1 to 6");
    }
}
