//! The cycle model against the transaction model.

use super::cycle::*;
use super::*;
use crate::common::config::CSR_STATUS_BASE;
use rand::{Rng, SeedableRng};

/// What a test run exercised, counted on the packets as they enter S0 (one per cycle apart from gaps).
#[derive(Debug, Default)]
struct Coverage {
    /// Packets of the same flow in consecutive cycles.
    back_to_back: usize,
    /// `[row][distance − 1]`: packets of different flows on the same bucket of that row, 1–3 cycles apart.
    same_bucket: [[usize; 3]; MAX_ROWS],
    /// Stored times smaller than the packet's before (the relative time wrapped).
    wraps: usize,
}

/// Flows that stress the hazards: with probability 0.2 the previous packet's flow again, 0.35 another flow
/// of the pool that shares a bucket in a random row with the packet 1–3 places back, 0.05 a new flow, else
/// any flow of the pool. Time steps of 0–3 ns (ties in the largest timestamp), up to 300 ns, and now and then
/// up to 6 µs (estimates above the threshold; the 12-bit relative time of 2 ns units wraps every 8 µs).
fn traffic(rng: &mut impl Rng, cfg: &IfpdConfig, n: usize) -> Vec<Descriptor> {
    let bank = cfg.hash_bank().unwrap();
    let key = |rng: &mut dyn rand::RngCore| {
        let k = rng.gen::<u128>() >> 24;
        (k, cfg.indices(&bank, k).0)
    };
    let mut pool: Vec<(u128, [usize; MAX_ROWS])> = (0..48).map(|_| key(rng)).collect();
    let (mut out, mut last): (Vec<Descriptor>, Vec<usize>) = (vec![], vec![]);
    let mut ts = 1u64 << 20;
    for _ in 0..n {
        let u: f64 = rng.gen();
        let pick = if u < 0.2 && !last.is_empty() {
            last[last.len() - 1]
        } else if u < 0.55 && last.len() >= 3 {
            let target = pool[last[last.len() - rng.gen_range(1..=3)]];
            let r = rng.gen_range(0..cfg.rows);
            let same: Vec<usize> =
                (0..pool.len()).filter(|&j| pool[j].1[r] == target.1[r] && pool[j].0 != target.0).collect();
            if same.is_empty() {
                rng.gen_range(0..pool.len())
            } else {
                same[rng.gen_range(0..same.len())]
            }
        } else if u < 0.6 {
            pool.push(key(rng));
            pool.len() - 1
        } else {
            rng.gen_range(0..pool.len())
        };
        ts += match rng.gen_range(0..100) {
            0..=59 => rng.gen_range(0..4),
            60..=96 => rng.gen_range(0..300),
            _ => rng.gen_range(0..6000),
        };
        last.push(pick);
        out.push(Descriptor { flow: pool[pick].0, ts });
    }
    out
}

/// Counts the hazards of `descs` entering S0 in cycles `cycles`.
fn coverage(cfg: &IfpdConfig, descs: &[Descriptor], cycles: &[u64], base: &[u64]) -> Coverage {
    let bank = cfg.hash_bank().unwrap();
    let mut c = Coverage::default();
    let idx: Vec<_> = descs.iter().map(|d| cfg.indices(&bank, d.flow).0).collect();
    for j in 1..descs.len() {
        let t = |k: usize| cfg.stored_time(descs[k].ts, base[k]);
        c.wraps += (t(j) < t(j - 1)) as usize;
        for k in 1..=3.min(j) {
            let dist = cycles[j] - cycles[j - k];
            let same = descs[j].flow == descs[j - k].flow;
            if dist == 1 && same {
                c.back_to_back += 1;
            }
            for r in 0..cfg.rows {
                if !same && (1..=3).contains(&dist) && idx[j][r] == idx[j - k][r] {
                    c.same_bucket[r][dist as usize - 1] += 1;
                }
            }
        }
    }
    c
}

fn read_csr(cm: &mut IfpdCycleModel, addr: u8) -> u32 {
    cm.step(&IfpdInputs { csr_addr: addr, csr_rd_en: true, ..Default::default() });
    cm.step(&IfpdInputs::default()).csr_rd_data.unwrap()
}

/// The status registers by name.
fn status(cm: &mut IfpdCycleModel, name: &str) -> u32 {
    let addr = cm.cfg.csr_layout().status_addr(name).unwrap();
    read_csr(cm, addr)
}

fn small(rows: usize) -> IfpdConfig {
    IfpdConfig {
        rows,
        buckets: 16,
        fp_bits: 5,
        ts_bits: 12,
        ts_shift: 1,
        bf_hashes: 3,
        bf_bits: 64,
        report_fifo_bits: 4,
        registered_ram: false,
    }
}

/// For d = 1, 2, 4 and every mode (and case 3 estimating zero once, and registered RAM timing for d = 4 in
/// IFPD and CM-BF mode): driven with bursts and gaps, the cycle
/// model's per-packet results equal the transaction model's in order, its reports too (a reader that keeps
/// up), and its counters (read through the CSR port), final rows and filter. Halfway through, the input
/// pauses and the threshold and the interval base are rewritten through the CSR (the transaction model takes
/// the same settings from that packet on).
#[test]
fn cycle_model_equals_transaction_model() {
    let mut rng = rand::rngs::SmallRng::seed_from_u64(14);
    for (d, mode, case3, registered_ram) in [1, 2, 4]
        .into_iter()
        .flat_map(|d| Mode::ALL.map(|m| (d, m, Case3Rule::Estimate, false)))
        .chain([(2, Mode::Ifpd, Case3Rule::Zero, false)])
        .chain([(4, Mode::Ifpd, Case3Rule::Estimate, true), (4, Mode::CmBf, Case3Rule::Estimate, true)])
    {
        let cfg = IfpdConfig { registered_ram, ..small(d) };
        let rt = IfpdRuntime { mode, threshold: 300, base: 5, case3 };
        let later = IfpdRuntime { threshold: 900, base: 77, ..rt };
        let n = 12_000;
        let descs = traffic(&mut rng, &cfg, n);
        let mut tm = IfpdModel::new(&cfg, rt).unwrap();
        let (mut want, mut want_reports) = (vec![], vec![]);
        for (k, desc) in descs.iter().enumerate() {
            if k == n / 2 {
                tm.rt = later;
            }
            let o = tm.step(desc);
            want.push(result_of(&o.decision));
            want_reports.extend(o.report);
        }
        let mut cm = IfpdCycleModel::new(&cfg).unwrap();
        let mut writes: Vec<(u8, u32)> = rt.csr_writes().into_iter().rev().collect();
        let (mut got, mut reports, mut entered) = (vec![], vec![], vec![]);
        let (mut next, mut cycle, mut drain, mut rebased) = (0, 0u64, 0, false);
        while (got.len() < n || reports.len() < want_reports.len()) && cycle < 100_000 {
            let mut i = IfpdInputs { reset: cycle == 0, rep_ready: true, ..Default::default() };
            // Packets once every write has been made (not in the cycle of the last one).
            let settled = writes.is_empty() && (rebased || next != n / 2);
            if cycle > 0 {
                if let Some((a, v)) = writes.pop() {
                    (i.csr_addr, i.csr_wr_en, i.csr_wr_data) = (a, true, v);
                }
            }
            if next == n / 2 && !rebased {
                // Drain the pipeline (up to SL: at most 6 cycles), then rewrite threshold and base.
                drain += 1;
                if drain == 8 {
                    writes = vec![(CSR_TIME_BASE, later.base as u32), (CSR_THRESHOLD, later.threshold)];
                    rebased = true;
                }
            }
            i.in_valid = settled && cycle > 0 && next < n && rng.gen_bool(0.9);
            i.desc = descs.get(next).copied().unwrap_or_default();
            let o = cm.step(&i);
            got.extend(o.result());
            if o.rep_valid == Some(true) {
                reports.push(Report::unpack(&cfg, o.rep_data.unwrap()).unwrap());
            }
            if i.in_valid && o.in_ready == Some(true) {
                entered.push(cycle + 1);
                next += 1;
            }
            cycle += 1;
        }
        let what = format!("d = {d}, {mode:?}, {case3:?}, registered RAM {registered_ram}");
        let first = want.iter().zip(&got).position(|(a, b)| a != b);
        assert_eq!(first, None, "{what}: first differing packet");
        assert_eq!(got.len(), n, "{what}");
        assert_eq!(reports, want_reports, "{what}");
        assert!(want_reports.len() > 100, "{what}: {} reports", want_reports.len());
        assert_eq!(cm.stats, tm.stats, "{what}");
        for (name, v) in [("packets", tm.stats.packets), ("case1_match", tm.stats.case1_match)]
            .into_iter()
            .chain([("case2_insert", tm.stats.case2_insert), ("case3_replace", tm.stats.case3_replace)])
            .chain([("reports", tm.stats.reports), ("report_drops", 0), ("report_fifo_level", 0)])
        {
            assert_eq!(status(&mut cm, name) as u64, v, "{what}: {name}");
        }
        for r in 0..d {
            assert_eq!(cm.rows.mem(r), tm.row(r), "{what}: row {r}");
        }
        let ones: usize =
            (0..cfg.bf_hashes).map(|p| cm.bloom.as_ref().unwrap().mem(p).iter().sum::<u128>() as usize).sum();
        assert_eq!(ones, tm.bloom.as_ref().unwrap().ones(), "{what}: Bloom filter");
        // What the run exercised.
        let bases: Vec<u64> = (0..n).map(|k| if k < n / 2 { rt.base } else { later.base }).collect();
        let c = coverage(&cfg, &descs, &entered, &bases);
        assert!(c.back_to_back * 10 >= n, "{what}: {c:?}");
        assert!(c.same_bucket[..d].iter().flatten().all(|&k| k >= 50), "{what}: {c:?}");
        assert!(c.wraps >= 20, "{what}: {c:?}");
        let s = &tm.stats;
        assert!(s.case1_match > 100 && s.case2_insert >= 16, "{what}: {s:?}"); // IFPD: at most d·w inserts
        assert_eq!(s.case3_replace > 100, mode == Mode::Ifpd, "{what}: {s:?}");
    }
}

/// A reader that stalls: the FIFO fills, every further report is dropped and counted (`report_drops`), the
/// packet path never stalls, and the reports kept are the transaction model's first ones, in order.
#[test]
fn a_stalling_reader_makes_the_fifo_drop_and_count() {
    let mut rng = rand::rngs::SmallRng::seed_from_u64(3);
    let cfg = IfpdConfig { report_fifo_bits: 3, ..small(2) };
    let rt = IfpdRuntime { mode: Mode::Ifpd, threshold: 0, base: 0, case3: Case3Rule::Estimate };
    let descs = traffic(&mut rng, &cfg, 100);
    let mut tm = IfpdModel::new(&cfg, rt).unwrap();
    let want: Vec<Report> = descs.iter().filter_map(|d| tm.step(d).report).collect();
    assert_eq!(want.len(), 100, "threshold 0 reports every packet");
    let mut cm = IfpdCycleModel::new(&cfg).unwrap();
    cm.step(&IfpdInputs { reset: true, ..Default::default() });
    cm.step(&IfpdInputs { csr_addr: CSR_THRESHOLD, csr_wr_en: true, csr_wr_data: 0, ..Default::default() });
    let mut next = 0;
    for _ in 0..200 {
        let i = IfpdInputs {
            in_valid: next < descs.len(),
            desc: descs.get(next).copied().unwrap_or_default(),
            ..Default::default()
        };
        let o = cm.step(&i);
        next += (i.in_valid && o.in_ready == Some(true)) as usize;
    }
    assert_eq!(next, descs.len(), "the packet path never stalls on a full FIFO");
    assert_eq!(cm.stats, tm.stats);
    assert_eq!(status(&mut cm, "report_fifo_level"), 8);
    assert_eq!(status(&mut cm, "report_drops"), 92);
    assert_eq!(status(&mut cm, "reports"), 100);
    let mut got = vec![];
    for _ in 0..20 {
        let o = cm.step(&IfpdInputs { rep_ready: true, ..Default::default() });
        if o.rep_valid == Some(true) {
            got.push(Report::unpack(&cfg, o.rep_data.unwrap()).unwrap());
        }
    }
    assert_eq!(got, want[..8]);
    assert_eq!(read_csr(&mut cm, CSR_STATUS_BASE + 6), 0, "the FIFO is empty again");
}

/// The settings as the core reads them from the registers: the low `ts_bits` of threshold and base, mode 3
/// as CM-BF; writes round-trip.
#[test]
fn settings_from_registers() {
    let cfg = small(2);
    let rt = IfpdRuntime { mode: Mode::CmBf, threshold: 700, base: 4000, case3: Case3Rule::Zero };
    let mut conf = vec![0u32; 4];
    for (a, v) in rt.csr_writes() {
        conf[a as usize] = v;
    }
    assert_eq!(IfpdRuntime::from_csr(&cfg, &conf), rt);
    conf[CSR_MODE as usize] = 3;
    conf[CSR_THRESHOLD as usize] = 4096 + 5;
    conf[CSR_TIME_BASE as usize] = 3 << 12 | 9;
    let got = IfpdRuntime::from_csr(&cfg, &conf);
    assert_eq!((got.mode, got.threshold, got.base), (Mode::CmBf, 5, 9));
    assert!(IfpdCycleModel::new(&IfpdConfig { buckets: 24, ..cfg.clone() }).is_err());
    assert!(IfpdCycleModel::new(&IfpdConfig { bf_bits: 96, ..cfg }).is_err());
}

/// `swept` is low in a reset and through the sweep of the larger RAM group (rows or filter), then high until
/// the next reset, with `in_ready` following it while a packet waits in F1; `last_sm` shows a packet only
/// in the step it is at SM: `M` cycles after it entered the RAM groups, `M` = 4 on short RAM timing and 6
/// on registered (two look-ahead levels), two cycles before the result port.
#[test]
fn swept_rises_when_both_ram_groups_are_swept() {
    for (cfg, m) in [(small(2), 4), (IfpdConfig { registered_ram: true, ..small(2) }, 6)] {
        let sweep = cfg.buckets.max(cfg.bf_bits);
        let mut cm = IfpdCycleModel::new(&cfg).unwrap();
        assert_eq!(cm.result_latency(), 1 + m + 2);
        assert_eq!(cm.step(&IfpdInputs { reset: true, ..Default::default() }).swept, Some(false));
        let mut first_high = None;
        for c in 0..sweep + 4 {
            let o = cm.step(&IfpdInputs::default());
            if o.swept == Some(true) && first_high.is_none() {
                first_high = Some(c);
            }
            assert!(first_high.is_none() || o.swept == Some(true), "swept fell at {c}");
        }
        let first = first_high.expect("the sweep ends");
        assert!(first + 2 >= sweep && first <= sweep + 1, "swept at {first}, sweep of {sweep} words");
        let d = Descriptor { flow: 99, ts: 1 << 20 };
        let (mut at_sm, mut at_port) = (vec![], vec![]);
        for c in 0..m + 5 {
            let o = cm.step(&IfpdInputs { in_valid: c == 0, desc: d, ..Default::default() });
            if cm.last_sm.is_some() {
                at_sm.push(c);
            }
            if o.res_valid == Some(true) {
                at_port.push(c);
            }
        }
        assert_eq!(at_sm, [1 + m], "accepted at 0, F1 = S0 at 1, SM at 1 + M");
        assert_eq!(at_port, [cm.result_latency()]);
    }
}
