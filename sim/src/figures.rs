//! `netmeas figures --out DIR`: every paper figure netmeas reproduces, each one `netmeas run <core> …
//! --plot DIR/<name>.<ext>` run in this process through the core's own command line (so a figure here is
//! exactly what its command in the README draws), with a summary of where each went and how long it took.

use crate::cli::CoreCli;
use std::path::{Path, PathBuf};
use std::time::Instant;

/// One figure: its file name (without extension), the paper's figure it reproduces, and the `run`
/// arguments (after `netmeas run`) at full scale and `--quick`'s (flag, value) pairs, which replace the
/// figure's own value of a flag or are added.
#[derive(Debug, Clone, Copy)]
pub struct FigureSpec {
    pub name: &'static str,
    pub paper: &'static str,
    pub args: &'static [&'static str],
    pub quick: &'static [&'static str],
}

const FC_QUICK: &[&str] = &["--packets", "200000", "--seeds", "2"];

/// The figures, in the order `netmeas figures` draws them.
pub const FIGURES: &[FigureSpec] = &[
    FigureSpec {
        name: "fridge-fig2.2",
        paper: "dissertation Fig. 2.2: delay CDFs of fridge, simple array and expiry against the truth (§2.4)",
        args: &["fridge"],
        quick: &["--seeds", "1"],
    },
    FigureSpec {
        name: "fridge-memory",
        paper: "dissertation §2.4.3: errors vs memory M, fridge, 4-fridge multi-fridge, simple, expiry",
        args: &["fridge", "--fridges", "4", "--sweep", "memory"],
        quick: &["--seeds", "1", "--samples", "50000"],
    },
    FigureSpec {
        name: "fridge-p",
        paper: "dissertation §2.4.2: errors vs the entry probability p at M = 1024",
        args: &["fridge", "--sweep", "p"],
        quick: &["--seeds", "1", "--samples", "50000"],
    },
    FigureSpec {
        name: "finecomb-fig4",
        paper: "FineComb Fig. 4: useful samples, mean-delay and loss errors vs ρ, FineComb and FineComb−, β = 0.01",
        args: &["finecomb", "--loss", "0.01", "--method", "finecomb,finecomb-", "--sweep", "rho"],
        quick: FC_QUICK,
    },
    FigureSpec {
        name: "finecomb-fig5",
        paper: "FineComb Fig. 5: mean-delay error vs storage S, β = 0.01, ρ = 0.04",
        args: &["finecomb", "--loss", "0.01", "--rho", "0.04", "--method", "finecomb", "--sweep", "buckets"],
        quick: FC_QUICK,
    },
    FigureSpec {
        name: "finecomb-fig6a-7a",
        paper: "FineComb Fig. 6(a) and 7(a): mean-delay and loss errors vs ρ, four methods, β = 1e-4, backward",
        args: &["finecomb", "--loss", "1e-4", "--sweep", "rho"],
        quick: FC_QUICK,
    },
    FigureSpec {
        name: "finecomb-fig6b",
        paper: "FineComb Fig. 6(b): the same under forward reordering",
        args: &["finecomb", "--loss", "1e-4", "--reorder", "forward", "--sweep", "rho"],
        quick: FC_QUICK,
    },
    FigureSpec {
        name: "finecomb-fig7b",
        paper: "FineComb Fig. 7(b): loss error for 5, 10, 50, 100 lost packets at ρ = 1e-4, backward",
        args: &["finecomb", "--rho", "1e-4", "--method", "finecomb,lda", "--sweep", "lost"],
        quick: FC_QUICK,
    },
    FigureSpec {
        name: "finecomb-fig8",
        paper: "FineComb Fig. 8(a)(c): 4-bank FineComb and 2-bank LDA vs ρ, β = 0.01",
        args: &["finecomb", "--banks", "4", "--method", "finecomb,lda", "--sweep", "rho=4e-4..4e-2:6"],
        quick: FC_QUICK,
    },
    FigureSpec {
        name: "ifpd-fig5",
        paper: "IFPD Fig. 5: precision, recall, F1 and relative error vs threshold (200..700 ms)",
        args: &["ifpd", "--sweep", "threshold"],
        quick: &["--packets", "20000", "--memory-kb", "15", "--seeds", "1"],
    },
    FigureSpec {
        name: "ifpd-fig6",
        paper: "IFPD Fig. 6: the same vs memory (100..600 KB)",
        args: &["ifpd", "--sweep", "memory"],
        quick: &["--packets", "20000", "--seeds", "1"],
    },
    FigureSpec {
        name: "maple-fig5a-6",
        paper: "MAPLE Fig. 5(a) and 6: classification failure, false classification, estimation error per method",
        args: &["maple", "--seeds", "5"],
        quick: &["--seeds", "1"],
    },
    FigureSpec {
        name: "heavy-hitters-theorem",
        paper: "RAP theorem (dissertation ch. 4): stored-fraction CDF per method and order",
        args: &["heavy-hitters"],
        quick: &["--runs", "50"],
    },
    FigureSpec {
        name: "reordering-recall",
        paper: "reordering (defense slides): recall/precision of reordered prefixes vs memory",
        args: &["reordering", "--method", "sampling,hybrid"],
        quick: &["--prefixes", "100", "--memory", "32,128", "--seeds", "1"],
    },
];

/// What one figure's run gave.
#[derive(Debug, Clone)]
pub struct Drawn {
    pub name: &'static str,
    pub file: PathBuf,
    pub seconds: f64,
}

/// The figures whose names contain one of `only` (all without), or an error naming the unknown ones.
pub fn select(only: &[String]) -> Result<Vec<FigureSpec>, String> {
    for o in only {
        if !FIGURES.iter().any(|f| f.name.contains(o.as_str())) {
            let names: Vec<&str> = FIGURES.iter().map(|f| f.name).collect();
            return Err(format!("--only {o}: no figure matches (figures: {})", names.join(", ")));
        }
    }
    Ok(FIGURES.iter().filter(|f| only.is_empty() || only.iter().any(|o| f.name.contains(o.as_str()))).copied().collect())
}

/// The `netmeas run` arguments of `f` (with `--quick`'s extras if `quick`) writing its plot to `file`.
pub fn run_args(f: &FigureSpec, quick: bool, file: &Path) -> Vec<String> {
    let mut v: Vec<String> = f.args.iter().map(|s| s.to_string()).collect();
    if quick {
        // `--quick`'s options are (flag, value) pairs that replace the figure's own value of the flag.
        for pair in f.quick.chunks(2) {
            match v.iter().position(|a| a == pair[0]) {
                Some(i) if pair.len() == 2 && i + 1 < v.len() => v[i + 1] = pair[1].to_string(),
                _ => v.extend(pair.iter().map(|s| s.to_string())),
            }
        }
    }
    v.push("--plot".into());
    v.push(file.display().to_string());
    v
}

/// Draws `figures` into `out` (created if missing) as `ext` (svg or png) through `cores`' command lines.
pub fn draw(cores: &[&dyn CoreCli], figures: &[FigureSpec], out: &Path, ext: &str, quick: bool) -> Result<Vec<Drawn>, String> {
    std::fs::create_dir_all(out).map_err(|e| format!("--out {}: {e}", out.display()))?;
    let mut drawn = Vec::new();
    for f in figures {
        let file = out.join(format!("{}.{ext}", f.name));
        let args = run_args(f, quick, &file);
        let core = cores
            .iter()
            .find(|c| c.name() == args[0])
            .ok_or_else(|| format!("figure {}: no core `{}`", f.name, args[0]))?;
        println!("== {} — {}\n   netmeas run {}", f.name, f.paper, args.join(" "));
        let start = Instant::now();
        let matches = core.command().try_get_matches_from(&args).map_err(|e| format!("figure {}: {e}", f.name))?;
        core.run(&matches).map_err(|e| format!("figure {}: {e}", f.name))?;
        drawn.push(Drawn { name: f.name, file, seconds: start.elapsed().as_secs_f64() });
    }
    Ok(drawn)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_unique_and_selection_is_by_substring() {
        let mut names: Vec<&str> = FIGURES.iter().map(|f| f.name).collect();
        names.sort();
        names.dedup();
        assert_eq!(names.len(), FIGURES.len());
        assert_eq!(select(&["finecomb".into()]).unwrap().len(), 6);
        assert_eq!(select(&[]).unwrap().len(), FIGURES.len());
        let e = select(&["fig99".into()]).unwrap_err();
        assert!(e.contains("fig99") && e.contains("finecomb-fig4"), "{e}");
        let a = run_args(FIGURES.iter().find(|f| f.name == "finecomb-fig4").unwrap(), true, Path::new("d/x.svg"));
        assert_eq!(&a[a.len() - 6..], ["--packets", "200000", "--seeds", "2", "--plot", "d/x.svg"]);
        let maple = FIGURES.iter().find(|f| f.name.starts_with("maple")).unwrap();
        let a = run_args(maple, true, Path::new("m.png"));
        assert_eq!(a, ["maple", "--seeds", "1", "--plot", "m.png"], "--quick replaces the figure's --seeds");
        for f in FIGURES {
            assert_eq!(f.quick.len() % 2, 0, "{}: --quick takes (flag, value) pairs", f.name);
        }
    }
}
