//! Core shell (`CoreShell<CW, SW>`): the control-plane plumbing every core wires the same way — the CSR
//! port passed to the [`Csr`] bank, the config bus out, the statistics counters, and the status words
//! packed into the bank's `status` bus where the register map puts them.
//!
//! A core builds its shell from its [`CsrLayout`] and [`StatusSources`], which names every status register
//! of the layout exactly once as one of three kinds:
//! - a **counter** the shell keeps (wrapping 32-bit, cleared by reset): the core pulses `count[i]` for each
//!   event (and `count2[i]` for a second event of the same kind in the same cycle, for the first `doubled`
//!   counters);
//! - a **flag**: the register reads 1 while `flag[i]` is high (a walk or dump in progress);
//! - a **word** the core computes (`status[i]`: FIFO levels and drop counts of its blocks).
//!
//! Register `name` lands at `layout.status_offset(name)`. Config fields are placed the same way:
//! [`cfg_field`] is a [`Slice`] of the config bus at `layout.config_offset(name)`. No core computes a
//! `32 * k` itself, and no core writes its own counter registers.
//!
//! The shell's CSR side is one port bundle, [`CsrPort`] (rust-hdl `LogicInterface`). A core's top-level
//! ports stay flat (`csr_addr`, `csr_wr_en`, …) and are wired 1:1 to it: rust-hdl flattens a bundle at the
//! top as `csr$addr`, and the testbench's generated bindings and the CLI name the flat ports.

use super::bits::{consts, Slice, ZeroExt};
use super::csr::Csr;
use super::reg::Reg;
use crate::declare_block;
use golden::common::config::ConfigError;
use golden::common::csr::CsrLayout;
use rust_hdl::prelude::*;

/// The CSR port as the bank sees it: an 8-bit address, a write strobe with its data, and a read strobe
/// answered one cycle later (`rd_valid`, `rd_data`).
#[derive(LogicInterface, Default)]
pub struct CsrPort {
    pub addr: Signal<In, Bits<8>>,
    pub wr_en: Signal<In, bool>,
    pub wr_data: Signal<In, Bits<32>>,
    pub rd_en: Signal<In, bool>,
    pub rd_valid: Signal<Out, bool>,
    pub rd_data: Signal<Out, Bits<32>>,
}

/// Where each status register of a core comes from. Every status register of the layout is named exactly
/// once, in one of the three lists; the core drives the shell's inputs in the order of its list.
#[derive(Clone, Copy, Debug, Default)]
pub struct StatusSources<'a> {
    /// Event counters kept by the shell (wrapping 32-bit, cleared by reset): register `counters[i]` adds
    /// one in every cycle `count[i]` is high — and, for `i < doubled`, one more when `count2[i]` is high
    /// (two events of one kind in one cycle, e.g. reports pushed into two FIFOs).
    pub counters: &'a [&'a str],
    pub doubled: usize,
    /// Flags: register `flags[i]` reads 1 while `flag[i]` is high, else 0.
    pub flags: &'a [&'a str],
    /// Words the core computes: register `words[i]` reads `status[i]`.
    pub words: &'a [&'a str],
}

declare_block! {
    /// See the [module docs](self).
    #[derive(LogicBlock)]
    pub struct CoreShell<const CW: usize, const SW: usize> fn build(bank: Csr<CW, SW>, offsets: [Vec<usize>; 3], doubled: usize) {
        pub clock: Signal<In, Clock>,
        pub reset: Signal<In, bool>,
        pub csr: CsrPort,
        /// The config registers (register `name` at `layout.config_offset(name)`; see [`cfg_field`]).
        pub cfg: Signal<Out, Bits<CW>>,
        /// Counter `i` of [`StatusSources::counters`] counts this cycle.
        pub count: Vec<Signal<In, bool>> = offsets[0].iter().map(|_| Default::default()).collect(),
        /// Counter `i < doubled` counts one more this cycle.
        pub count2: Vec<Signal<In, bool>> = (0..doubled).map(|_| Default::default()).collect(),
        /// Flag `i` of [`StatusSources::flags`].
        pub flag: Vec<Signal<In, bool>> = offsets[1].iter().map(|_| Default::default()).collect(),
        /// Word `i` of [`StatusSources::words`].
        pub status: Vec<Signal<In, Bits<32>>> = offsets[2].iter().map(|_| Default::default()).collect(),
        bank: Csr<CW, SW> = bank,
        counters: Vec<Reg<Bits<32>>> = offsets[0].iter().map(|_| Reg::default()).collect(),
        zx_count: Vec<ZeroExt<32, SW>> = offsets[0].iter().map(|_| ZeroExt::default()).collect(),
        zx_status: Vec<ZeroExt<32, SW>> = offsets[2].iter().map(|_| ZeroExt::default()).collect(),
        off_count: Vec<Constant<Bits<16>>> = consts(offsets[0].iter().map(|&o| o as u64)),
        off_flag: Vec<Constant<Bits<16>>> = consts(offsets[1].iter().map(|&o| o as u64)),
        off_status: Vec<Constant<Bits<16>>> = consts(offsets[2].iter().map(|&o| o as u64)),
        status_bus: Signal<Local, Bits<SW>>,
        zero_sw: Constant<Bits<SW>> = Constant::new(Bits::default()),
        // Constants one per counter / flag, so that a shell without one declares no unused constant.
        one_sw: Vec<Constant<Bits<SW>>> = consts(offsets[1].iter().map(|_| 1)),
        zero_32: Vec<Constant<Bits<32>>> = consts(offsets[0].iter().map(|_| 0)),
        one_32: Vec<Constant<Bits<32>>> = consts(offsets[0].iter().map(|_| 1)),
        two_32: Vec<Constant<Bits<32>>> = consts((0..doubled).map(|_| 2)),
        _nc: usize = offsets[0].len(),
        _n2: usize = doubled,
        _nf: usize = offsets[1].len(),
        _n: usize = offsets[2].len(),
    }
}

impl<const CW: usize, const SW: usize> CoreShell<CW, SW> {
    /// The shell of a core with register map `layout` whose status registers come from `sources`.
    pub fn new(layout: CsrLayout, sources: &StatusSources) -> Result<Self, ConfigError> {
        if sources.doubled > sources.counters.len() {
            return Err(ConfigError(format!(
                "CoreShell: {} doubled counters of {}",
                sources.doubled,
                sources.counters.len()
            )));
        }
        let mut seen = Vec::new();
        let mut place = |names: &[&str]| -> Result<Vec<usize>, ConfigError> {
            let mut offsets = Vec::with_capacity(names.len());
            for name in names {
                let off = layout
                    .status_offset(name)
                    .ok_or_else(|| ConfigError(format!("CoreShell: no status register `{name}` in the layout")))?;
                if seen.contains(&off) {
                    return Err(ConfigError(format!("CoreShell: status register `{name}` driven twice")));
                }
                seen.push(off);
                offsets.push(off);
            }
            Ok(offsets)
        };
        let offsets = [place(sources.counters)?, place(sources.flags)?, place(sources.words)?];
        if seen.len() != layout.status.len() {
            return Err(ConfigError(format!(
                "CoreShell: {} status registers driven, the layout has {}",
                seen.len(),
                layout.status.len()
            )));
        }
        Ok(Self::build(Csr::new(layout)?, offsets, sources.doubled))
    }
    pub fn layout(&self) -> &CsrLayout {
        self.bank.layout()
    }
}

/// The field of `N` bits at the start of config register `name` of `layout` (a [`Slice`] of the bus).
pub fn cfg_field<const CW: usize, const N: usize>(layout: &CsrLayout, name: &str) -> Result<Slice<CW, N>, ConfigError> {
    layout
        .config_offset(name)
        .map(Slice::new)
        .ok_or_else(|| ConfigError(format!("no config register `{name}` in the layout")))
}

/// A core's `#[hdl_gen] fn update` with its shell's plumbing written first, so that no core writes it:
/// the shell's reset, the six flat CSR pins of [`declare_block!`](crate::declare_block)`… with csr_port`
/// wired 1:1 to the shell's [`CsrPort`], and the config bus into every config field named in `cfg(…)`
/// (the [`cfg_field`] slices; a field in a loop, such as a per-bank slice vector, stays in the body).
/// The core's shell is its field `shell`.
///
/// ```text
/// impl Logic for MyCore {
///     core_update! {
///         cfg(cfg_mode, cfg_seed)
///         #[hdl_gen]
///         fn update(&mut self) {
///             clock!(self, clock, shell);
///             self.mode_out.next = self.cfg_mode.out.val();
///         }
///     }
/// }
/// ```
///
/// The statements land at the top of the generated `always @(*)` block; order within it does not matter,
/// as each signal is assigned once. The `#[hdl_gen]` attribute is the caller's, passed through token by
/// token: written inside this macro, hdl_gen's generated `hdl()` and `connect_all()` would take the macro's
/// hygiene for `self`, which the caller's statements cannot name.
#[macro_export]
macro_rules! core_update {
    (cfg($($cfg:ident),* $(,)?) $pound:tt $hdl_gen:tt fn update(&mut $s:ident) { $($body:tt)* }) => {
        $pound $hdl_gen
        fn update(&mut $s) {
            $s.shell.reset.next = $s.reset.val();
            $s.shell.csr.addr.next = $s.csr_addr.val();
            $s.shell.csr.wr_en.next = $s.csr_wr_en.val();
            $s.shell.csr.wr_data.next = $s.csr_wr_data.val();
            $s.shell.csr.rd_en.next = $s.csr_rd_en.val();
            $s.csr_rd_valid.next = $s.shell.csr.rd_valid.val();
            $s.csr_rd_data.next = $s.shell.csr.rd_data.val();
            $($s.$cfg.din.next = $s.shell.cfg.val();)*
            $($body)*
        }
    };
}

impl<const CW: usize, const SW: usize> Logic for CoreShell<CW, SW> {
    #[hdl_gen]
    fn update(&mut self) {
        clock!(self, clock, bank);
        self.bank.reset.next = self.reset.val();
        self.bank.addr.next = self.csr.addr.val();
        self.bank.wr_en.next = self.csr.wr_en.val();
        self.bank.wr_data.next = self.csr.wr_data.val();
        self.bank.rd_en.next = self.csr.rd_en.val();
        self.csr.rd_valid.next = self.bank.rd_valid.val();
        self.csr.rd_data.next = self.bank.rd_data.val();
        self.cfg.next = self.bank.cfg.val();
        // Counters: +1 per event, +2 when both inputs of a doubled counter are high (last assignment wins).
        for i in 0..self._nc {
            self.counters[i].clock.next = self.clock.val();
            if self.reset.val() {
                self.counters[i].d.next = self.zero_32[i].val();
            } else if self.count[i].val() {
                self.counters[i].d.next = self.counters[i].q.val() + self.one_32[i].val();
            } else {
                self.counters[i].d.next = self.counters[i].q.val();
            }
        }
        for i in 0..self._n2 {
            if !self.reset.val() && self.count2[i].val() {
                if self.count[i].val() {
                    self.counters[i].d.next = self.counters[i].q.val() + self.two_32[i].val();
                } else {
                    self.counters[i].d.next = self.counters[i].q.val() + self.one_32[i].val();
                }
            }
        }
        // The status bus: every register at its layout offset.
        self.status_bus.next = self.zero_sw.val();
        for i in 0..self._nc {
            self.zx_count[i].din.next = self.counters[i].q.val();
            self.status_bus.next = self.status_bus.val() | (self.zx_count[i].out.val() << self.off_count[i].val());
        }
        for i in 0..self._nf {
            if self.flag[i].val() {
                self.status_bus.next = self.status_bus.val() | (self.one_sw[i].val() << self.off_flag[i].val());
            }
        }
        for i in 0..self._n {
            self.zx_status[i].din.next = self.status[i].val();
            self.status_bus.next = self.status_bus.val() | (self.zx_status[i].out.val() << self.off_status[i].val());
        }
        self.bank.status.next = self.status_bus.val();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use golden::common::config::CSR_STATUS_BASE;
    use rand::{rngs::SmallRng, Rng, SeedableRng};

    fn layout() -> CsrLayout {
        CsrLayout::new(vec![("a".into(), 1), ("b".into(), 2)], vec!["x".into(), "y".into(), "z".into()])
    }

    fn src<'a>(
        counters: &'a [&'a str],
        doubled: usize,
        flags: &'a [&'a str],
        words: &'a [&'a str],
    ) -> StatusSources<'a> {
        StatusSources { counters, doubled, flags, words }
    }

    #[test]
    fn status_words_land_where_the_layout_puts_them() {
        let shell = CoreShell::<64, 96>::new(layout(), &src(&["z"], 0, &["x"], &["y"])).unwrap();
        let offs = |v: &[Constant<Bits<16>>]| v.iter().map(|c| c.val().to_u64()).collect::<Vec<_>>();
        assert_eq!(
            (offs(&shell.off_count), offs(&shell.off_flag), offs(&shell.off_status)),
            (vec![64], vec![0], vec![32])
        );
    }

    #[test]
    fn every_status_register_is_driven_exactly_once() {
        let shell = |s: StatusSources| CoreShell::<64, 96>::new(layout(), &s).is_err();
        assert!(shell(src(&[], 0, &[], &["x", "y"])), "one missing");
        assert!(shell(src(&["x"], 0, &[], &["y", "x", "z"])), "one twice, across kinds");
        assert!(shell(src(&[], 0, &["w"], &["x", "y"])), "unknown");
        assert!(shell(src(&["x"], 2, &[], &["y", "z"])), "more doubled counters than counters");
        assert!(cfg_field::<64, 32>(&layout(), "w").is_err());
    }

    crate::declare_block! {
        /// The smallest core: a shell with config register `a` (its low 8 bits on `a_out`) and a counter.
        #[derive(LogicBlock)]
        pub struct TinyCore fn build(shell: CoreShell<32, 32>, cfg_a: Slice<32, 8>) with csr_port {
            pub clock: Signal<In, Clock>,
            pub reset: Signal<In, bool>,
            pub ev: Signal<In, bool>,
            pub a_out: Signal<Out, Bits<8>>,
            shell: CoreShell<32, 32> = shell,
            cfg_a: Slice<32, 8> = cfg_a,
        }
    }

    impl Logic for TinyCore {
        crate::core_update! {
            cfg(cfg_a)
            #[hdl_gen]
            fn update(&mut self) {
                clock!(self, clock, shell);
                self.a_out.next = self.cfg_a.out.val();
                self.shell.count[0].next = self.ev.val();
            }
        }
    }

    /// `core_update!` wires the flat CSR pins, the reset and the named config field: a write through the
    /// pins reaches `a_out`, events reach the counter read back through the pins, a reset clears both —
    /// in simulation, and the same statements are in the generated Verilog.
    #[test]
    fn core_update_wires_the_pins_the_reset_and_the_config_fields() {
        let layout = CsrLayout::new(vec![("a".into(), 1)], vec!["c".into()]);
        let (a_addr, c_addr) = (layout.config_addr("a").unwrap(), layout.status_addr("c").unwrap());
        let shell = CoreShell::<32, 32>::new(layout.clone(), &src(&["c"], 0, &[], &[])).unwrap();
        let mut uut = TinyCore::build(shell, cfg_field(&layout, "a").unwrap());
        uut.connect_all();
        rust_hdl::core::check_error::check_all(&uut).expect("a well-formed core");
        let v = generate_verilog(&uut);
        for line in ["shell$csr$wr_data = csr_wr_data;", "csr_rd_data = shell$csr$rd_data;", "cfg_a$din = shell$cfg;"] {
            assert!(v.contains(line), "`{line}` missing from\n{v}");
        }
        let mut sim = Simulation::new();
        sim.add_clock(5, |x: &mut Box<TinyCore>| x.clock.next = !x.clock.val());
        sim.add_testbench(move |mut sim: Sim<TinyCore>| {
            let mut x = sim.init()?;
            x.reset.next = true;
            wait_clock_cycle!(sim, clock, x);
            x.reset.next = false;
            x.csr_addr.next = Bits::from(a_addr as u64);
            x.csr_wr_data.next = Bits::from(0x1A5u64);
            x.csr_wr_en.next = true;
            x.ev.next = true;
            wait_clock_cycle!(sim, clock, x);
            x.csr_wr_en.next = false;
            wait_clock_cycle!(sim, clock, x);
            sim_assert_eq!(sim, x.a_out.val().to_u32(), 0xA5, x);
            x.ev.next = false;
            x.csr_addr.next = Bits::from(c_addr as u64);
            x.csr_rd_en.next = true;
            wait_clock_cycle!(sim, clock, x);
            sim_assert_eq!(sim, x.csr_rd_valid.val(), true, x);
            sim_assert_eq!(sim, x.csr_rd_data.val().to_u32(), 2, x);
            x.csr_rd_en.next = false;
            x.reset.next = true;
            wait_clock_cycle!(sim, clock, x);
            x.reset.next = false;
            x.csr_rd_en.next = true;
            wait_clock_cycle!(sim, clock, x);
            sim_assert_eq!(sim, x.csr_rd_data.val().to_u32(), 0, x);
            sim.done(x)
        });
        sim.run(Box::new(uut), 10_000).unwrap();
    }

    /// A shell with two counters (the first doubled), a flag and a word, driven by a random stream of
    /// events and resets in rust-hdl's simulator; every register is read back through the CSR port and
    /// compared with a plain count of the events (reads one cycle after the request, as the bank answers).
    #[test]
    fn counters_flags_and_words_read_back_through_the_csr_port() {
        let layout = CsrLayout::new(vec![("a".into(), 1)], vec!["w".into(), "c0".into(), "f".into(), "c1".into()]);
        let mut uut = CoreShell::<32, 128>::new(layout.clone(), &src(&["c0", "c1"], 1, &["f"], &["w"])).unwrap();
        uut.connect_all();
        rust_hdl::core::check_error::check_all(&uut).expect("a well-formed shell");
        let addr = |name: &str| CSR_STATUS_BASE as u64 + layout.status.iter().position(|n| n == name).unwrap() as u64;
        let regs = [addr("c0"), addr("c1"), addr("f"), addr("w")];
        let mut sim = Simulation::new();
        sim.add_clock(5, |x: &mut Box<CoreShell<32, 128>>| x.clock.next = !x.clock.val());
        sim.add_testbench(move |mut sim: Sim<CoreShell<32, 128>>| {
            let mut x = sim.init()?;
            let mut rng = SmallRng::seed_from_u64(0x2545_f491_4f6c_dd1d);
            let (mut c0, mut c1) = (0u32, 0u32);
            for cycle in 0..3000u32 {
                let r: u64 = rng.gen();
                let reset = cycle == 0 || r % 97 == 0;
                let (e0, e0b, e1, flag) = (r & 2 != 0, r & 4 != 0, r & 8 != 0, r & 16 != 0);
                let word = (r >> 32) as u32;
                x.reset.next = reset;
                x.count[0].next = e0;
                x.count2[0].next = e0b;
                x.count[1].next = e1;
                x.flag[0].next = flag;
                x.status[0].next = Bits::from(word as u64);
                let k = (r >> 8) as usize % 4;
                x.csr.addr.next = Bits::from(regs[k]);
                x.csr.rd_en.next = true;
                x.csr.wr_en.next = false;
                x.csr.wr_data.next = Bits::default();
                // The value the read issued this cycle must return: the state before this cycle's events.
                let expect = [c0, c1, flag as u32, word][k];
                wait_clock_cycle!(sim, clock, x);
                sim_assert_eq!(sim, x.csr.rd_valid.val(), !reset, x);
                if !reset {
                    sim_assert_eq!(sim, x.csr.rd_data.val().to_u32(), expect, x);
                }
                if reset {
                    (c0, c1) = (0, 0);
                } else {
                    c0 = c0.wrapping_add(e0 as u32 + e0b as u32);
                    c1 = c1.wrapping_add(e1 as u32);
                }
            }
            sim.done(x)
        });
        sim.run(Box::new(uut), 100_000).unwrap();
    }
}
