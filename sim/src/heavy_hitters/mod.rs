//! The heavy-hitter core's control plane: SpaceSaving, RAP, d-way RAP and PRECISION on the RAP theorem's
//! setting (dissertation ch. 4) and on Zipf streams and captures, with the metrics of those experiments.

pub mod cli;
pub mod experiment;
pub mod metrics;
mod report;
#[cfg(feature = "rtl")]
mod rtl;
