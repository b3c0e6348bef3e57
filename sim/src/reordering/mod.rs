//! The reordering core's control plane (defense slides "Control-plane tally"): the per-prefix tally of the
//! core's reports, the exact flow-level ground truth, the scoring of detected prefixes, and the
//! experiments — flow sampling, the hybrid with the heavy-hitter core, and flow tracking in the same memory
//! without per-prefix allocation — on synthetic traffic and on a real capture.

pub mod cli;
pub mod experiment;
pub mod metrics;
#[cfg(feature = "rtl")]
mod rtl;
pub mod tally;
