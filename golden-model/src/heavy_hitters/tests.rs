//! The cycle model against the transaction model.

use super::cycle::*;
use super::*;
use rand::{Rng, SeedableRng};

/// Driven with bursts and gaps, the cycle model's per-packet results equal the transaction model's, in
/// order, for every method and admission rule; a swap and a dump under a stalling reader returns exactly
/// the transaction model's records; the counters agree.
#[test]
fn cycle_model_equals_transaction_model() {
    let mut rng = rand::rngs::SmallRng::seed_from_u64(11);
    for (method, admission) in [
        (Method::Dway, Admission::Reciprocal),
        (Method::Precision, Admission::PowerOfTwo),
        (Method::Dway, Admission::PowerOfTwo),
        (Method::Precision, Admission::Reciprocal),
    ] {
        let cfg = HhConfig { rows: 3, addr_bits: 5, key_bits: 40, count_bits: 6, record_fifo_bits: 3 };
        let rt = HhRuntime { method, admission, seed: 1234 };
        let keys: Vec<u128> =
            (0..20_000).map(|_| if rng.gen_bool(0.5) { rng.gen_range(0..8) } else { rng.gen_range(0..400) }).collect();
        let mut tm = HhModel::new(&cfg, rt).unwrap();
        let want: Vec<(u64, u64, u64)> = keys
            .iter()
            .map(|&k| {
                let r = tm.step(k);
                let (code, row) = outcome_code(r.outcome);
                (code, row as u64, r.count)
            })
            .collect();
        let mut cm = HhCycleModel::new(&cfg).unwrap();
        let mut writes =
            vec![(CSR_METHOD, method as u32), (CSR_ADMISSION, admission.csr().unwrap()), (CSR_PRNG_SEED, rt.seed)];
        writes.reverse();
        let (mut got, mut next, mut cycle) = (vec![], 0, 0u64);
        while got.len() < want.len() && cycle < 100_000 {
            let mut i = HhInputs { reset: cycle == 0, rec_ready: true, ..Default::default() };
            if cycle > 0 {
                if let Some((a, v)) = writes.pop() {
                    (i.csr_addr, i.csr_wr_en, i.csr_wr_data) = (a, true, v);
                }
            }
            i.in_valid = writes.is_empty() && cycle > 3 && next < keys.len() && rng.gen_bool(0.9);
            i.in_key = keys.get(next).copied().unwrap_or(0);
            let o = cm.step(&i);
            if let Some(r) = o.result() {
                got.push(r);
            }
            if i.in_valid && o.in_ready == Some(true) {
                next += 1;
            }
            cycle += 1;
        }
        let first = want.iter().zip(&got).position(|(a, b)| a != b);
        assert_eq!(first, None, "{method:?}/{admission:?}: first differing packet");
        assert_eq!(got.len(), want.len());
        assert_eq!(cm.stats, tm.stats, "{method:?}/{admission:?}");
        // Swap, dump, read with a stalling reader.
        let want_records = tm.swap_and_dump();
        let mut writes = vec![(CSR_DUMP, 1), (CSR_BANK, 1)];
        let mut records = vec![];
        for _ in 0..4_000 {
            let mut i = HhInputs { rec_ready: rng.gen_bool(0.3), ..Default::default() };
            if let Some((a, v)) = writes.pop() {
                (i.csr_addr, i.csr_wr_en, i.csr_wr_data) = (a, true, v);
            }
            let o = cm.step(&i);
            if o.rec_valid == Some(true) && i.rec_ready {
                records.push(Record::unpack(&cfg, &o.rec_data.unwrap()));
            }
        }
        assert_eq!(records, want_records, "{method:?}/{admission:?}");
        assert!(records.len() > 40);
        assert_eq!(cm.fifo.drops(), 0);
        assert!(cm.banks[0].rows.iter().all(|r| r.mem.iter().all(|b| b.is_empty())), "the walk cleared bank 0");
    }
}
