//! A core's latency as its cycle model defines it: the clock cycles from an input handshake to the output it
//! causes, measured by stepping the golden cycle model (which the RTL matches cycle by cycle), not written
//! down by hand. Each core's `cycle` module has a `latency(cfg)` that drives its model through
//! [`measure`]; the IP manifest (`netmeas generate`) lists the result.

use serde::Serialize;

/// One latency path of a core: `cycles` after the cycle in which stream `from` is accepted (its valid and
/// ready both high), stream `to` shows the result (its valid high), with every output ready and no other
/// traffic. Streams by their native names (`in`, `res`, `rep`, `lk`, `ans`); the AXI flavour's are
/// `s_axis_<from>` and `m_axis_<to>` with the same timing (the wrapper is wiring).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Latency {
    pub from: &'static str,
    pub to: &'static str,
    /// `None`: the model did not answer within [`LIMIT`] cycles (the manifest says so rather than leaving the
    /// path out).
    pub cycles: Option<u64>,
    /// What the measurement assumed (e.g. the registers at their reset values).
    pub note: &'static str,
}

/// Cycles [`measure`] waits for the model to take an input or to answer: beyond the reset sweep of the
/// largest table a configuration may ask for (reordering's 2^20 buckets) and any pipeline.
pub const LIMIT: u64 = 1 << 22;

/// Steps a cycle model (`step`): `reset` for one cycle, then twice: each of `offers` in turn, each held
/// until `ready` says the model took it (in that cycle: the cycle models' `in_ready` is the same cycle's
/// handshake), then `idle` until `out`. Returns the second round's cycles from the last offer's acceptance
/// to the first cycle `out` holds (1 = the next cycle) — the first round waits out any reset sweep of the
/// tables (a packet taken during the sweep waits in the first stage) — or `None` if the model did not take
/// an offer or answer within [`LIMIT`] cycles each.
pub fn measure<I, O>(
    mut step: impl FnMut(&I) -> O,
    reset: &I,
    idle: &I,
    offers: &[I],
    ready: impl Fn(&O) -> bool,
    out: impl Fn(&O) -> bool,
) -> Option<u64> {
    step(reset);
    let mut round = || {
        for offer in offers {
            (0..LIMIT).find(|_| ready(&step(offer)))?;
        }
        (1..=LIMIT).find(|_| out(&step(idle)))
    };
    round()?;
    round()
}

/// The path `from` → `to` as [`measure`] found it.
pub fn path(from: &'static str, to: &'static str, note: &'static str, cycles: Option<u64>) -> Latency {
    Latency { from, to, cycles, note }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A toy model that is not ready during a reset sweep (cycles 1..20) and answers 3 cycles after taking
    /// an input: the count starts at the acceptance, not at the offer.
    #[test]
    fn measure_waits_for_ready_during_a_sweep() {
        let (mut t, mut taken) = (0u64, None);
        let step = |i: &bool| {
            t += 1;
            let ready = t >= 20 && taken.is_none();
            if *i && ready {
                taken = Some(t);
            }
            let out = taken.is_some_and(|a| t == a + 3);
            if out {
                taken = None;
            }
            (ready, out)
        };
        assert_eq!(measure(step, &false, &false, &[true], |o| o.0, |o| o.1), Some(3));
    }

    /// A toy model: ready from cycle 3 after reset, answers 4 cycles after taking an input — the first
    /// input, taken during a "sweep" up to cycle 20, not before cycle 24.
    #[test]
    fn measure_counts_from_the_acceptance_cycle() {
        let (mut t, mut taken) = (0u64, None);
        let step = |i: &bool| {
            t += 1;
            let ready = t >= 3 && taken.is_none();
            if *i && ready {
                taken = Some(t);
            }
            let out = taken.is_some_and(|a| t == (a + 4).max(24));
            if out {
                taken = None;
            }
            (ready, out)
        };
        assert_eq!(measure(step, &false, &false, &[true], |o| o.0, |o| o.1), Some(4));
        // A model that never answers: None, not a hang.
        assert_eq!(measure(|_: &bool| (true, false), &false, &false, &[true], |o| o.0, |o| o.1), None);
        assert_eq!(path("in", "res", "", None).cycles, None);
    }
}
