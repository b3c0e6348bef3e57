//! `ro_hy4_axi`, the AXI flavour of the hybrid reordering detector (`netmeas generate reordering --build
//! ro_hy4`): a top with three CSR ports gets three AXI4-Lite slaves (`s_axil_smp`, `s_axil_side`,
//! `s_axil_hh`; `hdl::axi`). Each is driven by its own randomized master and checked against its own golden
//! slave ([`AxiCsrSide`]), which puts its requests on the golden model's CSR port of that sub-core; the
//! descriptors go into `s_axis_in_tdata`, the three per-packet results and the reports come out of the
//! `m_axis_*` streams (fields by the wrapper's layout rule, [`tdata_layout`]). The hybrid runner's traffic
//! and checks are unchanged (`crate::reordering_hybrid::run_top`).

use crate::axi_core::{check_tlast, count_axil, intern, pack, tdata_layout, unpack, AxiCsrSide, AxilDone, AxilPins};
use crate::core_run::CoreTop;
use crate::harness::{Model, RunConfig, RunReport, Scoreboard};
use crate::models::RoHy4Axi;
use crate::ports::{port, PortBits};
use crate::reordering_hybrid::{run_top, top_config, HyOutputs};
use golden::common::csr::CsrRequest;
use golden::reordering::hybrid_cycle::{HybridInputs, HybridOutputs};
use golden::reordering::Descriptor;

/// The AXI4-Lite buses in the order of `HybridInputs::csr` (flow sampling, side table, heavy hitters) —
/// the wrapper's too: its ports' order ([`AxilPins::axil_buses`] is checked against it).
const BUSES: [&str; 3] = ["s_axil_smp", "s_axil_side", "s_axil_hh"];

/// The stream groups whose `tdata` the mapping packs or unpacks.
const GROUPS: [&str; 4] = ["in", "hh_res", "side_res", "smp_res"];

/// The hybrid's AXI flavour in the runner's place: the model and one bus side per CSR port.
pub struct HybridAxiTop<M> {
    pub m: M,
    sides: Vec<AxiCsrSide>,
    /// `tdata` layouts of [`GROUPS`].
    layouts: Vec<Vec<(String, usize, usize)>>,
}

crate::model_via!(impl<M: Model> HybridAxiTop<M> => m);

impl HybridAxiTop<RoHy4Axi> {
    /// `ro_hy4_axi` behind three bus sides with the register maps of `ro_hy4`'s sub-cores; `done[k]` counts
    /// bus k's transactions.
    fn new(x_seed: u64, done: &[AxilDone; 3]) -> Self {
        let m = RoHy4Axi::new(x_seed);
        assert_eq!(m.axil_buses(), BUSES, "the wrapper's AXI4-Lite buses");
        let cfg = top_config("ro_hy4");
        let maps = [cfg.sampling.csr_layout(), cfg.side().csr_layout(), cfg.hh.csr_layout()];
        let sides = BUSES
            .iter()
            .zip(&maps)
            .zip(done)
            .enumerate()
            .map(|(k, ((bus, map), d))| AxiCsrSide::on_bus(bus, map, x_seed.wrapping_add(k as u64), d.clone()))
            .collect();
        HybridAxiTop { m, sides, layouts: GROUPS.map(|g| tdata_layout("ro_hy4", g)).to_vec() }
    }
}

impl CoreTop for HybridAxiTop<RoHy4Axi> {
    type Inputs = HybridInputs;
    type Garbage = Descriptor;
    type Expected = HybridOutputs;
    type Outputs = HyOutputs;
    fn csr_on_bus() -> bool {
        true
    }
    fn route(&mut self, cycle: u64, i: &HybridInputs) -> Option<HybridInputs> {
        let mut routed = *i;
        for (side, req) in self.sides.iter_mut().zip(routed.csr.iter_mut()) {
            let (addr, write, read) = side.route_request(cycle, i.reset, (req.addr, req.wr_en, req.wr_data, req.rd_en));
            *req =
                CsrRequest { reset: i.reset, addr, wr_en: write.is_some(), wr_data: write.unwrap_or(0), rd_en: read };
        }
        Some(routed)
    }
    fn drive(&mut self, i: &HybridInputs, garbage: &Descriptor) {
        let d = if i.in_valid { &i.desc } else { garbage };
        let m = &mut self.m;
        m.set_rst(i.reset as u64);
        m.set_s_axis_in_tvalid(i.in_valid as u64);
        m.set_s_axis_in_tdata(pack(&self.layouts[0], &crate::reordering::descriptor_fields(d)).to());
        m.set_m_axis_rep_tready(i.rep_ready as u64);
        for (k, side) in self.sides.iter().enumerate() {
            m.set_axil(k, side.inputs());
        }
    }
    fn compare(&self, sb: &mut Scoreboard, c: u64, e: &HybridOutputs) -> HyOutputs {
        let m = &self.m;
        let words: [PortBits; 3] =
            [port(m.m_axis_hh_res_tdata()), port(m.m_axis_side_res_tdata()), port(m.m_axis_smp_res_tdata())];
        let field = |k: usize, f: &str| unpack(&self.layouts[k + 1], words[k], f) as u64;
        let valid: [bool; 4] = [
            port(m.m_axis_hh_res_tvalid()),
            port(m.m_axis_side_res_tvalid()),
            port(m.m_axis_smp_res_tvalid()),
            port(m.m_axis_rep_tvalid()),
        ];
        let lasts =
            [m.m_axis_hh_res_tlast(), m.m_axis_side_res_tlast(), m.m_axis_smp_res_tlast(), m.m_axis_rep_tlast()];
        let names = ["m_axis_hh_res_tlast", "m_axis_side_res_tlast", "m_axis_smp_res_tlast", "m_axis_rep_tlast"];
        for ((name, v), last) in names.into_iter().zip(valid).zip(lasts) {
            check_tlast(sb, c, name, v, last);
        }
        // The CSR ports are inside the wrapper: their answers are golden's here and compared on the buses.
        let o = HyOutputs {
            in_ready: port(m.s_axis_in_tready()),
            hh_res_valid: valid[0],
            hh_res_outcome: field(0, "hh_res_outcome"),
            hh_res_row: field(0, "hh_res_row"),
            side_res_valid: valid[1],
            side_res_outcome: field(1, "side_res_outcome"),
            side_res_ooo: field(1, "side_res_ooo") != 0,
            smp_res_valid: valid[2],
            smp_res_outcome: field(2, "smp_res_outcome"),
            smp_res_ooo: field(2, "smp_res_ooo") != 0,
            rep_valid: valid[3],
            rep_data: port(m.m_axis_rep_tdata()),
            smp_csr_rd_valid: e.smp_csr_rd_valid.unwrap_or(false),
            smp_csr_rd_data: e.smp_csr_rd_data.unwrap_or(0),
            side_csr_rd_valid: e.side_csr_rd_valid.unwrap_or(false),
            side_csr_rd_data: e.side_csr_rd_data.unwrap_or(0),
            hh_csr_rd_valid: e.hh_csr_rd_valid.unwrap_or(false),
            hh_csr_rd_data: e.hh_csr_rd_data.unwrap_or(0),
        };
        o.compare(sb, c, e);
        o
    }
    fn after(&mut self, sb: &mut Scoreboard, c: u64, e: &HybridOutputs) {
        let answers = [
            (e.smp_csr_rd_valid, e.smp_csr_rd_data),
            (e.side_csr_rd_valid, e.side_csr_rd_data),
            (e.hh_csr_rd_valid, e.hh_csr_rd_data),
        ];
        for (k, (side, (valid, data))) in self.sides.iter_mut().zip(answers).enumerate() {
            let rtl = self.m.axil(k);
            side.after(sb, c, &rtl, (valid.unwrap_or(false), data.unwrap_or(0)));
        }
    }
}

/// `ro_hy4`'s traffic through its AXI flavour `ro_hy4_axi`: registers over three AXI4-Lite slaves (the
/// report's coverage: `<bus>_writes`, `<bus>_reads` per bus, `axil_writes`, `axil_reads` their sums).
pub fn run_ro_hy4_axi(cfg: &RunConfig) -> RunReport {
    let done: [AxilDone; 3] = Default::default();
    let d = done.clone();
    let mut report = run_top("ro_hy4", cfg, move |x| HybridAxiTop::new(x, &d));
    let total = AxilDone::default();
    for (bus, d) in BUSES.iter().zip(&done) {
        let ([w, r], [tw, tr]) = (d.get(), total.get());
        report.coverage.count(intern(&format!("{bus}_writes")), w);
        report.coverage.count(intern(&format!("{bus}_reads")), r);
        total.set([tw + w, tr + r]);
    }
    count_axil(report, &total)
}
