//! The IFPD core's control plane: the exact IFPD of every packet as ground truth, the paper's §4.1 metrics,
//! and its two experiments (Fig. 5: thresholds at 400 KB; Fig. 6: memory at 700 ms) for the IFPD sketch, CM
//! and CM-BF in the same memory, on the synthetic segment calibrated to Table 1 or on a capture.

pub mod cli;
pub mod experiment;
pub mod metrics;
#[cfg(feature = "rtl")]
mod rtl;
