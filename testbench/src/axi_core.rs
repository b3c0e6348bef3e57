//! A core's AXI flavour (`<build>_axi`, `hdl::axi`) in the core's own co-simulation: the runner, its
//! traffic and its golden cycle model stay as they are; [`AxiTop`] puts the generated wrapper where the
//! native top was.
//!
//! The runner's CSR driver still decides what software does (the settings after a reset, rewrites, random
//! reads); [`AxiCsrSide`] turns each request into an AXI4-Lite transaction for a randomized master
//! ([`AxilMaster`]: random delays on every channel, B and R backpressure), and the core's CSR port — in the
//! RTL behind the wrapper's slave, in golden the cycle model's CSR inputs — gets what the golden slave
//! (`golden::common::axil`) puts on it. Each cycle the RTL's AXI4-Lite outputs are compared with the golden
//! slave's, and the core's outputs, read from the AXI4-Stream ports, with the golden core's.
//! The stream side is pure wiring (`tvalid` = the core's valid, `tready` = its ready), so the runner's own
//! gaps and stalls are the streams' valid gaps and backpressure.

use crate::axil_master::{AxilMaster, Done, Write};
use crate::csr_driver::CsrPort;
use crate::harness::{Model, Scoreboard};
use crate::ports::{port, FromPort, PortBits, PORT_WORDS};
use golden::common::axil::{AxilCsrModel, AxilInputs, AxilOutputs, RESP_OKAY};
use golden::common::csr::CsrLayout;
use rand::rngs::SmallRng;
use rand::SeedableRng;
use std::cell::Cell;
use std::rc::Rc;

/// AXI4-Lite writes and reads completed in a run, shared with whoever built the top (the runner's report
/// gets them as coverage `axil_writes`, `axil_reads`).
pub type AxilDone = Rc<Cell<[u64; 2]>>;

/// Reads beyond this many transactions in flight are skipped (software polling a slow bus waits), so the
/// queue stays bounded; writes are always issued.
const MAX_IN_FLIGHT: usize = 8;

/// The AXI4-Lite slaves of an AXI-flavour model: bus `k` of [`Self::axil_buses`] (`s_axil`, or `s_axil_<p>`
/// per CSR port of a top with several). The build script implements it for every Verilated model with such
/// ports; the run-time model by name ([`crate::runtime_model::DynTop`]).
pub trait AxilPins {
    /// The buses' signal prefixes, in port order.
    fn axil_buses(&self) -> &[&'static str];
    fn set_axil(&mut self, bus: usize, i: &AxilInputs);
    fn axil(&self, bus: usize) -> AxilOutputs;
}

/// Adds the AXI4-Lite transactions counted in `done` to `report`'s coverage (`axil_writes`, `axil_reads`).
pub fn count_axil(mut report: crate::harness::RunReport, done: &AxilDone) -> crate::harness::RunReport {
    let [w, r] = done.get();
    report.coverage.count("axil_writes", w);
    report.coverage.count("axil_reads", r);
    report
}

/// A core runner's randomized run on the AXI flavour of its top `native`: `run(make)` is the runner's own
/// `run_top` with `make(x_seed)` building the AXI model `model(x_seed)` behind a bus side for register map
/// `layout`, the `tdata` layouts of streams `groups` ready; the report gets the AXI4-Lite transaction counts
/// (coverage `axil_writes`, `axil_reads`).
pub fn run_through_axi<M: Model + 'static>(
    native: &str,
    groups: &[&str],
    layout: &CsrLayout,
    model: impl Fn(u64) -> M + 'static,
    run: impl FnOnce(Box<dyn FnOnce(u64) -> AxiTop<M>>) -> crate::harness::RunReport,
) -> crate::harness::RunReport {
    let streams: Vec<_> = groups.iter().map(|g| tdata_layout(native, g)).collect();
    let done = AxilDone::default();
    let (d, layout) = (done.clone(), layout.clone());
    count_axil(run(Box::new(move |x| AxiTop::new(model(x), &layout, streams, x, d))), &done)
}

/// A core's `run_axi(native, [mode,] cfg, model)`: the traffic of native top `native` (the core's
/// `run_top`, its configuration from the core's `top_config`) through its AXI flavour built by
/// `model(x_seed)` ([`run_through_axi`]; the `tdata` of streams `$groups` laid out), for build-time and
/// run-time models alike. `$top` is the core's top trait; `mode: Type` adds `run_top`'s mode argument.
#[macro_export]
macro_rules! axi_runner {
    ($top:path, $groups:expr $(, $mode:ident: $mode_ty:ty)?) => {
        /// Native top `native`'s traffic through its AXI flavour, built by `model(x_seed)`
        /// (`crate::axi_core`).
        pub fn run_axi<M: $crate::harness::Model + 'static>(
            native: &str,
            $($mode: $mode_ty,)?
            cfg: &$crate::harness::RunConfig,
            model: impl Fn(u64) -> M + 'static,
        ) -> $crate::harness::RunReport
        where
            $crate::axi_core::AxiTop<M>: $top,
        {
            let layout = top_config(native).csr_layout();
            let run = |make| run_top(native, $($mode,)? cfg, make);
            $crate::axi_core::run_through_axi(native, $groups, &layout, model, run)
        }
    };
}

/// The `tlast` of a master stream whose every beat is a record: high whenever `tvalid` is.
pub fn check_tlast<R>(sb: &mut Scoreboard, c: u64, name: &'static str, valid: bool, last: R)
where
    bool: FromPort<R>,
{
    sb.check(c, name, Some(1), (port::<R, bool>(last) || !valid) as u128);
}

/// `name` as a `&'static str` (scoreboard names are static): each distinct name is stored once.
pub fn intern(name: &str) -> &'static str {
    static NAMES: std::sync::Mutex<Vec<&'static str>> = std::sync::Mutex::new(Vec::new());
    let mut names = NAMES.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(n) = names.iter().find(|n| **n == name) {
        return n;
    }
    let n: &'static str = Box::leak(name.to_string().into_boxed_str());
    names.push(n);
    n
}

/// The scoreboard names of bus `bus`'s slave outputs (`s_axil_awready`, …; `s_axil_hh_awready`, …) and of
/// its transactions' responses (`s_axil_response`).
pub fn axil_signal_names(bus: &str) -> [&'static str; 9] {
    let signal = |k: usize| golden::common::axil::SLAVE_SIGNALS.get(k).copied().unwrap_or("response");
    std::array::from_fn(|k| intern(&format!("{bus}_{}", signal(k))))
}

/// Compares an AXI4-Lite slave's bus outputs (`rtl`) with golden's (`e`), signal by signal (named `n`: the
/// bus's [`axil_signal_names`]).
pub fn compare_axil(sb: &mut Scoreboard, c: u64, n: &[&'static str; 9], e: &AxilOutputs, rtl: &AxilOutputs) {
    for ((name, want), got) in n.iter().zip(e.bus_values()).zip(rtl.bus_values()) {
        sb.check(c, name, Some(want as u128), got as u128);
    }
}

/// Implements [`crate::core_run::CoreTop`] for [`AxiTop`]`<$model>`: the route through the bus side, the
/// AXI4-Lite pins (bus 0, [`AxilPins`]) and the bus comparison come from here; the core gives its
/// stream side — `drive |m, layouts, i, garbage| { … }` sets the model's stream and passthrough inputs
/// (`rst` and the AXI4-Lite pins are set here), `read |m, layouts, sb, c, e| { … }` returns the typed
/// outputs read from the streams (the comparison with golden follows; the CSR port is inside the wrapper,
/// so the outputs' `csr_rd_*` are golden's and the answer is compared on the bus).
#[macro_export]
macro_rules! axi_core_top {
    (
        $($model:ty),+ => $inputs:ty, $garbage:ty, $expected:ty, $outputs:ty;
        drive |$m:ident, $l:ident, $i:ident, $g:ident| $drive:block
        read |$rm:ident, $rl:ident, $sb:ident, $c:ident, $e:ident| $read:block
    ) => {$(
        $crate::axi_core_top!(@one $model => $inputs, $garbage, $expected, $outputs;
            drive |$m, $l, $i, $g| $drive read |$rm, $rl, $sb, $c, $e| $read);
    )+};
    (
        @one $model:ty => $inputs:ty, $garbage:ty, $expected:ty, $outputs:ty;
        drive |$m:ident, $l:ident, $i:ident, $g:ident| $drive:block
        read |$rm:ident, $rl:ident, $sb:ident, $c:ident, $e:ident| $read:block
    ) => {
        impl $crate::core_run::CoreTop for $crate::axi_core::AxiTop<$model> {
            type Inputs = $inputs;
            type Garbage = $garbage;
            type Expected = $expected;
            type Outputs = $outputs;
            fn route(&mut self, cycle: u64, i: &$inputs) -> Option<$inputs> {
                Some(self.side.route(cycle, i))
            }
            fn csr_on_bus() -> bool {
                true
            }
            fn drive(&mut self, $i: &$inputs, $g: &$garbage) {
                use $crate::axi_core::AxilPins;
                let ($m, $l) = (&mut self.m, &self.layouts);
                $m.set_rst($crate::csr_driver::CsrPort::reset($i) as u64);
                $drive
                $m.set_axil(0, self.side.inputs());
            }
            fn compare(&self, $sb: &mut $crate::harness::Scoreboard, $c: u64, $e: &$expected) -> $outputs {
                let ($rm, $rl) = (&self.m, &self.layouts);
                let _ = $rl; // a core whose streams are single fields reads tdata whole
                let o: $outputs = $read;
                o.compare($sb, $c, $e);
                o
            }
            fn after(&mut self, sb: &mut $crate::harness::Scoreboard, c: u64, e: &$expected) {
                use $crate::axi_core::{AxilPins, CsrAnswer};
                let rtl = self.m.axil(0);
                self.side.after(sb, c, &rtl, e.csr_answer());
            }
        }
    };
}

/// The CSR answer in a golden core's outputs (`csr_rd_valid`, `csr_rd_data`; `None` before a reset).
pub trait CsrAnswer {
    fn csr_answer(&self) -> (bool, u32);
}

macro_rules! csr_answer {
    ($($t:ty),*) => {$(
        impl CsrAnswer for $t {
            fn csr_answer(&self) -> (bool, u32) {
                (self.csr_rd_valid.unwrap_or(false), self.csr_rd_data.unwrap_or(0))
            }
        }
    )*};
}
csr_answer!(
    golden::ifpd::cycle::IfpdOutputs,
    golden::fridge::cycle::FridgeOutputs,
    golden::finecomb::cycle::FinecombOutputs,
    golden::maple::cycle::MapleOutputs,
    crate::heavy_hitters::HhExpected,
    golden::reordering::cycle::ReorderOutputs
);

/// The bus side of an AXI-flavour top: the golden slave, the master, and this cycle's master signals and
/// golden slave outputs.
pub struct AxiCsrSide {
    /// The bus's signal names ([`axil_signal_names`] of `s_axil`, `s_axil_hh`, …): name its mismatches.
    names: [&'static str; 9],
    bus: AxilCsrModel,
    master: AxilMaster,
    rng: SmallRng,
    now: AxilInputs,
    expected: Option<AxilOutputs>,
    done: AxilDone,
}

impl AxiCsrSide {
    pub fn new(layout: &CsrLayout, seed: u64, done: AxilDone) -> Self {
        Self::on_bus("s_axil", layout, seed, done)
    }
    /// [`Self::new`] for bus `name` (`s_axil_<p>` of a top with several CSR ports).
    pub fn on_bus(name: &str, layout: &CsrLayout, seed: u64, done: AxilDone) -> Self {
        AxiCsrSide {
            names: axil_signal_names(name),
            done,
            bus: AxilCsrModel::new(layout),
            master: AxilMaster::default(),
            rng: SmallRng::seed_from_u64(seed ^ 0xA11),
            now: AxilInputs::default(),
            expected: None,
        }
    }
    /// The runner's CSR request of this cycle becomes AXI transactions; returns the inputs golden steps
    /// with: the same, with the slave's request on the core's CSR port.
    pub fn route<I: CsrPort + Clone>(&mut self, cycle: u64, i: &I) -> I {
        let (addr, write, read) = self.route_request(cycle, i.reset(), i.csr_request());
        let mut routed = i.clone();
        routed.set_csr(addr, write, read);
        routed
    }
    /// [`Self::route`] for one CSR request `(addr, wr_en, wr_data, rd_en)` in a cycle with reset `reset`:
    /// the request the slave puts on the core's CSR port instead `(addr, write, read)`.
    pub fn route_request(&mut self, cycle: u64, reset: bool, req: (u8, bool, u32, bool)) -> (u8, Option<u32>, bool) {
        let (addr, wr_en, wr_data, rd_en) = req;
        if reset {
            self.master.reset();
        } else {
            if wr_en {
                self.master.write(Write { addr: 4 * addr as u16, data: wr_data, strb: 0xF });
            }
            let (w, r) = self.master.in_flight();
            if rd_en && w + r < MAX_IN_FLIGHT {
                self.master.read(4 * addr as u16);
            }
        }
        self.now = self.master.drive(cycle, &mut self.rng);
        self.now.reset = reset;
        self.expected = self.bus.outputs();
        let port = self.expected.unwrap_or_default();
        (port.csr_addr, port.csr_wr_en.then_some(port.csr_wr_data), port.csr_rd_en)
    }
    /// This cycle's master signals (to drive the model's `s_axil_*` inputs).
    pub fn inputs(&self) -> &AxilInputs {
        &self.now
    }
    /// Compares the RTL's AXI4-Lite outputs with the golden slave's, then steps the slave with the core's
    /// CSR answer of the cycle and lets the master see the handshakes.
    pub fn after(&mut self, sb: &mut Scoreboard, c: u64, rtl: &AxilOutputs, answer: (bool, u32)) {
        if let Some(e) = self.expected {
            compare_axil(sb, c, &self.names, &e, rtl);
        }
        let mut i = self.now;
        (i.csr_rd_valid, i.csr_rd_data) = answer;
        self.bus.step(&i);
        if !self.now.reset {
            if let Some(e) = self.expected {
                // The runner reads and writes mapped registers only: every response is OKAY.
                for d in self.master.observe(&e) {
                    let [w, r] = self.done.get();
                    let (resp, n) = match d {
                        Done::Write(_, resp) => (resp, [w + 1, r]),
                        Done::Read(_, _, resp) => (resp, [w, r + 1]),
                        Done::Unexpected(_) => (u8::MAX, [w, r]),
                    };
                    self.done.set(n);
                    sb.check(c, self.names[8], Some(RESP_OKAY as u128), resp as u128);
                }
            }
        }
    }
}

/// The `tdata` layout of stream `group` of native top `native`, by the wrapper's rule (`hdl::axi`),
/// re-derived here from the native top's ports ([`crate::harness::top_entry`]): the group's fields (`<group>_*` but its
/// valid and ready) in port order, the first at bit 0. `(port, lsb, width)`.
pub fn tdata_layout(native: &str, group: &str) -> Vec<(String, usize, usize)> {
    let top = crate::harness::top_entry(native);
    let ports = top["ports"].as_array().unwrap_or_else(|| panic!("top {native}: no ports declared"));
    let mut lsb = 0;
    let mut out = Vec::new();
    for p in ports {
        let name = p["name"].as_str().unwrap_or_default();
        let width = p["width"].as_u64().unwrap_or(0) as usize;
        let field = name.strip_prefix(&format!("{group}_")).is_some_and(|f| f != "valid" && f != "ready");
        if field {
            out.push((name.to_string(), lsb, width));
            lsb += width;
        }
    }
    out
}

/// `values` (by port name) packed into `tdata` words by `layout` (see [`tdata_layout`]); `.to()` gives
/// the setter's argument type (`u64`, `u128`, `[u32; N]` or the run-time model's `PortBits`).
pub fn pack(layout: &[(String, usize, usize)], values: &[(&str, u128)]) -> PortBits {
    let mut w = [0u32; PORT_WORDS];
    let bits = layout.iter().map(|(_, lsb, width)| lsb + width).max().unwrap_or(0);
    assert!(bits <= 32 * PORT_WORDS, "a {bits}-bit tdata is wider than {} bits", 32 * PORT_WORDS);
    for (name, lsb, width) in layout {
        let v = values.iter().find(|(n, _)| n == name).map_or(0, |(_, v)| *v);
        // A piece at a time: up to the end of the field or of the 32-bit word it lands in.
        let mut done = 0;
        while done < *width {
            let at = lsb + done;
            let n = (width - done).min(32 - at % 32);
            w[at / 32] |= ((v >> done) as u32 & (u32::MAX >> (32 - n))) << (at % 32);
            done += n;
        }
    }
    PortBits(w)
}

/// Field `name` of `tdata` (as `u128`: fields are at most 128 bits) by `layout`; `tdata` is any raw port
/// value (`u64`, `u128`, `[u32; N]`, `PortBits`).
pub fn unpack<R>(layout: &[(String, usize, usize)], tdata: R, name: &str) -> u128
where
    PortBits: FromPort<R>,
{
    let tdata = PortBits::from_port(tdata).0;
    let (_, lsb, width) = layout.iter().find(|(n, _, _)| n == name).unwrap_or_else(|| panic!("no field {name}"));
    let (mut v, mut done) = (0u128, 0);
    while done < *width {
        let at = lsb + done;
        let n = (width - done).min(32 - at % 32);
        v |= (((tdata[at / 32] >> (at % 32)) & (u32::MAX >> (32 - n))) as u128) << done;
        done += n;
    }
    v
}

/// An AXI-flavour model in a core runner's place: the model and its bus side. A core implements
/// [`crate::core_run::CoreTop`] for it (its descriptor packing into `tdata` and its outputs read from the
/// streams), routing and finishing each cycle through [`AxiCsrSide`].
pub struct AxiTop<M> {
    pub m: M,
    pub side: AxiCsrSide,
    /// The `tdata` layouts of the streams the core's mapping uses ([`tdata_layout`], computed once).
    pub layouts: Vec<Vec<(String, usize, usize)>>,
}

impl<M: Model> AxiTop<M> {
    /// Model `m` behind a bus side for register map `layout` (its master's randomness from `x_seed`), with
    /// the `tdata` layouts its mapping uses; `done` counts the completed AXI4-Lite transactions.
    pub fn new(
        m: M,
        layout: &CsrLayout,
        layouts: Vec<Vec<(String, usize, usize)>>,
        x_seed: u64,
        done: AxilDone,
    ) -> Self {
        AxiTop { m, side: AxiCsrSide::new(layout, x_seed, done), layouts }
    }
}

crate::model_via!(impl<M: Model> AxiTop<M> => m);

#[cfg(test)]
mod tests {
    use super::*;

    /// Fields across 32-bit word boundaries, one of them 128 bits wide: unpacking gives each value masked
    /// to its width, and the words hold exactly the bits a bit-by-bit packing sets.
    #[test]
    fn pack_and_unpack_round_trip_across_words() {
        let fields = [("a", 0, 1), ("b", 1, 40), ("c", 41, 128), ("d", 169, 7)];
        let layout: Vec<(String, usize, usize)> = fields.map(|(n, l, w)| (n.to_string(), l, w)).to_vec();
        let c = 0x0123_4567_89ab_cdef_fedc_ba98_7654_3210;
        let values = [("a", 3u128), ("b", u128::MAX - 5), ("c", c), ("d", 0x5a)];
        let w: [u32; 6] = pack(&layout, &values).to();
        let mut bits = [0u32; 6];
        for ((_, lsb, width), (_, v)) in layout.iter().zip(values) {
            for b in 0..*width {
                bits[(lsb + b) / 32] |= ((v >> b & 1) as u32) << ((lsb + b) % 32);
            }
        }
        assert_eq!(w, bits);
        for ((name, _, width), (_, v)) in layout.iter().zip(values) {
            assert_eq!(unpack(&layout, w, name), v & golden::common::mask128(*width), "{name}");
        }
        let low: u128 = pack(&layout[..2], &values[..2]).to();
        assert_eq!(low, (values[1].1 & golden::common::mask128(40)) << 1 | 1);
        // The same words through every raw port type unpack alike.
        assert_eq!(unpack(&layout, PortBits::from_port(w), "d"), 0x5a);
        assert_eq!(unpack(&layout[..2], low, "b"), values[1].1 & golden::common::mask128(40));
        assert_eq!(unpack(&layout[..1], low as u64, "a"), 1);
    }
}
