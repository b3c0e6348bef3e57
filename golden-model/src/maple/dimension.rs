//! Storage dimensioning (§3.4, Table 2) and the expected classification failure of each store.
//!
//! With `g` "other" groups a false positive can fake (SVBF and PBF: `k − 1`; COMB: `f − θ` code bits), a
//! target classification failure `pcf` needs `h ≥ −log2(1 − (1 − pcf)^(1/g))` hashes at the optimal load
//! `m/n = h/ln 2` (× θ for COMB, which inserts θ·h bits per packet). Table 1 of the paper rounds `h` up for
//! the access counts and keeps the real-valued `h` for the capacity; [`table1`] does the same.

use serde::Serialize;
use std::f64::consts::LN_2;

/// The real-valued lower bound on `h` for target `pcf` against `g` other groups.
pub fn hashes_for(pcf: f64, g: usize) -> f64 {
    -(1.0 - (1.0 - pcf).powf(1.0 / g.max(1) as f64)).log2()
}

/// `p(m, n, h) = (1 − (1 − 1/m)^(n·h))^h`: all `h` bits of a query set after `n` insertions (§3.4.2).
pub fn p_fp(m: f64, n: f64, h: f64) -> f64 {
    (1.0 - (1.0 - 1.0 / m).powf(n * h)).powf(h)
}

/// The same for a partitioned filter: `h` segments of `m/h` bits, one bit per segment per insertion.
pub fn p_fp_partitioned(m: f64, n: f64, h: f64) -> f64 {
    (1.0 - (1.0 - h / m).powf(n)).powf(h)
}

/// Eq. (3): SVBF's classification failure with `n` packets in `m` bits, `h` hashes, `k` centers.
pub fn pcf_svbf(m: f64, n: f64, h: usize, k: usize, partitioned: bool) -> f64 {
    let p = if partitioned { p_fp_partitioned(m, n, h as f64) } else { p_fp(m, n, h as f64) };
    1.0 - (1.0 - p).powi(k as i32 - 1)
}

/// Eq. (2): COMB(f, θ)'s classification failure.
pub fn pcf_comb(m: f64, n: f64, h: usize, f: usize, theta: usize) -> f64 {
    1.0 - (1.0 - p_fp(m, theta as f64 * n, h as f64)).powi((f - theta) as i32)
}

/// Eq. (1): PBF's classification failure with filter sizes `m[i]` and packets `n[i]`.
pub fn pcf_pbf(m: &[f64], n: &[f64], h: usize) -> f64 {
    let total: f64 = n.iter().sum();
    let ok: Vec<f64> = m.iter().zip(n).map(|(&mi, &ni)| 1.0 - p_fp(mi, ni, h as f64)).collect();
    let mut s = 0.0;
    for j in 0..n.len() {
        let others: f64 = (0..n.len()).filter(|&i| i != j).map(|i| ok[i]).product();
        s += n[j] / total * others;
    }
    1.0 - s
}

/// Hashes for `bits_per_packet` at the optimal load, `θ` bits inserted per packet: `round(m/n · ln 2 / θ)`,
/// at least 1 (the paper's "9 hash functions for SVBF and PBF" at 5 Mbit and ~380 k packets).
pub fn hashes_at_load(bits_per_packet: f64, theta: usize) -> usize {
    ((bits_per_packet * LN_2 / theta as f64).round() as usize).max(1)
}

/// The load (bits per packet) and integer `h` that meet `pcf` for SVBF/PBF with `k` centers.
pub fn svbf_for_pcf(pcf: f64, k: usize) -> (usize, f64) {
    let h = hashes_for(pcf, k - 1);
    (h.ceil() as usize, h / LN_2)
}

/// The simple hash table of §3.4.1 (no collision resolution, a `⌈log2 k⌉`-bit id per slot): bits per packet
/// for a false classification rate `pfc`, from `pfc = 1 − (m/n)(1 − (1 − 1/m)^n)` at large `n`.
pub fn hashtable_bits(pfc: f64, k: usize) -> f64 {
    let f = |a: f64| 1.0 - (1.0 - (-a).exp()) / a;
    let (mut lo, mut hi) = (1e-9, 10.0);
    for _ in 0..200 {
        let mid = 0.5 * (lo + hi);
        if f(mid) < pfc {
            lo = mid
        } else {
            hi = mid
        }
    }
    (k as f64).log2().ceil() / lo
}

/// One row of Table 1.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Table1Row {
    pub store: String,
    pub hashes: usize,
    /// Capacity m/n, bits per packet.
    pub bits_per_packet: f64,
    /// Memory accesses per insert and per lookup (single-port memory).
    pub insert: usize,
    pub lookup: usize,
}

/// Table 1 for `k` centers at target `pcf`, `w`-bit words, the hash table at `pfc`.
pub fn table1(k: usize, pcf: f64, w: usize, pfc: f64) -> Vec<Table1Row> {
    let row = |store: String, hashes, bits_per_packet, insert, lookup| Table1Row {
        store,
        hashes,
        bits_per_packet,
        insert,
        lookup,
    };
    let (h, load) = svbf_for_pcf(pcf, k);
    let mut rows = vec![row("hashtable".into(), 1, hashtable_bits(pfc, k), 1, 1), row("PBF".into(), h, load, h, k * h)];
    for (f, theta) in [(k, 1), (11, 2), (8, 3)] {
        let hr = hashes_for(pcf, f - theta);
        let hc = hr.ceil() as usize;
        rows.push(row(format!("COMB({f}, {theta})"), hc, theta as f64 * hr / LN_2, theta * hc, f * hc));
    }
    rows.push(row("SVBF".into(), h, load, h, (k.div_ceil(w) + 1) * h));
    rows
}
