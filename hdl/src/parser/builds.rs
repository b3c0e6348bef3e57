//! The parser's builds (see [`crate::registry`]): `parser_d8` (64-bit bus, 10 GbE at 156.25 MHz) and
//! `parser_d64` (512-bit bus), the same RTL; synthesized as `parser d8` and `parser d64`; and the
//! descriptor stage after it, `parser_desc` (records in, the cores' descriptors out), synthesized as
//! `parser desc`.

use super::desc::TcpDesc;
use super::Parser;
use crate::registry::{Build, MemoryNeed};
use serde_json::json;

/// Every parser build.
pub fn builds() -> Result<Vec<Build>, String> {
    use golden::parser::cycle::{LATENCY, WINDOW};
    let params = |bytes: usize| json!({"data_bytes": bytes, "window": WINDOW, "latency": LATENCY});
    Ok(vec![
        Build::new(
            "parser_d8",
            "Ethernet/VLAN/IPv4/IPv6/TCP/UDP header parser, 8 bytes a beat, one record per frame",
            params(8),
            Parser::<64, 8>::new,
        )
        .csr(golden::parser::cycle::csr_layout())
        .synth("d8", true, Vec::<MemoryNeed>::new()),
        Build::new(
            "parser_d64",
            "Ethernet/VLAN/IPv4/IPv6/TCP/UDP header parser, 64 bytes a beat, one record per frame",
            params(64),
            Parser::<512, 64>::new,
        )
        .csr(golden::parser::cycle::csr_layout())
        .synth("d64", true, Vec::<MemoryNeed>::new()),
        Build::new(
            "parser_desc",
            "Descriptor stage after the parser: fridge lane (0-2 per TCP segment) and flow lane (1 per segment)",
            json!({"fifo_depth": golden::parser::desc::DESC_FIFO_DEPTH, "latency": golden::parser::desc::DESC_LATENCY}),
            TcpDesc::new,
        )
        .synth("desc", true, Vec::<MemoryNeed>::new()),
    ])
}
