//! Whole frames onto the parser's AXI4-Stream input, cycle by cycle: the stimulus of a replay (`netmeas
//! replay` streams a capture's frames through the parser, on the cycle model or the Verilated RTL; both
//! use this driver, so they see the same cycles).
//!
//! [`FrameDriver`] holds a list of frames (bytes and `tuser`), splits each into beats of the bus width as
//! it reaches the front ([`beats`]), and each cycle decides `tvalid` (an idle cycle with probability
//! `gaps`) and `rec_ready` (held low with probability `backpressure`) from its own PRNG (seeded, so a
//! replay is reproducible). Cycle 0 asserts reset (an RTL's registers are random before it). After the
//! cycle, [`FrameDriver::after`] takes the parser's outputs: a beat is gone when `tvalid && tready`, a
//! record is taken when `rec_ready` and a record is on the output. Records come out in frame order, one per
//! frame: the replay is over when every frame has its record ([`FrameDriver::finished`]).
//!
//! A frame of zero bytes goes out as one beat with `tkeep` 0 and `tlast` (the parser counts it as a runt).
//! A parser that takes no beat and gives no record for [`STALL_LIMIT`] cycles is an error naming the
//! cycle and the frame (a hang must not pass as a long replay).

use super::cycle::{beats, ParserCycle, ParserInputs, ParserOutputs, Record};
use super::desc::{DescCycle, DescInputs, DescOutputs, Entry};
use super::descriptors::{FlowDescriptor, TcpMode};
use crate::fridge::Descriptor as FridgeDescriptor;
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use std::collections::VecDeque;

/// Cycles without a beat taken or a record given after which the driver calls the parser stuck. Far above
/// what backpressure of [`MAX_PROBABILITY`] makes likely (a record waits 100 cycles on average).
pub const STALL_LIMIT: u64 = 100_000;

/// The largest `gaps` / `backpressure` probability taken (at 1 nothing would ever move).
pub const MAX_PROBABILITY: f64 = 0.99;

/// What a replay drives: the bus width in bytes, the per-cycle probabilities of an idle input cycle
/// (`gaps`) and a held output (`backpressure`), each in `0..=`[`MAX_PROBABILITY`], and the PRNG's seed.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Stimulus {
    pub data_bytes: usize,
    pub gaps: f64,
    pub backpressure: f64,
    pub seed: u64,
}

impl Stimulus {
    /// What is wrong with the settings, if anything.
    pub fn check(&self) -> Result<(), String> {
        if !(self.data_bytes.is_power_of_two() && (1..=64).contains(&self.data_bytes)) {
            return Err(format!("bus of {} bytes: a power of two from 1 to 64", self.data_bytes));
        }
        for (name, p) in [("gaps", self.gaps), ("backpressure", self.backpressure)] {
            if !(0.0..=MAX_PROBABILITY).contains(&p) {
                return Err(format!("--{name} {p}: a probability from 0 to {MAX_PROBABILITY}"));
            }
        }
        Ok(())
    }
}

/// One beat: `(tdata, tkeep, tlast)`.
type Beat = ([u8; 64], u64, bool);

/// Drives frames into a parser (see the module docs).
#[derive(Debug, Clone)]
pub struct FrameDriver<'a> {
    data_bytes: usize,
    frames: &'a [(Vec<u8>, u64)],
    /// The next frame to split into beats.
    next: usize,
    beats: VecDeque<Beat>,
    /// The `tuser` of the frame at the front.
    tuser: u64,
    rng: SmallRng,
    gaps: f64,
    backpressure: f64,
    records: Vec<Record>,
    cycle: u64,
    last_progress: u64,
}

impl<'a> FrameDriver<'a> {
    /// A driver of `frames` (`(bytes, tuser)`) as `s` says.
    pub fn new(frames: &'a [(Vec<u8>, u64)], s: &Stimulus) -> Result<Self, String> {
        s.check()?;
        Ok(FrameDriver {
            data_bytes: s.data_bytes,
            frames,
            next: 0,
            beats: VecDeque::new(),
            tuser: 0,
            rng: SmallRng::seed_from_u64(s.seed),
            gaps: s.gaps,
            backpressure: s.backpressure,
            records: Vec::with_capacity(frames.len()),
            cycle: 0,
            last_progress: 0,
        })
    }

    /// Every frame has its record.
    pub fn finished(&self) -> bool {
        self.records.len() == self.frames.len()
    }

    /// Cycles driven so far.
    pub fn cycles(&self) -> u64 {
        self.cycle
    }

    /// The records taken so far, in frame order.
    pub fn records(&self) -> &[Record] {
        &self.records
    }

    /// The records, one per frame in frame order.
    pub fn into_records(self) -> Vec<Record> {
        self.records
    }

    /// This cycle's inputs.
    pub fn inputs(&mut self) -> ParserInputs {
        if self.beats.is_empty() && self.next < self.frames.len() {
            let (bytes, tuser) = &self.frames[self.next];
            self.next += 1;
            self.tuser = *tuser;
            if bytes.is_empty() {
                self.beats.push_back(([0; 64], 0, true));
            } else {
                self.beats.extend(beats(bytes, self.data_bytes));
            }
        }
        let reset = self.cycle == 0;
        let tvalid = !reset && !self.beats.is_empty() && !self.rng.gen_bool(self.gaps);
        let rec_ready = !self.rng.gen_bool(self.backpressure);
        let (tdata, tkeep, tlast) = self.beats.front().copied().unwrap_or(([0; 64], 0, false));
        ParserInputs { reset, tvalid, tdata, tkeep, tlast, tuser: self.tuser, rec_ready }
    }

    /// Takes the cycle's outputs (for the inputs [`FrameDriver::inputs`] gave) and moves to the next cycle.
    pub fn after(&mut self, i: &ParserInputs, o: &ParserOutputs) -> Result<(), String> {
        if !i.reset {
            if i.tvalid && o.tready {
                self.beats.pop_front();
                self.last_progress = self.cycle;
            }
            if let (Some(r), true) = (o.record, i.rec_ready) {
                if self.records.len() == self.frames.len() {
                    return Err(format!("cycle {}: a record beyond the {} frames sent", self.cycle, self.frames.len()));
                }
                self.records.push(r);
                self.last_progress = self.cycle;
            }
        }
        if self.cycle - self.last_progress > STALL_LIMIT {
            return Err(format!(
                "the parser took no beat and gave no record for {STALL_LIMIT} cycles (cycle {}; {} of {} frames \
                 have their record)",
                self.cycle,
                self.records.len(),
                self.frames.len()
            ));
        }
        self.cycle += 1;
        Ok(())
    }
}

/// The parser with the descriptor stage behind it (`super::desc`): the parser's record output goes
/// straight into the stage, the stimulus's `rec_ready` is the two lanes' ready (both the same), and the
/// parser's `rec_ready` is the stage's `s_rec_ready`.
#[derive(Debug, Clone)]
pub struct Chain {
    pub parser: ParserCycle,
    pub desc: DescCycle,
    pub syn_mode: bool,
}

/// One cycle of a [`Chain`]: each block's inputs and outputs.
#[derive(Debug, Clone, Copy)]
pub struct ChainCycle {
    pub parser_in: ParserInputs,
    pub parser_out: ParserOutputs,
    pub desc_in: DescInputs,
    pub desc_out: DescOutputs,
}

impl Chain {
    /// Both blocks after reset, the stage in the mode `syn_mode` selects.
    pub fn new(data_bytes: usize, syn_mode: bool) -> Self {
        Chain { parser: ParserCycle::new(data_bytes), desc: DescCycle::new(), syn_mode }
    }

    /// One clock cycle of both, from the stimulus's inputs `i`.
    pub fn step(&mut self, i: &ParserInputs) -> ChainCycle {
        let parser_in = ParserInputs { rec_ready: self.desc.rec_ready(), ..*i };
        let parser_out = self.parser.step(&parser_in);
        let desc_in = DescInputs {
            reset: i.reset,
            rec: parser_out.record,
            syn_mode: self.syn_mode,
            fridge_ready: i.rec_ready,
            flow_ready: i.rec_ready,
        };
        let desc_out = self.desc.step(&desc_in);
        ChainCycle { parser_in, parser_out, desc_in, desc_out }
    }
}

/// The descriptors a descriptor stage gave, per lane in order.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Lanes {
    pub fridge: Vec<FridgeDescriptor>,
    pub flow: Vec<FlowDescriptor>,
}

impl Lanes {
    /// Takes what the lanes hand over in a cycle with inputs `i` and outputs `o`.
    pub fn take(&mut self, i: &DescInputs, o: &DescOutputs) {
        if i.reset {
            return;
        }
        self.fridge.extend(o.fridge.filter(|_| i.fridge_ready));
        self.flow.extend(o.flow.filter(|_| i.flow_ready));
    }

    /// Whether these are exactly the descriptors of `records` in `mode` (`super::descriptors` of each
    /// accepted TCP record's segment, in record order): the first difference, if any.
    pub fn check(&self, records: &[Record], mode: TcpMode) -> Result<(), String> {
        let entries: Vec<Entry> = records.iter().filter_map(|r| Entry::of(r, mode)).collect();
        let fridge: Vec<FridgeDescriptor> = entries.iter().flat_map(|e| e.fridge.iter().copied()).collect();
        let flow: Vec<FlowDescriptor> = entries.iter().map(|e| e.flow).collect();
        first_difference("fridge", &self.fridge, &fridge)?;
        first_difference("flow", &self.flow, &flow)
    }
}

/// The first place where lane `lane` gave `got` instead of `want`, if any.
fn first_difference<T: PartialEq + std::fmt::Debug>(lane: &str, got: &[T], want: &[T]) -> Result<(), String> {
    match got.iter().zip(want).position(|(g, w)| g != w) {
        Some(k) => Err(format!("{lane} lane, descriptor {k}: {:?} instead of {:?}", got[k], want[k])),
        None if got.len() != want.len() => {
            Err(format!("{lane} lane: {} descriptors instead of {}", got.len(), want.len()))
        }
        None => Ok(()),
    }
}

/// A replay through parser and descriptor stage: the records (one per frame, in order), the descriptors,
/// the cycles until both were out.
#[derive(Debug, Clone)]
pub struct FrontendRun {
    pub records: Vec<Record>,
    pub lanes: Lanes,
    pub cycles: u64,
}

/// `frames` through the cycle models of the parser and the descriptor stage ([`Chain`]) as `s` says,
/// until every frame has its record and every descriptor is out.
pub fn run_frontend_model(frames: &[(Vec<u8>, u64)], s: &Stimulus, syn_mode: bool) -> Result<FrontendRun, String> {
    let mut drv = FrameDriver::new(frames, s)?;
    let mut chain = Chain::new(s.data_bytes, syn_mode);
    let mut lanes = Lanes::default();
    while !(drv.finished() && chain.desc.idle()) {
        let c = chain.step(&drv.inputs());
        lanes.take(&c.desc_in, &c.desc_out);
        drv.after(&c.parser_in, &c.parser_out)?;
    }
    let cycles = drv.cycles();
    Ok(FrontendRun { records: drv.into_records(), lanes, cycles })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parser::{parse, random, ParserConfig};

    /// `frames` through the parser's cycle model alone as `s` says: one record per frame, in order, and the
    /// cycles it took (the replays run the parser with the descriptor stage: [`run_frontend_model`]).
    fn run_cycle_model(frames: &[(Vec<u8>, u64)], s: &Stimulus) -> Result<(Vec<Record>, u64), String> {
        let mut drv = FrameDriver::new(frames, s)?;
        let mut model = ParserCycle::new(s.data_bytes);
        while !drv.finished() {
            let i = drv.inputs();
            let o = model.step(&i);
            drv.after(&i, &o)?;
        }
        let cycles = drv.cycles();
        Ok((drv.into_records(), cycles))
    }

    fn frames(n: usize, seed: u64) -> Vec<(Vec<u8>, u64)> {
        let mut rng = SmallRng::seed_from_u64(seed);
        (0..n).map(|k| (random::frame(&mut rng, 8), (k as u64) << 16)).collect()
    }

    #[test]
    fn every_frame_gets_its_record_in_order_under_gaps_and_backpressure() {
        let f = frames(3_000, 1);
        for (bytes, gaps, bp) in [(8, 0.0, 0.0), (8, 0.3, 0.6), (64, 0.0, 0.0), (64, 0.5, 0.9)] {
            let s = Stimulus { data_bytes: bytes, gaps, backpressure: bp, seed: 7 };
            let (recs, cycles) = run_cycle_model(&f, &s).unwrap();
            assert_eq!(recs.len(), f.len());
            for (k, (r, (frame, _))) in recs.iter().zip(&f).enumerate() {
                assert_eq!(r.timestamp, k as u64, "record {k} out of order");
                let want = parse(frame, &ParserConfig::HARDWARE);
                assert_eq!(r.drop, want.err(), "frame {k}");
            }
            let beats: usize = f.iter().map(|(b, _)| b.len().div_ceil(bytes).max(1)).sum();
            // Back to back and always ready: one beat a cycle, plus the pipeline's latency at the end.
            if gaps == 0.0 && bp == 0.0 {
                assert_eq!(cycles as usize, beats + crate::parser::cycle::LATENCY + 1, "{bytes}");
            } else {
                assert!(cycles as usize > beats * 13 / 10, "{bytes} {gaps} {bp}: {cycles} cycles, {beats} beats");
            }
        }
    }

    #[test]
    fn the_descriptor_stage_behind_the_parser_gives_every_descriptor_in_order() {
        let f = frames(3_000, 3);
        for (bytes, gaps, bp, syn) in [(8, 0.0, 0.0, false), (64, 0.0, 0.0, false), (64, 0.2, 0.7, true)] {
            let s = Stimulus { data_bytes: bytes, gaps, backpressure: bp, seed: 5 };
            let run = run_frontend_model(&f, &s, syn).unwrap();
            let (recs, _) = run_cycle_model(&f, &s).unwrap();
            assert_eq!(run.records.iter().map(|r| r.timestamp).collect::<Vec<_>>(), (0..3_000).collect::<Vec<_>>());
            assert_eq!(
                run.records.iter().map(|r| r.drop).collect::<Vec<_>>(),
                recs.iter().map(|r| r.drop).collect::<Vec<_>>()
            );
            let mode = crate::parser::desc::mode_of(syn);
            run.lanes.check(&run.records, mode).unwrap();
            assert!(!run.lanes.fridge.is_empty() && !run.lanes.flow.is_empty());
            // A lane that lost or reordered a descriptor is caught.
            let mut bad = run.lanes.clone();
            bad.fridge.swap(0, 1);
            assert!(bad.check(&run.records, mode).unwrap_err().contains("fridge lane, descriptor 0"));
            bad = run.lanes.clone();
            bad.flow.pop();
            assert!(bad.check(&run.records, mode).unwrap_err().contains("flow lane"));
        }
    }

    #[test]
    fn bad_settings_are_errors_and_a_stuck_parser_is_reported() {
        let f = frames(10, 2);
        let s = Stimulus { data_bytes: 8, gaps: 0.0, backpressure: 0.0, seed: 1 };
        assert!(FrameDriver::new(&f, &Stimulus { data_bytes: 12, ..s }).is_err());
        assert!(FrameDriver::new(&f, &Stimulus { gaps: 1.0, ..s }).unwrap_err().contains("--gaps"));
        assert!(FrameDriver::new(&f, &Stimulus { backpressure: -0.1, ..s }).unwrap_err().contains("--backpressure"));
        // A "parser" that never takes a beat.
        let mut d = FrameDriver::new(&f, &s).unwrap();
        let stuck = ParserOutputs { tready: false, record: None };
        let err = (0..=STALL_LIMIT + 2).find_map(|_| {
            let i = d.inputs();
            d.after(&i, &stuck).err()
        });
        assert!(err.is_some_and(|e| e.contains("no beat")));
    }
}
