//! The synthetic traces at full size (§2.4: 0.5 M delay samples, ≈1.75 M packets), checked against the
//! paper's description and against exact pairing.

use sim::traffic::{pair_exact, synthetic, wide, PacketKind, SyntheticParams, Trace};
use std::time::Instant;

fn check_common(t: &Trace, p: &SyntheticParams) {
    assert_eq!(t.truth.len(), p.samples);
    assert!(t.packets.windows(2).all(|w| w[0].timestamp <= w[1].timestamp), "time order");
    assert_eq!(pair_exact(&t.packets), t.truth, "truth is exact pairing of the stream");
    let lo = p.min_delay_ns;
    let hi = (p.max_delay_ms * 1e6) as u64;
    let delays = t.true_delays_ns();
    assert!(delays.iter().all(|&d| (lo..=hi).contains(&d)));
    // Log-uniform: the fraction below the geometric midpoint is one half.
    let mid = ((lo as f64).ln() / 2.0 + (hi as f64).ln() / 2.0).exp() as u64;
    let below = delays.iter().filter(|&&d| d < mid).count() as f64 / delays.len() as f64;
    assert!((below - 0.5).abs() < 0.005, "fraction below the log-midpoint {below}");
}

#[test]
fn paper_trace_full_size() {
    let p = SyntheticParams::paper();
    let start = Instant::now();
    let t = synthetic(2024, p);
    let took = start.elapsed();
    eprintln!("paper trace: {} packets in {took:?}", t.packets.len());
    assert_eq!(t.packets.len(), 1_750_000);
    assert_eq!(t.requests(), 1_250_000);
    check_common(&t, &p);
    // The answered requests are a uniform 40 %: about 40 % of the first and of the last 100 000 requests.
    let answered: std::collections::HashSet<u128> = t.truth.iter().map(|q| q.id).collect();
    let reqs: Vec<u128> = t.packets.iter().filter(|d| d.kind == PacketKind::Request).map(|d| d.id).collect();
    for chunk in [&reqs[..100_000], &reqs[reqs.len() - 100_000..]] {
        let f = chunk.iter().filter(|id| answered.contains(id)).count() as f64 / 1e5;
        assert!((f - 0.4).abs() < 0.01, "answered fraction {f}");
    }
}

#[test]
fn wide_trace_full_size() {
    let p = SyntheticParams::wide();
    assert!(p.decades() >= 4.0);
    let t = wide(2024, p);
    eprintln!("wide trace: {} packets, {} requests", t.packets.len(), t.requests());
    check_common(&t, &p);
    // The steady tail runs until the last response: about max_delay × rate extra requests.
    let extra = t.requests() - p.requests();
    assert!((500_000..=1_000_001).contains(&extra), "{extra} tail requests");
}
