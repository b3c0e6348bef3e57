//! Setting parameters (§IV and the appendix): sampling rates p** (eq. 6) and p* (eq. 8), the stash size
//! W* = p*·R, and the expected number of useful samples (eqs. 2, 4 and 14).
//!
//! Notation (Table I): T packets per interval, β loss rate, ρ = R/T reordering rate, S = M + W total storage
//! in bucket-sized entries, G good packets (received inside the right pair of sync messages).

/// Optimal sampling rate without a stash, eq. (6): p** = min{S / (R + βT), 1}.
pub fn p_no_stash(storage: f64, r: f64, beta: f64, t: f64) -> f64 {
    let bad = r + beta * t;
    if bad <= 0.0 {
        1.0
    } else {
        (storage / bad).min(1.0)
    }
}

/// Optimal sampling rate with the stash W* = pR, eq. (8):
/// p* = min{S / (2ρ²T) · (2ρ + β − √(4ρβ + β²)), 1}.
///
/// Evaluated in the algebraically equal form p* = 2S / (T · (2ρ + β + √(4ρβ + β²))) (multiply and divide
/// by the conjugate: (2ρ + β)² − (4ρβ + β²) = 4ρ²), which has no 0/0 at ρ → 0, where it tends to
/// S / (βT) — eq. (6) without reordering, as it must.
pub fn p_stash(storage: f64, rho: f64, beta: f64, t: f64) -> f64 {
    let den = t * (2.0 * rho + beta + (4.0 * rho * beta + beta * beta).sqrt());
    if den <= 0.0 {
        1.0
    } else {
        (2.0 * storage / den).min(1.0)
    }
}

/// Expected sampled bad packets not corrected by the stash, eq. (4): E[L] = βpT + max{0, pR − W}.
pub fn expected_uncorrected(p: f64, beta: f64, t: f64, r: f64, w: f64) -> f64 {
    beta * p * t + (p * r - w).max(0.0)
}

/// Expected useful samples given L uncorrected bad packets, eq. (2): E[X | L] = pG(1 − 1/M)^L.
pub fn expected_useful(p: f64, good: f64, buckets: f64, l: f64) -> f64 {
    p * good * (1.0 - 1.0 / buckets).powf(l)
}

/// Cumulative Poisson distribution F(W; λ) = Σ_{i=0}^{W} e^{−λ} λ^i / i!.
pub fn poisson_cdf(w: u64, lambda: f64) -> f64 {
    if lambda <= 0.0 {
        return 1.0;
    }
    // Sum the terms in log space from i = 0 (a term never underflows before it matters: terms rise to the
    // mode and fall after it).
    let (mut term_ln, mut total) = (-lambda, 0.0f64);
    for i in 0..=w {
        if i > 0 {
            term_ln += lambda.ln() - (i as f64).ln();
        }
        total += term_ln.exp();
    }
    total.min(1.0)
}

/// The unconditional expectation of useful samples, eq. (14):
/// E[X] = pG e^{−βpT/M} (F(W; pR) + e^{−pR/M} / (1 − 1/M)^W · (1 − F(W; (1 − 1/M)pR))).
pub fn expected_useful_unconditional(p: f64, good: f64, m: f64, w: u64, beta: f64, t: f64, r: f64) -> f64 {
    let q = 1.0 - 1.0 / m;
    let tail = (-p * r / m - w as f64 * q.ln()).exp() * (1.0 - poisson_cdf(w, q * p * r));
    p * good * (-beta * p * t / m).exp() * (poisson_cdf(w, p * r) + tail)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn eq8_in_conjugate_form_equals_the_paper_form() {
        let (s, t) = (1000.0, 5e6);
        for (rho, beta) in [(0.04, 0.01), (4e-4, 1e-4), (4e-3, 1e-4), (4e-6, 1e-2)] {
            let paper = s / (2.0 * rho * rho * t) * (2.0 * rho + beta - (4.0f64 * rho * beta + beta * beta).sqrt());
            let ours = p_stash(s, rho, beta, t);
            assert!((ours / paper.min(1.0) - 1.0).abs() < 1e-6, "ρ {rho} β {beta}: {ours} vs {paper}");
        }
        // No reordering: eq. (8) reduces to eq. (6).
        assert!((p_stash(s, 0.0, 0.01, t) - p_no_stash(s, 0.0, 0.01, t)).abs() < 1e-15);
        assert_eq!(p_stash(s, 0.0, 0.0, t), 1.0);
    }

    #[test]
    fn eq8_maximizes_eq2_with_the_optimal_stash() {
        // E[X | L = E[L], W = pR] = pG(1 − 1/(S − pR))^{βpT} (eq. 15) peaks near p* for S ≫ 1.
        let (s, t, beta, rho) = (1000.0, 5e6, 0.01, 0.04);
        let f = |p: f64| expected_useful(p, t, s - p * rho * t, beta * p * t);
        let ps = p_stash(s, rho, beta, t);
        // The domain is M = S − pR ≥ 1.
        let best = (1..2000)
            .map(|i| i as f64 * ps / 1000.0)
            .filter(|p| s - p * rho * t >= 1.0)
            .max_by(|a, b| f(*a).total_cmp(&f(*b)))
            .unwrap();
        assert!((best / ps - 1.0).abs() < 0.05, "numerical optimum {best} vs p* {ps}");
    }

    #[test]
    fn eq6_maximizes_eq7() {
        let (s, t, beta, r) = (1000.0, 5e6, 1e-3, 2e4);
        let f = |p: f64| p * (-p * (r + beta * t) / s).exp();
        let pss = p_no_stash(s, r, beta, t);
        assert!(f(pss) >= f(pss * 0.97) && f(pss) >= f(pss * 1.03));
    }

    #[test]
    fn poisson_cdf_and_eq14_limits() {
        assert!((poisson_cdf(0, 2.0) - (-2.0f64).exp()).abs() < 1e-15);
        assert!((poisson_cdf(3, 2.0) - 0.857_123_460_498_547_6).abs() < 1e-12);
        assert!(poisson_cdf(2000, 500.0) > 0.999_999);
        // No reordering: eq. (14) is pG e^{−βpT/M}, the Poisson form of eq. (2).
        let e = expected_useful_unconditional(0.01, 1e6, 500.0, 10, 0.01, 1e6, 0.0);
        assert!((e / (0.01 * 1e6 * (-0.01 * 0.01 * 1e6 / 500.0f64).exp()) - 1.0).abs() < 1e-9);
        // A stash much larger than pR corrects everything; none corrects nothing.
        let full = expected_useful_unconditional(0.01, 1e6, 500.0, 1000, 0.0, 1e6, 1e4);
        assert!((full / (0.01 * 1e6) - 1.0).abs() < 1e-9);
        let none = expected_useful_unconditional(0.01, 1e6, 500.0, 0, 0.0, 1e6, 1e4);
        assert!((none / (0.01 * 1e6 * (-100.0f64 / 500.0).exp()) - 1.0).abs() < 1e-9);
    }
}
