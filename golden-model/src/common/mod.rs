//! Shared blocks every core uses: hashes, PRNG, SRAM, read-modify-write pipeline (one row or several), report
//! FIFO, CSR bank.

pub mod axil;
pub mod config;
pub mod csr;
pub mod delay;
pub mod digest;
pub mod fifo;
pub mod handover;
pub mod hash;
pub mod index_hashes;
pub mod latency;
pub mod multi_rmw;
pub mod preimage;
pub mod prng;
pub mod rmw;
pub mod sram;
pub mod tops;
pub mod walk;
pub mod word;

pub use config::ConfigError;
pub use word::Word;

/// Mask with the low `bits` bits set (`bits` ≤ 128).
pub const fn mask128(bits: usize) -> u128 {
    if bits >= 128 {
        u128::MAX
    } else {
        (1u128 << bits) - 1
    }
}

/// Defines a method `$name` and its twin `$avx2` with the same `body`, the twin compiled for AVX2; `$name`
/// runs the twin when the CPU has AVX2 (checked at run time). For a model's packet loop, whose table rows of
/// hash lanes are then XORed in with fewer instructions: only the instruction selection differs, the values
/// are the baseline build's. The body should call `#[inline(always)]` code, so that it lands in the twin (a
/// closure passed to a `#[target_feature]` function is not inlined into it, hence a macro).
#[macro_export]
macro_rules! avx2_twin {
    ($(#[$m:meta])* fn $name:ident / $avx2:ident <const $c:ident: usize>(&mut $s:ident $(, $a:ident: $t:ty)* $(,)?)
        $body:block) => {
        $(#[$m])*
        #[inline(never)]
        fn $name<const $c: usize>(&mut $s $(, $a: $t)*) {
            #[cfg(target_arch = "x86_64")]
            if std::arch::is_x86_feature_detected!("avx2") {
                // SAFETY: the CPU has AVX2 (just checked), what the twin requires.
                return unsafe { $s.$avx2::<$c>($($a),*) };
            }
            $body
        }

        /// The AVX2 build of the method above.
        #[cfg(target_arch = "x86_64")]
        #[target_feature(enable = "avx2")]
        fn $avx2<const $c: usize>(&mut $s $(, $a: $t)*) $body
    };
}
