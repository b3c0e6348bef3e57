//! Reading nextpnr-ecp5's `--report` JSON: the achieved frequency per clock, utilisation, the critical
//! path summarised; and the block-RAM arithmetic of the LFE5U-85F the results are compared with.

use serde_json::Value;

/// Device facts of the LFE5U-85F used by the report.
pub const DP16KD_BITS: u64 = 18 * 1024;
/// DP16KD aspect ratios (depth, width) available for a read port of a simple dual-port RAM.
const DP16KD_SHAPES: [(u64, u64); 6] = [(16384, 1), (8192, 2), (4096, 4), (2048, 9), (1024, 18), (512, 36)];

/// The critical path of one nextpnr report, summarised.
#[derive(Debug, Clone)]
pub struct CritPath {
    pub from: String,
    pub to: String,
    pub delay_ns: f64,
    pub logic_ns: f64,
    pub routing_ns: f64,
    /// Logic cells passed through (LUTs, carry cells, muxes), not counting the launching element.
    pub levels: usize,
    /// The single largest delay on the path and where it is.
    pub worst_step: String,
    /// Nets on the path, in order.
    pub nets: Vec<String>,
}

impl CritPath {
    pub fn summary(&self) -> String {
        format!(
            "{} → {}: {:.2} ns ({:.2} logic + {:.2} routing), {} cells; largest step {}",
            self.from, self.to, self.delay_ns, self.logic_ns, self.routing_ns, self.levels, self.worst_step
        )
    }
}

/// Readable cell names: Yosys/nextpnr suffixes (`$q_TRELLIS_FF_Q_20`, `_LUT4_Z`…) dropped. Cells of the
/// core start with `core.` (the instance inside the I/O ring); the others are the ring's registers.
fn clean_cell(c: &str) -> String {
    let base = c.split('$').next().unwrap_or(c);
    let base = base.split("_TRELLIS").next().unwrap_or(base);
    let base = base.split("_LUT4").next().unwrap_or(base);
    let base = base.split("_CCU2C").next().unwrap_or(base);
    let base = base.split("_PFUMX").next().unwrap_or(base);
    let base = base.split("_L6MUX").next().unwrap_or(base);
    base.to_string()
}

/// Net names of packed logic get very long (`x_LUT4_B_Z_CCU2C_COUT_CIN_…`): keep both ends.
fn short(net: &str) -> String {
    let c: Vec<char> = net.chars().collect();
    if c.len() <= 64 {
        net.to_string()
    } else {
        format!("{}…{}", c[..40].iter().collect::<String>(), c[c.len() - 20..].iter().collect::<String>())
    }
}

pub fn crit_path(report: &Value, clock: &str) -> Option<CritPath> {
    let paths = report["critical_paths"].as_array()?;
    let want = format!("posedge {clock}");
    let p = paths
        .iter()
        .find(|p| p["from"].as_str() == Some(&want) && p["to"].as_str() == Some(&want))
        .or_else(|| paths.first())?;
    let steps = p["path"].as_array()?;
    let (mut logic, mut routing, mut levels) = (0.0, 0.0, 0);
    let mut nets = Vec::new();
    let mut worst = (0.0f64, String::new());
    for s in steps {
        let d = s["delay"].as_f64().unwrap_or(0.0);
        let ty = s["type"].as_str().unwrap_or("");
        let cell = clean_cell(s["from"]["cell"].as_str().unwrap_or("?"));
        if ty == "routing" {
            routing += d;
            if let Some(n) = s["net"].as_str() {
                nets.push(n.to_string());
            }
        } else {
            logic += d;
            if ty == "logic" {
                levels += 1;
            }
        }
        if d > worst.0 {
            let what = if ty == "routing" {
                format!("routing {:.2} ns on {}", d, short(s["net"].as_str().unwrap_or("?")))
            } else {
                format!("{ty} {:.2} ns in {}.{}", d, cell, s["from"]["port"].as_str().unwrap_or("?"))
            };
            worst = (d, what);
        }
    }
    let first = steps.first()?;
    let last = steps.last()?;
    Some(CritPath {
        from: format!(
            "{}.{}",
            clean_cell(first["from"]["cell"].as_str().unwrap_or("?")),
            first["from"]["port"].as_str().unwrap_or("?")
        ),
        to: format!(
            "{}.{}",
            clean_cell(last["to"]["cell"].as_str().unwrap_or("?")),
            last["to"]["port"].as_str().unwrap_or("?")
        ),
        delay_ns: logic + routing,
        logic_ns: logic,
        routing_ns: routing,
        levels,
        worst_step: worst.1,
        nets,
    })
}

/// The slowest clock of a report and its achieved frequency (MHz): a configuration's Fmax for one seed is
/// the minimum over its clocks. `name` names the report in errors.
pub fn fmax(report: &Value, name: &str) -> Result<(String, f64), String> {
    let clocks = report["fmax"].as_object().ok_or_else(|| format!("{name}: no fmax (no clock?)"))?;
    clocks
        .iter()
        .filter_map(|(k, v)| v["achieved"].as_f64().map(|f| (k.clone(), f)))
        .min_by(|a, b| a.1.total_cmp(&b.1))
        .ok_or_else(|| format!("{name}: no achieved frequency"))
}

pub fn round2(x: f64) -> f64 {
    (x * 100.0).round() / 100.0
}

/// Memories with fewer entries are not expected in block RAM (Yosys maps them to LUT RAM or flip-flops);
/// they count in `memory_bits_needed` but not in `bram_min_blocks`.
pub const SHALLOW: u64 = 64;

/// Fewest DP16KD that hold `entries × width` bits, tiling one aspect ratio (no packing of several words
/// into one block row): the "theoretical" block count the report compares with.
pub fn min_blocks(entries: u64, width: u64) -> u64 {
    DP16KD_SHAPES.iter().map(|(d, w)| width.div_ceil(*w) * entries.div_ceil(*d)).min().unwrap_or(0)
}

pub fn median(v: &mut [f64]) -> f64 {
    v.sort_by(|a, b| a.partial_cmp(b).unwrap());
    let n = v.len();
    if n % 2 == 1 {
        v[n / 2]
    } else {
        (v[n / 2 - 1] + v[n / 2]) / 2.0
    }
}

pub fn used(util: &Value, what: &str) -> u64 {
    util[what]["used"].as_u64().unwrap_or(0)
}
#[cfg(test)]
mod tests {
    use super::*;

    /// A nextpnr-ecp5 `--report` in the shape of nextpnr 0.11's report.cc, trimmed by hand to two clocks
    /// and their critical paths.
    fn fixture() -> Value {
        serde_json::from_str(include_str!("../tests/data/nextpnr_report.json")).expect("valid JSON")
    }

    #[test]
    fn fmax_is_the_slowest_clock() {
        assert_eq!(fmax(&fixture(), "r.json"), Ok(("$glbnet$clock".to_string(), 151.17)));
        let err = fmax(&serde_json::json!({"utilization": {}}), "r.json").unwrap_err();
        assert_eq!(err, "r.json: no fmax (no clock?)");
        let err = fmax(&serde_json::json!({"fmax": {"clk": {"constraint": 150.0}}}), "r.json").unwrap_err();
        assert_eq!(err, "r.json: no achieved frequency");
    }

    #[test]
    fn utilisation_reads_used_cells_and_zero_for_missing_ones() {
        let r = fixture();
        assert_eq!(used(&r["utilization"], "TRELLIS_COMB"), 267);
        assert_eq!(used(&r["utilization"], "DP16KD"), 2);
        assert_eq!(used(&r["utilization"], "EHXPLLL"), 0);
    }

    #[test]
    fn critical_path_of_the_clock_is_summarised() {
        let c = crit_path(&fixture(), "$glbnet$clock").expect("a path for the clock");
        assert_eq!(c.from, "core.rmw.old.CLK");
        assert_eq!(c.to, "netmeas_ring_out_new.DI");
        assert_eq!(c.levels, 2, "two logic cells; clk-to-q and setup are not levels");
        assert!((c.logic_ns - 1.30).abs() < 1e-9 && (c.routing_ns - 5.25).abs() < 1e-9, "{c:?}");
        assert!((c.delay_ns - 6.55).abs() < 1e-9);
        assert_eq!(
            c.nets,
            [
                "core.rmw.old[3]",
                "core.rmw.fwd_sel_LUT4_B_Z_CCU2C_COUT_CIN_PFUMX_ALUT_Z_L6MUX21_D0_Z_LUT4_Z_C_Z",
                "core.rmw.new[3]"
            ]
        );
        assert_eq!(c.worst_step, "routing 2.50 ns on core.rmw.fwd_sel_LUT4_B_Z_CCU2C_COUT_CIN…UX21_D0_Z_LUT4_Z_C_Z");
        assert_eq!(
            c.summary(),
            "core.rmw.old.CLK → netmeas_ring_out_new.DI: 6.55 ns (1.30 logic + 5.25 routing), 2 cells; largest step \
             routing 2.50 ns on core.rmw.fwd_sel_LUT4_B_Z_CCU2C_COUT_CIN…UX21_D0_Z_LUT4_Z_C_Z"
        );
        // Another clock's path, and the first path when no path belongs to the clock.
        let aux = crit_path(&fixture(), "$glbnet$aux_clock").unwrap();
        assert_eq!((aux.from.as_str(), aux.to.as_str(), aux.levels), ("aux.CLK", "aux2.DI", 0));
        assert_eq!(crit_path(&fixture(), "nope").unwrap().from, "aux.CLK");
        assert!(crit_path(&serde_json::json!({}), "clock").is_none());
    }

    #[test]
    fn cell_names_lose_their_packing_suffixes() {
        assert_eq!(clean_cell("core.x$q_TRELLIS_FF_Q_20"), "core.x");
        assert_eq!(clean_cell("core.y_LUT4_Z"), "core.y");
        assert_eq!(clean_cell("core.z_CCU2C_S0"), "core.z");
        assert_eq!(short("abc"), "abc");
        assert_eq!(short(&"n".repeat(100)).chars().count(), 61);
    }

    #[test]
    fn round2_rounds_to_hundredths() {
        assert_eq!(round2(151.166), 151.17);
        assert_eq!(round2(-0.004), -0.0);
    }

    #[test]
    fn min_blocks_tiles_one_aspect_ratio() {
        assert_eq!(min_blocks(1 << 16, 32), 128);
        assert_eq!(min_blocks(1 << 10, 32), 2);
        assert_eq!(min_blocks(512, 72), 2);
        assert_eq!(min_blocks(64, 32), 1);
    }

    #[test]
    fn median_of_odd_and_even() {
        assert_eq!(median(&mut [3.0, 1.0, 2.0]), 2.0);
        assert_eq!(median(&mut [4.0, 1.0, 2.0, 3.0]), 2.5);
    }
}
