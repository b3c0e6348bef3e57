//! [`declare_block!`](crate::declare_block): a rust-hdl block's fields declared once, each with its initializer.
//!
//! A `#[derive(LogicBlock)]` struct lists every port, register, leaf and constant as a field, and its
//! constructor lists every field again (`x: Default::default()` for most of them). The macro takes one
//! list — `name: Type` or `name: Type = initializer` — and writes both: the struct (with the attributes
//! given, so `#[derive(LogicBlock)]` still sees a plain struct with named fields: that derive accepts
//! only that, and skips fields whose names start with `_`) and a constructor that evaluates every
//! initializer, `Default::default()` where none is given. The constructor's parameters are in scope in
//! the initializers, so widths and offsets can depend on the configuration; checks belong in a `new`
//! that calls it.
//!
//! ```text
//! declare_block! {
//!     #[derive(LogicBlock)]
//!     pub struct Adder<const W: usize> fn build(offset: u64) {
//!         pub a: Signal<In, Bits<W>>,
//!         pub y: Signal<Out, Bits<W>>,
//!         k: Constant<Bits<W>> = constant(offset),
//!     }
//! }
//! ```
//!
//! Only `const _: usize` generics are supported (the only kind the RTL uses). `fn build(…) with csr_port
//! { … }` appends the six flat CSR pins (`csr_addr`, `csr_wr_en`, `csr_wr_data`, `csr_rd_en`, `csr_rd_valid`,
//! `csr_rd_data`) that every core wires to its core shell.

/// See the [module docs](self).
#[macro_export]
macro_rules! declare_block {
    (
        $(#[$sm:meta])*
        $vis:vis struct $name:ident $(<$(const $g:ident : usize),* $(,)?>)?
        fn $ctor:ident ( $($arg:ident : $aty:ty),* $(,)? ) {
            $( $(#[$fm:meta])* $fvis:vis $f:ident : $ft:ty $(= $init:expr)? ),* $(,)?
        }
    ) => {
        $(#[$sm])*
        $vis struct $name $(<$(const $g: usize),*>)? {
            $( $(#[$fm])* $fvis $f : $ft ),*
        }
        impl $(<$(const $g: usize),*>)? $name $(<$($g),*>)? {
            /// Every field at its declared initializer (`Default::default()` where none is given).
            #[allow(dead_code, clippy::too_many_arguments)]
            $vis fn $ctor($($arg: $aty),*) -> Self {
                $name { $( $f: $crate::declare_block!(@init $($init)?) ),* }
            }
        }
    };
    // `fn build(…) with csr_port { … }`: the fields, then the six flat CSR port pins every core has
    // (wired 1:1 to its `CoreShell`'s `csr` bundle; see `hdl::common::shell`).
    (
        $(#[$sm:meta])*
        $vis:vis struct $name:ident $(<$(const $g:ident : usize),* $(,)?>)?
        fn $ctor:ident ( $($arg:ident : $aty:ty),* $(,)? ) with csr_port {
            $( $(#[$fm:meta])* $fvis:vis $f:ident : $ft:ty $(= $init:expr)? ),* $(,)?
        }
    ) => {
        $crate::declare_block! {
            $(#[$sm])*
            $vis struct $name $(<$(const $g: usize),*>)? fn $ctor($($arg: $aty),*) {
                $( $(#[$fm])* $fvis $f : $ft $(= $init)?, )*
                /// CSR port: 8-bit address, write strobe and data, read strobe answered a cycle later.
                pub csr_addr: Signal<In, Bits<8>>,
                pub csr_wr_en: Signal<In, bool>,
                pub csr_wr_data: Signal<In, Bits<32>>,
                pub csr_rd_en: Signal<In, bool>,
                pub csr_rd_valid: Signal<Out, bool>,
                pub csr_rd_data: Signal<Out, Bits<32>>,
            }
        }
    };
    (@init) => { Default::default() };
    (@init $init:expr) => { $init };
}

#[cfg(test)]
mod tests {
    use crate::common::bits::{constant, Slice};
    use crate::common::reg::Reg;
    use rust_hdl::core::check_error::check_all;
    use rust_hdl::prelude::*;

    declare_block! {
        /// A registered `a + k` whose `k` comes from the constructor, and a slice at a given offset.
        #[derive(LogicBlock)]
        pub struct AddK<const W: usize> fn build(k: u64, offset: usize) {
            pub clock: Signal<In, Clock>,
            pub a: Signal<In, Bits<W>>,
            pub y: Signal<Out, Bits<W>>,
            pub hi: Signal<Out, Bits<2>>,
            sum: Reg<Bits<W>>,
            upper: Slice<W, 2> = Slice::new(offset),
            k: Constant<Bits<W>> = constant(k),
            _k: u64 = k,
        }
    }

    impl<const W: usize> Logic for AddK<W> {
        #[hdl_gen]
        fn update(&mut self) {
            dff_setup!(self, clock, sum);
            self.sum.d.next = self.a.val() + self.k.val();
            self.y.next = self.sum.q.val();
            self.upper.din.next = self.a.val();
            self.hi.next = self.upper.out.val();
        }
    }

    #[test]
    fn fields_take_their_initializers_and_the_block_simulates() {
        let mut uut = AddK::<8>::build(5, 6);
        assert_eq!(uut._k, 5);
        uut.connect_all();
        check_all(&uut).expect("a well-formed block");
        let mut sim = Simulation::new();
        sim.add_clock(5, |x: &mut Box<AddK<8>>| x.clock.next = !x.clock.val());
        sim.add_testbench(move |mut sim: Sim<AddK<8>>| {
            let mut x = sim.init()?;
            x.a.next = 0xC1.into();
            wait_clock_cycle!(sim, clock, x);
            wait_clock_cycle!(sim, clock, x);
            sim_assert_eq!(sim, x.y.val(), Bits::<8>::from(0xC6), x);
            sim_assert_eq!(sim, x.hi.val(), Bits::<2>::from(0b11), x);
            sim.done(x)
        });
        sim.run(Box::new(uut), 100).unwrap();
    }

    #[test]
    fn verilog_has_the_declared_parts() {
        let mut uut = AddK::<8>::build(5, 6);
        uut.connect_all();
        let v = generate_verilog(&uut);
        assert!(v.contains("k = 8'h5;"), "{v}");
        assert!(v.contains("din[6 +: 2]"), "{v}");
    }
}
