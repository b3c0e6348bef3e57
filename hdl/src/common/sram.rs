//! SRAM register file (`Sram<A, W>`): 2^A words of W bits, dual- or single-port, registered read data,
//! zero-initialised in the Verilog for simulators (not under `SYNTHESIS`, see `Sram::hdl`) and swept to zero
//! after reset. Model: `golden::common::sram`.
//!
//! Ports: `raddr` (read address, data in `rdata` one cycle later), `we`/`waddr`/`wdata` (write at the
//! edge), `busy` (high while the post-reset sweep owns the write port; writes are ignored then).
//! Read-during-write to one address returns an undefined word: the array is marked `(* no_rw_check *)`
//! so Yosys adds no bypass logic and may use any block-RAM mode; users forward around it themselves (see
//! `rmw`, `fifo`). The co-simulation flavour (no initial values) makes that word `x`, which Verilator's
//! `--x-assign unique` turns into random bits, so a user that relied on it fails its test.
//! Single-port: one address per cycle, `waddr` when writing, else `raddr`.

use super::reg::initial_values;
use golden::common::sram::RamPorts;
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
    _sweep: bool,
    _mem: Vec<Bits<W>>,
    _sweep_addr: usize,
}

impl<const A: usize, const W: usize> Sram<A, W> {
    /// A RAM of the given port structure; `sweep` = clear every word after reset.
    pub fn new(ports: RamPorts, sweep: bool) -> Self {
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
            _sweep: sweep,
            _mem: vec![Bits::default(); 1 << A],
            _sweep_addr: 0,
        }
    }
}

impl<const A: usize, const W: usize> Logic for Sram<A, W> {
    fn update(&mut self) {
        if self.clock.pos_edge() {
            let busy = self.busy.val();
            let we = !self.reset.val() && (busy || self.we.val());
            let (wa, wd) = if busy {
                (self._sweep_addr, Bits::default())
            } else {
                (self.waddr.val().index(), self.wdata.val())
            };
            let ra = if self._ports == RamPorts::Single && we { wa } else { self.raddr.val().index() };
            self.rdata.next = self._mem[ra];
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
        let sweep = if self._sweep {
            "always @(posedge clock) begin\n   if (reset) begin\n      busy <= 1'b1;\n      sweep_addr <= 0;\n   end else if (busy) begin\n      sweep_addr <= sweep_addr + 1'b1;\n      if (&sweep_addr) busy <= 1'b0;\n   end\nend\n"
        } else {
            "always @(posedge clock) begin\n   busy <= 1'b0;\n   sweep_addr <= 0;\nend\n"
        };
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
(* no_rw_check *)\nreg [W-1:0] mem [0:DEPTH-1];\nreg [A-1:0] sweep_addr;\n{init}\
wire we_eff = !reset && (busy || we);\nwire [A-1:0] waddr_eff = busy ? sweep_addr : waddr;\n\
wire [W-1:0] wdata_eff = busy ? {{W{{1'b0}}}} : wdata;\n{sweep}{access}"
        ))
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
