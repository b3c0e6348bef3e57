//! [`DynTop`]: a run-time model with the port methods of every core runner, and its AXI4-Lite slaves
//! ([`crate::axi_core::AxilPins`], found by name).

use super::load::{DynLib, DynModel};
use golden::common::axil::{AxilInputs, AxilOutputs, MASTER_SIGNALS, SLAVE_SIGNALS};
use std::sync::Arc;

/// [`DynTop`]: a struct with one port index per method and the methods, from the lists of names.
macro_rules! dyn_top {
    (
        set u64: $($s:ident),* ; set u128: $($w:ident),* ; set words: $($b:ident),* ; get: $($g:ident),* $(,)?
    ) => {
        /// A run-time model with the port methods of every core runner — `set_<input>` (`u64`, or `u128` for
        /// keys and ids) and `<output>()` (as [`PortBits`](crate::ports::PortBits), which converts into the
        /// runner's field types) — so it takes the place of a build-time model in any runner. A method whose
        /// port the top lacks does nothing (setter) or reads 0. `K` marks the core (a runner's traits have
        /// associated types, so each core has its own `DynTop<K>`).
        pub struct DynTop<K> {
            m: DynModel,
            _kind: std::marker::PhantomData<K>,
            /// The AXI4-Lite slaves' port indices (AXI flavour), in port order, and their names.
            axil: Vec<AxilBus>,
            axil_names: Vec<&'static str>,
            $($s: Option<usize>,)*
            $($w: Option<usize>,)*
            $($b: Option<usize>,)*
            $($g: Option<usize>,)*
        }

        impl<K> DynTop<K> {
            /// An instance of `lib`'s top; `x_seed` seeds its power-up values.
            pub fn new(lib: &Arc<DynLib>, x_seed: u64) -> Self {
                let port = |m: &str| lib.port(m.strip_prefix("set_").unwrap_or(m));
                let axil = AxilBus::of(lib);
                DynTop {
                    m: DynModel::new(lib, x_seed),
                    _kind: std::marker::PhantomData,
                    axil_names: axil.iter().map(|b| b.name).collect(),
                    axil,
                    $($s: port(stringify!($s)),)*
                    $($w: port(stringify!($w)),)*
                    $($b: port(stringify!($b)),)*
                    $($g: port(stringify!($g)),)*
                }
            }
            $(
                #[inline]
                pub fn $s(&mut self, v: u64) {
                    if let Some(i) = self.$s {
                        self.m.set(i, v as u128)
                    }
                }
            )*
            $(
                #[inline]
                pub fn $w(&mut self, v: u128) {
                    if let Some(i) = self.$w {
                        self.m.set(i, v)
                    }
                }
            )*
            $(
                #[inline]
                pub fn $b(&mut self, v: crate::ports::PortBits) {
                    if let Some(i) = self.$b {
                        self.m.set_words(i, v)
                    }
                }
            )*
            $(
                #[inline]
                pub fn $g(&self) -> crate::ports::PortBits {
                    self.$g.map_or_else(Default::default, |i| self.m.get_words(i))
                }
            )*
        }
    };
}

dyn_top! {
    set u64: set_reset, set_in_valid, set_in_request, set_in_ts, set_rep_ready, set_tally_ready, set_rec_ready,
        set_csr_addr, set_csr_wr_en, set_csr_wr_data, set_csr_rd_en, set_in_start, set_in_end, set_in_addr,
        set_in_seq, set_in_data, set_in_index, set_in_force, set_in_latency, set_smp_ready, set_lk_valid,
        set_ans_ready,
        // The AXI flavour (`hdl::axi`): reset, stream valids and readies (the AXI4-Lite pins: `AxilPins`).
        set_rst, set_s_axis_in_tvalid, set_s_axis_lk_tvalid, set_m_axis_rep_tready, set_m_axis_tally_tready, set_m_axis_rec_tready,
        set_m_axis_smp_tready, set_m_axis_ans_tready;
    set u128: set_in_id, set_in_key, set_in_flow, set_lk_key;
    set words: set_s_axis_in_tdata, set_s_axis_lk_tdata;
    get: in_ready, swept, rep_valid, rep_data, csr_rd_valid, csr_rd_data, tally_valid, tally_data, rec_valid,
        rec_data, res_valid, res_case, res_row, res_d_est, res_outcome, res_count, res_ooo, res_center, smp_valid,
        smp_data, lk_ready, ans_valid, ans_kind, ans_cand, ans_center_valid, ans_center, ans_latency, ans_refined,
        s_axis_in_tready, s_axis_lk_tready, m_axis_rep_tvalid, m_axis_rep_tlast, m_axis_rep_tdata,
        m_axis_tally_tvalid, m_axis_tally_tlast, m_axis_tally_tdata, m_axis_rec_tvalid, m_axis_rec_tlast,
        m_axis_rec_tdata, m_axis_res_tvalid, m_axis_res_tlast, m_axis_res_tdata, m_axis_smp_tvalid, m_axis_smp_tlast,
        m_axis_smp_tdata, m_axis_ans_tvalid, m_axis_ans_tlast, m_axis_ans_tdata,
}

impl<K> DynTop<K> {
    /// Width of port `name` (0 if the top has none).
    pub fn port_width(&self, name: &str) -> usize {
        self.m.lib().port(name).map_or(0, |i| self.m.lib().width(i))
    }
}

crate::model_via!(impl<K> DynTop<K> => m);

/// The port indices of one AXI4-Lite slave of a run-time model (bus `s_axil` or `s_axil_<p>`), in the
/// signal orders of `golden::common::axil` ([`MASTER_SIGNALS`], [`SLAVE_SIGNALS`]).
struct AxilBus {
    name: &'static str,
    inputs: [Option<usize>; 9],
    outputs: [Option<usize>; 8],
}

impl AxilBus {
    /// Every slave of `lib`'s top, in port order.
    fn of(lib: &DynLib) -> Vec<AxilBus> {
        let ports = lib.ports();
        let buses = ports.iter().filter_map(|(n, _, _)| n.strip_suffix("_awvalid"));
        buses
            .filter(|b| *b == "s_axil" || b.starts_with("s_axil_"))
            .map(|b| AxilBus {
                name: crate::axi_core::intern(b),
                inputs: MASTER_SIGNALS.map(|n| lib.port(&format!("{b}_{n}"))),
                outputs: SLAVE_SIGNALS.map(|n| lib.port(&format!("{b}_{n}"))),
            })
            .collect()
    }
}

impl<K> crate::axi_core::AxilPins for DynTop<K> {
    fn axil_buses(&self) -> &[&'static str] {
        &self.axil_names
    }
    fn set_axil(&mut self, bus: usize, i: &AxilInputs) {
        for (port, v) in self.axil[bus].inputs.into_iter().zip(i.bus_values()) {
            if let Some(k) = port {
                self.m.set(k, v as u128);
            }
        }
    }
    fn axil(&self, bus: usize) -> AxilOutputs {
        let get = |p: Option<usize>| p.map_or(0, |p| self.m.get_words(p).0[0] as u64);
        AxilOutputs::from_bus_values(self.axil[bus].outputs.map(get))
    }
}
