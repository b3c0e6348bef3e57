//! AXI4-Lite slave in front of the CSR test bank, as `netmeas generate` wraps a core (`axil_csr_axi`: the
//! generated AXI flavour of the bank on a core CSR port): a randomized master ([`AxilMaster`]: random delays on
//! every channel, address and data in either order, back-to-back beats, backpressure on B and R) writes
//! and reads config, status, identity and unmapped addresses, aligned or not, with any byte strobes, and
//! resets arrive mid-transaction. Two checks each cycle:
//! - **cycle by cycle**: every output of the RTL against the golden slave and bank (`golden::common::axil`,
//!   `golden::common::csr`);
//! - **per transaction**, independently of the golden slave: responses come once each, in issue order; a
//!   write's response is `OKAY` exactly for config registers, and the bank's config registers equal a
//!   shadow register file (the reset values, with each write's strobed bytes merged in as it is applied); a
//!   read returns the shadow value when its response rose (config), a status value the bank held while the
//!   read was in flight (status), the identity constants, or `CSR_UNMAPPED` with `SLVERR`. At the end nothing
//!   is left unanswered.
//!
//! `transactions` counts completed AXI transactions.

use super::Run;
use crate::axi_core::{axil_signal_names, compare_axil, AxilPins};
use crate::axil_master::{AxilMaster, Done, Write};
use crate::harness::{RunConfig, RunReport, Sim};
use crate::models::AxilCsrAxi;
use golden::common::axil::{csr_addr_of, merge_bytes, AxilCsrModel, AxilDecode, RESP_OKAY, RESP_SLVERR};
use golden::common::config::{CSR_ID_ADDR, CSR_STATUS_BASE, CSR_UNMAPPED, CSR_VERSION_ADDR};
use golden::common::csr::{CsrInputs, CsrModel};
use golden::common::tops::csr_top_layout;
use rand::Rng;
use std::collections::VecDeque;

/// Cycles of status history a read's value is looked up in.
const HISTORY: usize = 1024;

pub fn run(cfg: &RunConfig) -> RunReport {
    let mut run = Run::new(AxilCsrAxi::NAME, cfg);
    let mut sim = Sim::new(AxilCsrAxi::new(cfg.x_seed), cfg.vcd.clone());
    let layout = csr_top_layout();
    let decode = AxilDecode::of(&layout);
    let defaults: Vec<u32> = layout.config.iter().map(|c| c.1).collect();
    let ident = layout.ident.expect("the test bank has an identity");
    let n_stat = layout.status.len();
    let mut bus = AxilCsrModel::new(&layout);
    let mut bank = CsrModel::new(layout.clone());
    let mut master = AxilMaster::default();
    let mut shadow = defaults.clone();
    let mut status = vec![0u32; n_stat];
    // (cycle, status) of the last HISTORY cycles, and the cycle each read in flight was issued.
    let mut history: VecDeque<(u64, Vec<u32>)> = VecDeque::new();
    let mut read_issued: VecDeque<u64> = VecDeque::new();
    let (mut bvalid_before, mut rvalid_before) = (false, false);
    // A read's config value as the shadow held it when its response rose (it ran on the bank just before).
    let mut read_value = 0u32;
    let limit = 64 * cfg.transactions + 10_000;
    let mut draining = false;
    let mut drain_cycles = 0u64;
    let names = axil_signal_names("s_axil");
    loop {
        let c = sim.cycle;
        draining |= run.transactions >= cfg.transactions;
        let (w_open, r_open) = master.in_flight();
        if draining && w_open + r_open == 0 {
            break;
        }
        if c >= limit || drain_cycles > 10_000 {
            run.sb.check(c, "all_transactions_answered", Some(0), (w_open + r_open) as u128);
            break;
        }
        drain_cycles += draining as u64;
        let reset = !draining && run.reset_now(c, 4 * cfg.transactions, 40_000);
        if reset {
            master.reset();
            shadow.clone_from(&defaults);
            read_issued.clear();
        }
        // New transactions: keep a few in flight, so channels overlap and queue.
        let r = &mut run.rng;
        if !draining && w_open + r_open < 4 && r.gen_bool(0.5) {
            let addr = match r.gen_range(0..20) {
                0..=9 => 4 * r.gen_range(0..decode.config as u16) + r.gen_range(0..4) * (r.gen_range(0..8) == 0) as u16,
                10..=13 => 4 * (CSR_STATUS_BASE as u16 + r.gen_range(0..n_stat as u16 + 1)),
                14 => 4 * [CSR_ID_ADDR, CSR_VERSION_ADDR][r.gen_range(0..2)] as u16,
                _ => r.gen_range(0..1024),
            };
            if r.gen_bool(0.55) {
                let strb = if r.gen_bool(0.6) { 0xF } else { r.gen_range(0..16) };
                master.write(Write { addr, data: r.gen(), strb });
            } else {
                master.read(addr);
                read_issued.push_back(c);
            }
        }
        for s in status.iter_mut() {
            if r.gen_ratio(1, 3) {
                *s = s.wrapping_add(r.gen_range(1..4));
            }
        }
        let mut i = master.drive(c, r);
        i.reset = reset;
        sim.m.set_rst(i.reset as u64);
        sim.m.set_axil(0, &i);
        sim.m.set_status(std::array::from_fn(|k| status[k]));
        sim.settle();
        // The slave's bus outputs (its CSR side is inside the top: left at zero).
        let o = sim.m.axil(0);
        // Golden: the bank's registered outputs feed the slave, the slave's feed the bank.
        if let Some(b) = bank.outputs() {
            (i.csr_rd_valid, i.csr_rd_data) = (b.rd_valid, b.rd_data);
        }
        let expected = bus.step(&i);
        let e_csr = expected.map(|e| (e.csr_addr, e.csr_wr_en, e.csr_wr_data, e.csr_rd_en)).unwrap_or_default();
        let e_bank = bank.step(&CsrInputs {
            reset,
            addr: e_csr.0,
            wr_en: e_csr.1,
            wr_data: e_csr.2,
            rd_en: e_csr.3,
            status: status.clone(),
        });
        if let Some(e) = expected {
            compare_axil(&mut run.sb, c, &names, &e, &o);
        }
        if let Some(b) = &e_bank {
            let word = b.config.iter().rev().fold(0u128, |a, v| (a << 32) | *v as u128);
            run.sb.check(c, "cfg", Some(word), sim.m.cfg());
        }
        history.push_back((c, status.clone()));
        if history.len() > HISTORY {
            history.pop_front();
        }
        // The bank's config registers show every write whose B response rose before this cycle (a write
        // reaches the bank at the edge ending the cycle its response rises in).
        if !reset {
            let word = shadow.iter().rev().fold(0u128, |a, v| (a << 32) | *v as u128);
            run.sb.check(c, "cfg_equals_shadow", Some(word), sim.m.cfg());
        }
        if !reset {
            // A write is applied when its B response rises (one B at a time): the shadow follows.
            if o.bvalid && !bvalid_before {
                if let Some(w) = master.next_write() {
                    let a = csr_addr_of(w.addr) as usize;
                    if decode.writable(a as u8) {
                        shadow[a] = merge_bytes(shadow[a], w.data, w.strb);
                    }
                    run.count("partial_strobe_writes", (w.strb != 0xF && decode.writable(a as u8)) as u64);
                }
            }
            if o.rvalid && !rvalid_before {
                let a = master.next_read().map_or(0, csr_addr_of);
                read_value = if decode.writable(a) { shadow[a as usize] } else { 0 };
            }
            let contention = i.awvalid && i.arvalid && !o.awready && !o.arready;
            run.count("read_and_write_waiting", contention as u64);
            run.count("b_backpressure", (o.bvalid && !i.bready) as u64);
            run.count("r_backpressure", (o.rvalid && !i.rready) as u64);
            run.count("data_before_address", (i.wvalid && o.wready && !i.awvalid) as u64);
            for d in master.observe(&o) {
                check_done(&mut run, c, d, read_value, &history, &mut read_issued, &decode, ident);
            }
        }
        bvalid_before = o.bvalid && !reset;
        rvalid_before = o.rvalid && !reset;
        sim.tick();
    }
    run.finish(sim.cycle)
}

/// Checks a completed transaction against the shadow register file and the status history.
#[allow(clippy::too_many_arguments)]
fn check_done(
    run: &mut Run,
    c: u64,
    d: Done,
    read_value: u32,
    history: &VecDeque<(u64, Vec<u32>)>,
    read_issued: &mut VecDeque<u64>,
    decode: &AxilDecode,
    ident: golden::common::csr::CoreIdent,
) {
    run.transactions += 1;
    match d {
        Done::Unexpected(b) => run.sb.check(c, if b { "b_without_write" } else { "r_without_read" }, Some(0), 1),
        Done::Write(w, resp) => {
            let a = csr_addr_of(w.addr);
            let want = if decode.writable(a) { RESP_OKAY } else { RESP_SLVERR };
            run.count("slverr_writes", (want == RESP_SLVERR) as u64);
            run.sb.check(c, "txn_bresp", Some(want as u128), resp as u128);
        }
        Done::Read(addr, data, resp) => {
            let issued = read_issued.pop_front().unwrap_or(0);
            let a = csr_addr_of(addr);
            let want_resp = if decode.readable(a) { RESP_OKAY } else { RESP_SLVERR };
            run.count("slverr_reads", (want_resp == RESP_SLVERR) as u64);
            run.sb.check(c, "txn_rresp", Some(want_resp as u128), resp as u128);
            let want = if decode.writable(a) {
                Some(read_value)
            } else if a == CSR_ID_ADDR {
                Some(ident.id)
            } else if a == CSR_VERSION_ADDR {
                Some(ident.version)
            } else if decode.readable(a) {
                // A status value of some cycle the read was in flight (its AR issue to now).
                let k = (a - CSR_STATUS_BASE) as usize;
                let held = history.iter().filter(|(t, _)| *t >= issued).any(|(_, s)| s[k] == data);
                run.count("status_reads", 1);
                Some(if held { data } else { !data })
            } else {
                Some(CSR_UNMAPPED)
            };
            run.sb.check(c, "txn_rdata", want.map(u128::from), data as u128);
        }
    }
}
