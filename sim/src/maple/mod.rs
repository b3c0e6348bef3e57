//! MAPLE's control plane: choosing the latency centers from sampled packets (logarithmic, streaming
//! k-medians, hybrid, and the oracle), the two-epoch pipeline, and the §5 experiments comparing the SVBF
//! with PBF, COMB and a perfect store on traffic through an open-loop RED queue; the query engine over the
//! core's stored epochs ([`query`], [`aggregate`], [`epochs`], [`evaluate`]: §4, §5.4, Fig. 8(a)/(c)) and
//! the IP-ID range queries' bandwidth ([`ranges`], Fig. 8(b)); the
//! RTL engine (`rtl`, `--engine rtl`: the SVBF co-simulated at the build's size, checked against golden).

pub mod aggregate;
pub mod cli;
pub mod clustering;
pub mod epochs;
pub mod evaluate;
pub mod experiment;
pub mod metrics;
pub mod query;
pub mod query_cli;
pub mod ranges;
#[cfg(feature = "rtl")]
pub mod rtl;
