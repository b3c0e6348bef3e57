//! FineComb's control plane: the estimators of §III-C to §III-E (useful buckets, mean delay, standard
//! deviation, loss, stash recovery, multi-bank combination, LDA and LDA+), the parameter formulas of §IV,
//! and the experiments of §V on the golden cores.

pub mod cli;
pub mod estimate;
pub mod experiment;
pub mod loss_model;
pub mod params;
pub mod sweep;
#[cfg(feature = "rtl")]
mod rtl;
