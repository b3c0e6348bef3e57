//! MAPLE's query engine (§4 "Query engine", §5.4): per-packet lookups over stored epochs, with the
//! paper's query timing, for software on flushed vectors.
//!
//! Each stored epoch is the core's [`FlushRecord`] (SVBF words, centers, per-center counts and sums)
//! opened with [`FlushRecord::open`]: a lookup in one epoch is [`golden::maple::resolve`] on the store's
//! candidate bitmap, i.e. the hardware lookup port's answer by construction.
//!
//! ## Query timing ([`Timing`], [`combine`])
//! A client names a rough time (an epoch) and the engine also looks in `before` previous and `after` next
//! epochs (§4: fringe effects at epoch boundaries; Fig. 8(c): `b` bogus previous epochs). The answers
//! combine as the union of every epoch's candidates, each a pair (epoch, center):
//! - **union** (the default, [`Combine::Union`]; §5.4: "multiple matches are resolved using the same
//!   tie-breaking heuristic"): no pair → No-Match; one pair → Match (that epoch's center and refined
//!   latency); several → Multi-Match answered by the pair whose center has the **most packets in its own
//!   epoch** (the per-epoch tie-break over all epochs), ties to the epoch nearest the stated one (earlier
//!   before later at equal distance), then the lowest center index. With the `none` tie-break a
//!   Multi-Match answers nothing. Over one epoch this is exactly the port's answer.
//! - **first-match** ([`Combine::FirstMatch`]): the epochs in order of distance to the stated one (the
//!   stated first, then earlier before later); the first whose candidates are a single center answers with
//!   it (Match); if none does, the union rule over all. It trusts the stated time: a false single
//!   candidate in a bogus epoch cannot override the true epoch's Match — but a true epoch's Multi-Match
//!   loses to any other epoch's single false candidate.

use golden::maple::{Centers, EpochState, FlushRecord, Lookup, MapleConfig, MatchKind, Svbf, TieBreak};
use serde::Serialize;
use std::collections::BTreeMap;

/// How answers from several epochs combine (module docs).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum Combine {
    Union,
    FirstMatch,
}

impl Combine {
    pub fn name(self) -> &'static str {
        match self {
            Combine::Union => "union",
            Combine::FirstMatch => "first-match",
        }
    }
    pub fn by_name(s: &str) -> Option<Combine> {
        [Combine::Union, Combine::FirstMatch].into_iter().find(|c| c.name() == s)
    }
}

/// The epochs a query looks in: `epoch − before ..= epoch + after` (those stored).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Timing {
    pub epoch: usize,
    pub before: usize,
    pub after: usize,
}

impl Timing {
    /// The stated epoch alone.
    pub fn exact(epoch: usize) -> Timing {
        Timing { epoch, before: 0, after: 0 }
    }
}

/// One epoch's candidate centers of a key, with what the tie-break and the refined estimate need.
#[derive(Debug, Clone, Copy)]
pub struct EpochCandidates<'a> {
    pub epoch: usize,
    pub bits: u64,
    pub centers: &'a Centers,
    pub count: &'a [u64],
    pub sum: &'a [u64],
}

/// The answer to a query.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Answer {
    /// `match`, `multi-match` or `no-match` in JSON.
    #[serde(serialize_with = "kind_name")]
    pub kind: MatchKind,
    /// The epoch of the answered center.
    pub epoch: Option<usize>,
    pub center: Option<usize>,
    /// The center's latency (ns).
    pub latency: Option<u32>,
    /// The refined latency: the mean latency of that epoch's packets at that center (ns, floor).
    pub refined: Option<u32>,
    /// Candidate pairs over all epochs looked in.
    pub candidates: u32,
}

fn kind_name<S: serde::Serializer>(k: &MatchKind, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(k.name())
}

impl Answer {
    /// The answer of a one-epoch lookup.
    pub fn of(epoch: usize, l: &Lookup) -> Answer {
        Answer {
            kind: l.kind,
            epoch: l.center.map(|_| epoch),
            center: l.center,
            latency: l.latency,
            refined: l.refined,
            candidates: l.candidates.count_ones(),
        }
    }
}

/// Combines the candidates of the epochs looked in (any order) for a query stated at `stated`.
pub fn combine(stated: usize, per_epoch: &[EpochCandidates], tie: TieBreak, rule: Combine) -> Answer {
    // Preference order of epochs: nearest to the stated one, earlier before later.
    let rank = |e: usize| (e.abs_diff(stated), e > stated);
    let mut order: Vec<&EpochCandidates> = per_epoch.iter().collect();
    order.sort_by_key(|c| rank(c.epoch));
    let mask = |c: &EpochCandidates| if c.centers.k() >= 64 { c.bits } else { c.bits & ((1u64 << c.centers.k()) - 1) };
    let answer = |kind, c: Option<(&EpochCandidates, usize)>, n: u32| Answer {
        kind,
        epoch: c.map(|(e, _)| e.epoch),
        center: c.map(|(_, i)| i),
        latency: c.map(|(e, i)| e.centers.get(i)),
        refined: c.map(|(e, i)| e.sum[i].checked_div(e.count[i]).map_or(e.centers.get(i), |v| v as u32)),
        candidates: n,
    };
    let total: u32 = order.iter().map(|c| mask(c).count_ones()).sum();
    if rule == Combine::FirstMatch {
        if let Some(c) = order.iter().find(|c| mask(c).count_ones() == 1) {
            return answer(MatchKind::Match, Some((c, mask(c).trailing_zeros() as usize)), total);
        }
    }
    let mut pairs =
        order.iter().flat_map(|c| (0..c.centers.k()).filter(move |&i| mask(c) >> i & 1 == 1).map(move |i| (*c, i)));
    match total {
        0 => answer(MatchKind::NoMatch, None, 0),
        1 => answer(MatchKind::Match, pairs.next(), 1),
        _ if tie == TieBreak::None => answer(MatchKind::MultiMatch, None, total),
        // The first maximum in preference order (epochs by rank, centers by index) wins.
        _ => {
            let best = pairs.fold(None, |b: Option<(&EpochCandidates, usize)>, (c, i)| match b {
                Some((bc, bi)) if bc.count[bi] >= c.count[i] => Some((bc, bi)),
                _ => Some((c, i)),
            });
            answer(MatchKind::MultiMatch, best, total)
        }
    }
}

/// Stored epochs of one run (one seed), opened for lookups.
#[derive(Debug, Clone)]
pub struct QueryEngine {
    pub cfg: MapleConfig,
    pub tie: TieBreak,
    epochs: BTreeMap<usize, EpochState<Svbf>>,
}

impl QueryEngine {
    pub fn new(cfg: MapleConfig, tie: TieBreak) -> QueryEngine {
        QueryEngine { cfg, tie, epochs: BTreeMap::new() }
    }

    /// Adds epoch `epoch`'s flushed record.
    pub fn add(&mut self, epoch: usize, record: &FlushRecord) -> Result<(), String> {
        let state = record.open(&self.cfg).map_err(|e| format!("epoch {epoch}: {e}"))?;
        self.epochs.insert(epoch, state);
        Ok(())
    }

    /// The stored epochs, ascending.
    pub fn epochs(&self) -> impl Iterator<Item = usize> + '_ {
        self.epochs.keys().copied()
    }

    pub fn state(&self, epoch: usize) -> Option<&EpochState<Svbf>> {
        self.epochs.get(&epoch)
    }

    /// A key's candidates in one stored epoch.
    pub fn candidates(&self, epoch: usize, key: u128) -> Option<EpochCandidates<'_>> {
        let e = self.epochs.get(&epoch)?;
        let bits = golden::maple::Store::candidates(&e.store, key, e.centers.k());
        Some(EpochCandidates { epoch, bits, centers: &e.centers, count: &e.count, sum: &e.sum })
    }

    /// The lookup port's answer for `key` in `epoch` (`None`: not stored).
    pub fn lookup(&self, epoch: usize, key: u128) -> Option<Lookup> {
        let e = self.epochs.get(&epoch)?;
        Some(e.lookup(key, self.tie))
    }

    /// A query with timing slack: every stored epoch of `t`'s window, combined by `rule` (`None`: the
    /// window holds no stored epoch).
    pub fn query(&self, key: u128, t: Timing, rule: Combine) -> Option<Answer> {
        let lo = t.epoch.saturating_sub(t.before);
        let c: Vec<EpochCandidates> = (lo..=t.epoch + t.after).filter_map(|e| self.candidates(e, key)).collect();
        (!c.is_empty()).then(|| combine(t.epoch, &c, self.tie, rule))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use golden::maple::resolve;

    struct E {
        centers: Centers,
        count: Vec<u64>,
        sum: Vec<u64>,
    }

    fn epoch(centers: &[u32], count: &[u64], sum: &[u64]) -> E {
        E { centers: Centers::new(centers.to_vec()).unwrap(), count: count.to_vec(), sum: sum.to_vec() }
    }

    fn cand(e: &E, epoch: usize, bits: u64) -> EpochCandidates<'_> {
        EpochCandidates { epoch, bits, centers: &e.centers, count: &e.count, sum: &e.sum }
    }

    #[test]
    fn one_epoch_is_the_lookup_port() {
        let e = epoch(&[100, 200, 300, 400], &[3, 7, 7, 0], &[330, 1470, 2100, 0]);
        for bits in 0..16u64 {
            for tie in [TieBreak::Count, TieBreak::None] {
                let l = resolve(bits, &e.centers, &e.count, &e.sum, tie);
                for rule in [Combine::Union, Combine::FirstMatch] {
                    assert_eq!(combine(5, &[cand(&e, 5, bits)], tie, rule), Answer::of(5, &l), "{bits:b} {tie:?}");
                }
            }
        }
    }

    #[test]
    fn timing_slack_unions_candidates_and_breaks_ties_by_count_then_distance() {
        // True epoch 4: the packet's center 0 (count 2, mean 110). Bogus epoch 3: a false candidate at its
        // center 1, which holds 9 packets (mean 240). Bogus epoch 2: a false candidate at center 0 with 9.
        let t = epoch(&[100, 200], &[2, 5], &[220, 1000]);
        let b3 = epoch(&[150, 250], &[1, 9], &[150, 2160]);
        let b2 = epoch(&[120, 260], &[9, 1], &[1170, 260]);
        let u = |c: &[EpochCandidates]| combine(4, c, TieBreak::Count, Combine::Union);
        let f = |c: &[EpochCandidates]| combine(4, c, TieBreak::Count, Combine::FirstMatch);
        // b = 0: Match in the true epoch.
        let a = u(&[cand(&t, 4, 0b01)]);
        assert_eq!((a.kind, a.epoch, a.center, a.refined), (MatchKind::Match, Some(4), Some(0), Some(110)));
        // b = 1: union → Multi-Match, the bogus epoch's center wins on count (9 > 2): 240 ns, wrong.
        let a = u(&[cand(&b3, 3, 0b10), cand(&t, 4, 0b01)]);
        assert_eq!(
            (a.kind, a.epoch, a.center, a.refined, a.candidates),
            (MatchKind::MultiMatch, Some(3), Some(1), Some(240), 2)
        );
        // First-match keeps the stated epoch's single candidate.
        let a = f(&[cand(&b3, 3, 0b10), cand(&t, 4, 0b01)]);
        assert_eq!((a.kind, a.epoch, a.refined), (MatchKind::Match, Some(4), Some(110)));
        // b = 2: two bogus candidates with count 9 tie: the epoch nearer the stated one (3) wins, in any
        // order of the input.
        let a = u(&[cand(&b2, 2, 0b01), cand(&t, 4, 0b01), cand(&b3, 3, 0b10)]);
        assert_eq!((a.epoch, a.center, a.candidates), (Some(3), Some(1), 3));
        // Equal distance: the earlier epoch (3 before 5) wins a tie.
        let a = u(&[cand(&b3, 5, 0b10), cand(&b3, 3, 0b10)]);
        assert_eq!((a.kind, a.epoch), (MatchKind::MultiMatch, Some(3)));
        // A Multi-Match in the true epoch and a single false candidate next door: first-match trusts the
        // single one; union picks the most packets (the true epoch's center 1, count 5 > 1).
        let c = [cand(&t, 4, 0b11), cand(&b3, 5, 0b01)];
        assert_eq!((f(&c).kind, f(&c).epoch, f(&c).center), (MatchKind::Match, Some(5), Some(0)));
        assert_eq!((u(&c).kind, u(&c).epoch, u(&c).center), (MatchKind::MultiMatch, Some(4), Some(1)));
        // Nothing anywhere: No-Match; with the `none` tie-break a union Multi-Match answers nothing.
        assert_eq!(u(&[cand(&t, 4, 0), cand(&b3, 3, 0)]).kind, MatchKind::NoMatch);
        let a = combine(4, &[cand(&b3, 3, 0b10), cand(&t, 4, 0b01)], TieBreak::None, Combine::Union);
        assert_eq!((a.kind, a.center, a.refined), (MatchKind::MultiMatch, None, None));
        // Bits above k are not candidates.
        assert_eq!(u(&[cand(&t, 4, 0b101)]).kind, MatchKind::Match);
    }

    #[test]
    fn the_engine_answers_as_the_core_and_finds_a_packet_in_its_epoch_only() {
        use golden::maple::{Descriptor, MapleModel, MapleRuntime};
        let cfg = MapleConfig { hashes: 6, svbf_bits: 1 << 14, ..MapleConfig::default() };
        let centers = Centers::new(vec![1_000, 5_000, 20_000, 80_000]).unwrap();
        let mut m = MapleModel::new(&cfg, MapleRuntime::default(), centers).unwrap();
        let mut q = QueryEngine::new(cfg.clone(), TieBreak::Count);
        let key = |e: u128, i: u128| (e << 64) | (i * 0x9e37_79b9);
        for e in 0..3u128 {
            for i in 0..300u128 {
                m.step(&Descriptor { key: key(e, i), latency: (i as u32 * 997) % 90_000 });
            }
            m.epoch();
            q.add(e as usize, &m.flush().unwrap()).unwrap();
            for i in 0..300 {
                let port = m.lookup(key(e, i)).unwrap().0;
                assert_eq!(q.lookup(e as usize, key(e, i)), Some(port));
                let a = q.query(key(e, i), Timing::exact(e as usize), Combine::Union).unwrap();
                assert_eq!(a, Answer::of(e as usize, &port));
            }
        }
        // Epoch 1's packets queried with slack around epoch 1 (first-match): a packet that Matches in epoch
        // 1 alone is answered from there, whatever the neighbours hold.
        let mut own = 0;
        for i in 0..300 {
            let l = q.lookup(1, key(1, i)).unwrap();
            let a = q.query(key(1, i), Timing { epoch: 1, before: 1, after: 1 }, Combine::FirstMatch).unwrap();
            assert!(a.candidates >= l.candidates.count_ones());
            if l.kind == MatchKind::Match {
                own += 1;
                assert_eq!(Answer { candidates: l.candidates.count_ones(), ..a }, Answer::of(1, &l));
            }
        }
        assert!(own > 250, "{own}");
        assert_eq!(q.query(key(1, 0), Timing::exact(7), Combine::Union), None);
        assert_eq!(q.epochs().collect::<Vec<_>>(), [0, 1, 2]);
    }
}
