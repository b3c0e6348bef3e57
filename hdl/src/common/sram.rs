//! SRAM register file (`Sram<A, W>`): 2^A words of W bits, dual- or single-port, registered read data,
//! zero-initialised in the Verilog for simulators (not under `SYNTHESIS`, see `Sram::hdl`) and swept to zero
//! after reset. Model: `golden::common::sram`.
//!
//! Ports: `raddr` (read address, data in `rdata` one cycle later; four with `Registered` timing, below),
//! `we`/`waddr`/`wdata` (write at the
//! edge), `busy` (high while the post-reset sweep owns the write port; writes are ignored then).
//! Read-during-write to one address returns an undefined word: the array is marked `(* no_rw_check *)`
//! so Yosys adds no bypass logic and may use any block-RAM mode; users forward around it themselves (see
//! `rmw`, `fifo`). The co-simulation flavour (no initial values) makes that word `x`, which Verilator's
//! `--x-assign unique` turns into random bits, so a user that relied on it fails its test.
//! Single-port: one address per cycle, `waddr` when writing, else `raddr`.
//!
//! Timing is a generation parameter ([`RamTiming`], model and rationale in `golden::common::sram`):
//! `Short` is the block above (one array, read data from the block RAM's own register). `Registered`
//! splits the array into banks of `2^bank_addr_bits` words; each bank has its own address and write-enable
//! registers and a fabric register right after its block RAMs. The address registers carry `keep`, but
//! Yosys merges registers with identical inputs anyway (`opt_merge` honours `keep` on cells only): the
//! dual-port banks' read and write address registers end up as one each, the single-port ones (address
//! chosen per bank before its register) and the write enables stay per bank. A bank-select delay line
//! picks the bank whose word goes into the `rdata` register. Read data arrives four cycles after the
//! address; a read still sees every write presented in an earlier cycle (both ports gained one register).
//! With `NETMEAS_ECP5` defined (ECP5 synthesis), a bank of 2^10..=2^14 words instantiates DP16KDs whose
//! own output register is the bank register ([`super::sram_ecp5`]); otherwise the bank is inferred.

use super::reg::initial_values;
use super::sram_ecp5;
use golden::common::sram::{RamPorts, RamTiming};
use rust_hdl::prelude::*;

#[derive(LogicBlock)]
pub struct Sram<const A: usize, const W: usize> {
    pub clock: Signal<In, Clock>,
    pub reset: Signal<In, bool>,
    pub raddr: Signal<In, Bits<A>>,
    pub rdata: Signal<Out, Bits<W>>,
    pub we: Signal<In, bool>,
    pub waddr: Signal<In, Bits<A>>,
    pub wdata: Signal<In, Bits<W>>,
    pub busy: Signal<Out, bool>,
    _ports: RamPorts,
    _timing: RamTiming,
    _sweep: bool,
    _mem: Vec<Bits<W>>,
    _sweep_addr: usize,
    /// Registered timing: read words on their way to `rdata` (the simulation model's delay line).
    _read_pipe: Vec<Bits<W>>,
}

impl<const A: usize, const W: usize> Sram<A, W> {
    /// A RAM of the given port structure; `sweep` = clear every word after reset.
    pub fn new(ports: RamPorts, sweep: bool) -> Self {
        Self::with_timing(ports, RamTiming::Short, sweep)
    }
    /// A RAM of the given port structure and timing (`Registered` bank size clamped to `1..=A`).
    pub fn with_timing(ports: RamPorts, timing: RamTiming, sweep: bool) -> Self {
        let timing = match timing {
            RamTiming::Registered { bank_addr_bits } => {
                RamTiming::Registered { bank_addr_bits: bank_addr_bits.clamp(1, A) }
            }
            t => t,
        };
        Sram {
            clock: Default::default(),
            reset: Default::default(),
            raddr: Default::default(),
            rdata: Default::default(),
            we: Default::default(),
            waddr: Default::default(),
            wdata: Default::default(),
            busy: Default::default(),
            _ports: ports,
            _timing: timing,
            _sweep: sweep,
            _mem: vec![Bits::default(); 1 << A],
            _sweep_addr: 0,
            _read_pipe: vec![Bits::default(); timing.read_latency() - 1],
        }
    }
}

impl<const A: usize, const W: usize> Logic for Sram<A, W> {
    fn update(&mut self) {
        if self.clock.pos_edge() {
            let busy = self.busy.val();
            let we = !self.reset.val() && (busy || self.we.val());
            let (wa, wd) =
                if busy { (self._sweep_addr, Bits::default()) } else { (self.waddr.val().index(), self.wdata.val()) };
            let ra = if self._ports == RamPorts::Single && we { wa } else { self.raddr.val().index() };
            self._read_pipe.push(self._mem[ra]);
            self.rdata.next = self._read_pipe.remove(0);
            if we {
                self._mem[wa] = wd;
            }
            if self.reset.val() && self._sweep {
                self.busy.next = true;
                self._sweep_addr = 0;
            } else if busy {
                self.busy.next = self._sweep_addr + 1 < (1 << A);
                self._sweep_addr += 1;
            }
        }
    }
    fn connect(&mut self) {
        self.rdata.connect();
        self.busy.connect();
    }
    fn hdl(&self) -> Verilog {
        match self._timing {
            RamTiming::Short => self.short_hdl(),
            RamTiming::Registered { bank_addr_bits } => self.registered_hdl(bank_addr_bits),
        }
    }
    fn timing(&self) -> Vec<TimingInfo> {
        vec![TimingInfo {
            name: "sram".into(),
            clock: "clock".into(),
            inputs: vec!["raddr".into(), "we".into(), "waddr".into(), "wdata".into(), "reset".into()],
            outputs: vec!["rdata".into(), "busy".into()],
        }]
    }
}

impl<const A: usize, const W: usize> Sram<A, W> {
    /// The sweep: `busy` and `sweep_addr` after reset (or constant idle without a sweep).
    fn sweep_hdl(&self) -> &'static str {
        if self._sweep {
            "always @(posedge clock) begin\n   if (reset) begin\n      busy <= 1'b1;\n      sweep_addr <= 0;\n   end else if (busy) begin\n      sweep_addr <= sweep_addr + 1'b1;\n      if (&sweep_addr) busy <= 1'b0;\n   end\nend\n"
        } else {
            "always @(posedge clock) begin\n   busy <= 1'b0;\n   sweep_addr <= 0;\nend\n"
        }
    }

    /// The effective write port (the sweep's zero writes while busy, nothing in a reset cycle).
    const WRITE_PORT: &'static str =
        "wire we_eff = !reset && (busy || we);\nwire [A-1:0] waddr_eff = busy ? sweep_addr : waddr;\n\
wire [W-1:0] wdata_eff = busy ? {W{1'b0}} : wdata;\n";

    fn short_hdl(&self) -> Verilog {
        let depth = 1usize << A;
        // The array's zero-init loop is for simulators only (`ifndef SYNTHESIS`; Yosys defines SYNTHESIS,
        // Verilator does not): Yosys' frontend unrolls it word by word and does not finish a 2^16-word
        // table in 5 minutes (0.23 and 0.70), while FPGA block and LUT RAM power up zero anyway (ECP5
        // DP16KD `INITVAL_*` default) and the reset sweep clears every word. Registers keep their values.
        let init = if initial_values() {
            "`ifndef SYNTHESIS\ninteger i;\ninitial for (i = 0; i < DEPTH; i = i + 1) mem[i] = 0;\n`endif\n\
initial begin\n   rdata = 0;\n   busy = 0;\n   sweep_addr = 0;\nend\n"
        } else {
            ""
        };
        let sweep = self.sweep_hdl();
        let write = Self::WRITE_PORT;
        // Read data: the word, or in the co-simulation flavour `x` when the same address is written.
        let read = match (self._ports, initial_values()) {
            (RamPorts::Dual, true) => "mem[raddr]",
            (RamPorts::Dual, false) => "(we_eff && waddr_eff == raddr) ? {W{1'bx}} : mem[raddr]",
            (RamPorts::Single, true) => "mem[addr]",
            (RamPorts::Single, false) => "we_eff ? {W{1'bx}} : mem[addr]",
        };
        let access = match self._ports {
            RamPorts::Dual => format!(
                "always @(posedge clock) begin\n   if (we_eff) mem[waddr_eff] <= wdata_eff;\n   rdata <= {read};\nend\n"
            ),
            RamPorts::Single => format!(
                "wire [A-1:0] addr = we_eff ? waddr_eff : raddr;\nalways @(posedge clock) begin\n   if (we_eff) mem[addr] <= wdata_eff;\n   rdata <= {read};\nend\n"
            ),
        };
        Verilog::Custom(format!(
            "localparam A = {A};\nlocalparam W = {W};\nlocalparam DEPTH = {depth};\n\
(* no_rw_check *)\nreg [W-1:0] mem [0:DEPTH-1];\nreg [A-1:0] sweep_addr;\n{init}{write}{sweep}{access}"
        ))
    }

    /// The registered block: banks of `2^ba` words (see the module docs).
    fn registered_hdl(&self, ba: usize) -> Verilog {
        let nb = 1usize << (A - ba);
        // Initial values: the inferred flavour's (the words, `ra`, `wen`, `wd`, `q`, `q2`), and the ECP5
        // flavour's registers (its words live in the DP16KDs).
        let (init, init_ecp5) = if initial_values() {
            (
                "`ifndef SYNTHESIS\ninteger i;\ninitial for (i = 0; i < BDEPTH; i = i + 1) mem[i] = 0;\n`endif\n\
initial begin\n   ra = 0;\n   wen = 0;\n   wd = 0;\n   q = 0;\n   q2 = 0;\nend\n",
                "initial begin\n   ra = 0;\n   wen = 0;\n   wd = 0;\nend\n",
            )
        } else {
            ("", "")
        };
        let top_init =
            if initial_values() { "initial begin\n   rdata = 0;\n   busy = 0;\n   sweep_addr = 0;\nend\n" } else { "" };
        // One bank: the write enable for its own addresses, and in the co-simulation flavour `x` for a read
        // of the word written in the same cycle.
        let bank_we = if nb == 1 { "we_eff" } else { "we_eff && waddr_eff[A-1:BA] == BANK" };
        let bank_id = if nb == 1 { "" } else { "   localparam [A-BA-1:0] BANK = g;\n" };
        // Single-port: the port's one address is chosen before its register (`ra` then holds the write
        // address in a writing cycle), so no logic sits between the register and the block RAMs.
        let (wa_decl, wa_next) = match (self._ports, initial_values()) {
            (RamPorts::Dual, false) => ("   (* keep *) reg [BA-1:0] wa;\n", "      wa <= waddr_eff[BA-1:0];\n"),
            (RamPorts::Dual, true) => {
                ("   (* keep *) reg [BA-1:0] wa;\n   initial wa = 0;\n", "      wa <= waddr_eff[BA-1:0];\n")
            }
            (RamPorts::Single, _) => ("", ""),
        };
        let (ra_next, rd_addr, wr_addr, collide) = match self._ports {
            RamPorts::Dual => ("raddr[BA-1:0]".to_string(), "ra", "wa", "wen && wa == ra"),
            RamPorts::Single => (format!("({bank_we}) ? waddr_eff[BA-1:0] : raddr[BA-1:0]"), "ra", "ra", "wen"),
        };
        let read = if initial_values() {
            format!("mem[{rd_addr}]")
        } else {
            format!("({collide}) ? {{W{{1'bx}}}} : mem[{rd_addr}]")
        };
        // The bank select, three cycles behind the address (aligned with the bank registers); none for one bank.
        let (sel_decl, sel_regs, sel) = if nb == 1 {
            (String::new(), String::new(), "0")
        } else {
            let init =
                if initial_values() { "initial begin\n   rsel1 = 0;\n   rsel2 = 0;\n   rsel3 = 0;\nend\n" } else { "" };
            (
                format!("reg [A-BA-1:0] rsel1, rsel2, rsel3;\n{init}"),
                "   rsel1 <= raddr[A-1:BA];\n   rsel2 <= rsel1;\n   rsel3 <= rsel2;\n".to_string(),
                "rsel3",
            )
        };
        // The words: inferred (`mem`, its read register `q`, the bank register `q2`), or with `NETMEAS_ECP5`
        // defined the DP16KD flavour whose output register is `q2` (see `sram_ecp5`). The ECP5 parts are
        // interleaved as `ifdef`s so that the inferred flavour, once preprocessed, is token for token the
        // block without them (its synthesis results stay reproducible).
        let tiles = sram_ecp5::bank_tiles(ba, W, wr_addr, rd_addr);
        let d = sram_ecp5::DEFINE;
        let ifdef = |on: &str, off: &str| match (&tiles, on.is_empty(), off.is_empty()) {
            (None, _, _) => off.to_string(),
            (Some(_), true, _) => format!("`ifndef {d}\n{off}`endif\n"),
            (Some(_), false, true) => format!("`ifdef {d}\n{on}`endif\n"),
            (Some(_), false, false) => format!("`ifdef {d}\n{on}`else\n{off}`endif\n"),
        };
        let tile_var = ifdef("genvar t;\n", "");
        let words_decl = ifdef("", "   (* no_rw_check *) reg [W-1:0] mem [0:BDEPTH-1];\n   reg [W-1:0] q, q2;\n");
        let init = ifdef(init_ecp5, init);
        let words_rw = ifdef("", &format!("      if (wen) mem[{wr_addr}] <= wd;\n      q <= {read};\n      q2 <= q;\n"));
        let words_out = ifdef(tiles.as_deref().unwrap_or(""), "   assign bank_q[g] = q2;\n");
        Verilog::Custom(format!(
            "localparam A = {A};\nlocalparam W = {W};\nlocalparam BA = {ba};\nlocalparam NB = {nb};\n\
reg [A-1:0] sweep_addr;\n{sel_decl}wire [W-1:0] bank_q [0:NB-1];\n{top_init}{write}{sweep}\
always @(posedge clock) begin\n{sel_regs}   rdata <= bank_q[{sel}];\nend\n\
genvar g;\n{tile_var}generate for (g = 0; g < NB; g = g + 1) begin : bank\n\
   localparam BDEPTH = 1 << BA;\n{bank_id}   (* keep *) reg [BA-1:0] ra;\n   (* keep *) reg wen;\n{wa_decl}\
   reg [W-1:0] wd;\n{words_decl}{init}\
   always @(posedge clock) begin\n      ra <= {ra_next};\n      wen <= {bank_we};\n{wa_next}\
      wd <= wdata_eff;\n{words_rw}   end\n{words_out}end\nendgenerate\n",
            write = Self::WRITE_PORT,
            sweep = self.sweep_hdl(),
        ))
    }
}
