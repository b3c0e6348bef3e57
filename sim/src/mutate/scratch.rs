//! The scratch copy a mutation run edits, and the cargo runs in it.
//!
//! - The tree: `<target>/netmeas-mutate/tree` holds the repository's files (tracked, and untracked ones git
//!   does not ignore) as they are in the working tree. A file is rewritten only when its content differs, so
//!   cargo's fingerprints stay valid between runs and a run rebuilds only what a mutant touches.
//! - The build: `<target>/netmeas-mutate/target`, started as a copy of the main build directory, so
//!   crates.io dependencies and the Verilator model cache come along; a mutant re-Verilates only the tops
//!   its tests run (`NETMEAS_MODEL_ONLY`), and of those only the ones whose Verilog it changes.
//! - A run: `cargo test --release --workspace <tests> --no-run` (a failure here is a mutant that does not
//!   build; limited by `--build-timeout`), then the same without `--no-run` (limited by `--timeout`), in
//!   its own process group so a time-out kills the test binary too. Output goes to a log per mutant.

use std::collections::BTreeSet;
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// The scratch tree and where its builds go.
pub struct Scratch {
    pub tree: PathBuf,
    pub target: PathBuf,
    pub logs: PathBuf,
    pub seed: u64,
    /// Held (an exclusive lock on `netmeas-mutate/lock`) while this run lives: a second run on the same
    /// scratch tree would re-sync it under the first one's applied mutant and make it survive.
    _lock: std::fs::File,
}

/// How a cargo run ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ended {
    Passed,
    Failed,
    TimedOut,
}

/// The repository's files as `git ls-files` lists them (tracked, and untracked but not ignored).
fn repo_files(repo: &Path) -> Result<Vec<PathBuf>, String> {
    let out = Command::new("git")
        .args(["ls-files", "-z", "--cached", "--others", "--exclude-standard"])
        .current_dir(repo)
        .output()
        .map_err(|e| format!("cannot run git in {}: {e}", repo.display()))?;
    if !out.status.success() {
        return Err(format!(
            "{} is not a git checkout (netmeas mutate copies the files git lists): {}",
            repo.display(),
            String::from_utf8_lossy(&out.stderr).trim()
        ));
    }
    let files: BTreeSet<PathBuf> =
        out.stdout.split(|b| *b == 0).filter(|s| !s.is_empty()).map(|s| PathBuf::from(String::from_utf8_lossy(s).as_ref())).collect();
    // A file git still tracks but the working tree deleted is not part of the tree.
    Ok(files.into_iter().filter(|f| repo.join(f).is_file()).collect())
}

/// Every file below `dir`, relative to it.
fn files_below(dir: &Path, base: &Path, out: &mut Vec<PathBuf>) {
    if let Ok(rd) = std::fs::read_dir(dir) {
        for e in rd.flatten() {
            let p = e.path();
            if p.is_dir() {
                files_below(&p, base, out);
            } else if let Ok(rel) = p.strip_prefix(base) {
                out.push(rel.to_path_buf());
            }
        }
    }
}

/// Makes `tree` hold exactly `files` of `repo`, writing only what differs. Returns how many were written.
pub fn sync(repo: &Path, tree: &Path) -> Result<usize, String> {
    let files = repo_files(repo)?;
    let keep: BTreeSet<&PathBuf> = files.iter().collect();
    let mut present = Vec::new();
    files_below(tree, tree, &mut present);
    for stale in present.iter().filter(|p| !keep.contains(p)) {
        let _ = std::fs::remove_file(tree.join(stale));
    }
    let mut written = 0;
    for f in &files {
        let (src, dst) = (repo.join(f), tree.join(f));
        let data = std::fs::read(&src).map_err(|e| format!("cannot read {}: {e}", src.display()))?;
        if std::fs::read(&dst).is_ok_and(|d| d == data) {
            continue;
        }
        if let Some(parent) = dst.parent() {
            std::fs::create_dir_all(parent).map_err(|e| format!("cannot create {}: {e}", parent.display()))?;
        }
        std::fs::write(&dst, &data).map_err(|e| format!("cannot write {}: {e}", dst.display()))?;
        written += 1;
    }
    Ok(written)
}

/// Starts the scratch build directory as a copy of the main one (`cp -a`: crates.io dependencies and the
/// Verilator models need no rebuild; the workspace's own crates are rebuilt, since every file of the fresh
/// tree is newer than their artifacts). Without a main build there is nothing to copy: the first scratch
/// build is then a full one.
fn seed_target(main: &Path, scratch: &Path) -> Result<(), String> {
    let from = main.join("release");
    if !from.is_dir() {
        return Ok(());
    }
    std::fs::create_dir_all(scratch).map_err(|e| format!("cannot create {}: {e}", scratch.display()))?;
    let st = Command::new("cp")
        .arg("-a")
        .arg(&from)
        .arg(scratch.join("release"))
        .status()
        .map_err(|e| format!("cannot run cp: {e}"))?;
    if !st.success() {
        let _ = std::fs::remove_dir_all(scratch.join("release"));
        return Err(format!("copying {} to {} failed", from.display(), scratch.display()));
    }
    Ok(())
}

/// An exclusive lock on `<base>/lock`, held while the returned file lives (released by the OS when the
/// process ends, also when it is killed).
fn lock(base: &Path) -> Result<std::fs::File, String> {
    std::fs::create_dir_all(base).map_err(|e| format!("cannot create {}: {e}", base.display()))?;
    let path = base.join("lock");
    let f = std::fs::OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(&path)
        .map_err(|e| format!("cannot open {}: {e}", path.display()))?;
    match f.try_lock() {
        Ok(()) => Ok(f),
        Err(std::fs::TryLockError::WouldBlock) => Err(format!(
            "another netmeas mutate is running in {} (it holds {}); wait for it, or give this run a target \
             directory of its own (--target-dir)",
            base.display(),
            path.display()
        )),
        Err(std::fs::TryLockError::Error(e)) => Err(format!("cannot lock {}: {e}", path.display())),
    }
}

impl Scratch {
    /// Syncs the tree from `repo` under `target/netmeas-mutate`, and starts its build directory from a copy
    /// of `target`'s on the first run. The scratch build needs a directory of its own: cargo names a path
    /// crate's artifacts by its path relative to the workspace, so two checkouts sharing one target
    /// directory would overwrite each other's artifacts and fingerprints.
    pub fn prepare(repo: &Path, target: &Path, seed: u64) -> Result<(Scratch, usize), String> {
        let base = target.join("netmeas-mutate");
        let lock = lock(&base)?;
        let s = Scratch { tree: base.join("tree"), target: base.join("target"), logs: base.join("logs"), seed, _lock: lock };
        for d in [&s.tree, &s.logs] {
            std::fs::create_dir_all(d).map_err(|e| format!("cannot create {}: {e}", d.display()))?;
        }
        if !s.target.join("release").is_dir() {
            seed_target(target, &s.target)?;
        }
        let written = sync(repo, &s.tree)?;
        Ok((s, written))
    }

    /// `cargo test --release --workspace <tests>` (`--no-run` when `build_only`) in the tree, rebuilding only
    /// the models `tops` names (all when empty), output to `log` (appended), killed after `timeout`.
    ///
    /// `--workspace`, as the README's test command builds, and not `-p testbench`: cargo unifies dependency
    /// features over the selected packages, so `-p testbench` alone selects other features of shared
    /// crates.io dependencies than the main build did, and rebuilds them and all of rust-hdl above them (ten
    /// minutes on a fresh machine) instead of reusing the copied artifacts. `tests` names its test files
    /// (`--test FILE`), so only those are built.
    pub fn cargo_test(
        &self,
        tests: &[String],
        tops: &[String],
        build_only: bool,
        log: &Path,
        timeout: Duration,
    ) -> Result<Ended, String> {
        use std::os::unix::process::CommandExt as _;
        let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
        let mut args: Vec<String> = vec!["test".into(), "--release".into(), "--workspace".into()];
        // Before the tests' arguments: after a `--` it would go to the test binary.
        if build_only {
            args.push("--no-run".into());
        }
        args.extend(tests.iter().cloned());
        let mut f = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(log)
            .map_err(|e| format!("cannot write {}: {e}", log.display()))?;
        let _ = writeln!(f, "$ cargo {}", args.join(" "));
        let err = f.try_clone().map_err(|e| e.to_string())?;
        let mut child = Command::new(&cargo)
            .args(&args)
            .current_dir(&self.tree)
            .env("CARGO_TARGET_DIR", &self.target)
            .env("NETMEAS_SEED", self.seed.to_string())
            .env("NETMEAS_MODEL_ONLY", tops.join(","))
            .env_remove("NETMEAS_VCD_DIR")
            .stdin(Stdio::null())
            .stdout(Stdio::from(f))
            .stderr(Stdio::from(err))
            .process_group(0)
            .spawn()
            .map_err(|e| format!("cannot run {}: {e}", cargo.to_string_lossy()))?;
        let start = Instant::now();
        loop {
            if let Some(status) = child.try_wait().map_err(|e| e.to_string())? {
                return Ok(if status.success() { Ended::Passed } else { Ended::Failed });
            }
            if start.elapsed() > timeout {
                // The whole group: cargo and the test binary it started.
                let _ = Command::new("kill").args(["-KILL", &format!("-{}", child.id())]).status();
                let _ = child.wait();
                return Ok(Ended::TimedOut);
            }
            std::thread::sleep(Duration::from_millis(200));
        }
    }
}

/// Restores a file's original text when dropped (also when a run fails or panics).
pub struct Restore {
    path: PathBuf,
    text: String,
}

impl Restore {
    /// Writes `mutated` to `path`, remembering `original`.
    pub fn apply(path: &Path, original: String, mutated: &str) -> Result<Restore, String> {
        std::fs::write(path, mutated).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
        Ok(Restore { path: path.to_path_buf(), text: original })
    }
}

impl Drop for Restore {
    fn drop(&mut self) {
        if let Err(e) = std::fs::write(&self.path, &self.text) {
            eprintln!("netmeas mutate: cannot restore {}: {e}", self.path.display());
        }
    }
}

/// The evidence in a test log: the failing tests and the first mismatch or panic message.
pub fn evidence(log: &str) -> String {
    let failed: Vec<&str> = log
        .lines()
        .filter_map(|l| l.strip_prefix("test ").and_then(|r| r.strip_suffix(" ... FAILED")))
        .collect();
    let first = log
        .lines()
        .find_map(|l| l.find("first at cycle").map(|i| l[i..].to_string()))
        .or_else(|| log.lines().find_map(|l| l.find("never exercised").map(|i| format!("coverage: traffic {}", &l[i..]))))
        .or_else(|| log.lines().find(|l| l.contains("panicked at")).map(|l| l.trim().to_string()));
    let mut s = failed.join(", ");
    if let Some(f) = first {
        if !s.is_empty() {
            s += ": ";
        }
        s += &f;
    }
    // Cut (marked, so a cut number does not read as the whole one): the log has the rest.
    if s.chars().count() > 160 {
        s.chars().take(159).chain(std::iter::once('…')).collect()
    } else {
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn evidence_names_the_failing_tests_and_the_first_mismatch() {
        let log = "running 2 tests\n\
            [fridge_a] seed = 5 (reproduce: NETMEAS_SEED=5)\n\
            thread 'fridge_a' panicked at testbench/src/harness.rs:10:5:\n\
            fridge_dp: RTL differs from golden (seed 5; reproduce with NETMEAS_SEED=5): first at cycle 1234, signal rep_data\n\
            test fridge_a ... FAILED\ntest fridge_b ... ok\n";
        assert_eq!(evidence(log), "fridge_a: first at cycle 1234, signal rep_data");
        assert_eq!(evidence("error[E0308]: mismatched types\n"), "");
    }

    #[test]
    fn a_second_run_on_the_same_scratch_tree_is_refused_until_the_first_ends() {
        let base = std::env::temp_dir().join(format!("netmeas-mutate-lock-{}", std::process::id()));
        let first = lock(&base).unwrap();
        assert!(lock(&base).unwrap_err().contains("another netmeas mutate is running"));
        drop(first);
        assert!(lock(&base).is_ok());
        let _ = std::fs::remove_dir_all(&base);
    }

    #[test]
    fn sync_writes_only_what_differs_and_removes_what_git_no_longer_lists() {
        let base = std::env::temp_dir().join(format!("netmeas-mutate-sync-{}", std::process::id()));
        let (repo, tree) = (base.join("repo"), base.join("tree"));
        let _ = std::fs::remove_dir_all(&base);
        std::fs::create_dir_all(repo.join("src")).unwrap();
        std::fs::write(repo.join("src/a.rs"), "a").unwrap();
        std::fs::write(repo.join("b.txt"), "b").unwrap();
        std::fs::write(repo.join(".gitignore"), "ignored/\n").unwrap();
        std::fs::create_dir_all(repo.join("ignored")).unwrap();
        std::fs::write(repo.join("ignored/x"), "x").unwrap();
        let git = |args: &[&str]| Command::new("git").args(args).current_dir(&repo).output().unwrap();
        git(&["init", "-q"]);
        git(&["add", "src/a.rs", ".gitignore"]);
        assert_eq!(sync(&repo, &tree).unwrap(), 3, "tracked a.rs and .gitignore, untracked b.txt");
        assert!(!tree.join("ignored/x").exists());
        assert_eq!(sync(&repo, &tree).unwrap(), 0);
        std::fs::write(repo.join("src/a.rs"), "a2").unwrap();
        std::fs::remove_file(repo.join("b.txt")).unwrap();
        assert_eq!(sync(&repo, &tree).unwrap(), 1);
        assert_eq!(std::fs::read_to_string(tree.join("src/a.rs")).unwrap(), "a2");
        assert!(!tree.join("b.txt").exists());
        {
            let _r = Restore::apply(&tree.join("src/a.rs"), "a2".into(), "mutated").unwrap();
            assert_eq!(std::fs::read_to_string(tree.join("src/a.rs")).unwrap(), "mutated");
        }
        assert_eq!(std::fs::read_to_string(tree.join("src/a.rs")).unwrap(), "a2");
        let _ = std::fs::remove_dir_all(&base);
    }
}
