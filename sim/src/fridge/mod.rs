//! The fridge's control plane: estimators over its reports and the experiments of dissertation §2.4.

pub mod cli;
pub mod estimate;
pub mod experiment;
pub mod sweep;
#[cfg(feature = "rtl")]
mod rtl;
