//! A trace through a MAPLE top (what `netmeas run maple --engine rtl` runs): epochs of packets at full rate,
//! each epoch's packets looked up on the frozen bank and the bank flushed, every cycle checked against the
//! golden cycle model ([`run_trace`]); and the conversions of the port's answers and flush records into the
//! transaction model's types ([`lookup_of`], [`flush_record`]).

use crate::maple::{top_config, Desc, MapleTop, MapleTopOutputs};
use golden::maple::cycle::{
    center_load_writes, MapleCycleModel, MapleInputs, MapleOutputs, CSR_EPOCH, CSR_FLUSH, CSR_OPTIONS, CSR_PRNG_SEED,
    CSR_SAMPLE_THRESHOLD,
};
use golden::maple::MatchKind;

/// One epoch of a trace: the centers it counts with and its packets.
#[derive(Debug, Clone, Default)]
pub struct TraceEpoch {
    /// The center set (`k = centers.len()`, loaded as the shadow set before the epoch's marker).
    pub centers: Vec<u32>,
    pub packets: Vec<Desc>,
}

/// What the RTL answered for one epoch of a trace.
#[derive(Debug, Clone, Default)]
pub struct EpochAnswers {
    /// The lookup port's answer for every packet of the epoch, in packet order (looked up on the frozen bank).
    pub answers: Vec<golden::maple::lookup::PortAnswer>,
    /// The flush records of the frozen bank, in record-port order.
    pub records: Vec<golden::maple::cycle::Record>,
}

/// A trace through a MAPLE top (what `--engine rtl` runs).
#[derive(Debug, Clone, Default)]
pub struct MapleTrace {
    pub epochs: Vec<EpochAnswers>,
    /// Cycles of the whole run (reset sweep, loads, inserts, lookups, flushes).
    pub cycles: u64,
    /// Cycles spent on packets (inserts), on lookups and on flushes.
    pub insert_cycles: u64,
    pub lookup_cycles: u64,
    pub flush_cycles: u64,
}

/// The record-, sample- and answer-readers of a trace (always ready), the CSR queue, the collection.
struct TraceRun<M: MapleTop> {
    ts: crate::core_run::TraceSim<M, MapleCycleModel>,
    answers: Vec<golden::maple::lookup::PortAnswer>,
    records: Vec<golden::maple::cycle::Record>,
    /// Where the run stands (for an error): epoch, what is counted, done, of.
    phase: (usize, &'static str, usize, usize),
}

impl<M: MapleTop> TraceRun<M> {
    /// One checked cycle with `i` (readers ready, the next queued CSR write); collects answers and records.
    fn cycle(&mut self, mut i: MapleInputs) -> Result<crate::core_run::Cycle<MapleOutputs, MapleTopOutputs>, String> {
        (i.smp_ready, i.rec_ready, i.ans_ready) = (true, true, true);
        self.ts.csr.write_next(&mut i);
        let (e, what, done, of) = self.phase;
        let cy = self.ts.step(&i, &Desc::default(), || format!("epoch {e}: {done} of {of} {what}"))?;
        if !i.reset {
            if cy.o.ans_valid {
                let o = &cy.o;
                self.answers.push(golden::maple::lookup::PortAnswer {
                    kind: o.ans_kind as u8,
                    candidates: o.ans_cand,
                    center_valid: o.ans_center_valid,
                    center: o.ans_center as usize,
                    latency: o.ans_latency,
                    refined: o.ans_refined,
                });
            }
            if cy.o.rec_valid {
                self.records.push(golden::maple::cycle::Record::unpack(&self.ts.gold.cfg, cy.o.rec_data));
            }
        }
        Ok(cy)
    }
    /// Idle cycles until the CSR queue is out and `n` more cycles passed.
    fn settle(&mut self, n: u32) -> Result<(), String> {
        while !self.ts.csr.is_idle() {
            self.cycle(MapleInputs::default())?;
        }
        for _ in 0..n {
            self.cycle(MapleInputs::default())?;
        }
        Ok(())
    }
}

/// Runs `epochs` through top `name`, every cycle checked against the golden cycle model: after reset the
/// settings of `rt` (its flush option ignored: the trace flushes on command, CSR `options` bit 1) and the
/// first center set go in through the CSR port, then a marker swaps them in. Per epoch: its packets at full
/// rate (the next epoch's centers loaded as the shadow set meanwhile), the epoch marker, 8 quiet cycles (the
/// swap and the last packets into the frozen bank), every packet of the epoch looked up on the frozen bank
/// (one lookup at a time, answers taken at once), then a `flush` write and its `(h + 1)·2^A` records. The
/// first mismatch with golden (or a run that does not end) is an error naming the cycle.
pub fn run_trace<M: MapleTop>(
    name: &str,
    rt: &golden::maple::MapleRuntime,
    epochs: &[TraceEpoch],
    make: impl FnOnce(u64) -> M,
) -> Result<MapleTrace, String> {
    let mcfg = top_config(name);
    for (e, ep) in epochs.iter().enumerate() {
        if ep.centers.is_empty() || ep.centers.len() > mcfg.max_centers {
            let k = ep.centers.len();
            return Err(format!("{name}: epoch {e} has {k} centers; the build holds 1..={}", mcfg.max_centers));
        }
    }
    let gold = MapleCycleModel::new(&mcfg).map_err(|e| format!("{name}: {e}"))?;
    let layout = mcfg.csr_layout();
    let n_records = (mcfg.store.hashes + 1) << mcfg.addr_bits();
    let packets: u64 = epochs.iter().map(|e| e.packets.len() as u64).sum();
    let limit = 2_000 + packets * 120 + epochs.len() as u64 * (4 * n_records as u64 + 200);
    let csr = crate::csr_driver::CsrDriver::new(&layout);
    let ts = crate::core_run::TraceSim::new(name, make(1), gold, csr, limit);
    let mut run = TraceRun { ts, answers: vec![], records: vec![], phase: (0, "settings", 0, 0) };
    let options = golden::maple::MapleRuntime { manual_flush: true, ..*rt }.options_word();
    let mut settings =
        vec![(CSR_SAMPLE_THRESHOLD, rt.sample_threshold), (CSR_PRNG_SEED, rt.prng_seed), (CSR_OPTIONS, options)];
    settings.extend(epochs.first().map(|e| center_load_writes(&e.centers)).unwrap_or_default());
    settings.push((CSR_EPOCH, 1));
    run.cycle(MapleInputs { reset: true, ..Default::default() })?;
    run.ts.csr.load(settings);
    run.settle(8)?;
    let mut out = MapleTrace::default();
    for (e, ep) in epochs.iter().enumerate() {
        // Inserts, the next centers into the shadow set meanwhile.
        let t0 = run.ts.now();
        if let Some(next) = epochs.get(e + 1) {
            center_load_writes(&next.centers).into_iter().for_each(|(a, v)| run.ts.csr.push(a, v));
        }
        let mut next = 0;
        while next < ep.packets.len() {
            run.phase = (e, "packets in", next, ep.packets.len());
            let d = ep.packets[next];
            let cy = run.cycle(MapleInputs { in_valid: true, key: d.key, latency: d.latency, ..Default::default() })?;
            next += (cy.e.in_ready == Some(true)) as usize;
        }
        run.ts.csr.push(CSR_EPOCH, 1);
        run.settle(8)?;
        let t1 = run.ts.now();
        // Lookups on the frozen bank: a key offered until accepted, the next one at once.
        run.answers.clear();
        let mut next = 0;
        while run.answers.len() < ep.packets.len() {
            run.phase = (e, "answers", run.answers.len(), ep.packets.len());
            let key = ep.packets.get(next).map(|d| d.key);
            let cy =
                run.cycle(MapleInputs { lk_valid: key.is_some(), lk_key: key.unwrap_or(0), ..Default::default() })?;
            next += (key.is_some() && cy.e.lk_ready == Some(true)) as usize;
        }
        let t2 = run.ts.now();
        // The flush of the frozen bank.
        run.records.clear();
        run.ts.csr.push(CSR_FLUSH, 1);
        while run.records.len() < n_records || run.ts.gold.flush_busy() {
            run.phase = (e, "flush records", run.records.len(), n_records);
            run.cycle(MapleInputs::default())?;
        }
        run.settle(4)?;
        if run.records.len() != n_records {
            return Err(format!("{name}: epoch {e} flushed {} records, not {n_records}", run.records.len()));
        }
        out.insert_cycles += t1 - t0;
        out.lookup_cycles += t2 - t1;
        out.flush_cycles += run.ts.now() - t2;
        let answers = std::mem::take(&mut run.answers);
        out.epochs.push(EpochAnswers { answers, records: std::mem::take(&mut run.records) });
    }
    if run.ts.gold.records.drops() > 0 {
        return Err(format!("{name}: {} flush records dropped", run.ts.gold.records.drops()));
    }
    out.cycles = run.ts.now();
    Ok(out)
}

/// A port answer as the transaction model's [`golden::maple::Lookup`] (`None`: an unknown kind code).
pub fn lookup_of(a: &golden::maple::lookup::PortAnswer) -> Option<golden::maple::Lookup> {
    let kind =
        [MatchKind::NoMatch, MatchKind::Match, MatchKind::MultiMatch].into_iter().find(|k| *k as u8 == a.kind)?;
    let center = a.center_valid.then_some(a.center);
    Some(golden::maple::Lookup {
        kind,
        candidates: a.candidates,
        center,
        latency: center.map(|_| a.latency),
        refined: center.map(|_| a.refined),
    })
}

/// The flushed bank of build `name` as the transaction model's [`golden::maple::FlushRecord`]: the epoch's
/// `centers`, the counter row's first `k` words as counts and sums, the segment rows as words; an error if a
/// record is missing or repeated, or a counter beyond `k` is not 0.
pub fn flush_record(
    name: &str,
    centers: &[u32],
    records: &[golden::maple::cycle::Record],
) -> Result<golden::maple::FlushRecord, String> {
    let cfg = top_config(name);
    let (h, n, k) = (cfg.store.hashes, 1usize << cfg.addr_bits(), centers.len());
    let mut seen = vec![false; (h + 1) * n];
    let mut fr = golden::maple::FlushRecord {
        centers: centers.to_vec(),
        count: vec![0; k],
        sum: vec![0; k],
        words: vec![0; h * n],
    };
    for r in records {
        let slot = seen.get_mut(r.row * n + r.addr).ok_or_else(|| format!("{name}: a record of row {}", r.row))?;
        if std::mem::replace(slot, true) {
            return Err(format!("{name}: row {} word {} flushed twice", r.row, r.addr));
        }
        match (r.row == h, r.addr < k) {
            (false, _) => fr.words[r.row * n + r.addr] = r.data as u64,
            (true, true) => (fr.count[r.addr], fr.sum[r.addr]) = (r.data as u32 as u64, (r.data >> 32) as u64),
            (true, false) if r.data != 0 => {
                return Err(format!("{name}: counter {} beyond k = {k} is {}", r.addr, r.data))
            }
            (true, false) => {}
        }
    }
    match seen.iter().position(|s| !s) {
        Some(p) => Err(format!("{name}: row {} word {} never flushed", p / n, p % n)),
        None => Ok(fr),
    }
}
