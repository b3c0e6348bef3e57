//! The header parser (issue 18) against its cycle model (`golden::parser::cycle`), cycle by cycle: random
//! frame mixes of every encapsulation and every malformed kind (`golden::parser::random`), back-to-back
//! beats or idle gaps on tvalid, backpressure on the record output, resets mid-frame, random CSR reads of
//! the counters and writes of the scratch register. Compared every cycle: `s_axis_tready`, the record's
//! valid bit, status and timestamp, and every field of an accepted record; the CSR read-back.

use crate::blocks::Run;
use crate::harness::Model;
use crate::harness::{RunConfig, RunReport, Scoreboard, Sim};
use crate::models::{ParserD64, ParserD8, ParserDesc};
use golden::common::config::CSR_STATUS_BASE;
use golden::common::csr::{CsrInputs, CsrModel};
use golden::parser::cycle::{beats, csr_layout, Fields, ParserCycle, ParserInputs, Record};
use golden::parser::driver::{Chain, FrameDriver, FrontendRun, Lanes, Stimulus};
use golden::parser::{parse, random, Drop, ParserConfig};
use rand::Rng;
use std::collections::VecDeque;

/// Every co-simulation runner of the parser.
pub const ALL: &[crate::harness::Runner] =
    &[("parser_d8", run_d8), ("parser_d64", run_d64), ("parser_desc", crate::parser_desc::run)];

/// The ports a parser top has (both builds; only the data bus's width differs).
pub trait ParserTop: Model {
    const NAME: &'static str;
    const BYTES: usize;
    fn make(x_seed: u64) -> Self;
    fn drive(&mut self, i: &ParserInputs, csr: (u8, bool, u32, bool));
    fn outputs(&self) -> Outputs;
}

/// One cycle's RTL outputs.
pub struct Outputs {
    pub tready: bool,
    pub valid: bool,
    pub status: u8,
    pub timestamp: u64,
    pub fields: Fields,
    pub csr_rd_valid: bool,
    pub csr_rd_data: u32,
}

macro_rules! parser_top {
    ($t:ty, $bytes:literal, $tdata:expr) => {
        impl ParserTop for $t {
            const NAME: &'static str = <$t>::NAME;
            const BYTES: usize = $bytes;
            fn make(x_seed: u64) -> Self {
                <$t>::new(x_seed)
            }
            fn drive(&mut self, i: &ParserInputs, (addr, wr_en, wr_data, rd_en): (u8, bool, u32, bool)) {
                self.set_reset(i.reset as u64);
                self.set_s_axis_tvalid(i.tvalid as u64);
                self.set_s_axis_tdata($tdata(&i.tdata));
                self.set_s_axis_tkeep(i.tkeep & if $bytes == 64 { u64::MAX } else { (1u64 << ($bytes % 64)) - 1 });
                self.set_s_axis_tlast(i.tlast as u64);
                self.set_s_axis_tuser(i.tuser);
                self.set_m_rec_ready(i.rec_ready as u64);
                self.set_csr_addr(addr as u64);
                self.set_csr_wr_en(wr_en as u64);
                self.set_csr_wr_data(wr_data as u64);
                self.set_csr_rd_en(rd_en as u64);
            }
            fn outputs(&self) -> Outputs {
                Outputs {
                    tready: self.s_axis_tready() != 0,
                    valid: self.m_rec_valid() != 0,
                    status: self.m_rec_status() as u8,
                    timestamp: self.m_rec_timestamp(),
                    fields: Fields {
                        is_v6: self.m_rec_is_v6() != 0,
                        src_addr: self.m_rec_src_addr(),
                        dst_addr: self.m_rec_dst_addr(),
                        protocol: self.m_rec_protocol() as u8,
                        src_port: self.m_rec_src_port() as u16,
                        dst_port: self.m_rec_dst_port() as u16,
                        seq: self.m_rec_seq() as u32,
                        ack: self.m_rec_ack() as u32,
                        tcp_flags: self.m_rec_tcp_flags() as u8,
                        payload_len: self.m_rec_payload_len() as u16,
                        ip_id: self.m_rec_ip_id() as u16,
                        short: self.m_rec_short() != 0,
                        l4_header_cut: self.m_rec_l4_header_cut() != 0,
                    },
                    csr_rd_valid: self.csr_rd_valid() != 0,
                    csr_rd_data: self.csr_rd_data() as u32,
                }
            }
        }
    };
}

parser_top!(ParserD8, 8, |d: &[u8; 64]| u64::from_le_bytes(d[..8].try_into().unwrap()));
parser_top!(ParserD64, 64, |d: &[u8; 64]| {
    let mut w = [0u32; 16];
    for (k, c) in d.chunks(4).enumerate() {
        w[k] = u32::from_le_bytes(c.try_into().unwrap());
    }
    w
});

/// Coverage every parser run must reach (every drop reason the hardware configuration can produce).
pub fn must_cover() -> Vec<&'static str> {
    let mut v = vec![
        "resets",
        "resets_mid_frame",
        "accepted",
        "accepted_v6",
        "accepted_udp",
        "accepted_two_tags",
        "short",
        "l4_header_cut",
        "one_beat_frames",
        "giant_frames",
        "back_to_back_frames",
        "idle_cycles",
        "stalled_cycles",
        "csr_reads",
    ];
    v.extend(Drop::ALL.iter().filter(|&&d| d != Drop::TruncatedL2).map(|d| d.name()));
    v
}

/// The 8-byte build.
pub fn run_d8(cfg: &RunConfig) -> RunReport {
    run::<ParserD8>(cfg)
}

/// The 64-byte build.
pub fn run_d64(cfg: &RunConfig) -> RunReport {
    run::<ParserD64>(cfg)
}

/// `cfg.transactions` frames through a parser top.
pub fn run<T: ParserTop>(cfg: &RunConfig) -> RunReport {
    let d = T::BYTES;
    let mut run = Run::new(T::NAME, cfg);
    let mut sim = Sim::new(T::make(cfg.x_seed), cfg.vcd.clone());
    let mut gold = ParserCycle::new(d);
    let layout = csr_layout();
    let (n_cfg, n_stat) = (layout.config.len() as u8, layout.status.len() as u8);
    let mut csr = CsrModel::new(layout);
    let mut queue: VecDeque<([u8; 64], u64, bool)> = VecDeque::new();
    let (mut gap_p, mut stall_p, mut phase) = (0.0, 0.0, 0u64);
    let (mut in_frame, mut last_was_tlast) = (false, false);
    let mut started = false;
    while run.transactions < cfg.transactions {
        let c = sim.cycle;
        // Phases of a few thousand cycles: back to back or with idle gaps, output ready or backpressured.
        if c >= phase {
            phase = c + run.rng.gen_range(500..5000);
            gap_p = [0.0, 0.0, 0.1, 0.5][run.rng.gen_range(0..4)];
            stall_p = [0.0, 0.0, 0.5, 0.9][run.rng.gen_range(0..4)];
        }
        if queue.is_empty() {
            let f = random::frame(&mut run.rng, d);
            let bs = if f.is_empty() { vec![([0u8; 64], 0, true)] } else { beats(&f, d) };
            run.count("one_beat_frames", (bs.len() == 1) as u64);
            run.count("giant_frames", (f.len() > 1500) as u64);
            let two_tags = parse(&f, &ParserConfig::HARDWARE).is_ok_and(|h| h.vlan.tags == 2);
            run.count("accepted_two_tags", two_tags as u64);
            queue.extend(bs);
        }
        let reset = c == 0 || run.rng.gen_ratio(1, 300_000);
        if reset {
            run.count("resets", 1);
            run.count("resets_mid_frame", in_frame as u64);
        }
        let r = &mut run.rng;
        let tvalid = !r.gen_bool(gap_p);
        let (tdata, tkeep, tlast) = *queue.front().expect("a beat");
        let rec_ready = !r.gen_bool(stall_p);
        let mut i = ParserInputs { reset, tvalid, tdata, tkeep, tlast, tuser: r.gen(), rec_ready };
        if !tvalid {
            // Idle: the bus carries anything.
            r.fill(&mut i.tdata[..]);
            i.tkeep = r.gen();
            i.tlast = r.gen();
        }
        let (csr_rd, csr_wr) = (r.gen_bool(0.05), r.gen_bool(0.002));
        let addr = if csr_wr {
            0
        } else if r.gen_bool(0.8) {
            CSR_STATUS_BASE + r.gen_range(0..n_stat)
        } else {
            r.gen_range(0..n_cfg.max(1) + 1)
        };
        let wr_data: u32 = r.gen();
        sim.m.drive(&i, (addr, csr_wr, wr_data, csr_rd));
        sim.settle();
        let status = gold.status_words();
        let o = gold.step(&i);
        let co = csr.step(&CsrInputs { reset, addr, wr_en: csr_wr, wr_data, rd_en: csr_rd, status });
        if started {
            let rtl = sim.m.outputs();
            compare(&mut run.sb, &rtl, c, o.tready, o.record.as_ref());
            if let Some(co) = co {
                run.sb.check(c, "csr_rd_valid", Some(co.rd_valid as u128), rtl.csr_rd_valid as u128);
                if co.rd_valid {
                    run.sb.check(c, "csr_rd_data", Some(co.rd_data as u128), rtl.csr_rd_data as u128);
                }
            }
        }
        // Outputs are compared from the cycle after the first reset (before it the registers are random).
        started |= reset;
        run.count("csr_reads", (csr_rd && !reset) as u64);
        run.count("idle_cycles", !tvalid as u64);
        run.count("stalled_cycles", !o.tready as u64);
        if let (Some(rec), true, false) = (o.record, rec_ready, reset) {
            run.transactions += 1;
            count_record(&mut run, &rec);
        }
        if tvalid && o.tready {
            if !reset {
                // A first beat straight after the previous frame's tlast.
                run.count("back_to_back_frames", (!in_frame && last_was_tlast) as u64);
                in_frame = !tlast;
            }
            queue.pop_front();
        }
        last_was_tlast = tvalid && o.tready && tlast && !reset;
        if reset {
            in_frame = false;
        }
        sim.tick();
    }
    run.finish(sim.cycle)
}

/// `frames` (`(bytes, tuser)`) through the RTL of the parser build with the stimulus's bus width and the
/// descriptor stage behind it (`parser_desc`, in the mode `syn_mode` selects: the parser's record output
/// wired into the stage's input, the stage's `s_rec_ready` into the parser's `m_rec_ready`), the cycle
/// models beside them in lockstep ([`golden::parser::driver::Chain`]) and compared every cycle like the
/// co-simulations (the parser's tready, record valid, status, timestamp and fields; the stage's ready and
/// both lanes), under the stimulus's idle gaps and backpressure on both lanes
/// (`golden::parser::driver`). The records (one per frame, in order), the lanes' descriptors and the
/// cycles; a difference is an error naming the seed, the first differing cycle and signal.
pub fn replay(frames: &[(Vec<u8>, u64)], s: &Stimulus, syn_mode: bool) -> Result<FrontendRun, String> {
    match s.data_bytes {
        8 => replay_on::<ParserD8>(frames, s, syn_mode),
        64 => replay_on::<ParserD64>(frames, s, syn_mode),
        n => Err(format!("no parser build with a {}-bit bus (the builds: 64 and 512 bits)", n * 8)),
    }
}

fn replay_on<T: ParserTop>(frames: &[(Vec<u8>, u64)], s: &Stimulus, syn_mode: bool) -> Result<FrontendRun, String> {
    let mut drv = FrameDriver::new(frames, s)?;
    let mut sim = Sim::new(T::make(s.seed), None);
    let mut desc = Sim::new(ParserDesc::new(s.seed ^ 0xde5c), None);
    let mut chain = Chain::new(T::BYTES, syn_mode);
    let mut lanes = Lanes::default();
    let mut sb = Scoreboard::new(T::NAME, s.seed);
    while !(drv.finished() && chain.desc.idle()) {
        let i = drv.inputs();
        // The RTL chain: the stage's ready (a flip-flop) into the parser, the parser's record into the stage.
        let pi = ParserInputs { rec_ready: desc.m.rec_ready(), ..i };
        sim.m.drive(&pi, (0, false, 0, false));
        sim.settle();
        let p = sim.m.outputs();
        desc.m.drive(i.reset, (p.valid, p.status, p.timestamp, &p.fields), syn_mode, i.rec_ready, i.rec_ready);
        desc.settle();
        let o = chain.step(&i);
        if !i.reset {
            compare(&mut sb, &p, sim.cycle, o.parser_out.tready, o.parser_out.record.as_ref());
            sb.check(sim.cycle, "m_rec_ready", Some(o.parser_in.rec_ready as u128), pi.rec_ready as u128);
            desc.m.compare(&mut sb, sim.cycle, &o.desc_out);
            if !sb.is_clean() {
                return Err(format!("replay through the RTL: {sb}"));
            }
        }
        lanes.take(&o.desc_in, &o.desc_out);
        drv.after(&o.parser_in, &o.parser_out)?;
        sim.tick();
        desc.tick();
    }
    let cycles = drv.cycles();
    Ok(FrontendRun { records: drv.into_records(), lanes, cycles })
}

fn compare(sb: &mut Scoreboard, m: &Outputs, c: u64, tready: bool, rec: Option<&Record>) {
    sb.check(c, "s_axis_tready", Some(tready as u128), m.tready as u128);
    sb.check(c, "m_rec_valid", Some(rec.is_some() as u128), m.valid as u128);
    let Some(r) = rec else { return };
    sb.check(c, "m_rec_status", Some(r.status() as u128), m.status as u128);
    sb.check(c, "m_rec_timestamp", Some(r.timestamp as u128), m.timestamp as u128);
    if r.drop.is_some() {
        return;
    }
    let (f, g) = (&r.fields, &m.fields);
    let fields: [(&str, u128, u128); 13] = [
        ("m_rec_is_v6", f.is_v6 as u128, g.is_v6 as u128),
        ("m_rec_src_addr", f.src_addr, g.src_addr),
        ("m_rec_dst_addr", f.dst_addr, g.dst_addr),
        ("m_rec_protocol", f.protocol as u128, g.protocol as u128),
        ("m_rec_src_port", f.src_port as u128, g.src_port as u128),
        ("m_rec_dst_port", f.dst_port as u128, g.dst_port as u128),
        ("m_rec_seq", f.seq as u128, g.seq as u128),
        ("m_rec_ack", f.ack as u128, g.ack as u128),
        ("m_rec_tcp_flags", f.tcp_flags as u128, g.tcp_flags as u128),
        ("m_rec_payload_len", f.payload_len as u128, g.payload_len as u128),
        ("m_rec_ip_id", f.ip_id as u128, g.ip_id as u128),
        ("m_rec_short", f.short as u128, g.short as u128),
        ("m_rec_l4_header_cut", f.l4_header_cut as u128, g.l4_header_cut as u128),
    ];
    for (name, want, got) in fields {
        sb.check(c, name, Some(want), got);
    }
}

fn count_record(run: &mut Run, r: &Record) {
    match r.drop {
        Some(d) => run.count(d.name(), 1),
        None => {
            let f = &r.fields;
            run.count("accepted", 1);
            run.count("accepted_v6", f.is_v6 as u64);
            run.count("accepted_udp", (f.protocol == golden::parser::PROTO_UDP) as u64);
            run.count("short", f.short as u64);
            run.count("l4_header_cut", f.l4_header_cut as u64);
        }
    }
}
