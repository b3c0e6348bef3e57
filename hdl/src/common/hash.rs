//! Hash unit (`HashUnit<K, W>`): one K-bit key per cycle, W-bit hash registered one cycle later when
//! `load` is high (the register holds otherwise: a clock enable, so a core's input handshake drives a few
//! enables instead of selecting the key bits in front of the XOR trees).
//!
//! Generated from a [`golden::common::hash::XorHash`]: output bit `i` is `^(key & MASK_i)`, inverted where
//! the CRC's affine constant has a one — a masked reduction XOR per bit, never a loop-accumulated chain.
//! The same unit computes CRC-16/UMTS, CRC-16/EN-13757, CRC-32/MPEG-2 or H3; see the golden model for the
//! byte order of keys.

use golden::common::config::ConfigError;
use golden::common::hash::{HashKind, XorHash};
use rust_hdl::prelude::*;

#[derive(LogicBlock)]
pub struct HashUnit<const K: usize, const W: usize> {
    pub clock: Signal<In, Clock>,
    pub key: Signal<In, Bits<K>>,
    pub load: Signal<In, bool>,
    pub hash: Signal<Out, Bits<W>>,
    _fn: XorHash,
}

impl<const K: usize, const W: usize> HashUnit<K, W> {
    /// A unit computing `kind` over K-bit keys; a unit narrower than the function outputs its low W bits.
    pub fn new(kind: HashKind) -> Result<Self, ConfigError> {
        let f = XorHash::new(kind, K)?;
        if f.out_bits() < W {
            return Err(ConfigError(format!(
                "{} has {} output bits, the unit is {W} wide",
                kind.name(),
                f.out_bits()
            )));
        }
        Self::from_fn(f.truncated(W)?)
    }
    /// A unit computing `f` exactly (its output width must be W): e.g. a slice of a wider function
    /// ([`XorHash::slice`]).
    pub fn from_fn(f: XorHash) -> Result<Self, ConfigError> {
        if f.out_bits() != W || f.key_bits != K {
            return Err(ConfigError(format!(
                "{} has {} output bits over {}-bit keys, the unit is {W} wide over {K}-bit keys",
                f.kind.name(),
                f.out_bits(),
                f.key_bits
            )));
        }
        Ok(HashUnit {
            clock: Default::default(),
            key: Default::default(),
            load: Default::default(),
            hash: Default::default(),
            _fn: f,
        })
    }
    pub fn function(&self) -> &XorHash {
        &self._fn
    }
}

impl<const K: usize, const W: usize> Logic for HashUnit<K, W> {
    fn update(&mut self) {
        if self.clock.pos_edge() && self.load.val() {
            let key = self.key.val().to_u128();
            self.hash.next = Bits::<W>::from(self._fn.eval(key));
        }
    }
    fn connect(&mut self) {
        self.hash.connect();
    }
    fn hdl(&self) -> Verilog {
        let f = &self._fn;
        let hex = (K + 3) / 4;
        let mut v = format!("// {} over {K}-bit keys\nwire [{}:0] h;\n", f.kind.name(), W - 1);
        for (i, m) in f.masks.iter().enumerate() {
            let inv = if (f.constant >> i) & 1 == 1 { "~" } else { "" };
            v += &format!("assign h[{i}] = {inv}(^(key & {K}'h{m:0hex$x}));\n");
        }
        v += "always @(posedge clock) if (load) hash <= h;\n";
        Verilog::Custom(v)
    }
    fn timing(&self) -> Vec<TimingInfo> {
        vec![TimingInfo {
            name: "hash".into(),
            clock: "clock".into(),
            inputs: vec!["key".into(), "load".into()],
            outputs: vec!["hash".into()],
        }]
    }
}
