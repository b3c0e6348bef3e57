//! FineComb core co-simulation: the Verilated `FinecombCore` against
//! `golden::finecomb::cycle::FinecombCycleModel`, cycle by cycle, on randomized traffic.
//!
//! Traffic: packets with random 128-bit keys, 15 % of them repeating the previous key (same digest, so the
//! same bucket of every bank back to back; counted when accepted in consecutive cycles); timestamps
//! starting 2^30 ns before the 48-bit wrap (the input wraps about half a million packets in); intervals of
//! a few hundred to a few thousand packets and a few very short ones (captures cut by the next marker);
//! sync markers mostly, end-only then start-only pairs, ineffective markers of both kinds (a start while
//! counting, an end between intervals) and syncs between intervals (only their start takes effect); a
//! reader that stalls at random and in long phases (the engine then holds markers back); CSR reads of
//! every register, flushes (also right behind a marker), threshold rewrites while packets flow; resets
//! every 50 000–120 000 packets (half of them during a readout), each redrawing the settings: bucket counts
//! including 1, 2, 2^IA − 1 and 2^IA, stash depths including 0, 1 and 2^SA, banks with and without a
//! stash side by side; stash bounds are counted at every effective marker (a bank took w − 1, w or w + 1
//! packets since the previous one: its ring stopped one short of wrapping, wrapped exactly, or wrapped with
//! one more; the post capture of the previous marker, unless closed early, saw the same counts).
//! In runs of ≥ 500 000 packets the first interval is long (140 000 packets, p = 1,
//! bank 0 with one bucket) so bank 0's 64-bit timestamp accumulator wraps; it is closed by an end marker
//! (not an ineffective start, which would run it past the next reset) and that reset waits for its record.

use crate::axi_core::{check_tlast, pack, CsrAnswer};
use crate::blocks::Run;
use crate::core_run::{CoreRun, Cycle, Held, Stall, TraceSim};
use crate::csr_driver::CsrDriver;
use crate::harness::{RunConfig, RunReport, Scoreboard};
use crate::models::{Finecomb, FinecombLda, FinecombRx, FinecombTx, FinecombTxAxi};
use crate::ports::port;
use crate::runtime_model::DynTop;
use golden::finecomb::cycle::{
    FinecombCoreConfig, FinecombCycleModel, FinecombInputs, FinecombOutputs as GoldenOutputs, Record, RecordKind,
};
use golden::finecomb::{Descriptor, FinecombRuntime};
use rand::Rng;

crate::coverage_names! {
    resets, max_bucket_draws, max_stash_draws, mixed_stash_draws, ineffective_markers, ineffective_ends,
    syncs_between_intervals, ineffective_starts, resets_during_readout, reader_stalls, flushes,
    flushes_after_marker, threshold_writes, bucket_records, bucket_records_nonzero, accumulator_wraps,
    stash_records, readouts, captures, marker_waits, same_bucket_back_to_back, timestamp_wraps, packets,
    record_fifo_drops, bucket_rewrites_in_readout, stash_fill_below, stash_fill_at, stash_fill_above,
}

/// Marks this core's run-time model, `DynTop<Runtime>` (`netmeas verify`: `crate::runtime_model`).
pub enum Runtime {}

crate::top_outputs! {
    /// Outputs of a FineComb top during one cycle.
    pub struct FinecombOutputs {
        in_ready: bool,
        rec_valid: bool,
        rec_data: [u32; 6] [when rec_valid],
        csr_rd_valid: bool,
        csr_rd_data: u32,
    }
    compared with golden::finecomb::cycle::FinecombOutputs;
    read from FinecombTx, FinecombRx, Finecomb, FinecombLda, DynTop<Runtime>
}

crate::top_trait!(
    /// A FineComb top: its port mapping ([`CoreTop`](crate::core_run::CoreTop)) with FineComb's golden inputs and typed outputs.
    pub FinecombTop => FinecombInputs, Descriptor, GoldenOutputs, FinecombOutputs
);

/// Drives `reset` and the descriptor port (`in_valid`, `in_key`, `in_ts`, `in_start`, `in_end`), which
/// the core tops and the front-end top `finecomb_front` share.
macro_rules! drive_descriptor {
    ($m:expr, $reset:expr, $valid:expr, $d:expr) => {{
        let (m, d): (_, &Descriptor) = ($m, $d);
        m.set_reset($reset as u64);
        m.set_in_valid($valid as u64);
        m.set_in_key(d.key);
        m.set_in_ts(d.timestamp);
        m.set_in_start(d.start as u64);
        m.set_in_end(d.end as u64);
    }};
}
pub(crate) use drive_descriptor;

crate::core_top! {
    FinecombTx, FinecombRx, Finecomb, FinecombLda, DynTop<Runtime>
        => FinecombInputs, Descriptor, GoldenOutputs, FinecombOutputs;
    |m, i, garbage| {
        drive_descriptor!(&mut *m, i.reset, i.in_valid, &i.desc.unwrap_or(*garbage));
        m.set_rec_ready(i.rec_ready as u64);
        crate::drive_csr_pins!(m, i);
    }
}

// `finecomb_tx_axi`, the generated AXI flavour of `finecomb_tx` (see `crate::axi_core`): descriptors packed
// into `s_axis_in_tdata`, records read from `m_axis_rec_tdata` (the record at bit 0, zero above).
crate::axi_core_top! {
    FinecombTxAxi, DynTop<Runtime> => FinecombInputs, Descriptor, GoldenOutputs, FinecombOutputs;
    drive |m, layouts, i, garbage| {
        let d = i.desc.unwrap_or(*garbage);
        let fields = [
            ("in_key", d.key),
            ("in_ts", d.timestamp as u128),
            ("in_start", d.start as u128),
            ("in_end", d.end as u128),
        ];
        m.set_s_axis_in_tvalid(i.in_valid as u64);
        m.set_s_axis_in_tdata(pack(&layouts[0], &fields).to());
        m.set_m_axis_rec_tready(i.rec_ready as u64);
    }
    read |m, layouts, sb, c, e| {
        let (csr_rd_valid, csr_rd_data) = e.csr_answer();
        let rec_valid = port(m.m_axis_rec_tvalid());
        check_tlast(sb, c, "m_axis_rec_tlast", rec_valid, m.m_axis_rec_tlast());
        FinecombOutputs {
            in_ready: port(m.s_axis_in_tready()),
            rec_valid,
            rec_data: port(m.m_axis_rec_tdata()),
            csr_rd_valid,
            csr_rd_data,
        }
    }
}

/// The configuration of a FineComb top, from hdl's list.
pub fn top_config(name: &str) -> FinecombCoreConfig {
    crate::harness::top_config(name)
}

/// Compares a record (182 bits, as six words) in two halves, bits 127..0 and 181..128.
pub fn check_record(sb: &mut Scoreboard, c: u64, expected: Option<[u32; 6]>, actual: &[u32; 6]) {
    let words = |w: &[u32; 6], lo: bool| {
        let r = if lo { 0..4 } else { 4..6 };
        r.clone().fold(0u128, |a, k| a | (w[k] as u128) << (32 * (k - r.start)))
    };
    sb.check(c, "rec_data[127:0]", expected.map(|w| words(&w, true)), words(actual, true));
    sb.check(c, "rec_data[181:128]", expected.map(|w| words(&w, false)), words(actual, false));
}

/// Random run-time settings that fit the core, as CSR writes (`wrap_phase`: bank 0 with one bucket and
/// p = 1, for the accumulator wrap), and the stash depths of the banks that sample every packet (what
/// interval lengths aim at: [`Traffic::aim`]). Bucket counts are drawn from {1, 2, 2^IA − 1, 2^IA} and
/// small values, stash depths from {0, 1, 2^SA} and small values; a multi-bank receiver often gets a bank
/// without a stash next to banks with one. The first redraw (`draw` 1) gives bank 0 the largest table and
/// stash.
fn settings(core: &FinecombCoreConfig, run: &mut Run, wrap_phase: bool, draw: u64) -> (Vec<(u8, u32)>, Vec<u64>) {
    let mut shape = core.shape.clone();
    let mut p = vec![];
    let (max_m, max_w) = (1usize << core.bucket_addr_bits, 1usize << core.stash_slot_bits);
    let n = core.banks();
    for (b, bank) in shape.banks.iter_mut().enumerate() {
        let r = &mut run.rng;
        bank.buckets = match r.gen_range(0..16) {
            _ if wrap_phase && b == 0 => 1,
            _ if draw == 1 && b == 0 => max_m,
            0 => max_m,
            1 => max_m - 1,
            2 => r.gen_range(1..=2),
            _ => r.gen_range(1..=max_m.min(300)),
        };
        bank.stash_depth = match r.gen_range(0..12) {
            _ if !core.has_stash() => 0,
            _ if draw == 1 && b == 0 => max_w,
            0 | 1 => 0,
            2 => 1,
            3 => max_w,
            _ => r.gen_range(2..=max_w.min(12)),
        };
        if core.has_stash() && n > 1 && b == n - 1 && r.gen_bool(0.5) {
            bank.stash_depth = 0;
        }
        // A bank with a stash samples every packet more often: interval lengths aim at its depth.
        let all = if bank.stash_depth > 0 { 0.5 } else { 0.3 };
        // The first redraw's bank 0 (the largest stash) always does: every run aims at a stash bound.
        let aimed = draw == 1 && b == 0 && core.has_stash();
        p.push(if wrap_phase || aimed || r.gen_bool(all) { 1.0 } else { r.gen_range(0.2..1.0) });
    }
    run.count(cov::max_bucket_draws, shape.banks.iter().filter(|b| b.buckets == max_m).count() as u64);
    if core.has_stash() {
        run.count(cov::max_stash_draws, shape.banks.iter().filter(|b| b.stash_depth == max_w).count() as u64);
        let with = shape.banks.iter().filter(|b| b.stash_depth > 0).count();
        run.count(cov::mixed_stash_draws, (with > 0 && with < n) as u64);
    }
    let aim = shape.banks.iter().zip(&p).filter(|(b, &p)| p == 1.0 && b.stash_depth > 0);
    let aim = aim.map(|(b, _)| b.stash_depth as u64).collect();
    let writes = core.csr_writes(&shape, &FinecombRuntime::with_probabilities(&p));
    (writes.expect("drawn settings fit the core"), aim)
}

/// Random packets and markers (module docs).
struct Traffic {
    ts: u64,
    last_key: Option<u128>,
    /// Packets left in this interval, and whether an interval is open (the core is counting).
    left: u64,
    open: bool,
    /// Stash depths w of the banks that sample every packet: one interval in four is w − 1, w or w + 1
    /// packets long (the stash bounds: a ring that wraps exactly, a post capture filled exactly or overrun),
    /// in turn (`aimed` counts them), so that every third aimed interval meets each bound.
    aim: Vec<u64>,
    aimed: u64,
    /// The next marker ends the interval (the long interval's close).
    end_next: bool,
}

impl Traffic {
    fn new() -> Self {
        let ts = (1u64 << 48) - (1 << 30);
        Traffic { ts, last_key: None, left: 0, open: false, aim: Vec::new(), aimed: 0, end_next: false }
    }
    fn packet(&mut self, run: &mut Run) -> Descriptor {
        self.ts += run.rng.gen_range(0..4000);
        let key = match self.last_key {
            Some(k) if run.rng.gen_ratio(15, 100) => k,
            _ => run.rng.gen(),
        };
        self.last_key = Some(key);
        Descriptor::packet(key, self.ts & ((1 << 48) - 1))
    }
    fn interval_length(&mut self, run: &mut Run) -> u64 {
        if !self.aim.is_empty() && run.rng.gen_ratio(1, 4) {
            let w = self.aim[run.rng.gen_range(0..self.aim.len())];
            self.aimed += 1;
            (w + self.aimed % 3).saturating_sub(1)
        } else if run.rng.gen_ratio(1, 12) {
            run.rng.gen_range(0..20)
        } else {
            run.rng.gen_range(300..5000)
        }
    }
    /// The next descriptor; `long` asks for the accumulator-wrap interval.
    fn next(&mut self, run: &mut Run, long: &mut bool) -> Descriptor {
        if self.left > 0 {
            self.left -= 1;
            return self.packet(run);
        }
        let is_long = std::mem::take(long);
        self.left = if is_long { 140_000 } else { self.interval_length(run) };
        // The long interval opens with a start.
        let pick = if is_long { 99 } else { run.rng.gen_range(0..100) };
        // After the long interval: an end (the same draws are made, so the traffic after it is unchanged).
        let pick = if std::mem::replace(&mut self.end_next, is_long) { 80 } else { pick };
        if !self.open {
            // Between intervals: mostly a start; now and then an end (ineffective: not counting) or a
            // sync (only its start takes effect).
            return match pick {
                0..=14 => {
                    run.count(cov::ineffective_markers, 1);
                    run.count(cov::ineffective_ends, 1);
                    Descriptor::end()
                }
                15..=29 => {
                    run.count(cov::syncs_between_intervals, 1);
                    self.open = true;
                    Descriptor::sync()
                }
                _ => {
                    self.open = true;
                    Descriptor::start()
                }
            };
        }
        match pick {
            0..=74 => Descriptor::sync(),
            75..=89 => {
                self.open = false;
                Descriptor::end()
            }
            _ => {
                // Ineffective: a start while counting (the interval goes on).
                run.count(cov::ineffective_markers, 1);
                run.count(cov::ineffective_starts, 1);
                Descriptor::start()
            }
        }
    }
}

/// Runs `cfg.transactions` accepted packets through a FineComb top and compares every cycle.
pub fn run_top<M: FinecombTop>(name: &str, cfg: &RunConfig, make: impl FnOnce(u64) -> M) -> RunReport {
    let core = top_config(name);
    let gold = FinecombCycleModel::new(&core).expect("valid FineComb configuration");
    let mut cr = CoreRun::new(name, cfg, make(cfg.x_seed), gold, &core.csr_layout());
    let mut traffic = Traffic::new();
    let mut held = Held::new();
    let mut stall = Stall::new(4000, 100..6000);
    // The accumulator-wrap interval needs ≥ 2^17 packets before the timestamps wrap (long runs only).
    let mut long_interval = cfg.transactions >= 500_000;
    let long_run = long_interval;
    let mut next_reset = if long_interval { 150_000 } else { cfg.transactions / 2 };
    let mut reset_waiting = 0u64;
    let mut draws = 0u64;
    let mut packets = 0u64;
    let (mut last_marker_cycle, mut last_packet) = (u64::MAX, None::<(u64, u128)>);
    let mut last_wrap_ts = traffic.ts >> 48;
    while packets < cfg.transactions {
        // Resets redraw the settings every 50 000–120 000 packets; half of them wait (up to 20 000 cycles)
        // for a readout in progress.
        // The first reset of a long run waits for the long interval's record (its accumulator wrapped).
        let wrap_seen = !long_run || cr.run.coverage.get(cov::accumulator_wraps) > 0 || packets >= 300_000;
        let due = packets >= next_reset && wrap_seen;
        reset_waiting = if due { reset_waiting + 1 } else { 0 };
        let during_readout = cr.gold.busy();
        let reset = cr.sim.cycle == 0 || (due && (next_reset % 2 == 0 || during_readout || reset_waiting > 20_000));
        if reset {
            cr.count(cov::resets, 1);
            if cr.sim.cycle > 0 {
                cr.count(cov::resets_during_readout, during_readout as u64);
                next_reset = packets + cr.run.rng.gen_range(50_000..120_000);
            }
            let (writes, aim) = settings(&core, &mut cr.run, cr.sim.cycle == 0 && long_interval, draws);
            cr.csr.load(writes);
            traffic.aim = aim;
            draws += 1;
            held.drop_held();
            traffic.left = 0;
            traffic.open = false;
        }
        if stall.step(&mut cr.run.rng) {
            cr.count(cov::reader_stalls, 1);
        }
        let r = &mut cr.run.rng;
        let mut i = FinecombInputs { reset, rec_ready: stall.ready(r, 0.85), ..Default::default() };
        if !reset {
            let after_marker = last_marker_cycle.wrapping_add(1) == cr.sim.cycle;
            if cr.csr.write_next(&mut i) {
                // The queued settings first.
            } else if r.gen_ratio(1, 30_000) || (after_marker && r.gen_ratio(1, 8)) {
                // A flush, also right behind a marker (its pulse then meets the marker's capture at D2).
                cr.csr.write(&mut i, core.csr_flush(), 1);
                cr.count(cov::flushes, 1);
                cr.count(cov::flushes_after_marker, after_marker as u64);
            } else if packets >= 150_000 && during_readout && r.gen_ratio(1, 3_000) {
                // A bucket count M_b rewritten during a readout (also below the walk's address): the engine
                // takes the new length at its next address step (`golden::finecomb::cycle`, `more`).
                let b = r.gen_range(0..core.banks());
                cr.csr.write(&mut i, core.csr_buckets(b), r.gen_range(1..=1u32 << core.bucket_addr_bits));
                cr.count(cov::bucket_rewrites_in_readout, 1);
            } else if packets >= 150_000 && r.gen_ratio(1, 40_000) {
                // A sampling threshold rewritten while packets flow (read at D1m; not during the long interval,
                // whose bucket must see all its packets).
                let b = r.gen_range(0..core.banks());
                cr.csr.write(&mut i, core.csr_threshold(b), r.gen());
                cr.count(cov::threshold_writes, 1);
            } else if r.gen_ratio(1, 20) {
                cr.csr.random_read(&mut i, r);
            }
        }
        // Descriptors start once the settings are written.
        let r = &mut cr.run.rng;
        let garbage = Descriptor { key: r.gen(), timestamp: r.gen(), start: r.gen(), end: r.gen() };
        if held.is_free() && cr.csr.is_idle() && !reset && cr.run.rng.gen_bool(0.95) {
            held.hold(traffic.next(&mut cr.run, &mut long_interval));
        }
        i.desc = held.get();
        i.in_valid = i.desc.is_some();
        let markers = cr.gold.stats.markers;
        let Cycle { c, e, .. } = cr.step(&i, &garbage);
        if !reset && cr.gold.stats.markers != markers {
            // An effective marker (a reset clears the count too): the packets each stash bank took since the
            // previous one, against its depth w. The ring of pre(m) wraps exactly at w; post(m−1), while it
            // was still filling (no flush or full-capture close first), took the first w and no more.
            for b in 0..core.banks() {
                let (n, w) = (cr.gold.pre_stashed(b) as u64, cr.gold.stash_depth(b) as u64);
                if w > 0 {
                    let names = [cov::stash_fill_below, cov::stash_fill_at, cov::stash_fill_above];
                    crate::core_run::count_boundary(&mut cr.run, n, w, names);
                }
            }
        }
        if e.rec_valid == Some(true) && i.rec_ready {
            if let Some(rec) = e.rec_data.as_ref().and_then(Record::unpack) {
                match rec.kind {
                    RecordKind::Bucket => {
                        cr.count(cov::bucket_records, 1);
                        cr.count(cov::bucket_records_nonzero, (rec.count > 0) as u64);
                        // ≥ 2^17 timestamps of ≥ 2^47 ns each (the long interval runs before the input
                        // wraps) sum past 2^64: the accumulator wrapped.
                        cr.count(cov::accumulator_wraps, (rec.count >= 1 << 17) as u64);
                    }
                    RecordKind::Pre | RecordKind::Post => cr.count(cov::stash_records, 1),
                    RecordKind::DoneA => cr.count(cov::readouts, 1),
                    RecordKind::DoneB => cr.count(cov::captures, 1),
                }
            }
        }
        if let Some(d) = i.desc {
            if !reset && d.is_marker() && e.in_ready == Some(false) && during_readout {
                cr.count(cov::marker_waits, 1);
            }
        }
        if let Some(d) = held.accepted(reset, e.in_ready) {
            cr.run.transactions += 1;
            if d.is_marker() {
                last_marker_cycle = c;
            } else {
                // Same key as the packet accepted in the cycle before: the same bucket of every bank
                // back to back through the pipeline (packets never wait once accepted).
                if last_packet.is_some_and(|(lc, k)| lc + 1 == c && k == d.key) {
                    cr.count(cov::same_bucket_back_to_back, 1);
                }
                last_packet = Some((c, d.key));
                packets += 1;
            }
        }
        if traffic.ts >> 48 > last_wrap_ts {
            last_wrap_ts = traffic.ts >> 48;
            cr.count(cov::timestamp_wraps, 1);
        }
        if !cr.run.sb.is_clean() {
            break;
        }
    }
    cr.count(cov::packets, packets);
    cr.count(cov::record_fifo_drops, cr.gold.fifo_drops() as u64);
    cr.finish()
}

pub fn run_finecomb_tx(cfg: &RunConfig) -> RunReport {
    run_top("finecomb_tx", cfg, FinecombTx::new)
}
/// `finecomb_tx`'s traffic through its AXI flavour `finecomb_tx_axi` (registers over AXI4-Lite).
pub fn run_finecomb_tx_axi(cfg: &RunConfig) -> RunReport {
    run_axi("finecomb_tx", cfg, FinecombTxAxi::new)
}
crate::axi_runner!(FinecombTop, &["in"]);
pub fn run_finecomb_rx(cfg: &RunConfig) -> RunReport {
    run_top("finecomb_rx", cfg, FinecombRx::new)
}
pub fn run_finecomb4(cfg: &RunConfig) -> RunReport {
    run_top("finecomb", cfg, Finecomb::new)
}
pub fn run_finecomb_lda(cfg: &RunConfig) -> RunReport {
    run_top("finecomb_lda", cfg, FinecombLda::new)
}

/// What [`run_trace`] returns: the records the RTL read out, and the cycles it took.
pub struct TraceRun {
    pub records: Vec<Record>,
    /// Cycles from reset until the last record left.
    pub cycles: u64,
    /// Cycles from the first accepted descriptor to the last, both included (the input rate; a marker
    /// that finds the readout of the previous interval still running waits).
    pub accept_cycles: u64,
}

/// Drives a descriptor stream through a FineComb top at full rate (a descriptor offered every cycle, the
/// reader always ready), checking every cycle against the golden cycle model, and returns the records.
/// Software's part, as in a deployment: after reset the run-time settings are written through the CSR
/// port (`thresholds`, and per bank of `shape` the bucket count and stash depth); after the stream a
/// flush closes the last capture; the run ends when the readout has drained.
pub fn run_trace<M: FinecombTop>(
    name: &str,
    shape: &golden::finecomb::FinecombConfig,
    thresholds: &[u32],
    descs: &[Descriptor],
    make: impl FnOnce(u64) -> M,
) -> Result<TraceRun, String> {
    let core = top_config(name);
    let gold = FinecombCycleModel::new(&core).map_err(|e| e.to_string())?;
    let rt = FinecombRuntime { thresholds: thresholds.to_vec() };
    let mut csr = CsrDriver::new(&core.csr_layout());
    csr.load(core.csr_writes(shape, &rt).map_err(|e| format!("{name}: {e}"))?);
    let mut ts = TraceSim::new(name, make(1), gold, csr, 4 * descs.len() as u64 + 200_000);
    let mut out = TraceRun { records: Vec::new(), cycles: 0, accept_cycles: 0 };
    let mut first_accept = None;
    let (mut next, mut quiet, mut flushed_at) = (0usize, 0u64, None);
    let garbage = Descriptor::packet(0, 0);
    loop {
        let now = ts.now();
        let mut i = FinecombInputs { reset: now == 0, rec_ready: true, ..Default::default() };
        if !ts.csr.write_next(&mut i) && !i.reset && next >= descs.len() && flushed_at.is_none() && quiet >= 8 {
            // The last marker has passed D2: close the last capture.
            ts.csr.write(&mut i, core.csr_flush(), 1);
            flushed_at = Some(now);
        }
        i.desc = descs.get(next).copied().filter(|_| ts.csr.is_idle() && !i.reset);
        i.in_valid = i.desc.is_some();
        let Cycle { c, o, .. } = ts.step(&i, &garbage, || format!("{next} of {} descriptors in", descs.len()))?;
        if o.rec_valid && !i.reset {
            let rec = Record::unpack(&o.rec_data).ok_or_else(|| format!("{name}: bad record {:x?}", o.rec_data))?;
            out.records.push(rec);
            out.cycles = c;
        }
        if i.in_valid && o.in_ready {
            next += 1;
            out.accept_cycles = c - *first_accept.get_or_insert(c) + 1;
        }
        quiet = if next >= descs.len() && !o.rec_valid { quiet + 1 } else { 0 };
        if flushed_at.is_some_and(|f| c > f + 8) && quiet >= 64 && !ts.gold.busy() {
            break;
        }
    }
    if ts.gold.fifo_drops() > 0 {
        return Err(format!("{name}: the record FIFO dropped {} records", ts.gold.fifo_drops()));
    }
    Ok(out)
}

/// The FineComb runners (demo order).
pub const ALL: &[crate::blocks::Runner] = &[
    ("finecomb_tx", run_finecomb_tx),
    ("finecomb_rx", run_finecomb_rx),
    ("finecomb", run_finecomb4),
    ("finecomb_lda", run_finecomb_lda),
    ("finecomb_front", crate::finecomb_stages::run_front),
    ("finecomb_record", crate::finecomb_stages::run_record),
];
