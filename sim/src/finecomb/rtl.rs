//! FineComb's RTL engine (`--engine rtl`): sender and receiver on the Verilated builds through `testbench`,
//! checked cycle by cycle against the golden cycle model. Only in builds with the `rtl` feature; without it
//! [`end`] is an error (no Verilated cores are linked in).

#[cfg(feature = "rtl")]
pub(super) use imp::*;

#[cfg(not(feature = "rtl"))]
pub(super) use none::*;

#[cfg(feature = "rtl")]
mod imp {
    use super::super::experiment::Plan;
    use crate::traffic::finecomb::{Event, IntervalTraffic};
    use golden::finecomb::{BankConfig, IntervalReport, Role};

    /// The Verilated core that runs a plan: `finecomb` (ISD) or `finecomb_lda`, four banks of up to 2^13
    /// buckets and 2^10-entry substashes. A plan with fewer banks leaves the others nearly idle (one bucket,
    /// threshold 0, i.e. p = 2^-32; their records are dropped); a sender is the receiver build with every
    /// stash depth 0 (it then behaves as one).
    pub(in crate::finecomb) fn end(traffic: &IntervalTraffic, plan: &Plan, role: Role) -> Result<IntervalReport, String> {
        use golden::finecomb::cycle::Assembler;
        use golden::finecomb::Descriptor;
        let top = if plan.isd { "finecomb" } else { "finecomb_lda" };
        let core = testbench::finecomb::top_config(top);
        if plan.banks.len() > core.banks() {
            return Err(format!("the RTL build {top} has {} banks, the plan {}", core.banks(), plan.banks.len()));
        }
        let mut shape = plan.config(Role::Receiver);
        if role == Role::Sender {
            shape.banks.iter_mut().for_each(|b| b.stash_depth = 0);
        }
        shape.banks.resize(core.banks(), BankConfig { buckets: 1, stash_depth: 0 });
        core.fits(&shape).map_err(|e| {
            format!("--engine rtl: {e} (the RTL build {top} holds up to 2^{} buckets per bank)", core.bucket_addr_bits)
        })?;
        let mut thresholds = plan.runtime().thresholds;
        thresholds.resize(core.banks(), 0);
        let runs = if role == Role::Sender { traffic.sender() } else { traffic.receiver() };
        let mut descs = Vec::new();
        traffic.events(&runs, role == Role::Receiver, |e| match e {
            Event::Packet(i) => {
                let p = traffic.packet(i);
                descs.push(Descriptor::packet(p.key, if role == Role::Sender { p.sent } else { p.received() }));
            }
            Event::Marker(m) => descs.push(m),
        });
        let run = if plan.isd {
            testbench::finecomb::run_trace(top, &shape, &thresholds, &descs, testbench::models::Finecomb::new)?
        } else {
            testbench::finecomb::run_trace(top, &shape, &thresholds, &descs, testbench::models::FinecombLda::new)?
        };
        let mut asm = Assembler::new(&shape);
        let mut measured = run.records.iter().filter_map(|r| asm.push(r)).find(|r| r.interval == 1);
        let mut report = measured.take().ok_or("the RTL did not read out the measured interval")?;
        report.banks.truncate(plan.banks.len());
        Ok(report)
    }
}

#[cfg(not(feature = "rtl"))]
mod none {
    use super::super::experiment::Plan;
    use crate::traffic::finecomb::IntervalTraffic;
    use golden::finecomb::{IntervalReport, Role};

    pub(in crate::finecomb) fn end(_: &IntervalTraffic, _: &Plan, _: Role) -> Result<IntervalReport, String> {
        Err(crate::RTL_MISSING.into())
    }
}
