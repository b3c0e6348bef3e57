//! The cycle model against the transaction model.

use super::cycle::*;
use super::sampling::{Force, Outcome, SamplingStats};
use super::*;
use rand::{Rng, SeedableRng};

/// Descriptors over a few prefixes and flows, with reordered sequence numbers, pure ACKs and timestamps
/// that make residents stale now and then.
fn traffic(rng: &mut impl Rng, n: usize) -> Vec<Descriptor> {
    let mut seq = [0u32; 64];
    let mut ts = 0u64;
    (0..n)
        .map(|_| {
            let f = rng.gen_range(0..64usize);
            ts += rng.gen_range(0..3000);
            let back = rng.gen_ratio(1, 5);
            seq[f] = if back { seq[f].wrapping_sub(rng.gen_range(1..3000)) } else { seq[f].wrapping_add(1460) };
            Descriptor {
                addr: 0x0A00_0000 | ((f as u32 % 11) << 8) | f as u32,
                flow: (f as u128) << 40 | 0xABCD,
                seq: seq[f],
                ts,
                data: !rng.gen_ratio(1, 10),
            }
        })
        .collect()
}

/// Driven with bursts and gaps, the cycle model's per-packet results equal the transaction model's, in
/// order, and so do its eviction reports (a reader that keeps up: no drops); a swap and a flush under a
/// stalling reader return exactly the transaction model's flush; the counters agree. The fourth run takes
/// its index and force from the ports ([`IndexBy::Port`], the hybrid's side table).
#[test]
fn cycle_model_equals_transaction_model() {
    let mut rng = rand::rngs::SmallRng::seed_from_u64(5);
    let cfg =
        ReorderConfig { addr_bits: 3, fp_bits: 6, ts_bits: 10, ts_shift: 4, n_bits: 6, o_bits: 4, report_fifo_bits: 3 };
    for (k, index) in [IndexBy::Prefix, IndexBy::Flow, IndexBy::Prefix, IndexBy::Port].into_iter().enumerate() {
        let rt = ReorderRuntime {
            prefix_len: [24, 16, 32, 24][k],
            timeout: 300,
            count: 20,
            reorder: 3,
            stale_en: k != 1,
            count_en: true,
            reorder_en: k != 2,
            count_first: k != 0,
            index,
        };
        let descs = traffic(&mut rng, 20_000);
        let ports: Vec<(usize, Force)> = (0..descs.len())
            .map(|_| match index {
                IndexBy::Port => (rng.gen_range(0..64), Force::from_code(rng.gen_range(0..4))),
                _ => (rng.gen_range(0..64), Force::None),
            })
            .collect();
        let mut tm = SamplingModel::new(&cfg, rt).unwrap();
        let (mut want, mut want_reports) = (vec![], vec![]);
        for (d, &(at, force)) in descs.iter().zip(&ports) {
            let (o, r) = if index == IndexBy::Port { tm.step_at(d, at, force) } else { tm.step(d) };
            if o != Outcome::NotData {
                want.push((outcome_code(o), o == Outcome::Hit { ooo: true }));
            }
            want_reports.extend(r);
        }
        let mut cm = ReorderCycleModel::new(&cfg).unwrap();
        let mut writes = csr_writes(&rt);
        writes.reverse();
        let (mut got, mut reports, mut next, mut cycle) = (vec![], vec![], 0, 0u64);
        while (got.len() < want.len() || reports.len() < want_reports.len()) && cycle < 100_000 {
            let mut i = ReorderInputs { reset: cycle == 0, rep_ready: true, ..Default::default() };
            // Packets once every setting has been written (not in the cycle of the last write).
            let settled = writes.is_empty();
            if cycle > 0 {
                if let Some((a, v)) = writes.pop() {
                    (i.csr_addr, i.csr_wr_en, i.csr_wr_data) = (a, true, v);
                }
            }
            i.in_valid = settled && cycle > 3 && next < descs.len() && rng.gen_bool(0.9);
            i.desc = descs.get(next).copied().unwrap_or_default();
            (i.in_index, i.in_force) = ports.get(next).copied().unwrap_or_default();
            let o = cm.step(&i);
            got.extend(o.result());
            if o.rep_valid == Some(true) {
                reports.push(Report::unpack(&cfg, o.rep_data.unwrap()));
            }
            next += (i.in_valid && o.in_ready == Some(true)) as usize;
            cycle += 1;
        }
        let first = want.iter().zip(&got).position(|(a, b)| a != b);
        assert_eq!(first, None, "{rt:?}: first differing packet");
        assert_eq!(got.len(), want.len());
        assert_eq!(reports, want_reports, "{rt:?}");
        assert!(want_reports.len() > 100, "{} evictions", want_reports.len());
        assert_eq!(cm.evict_fifo.drops(), 0);
        // Swap, flush, read with a stalling reader.
        let want_flush = tm.flush();
        assert_eq!(cm.stats, SamplingStats { reports: tm.stats.reports - want_flush.len() as u64, ..tm.stats });
        let mut writes = vec![(CSR_FLUSH, 1), (CSR_BANK, 1)];
        let mut flushed = vec![];
        for _ in 0..2_000 {
            let mut i = ReorderInputs { rep_ready: rng.gen_bool(0.3), ..Default::default() };
            if let Some((a, v)) = writes.pop() {
                (i.csr_addr, i.csr_wr_en, i.csr_wr_data) = (a, true, v);
            }
            let o = cm.step(&i);
            if o.rep_valid == Some(true) && i.rep_ready {
                flushed.push(Report::unpack(&cfg, o.rep_data.unwrap()));
            }
        }
        assert_eq!(flushed, want_flush, "{rt:?}");
        assert!(!flushed.is_empty());
        assert_eq!(cm.stats.reports, tm.stats.reports);
        assert!(cm.banks[0].mem.iter().all(|b| !b.valid), "the walk cleared bank 0");
    }
}

/// The settings read from the registers: low bits of the wide ones, prefix lengths above 32 mean 32.
#[test]
fn settings_from_registers() {
    let cfg = ReorderConfig { ts_bits: 10, n_bits: 6, o_bits: 4, ..ReorderConfig::default() };
    let rt = ReorderRuntime { index: IndexBy::Flow, count_first: false, stale_en: false, ..ReorderRuntime::default() };
    let rt = ReorderRuntime { timeout: 1000, count: 60, reorder: 15, ..rt };
    let mut conf = vec![0u32; 8];
    for index in [IndexBy::Port, IndexBy::Prefix, IndexBy::Flow] {
        for (a, v) in csr_writes(&ReorderRuntime { index, ..rt }) {
            conf[a as usize] = v;
        }
        assert_eq!(runtime_from_csr(&cfg, &conf), ReorderRuntime { index, ..rt });
    }
    conf[CSR_PREFIX_LEN as usize] = 40;
    conf[CSR_TIMEOUT as usize] = 1024 + 7;
    conf[CSR_COUNT as usize] = 64 + 5;
    let got = runtime_from_csr(&cfg, &conf);
    assert_eq!((got.prefix_len, got.timeout, got.count), (32, 7, 5));
}
