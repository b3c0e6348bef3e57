//! `netmeas run finecomb --sweep` (the paper's x-axes, seeds in parallel) and `netmeas figures`: the JSON
//! contract, agreement of a sweep point with the single-point run, the figure files.

mod common;
use common::*;

/// A sweep's point is the single-point run at that value (same seeds, same numbers: the parallel runner
/// keeps each seed's interval and accumulates in seed order), with the spread over seeds beside it.
#[test]
fn sweep_points_equal_single_runs_and_carry_their_spread() {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("finecomb_sweep");
    std::fs::create_dir_all(&dir).unwrap();
    let svg = dir.join("fig.svg");
    let base = ["run", "finecomb", "--packets", "200000", "--seeds", "3", "--loss", "1e-3", "--json"];
    let sweep = json(&[&base[..], &["--sweep", "rho=4e-4,4e-3", "--plot", svg.to_str().unwrap()]].concat());
    assert_eq!(sweep["param"], "rho");
    let points = sweep["points"].as_array().unwrap();
    assert_eq!(points.len(), 2, "{sweep}");
    for (p, rho) in points.iter().zip(["4e-4", "4e-3"]) {
        assert_eq!(p["value"].as_f64(), rho.parse().ok());
        let single = json(&[&base[..], &["--rho", rho]].concat());
        for method in ["finecomb", "finecomb_nostash", "lda", "lda_plus"] {
            for key in ["mean_delay_rel_err", "stddev_rel_err", "loss_rel_err", "useful_samples", "expected_useful_samples"] {
                assert_eq!(p[method][key], single[method][key], "ρ {rho} {method}.{key}");
            }
            for key in ["mean_delay_rel_err_std", "loss_rel_err_std", "useful_samples_std"] {
                assert!(p[method][key].as_f64().unwrap() >= 0.0, "ρ {rho} {method}.{key}: {p}");
            }
            assert_eq!(p[method]["seeds_with_estimate"], 3, "{p}");
            assert_eq!(p[method]["loss_ext_rel_err"].is_number(), method == "finecomb", "{method}: {p}");
        }
    }
    let text = std::fs::read_to_string(&svg).unwrap();
    assert!(text.contains("<svg") && text.contains("reordering rate ρ") && text.contains("lda+"), "figure text");
    assert_eq!(text.matches("<circle").count(), 4 * 2 * 4, "an error bar per method, point and error chart and samples");
}

/// `netmeas figures` draws through the cores' own command lines; `--list` shows the commands.
#[test]
fn figures_quick_draws_the_selected_figures() {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("figures_quick");
    let _ = std::fs::remove_dir_all(&dir);
    let o = netmeas(&["figures", "--quick", "--only", "finecomb-fig5,ifpd-fig5", "--format", "png", "--out", dir.to_str().unwrap()]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    for name in ["finecomb-fig5.png", "ifpd-fig5.png"] {
        let bytes = std::fs::read(dir.join(name)).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert!(bytes.starts_with(b"\x89PNG"), "{name}");
    }
    assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 2, "only the selected figures");
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(out.contains("2 figures in"), "{out}");
    let o = netmeas(&["figures", "--list"]);
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(o.status.success() && out.contains("netmeas run finecomb --loss 0.01 --method finecomb,finecomb- --sweep rho"), "{out}");
}
