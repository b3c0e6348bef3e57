//! Hash units: random keys (plus all-zero, one-hot and the "123456789" check key), every output compared.

use super::Run;
use crate::harness::{RunConfig, RunReport, Sim};
use crate::models::{Hash104, Hash128};
use golden::common::hash::{HashUnitModel, XorHash};
use golden::common::mask128;
use golden::common::tops::HASH_TOP_KINDS;
use rand::Rng;

macro_rules! hash_runner {
    ($fn_name:ident, $model:ident, $key_bits:expr) => {
        pub fn $fn_name(cfg: &RunConfig) -> RunReport {
            let mut run = Run::new($model::NAME, cfg);
            let mut sim = Sim::new($model::new(cfg.x_seed), cfg.vcd.clone());
            let mut gold: Vec<HashUnitModel> = HASH_TOP_KINDS
                .iter()
                .map(|k| HashUnitModel::new(XorHash::new(*k, $key_bits).expect("valid hash config")))
                .collect();
            let check_key: u128 = 0x31_32_33_34_35_36_37_38_39;
            for _ in 0..cfg.transactions {
                let key: u128 = match run.rng.gen_range(0..16) {
                    0 => 0,
                    1 => 1u128 << run.rng.gen_range(0..$key_bits),
                    2 => check_key,
                    _ => run.rng.gen::<u128>() & mask128($key_bits),
                };
                sim.m.set_key(key);
                sim.settle();
                let c = sim.cycle;
                let expect: Vec<Option<u64>> = gold.iter_mut().map(|g| g.step(key)).collect();
                let m = &sim.m;
                run.sb.check(c, "crc16_umts", expect[0].map(u128::from), m.crc16_umts() as u128);
                run.sb.check(c, "crc16_en13757", expect[1].map(u128::from), m.crc16_en13757() as u128);
                run.sb.check(c, "crc32_mpeg2", expect[2].map(u128::from), m.crc32_mpeg2() as u128);
                run.sb.check(c, "h3", expect[3].map(u128::from), m.h3() as u128);
                sim.tick();
                run.transactions += 1;
            }
            run.finish(sim.cycle)
        }
    };
}

hash_runner!(run_hash128, Hash128, 128);
hash_runner!(run_hash104, Hash104, 104);
