//! The hybrid scheme (defense slides "Hybrid Scheme"): a counter-based heavy-hitter table keeps track of the
//! large flows over long periods, with their size and reordering; flow sampling admits only flows the
//! heavy-hitter table does not monitor; both report to the same tally.
//!
//! - **Heavy-hitter side**: the heavy-hitter core's transaction model ([`HhModel`], d-way RAP or
//!   PRECISION, keyed by the 104-bit flow key) decides per data packet. Its bucket holds `{key, count}`
//!   only, and `count` is RAP's estimate (an admitted key inherits the evicted minimum's count), so the
//!   reordering state sits in a **side table** with one entry `{prefix, last seq, n, o}` per heavy-hitter
//!   bucket (same rows, same indices, same two banks — in hardware a second RAM addressed like the
//!   heavy-hitter RAM, written in the same modify stage). Per packet, by the heavy-hitter outcome
//!   ([`crate::heavy_hitters::Outcome`]):
//!   - `Hit { row }`: the side entry of that row is the flow's: `o += [s < s']`, `n += 1`, `s' ← s`.
//!   - `Insert { row }` / `Admit { row }`: the flow now holds that bucket: an admission first reports the
//!     evicted flow's side entry (`{prefix, n, o, Evicted}`, if `n > 0`); the entry starts over as
//!     `{g, s, n = [count_first], o = 0}` — `n` counts packets seen since admission, not RAP's estimate.
//!   - `Reject`: the flow is not monitored: the packet goes to flow sampling ([`SamplingModel`]).
//!   So every data packet is counted by exactly one structure. A flow that is sampled and later admitted
//!   into the heavy-hitter table leaves its sample behind; the sample goes stale and is reported when
//!   overwritten or flushed (its packets up to the admission, no double count).
//! - **Flush**: both structures swap banks together and report their frozen bank (the side table's
//!   entries with `n > 0` as [`Reason::Flushed`]); the heavy-hitter records themselves carry no reordering
//!   and are not reported. One measurement period for the whole core: for "long periods", flush rarely.
//! - Non-data descriptors are ignored by both (they do not reach the heavy-hitter table either: its counts
//!   are data packets).

use super::sampling::{Outcome as SampleOutcome, SamplingModel};
use super::{out_of_order, Descriptor, Reason, ReorderConfig, ReorderRuntime, Report, FLOW_KEY_BITS};
use crate::common::config::ConfigError;
use crate::common::hash::XorHash;
use crate::heavy_hitters::{HhConfig, HhModel, HhRuntime, Outcome as HhOutcome};

/// The reordering state of one heavy-hitter bucket. Empty iff `n == 0` and never written.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct SideEntry {
    pub prefix: u32,
    pub seq: u32,
    pub n: u32,
    pub o: u32,
}

impl SideEntry {
    fn report(&self, reason: Reason) -> Option<Report> {
        (self.n > 0).then_some(Report { prefix: self.prefix, n: self.n, o: self.o, reason })
    }
}

/// Which structure took a data packet.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum HybridOutcome {
    /// Not a data segment: ignored by both.
    NotData,
    /// The heavy-hitter table monitors the flow (hit, insert or admission).
    Heavy { outcome: HhOutcome, ooo: bool },
    /// Not monitored: flow sampling's outcome.
    Sampled(SampleOutcome),
}

/// Counters of the heavy-hitter side (the sampling side keeps its own).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct HybridStats {
    /// Data packets the heavy-hitter table took.
    pub heavy_packets: u64,
    /// Of those, out of order.
    pub heavy_out_of_order: u64,
    /// Side entries reported (evictions and flushes).
    pub heavy_reports: u64,
}

/// The hybrid core: heavy-hitter table + side table, and flow sampling behind it.
#[derive(Debug, Clone)]
pub struct HybridModel {
    pub hh: HhModel,
    pub sampling: SamplingModel,
    hh_hash: XorHash,
    /// `side[bank][row][index]`, banks swapped with the heavy-hitter table's.
    pub side: [Vec<Vec<SideEntry>>; 2],
    pub stats: HybridStats,
}

impl HybridModel {
    /// `hh` must key on the 104-bit flow key.
    pub fn new(
        cfg: &ReorderConfig,
        rt: ReorderRuntime,
        hh: &HhConfig,
        hh_rt: HhRuntime,
    ) -> Result<HybridModel, ConfigError> {
        if hh.key_bits != FLOW_KEY_BITS {
            return Err(ConfigError(format!(
                "the hybrid's heavy-hitter table keys on the {FLOW_KEY_BITS}-bit flow key, not {} bits",
                hh.key_bits
            )));
        }
        let empty = vec![vec![SideEntry::default(); hh.buckets_per_row()]; hh.rows];
        Ok(HybridModel {
            hh: HhModel::new(hh, hh_rt)?,
            sampling: SamplingModel::new(cfg, rt)?,
            hh_hash: hh.hash()?,
            side: [empty.clone(), empty],
            stats: HybridStats::default(),
        })
    }

    /// One packet: which structure took it, and the report of an evicted flow (from either side).
    pub fn step(&mut self, d: &Descriptor) -> (HybridOutcome, Option<Report>) {
        if !d.data {
            let (o, r) = self.sampling.step(d);
            debug_assert!(o == SampleOutcome::NotData && r.is_none());
            return (HybridOutcome::NotData, None);
        }
        let res = self.hh.step(d.flow);
        let row = match res.outcome {
            HhOutcome::Reject => {
                let (o, r) = self.sampling.step(d);
                return (HybridOutcome::Sampled(o), r);
            }
            HhOutcome::Hit { row } | HhOutcome::Insert { row } | HhOutcome::Admit { row } => row,
        };
        let rt = &self.sampling.rt;
        let cfg = &self.sampling.cfg;
        let index = self.hh.cfg.index(self.hh_hash.eval(d.flow), row);
        let e = &mut self.side[self.hh.active][row][index];
        let (ooo, report) = match res.outcome {
            HhOutcome::Hit { .. } => {
                let ooo = e.n > 0 && out_of_order(d.seq, e.seq);
                e.o = (e.o + ooo as u32).min(cfg.o_max());
                e.n = (e.n + 1).min(cfg.n_max());
                e.seq = d.seq;
                (ooo, None)
            }
            _ => {
                let report = e.report(Reason::Evicted);
                *e = SideEntry { prefix: rt.prefix(d.addr), seq: d.seq, n: rt.count_first as u32, o: 0 };
                (false, report)
            }
        };
        self.stats.heavy_packets += 1;
        self.stats.heavy_out_of_order += ooo as u64;
        self.stats.heavy_reports += report.is_some() as u64;
        (HybridOutcome::Heavy { outcome: res.outcome, ooo }, report)
    }

    /// Swap both structures' banks and report the frozen ones (heavy side first, row by row).
    pub fn flush(&mut self) -> Vec<Report> {
        self.hh.swap_and_dump();
        let frozen = self.hh.active ^ 1;
        let mut v: Vec<Report> = Vec::new();
        for e in self.side[frozen].iter_mut().flatten() {
            v.extend(e.report(Reason::Flushed));
            *e = SideEntry::default();
        }
        self.stats.heavy_reports += v.len() as u64;
        v.extend(self.sampling.flush());
        v
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::heavy_hitters::Method;

    fn model(hh_addr_bits: usize) -> HybridModel {
        let cfg = ReorderConfig { addr_bits: 4, ts_shift: 0, ..ReorderConfig::default() };
        let hh = HhConfig { rows: 2, addr_bits: hh_addr_bits, key_bits: 104, count_bits: 16, record_fifo_bits: 4 };
        HybridModel::new(&cfg, ReorderRuntime::default(), &hh, HhRuntime { method: Method::Dway, ..Default::default() })
            .unwrap()
    }

    fn pkt(flow: u128, seq: u32, ts: u64) -> Descriptor {
        Descriptor { addr: 0x0A00_0001, flow, seq, ts, data: true }
    }

    #[test]
    fn heavy_flows_are_tracked_in_the_side_table_and_others_are_sampled() {
        let mut m = model(2);
        // Flow 1 enters the empty heavy-hitter table and stays: 1, 3, 2, 4 → one out of order.
        for (k, s) in [1u32, 3, 2, 4].into_iter().enumerate() {
            assert!(matches!(m.step(&pkt(1, s, k as u64)).0, HybridOutcome::Heavy { .. }));
        }
        assert_eq!((m.stats.heavy_packets, m.stats.heavy_out_of_order), (4, 1));
        // Fill the table with heavier flows so that a new light flow is rejected and sampled.
        for f in 2..40u128 {
            for s in 0..30u32 {
                m.step(&pkt(f, s, 10));
            }
        }
        let sampled = (1000..1100u128).filter(|&f| matches!(m.step(&pkt(f, 5, 20)).0, HybridOutcome::Sampled(_)));
        assert!(sampled.count() > 50);
        // Every data packet went to exactly one side.
        let s = m.sampling.stats;
        assert_eq!(m.stats.heavy_packets + s.data_packets, 4 + 38 * 30 + 100);
        let flushed = m.flush();
        assert!(flushed.iter().all(|r| r.reason == Reason::Flushed && r.n > 0));
        let total: u64 = flushed.iter().map(|r| r.n as u64).sum();
        assert!(total > 8 && total <= 4 + 38 * 30 + 100);
        assert!(m.side.iter().flatten().flatten().all(|e| e.n == 0));
    }

    #[test]
    fn an_admission_reports_the_evicted_flows_reordering() {
        let mut m = model(2);
        // Fill the 8 buckets with count-1 flows (any that collide just share fewer buckets); a newcomer's
        // admission (minimum m = 1, probability 1/2 per packet) must report a count-1 sample soon.
        for f in 0..8u128 {
            m.step(&pkt(f, 7, 0));
        }
        let mut evicted = None;
        for k in 0..200u128 {
            let (o, r) = m.step(&pkt(100 + k, 1, 1));
            if let HybridOutcome::Heavy { outcome: HhOutcome::Admit { .. }, .. } = o {
                evicted = r;
                break;
            }
        }
        let r = evicted.expect("an admission within 200 newcomers");
        assert_eq!((r.prefix, r.n, r.o, r.reason), (0x0A00_0000, 1, 0, Reason::Evicted));
    }

    #[test]
    fn rejects_a_heavy_hitter_table_not_keyed_by_flow() {
        let cfg = ReorderConfig::default();
        let hh = HhConfig { key_bits: 32, ..HhConfig::default() };
        assert!(HybridModel::new(&cfg, ReorderRuntime::default(), &hh, HhRuntime::default()).is_err());
    }
}
