//! AXI4-Lite slave in front of a CSR bank (`AxilCsr`): AXI4-Lite transactions (32-bit data, byte strobes,
//! a 1 KiB window) become requests on a core's native CSR port; `SLVERR` for writes to read-only or
//! unmapped registers and for reads of unmapped ones. One holding register per address/data channel
//! (`ready` = empty, a register), registered `bvalid`/`rvalid` and CSR strobes; one transaction at a time
//! on the CSR port, reads and writes taken round robin; a partial-strobe write reads the register and
//! writes back the merged word. Which addresses are mapped comes from the core's [`CsrLayout`].
//! Model and full behaviour: `golden::common::axil`.

use super::bits::consts;
use super::reg::Reg;
use crate::declare_block;
use golden::common::axil::{AxilDecode, Op, AXIL_ADDR_BITS, RESP_OKAY, RESP_SLVERR};
use golden::common::config::{CSR_ID_ADDR, CSR_STATUS_BASE, CSR_VERSION_ADDR};
use golden::common::csr::CsrLayout;
use rust_hdl::prelude::*;

const A: usize = AXIL_ADDR_BITS;

fn c8(v: u8) -> Constant<Bits<8>> {
    Constant::new(Bits::from(v as u64))
}

declare_block! {
    /// See the [module docs](self).
    #[derive(LogicBlock)]
    pub struct AxilCsr fn build(d: AxilDecode) {
        pub clock: Signal<In, Clock>,
        pub reset: Signal<In, bool>,
        pub s_axil_awaddr: Signal<In, Bits<A>>,
        pub s_axil_awvalid: Signal<In, bool>,
        pub s_axil_awready: Signal<Out, bool>,
        pub s_axil_wdata: Signal<In, Bits<32>>,
        pub s_axil_wstrb: Signal<In, Bits<4>>,
        pub s_axil_wvalid: Signal<In, bool>,
        pub s_axil_wready: Signal<Out, bool>,
        pub s_axil_bresp: Signal<Out, Bits<2>>,
        pub s_axil_bvalid: Signal<Out, bool>,
        pub s_axil_bready: Signal<In, bool>,
        pub s_axil_araddr: Signal<In, Bits<A>>,
        pub s_axil_arvalid: Signal<In, bool>,
        pub s_axil_arready: Signal<Out, bool>,
        pub s_axil_rdata: Signal<Out, Bits<32>>,
        pub s_axil_rresp: Signal<Out, Bits<2>>,
        pub s_axil_rvalid: Signal<Out, bool>,
        pub s_axil_rready: Signal<In, bool>,
        /// The core's CSR port (registered requests; the answer comes back a cycle after `csr_rd_en`).
        pub csr_addr: Signal<Out, Bits<8>>,
        pub csr_wr_en: Signal<Out, bool>,
        pub csr_wr_data: Signal<Out, Bits<32>>,
        pub csr_rd_en: Signal<Out, bool>,
        pub csr_rd_valid: Signal<In, bool>,
        pub csr_rd_data: Signal<In, Bits<32>>,
        aw_full: Reg<bool>,
        aw_addr: Reg<Bits<8>>,
        w_full: Reg<bool>,
        w_data: Reg<Bits<32>>,
        w_strb: Reg<Bits<4>>,
        ar_full: Reg<bool>,
        ar_addr: Reg<Bits<8>>,
        b_valid: Reg<bool>,
        b_resp: Reg<Bits<2>>,
        r_valid: Reg<bool>,
        r_data: Reg<Bits<32>>,
        r_resp: Reg<Bits<2>>,
        op: Reg<Bits<2>>,
        last_write: Reg<bool>,
        q_addr: Reg<Bits<8>>,
        q_wr_en: Reg<bool>,
        q_wr_data: Reg<Bits<32>>,
        q_rd_en: Reg<bool>,
        can_w: Signal<Local, bool>,
        can_r: Signal<Local, bool>,
        aw_writable: Signal<Local, bool>,
        q_readable: Signal<Local, bool>,
        /// Byte mask of the held strobes, and the merged word of a partial write.
        mask: Signal<Local, Bits<32>>,
        merged: Signal<Local, Bits<32>>,
        /// Address bits 1:0 select a byte within a register: ignored (Verilator's `*unused*` convention).
        unused_addr_lsbs: Signal<Local, bool>,
        n_config: Constant<Bits<8>> = c8(d.config),
        status_base: Constant<Bits<8>> = c8(CSR_STATUS_BASE),
        status_end: Constant<Bits<8>> = c8(CSR_STATUS_BASE.wrapping_add(d.status)),
        id_addr: Constant<Bits<8>> = c8(CSR_ID_ADDR),
        version_addr: Constant<Bits<8>> = c8(CSR_VERSION_ADDR),
        has_ident: Constant<bool> = Constant::new(d.ident),
        op_idle: Constant<Bits<2>> = Constant::new(Bits::from(Op::Idle as u64)),
        op_read: Constant<Bits<2>> = Constant::new(Bits::from(Op::Read as u64)),
        op_merge: Constant<Bits<2>> = Constant::new(Bits::from(Op::Merge as u64)),
        okay: Constant<Bits<2>> = Constant::new(Bits::from(RESP_OKAY as u64)),
        slverr: Constant<Bits<2>> = Constant::new(Bits::from(RESP_SLVERR as u64)),
        all_strobes: Constant<Bits<4>> = Constant::new(Bits::from(0xFu64)),
        byte_masks: Vec<Constant<Bits<32>>> = consts((0..4).map(|b| 0xFFu64 << (8 * b))),
        _bytes: usize = 4,
        zero_32: Constant<Bits<32>> = Constant::new(Bits::default()),
        zero_8: Constant<Bits<8>> = c8(0),
    }
}

impl AxilCsr {
    /// The slave for a core whose register map is `layout`.
    pub fn new(layout: &CsrLayout) -> Self {
        Self::build(AxilDecode::of(layout))
    }
}

impl Logic for AxilCsr {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self, clock, aw_full, aw_addr, w_full, w_data, w_strb, ar_full, ar_addr, b_valid, b_resp, r_valid, r_data,
            r_resp, op, last_write, q_addr, q_wr_en, q_wr_data, q_rd_en
        );
        self.s_axil_awready.next = !self.aw_full.q.val();
        self.s_axil_wready.next = !self.w_full.q.val();
        self.s_axil_arready.next = !self.ar_full.q.val();
        self.s_axil_bvalid.next = self.b_valid.q.val();
        self.s_axil_bresp.next = self.b_resp.q.val();
        self.s_axil_rvalid.next = self.r_valid.q.val();
        self.s_axil_rdata.next = self.r_data.q.val();
        self.s_axil_rresp.next = self.r_resp.q.val();
        self.csr_addr.next = self.q_addr.q.val();
        self.csr_wr_en.next = self.q_wr_en.q.val();
        self.csr_wr_data.next = self.q_wr_data.q.val();
        self.csr_rd_en.next = self.q_rd_en.q.val();

        self.unused_addr_lsbs.next =
            self.s_axil_awaddr.val().get_bits::<2>(0).any() || self.s_axil_araddr.val().get_bits::<2>(0).any();
        self.can_w.next = self.aw_full.q.val() && self.w_full.q.val() && !self.b_valid.q.val();
        self.can_r.next = self.ar_full.q.val() && !self.r_valid.q.val();
        self.aw_writable.next = self.aw_addr.q.val() < self.n_config.val();
        self.q_readable.next = (self.q_addr.q.val() < self.n_config.val())
            || ((self.q_addr.q.val() >= self.status_base.val()) && (self.q_addr.q.val() < self.status_end.val()))
            || (self.has_ident.val()
                && ((self.q_addr.q.val() == self.id_addr.val()) || (self.q_addr.q.val() == self.version_addr.val())));
        self.mask.next = self.zero_32.val();
        for b in 0..self._bytes {
            if self.w_strb.q.val().get_bit(b) {
                self.mask.next = self.mask.val() | self.byte_masks[b].val();
            }
        }
        self.merged.next = (self.csr_rd_data.val() & !self.mask.val()) | (self.w_data.q.val() & self.mask.val());

        self.q_wr_en.d.next = false;
        self.q_rd_en.d.next = false;
        if self.b_valid.q.val() && self.s_axil_bready.val() {
            self.b_valid.d.next = false;
        }
        if self.r_valid.q.val() && self.s_axil_rready.val() {
            self.r_valid.d.next = false;
        }
        if !self.aw_full.q.val() && self.s_axil_awvalid.val() {
            self.aw_full.d.next = true;
            self.aw_addr.d.next = self.s_axil_awaddr.val().get_bits::<8>(2);
        }
        if !self.w_full.q.val() && self.s_axil_wvalid.val() {
            self.w_full.d.next = true;
            self.w_data.d.next = self.s_axil_wdata.val();
            self.w_strb.d.next = self.s_axil_wstrb.val();
        }
        if !self.ar_full.q.val() && self.s_axil_arvalid.val() {
            self.ar_full.d.next = true;
            self.ar_addr.d.next = self.s_axil_araddr.val().get_bits::<8>(2);
        }
        if self.op.q.val() == self.op_idle.val() {
            if self.can_w.val() && (!self.can_r.val() || !self.last_write.q.val()) {
                self.last_write.d.next = true;
                self.q_addr.d.next = self.aw_addr.q.val();
                if !self.aw_writable.val() {
                    self.aw_full.d.next = false;
                    self.w_full.d.next = false;
                    self.b_valid.d.next = true;
                    self.b_resp.d.next = self.slverr.val();
                } else if self.w_strb.q.val() == self.all_strobes.val() {
                    self.q_wr_en.d.next = true;
                    self.q_wr_data.d.next = self.w_data.q.val();
                    self.aw_full.d.next = false;
                    self.w_full.d.next = false;
                    self.b_valid.d.next = true;
                    self.b_resp.d.next = self.okay.val();
                } else {
                    self.q_rd_en.d.next = true;
                    self.op.d.next = self.op_merge.val();
                }
            } else if self.can_r.val() {
                self.last_write.d.next = false;
                self.q_addr.d.next = self.ar_addr.q.val();
                self.q_rd_en.d.next = true;
                self.op.d.next = self.op_read.val();
            }
        } else if self.op.q.val() == self.op_read.val() {
            if self.csr_rd_valid.val() {
                self.r_valid.d.next = true;
                self.r_data.d.next = self.csr_rd_data.val();
                if self.q_readable.val() {
                    self.r_resp.d.next = self.okay.val();
                } else {
                    self.r_resp.d.next = self.slverr.val();
                }
                self.ar_full.d.next = false;
                self.op.d.next = self.op_idle.val();
            }
        } else if self.csr_rd_valid.val() {
            self.q_wr_en.d.next = true;
            self.q_wr_data.d.next = self.merged.val();
            self.aw_full.d.next = false;
            self.w_full.d.next = false;
            self.b_valid.d.next = true;
            self.b_resp.d.next = self.okay.val();
            self.op.d.next = self.op_idle.val();
        }
        if self.reset.val() {
            self.aw_full.d.next = false;
            self.w_full.d.next = false;
            self.ar_full.d.next = false;
            self.b_valid.d.next = false;
            self.b_resp.d.next = self.okay.val();
            self.r_valid.d.next = false;
            self.r_data.d.next = self.zero_32.val();
            self.r_resp.d.next = self.okay.val();
            self.op.d.next = self.op_idle.val();
            self.last_write.d.next = false;
            self.q_addr.d.next = self.zero_8.val();
            self.q_wr_en.d.next = false;
            self.q_wr_data.d.next = self.zero_32.val();
            self.q_rd_en.d.next = false;
        }
    }
}
