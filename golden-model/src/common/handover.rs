//! The input hand-over every core with a one-register front (F1) shares: a descriptor enters F1 when the
//! core is ready, and moves from F1 into the bank pipeline when the pipeline is ready (after its reset
//! sweep). RTL: each core's `in_ready = !reset && (!f1_valid || rmw_ready)`, `accept = in_valid && in_ready`,
//! `transfer = f1_valid && rmw_ready`.

/// One cycle of the hand-over (see the [module docs](self)).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct F1Handover {
    /// `None` before the first reset (the RTL's value is unknown then).
    pub in_ready: Option<bool>,
    /// A descriptor enters F1 at the end of this cycle.
    pub accept: bool,
    /// F1's descriptor enters the bank pipeline in this cycle.
    pub transfer: bool,
}

impl F1Handover {
    /// `started`: a reset has been seen; `f1_full`: F1 holds a descriptor; `rmw_ready`: the pipeline's
    /// `in_ready` (`None` while unknown).
    pub fn new(reset: bool, started: bool, f1_full: bool, rmw_ready: Option<bool>, in_valid: bool) -> Self {
        let in_ready = match (reset, started) {
            (true, _) => Some(false),
            (false, false) => None,
            (false, true) => rmw_ready.map(|r| !f1_full || r),
        };
        F1Handover {
            in_ready,
            accept: in_ready == Some(true) && in_valid,
            transfer: !reset && started && f1_full && rmw_ready == Some(true),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ready_unless_f1_is_full_and_the_pipeline_is_not() {
        assert_eq!(F1Handover::new(true, true, false, Some(true), true).in_ready, Some(false));
        assert_eq!(F1Handover::new(false, false, false, Some(true), true).in_ready, None);
        let h = F1Handover::new(false, true, true, Some(false), true);
        assert_eq!((h.in_ready, h.accept, h.transfer), (Some(false), false, false));
        let h = F1Handover::new(false, true, true, Some(true), true);
        assert_eq!((h.in_ready, h.accept, h.transfer), (Some(true), true, true));
        let h = F1Handover::new(false, true, false, Some(false), true);
        assert_eq!((h.in_ready, h.accept, h.transfer), (Some(true), true, false));
    }
}
