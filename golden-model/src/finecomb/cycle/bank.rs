//! The bank accumulator: per bank and bucket set the TS|C and ISD read-modify-write pipelines (RTL
//! `hdl::finecomb::bank`).

use super::super::{StashEntry, DIGEST_BITS, MAX_BANKS};
use super::{FinecombCoreConfig, Record, TSC_WORD_BITS};
use crate::common::rmw::{RmwInputs, RmwModel, RmwStage};
use crate::common::sram::RamPorts;

/// RMW payload of a walk op: write 0 and capture the old word (packet payloads — a 48-bit timestamp, a
/// 64-bit digest — never set bit 127).
const CLEAR: u128 = 1 << 127;

/// One bank's bucket tables: per bucket set, the TS|C pipeline and (not in LDA mode) the ISD pipeline.
#[derive(Debug, Clone)]
pub struct BankTables {
    pub tsc: [RmwModel; 2],
    pub isd: Option<[RmwModel; 2]>,
}

/// A clear op's old word at a modify stage: bank, index, word.
pub(super) type Cleared = Option<(usize, usize, u128)>;

impl BankTables {
    /// A bank of `core`: both bucket sets' TS|C pipelines and, unless LDA, ISD pipelines.
    pub fn new(core: &FinecombCoreConfig) -> BankTables {
        let sets = |width| {
            let set = RmwModel::new(RamPorts::Dual, core.bucket_addr_bits, width);
            [set.clone(), set]
        };
        BankTables { tsc: sets(TSC_WORD_BITS), isd: core.shape.isd.then(|| sets(DIGEST_BITS)) }
    }

    /// AND of the bank's pipelines' `in_ready` in this cycle.
    pub fn ready(&self, reset: bool) -> Option<bool> {
        let all = self.tsc.iter().chain(self.isd.iter().flatten());
        all.fold(Some(true), |acc, rmw| acc.zip(rmw.ready(reset)).map(|(a, b)| a && b))
    }
}

/// One cycle of every bank: a packet at D2 (`(entry, sampled_b, index_b)`, only while counting) into set
/// `active`, a walk op into set `walk_set` of its bank. Returns the old TS|C and ISD words a clear op has
/// at the modify stage in this cycle.
pub(super) fn step_all(
    tables: &mut [BankTables],
    reset: bool,
    (active, packet): (usize, Option<(StashEntry, [bool; MAX_BANKS], [usize; MAX_BANKS])>),
    (walk_set, walk): (usize, Option<Record>),
) -> [Cleared; 2] {
    let mut cleared: [Cleared; 2] = [None, None];
    for (b, tables) in tables.iter_mut().enumerate() {
        for set in 0..2 {
            let to_packet = packet.filter(|p| set == active && p.1[b]);
            let to_walk = walk.filter(|r| r.bank == b && set == walk_set);
            assert!(to_packet.is_none() || to_walk.is_none(), "a walk op competes with a packet: bank {b}");
            let (valid, index, ts, digest) = match (to_packet, to_walk) {
                (Some((entry, _, index)), _) => (true, index[b], entry.ts as u128, entry.digest as u128),
                (None, Some(r)) => (true, r.index, CLEAR, CLEAR),
                (None, None) => (false, 0, 0, 0),
            };
            let input = |in_payload| RmwInputs { reset, in_valid: valid, in_index: index, in_payload };
            let [tsc_old, isd_old] = &mut cleared;
            tables.tsc[set].step(&input(ts), |st| modify(st, b, tsc_old, add_timestamp));
            if let Some(isd) = tables.isd.as_mut() {
                isd[set].step(&input(digest), |st| modify(st, b, isd_old, |old, d| old ^ d));
            }
        }
    }
    cleared
}

/// The modify stage of a bucket pipeline of bank `b`: a walk op clears the word and hands the old one to
/// `cleared` (with its bank and index); a packet's payload is folded in with `update(old, payload)`.
fn modify(
    st: &RmwStage,
    b: usize,
    cleared: &mut Cleared,
    update: impl Fn(u128, u128) -> u128,
) -> Option<u128> {
    if st.payload == CLEAR {
        *cleared = Some((b, st.index, st.old));
        Some(0)
    } else {
        Some(update(st.old, st.payload))
    }
}

/// A TS|C word plus one packet: TS += ts (wrapping at 64 bits), C += 1 (wrapping at 32 bits).
fn add_timestamp(word: u128, ts: u128) -> u128 {
    let sum = (word as u64).wrapping_add(ts as u64);
    let count = ((word >> 64) as u32).wrapping_add(1);
    sum as u128 | (count as u128) << 64
}
