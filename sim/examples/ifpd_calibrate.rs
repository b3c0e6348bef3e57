//! How the synthetic IFPD segment's parameters were fitted to the paper's Table 1: a grid over the flow-size
//! shape, the burst sizes and the idle periods on full segments, ranked by the mean |log ratio| of the 14 shares and of the packets per flow against the
//! paper's ~11 (1 M packets, ~90 k flows).
//!
//! `cargo run --release -p sim --example ifpd_calibrate -- [PACKETS]` (default 1 000 000).

use sim::traffic::ifpd::{synthetic_ifpd, table1_fit, true_ifpd, IfpdParams};

fn main() {
    let packets = std::env::args().nth(1).and_then(|s| s.parse().ok()).unwrap_or(1_000_000);
    let mut rows = vec![];
    for (size_shape, size_min) in [(0.5, 1.5), (0.5, 2.0), (0.6, 2.0), (0.7, 2.5)] {
        for burst_max in [30.0, 60.0] {
            for off_ms in [200.0, 250.0] {
                for off_sigma in [0.8, 1.0] {
                    let p = IfpdParams {
                        packets,
                        size_shape,
                        size_min,
                        burst_max,
                        off_ms,
                        off_sigma,
                        ..IfpdParams::default()
                    };
                    let t = synthetic_ifpd(&p, 1).expect("valid parameters");
                    let fit = table1_fit(&t, &true_ifpd(&t));
                    // The paper's segments: ~1 M packets of ~90 k flows (11.1 per flow), as a 15th term.
                    let ppf = fit.packets as f64 / fit.flows as f64;
                    let err = (fit.mean_abs_log_ratio * 14.0 + (ppf / 11.1).ln().abs()) / 15.0;
                    rows.push((err, ppf, p, fit));
                }
            }
        }
    }
    rows.sort_by(|a, b| a.0.total_cmp(&b.0));
    for (err, ppf, p, fit) in rows.iter().take(8) {
        println!(
            "err {err:.3}  pkts/flow {ppf:5.1}  shape {} min {} burst_max {} off {} ms sigma {}",
            p.size_shape, p.size_min, p.burst_max, p.off_ms, p.off_sigma
        );
        let s: Vec<String> =
            fit.rows.iter().map(|r| format!("{}:{:.3}/{:.3}", r.threshold_ms, r.ifpd_share, r.flow_share)).collect();
        println!("    {}", s.join(" "));
    }
}
