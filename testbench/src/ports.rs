//! Port mapping shared by every core runner: a top's outputs as a typed struct, declared once with the
//! comparison against the golden model's outputs struct of the same field names ([`top_outputs!`]).
//!
//! A core supplies its `drive` (golden inputs → input ports) and one `top_outputs!` line per output port;
//! the read from each Verilated model, the field-by-field comparison and the scoreboard names come from here.

use crate::harness::Scoreboard;

/// A raw port value as the generated bindings return it (≤64 bits: `u64`, ≤128: `u128`, wider: `[u32; N]`),
/// converted into the field type of a typed outputs struct.
pub trait FromPort<Raw> {
    fn from_port(raw: Raw) -> Self;
}

impl FromPort<u64> for bool {
    fn from_port(raw: u64) -> bool {
        raw != 0
    }
}
impl FromPort<u64> for u32 {
    fn from_port(raw: u64) -> u32 {
        raw as u32
    }
}
impl FromPort<u64> for u64 {
    fn from_port(raw: u64) -> u64 {
        raw
    }
}
impl FromPort<u64> for u128 {
    fn from_port(raw: u64) -> u128 {
        raw as u128
    }
}
impl FromPort<u128> for u128 {
    fn from_port(raw: u128) -> u128 {
        raw
    }
}
/// Words into words: the same count, or zero-extended to a wider field (a build-time top whose port is
/// narrower than the widest configuration the field is declared for).
impl<const N: usize, const M: usize> FromPort<[u32; N]> for [u32; M] {
    fn from_port(raw: [u32; N]) -> [u32; M] {
        assert!(N <= M, "a {N}-word port does not fit a {M}-word field");
        std::array::from_fn(|k| raw.get(k).copied().unwrap_or(0))
    }
}

/// Words of a port of a run-time model (`crate::runtime_model::DynTop`), least significant first: converts
/// into every field type of the typed outputs structs, so one model type serves every runner.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct PortBits(pub [u32; PORT_WORDS]);

/// The widest port a run-time model reads: 512 bits.
pub const PORT_WORDS: usize = 16;

impl PortBits {
    fn low128(&self) -> u128 {
        self.0.iter().take(4).enumerate().fold(0u128, |a, (k, w)| a | (*w as u128) << (32 * k))
    }
}

macro_rules! from_port_bits {
    ($($t:ty),*) => {$(
        impl FromPort<PortBits> for $t {
            fn from_port(raw: PortBits) -> $t {
                raw.low128() as $t
            }
        }
    )*};
}
from_port_bits!(u32, u64, u128);

impl FromPort<PortBits> for bool {
    fn from_port(raw: PortBits) -> bool {
        raw.low128() != 0
    }
}
impl<const N: usize> FromPort<PortBits> for [u32; N] {
    fn from_port(raw: PortBits) -> [u32; N] {
        std::array::from_fn(|k| raw.0.get(k).copied().unwrap_or(0))
    }
}

/// Any raw port value as words (the form `crate::axi_core::unpack` reads `tdata` fields from), and words
/// back into any setter's argument type (`PortBits::to`): a core's AXI mapping is written once for its
/// build-time models (`u64`, `u128`, `[u32; N]` ports) and its run-time ones (`PortBits`).
impl FromPort<PortBits> for PortBits {
    fn from_port(raw: PortBits) -> PortBits {
        raw
    }
}
impl FromPort<u64> for PortBits {
    fn from_port(raw: u64) -> PortBits {
        PortBits::from(raw as u128)
    }
}
impl FromPort<u128> for PortBits {
    fn from_port(raw: u128) -> PortBits {
        PortBits::from(raw)
    }
}
impl<const N: usize> FromPort<[u32; N]> for PortBits {
    fn from_port(raw: [u32; N]) -> PortBits {
        assert!(N <= PORT_WORDS, "a {N}-word port is wider than {PORT_WORDS} words");
        PortBits(std::array::from_fn(|k| raw.get(k).copied().unwrap_or(0)))
    }
}

impl From<u128> for PortBits {
    fn from(v: u128) -> PortBits {
        PortBits(std::array::from_fn(|k| if k < 4 { (v >> (32 * k)) as u32 } else { 0 }))
    }
}

impl PortBits {
    /// These words as the argument type of a port's setter (or any field type): `u64`/`u128` take the low
    /// bits, `[u32; N]` the first `N` words.
    pub fn to<T: FromPort<PortBits>>(self) -> T {
        T::from_port(self)
    }
}

/// A raw port value converted into field type `T` (`bool`: non-zero) — `port(m.rep_valid())` reads the same
/// for a build-time model and a run-time one.
pub fn port<R, T: FromPort<R>>(raw: R) -> T {
    T::from_port(raw)
}

/// A field of a typed outputs struct as the scoreboard compares it: scalars in one check, wide words in
/// 128-bit slices (`name[127:0]`, `name[255:128]`, …). `expected = None`: undefined in golden, not compared.
pub trait PortValue {
    fn check(&self, sb: &mut Scoreboard, cycle: u64, name: &'static str, expected: Option<&Self>);
}

macro_rules! scalar_port_value {
    ($($t:ty),*) => {$(
        impl PortValue for $t {
            fn check(&self, sb: &mut Scoreboard, cycle: u64, name: &'static str, expected: Option<&Self>) {
                sb.check(cycle, name, expected.map(|e| *e as u128), *self as u128);
            }
        }
    )*};
}
scalar_port_value!(bool, u32, u64, u128);

impl<const N: usize> PortValue for [u32; N] {
    fn check(&self, sb: &mut Scoreboard, cycle: u64, name: &'static str, expected: Option<&Self>) {
        let slice = |w: &[u32]| w.iter().enumerate().fold(0u128, |a, (k, v)| a | (*v as u128) << (32 * k));
        for lo in (0..N).step_by(4) {
            let hi = (lo + 4).min(N);
            sb.check_slice(cycle, name, 32 * lo, 32 * hi - 1, expected.map(|e| slice(&e[lo..hi])), slice(&self[lo..hi]));
        }
    }
}

/// Reads a top's typed outputs (implemented by [`top_outputs!`] for every model it lists).
pub trait ReadOutputs {
    type Outputs;
    fn outputs(&self) -> Self::Outputs;
}

/// Declares a top's typed outputs once: the struct (one field per output port, named as the port and as the
/// field of the golden outputs struct, whose fields are `Option`s of the same types), its comparison
/// `compare(&self, sb, cycle, &golden)` — every field the golden model defines, a field marked
/// `[when v]` only in cycles where golden's `v` is `Some(true)`, each check named by its field — and
/// [`ReadOutputs`] for every listed model.
///
/// ```text
/// top_outputs! {
///     /// Outputs of a fridge top during one cycle.
///     pub struct FridgeOutputs {
///         in_ready: bool, rep_valid: bool, rep_data: u128 [when rep_valid], …
///     }
///     compared with golden::fridge::cycle::FridgeOutputs;
///     read from FridgeDp, FridgeSp, Fridge4Dp
/// }
/// ```
#[macro_export]
macro_rules! top_outputs {
    (
        $(#[$meta:meta])*
        pub struct $name:ident $fields:tt
        compared with $golden:path;
        read from $($model:ty),+ $(,)?
    ) => {
        $crate::top_outputs!(@struct [$(#[$meta])*] $name $golden $fields);
        $( $crate::top_outputs!(@read $name $model $fields); )+
    };
    // Without a golden struct of the same fields (a top compared some other way): the struct and the reads.
    (
        $(#[$meta:meta])*
        pub struct $name:ident $fields:tt
        read from $($model:ty),+ $(,)?
    ) => {
        $crate::top_outputs!(@plain [$(#[$meta])*] $name $fields);
        $( $crate::top_outputs!(@read $name $model $fields); )+
    };
    (@plain [$($meta:tt)*] $name:ident { $( $field:ident : $ty:ty ),* $(,)? }) => {
        $($meta)*
        #[derive(Debug, Clone, Copy, PartialEq, Eq)]
        pub struct $name { $( pub $field: $ty, )* }
    };
    (@struct [$($meta:tt)*] $name:ident $golden:path
        { $( $field:ident : $ty:ty $([when $guard:ident])? ),* $(,)? }
    ) => {
        $($meta)*
        #[derive(Debug, Clone, Copy, PartialEq, Eq)]
        pub struct $name { $( pub $field: $ty, )* }
        impl $name {
            /// Compares this cycle's outputs with golden's, field by field (see `top_outputs!`).
            pub fn compare(&self, sb: &mut $crate::harness::Scoreboard, cycle: u64, expected: &$golden) {
                $(
                    if true $( && expected.$guard == Some(true) )? {
                        $crate::ports::PortValue::check(
                            &self.$field, sb, cycle, stringify!($field), expected.$field.as_ref(),
                        );
                    }
                )*
            }
        }
    };
    (@read $name:ident $model:ty
        { $( $field:ident : $ty:ty $([when $guard:ident])? ),* $(,)? }
    ) => {
        impl $crate::ports::ReadOutputs for $model {
            type Outputs = $name;
            fn outputs(&self) -> $name {
                $name { $( $field: $crate::ports::FromPort::from_port(self.$field()), )* }
            }
        }
    };
}

/// One impl block for several generated models (the per-top structs have the same port methods but no
/// common trait): `impl_for! { impl FridgeTop => FridgeDp, FridgeSp; { fn drive(…) { … } } }`.
#[macro_export]
macro_rules! impl_for {
    (impl $tr:path => $($model:ty),+ $(,)? ; $body:tt) => {
        $( impl $tr for $model $body )+
    };
}
