//! Read-only memory (`Rom<A, W>`): 2^A words of W ≤ 128 bits with contents fixed at generation time
//! (e.g. a table computed by the golden model), read as a generation parameter says ([`RomRead`]):
//! registered (`data` shows `mem[addr]` one cycle after `addr`: block RAM) or combinational in logic
//! (`data` is `mem[addr]` in the same cycle, `rom_style = "logic"`: a small table read between two
//! registers of the caller's). The Verilog carries the contents as an `initial` block, which Verilator
//! executes and Yosys maps into block-RAM initialisation or LUTs; the read register itself has an initial
//! value only in the synthesis flavour (see [`super::reg`]).

use super::reg::initial_values;
use rust_hdl::prelude::*;
use std::fmt::Write as _;

/// How a [`Rom`] is read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RomRead {
    /// `data` one cycle after `addr` (block RAM; the clock is used).
    Registered,
    /// `data` from `addr` in the same cycle, in LUTs (the clock is not used).
    Logic,
}

#[derive(LogicBlock)]
pub struct Rom<const A: usize, const W: usize> {
    pub clock: Signal<In, Clock>,
    pub addr: Signal<In, Bits<A>>,
    pub data: Signal<Out, Bits<W>>,
    _mem: Vec<u128>,
    _read: RomRead,
}

impl<const A: usize, const W: usize> Rom<A, W> {
    /// A ROM holding `contents` (missing words are zero; extra words and bits above W are an error), read
    /// through a register.
    pub fn new(contents: &[u128]) -> Result<Self, String> {
        Self::with_read(contents, RomRead::Registered)
    }
    /// A ROM holding `contents`, read as `read` says.
    pub fn with_read(contents: &[u128], read: RomRead) -> Result<Self, String> {
        if W > 128 || contents.len() > 1 << A || contents.iter().any(|w| W < 128 && w >> W != 0) {
            return Err(format!("ROM of 2^{A} × {W} bits cannot hold {} words of these values", contents.len()));
        }
        let mut mem = contents.to_vec();
        mem.resize(1 << A, 0);
        Ok(Rom {
            clock: Default::default(),
            addr: Default::default(),
            data: Default::default(),
            _mem: mem,
            _read: read,
        })
    }
}

impl<const A: usize, const W: usize> Logic for Rom<A, W> {
    fn update(&mut self) {
        if self._read == RomRead::Logic || self.clock.pos_edge() {
            let w = self._mem[self.addr.val().index()];
            self.data.next = Bits::<W>::from(num_bigint::BigUint::from(w));
        }
    }
    fn connect(&mut self) {
        self.data.connect();
    }
    fn hdl(&self) -> Verilog {
        let style = if self._read == RomRead::Logic { "(* rom_style = \"logic\" *) " } else { "" };
        let mut v = format!("{style}reg [{}:0] mem [0:{}];\ninitial begin\n", W - 1, (1usize << A) - 1);
        for (i, w) in self._mem.iter().enumerate() {
            let _ = writeln!(v, "   mem[{i}] = {W}'h{w:x};");
        }
        if self._read == RomRead::Logic {
            // The clock is not used (named for Verilator's `--unused-regexp`, as the blocks' `unused_*`).
            v.push_str("end\nwire unused_clock;\nassign unused_clock = clock;\nalways @(*) data = mem[addr];\n");
            return Verilog::Custom(v);
        }
        if initial_values() {
            v.push_str("   data = 0;\n");
        }
        v.push_str("end\nalways @(posedge clock) data <= mem[addr];\n");
        Verilog::Custom(v)
    }
    fn timing(&self) -> Vec<TimingInfo> {
        if self._read == RomRead::Logic {
            return vec![];
        }
        vec![TimingInfo {
            name: "rom".into(),
            clock: "clock".into(),
            inputs: vec!["addr".into()],
            outputs: vec!["data".into()],
        }]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Both read modes return every word: the logic one in the cycle of its address, the registered one a
    /// clock edge later (rust-hdl's simulator, addresses in descending order so each word differs from the
    /// one before).
    #[test]
    fn both_read_modes_return_the_contents() {
        let words: Vec<u128> = (0..16u128).map(|i| (i * 0x9e37_79b9) & 0xffff_ffff).collect();
        for read in [RomRead::Registered, RomRead::Logic] {
            let mut uut = Rom::<4, 32>::with_read(&words, read).unwrap();
            uut.connect_all();
            let mut sim = Simulation::new();
            sim.add_clock(5, |x: &mut Box<Rom<4, 32>>| x.clock.next = !x.clock.val());
            let words = words.clone();
            sim.add_testbench(move |mut sim: Sim<Rom<4, 32>>| {
                let mut x = sim.init()?;
                for i in (0..16usize).rev() {
                    x.addr.next = Bits::from(i as u64);
                    x = sim.wait(1, x)?;
                    let now = x.data.val().to_u64() as u128;
                    if read == RomRead::Logic {
                        sim_assert_eq!(sim, now, words[i], x);
                    } else if i < 15 {
                        // Still the word of the address before.
                        sim_assert_eq!(sim, now, words[i + 1], x);
                    }
                    wait_clock_cycle!(sim, clock, x);
                    sim_assert_eq!(sim, x.data.val().to_u64() as u128, words[i], x);
                }
                sim.done(x)
            });
            sim.run(Box::new(uut), 1000).unwrap();
        }
    }

    /// The logic flavour asks Yosys for LUTs and has no clocked read.
    #[test]
    fn logic_read_is_combinational_in_verilog() {
        let rom = Rom::<2, 8>::with_read(&[1, 2, 3, 4], RomRead::Logic).unwrap();
        let Verilog::Custom(v) = rom.hdl() else { panic!("custom Verilog") };
        assert!(v.contains("(* rom_style = \"logic\" *)") && v.contains("always @(*) data = mem[addr];"), "{v}");
        assert!(!v.contains("posedge"), "{v}");
        let rom = Rom::<2, 8>::new(&[1, 2, 3, 4]).unwrap();
        let Verilog::Custom(v) = rom.hdl() else { panic!("custom Verilog") };
        assert!(v.contains("always @(posedge clock) data <= mem[addr];") && !v.contains("rom_style"), "{v}");
    }
}
