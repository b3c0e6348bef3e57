//! Traffic of the FineComb paper's evaluation (§V-A): one measured interval u between a sender and a
//! receiver, with Weibull delays, random loss and the deterministic reordering model.
//!
//! - **Packets**: T per interval (default 5 M, one 1 s interval at 10 Gb/s with 250-byte packets), sent
//!   0.2 µs apart; packet `i` leaves at `t_i = t_0 + i · 200 ns`. Keys are random 128-bit values.
//! - **Delays**: Weibull with shape k = 0.6 and scale λ = mean / Γ(1 + 1/k), so the mean is 10 µs; the
//!   receiver stamps packet i at `t_i + d_i` (its own timeline: the receiver's timestamps carry the delays).
//! - **Loss**: every packet is dropped independently with probability β.
//! - **Reordering** (§V-A "Reordering model"): a 4-tuple ⟨R_pre^s, R_post^s, R_pre^e, R_post^e⟩ of
//!   pre-start, post-start, pre-end and post-end packets of the measured interval u (§III-A):
//!   pre-start = the first R_pre^s packets of u arrive *before* u's interval-start (sync) message;
//!   post-start = the last R_post^s packets of u−1 arrive *after* it; pre-end = the first R_pre^e packets of
//!   u+1 arrive before u's interval-end message; post-end = the last R_post^e packets of u arrive after it.
//!   "We choose a contiguous set of packets from the end of one interval that will drift into the next and
//!   vice-versa": the drifting packets keep their order and arrive right next to the marker they cross.
//!   Forward is ⟨0, x, 0, 0⟩, backward ⟨x, 0, 0, 0⟩; the theory's R = 4·max(tuple) (§V-A), so
//!   x = round(ρT/4).
//!
//! The sync messages travel in both streams as marker descriptors: the sender's stream is
//! `start, u−1 tail, sync, u, sync, u+1 head, end` in sending order, the receiver's is the same packets
//! (minus the lost ones) in the order the model above gives, so a reordered packet really lands in the
//! other interval of the receiver's core. The tail of u−1 and the head of u+1 are long enough to hold the
//! drifting packets and to fill the stash queues around both markers.
//!
//! Every packet is a pure function of (seed, index) (counter-based hashing with SplitMix64's mixer), so
//! both streams are generated on the fly in any order without storing 5 M descriptors.

use super::rng::mix64;
use golden::finecomb::Descriptor;

/// Reordering configuration of §V-A.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reorder {
    /// ⟨0, x, 0, 0⟩: the last x packets of u−1 arrive after u's start marker.
    Forward,
    /// ⟨x, 0, 0, 0⟩: the first x packets of u arrive before u's start marker.
    Backward,
}

/// Counts of problematically reordered packets ⟨pre-start, post-start, pre-end, post-end⟩.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct ReorderTuple {
    pub pre_start: u64,
    pub post_start: u64,
    pub pre_end: u64,
    pub post_end: u64,
}

impl ReorderTuple {
    /// R as the paper provisions it: 4 · max of the four (§V-A).
    pub fn provisioned_r(&self) -> u64 {
        4 * self.pre_start.max(self.post_start).max(self.pre_end).max(self.post_end)
    }
    /// R as §III-A defines it: all problematically reordered packets (the sum of the four).
    pub fn total(&self) -> u64 {
        self.pre_start + self.post_start + self.pre_end + self.post_end
    }
    /// Packets of u that the receiver counts in another interval.
    pub fn missing(&self) -> u64 {
        self.pre_start + self.post_end
    }
}

/// Parameters of §V-A.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct FinecombTrafficParams {
    /// Packets per interval T.
    pub packets: u64,
    /// Gap between packets in ns.
    pub spacing_ns: u64,
    /// Mean one-way delay in ns.
    pub mean_delay_ns: f64,
    /// Weibull shape k.
    pub weibull_shape: f64,
    /// Loss rate β.
    pub loss: f64,
    /// Exactly this many packets of the measured interval lost (Fig. 7(b): 5, 10, 50, 100 lost packets)
    /// instead of each packet with probability β; β should then be lost/T (the methods are tuned with it).
    pub lost: Option<u64>,
    pub reorder: Reorder,
    /// Reordering rate ρ = R / T.
    pub rho: f64,
}

impl FinecombTrafficParams {
    /// The paper's setting: 5 M packets 0.2 µs apart, Weibull(0.6) delays with a 10 µs mean.
    pub fn paper(loss: f64, reorder: Reorder, rho: f64) -> Self {
        FinecombTrafficParams {
            packets: 5_000_000,
            spacing_ns: 200,
            mean_delay_ns: 10_000.0,
            weibull_shape: 0.6,
            loss,
            lost: None,
            reorder,
            rho,
        }
    }
    /// x = round(ρT/4) in the forward or backward slot.
    pub fn tuple(&self) -> ReorderTuple {
        let x = (self.rho * self.packets as f64 / 4.0).round() as u64;
        match self.reorder {
            Reorder::Forward => ReorderTuple { post_start: x, ..Default::default() },
            Reorder::Backward => ReorderTuple { pre_start: x, ..Default::default() },
        }
    }
    /// Weibull scale λ for the configured mean.
    pub fn weibull_scale(&self) -> f64 {
        self.mean_delay_ns / gamma(1.0 + 1.0 / self.weibull_shape)
    }
    pub fn check(&self) -> Result<(), String> {
        if self.packets < 4 {
            return Err(format!("{} packets per interval: need at least 4", self.packets));
        }
        if !(0.0..1.0).contains(&self.loss) {
            return Err(format!("loss rate {}: must be in [0, 1)", self.loss));
        }
        if let Some(n) = self.lost.filter(|&n| n >= self.packets) {
            return Err(format!("{n} lost packets: the interval has {} packets", self.packets));
        }
        if !(0.0..=1.0).contains(&self.rho) {
            return Err(format!("reordering rate {}: must be in [0, 1]", self.rho));
        }
        let t = self.tuple();
        if t.missing() > self.packets {
            return Err(format!("reordering rate {}: more reordered packets than the interval holds", self.rho));
        }
        if !(self.mean_delay_ns > 0.0 && self.weibull_shape > 0.0) {
            return Err("the Weibull mean and shape must be positive".into());
        }
        Ok(())
    }
}

/// Γ(x) for x > 0 (Lanczos approximation, g = 7, n = 9; relative error < 1e-13 on [0.5, 10]).
pub fn gamma(x: f64) -> f64 {
    const G: f64 = 7.0;
    const C: [f64; 9] = [
        0.999_999_999_999_809_9,
        676.520_368_121_885_1,
        -1_259.139_216_722_402_8,
        771.323_428_777_653_1,
        -176.615_029_162_140_6,
        12.507_343_278_686_905,
        -0.138_571_095_265_720_12,
        9.984_369_578_019_572e-6,
        1.505_632_735_149_311_6e-7,
    ];
    if x < 0.5 {
        return std::f64::consts::PI / ((std::f64::consts::PI * x).sin() * gamma(1.0 - x));
    }
    let x = x - 1.0;
    let a = C.iter().enumerate().skip(1).fold(C[0], |a, (i, c)| a + c / (x + i as f64));
    let t = x + G + 0.5;
    (2.0 * std::f64::consts::PI).sqrt() * t.powf(x + 0.5) * (-t).exp() * a
}

/// One packet of the sender's stream.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PathPacket {
    pub key: u128,
    /// Departure time at the sender (ns).
    pub sent: u64,
    /// One-way delay (ns).
    pub delay: u64,
    pub lost: bool,
}

impl PathPacket {
    /// Arrival time at the receiver (ns).
    pub fn received(&self) -> u64 {
        self.sent + self.delay
    }
}

/// An element of a stream: a packet (by index) or a marker.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Event {
    Packet(u64),
    Marker(Descriptor),
}

/// Ground truth of the measured interval u.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct IntervalTruth {
    /// Mean and standard deviation of the delays of u's delivered packets (ns).
    pub mean_delay_ns: f64,
    pub stddev_ns: f64,
    /// Packets of u dropped on the path.
    pub lost: u64,
    /// lost / T.
    pub loss_rate: f64,
}

/// First departure time (ns): 1 ms, so no timestamp is zero.
const T0_NS: u64 = 1_000_000;

/// The three intervals around the measured one, for one seed.
#[derive(Debug, Clone)]
pub struct IntervalTraffic {
    pub params: FinecombTrafficParams,
    pub tuple: ReorderTuple,
    seed: u64,
    /// Packets of u−1 before u's start (indices 0..pre), of u (pre..pre+T), of u+1 (then post more).
    pre: u64,
    post: u64,
    scale: f64,
    inv_shape: f64,
    loss_cut: u64,
}

impl IntervalTraffic {
    /// `margin`: packets of u−1 and u+1 beyond the drifting ones (enough to fill the stash queues: a few
    /// times w/p).
    pub fn new(params: FinecombTrafficParams, seed: u64, margin: u64) -> Result<Self, String> {
        params.check()?;
        let tuple = params.tuple();
        let mut t = IntervalTraffic {
            params,
            tuple,
            seed: mix64(seed ^ 0xF1E0_C0B0_0000_0001),
            pre: tuple.post_start + margin,
            post: tuple.pre_end + margin,
            scale: params.weibull_scale(),
            inv_shape: 1.0 / params.weibull_shape,
            loss_cut: (params.loss * 18_446_744_073_709_551_616.0).min(u64::MAX as f64) as u64,
        };
        if let Some(n) = params.lost {
            // The n packets of u with the smallest loss hashes are the lost ones (the same cut applies to the
            // neighbouring intervals: about n lost there too).
            let mut h: Vec<u64> = (t.pre..t.pre + params.packets).map(|i| t.h(i, 3)).collect();
            t.loss_cut = match n as usize {
                0 => 0,
                n => *h.select_nth_unstable(n - 1).1 + 1,
            };
        }
        Ok(t)
    }

    /// Index of the first packet of the measured interval.
    pub fn first(&self) -> u64 {
        self.pre
    }

    /// Total packets in the three intervals' streams.
    pub fn len(&self) -> u64 {
        self.pre + self.params.packets + self.post
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    fn h(&self, i: u64, lane: u64) -> u64 {
        mix64(self.seed ^ mix64(i.wrapping_mul(4).wrapping_add(lane)))
    }

    /// Packet `i` (0 ≤ i < len).
    pub fn packet(&self, i: u64) -> PathPacket {
        let key = (self.h(i, 0) as u128) << 64 | self.h(i, 1) as u128;
        // u in (0, 1]: 53 random bits.
        let u = ((self.h(i, 2) >> 11) + 1) as f64 * (1.0 / (1u64 << 53) as f64);
        let delay = (self.scale * (-u.ln()).powf(self.inv_shape)).round() as u64;
        PathPacket { key, sent: T0_NS + i * self.params.spacing_ns, delay, lost: self.h(i, 3) < self.loss_cut }
    }

    /// The sender's stream: `start, u−1 tail, sync, u, sync, u+1 head, end` in sending order.
    pub fn sender(&self) -> Vec<(std::ops::Range<u64>, Option<Descriptor>)> {
        let (a, t, n) = (self.pre, self.params.packets, self.len());
        vec![
            (0..0, Some(Descriptor::start())),
            (0..a, Some(Descriptor::sync())),
            (a..a + t, Some(Descriptor::sync())),
            (a + t..n, Some(Descriptor::end())),
        ]
    }

    /// The receiver's stream as runs of packet indices, each followed by an optional marker (lost packets
    /// are skipped by [`IntervalTraffic::events`]).
    pub fn receiver(&self) -> Vec<(std::ops::Range<u64>, Option<Descriptor>)> {
        let (a, t, n) = (self.pre, self.params.packets, self.len());
        let ReorderTuple { pre_start, post_start, pre_end, post_end } = self.tuple;
        let e = a + t;
        vec![
            (0..0, Some(Descriptor::start())),
            (0..a - post_start, None),
            (a..a + pre_start, Some(Descriptor::sync())),
            (a - post_start..a, None),
            (a + pre_start..e - post_end, None),
            (e..e + pre_end, Some(Descriptor::sync())),
            (e - post_end..e, None),
            (e + pre_end..n, Some(Descriptor::end())),
        ]
    }

    /// Walks a stream: `f(Event)` for every packet (the receiver's without the lost ones) and marker.
    pub fn events(
        &self,
        runs: &[(std::ops::Range<u64>, Option<Descriptor>)],
        receiver: bool,
        mut f: impl FnMut(Event),
    ) {
        for (range, marker) in runs {
            for i in range.clone() {
                if !(receiver && self.packet(i).lost) {
                    f(Event::Packet(i));
                }
            }
            if let Some(m) = marker {
                f(Event::Marker(*m));
            }
        }
    }

    /// Delays and losses of the measured interval u.
    pub fn truth(&self) -> IntervalTruth {
        let (mut n, mut sum, mut sq, mut lost) = (0u64, 0f64, 0f64, 0u64);
        for i in self.pre..self.pre + self.params.packets {
            let p = self.packet(i);
            if p.lost {
                lost += 1;
            } else {
                n += 1;
                sum += p.delay as f64;
                sq += (p.delay as f64).powi(2);
            }
        }
        let mean = sum / n.max(1) as f64;
        IntervalTruth {
            mean_delay_ns: mean,
            stddev_ns: ((sq / n.max(1) as f64 - mean * mean).max(0.0) * n as f64 / (n.max(2) - 1) as f64).sqrt(),
            lost,
            loss_rate: lost as f64 / self.params.packets as f64,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gamma_matches_known_values() {
        assert!((gamma(1.0) - 1.0).abs() < 1e-12);
        assert!((gamma(5.0) - 24.0).abs() < 1e-9);
        assert!((gamma(0.5) - std::f64::consts::PI.sqrt()).abs() < 1e-12);
        assert!((gamma(1.0 + 1.0 / 0.6) - 1.504_575_488_8).abs() < 1e-8);
    }

    #[test]
    fn delays_have_the_configured_mean_and_weibull_spread() {
        let p = FinecombTrafficParams { packets: 400_000, ..FinecombTrafficParams::paper(0.01, Reorder::Forward, 0.0) };
        let t = IntervalTraffic::new(p, 7, 0).unwrap();
        let truth = t.truth();
        assert!((truth.mean_delay_ns / 10_000.0 - 1.0).abs() < 0.02, "{truth:?}");
        // Weibull(0.6) sd/mean = sqrt(Γ(1+2/k)/Γ(1+1/k)^2 − 1) ≈ 1.76.
        let cv = (gamma(1.0 + 2.0 / 0.6) / gamma(1.0 + 1.0 / 0.6).powi(2) - 1.0).sqrt();
        assert!((truth.stddev_ns / truth.mean_delay_ns / cv - 1.0).abs() < 0.06, "{truth:?} cv {cv}");
        assert!((truth.loss_rate / 0.01 - 1.0).abs() < 0.06, "{truth:?}");
    }

    fn positions(t: &IntervalTraffic, receiver: bool) -> (Vec<u64>, Vec<usize>) {
        let (mut pk, mut marks) = (vec![], vec![]);
        let runs = if receiver { t.receiver() } else { t.sender() };
        t.events(&runs, receiver, |e| match e {
            Event::Packet(i) => pk.push(i),
            Event::Marker(_) => marks.push(pk.len()),
        });
        (pk, marks)
    }

    #[test]
    fn reordered_packets_cross_the_marker_they_should() {
        for reorder in [Reorder::Forward, Reorder::Backward] {
            let p = FinecombTrafficParams { packets: 10_000, ..FinecombTrafficParams::paper(0.0, reorder, 0.04) };
            let t = IntervalTraffic::new(p, 1, 50).unwrap();
            let x = 100;
            assert_eq!(t.tuple.provisioned_r(), 4 * x);
            let (sp, sm) = positions(&t, false);
            let (rp, rm) = positions(&t, true);
            assert_eq!(sp.len(), rp.len());
            assert_eq!((sm.len(), rm.len()), (4, 4));
            let a = t.first();
            // Which packets the receiver has between the two syncs (interval u).
            let inside: std::collections::HashSet<u64> = rp[rm[1]..rm[2]].iter().copied().collect();
            let own = |i: u64| (a..a + 10_000).contains(&i);
            let extra = inside.iter().filter(|&&i| !own(i)).count() as u64;
            let missing = (a..a + 10_000).filter(|i| !inside.contains(i)).count() as u64;
            match reorder {
                Reorder::Forward => {
                    assert_eq!((extra, missing), (x, 0));
                    assert!(inside.contains(&(a - 1)) && inside.contains(&(a - x)) && !inside.contains(&(a - x - 1)));
                }
                Reorder::Backward => {
                    assert_eq!((extra, missing), (0, x));
                    assert!(!inside.contains(&a) && !inside.contains(&(a + x - 1)) && inside.contains(&(a + x)));
                }
            }
            let mut sorted = rp.clone();
            sorted.sort();
            assert_eq!(sorted, sp, "the receiver sees every sent packet once");
        }
    }

    #[test]
    fn lost_packets_never_reach_the_receiver() {
        let p = FinecombTrafficParams { packets: 20_000, ..FinecombTrafficParams::paper(0.05, Reorder::Backward, 0.0) };
        let t = IntervalTraffic::new(p, 3, 10).unwrap();
        let (rp, _) = positions(&t, true);
        assert!(rp.iter().all(|&i| !t.packet(i).lost));
        assert_eq!(rp.len() as u64 + (0..t.len()).filter(|&i| t.packet(i).lost).count() as u64, t.len());
        assert!(IntervalTraffic::new(FinecombTrafficParams { loss: 1.0, ..p }, 1, 0).is_err());
        assert!(IntervalTraffic::new(FinecombTrafficParams { lost: Some(20_000), ..p }, 1, 0).is_err());
    }

    #[test]
    fn an_exact_loss_count_loses_exactly_that_many_packets_of_the_interval() {
        for n in [0, 1, 5, 100] {
            let p = FinecombTrafficParams { packets: 50_000, lost: Some(n), ..FinecombTrafficParams::paper(0.0, Reorder::Backward, 4e-3) };
            for seed in 1..4 {
                let t = IntervalTraffic::new(p, seed, 100).unwrap();
                assert_eq!(t.truth().lost, n, "seed {seed}");
            }
        }
    }
}
