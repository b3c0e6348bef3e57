//! AXI4-Lite slave in front of a CSR bank (`AxilCsr`): the bus side of a core used as IP.
//!
//! The slave turns AXI4-Lite transactions (32-bit data, byte strobes, a 1 KiB window: byte address
//! `4k` is CSR address `k`, address bits 1:0 are ignored) into requests on the core's native CSR port
//! (`golden::common::csr`: 8-bit address, write strobe, read strobe answered one cycle later). Signal names
//! and reset follow verilog-ethernet/corundum: `s_axil_*`, synchronous active-high reset. There is no
//! `awprot`/`arprot`: protection bits would be ignored, so the slave does not take them.
//!
//! # Behaviour (cycle model [`AxilCsrModel`], the RTL's specification)
//! - **Channels.** Each address/data channel has a one-entry holding register; its `ready` is "the register
//!   is empty", a registered value, so a master may present `valid` in any order on AW, W and AR and the
//!   slave takes each beat in the cycle it sees it. `bvalid`/`rvalid` are registers that stay high until
//!   `bready`/`rready`.
//! - **Engine.** One transaction at a time runs on the CSR port. A write runs when its AW and W beats are
//!   both held and no B response is waiting; a read when its AR beat is held and no R response is waiting.
//!   When both could run, the one that did not run last goes first (round robin), so neither starves.
//! - **Writes.** A write to a config register with all four strobes set is one CSR write (the response is
//!   `OKAY` in the next cycle). With fewer strobes the slave reads the register first and writes back the
//!   merged word (strobed bytes from `wdata`, the others kept), two cycles later: byte writes are exact
//!   because only this port writes config registers. A write to a read-only (status, identity) or an
//!   unmapped address changes nothing and answers `SLVERR`.
//! - **Reads.** Every read is a CSR read; `rdata` is what the bank returned (unmapped addresses read
//!   `CSR_UNMAPPED`), `rresp` is `OKAY` for a mapped register and `SLVERR` for an unmapped one.
//! - **Throughput.** A full-strobe write every two cycles, a read every four (CSR traffic is control-plane
//!   traffic; the packet path never waits for it).
//! - **Reset.** Clears the holding registers and responses: transactions in flight are dropped, as AXI
//!   requires of both sides of a reset.

use super::config::{CSR_ID_ADDR, CSR_STATUS_BASE, CSR_VERSION_ADDR};
use super::csr::CsrLayout;

/// Byte-address bits of the window (256 registers of 4 bytes).
pub const AXIL_ADDR_BITS: usize = 10;
/// `bresp`/`rresp`: success.
pub const RESP_OKAY: u8 = 0b00;
/// `bresp`/`rresp`: slave error (write to a read-only or unmapped register, read of an unmapped one).
pub const RESP_SLVERR: u8 = 0b10;

/// The engine's state.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Op {
    /// No CSR transaction in flight.
    Idle = 0,
    /// A read waits for the bank's answer.
    Read = 1,
    /// A partial-strobe write waits for the register's old value.
    Merge = 2,
}

/// Which addresses a layout maps, as the slave decodes them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AxilDecode {
    /// Config registers: addresses `0..config`.
    pub config: u8,
    /// Status registers: addresses `CSR_STATUS_BASE..CSR_STATUS_BASE + status`.
    pub status: u8,
    /// Identity registers at `CSR_ID_ADDR` and `CSR_VERSION_ADDR`.
    pub ident: bool,
}

impl AxilDecode {
    pub fn of(layout: &CsrLayout) -> Self {
        AxilDecode {
            config: layout.config.len() as u8,
            status: layout.status.len() as u8,
            ident: layout.ident.is_some(),
        }
    }
    /// A write to CSR address `a` takes effect.
    pub fn writable(&self, a: u8) -> bool {
        a < self.config
    }
    /// A read of CSR address `a` returns a register.
    pub fn readable(&self, a: u8) -> bool {
        let status = a >= CSR_STATUS_BASE && (a - CSR_STATUS_BASE) < self.status;
        self.writable(a) || status || (self.ident && (a == CSR_ID_ADDR || a == CSR_VERSION_ADDR))
    }
}

/// The CSR address of AXI byte address `addr` (bits 9:2).
pub fn csr_addr_of(addr: u16) -> u8 {
    (addr >> 2) as u8
}

/// `old` with the bytes whose `strb` bit is set replaced by those of `data`.
pub fn merge_bytes(old: u32, data: u32, strb: u8) -> u32 {
    let mask = (0..4).filter(|b| strb >> b & 1 == 1).fold(0u32, |m, b| m | 0xFF << (8 * b));
    (old & !mask) | (data & mask)
}

/// One cycle's inputs: the five AXI4-Lite channels' master-driven signals and the CSR port's answer.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct AxilInputs {
    pub reset: bool,
    pub awvalid: bool,
    pub awaddr: u16,
    pub wvalid: bool,
    pub wdata: u32,
    pub wstrb: u8,
    pub bready: bool,
    pub arvalid: bool,
    pub araddr: u16,
    pub rready: bool,
    pub csr_rd_valid: bool,
    pub csr_rd_data: u32,
}

/// The bus signals a master drives, as the slave's port suffixes (`s_axil_<signal>`), in the order of
/// [`AxilInputs::bus_values`].
pub const MASTER_SIGNALS: [&str; 9] =
    ["awvalid", "awaddr", "wvalid", "wdata", "wstrb", "bready", "arvalid", "araddr", "rready"];

/// The bus signals the slave answers with, in the order of [`AxilOutputs::bus_values`] and
/// [`AxilOutputs::from_bus_values`].
pub const SLAVE_SIGNALS: [&str; 8] = ["awready", "wready", "bvalid", "bresp", "arready", "rvalid", "rdata", "rresp"];

impl AxilInputs {
    /// The master's bus signals ([`MASTER_SIGNALS`] order).
    pub fn bus_values(&self) -> [u64; 9] {
        let b = |x: bool| x as u64;
        [
            b(self.awvalid),
            self.awaddr as u64,
            b(self.wvalid),
            self.wdata as u64,
            self.wstrb as u64,
            b(self.bready),
            b(self.arvalid),
            self.araddr as u64,
            b(self.rready),
        ]
    }
}

impl AxilOutputs {
    /// The slave's bus signals ([`SLAVE_SIGNALS`] order).
    pub fn bus_values(&self) -> [u64; 8] {
        let b = |x: bool| x as u64;
        let (o, r) = (self, self.rdata as u64);
        [b(o.awready), b(o.wready), b(o.bvalid), o.bresp as u64, b(o.arready), b(o.rvalid), r, o.rresp as u64]
    }
    /// Outputs with the slave's bus signals `v` ([`SLAVE_SIGNALS`] order; the CSR side at its defaults).
    pub fn from_bus_values(v: [u64; 8]) -> AxilOutputs {
        AxilOutputs {
            awready: v[0] != 0,
            wready: v[1] != 0,
            bvalid: v[2] != 0,
            bresp: v[3] as u8,
            arready: v[4] != 0,
            rvalid: v[5] != 0,
            rdata: v[6] as u32,
            rresp: v[7] as u8,
            ..Default::default()
        }
    }
}

/// One cycle's outputs (all registered: `rdata`/`rresp` and `bresp` keep their last values while the
/// response is not valid).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct AxilOutputs {
    pub awready: bool,
    pub wready: bool,
    pub bvalid: bool,
    pub bresp: u8,
    pub arready: bool,
    pub rvalid: bool,
    pub rdata: u32,
    pub rresp: u8,
    pub csr_addr: u8,
    pub csr_wr_en: bool,
    pub csr_wr_data: u32,
    pub csr_rd_en: bool,
}

/// Cycle model of the slave (see the [module docs](self)).
#[derive(Debug, Clone)]
pub struct AxilCsrModel {
    decode: AxilDecode,
    aw: Option<u8>,
    w: Option<(u32, u8)>,
    ar: Option<u8>,
    b_valid: bool,
    b_resp: u8,
    r_valid: bool,
    r_data: u32,
    r_resp: u8,
    op: Op,
    /// The last transaction the engine started was a write (a read goes first on a tie).
    last_write: bool,
    csr_addr: u8,
    csr_wr_en: bool,
    csr_wr_data: u32,
    csr_rd_en: bool,
    started: bool,
}

impl AxilCsrModel {
    pub fn new(layout: &CsrLayout) -> Self {
        Self::with_decode(AxilDecode::of(layout))
    }
    fn with_decode(decode: AxilDecode) -> Self {
        AxilCsrModel {
            decode,
            aw: None,
            w: None,
            ar: None,
            b_valid: false,
            b_resp: RESP_OKAY,
            r_valid: false,
            r_data: 0,
            r_resp: RESP_OKAY,
            op: Op::Idle,
            last_write: false,
            csr_addr: 0,
            csr_wr_en: false,
            csr_wr_data: 0,
            csr_rd_en: false,
            started: false,
        }
    }
    /// The engine's state now.
    pub fn op(&self) -> Op {
        self.op
    }
    /// Outputs during this cycle (`None` before the first reset): all registered, so known before the inputs.
    pub fn outputs(&self) -> Option<AxilOutputs> {
        self.started.then(|| AxilOutputs {
            awready: self.aw.is_none(),
            wready: self.w.is_none(),
            bvalid: self.b_valid,
            bresp: self.b_resp,
            arready: self.ar.is_none(),
            rvalid: self.r_valid,
            rdata: self.r_data,
            rresp: self.r_resp,
            csr_addr: self.csr_addr,
            csr_wr_en: self.csr_wr_en,
            csr_wr_data: self.csr_wr_data,
            csr_rd_en: self.csr_rd_en,
        })
    }
    /// Outputs during this cycle (`None` before the first reset), then the edge.
    pub fn step(&mut self, i: &AxilInputs) -> Option<AxilOutputs> {
        let out = self.outputs();
        if i.reset {
            *self = AxilCsrModel { started: true, ..AxilCsrModel::with_decode(self.decode) };
            return out;
        }
        let before = self.clone();
        self.csr_wr_en = false;
        self.csr_rd_en = false;
        if before.b_valid && i.bready {
            self.b_valid = false;
        }
        if before.r_valid && i.rready {
            self.r_valid = false;
        }
        if before.aw.is_none() && i.awvalid {
            self.aw = Some(csr_addr_of(i.awaddr));
        }
        if before.w.is_none() && i.wvalid {
            self.w = Some((i.wdata, i.wstrb & 0xF));
        }
        if before.ar.is_none() && i.arvalid {
            self.ar = Some(csr_addr_of(i.araddr));
        }
        match before.op {
            Op::Idle => {
                let can_w = before.aw.is_some() && before.w.is_some() && !before.b_valid;
                let can_r = before.ar.is_some() && !before.r_valid;
                if can_w && (!can_r || !before.last_write) {
                    let (a, (data, strb)) = (before.aw.unwrap_or(0), before.w.unwrap_or((0, 0)));
                    self.last_write = true;
                    self.csr_addr = a;
                    if !self.decode.writable(a) {
                        self.finish_write(RESP_SLVERR);
                    } else if strb == 0xF {
                        (self.csr_wr_en, self.csr_wr_data) = (true, data);
                        self.finish_write(RESP_OKAY);
                    } else {
                        self.csr_rd_en = true;
                        self.op = Op::Merge;
                    }
                } else if can_r {
                    self.last_write = false;
                    self.csr_addr = before.ar.unwrap_or(0);
                    self.csr_rd_en = true;
                    self.op = Op::Read;
                }
            }
            Op::Read if i.csr_rd_valid => {
                let resp = if self.decode.readable(before.csr_addr) { RESP_OKAY } else { RESP_SLVERR };
                (self.r_valid, self.r_data, self.r_resp) = (true, i.csr_rd_data, resp);
                self.ar = None;
                self.op = Op::Idle;
            }
            Op::Merge if i.csr_rd_valid => {
                let (data, strb) = before.w.unwrap_or((0, 0));
                (self.csr_wr_en, self.csr_wr_data) = (true, merge_bytes(i.csr_rd_data, data, strb));
                self.finish_write(RESP_OKAY);
                self.op = Op::Idle;
            }
            Op::Read | Op::Merge => {}
        }
        out
    }
    /// The held AW and W beats leave; the B response is `resp`.
    fn finish_write(&mut self, resp: u8) {
        self.aw = None;
        self.w = None;
        (self.b_valid, self.b_resp) = (true, resp);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::common::csr::{CoreIdent, CsrInputs, CsrModel};

    fn layout() -> CsrLayout {
        CsrLayout::new(vec![("a".into(), 0x1122_3344), ("b".into(), 7)], vec!["s".into()])
            .with_ident(CoreIdent::new(b"TEST", 1, 0))
    }

    /// The slave and a CSR bank, wired: status register 0 reads `status`.
    struct Pair {
        bus: AxilCsrModel,
        bank: CsrModel,
    }

    impl Pair {
        fn new() -> Self {
            let mut p = Pair { bus: AxilCsrModel::new(&layout()), bank: CsrModel::new(layout()) };
            p.cycle(AxilInputs { reset: true, ..Default::default() });
            p
        }
        fn cycle(&mut self, mut i: AxilInputs) -> AxilOutputs {
            if let Some(b) = self.bank.outputs() {
                (i.csr_rd_valid, i.csr_rd_data) = (b.rd_valid, b.rd_data);
            }
            let o = self.bus.step(&i).unwrap_or_default();
            self.bank.step(&CsrInputs {
                reset: i.reset,
                addr: o.csr_addr,
                wr_en: o.csr_wr_en,
                wr_data: o.csr_wr_data,
                rd_en: o.csr_rd_en,
                status: vec![0x55],
            });
            o
        }
        /// A write with both beats in one cycle; the B response.
        fn write(&mut self, addr: u16, data: u32, strb: u8) -> u8 {
            self.cycle(AxilInputs {
                awvalid: true,
                awaddr: addr,
                wvalid: true,
                wdata: data,
                wstrb: strb,
                ..Default::default()
            });
            for _ in 0..10 {
                let o = self.cycle(AxilInputs { bready: true, ..Default::default() });
                if o.bvalid {
                    return o.bresp;
                }
            }
            panic!("no B response");
        }
        fn read(&mut self, addr: u16) -> (u32, u8) {
            self.cycle(AxilInputs { arvalid: true, araddr: addr, ..Default::default() });
            for _ in 0..10 {
                let o = self.cycle(AxilInputs { rready: true, ..Default::default() });
                if o.rvalid {
                    return (o.rdata, o.rresp);
                }
            }
            panic!("no R response");
        }
    }

    #[test]
    fn writes_reads_strobes_and_errors() {
        let mut p = Pair::new();
        assert_eq!(p.read(0), (0x1122_3344, RESP_OKAY));
        assert_eq!(p.write(4, 0xAABB_CCDD, 0xF), RESP_OKAY);
        assert_eq!(p.read(4), (0xAABB_CCDD, RESP_OKAY));
        assert_eq!(p.write(0, 0xFFEE_DDCC, 0b0101), RESP_OKAY);
        assert_eq!(p.read(0), (0x11EE_33CC, RESP_OKAY));
        assert_eq!(p.write(2, 0, 0), RESP_OKAY, "byte address 2 is register 0; no strobe writes nothing");
        assert_eq!(p.read(1), (0x11EE_33CC, RESP_OKAY), "address bits 1:0 are ignored");
        assert_eq!(p.read(4 * CSR_STATUS_BASE as u16), (0x55, RESP_OKAY));
        assert_eq!(p.write(4 * CSR_STATUS_BASE as u16, 1, 0xF), RESP_SLVERR);
        assert_eq!(p.write(4 * 9, 1, 0xF), RESP_SLVERR);
        assert_eq!(p.read(4 * 9), (0, RESP_SLVERR));
        assert_eq!(p.read(4 * CSR_ID_ADDR as u16), (u32::from_be_bytes(*b"TEST"), RESP_OKAY));
        assert_eq!(p.bank.config(), &[0x11EE_33CC, 0xAABB_CCDD]);
    }

    #[test]
    fn merge_replaces_the_strobed_bytes() {
        assert_eq!(merge_bytes(0x1122_3344, 0xAABB_CCDD, 0b1001), 0xAA22_33DD);
        assert_eq!(merge_bytes(0x1122_3344, 0xAABB_CCDD, 0), 0x1122_3344);
    }

    #[test]
    fn a_read_queued_with_writes_runs_between_them() {
        let mut p = Pair::new();
        // A write and a read arrive together (the write goes first after reset), a second write right after
        // the first: the read, waiting since, runs before it.
        p.cycle(AxilInputs {
            awvalid: true,
            awaddr: 0,
            wvalid: true,
            wdata: 1,
            wstrb: 0xF,
            arvalid: true,
            araddr: 4,
            ..Default::default()
        });
        let mut order = vec![];
        // The second write's beats are held until taken (AXI: `valid` stays high until `ready`).
        let (mut aw, mut w) = (true, true);
        for _ in 0..20 {
            let o = p.cycle(AxilInputs {
                awvalid: aw,
                awaddr: 4,
                wvalid: w,
                wdata: 2,
                wstrb: 0xF,
                bready: true,
                rready: true,
                ..Default::default()
            });
            aw &= !o.awready;
            w &= !o.wready;
            if o.bvalid {
                order.push('w');
            }
            if o.rvalid {
                order.push('r');
                assert_eq!(o.rdata, 7, "the read ran before the second write reached register 1");
            }
        }
        assert_eq!(order, ['w', 'r', 'w']);
    }
}
