//! Verilator lint gate: `verilator --lint-only -Wall` on every emitted top, with the single waiver list
//! `hdl/lint/waivers.vlt` (each waiver with its reason). Used by the lint test and by `netmeas demo`.

use crate::emit::TopInfo;
use std::path::Path;
use std::process::Command;

/// The waiver file, embedded so a released binary lints exactly like the test.
pub const WAIVERS: &str = include_str!("../lint/waivers.vlt");

/// Lint result of one top.
#[derive(Debug, Clone)]
pub struct LintReport {
    pub top: String,
    pub clean: bool,
    /// Verilator's messages (empty when clean).
    pub messages: String,
}

/// The Verilator binary to use: `$VERILATOR` or `verilator`.
pub fn verilator_bin() -> String {
    std::env::var("VERILATOR").unwrap_or_else(|_| "verilator".into())
}

/// Lints each top's `<dir>/<name>.v` (as written by [`crate::emit::write_all`]).
pub fn lint_tops(dir: &Path, tops: &[TopInfo]) -> Result<Vec<LintReport>, String> {
    let files: Vec<(std::path::PathBuf, &str)> =
        tops.iter().map(|t| (dir.join(format!("{}.v", t.name)), t.name.as_str())).collect();
    lint_files(&files)
}

/// Lints each `(Verilog file, top module)` (e.g. the files `netmeas generate` writes).
pub fn lint_files(files: &[(std::path::PathBuf, &str)]) -> Result<Vec<LintReport>, String> {
    let verilator = verilator_bin();
    static CALLS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let call = CALLS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let waivers =
        std::env::temp_dir().join(format!("netmeas-lint-waivers-{}-{call}.vlt", std::process::id()));
    std::fs::write(&waivers, WAIVERS).map_err(|e| format!("writing {}: {e}", waivers.display()))?;
    let mut reports = Vec::new();
    for (file, top) in files {
        let out = Command::new(&verilator)
            .args(["--lint-only", "-Wall"])
            .arg(&waivers)
            .args(["--top-module", top])
            .arg(file)
            .output()
            .map_err(|e| {
                format!("cannot run `{verilator}` ({e}); install Verilator: apt-get install -y verilator")
            })?;
        let messages = String::from_utf8_lossy(&out.stderr).to_string() + &String::from_utf8_lossy(&out.stdout);
        let clean = out.status.success() && !messages.contains("%Warning") && !messages.contains("%Error");
        reports.push(LintReport { top: top.to_string(), clean, messages: if clean { String::new() } else { messages } });
    }
    let _ = std::fs::remove_file(&waivers);
    Ok(reports)
}
