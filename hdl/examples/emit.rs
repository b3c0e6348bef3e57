fn main() {
    let dir = std::env::args().nth(1).unwrap_or_else(|| "out/verilog".into());
    let tops = hdl::emit::all_tops(true, true).expect("tops");
    hdl::emit::write_all(std::path::Path::new(&dir), &tops).expect("write");
}
