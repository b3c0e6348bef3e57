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

/// The hybrid's cycle model against its transaction model ([`super::hybrid::HybridModel`]): the same
/// heavy-hitter results, side-table and flow-sampling results (each in order), the same reports (a multiset:
/// the merged port interleaves the two cores'), and a period's end — every bank toggled, flushes and the dump
/// — returns the transaction model's flush.
#[test]
fn hybrid_cycle_model_equals_transaction_model() {
    use super::hybrid::{HybridModel, HybridOutcome};
    use super::hybrid_cycle::*;
    use crate::common::csr::CsrRequest;
    use crate::heavy_hitters::cycle::outcome_code as hh_code;
    use crate::heavy_hitters::{HhConfig, HhRuntime, Method};
    let mut rng = rand::rngs::SmallRng::seed_from_u64(9);
    let sampling =
        ReorderConfig { addr_bits: 3, fp_bits: 6, ts_bits: 10, ts_shift: 4, n_bits: 6, o_bits: 4, report_fifo_bits: 3 };
    let hh = HhConfig { rows: 2, addr_bits: 2, key_bits: 104, count_bits: 6, record_fifo_bits: 3 };
    let cfg = HybridConfig { sampling: sampling.clone(), hh: hh.clone() };
    for (k, method) in [Method::Dway, Method::Precision].into_iter().enumerate() {
        let rt =
            ReorderRuntime { timeout: 300, count: 20, reorder: 3, count_first: k == 0, ..ReorderRuntime::default() };
        let hh_rt = HhRuntime { method, seed: 77 + k as u32, ..HhRuntime::default() };
        let descs = traffic(&mut rng, 20_000);
        let mut tm = HybridModel::new(&sampling, rt, &hh, hh_rt).unwrap();
        let (mut want_hh, mut want_side, mut want_smp, mut want_rep) = (vec![], vec![], vec![], vec![]);
        for d in &descs {
            let (o, r) = tm.step(d);
            match o {
                HybridOutcome::NotData => {}
                HybridOutcome::Heavy { outcome, side } => {
                    want_hh.push(hh_code(outcome));
                    want_side.push((outcome_code(side), side == Outcome::Hit { ooo: true }));
                }
                HybridOutcome::Sampled(s) => {
                    want_hh.push((0, 0));
                    want_smp.push((outcome_code(s), s == Outcome::Hit { ooo: true }));
                }
            }
            want_rep.extend(r.map(|r| r.pack(&sampling)));
        }
        assert!(
            want_side.len() > 1000 && want_smp.len() > 1000,
            "{} heavy, {} sampled",
            want_side.len(),
            want_smp.len()
        );
        let mut cm = HybridCycleModel::new(&cfg).unwrap();
        // Settings: one write per port per cycle.
        let mut writes = hybrid_csr_writes(&rt, &hh_rt).unwrap();
        writes.iter_mut().for_each(|w| w.reverse());
        let put = |i: &mut HybridInputs, writes: &mut [Vec<(u8, u32)>; 3]| {
            for (port, w) in i.csr.iter_mut().zip(writes.iter_mut()) {
                if let Some((addr, v)) = w.pop() {
                    *port = CsrRequest { addr, wr_en: true, wr_data: v, ..CsrRequest::default() };
                }
            }
        };
        let (mut hh_res, mut side_res, mut smp_res, mut reports) = (vec![], vec![], vec![], vec![]);
        let (mut next, mut cycle, mut quiet) = (0, 0u64, 0);
        while (next < descs.len() || quiet < 20) && cycle < 200_000 {
            let mut i = HybridInputs { reset: cycle == 0, rep_ready: true, ..Default::default() };
            let settled = writes.iter().all(Vec::is_empty) && cycle > 8;
            if cycle > 0 {
                put(&mut i, &mut writes);
            }
            i.in_valid = settled && next < descs.len() && rng.gen_bool(0.9);
            i.desc = descs.get(next).copied().unwrap_or_default();
            let o = cm.step(&i);
            hh_res.extend(o.hh_result().map(|(c, r)| (c, r as usize)));
            side_res.extend(o.side_result());
            smp_res.extend(o.smp_result());
            if o.rep_valid == Some(true) {
                reports.push(o.rep_data.unwrap());
            }
            next += (i.in_valid && o.in_ready == Some(true)) as usize;
            quiet = if next < descs.len() || o.rep_valid == Some(true) { 0 } else { quiet + 1 };
            cycle += 1;
        }
        assert_eq!(next, descs.len());
        fn same<T: PartialEq + std::fmt::Debug>(got: &[T], want: &[T], what: &str) {
            let first = got.iter().zip(want).position(|(a, b)| a != b);
            assert_eq!(first, None, "{what}: first differing result ({} vs {} results)", got.len(), want.len());
            assert_eq!(got.len(), want.len(), "{what}: results");
        }
        same(&hh_res, &want_hh, &format!("{method:?}: heavy-hitter"));
        same(&side_res, &want_side, &format!("{method:?}: side table"));
        same(&smp_res, &want_smp, &format!("{method:?}: flow sampling"));
        assert_eq!(cm.smp.stats, tm.sampling.stats, "{method:?}: flow sampling's counters");
        assert_eq!(cm.side.stats, tm.side.stats, "{method:?}: the side table's counters");
        assert_eq!(cm.hh.stats.packets as usize, want_hh.len(), "{method:?}: heavy-hitter packets");
        let sorted = |mut v: Vec<u128>| {
            v.sort_unstable();
            v
        };
        assert_eq!(sorted(reports), sorted(want_rep.clone()), "{method:?}: reports");
        assert!(want_rep.len() > 100, "{} reports", want_rep.len());
        // The period's end: every bank toggled, then the walks.
        let want_flush: Vec<u128> = tm.flush().iter().map(|r| r.pack(&sampling)).collect();
        let mut writes = period_end_writes(1);
        writes.iter_mut().for_each(|w| w.reverse());
        let mut flushed = vec![];
        for _ in 0..2_000 {
            let mut i = HybridInputs { rep_ready: rng.gen_bool(0.3), ..Default::default() };
            put(&mut i, &mut writes);
            let o = cm.step(&i);
            if o.rep_valid == Some(true) && i.rep_ready {
                flushed.push(o.rep_data.unwrap());
            }
        }
        assert!(!want_flush.is_empty());
        assert_eq!(sorted(flushed), sorted(want_flush), "{method:?}: flush");
        assert!(cm.hh.banks[0].rows.iter().all(|r| r.mem.iter().all(|b| b.is_empty())), "the dump cleared bank 0");
    }
}
