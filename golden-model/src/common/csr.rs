//! CSR port: run-time configuration registers and read-only status/counter registers.
//!
//! Address map (8-bit address, 32-bit data): config register `k` at address `k` (read/write, reset to its
//! default); status register `k` at [`CSR_STATUS_BASE`]` + k` (read-only, the core's live value); any other
//! address reads [`CSR_UNMAPPED`] and ignores writes. A write in cycle `c` takes effect at the edge ending
//! `c`. A read request (`rd_en`) in cycle `c` answers in `c+1` with `rd_valid` and `rd_data`; it returns the
//! config value before a same-cycle write and the status value of cycle `c`.

use super::config::{ConfigError, CSR_STATUS_BASE, CSR_UNMAPPED};

/// The register layout of one CSR bank (generation-time).
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct CsrLayout {
    /// Names and reset values of the config registers (addresses 0..).
    pub config: Vec<(String, u32)>,
    /// Names of the status registers (addresses CSR_STATUS_BASE..).
    pub status: Vec<String>,
}

impl CsrLayout {
    pub fn check(&self) -> Result<(), ConfigError> {
        if self.config.is_empty() {
            return Err(ConfigError("a CSR bank needs at least one config register".into()));
        }
        if self.config.len() > CSR_STATUS_BASE as usize || self.status.len() > 256 - CSR_STATUS_BASE as usize {
            return Err(ConfigError(format!(
                "CSR bank with {} config and {} status registers does not fit the 8-bit address map",
                self.config.len(),
                self.status.len()
            )));
        }
        Ok(())
    }
    pub fn config_addr(&self, name: &str) -> Option<u8> {
        self.config.iter().position(|(n, _)| n == name).map(|p| p as u8)
    }
    pub fn status_addr(&self, name: &str) -> Option<u8> {
        self.status.iter().position(|n| n == name).map(|p| CSR_STATUS_BASE + p as u8)
    }
}

#[derive(Debug, Clone, Default)]
pub struct CsrInputs {
    pub reset: bool,
    pub addr: u8,
    pub wr_en: bool,
    pub wr_data: u32,
    pub rd_en: bool,
    pub status: Vec<u32>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CsrOutputs {
    pub rd_valid: bool,
    pub rd_data: u32,
    pub config: Vec<u32>,
}

#[derive(Debug, Clone)]
pub struct CsrModel {
    pub layout: CsrLayout,
    config: Vec<u32>,
    rd_valid: bool,
    rd_data: u32,
    started: bool,
}

impl CsrModel {
    pub fn new(layout: CsrLayout) -> Self {
        let config = layout.config.iter().map(|c| c.1).collect();
        CsrModel { layout, config, rd_valid: false, rd_data: 0, started: false }
    }
    /// The config registers now.
    pub fn config(&self) -> &[u32] {
        &self.config
    }
    /// The value a read of `addr` returns in this state with these status inputs.
    pub fn read(&self, addr: u8, status: &[u32]) -> u32 {
        let a = addr as usize;
        let s = CSR_STATUS_BASE as usize;
        if a < self.config.len() {
            self.config[a]
        } else if a >= s && a - s < self.layout.status.len() {
            status.get(a - s).copied().unwrap_or(0)
        } else {
            CSR_UNMAPPED
        }
    }
    /// Outputs during this cycle (`None` before the first reset), then the edge.
    pub fn step(&mut self, i: &CsrInputs) -> Option<CsrOutputs> {
        let out = self.started.then(|| CsrOutputs {
            rd_valid: self.rd_valid,
            rd_data: self.rd_data,
            config: self.config.clone(),
        });
        if i.reset {
            self.config = self.layout.config.iter().map(|c| c.1).collect();
            self.rd_valid = false;
            self.rd_data = 0;
            self.started = true;
            return out;
        }
        if i.rd_en {
            self.rd_data = self.read(i.addr, &i.status);
        }
        self.rd_valid = i.rd_en;
        if i.wr_en && (i.addr as usize) < self.config.len() {
            self.config[i.addr as usize] = i.wr_data;
        }
        out
    }
}
