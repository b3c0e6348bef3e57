//! Waveforms: a traced run writes a VCD that parses with the `vcd` crate and holds the DUT's ports with
//! the expected values at a known cycle.

use golden::common::prng::{xorshift32, PRNG_DEFAULT_SEED};
use std::collections::HashMap;
use testbench::harness::{vcd_path_in, Sim};
use testbench::models::Prng;

/// Value of every `TOP.<port>` at VCD time `t` (the last change at or before `t`).
fn values_at(path: &std::path::Path, t: u64) -> HashMap<String, u64> {
    let f = std::io::BufReader::new(std::fs::File::open(path).expect("VCD written"));
    let mut parser = vcd::Parser::new(f);
    let header = parser.parse_header().expect("VCD header parses");
    let mut ids = HashMap::new();
    for port in Prng::PORTS {
        let var = header.find_var(&["TOP", port.name]).unwrap_or_else(|| panic!("port {} in VCD", port.name));
        assert_eq!(var.size as usize, port.width, "width of {}", port.name);
        ids.insert(var.code, port.name.to_string());
    }
    let mut now = 0u64;
    let mut vals = HashMap::new();
    for cmd in parser {
        let to_u64 = |v: &[vcd::Value]| v.iter().fold(0u64, |a, b| (a << 1) | (*b == vcd::Value::V1) as u64);
        match cmd.expect("VCD body parses") {
            vcd::Command::Timestamp(ts) => {
                now = ts;
                if now > t {
                    break;
                }
            }
            vcd::Command::ChangeScalar(id, v) if ids.contains_key(&id) => {
                vals.insert(ids[&id].clone(), (v == vcd::Value::V1) as u64);
            }
            vcd::Command::ChangeVector(id, v) if ids.contains_key(&id) => {
                vals.insert(ids[&id].clone(), to_u64(&v.iter().collect::<Vec<_>>()));
            }
            _ => {}
        }
    }
    assert!(now > t, "VCD ends before time {t}");
    vals
}

#[test]
fn vcd_holds_ports_at_known_cycle() {
    let dir = std::env::temp_dir().join(format!("netmeas-vcd-{}", std::process::id()));
    let path = vcd_path_in(&dir, "vcd_holds_ports_at_known_cycle");
    let mut sim = Sim::new(Prng::new(5), Some(path.clone()));
    // Cycle 0: reset. Cycles 1..=3: advance. Cycle 4: load seed 0x1234. Cycles 5, 6: idle.
    for c in 0..7u64 {
        sim.m.set_reset((c == 0) as u64);
        sim.m.set_advance((1..=3).contains(&c) as u64);
        sim.m.set_seed_load((c == 4) as u64);
        sim.m.set_seed(0x1234);
        sim.settle();
        sim.tick();
    }
    drop(sim); // flushes and closes the VCD
    // During cycle 3 (time 30) the PRNG shows the default seed advanced twice; advance is high.
    let v = values_at(&path, 30);
    assert_eq!(v["value"], xorshift32(xorshift32(PRNG_DEFAULT_SEED)) as u64);
    assert_eq!(v["advance"], 1);
    assert_eq!(v["reset"], 0);
    assert_eq!(v["clock"], 0);
    // During cycle 5 (time 50): the seed loaded at the end of cycle 4.
    let v = values_at(&path, 50);
    assert_eq!(v["value"], 0x1234);
    assert_eq!(v["seed_load"], 0);

    // The NETMEAS_VCD_DIR route every randomized test takes: RunConfig::for_test → runner → <dir>/<test>.vcd.
    // (This binary holds this one test, so setting the variable races with nothing.)
    std::env::set_var("NETMEAS_VCD_DIR", &dir);
    let r = testbench::blocks::prng::run(&testbench::harness::RunConfig::for_test("vcd_env_route", 200));
    std::env::remove_var("NETMEAS_VCD_DIR");
    r.assert_clean();
    let routed = dir.join("vcd_env_route.vcd");
    let v = values_at(&routed, 10 * 150);
    assert!(v.contains_key("value") && v.contains_key("clock"), "{} lacks the DUT's ports", routed.display());
    let _ = std::fs::remove_dir_all(&dir);
}
