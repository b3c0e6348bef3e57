//! The MAPLE core's centers (`MapleCenters<CA>`): the shadow set loaded through the CSR port, the two
//! banks' centers and boundaries swapped in at the epoch marker, the center match of a packet's latency
//! (F1 → M3, three cycles), and the center latency of a lookup's returning counter word (two cycles).
//! Stage table and specification: `golden::maple::cycle` (the core's F1, M1, M2, M3 and the lookup's
//! return path); the core ([`super::MapleCore`]) carries the packet's valid, bank, latency and hashes
//! beside the match and reads the center at M3.
//!
//! - **Shadow set and swap.** `center_index` sets the write index, each `center_value` write stores one
//!   shadow center and advances it. At the marker (`epoch`) the active bank flips and the bank becoming
//!   active is loaded from the shadow set: `k` (`center_count` clamped to `1..=max_centers`), the centers,
//!   the boundaries `t[i] = ⌊(c[i] + c[i+1])/2⌋` and the enables `c[i] ≠ c[i+1]`; the other bank keeps
//!   the last epoch's set for the flush and the lookups.
//! - **Match.** F1: `lt[i]` = boundary `i` crossed (`i + 1 < k`, enabled, `t[i] < latency`) in the active
//!   bank; M1: per group of 8 bits of `lt`, any set and the highest set; M2: the center = the highest
//!   crossed boundary + 1 (0 when none), registered as M3's `center`.
//! - **Return path.** A returning counter word's index (`ret_cidx`, from the bank's modify stage) is
//!   registered; the center within each group of four (in bank `ret_bank`) is chosen from it and
//!   registered; the group is chosen last (`ret_center`, ready when the lookup engine takes that word).

use super::CB;
use crate::common::bits::{constant, consts, Slice, ZeroExt};
use crate::common::reg::Reg;
use crate::declare_block;
use golden::maple::cycle::{CSR_CENTER_INDEX, CSR_CENTER_VALUE};
use rust_hdl::prelude::*;

declare_block! {
    /// See the [module docs](self).
    #[derive(LogicBlock)]
    pub struct MapleCenters<const CA: usize> fn build(max_centers: usize, ties_high: bool) {
        pub clock: Signal<In, Clock>,
        pub reset: Signal<In, bool>,
        /// The epoch marker (the core's registered `epoch` write): swap the banks this cycle.
        pub epoch: Signal<In, bool>,
        /// The CSR port's write side (the center index and value registers are decoded here).
        pub csr_wr_en: Signal<In, bool>,
        pub csr_addr: Signal<In, Bits<8>>,
        pub csr_wr_data: Signal<In, Bits<32>>,
        /// `center_count` (all 32 bits to clamp, its low bits to use).
        pub count: Signal<In, Bits<32>>,
        /// The bank packets insert into, and `k` of it and of the other (frozen) bank.
        pub active: Signal<Out, bool>,
        pub k_active: Signal<Out, Bits<CB>>,
        pub k_frozen: Signal<Out, Bits<CB>>,
        /// F1's latency in; its center out three cycles later (at M3).
        pub lat: Signal<In, Bits<32>>,
        pub center: Signal<Out, Bits<CB>>,
        /// A returning counter word's index in, its bank a cycle later (the lookup's bank, held through a
        /// lookup); the center latency out two cycles after the index.
        pub ret_cidx: Signal<In, Bits<CA>>,
        pub ret_bank: Signal<In, bool>,
        pub ret_center: Signal<Out, Bits<32>>,
        wr_index8: Slice<32, 8> = Slice::new(0),
        count_low: Slice<32, CB> = Slice::new(0),
        active_q: Reg<bool>,
        widx: Reg<Bits<8>>,
        k0: Reg<Bits<CB>>,
        k1: Reg<Bits<CB>>,
        kk: Signal<Local, Bits<CB>>,
        c0: Vec<Reg<Bits<32>>> = (0..max_centers).map(|_| Reg::default()).collect(),
        c1: Vec<Reg<Bits<32>>> = (0..max_centers).map(|_| Reg::default()).collect(),
        sh: Vec<Reg<Bits<32>>> = (0..max_centers).map(|_| Reg::default()).collect(),
        /// Per bank, the boundaries between neighbouring centers: `t[i] = ⌊(c[i] + c[i+1]) / 2⌋` and `en`
        /// bit `i` = `c[i] ≠ c[i+1]`, loaded with the centers at the swap from the shadow set's `mid`/`en_sh`.
        t0: Vec<Reg<Bits<32>>> = (1..max_centers).map(|_| Reg::default()).collect(),
        t1: Vec<Reg<Bits<32>>> = (1..max_centers).map(|_| Reg::default()).collect(),
        en0: Reg<Bits<64>>,
        en1: Reg<Bits<64>>,
        mid: Vec<Signal<Local, Bits<32>>> = (1..max_centers).map(|_| Default::default()).collect(),
        en_sh: Signal<Local, Bits<64>>,
        lt_f1: Signal<Local, Bits<64>>,
        m1_lt: Reg<Bits<64>>,
        /// M1's priority encoder in two levels: per group of 8 bits of `lt`, any set and the highest set.
        m2_any: Vec<Reg<bool>> = (0..8).map(|_| Reg::default()).collect(),
        m2_hi: Vec<Reg<Bits<3>>> = (0..8).map(|_| Reg::default()).collect(),
        zx_hi: Vec<ZeroExt<3, CB>> = (0..8).map(|_| ZeroExt::default()).collect(),
        m3_center: Reg<Bits<CB>>,
        /// The returning word's center: its index a cycle after the bank's modify stage, the center of each
        /// group of four by the index's low bits (registered), the group by its high bits.
        rc_idx: Reg<Bits<CA>>,
        zx_rc: ZeroExt<CA, 8>,
        rc_hi: Reg<Bits<8>>,
        cg: Vec<Reg<Bits<32>>> = (0..max_centers.div_ceil(4)).map(|_| Reg::default()).collect(),
        lo2: Vec<Constant<Bits<2>>> = consts((0..max_centers).map(|i| i as u64 % 4)),
        gidx: Vec<Constant<Bits<8>>> = consts(0..max_centers.div_ceil(4) as u64),
        two8: Constant<Bits<8>> = constant(2),
        /// `i + 1` and bit `i` per boundary `i` (`max_centers − 1` of them).
        idx7_next: Vec<Constant<Bits<CB>>> = consts(1..max_centers as u64),
        idx3: Vec<Constant<Bits<3>>> = consts(0..8),
        group_base: Vec<Constant<Bits<CB>>> = consts((0..8).map(|g| 8 * g + 1)),
        idx8: Vec<Constant<Bits<8>>> = consts(0..max_centers as u64),
        bit64: Vec<Constant<Bits<64>>> = consts((0..max_centers - 1).map(|i| 1u64 << i)),
        km32: Constant<Bits<32>> = constant(max_centers as u64),
        km7: Constant<Bits<CB>> = constant(max_centers as u64),
        zero3: Constant<Bits<3>> = constant(0),
        zero7: Constant<Bits<CB>> = constant(0),
        zero8: Constant<Bits<8>> = constant(0),
        zero32: Constant<Bits<32>> = constant(0),
        zero64: Constant<Bits<64>> = constant(0),
        one7: Constant<Bits<CB>> = constant(1),
        one8: Constant<Bits<8>> = constant(1),
        one32: Constant<Bits<32>> = constant(1),
        csr_cidx: Constant<Bits<8>> = constant(CSR_CENTER_INDEX as u64),
        csr_cval: Constant<Bits<8>> = constant(CSR_CENTER_VALUE as u64),
        ties_high: Constant<bool> = Constant::new(ties_high),
        _km: usize = max_centers,
        _kb: usize = max_centers - 1,
        _ng: usize = max_centers.div_ceil(4),
    }
}

impl<const CA: usize> Logic for MapleCenters<CA> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, active_q, widx, k0, k1, en0, en1, m1_lt, m3_center, rc_idx, rc_hi);
        for g in 0..self._ng {
            self.cg[g].clock.next = self.clock.val();
        }
        for i in 0..self._km {
            self.c0[i].clock.next = self.clock.val();
            self.c1[i].clock.next = self.clock.val();
            self.sh[i].clock.next = self.clock.val();
            self.c0[i].d.next = self.c0[i].q.val();
            self.c1[i].d.next = self.c1[i].q.val();
            self.sh[i].d.next = self.sh[i].q.val();
        }
        for i in 0..self._kb {
            self.t0[i].clock.next = self.clock.val();
            self.t1[i].clock.next = self.clock.val();
            self.t0[i].d.next = self.t0[i].q.val();
            self.t1[i].d.next = self.t1[i].q.val();
        }
        for g in 0..8 {
            self.m2_any[g].clock.next = self.clock.val();
            self.m2_hi[g].clock.next = self.clock.val();
        }
        self.active.next = self.active_q.q.val();
        if self.active_q.q.val() {
            self.k_active.next = self.k1.q.val();
            self.k_frozen.next = self.k0.q.val();
        } else {
            self.k_active.next = self.k0.q.val();
            self.k_frozen.next = self.k1.q.val();
        }
        // The shadow set's boundaries: ⌊(a + b)/2⌋ = a/2 + b/2 + (a & b & 1) without a 33rd bit (the mutant:
        // ⌈(a + b)/2⌉ − 1, a tie crossing to the upper center).
        self.en_sh.next = self.zero64.val();
        for i in 0..self._kb {
            if self.ties_high.val() {
                self.mid[i].next = (self.sh[i].q.val() >> self.one32.val())
                    + (self.sh[i + 1].q.val() >> self.one32.val())
                    + ((self.sh[i].q.val() | self.sh[i + 1].q.val()) & self.one32.val())
                    - self.one32.val();
            } else {
                self.mid[i].next = (self.sh[i].q.val() >> self.one32.val())
                    + (self.sh[i + 1].q.val() >> self.one32.val())
                    + (self.sh[i].q.val() & self.sh[i + 1].q.val() & self.one32.val());
            }
            if self.sh[i].q.val() != self.sh[i + 1].q.val() {
                self.en_sh.next = self.en_sh.val() | self.bit64[i].val();
            }
        }
        self.wr_index8.din.next = self.csr_wr_data.val();
        self.count_low.din.next = self.count.val();
        // k of the next epoch: center_count clamped to 1..=max_centers.
        if self.count.val() == self.zero32.val() {
            self.kk.next = self.one7.val();
        } else if self.count.val() > self.km32.val() {
            self.kk.next = self.km7.val();
        } else {
            self.kk.next = self.count_low.out.val();
        }
        // Shadow centers, the epoch swap.
        if self.reset.val() {
            self.active_q.d.next = false;
            self.widx.d.next = self.zero8.val();
            self.k0.d.next = self.one7.val();
            self.k1.d.next = self.one7.val();
            for i in 0..self._km {
                self.c0[i].d.next = self.zero32.val();
                self.c1[i].d.next = self.zero32.val();
                self.sh[i].d.next = self.zero32.val();
            }
            for i in 0..self._kb {
                self.t0[i].d.next = self.zero32.val();
                self.t1[i].d.next = self.zero32.val();
            }
            self.en0.d.next = self.zero64.val();
            self.en1.d.next = self.zero64.val();
        } else {
            if self.epoch.val() {
                self.active_q.d.next = !self.active_q.q.val();
                if self.active_q.q.val() {
                    self.k0.d.next = self.kk.val();
                    for i in 0..self._km {
                        self.c0[i].d.next = self.sh[i].q.val();
                    }
                    for i in 0..self._kb {
                        self.t0[i].d.next = self.mid[i].val();
                    }
                    self.en0.d.next = self.en_sh.val();
                } else {
                    self.k1.d.next = self.kk.val();
                    for i in 0..self._km {
                        self.c1[i].d.next = self.sh[i].q.val();
                    }
                    for i in 0..self._kb {
                        self.t1[i].d.next = self.mid[i].val();
                    }
                    self.en1.d.next = self.en_sh.val();
                }
            }
            if self.csr_wr_en.val() && (self.csr_addr.val() == self.csr_cidx.val()) {
                self.widx.d.next = self.wr_index8.out.val();
            } else if self.csr_wr_en.val() && (self.csr_addr.val() == self.csr_cval.val()) {
                self.widx.d.next = self.widx.q.val() + self.one8.val();
                for i in 0..self._km {
                    if self.widx.q.val() == self.idx8[i].val() {
                        self.sh[i].d.next = self.csr_wr_data.val();
                    }
                }
            }
        }
        // F1 stage: lt[i] = boundary i crossed (i + 1 < k, c[i] ≠ c[i+1], t[i] < latency) in the active bank.
        self.lt_f1.next = self.zero64.val();
        for i in 0..self._kb {
            if self.active_q.q.val() {
                if (self.idx7_next[i].val() < self.k1.q.val())
                    && self.en1.q.val().get_bit(i)
                    && (self.t1[i].q.val() < self.lat.val())
                {
                    self.lt_f1.next = self.lt_f1.val() | self.bit64[i].val();
                }
            } else if (self.idx7_next[i].val() < self.k0.q.val())
                && self.en0.q.val().get_bit(i)
                && (self.t0[i].q.val() < self.lat.val())
            {
                self.lt_f1.next = self.lt_f1.val() | self.bit64[i].val();
            }
        }
        self.m1_lt.d.next = self.lt_f1.val();
        // M1: per group of 8 bits of lt, any set and the highest set.
        for g in 0..8 {
            self.m2_any[g].d.next = false;
            self.m2_hi[g].d.next = self.zero3.val();
            for b in 0..8 {
                if self.m1_lt.q.val().get_bit(8 * g + b) {
                    self.m2_any[g].d.next = true;
                    self.m2_hi[g].d.next = self.idx3[b].val();
                }
            }
        }
        // M2: the center = the highest crossed boundary + 1 (0 when none).
        self.m3_center.d.next = self.zero7.val();
        for g in 0..8 {
            self.zx_hi[g].din.next = self.m2_hi[g].q.val();
            if self.m2_any[g].q.val() {
                self.m3_center.d.next = self.group_base[g].val() + self.zx_hi[g].out.val();
            }
        }
        self.center.next = self.m3_center.q.val();
        // The return path: the index registered, the center within each group of four chosen and
        // registered, then the group.
        self.rc_idx.d.next = self.ret_cidx.val();
        self.zx_rc.din.next = self.rc_idx.q.val();
        self.rc_hi.d.next = self.zx_rc.out.val() >> self.two8.val();
        for g in 0..self._ng {
            self.cg[g].d.next = self.zero32.val();
        }
        for i in 0..self._km {
            if self.zx_rc.out.val().get_bits::<2>(0) == self.lo2[i].val() {
                if self.ret_bank.val() {
                    self.cg[i / 4].d.next = self.c1[i].q.val();
                } else {
                    self.cg[i / 4].d.next = self.c0[i].q.val();
                }
            }
        }
        self.ret_center.next = self.zero32.val();
        for g in 0..self._ng {
            if self.rc_hi.q.val() == self.gidx[g].val() {
                self.ret_center.next = self.cg[g].q.val();
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use golden::maple::Centers;
    use rand::{rngs::SmallRng, Rng, SeedableRng};

    const KM: usize = 20;

    /// Random center sets (duplicates, ties, every `k` from 1 to 20 and a `center_count` of 0 or above the
    /// maximum) loaded through the CSR pins and swapped in at the marker, every cycle a latency (at a
    /// center, beside it, at a midpoint or anywhere) whose center three cycles later must be
    /// `golden::maple::Centers::nearest`'s, and every cycle a returning index whose center latency two
    /// cycles later must be the one that bank holds — in rust-hdl's simulator, against the golden model.
    #[test]
    fn match_and_return_path_follow_golden_over_random_epochs() {
        let mut uut = MapleCenters::<5>::build(KM, false);
        uut.connect_all();
        rust_hdl::core::check_error::check_all(&uut).expect("a well-formed block");
        let mut sim = Simulation::new();
        sim.add_clock(5, |x: &mut Box<MapleCenters<5>>| x.clock.next = !x.clock.val());
        sim.add_testbench(move |mut sim: Sim<MapleCenters<5>>| {
            let mut x = sim.init()?;
            let mut rng = SmallRng::seed_from_u64(0x9e37_79b9_7f4a_7c15);
            let mut next = move |n: u64| rng.gen_range(0..n);
            x.reset.next = true;
            wait_clock_cycle!(sim, clock, x);
            x.reset.next = false;
            // What each bank holds (the shadow set at its swap), the active bank.
            let mut banks = [vec![0u32; KM], vec![0u32; KM]];
            let mut shadow = vec![0u32; KM];
            let mut active = false;
            let (mut matched, mut returned) = (0, 0);
            for epoch in 0..24 {
                let k = if epoch == 9 { KM } else { 1 + next(KM as u64) as usize };
                let span = [8, 64, 1 << 20][epoch % 3];
                let mut values: Vec<u32> = (0..k).map(|_| next(span) as u32).collect();
                values.sort_unstable();
                let count = match epoch {
                    5 => 0,
                    9 => KM as u32 + 7,
                    _ => k as u32,
                };
                let k_eff = (count as usize).clamp(1, KM);
                for (addr, data) in golden::maple::hw::center_load_writes(&values).into_iter().skip(1) {
                    x.csr_wr_en.next = true;
                    x.csr_addr.next = Bits::from(addr as u64);
                    x.csr_wr_data.next = Bits::from(data as u64);
                    wait_clock_cycle!(sim, clock, x);
                }
                shadow[..k].copy_from_slice(&values);
                x.csr_wr_en.next = false;
                x.count.next = Bits::from(count as u64);
                x.epoch.next = true;
                wait_clock_cycle!(sim, clock, x);
                x.epoch.next = false;
                active = !active;
                banks[active as usize] = shadow.clone();
                sim_assert_eq!(sim, x.active.val(), active, x);
                sim_assert_eq!(sim, x.k_active.val().to_u64(), k_eff as u64, x);
                let live = Centers::new(banks[active as usize][..k_eff].to_vec()).unwrap();
                // Latencies in flight (their expected centers); the index returned a cycle ago.
                let mut lat_pipe = std::collections::VecDeque::new();
                let mut prev_ri = None;
                for _ in 0..60 {
                    let i = next(k_eff as u64) as usize;
                    let c = live.get(i);
                    let lat = match next(5) {
                        0 => c,
                        1 => c.wrapping_add(1),
                        2 => c.saturating_sub(1),
                        3 if i + 1 < k_eff => boundary(c, live.get(i + 1)) + next(2) as u32,
                        _ => next(span + 8) as u32,
                    };
                    x.lat.next = Bits::from(lat as u64);
                    lat_pipe.push_back(live.nearest(lat) as u64);
                    // The bank selects a cycle after the index (the core holds it through a lookup).
                    let (ri, rb) = (next(KM as u64) as usize, next(2) == 1);
                    x.ret_cidx.next = Bits::from(ri as u64);
                    x.ret_bank.next = rb;
                    wait_clock_cycle!(sim, clock, x);
                    if lat_pipe.len() == 3 {
                        let want = lat_pipe.pop_front().unwrap();
                        sim_assert_eq!(sim, x.center.val().to_u64(), want, x);
                        matched += 1;
                    }
                    if let Some(prev) = prev_ri {
                        sim_assert_eq!(sim, x.ret_center.val().to_u64(), banks[rb as usize][prev] as u64, x);
                        returned += 1;
                    }
                    prev_ri = Some(ri);
                }
            }
            assert!(matched > 1000 && returned > 1000, "{matched} matches, {returned} returns checked");
            sim.done(x)
        });
        sim.run(Box::new(uut), 1_000_000).unwrap();
    }

    /// The boundary between two centers as the golden model computes it.
    fn boundary(a: u32, b: u32) -> u32 {
        golden::maple::cycle::boundary(a, b)
    }
}
