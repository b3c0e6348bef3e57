//! Tests of the synthesis flow (`crate::flow`): results, tables, the timing gate.

use super::*;

fn result(config: &str, fmax: f64, bram_bits: u64) -> SynthResult {
    SynthResult {
        core: "rmw".into(),
        config: config.into(),
        top: format!("rmw_{config}"),
        ii1: true,
        ecp5_bram: false,
        lut4: 267,
        ff: 284,
        bram: 2,
        dsp: 0,
        lutram: 0,
        ring_ff: 100,
        fmax_mhz: fmax,
        fmax_min_mhz: fmax - 5.0,
        fmax_max_mhz: fmax + 5.0,
        fmax_per_seed: vec![],
        memory_bits_needed: 32768,
        bram_bits_used: bram_bits,
        bram_min_blocks: 2,
        crit: None,
        seconds: 1.0,
        memories: vec![],
    }
}

#[test]
fn timing_gate_names_what_is_below() {
    let rs = [result("dp_a10_w32", 194.4, 36864), result("dp_a16_w32", 106.0, 0)];
    assert!(gate(&rs[..1], 150.0).unwrap().contains("all 1 configuration(s)"));
    let err = gate(&rs, 150.0).unwrap_err();
    assert!(err.contains("1 of 2") && err.contains("rmw dp_a16_w32: 106.00 MHz"), "{err}");
    assert!(!err.contains("dp_a10_w32"), "{err}");
}

#[test]
fn text_and_markdown_tables_show_the_same_cells() {
    let rs = [result("dp_a10_w32", 194.4, 36864), result("dp_a16_w32", 106.0, 0)];
    let t = results_table(&rs);
    let md = t.markdown();
    let text = t.text();
    assert_eq!(md.lines().count(), 4);
    assert_eq!(text.lines().count(), 3);
    assert_eq!(
        md.lines().nth(2).unwrap(),
        "| rmw | dp_a10_w32 | 1 | 267 | 284 | 2 | 0 | 194.4 (189.4–199.4) | yes | 32 Kib | 36 Kib | 2 |"
    );
    assert!(md.lines().nth(3).unwrap().contains("| 106.0 (101.0–111.0) | **no** | 32 Kib | – | 2 |"));
    let words = |l: &str| l.split_whitespace().map(String::from).collect::<Vec<_>>();
    assert_eq!(
        words(text.lines().nth(2).unwrap()),
        words("rmw dp_a16_w32 1 267 284 2 0 106.0 (101.0–111.0) NO 32 Kib – 2")
    );
}

fn args(core: &str, configs: &[&str]) -> SynthArgs {
    SynthArgs {
        core: core.into(),
        configs: configs.iter().map(|c| c.to_string()).collect(),
        seeds: 1,
        freq: 150.0,
        json: true,
        markdown: None,
        out: PathBuf::from("out/synth"),
        list: false,
        min_fmax: None,
        jobs: None,
    }
}

/// Bad selections fail before any tool is looked for (so these hold on a machine without them).
#[test]
fn unknown_cores_and_configurations_are_errors_before_the_tools_run() {
    let err = run(&args("nope", &[])).unwrap_err();
    assert!(err.starts_with("unknown core `nope`; known: all, hash, prng, rmw,"), "{err}");
    let err = run(&args("sram", &[])).unwrap_err();
    assert!(err.starts_with("unknown core `sram`"), "a core without synthesis configurations: {err}");
    let err = run(&args("prng", &["no_such_config"])).unwrap_err();
    assert_eq!(err, "no configuration matches [\"no_such_config\"] in core prng");
}

/// `core/config` picks one core's configuration under `--core all` (the timing gate's form); every
/// selector must match something.
#[test]
fn qualified_configuration_names_select_across_cores() {
    let sel = |o: &[&str]| {
        hdl::synth_tops::configs(Some("all"), &o.iter().map(|c| c.to_string()).collect::<Vec<_>>())
            .map(|v| v.into_iter().map(|c| format!("{}/{}", c.core, c.config)).collect::<Vec<_>>())
    };
    assert_eq!(sel(&["prng/xorshift32", "hash/k104"]).unwrap(), ["hash/k104", "prng/xorshift32"]);
    assert_eq!(sel(&["xorshift32"]).unwrap(), ["prng/xorshift32"]);
    let err = sel(&["prng/xorshift32", "fifo/k104"]).unwrap_err();
    assert_eq!(err, "no configuration matches [\"fifo/k104\"] in core all");
}

#[test]
fn the_io_ring_registers_every_port_but_the_clock() {
    let top = hdl::emit::TopInfo {
        name: "t".into(),
        description: String::new(),
        test_only: false,
        params: Default::default(),
        csr: None,
        csr_ports: Vec::new(),
        verilog: "module t(); endmodule".into(),
        ports: [("clock", "input", 1), ("a", "input", 8), ("y", "output", 3)]
            .map(|(n, d, w)| hdl::emit::Port { name: n.into(), dir: d.into(), width: w })
            .to_vec(),
    };
    let (name, v, bits) = with_io_ring(&top);
    assert_eq!((name.as_str(), bits), ("t_ring", 11));
    assert!(v.contains("(* keep *) reg [7:0] netmeas_ring_a = 0;"), "{v}");
    assert!(v.contains("netmeas_ring_y <= core_y;") && v.contains(".clock(clock)"), "{v}");
    // An AXI flavour's clock is `clk`: passed through and clocking the ring, not registered as data.
    let mut axi = top.clone();
    axi.ports[0].name = "clk".into();
    let (_, v, bits) = with_io_ring(&axi);
    assert_eq!(bits, 11);
    assert!(v.contains(".clk(clk)") && v.contains("always @(posedge clk)") && !v.contains("netmeas_ring_clk"), "{v}");
}
