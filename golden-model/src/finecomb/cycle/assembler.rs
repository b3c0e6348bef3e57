//! [`Assembler`]: the core's record stream back into interval reports.

use super::super::{BankReadout, Bucket, FinecombConfig, IntervalReport, Stash, StashEntry};
use super::{Record, RecordKind};

/// One capture's stash entries per bank, in record order.
#[derive(Debug, Clone, Default)]
struct CaptureEntries {
    pre: Vec<Vec<StashEntry>>,
    post: Vec<Vec<StashEntry>>,
}

/// An interval that was opened (by an effective start) and not yet read out.
#[derive(Debug, Clone)]
struct OpenInterval {
    number: u64,
    /// The capture at its start marker (pre-start, post-start), once complete.
    start: CaptureEntries,
}

/// Turns the core's record stream back into the [`IntervalReport`]s of the transaction model
/// [`super::super::FinecombModel`] (fed the same descriptors, then [`super::super::FinecombModel::flush`]):
/// - an interval's number is the index of the effective start that opened it (DoneA bit 1);
/// - its buckets are the walk of its end marker's job A;
/// - pre-start/post-start are the Pre/Post records of the capture at its start marker, pre-end/post-end
///   those of the capture at its end marker (for a sync, one capture serves both);
/// - the report is complete at the DoneB of its end marker's capture.
///
/// Feed it every record popped since the last reset (a new `Assembler` after a reset).
#[derive(Debug, Clone)]
pub struct Assembler {
    cfg: FinecombConfig,
    starts: u64,
    /// Bucket records of the walk in progress, per bank.
    buckets: Vec<Vec<Bucket>>,
    /// The capture being read out and its marker's flags (from its DoneA).
    capture: CaptureEntries,
    end: bool,
    start: bool,
    open: Option<OpenInterval>,
    /// The interval the capture being read out ends, with its buckets.
    closing: Option<(OpenInterval, Vec<Vec<Bucket>>)>,
}

impl Assembler {
    /// `cfg`: the run-time settings the core runs with (role, LDA mode, every bank's M_b).
    pub fn new(cfg: &FinecombConfig) -> Assembler {
        let mut a = Assembler {
            cfg: cfg.clone(),
            starts: 0,
            buckets: vec![],
            capture: CaptureEntries::default(),
            end: false,
            start: false,
            open: None,
            closing: None,
        };
        a.buckets = a.empty_buckets();
        a.capture = a.empty_capture();
        a
    }

    fn empty_buckets(&self) -> Vec<Vec<Bucket>> {
        self.cfg.banks.iter().map(|b| vec![Bucket::default(); b.buckets]).collect()
    }

    fn empty_capture(&self) -> CaptureEntries {
        let n = self.cfg.banks.len();
        CaptureEntries { pre: vec![vec![]; n], post: vec![vec![]; n] }
    }

    /// Takes one record; returns an interval's report when its last record arrived. Records with a bank
    /// or bucket index outside the configuration are ignored.
    pub fn push(&mut self, r: &Record) -> Option<IntervalReport> {
        match r.kind {
            RecordKind::Bucket => {
                if let Some(b) = self.buckets.get_mut(r.bank).and_then(|v| v.get_mut(r.index)) {
                    *b = r.bucket();
                }
            }
            RecordKind::Pre => self.capture.pre.get_mut(r.bank).into_iter().for_each(|v| v.push(r.stash_entry())),
            RecordKind::Post => self.capture.post.get_mut(r.bank).into_iter().for_each(|v| v.push(r.stash_entry())),
            RecordKind::DoneA => {
                (self.end, self.start) = (r.index & 1 != 0, r.index & 2 != 0);
                if self.end {
                    let empty = self.empty_buckets();
                    let buckets = std::mem::replace(&mut self.buckets, empty);
                    self.closing = self.open.take().map(|iv| (iv, buckets));
                }
                if self.start {
                    self.open = Some(OpenInterval { number: self.starts, start: self.empty_capture() });
                    self.starts += 1;
                }
            }
            RecordKind::DoneB => {
                let empty = self.empty_capture();
                let capture = std::mem::replace(&mut self.capture, empty);
                if std::mem::take(&mut self.start) {
                    if let Some(iv) = self.open.as_mut() {
                        iv.start = capture.clone();
                    }
                }
                if std::mem::take(&mut self.end) {
                    return self.closing.take().map(|(iv, buckets)| self.report(iv, buckets, capture));
                }
            }
        }
        None
    }

    fn report(&self, iv: OpenInterval, buckets: Vec<Vec<Bucket>>, end: CaptureEntries) -> IntervalReport {
        let CaptureEntries { pre: pre_start, post: post_start } = iv.start;
        let banks = buckets
            .into_iter()
            .zip(pre_start.into_iter().zip(post_start))
            .zip(end.pre.into_iter().zip(end.post))
            .map(|((buckets, (pre_start, post_start)), (pre_end, post_end))| BankReadout {
                buckets,
                stash: Stash { pre_start, post_start, pre_end, post_end },
            })
            .collect();
        IntervalReport { interval: iv.number, banks }
    }
}

