//! The hybrid scheme (defense slides "Hybrid Scheme"): a counter-based heavy-hitter table keeps track of the
//! large flows over long periods, with their size and reordering; flow sampling admits only flows the
//! heavy-hitter table does not monitor; both report to the same tally.
//!
//! - **Heavy-hitter side**: the heavy-hitter core's transaction model ([`HhModel`], d-way RAP or
//!   PRECISION, keyed by the 104-bit flow key) decides per data packet. Its bucket holds `{key, count}`
//!   only, and `count` is RAP's estimate (an admitted key inherits the evicted minimum's count), so the
//!   reordering state sits in a **side table**: one flow-sampling bucket per heavy-hitter bucket, at
//!   [`side_index`]`(row, index)` (same rows, same indices, same two banks). It is the flow-sampling core
//!   itself ([`SamplingModel`] in [`IndexBy::Port`] mode, [`side_config`]): the index comes with the
//!   packet and so does the decision ([`Force`]), by the heavy-hitter outcome
//!   ([`crate::heavy_hitters::Outcome`]):
//!   - `Hit { row }` → [`Force::Resident`]: the bucket is the flow's: `o += [s < s']`, `n += 1`, `s' ← s`.
//!   - `Insert { row }` / `Admit { row }` → [`Force::Replace`]: the flow now holds that bucket: the
//!     evicted flow's sample is reported (`{prefix, n, o, Evicted}`, if `n > 0`) and the bucket starts over
//!     as `{g, s, n = [count_first], o = 0}` — `n` counts packets seen since admission, not RAP's estimate.
//!   - `Reject`: the flow is not monitored: the packet goes to flow sampling ([`SamplingModel`]).
//!   So every data packet is counted by exactly one structure. A flow that is sampled and later admitted
//!   into the heavy-hitter table leaves its sample behind; the sample goes stale and is reported when
//!   overwritten or flushed (its packets up to the admission, no double count). In hardware the side table
//!   is a second flow-sampling core fed by the heavy-hitter core's result port (`hdl::reordering::hybrid`).
//! - **Flush**: all three structures swap banks together and report their frozen bank (the side table's
//!   samples with `n > 0` as [`Reason::Flushed`]); the heavy-hitter records themselves carry no reordering
//!   and are not reported. One measurement period for the whole core: for "long periods", flush rarely.
//! - Non-data descriptors are ignored by both (they do not reach the heavy-hitter table either: its counts
//!   are data packets); flow sampling counts them (its `packets`).

use super::sampling::{Force, Outcome as SampleOutcome, SamplingModel};
use super::{Descriptor, IndexBy, ReorderConfig, ReorderRuntime, Report, FLOW_KEY_BITS};
use crate::common::config::ConfigError;
use crate::common::hash::XorHash;
use crate::heavy_hitters::{HhConfig, HhModel, HhRuntime, Outcome as HhOutcome};

/// The side table's shape: flow sampling's widths, one bucket per heavy-hitter bucket (`hh.rows` rows of
/// `2^hh.addr_bits`, rows rounded up to a power of two).
pub fn side_config(cfg: &ReorderConfig, hh: &HhConfig) -> ReorderConfig {
    let row_bits = hh.rows.next_power_of_two().trailing_zeros() as usize;
    ReorderConfig { addr_bits: hh.addr_bits + row_bits, ..cfg.clone() }
}

/// The side table's settings: flow sampling's, with the index and the decision from the ports.
pub fn side_runtime(rt: &ReorderRuntime) -> ReorderRuntime {
    ReorderRuntime { index: IndexBy::Port, ..*rt }
}

/// The side-table bucket of heavy-hitter bucket `index` of `row`.
pub fn side_index(hh: &HhConfig, row: usize, index: usize) -> usize {
    row << hh.addr_bits | index
}

/// The side table's force for a heavy-hitter outcome (None: rejected, the packet is flow sampling's).
pub fn side_force(o: HhOutcome) -> Option<(usize, Force)> {
    match o {
        HhOutcome::Reject => None,
        HhOutcome::Hit { row } => Some((row, Force::Resident)),
        HhOutcome::Insert { row } | HhOutcome::Admit { row } => Some((row, Force::Replace)),
    }
}

/// Which structure took a data packet.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum HybridOutcome {
    /// Not a data segment: ignored by both.
    NotData,
    /// The heavy-hitter table monitors the flow (hit, insert or admission); the side table's outcome.
    Heavy { outcome: HhOutcome, side: SampleOutcome },
    /// Not monitored: flow sampling's outcome.
    Sampled(SampleOutcome),
}

/// The hybrid core: heavy-hitter table + side table, and flow sampling behind it.
#[derive(Debug, Clone)]
pub struct HybridModel {
    pub hh: HhModel,
    /// The side table (its `stats` are the heavy-hitter side's counters).
    pub side: SamplingModel,
    pub sampling: SamplingModel,
    hh_hash: XorHash,
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
        Ok(HybridModel {
            hh: HhModel::new(hh, hh_rt)?,
            side: SamplingModel::new(&side_config(cfg, hh), side_runtime(&rt))?,
            sampling: SamplingModel::new(cfg, rt)?,
            hh_hash: hh.hash()?,
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
        match side_force(res.outcome) {
            None => {
                let (o, r) = self.sampling.step(d);
                (HybridOutcome::Sampled(o), r)
            }
            Some((row, force)) => {
                let index = self.hh.cfg.index(self.hh_hash.eval(d.flow), row);
                let (o, r) = self.side.step_at(d, side_index(&self.hh.cfg, row, index), force);
                (HybridOutcome::Heavy { outcome: res.outcome, side: o }, r)
            }
        }
    }

    /// Swap all banks and report the frozen ones (side table first, in bucket order, then flow sampling).
    pub fn flush(&mut self) -> Vec<Report> {
        self.hh.swap_and_dump();
        let mut v = self.side.flush();
        v.extend(self.sampling.flush());
        v
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::heavy_hitters::Method;
    use crate::reordering::Reason;

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
        assert_eq!((m.side.stats.data_packets, m.side.stats.out_of_order), (4, 1));
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
        assert_eq!(m.side.stats.data_packets + s.data_packets, 4 + 38 * 30 + 100);
        let flushed = m.flush();
        assert!(flushed.iter().all(|r| r.reason == Reason::Flushed && r.n > 0));
        let total: u64 = flushed.iter().map(|r| r.n as u64).sum();
        assert!(total > 8 && total <= 4 + 38 * 30 + 100);
        assert!(m.side.banks.iter().flatten().all(|b| !b.valid));
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
