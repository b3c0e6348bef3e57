//! FineComb's RTL engine (`--engine rtl`): sender and receiver on the Verilated builds through `testbench`,
//! checked cycle by cycle against the golden cycle model and, here, against the golden transaction model.
//! Only in builds with the `rtl` feature (the experiment says [`crate::RTL_MISSING`] without it).

use super::experiment::Plan;
use crate::traffic::finecomb::{Event, IntervalTraffic};
use golden::finecomb::{BankConfig, IntervalReport, Role};

/// The readouts of every plan's two ends on the RTL, each also checked against the golden transaction
/// model's readout (`golden`, in the order of `plans`).
pub(super) fn cores(
    traffic: &IntervalTraffic,
    plans: &[&Plan],
    golden: Vec<(IntervalReport, IntervalReport)>,
) -> Result<Vec<(IntervalReport, IntervalReport)>, String> {
    let mut out = Vec::new();
    for (plan, (gs, gr)) in plans.iter().zip(golden) {
        let s = end(traffic, plan, Role::Sender)?;
        let r = end(traffic, plan, Role::Receiver)?;
        for (end, rtl, gold) in [("sender", &s, &gs), ("receiver", &r, &gr)] {
            if rtl != gold {
                let bank = rtl.banks.iter().zip(&gold.banks).position(|(a, b)| a != b);
                return Err(format!(
                    "{end}: the RTL readout of the measured interval differs from the golden transaction model's \
                     (first differing bank: {bank:?})"
                ));
            }
        }
        out.push((s, r));
    }
    Ok(out)
}

/// The Verilated core that runs a plan: `finecomb` (ISD) or `finecomb_lda`, four banks of up to 2^13
/// buckets and 2^10-entry substashes. A plan with fewer banks leaves the others nearly idle (one bucket,
/// threshold 0, i.e. p = 2^-32; their records are dropped); a sender is the receiver build with every
/// stash depth 0 (it then behaves as one).
fn end(traffic: &IntervalTraffic, plan: &Plan, role: Role) -> Result<IntervalReport, String> {
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
