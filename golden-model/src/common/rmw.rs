//! Read-modify-write pipeline with forwarding: the one hazard-handling pattern every table core uses.
//!
//! A packet accepted in cycle `t` (stage S0) reads its word; the core sees it at the modify stage SM
//! (cycle `t+M`) as `old`, decides `new` (and whether to write) combinationally, and the write register
//! takes it at the end of SM. Semantically every packet sees the table exactly as if all earlier packets had
//! finished: the RTL forwards the write registers of the packets 1..=M+1 cycles ahead to the same index,
//! and the RAM itself serves anything older. This model is that sequential semantics plus the timing.
//!
//! `M` depends on the RAM's timing ([`RamTiming`], a generation parameter): [`RamTiming::Short`] has
//! `M = 2` (RAM read, then a register after the block RAM) and forwards distances 1–3;
//! [`RamTiming::Registered`] has `M = 4` (its RAM's read latency; the RAM's last register is the modify
//! stage's input) and forwards distances 1–5. See [`modify_stage`].
//!
//! **Look-ahead stages** (a generation parameter `lookahead` = 0, 1 or 2 levels; single-port: 0 or 2, see
//! [`check_lookahead`]; [`RmwModel::with_lookahead`]): each level is one more stage before the modify stage, so `M` grows by
//! the number of levels (short: 2, 3, 4; registered: 4, 5, 6) and so does the forwarding window (1..=M+1).
//! What a packet sees at SM is unchanged — the word as if every earlier packet had finished, later. The
//! stages exist for the RTL: with one level, a core sees, one cycle before its decision (the look-ahead
//! stage SL = SM-1), the word as if every earlier packet *except the one directly ahead* had finished (that
//! one decides in the same cycle), and at SM whether the packet ahead's write replaced it. A core whose
//! decision is deep computes on the early word and corrects for one write at SM (`hdl::common::rmw`).
//! The second level changes nothing a core sees (SL's word is the same word): the RTL's forward mux moves
//! one more stage earlier and SL's word becomes a 2:1 choice between flip-flops, so a core's compares at SL
//! start one LUT level after the registers.
//!
//! - `ready` is false in a reset cycle, during the RAM's reset sweep (`depth` cycles), and — single-port
//!   only — in every other cycle (II = 2: reads in even phases, writes in odd ones).
//! - a reset drops every packet in flight; nothing is presented in a reset cycle.
//! - before the first reset, nothing is defined (`ready` is `None`).

use super::config::ConfigError;
use super::sram::{RamPorts, RamTiming};
use super::Word;

/// Pipeline depth `M` from acceptance to the modify stage for a RAM timing: 2 (short) or 4 (registered).
pub const fn modify_stage(timing: RamTiming) -> usize {
    match timing {
        RamTiming::Short => timing.read_latency() + 1,
        RamTiming::Registered { .. } => timing.read_latency(),
    }
}

/// How many cycles apart two packets must be for the later one to read the earlier one's write from the
/// RAM; every smaller distance (1..=`M+1`) is forwarded.
pub const fn forward_distances(timing: RamTiming) -> usize {
    modify_stage(timing) + 1
}

/// Most look-ahead levels a pipeline takes (see the [module docs](self)).
pub const MAX_LOOKAHEAD: usize = 2;

/// [`modify_stage`] of a pipeline with `lookahead` look-ahead levels (0 = none).
pub const fn modify_stage_la(timing: RamTiming, lookahead: usize) -> usize {
    modify_stage(timing) + lookahead
}

/// [`forward_distances`] of a pipeline with `lookahead` look-ahead levels.
pub const fn forward_distances_la(timing: RamTiming, lookahead: usize) -> usize {
    modify_stage_la(timing, lookahead) + 1
}

/// The one check of the look-ahead rules, for the model and the RTL: at most [`MAX_LOOKAHEAD`] levels, and
/// on a single-port RAM an even number (that pipeline alternates reads and writes, II = 2, so its modify
/// stage `M` must stay even: 0 or 2 levels; its packets are an even distance apart, so the level that
/// serves distance 1 is idle there and the second level's distance-2 choice does the work).
pub fn check_lookahead(ports: RamPorts, lookahead: usize) -> Result<(), ConfigError> {
    if lookahead > MAX_LOOKAHEAD {
        return Err(ConfigError(format!(
            "the RMW takes 0..={MAX_LOOKAHEAD} look-ahead levels, not {lookahead}"
        )));
    }
    if lookahead % 2 == 1 && ports == RamPorts::Single {
        return Err(ConfigError(format!(
            "a single-port RMW takes 0 or 2 look-ahead levels, not {lookahead} (II = 2 needs an even modify stage)"
        )));
    }
    Ok(())
}

/// One cycle's inputs; `P` is the payload that travels with the packet to the modify stage.
#[derive(Debug, Clone, Copy, Default)]
pub struct RmwInputs<P = u128> {
    pub reset: bool,
    pub in_valid: bool,
    pub in_index: usize,
    pub in_payload: P,
}

/// What the modify stage presents to the core in one cycle.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RmwStage<T = u128, P = u128> {
    pub index: usize,
    pub payload: P,
    pub old: T,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RmwOutputs<T = u128, P = u128> {
    pub ready: Option<bool>,
    pub stage: Option<RmwStage<T, P>>,
}

/// The pipeline over a table of `T` words (written words are truncated to `width` bits with
/// [`Word::masked`]); `P` is the payload type.
#[derive(Debug, Clone)]
pub struct RmwModel<T: Word = u128, P: Word = u128> {
    pub ports: RamPorts,
    pub timing: RamTiming,
    /// Look-ahead levels (0..=[`MAX_LOOKAHEAD`]).
    pub lookahead: usize,
    pub mem: Vec<T>,
    width: usize,
    /// Sweep cycles left; `None` before the first reset.
    busy_left: Option<usize>,
    /// Single-port phase (false = even = may accept).
    phase: bool,
    /// Packets in S1..=SM.
    pipe: Vec<Option<(usize, P)>>,
    /// The write of the packet that was at SM in the last step: its index and the word before it.
    last_write: Option<(usize, T)>,
}

impl<T: Word, P: Word> RmwModel<T, P> {
    pub fn new(ports: RamPorts, addr_bits: usize, width: usize) -> Self {
        Self::with_timing(ports, RamTiming::Short, addr_bits, width)
    }

    pub fn with_timing(ports: RamPorts, timing: RamTiming, addr_bits: usize, width: usize) -> Self {
        RmwModel {
            ports,
            timing,
            lookahead: 0,
            mem: vec![T::default(); 1 << addr_bits],
            width,
            busy_left: None,
            phase: false,
            pipe: vec![None; modify_stage(timing)],
            last_write: None,
        }
    }

    /// With `lookahead` look-ahead levels (see the [module docs](self)): the modify stage that many cycles
    /// later. A single-port pipeline takes 0 or 2 levels: it alternates reads and writes on an even `M`.
    pub fn with_lookahead(
        ports: RamPorts,
        timing: RamTiming,
        lookahead: usize,
        addr_bits: usize,
        width: usize,
    ) -> Result<Self, ConfigError> {
        check_lookahead(ports, lookahead)?;
        let mut m = Self::with_timing(ports, timing, addr_bits, width);
        m.pipe = vec![None; modify_stage_la(timing, lookahead)];
        m.lookahead = lookahead;
        Ok(m)
    }

    /// The modify stage `M` of this pipeline.
    pub fn modify_stage(&self) -> usize {
        self.pipe.len()
    }

    /// `in_ready` during this cycle (what [`RmwModel::step`] will report), for cores whose own input
    /// handshake depends on it.
    pub fn ready(&self, reset: bool) -> Option<bool> {
        if reset {
            return Some(false);
        }
        self.busy_left.map(|b| b == 0 && (self.ports == RamPorts::Dual || !self.phase))
    }

    /// The packet at the modify stage in this cycle and the word it meets (what [`RmwModel::step`] will
    /// present), without clocking.
    pub fn peek_stage(&self) -> Option<RmwStage<T, P>> {
        self.busy_left?;
        self.pipe[self.pipe.len() - 1].map(|(index, payload)| RmwStage { index, payload, old: self.mem[index] })
    }

    /// With look-ahead (one level or two): the packet at SL (one stage before SM) in this cycle and the
    /// word the RTL presents there (`pre_old`): as if every earlier packet had finished except the one
    /// directly ahead, which is at SM deciding in this cycle. `None` without look-ahead.
    pub fn peek_pre(&self) -> Option<RmwStage<T, P>> {
        self.busy_left?;
        if self.lookahead == 0 {
            return None;
        }
        self.pipe[self.pipe.len() - 2].map(|(index, payload)| RmwStage { index, payload, old: self.mem[index] })
    }

    /// [`RmwModel::peek_pre`]'s word in the two parts the RTL registers with two look-ahead levels
    /// (`pre_early`, `pre_near2`): whether the packet two ahead (at SM in the last step) wrote this index,
    /// and the word before that write; with one level, the word and `false`. `None` when `peek_pre` is.
    pub fn peek_pre_parts(&self) -> Option<(T, bool)> {
        let st = self.peek_pre()?;
        match self.last_write {
            Some((index, before)) if self.lookahead >= 2 && index == st.index => Some((before, true)),
            _ => Some((st.old, false)),
        }
    }

    /// One cycle. `modify(stage)` is the core's combinational decision: `Some(new)` writes `new`.
    pub fn step(&mut self, i: &RmwInputs<P>, modify: impl FnOnce(&RmwStage<T, P>) -> Option<T>) -> RmwOutputs<T, P> {
        if i.reset {
            self.busy_left = Some(self.mem.len());
            self.phase = false;
            self.pipe.iter_mut().for_each(|p| *p = None);
            self.mem.iter_mut().for_each(|w| *w = T::default());
            self.last_write = None;
            return RmwOutputs { ready: Some(false), stage: None };
        }
        let (Some(busy_left), Some(ready)) = (self.busy_left, self.ready(false)) else {
            return RmwOutputs { ready: None, stage: None };
        };
        let stage = self.peek_stage();
        self.last_write = None;
        if let Some(st) = &stage {
            if let Some(new) = modify(st) {
                self.last_write = Some((st.index, self.mem[st.index]));
                self.mem[st.index] = new.masked(self.width);
            }
        }
        self.pipe.rotate_right(1);
        self.pipe[0] = (i.in_valid && ready).then_some((i.in_index % self.mem.len(), i.in_payload));
        self.busy_left = Some(busy_left.saturating_sub(1));
        self.phase = !self.phase;
        RmwOutputs { ready: Some(ready), stage }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What a pipeline shows in each of 3000 cycles of xorshift traffic (reset in the first cycle, one
    /// idle cycle in `idle_one_in`, indices below `entries`, every packet adding 1): `ready` and the stage.
    fn run(m: &mut RmwModel<u128, u128>, mut x: u64, idle_one_in: u64, entries: usize) -> Vec<(Option<bool>, Option<RmwStage>)> {
        let add = |st: &RmwStage| Some(st.old + st.payload);
        (0..3000)
            .map(|c| {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                let i = RmwInputs {
                    reset: c == 0,
                    in_valid: x % idle_one_in != 0,
                    in_index: (x >> 8) as usize % entries,
                    in_payload: 1,
                };
                let o = m.step(&i, add);
                (o.ready, o.stage)
            })
            .collect()
    }

    /// `b` shows `a`'s stages `lag` cycles later, with the same `ready` in every cycle.
    fn same_stages_later(a: &[(Option<bool>, Option<RmwStage>)], b: &[(Option<bool>, Option<RmwStage>)], lag: usize) {
        assert!(a.iter().zip(b).all(|(x, y)| x.0 == y.0), "ready differs");
        let (sa, sb): (Vec<_>, Vec<_>) = (a.iter().map(|x| x.1).collect(), b.iter().map(|x| x.1).collect());
        assert_eq!(&sa[..sa.len() - lag], &sb[lag..]);
        // Most cycles carry a packet (II = 2: most even ones).
        assert!(sa.iter().filter(|s| s.is_some()).count() > a.len() / 3);
    }

    /// The registered pipeline presents exactly the short pipeline's modify stages, two cycles later: the
    /// depth changes the timing, never what a packet sees.
    #[test]
    fn registered_is_short_two_cycles_later() {
        let timing = RamTiming::registered(4, 16);
        assert_eq!((modify_stage(RamTiming::Short), forward_distances(RamTiming::Short)), (2, 3));
        assert_eq!((modify_stage(timing), forward_distances(timing)), (4, 5));
        let short = run(&mut RmwModel::new(RamPorts::Dual, 4, 16), 0x9e37_79b9_7f4a_7c15, 10, 4);
        let reg = run(&mut RmwModel::with_timing(RamPorts::Dual, timing, 4, 16), 0x9e37_79b9_7f4a_7c15, 10, 4);
        same_stages_later(&short, &reg, 2);
    }

    /// Each look-ahead level delays the modify stage by one cycle and changes nothing else (also two levels
    /// on a single-port pipeline); single-port pipelines refuse one level, and no pipeline takes more than
    /// two.
    #[test]
    fn each_lookahead_level_is_one_cycle_later() {
        for timing in [RamTiming::Short, RamTiming::registered(4, 16)] {
            for levels in 1..=MAX_LOOKAHEAD {
                assert_eq!(modify_stage_la(timing, levels), modify_stage(timing) + levels);
                assert_eq!(forward_distances_la(timing, levels), forward_distances(timing) + levels);
                let mut plain = RmwModel::with_timing(RamPorts::Dual, timing, 3, 16);
                let mut la = RmwModel::with_lookahead(RamPorts::Dual, timing, levels, 3, 16).unwrap();
                assert_eq!(la.modify_stage(), plain.modify_stage() + levels);
                let seed = 0x2545_f491_4f6c_dd1d;
                same_stages_later(&run(&mut plain, seed, 8, 3), &run(&mut la, seed, 8, 3), levels);
            }
            let mut plain = RmwModel::with_timing(RamPorts::Single, timing, 3, 16);
            let mut la = RmwModel::with_lookahead(RamPorts::Single, timing, 2, 3, 16).unwrap();
            let seed = 0x9e37_79b9_7f4a_7c15;
            same_stages_later(&run(&mut plain, seed, 8, 3), &run(&mut la, seed, 8, 3), 2);
        }
        assert!(RmwModel::<u128, u128>::with_lookahead(RamPorts::Single, RamTiming::Short, 1, 3, 16).is_err());
        assert!(RmwModel::<u128, u128>::with_lookahead(RamPorts::Single, RamTiming::Short, 0, 3, 16).is_ok());
        assert!(RmwModel::<u128, u128>::with_lookahead(RamPorts::Single, RamTiming::Short, 2, 3, 16).is_ok());
        let e = RmwModel::<u128, u128>::with_lookahead(RamPorts::Dual, RamTiming::Short, 3, 3, 16).unwrap_err();
        assert!(e.0.contains("0..=2 look-ahead levels"), "{}", e.0);
    }
}
