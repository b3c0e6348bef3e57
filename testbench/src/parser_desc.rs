//! The descriptor stage after the parser (issue 18) against its cycle model (`golden::parser::desc`),
//! cycle by cycle: random records — TCP over IPv4 and IPv6 with every flag combination that matters to the
//! fridge's two modes, with and without payload, UDP and dropped records —, idle input cycles, each lane
//! backpressured on its own, the mode switched between phases, resets. Compared every cycle:
//! `s_rec_ready`, each lane's valid bit and, when valid, every field. The replay through parser and stage
//! ([`crate::parser::replay`]) drives this top from the parser's RTL with [`ParserDesc::drive`].

use crate::blocks::Run;
use crate::harness::{RunConfig, RunReport, Scoreboard, Sim};
use crate::models::ParserDesc;
use golden::parser::cycle::{Fields, Record};
use golden::parser::desc::{DescCycle, DescInputs, DescOutputs, Entry};
use golden::parser::{flags, Drop, PROTO_TCP, PROTO_UDP};
use rand::Rng;

/// The record input as the parser's outputs carry it: valid, status, timestamp, fields.
pub type RecIn<'a> = (bool, u8, u64, &'a Fields);

/// The stage's top: drive a cycle's inputs, compare its outputs.
impl ParserDesc {
    pub fn drive(&mut self, reset: bool, (valid, status, ts, f): RecIn, syn_mode: bool, fr: bool, fl: bool) {
        self.set_reset(reset as u64);
        self.set_syn_mode(syn_mode as u64);
        self.set_s_rec_valid(valid as u64);
        self.set_s_rec_status(status as u64);
        self.set_s_rec_timestamp(ts);
        self.set_s_rec_is_v6(f.is_v6 as u64);
        self.set_s_rec_src_addr(f.src_addr);
        self.set_s_rec_dst_addr(f.dst_addr);
        self.set_s_rec_protocol(f.protocol as u64);
        self.set_s_rec_src_port(f.src_port as u64);
        self.set_s_rec_dst_port(f.dst_port as u64);
        self.set_s_rec_seq(f.seq as u64);
        self.set_s_rec_ack(f.ack as u64);
        self.set_s_rec_tcp_flags(f.tcp_flags as u64);
        self.set_s_rec_payload_len(f.payload_len as u64);
        self.set_s_rec_ip_id(f.ip_id as u64);
        self.set_m_fridge_ready(fr as u64);
        self.set_m_flow_ready(fl as u64);
    }

    pub fn compare(&self, sb: &mut Scoreboard, c: u64, want: &DescOutputs) {
        sb.check(c, "s_rec_ready", Some(want.rec_ready as u128), self.s_rec_ready() as u128);
        sb.check(c, "m_fridge_valid", Some(want.fridge.is_some() as u128), self.m_fridge_valid() as u128);
        if let Some(d) = want.fridge {
            let request = d.kind == golden::fridge::PacketKind::Request;
            sb.check(c, "m_fridge_request", Some(request as u128), self.m_fridge_request() as u128);
            sb.check(c, "m_fridge_id", Some(d.id), self.m_fridge_id());
            sb.check(c, "m_fridge_ts", Some(d.timestamp as u128), self.m_fridge_ts() as u128);
        }
        sb.check(c, "m_flow_valid", Some(want.flow.is_some() as u128), self.m_flow_valid() as u128);
        if let Some(d) = want.flow {
            let fields: [(&str, u128, u128); 7] = [
                ("m_flow_key", d.key, self.m_flow_key()),
                ("m_flow_invariant", d.invariant, self.m_flow_invariant()),
                ("m_flow_addr", d.addr as u128, self.m_flow_addr() as u128),
                ("m_flow_seq", d.seq as u128, self.m_flow_seq() as u128),
                ("m_flow_ts", d.ts as u128, self.m_flow_ts() as u128),
                ("m_flow_data", d.data as u128, self.m_flow_data() as u128),
                ("m_flow_v4", d.v4 as u128, self.m_flow_v4() as u128),
            ];
            for (name, want, got) in fields {
                sb.check(c, name, Some(want), got);
            }
        }
    }

    /// `s_rec_ready` (a flip-flop: known before the cycle's inputs).
    pub fn rec_ready(&self) -> bool {
        self.s_rec_ready() != 0
    }
}

/// Every co-simulation runner of the stage.
pub const ALL: &[crate::harness::Runner] = &[("parser_desc", run)];

/// Coverage every run must reach.
pub const MUST_COVER: &[&str] = &[
    "resets",
    "tcp_v4",
    "tcp_v6",
    "udp_records",
    "dropped_records",
    "fridge_pairs",
    "fridge_none",
    "syn_mode_requests",
    "syn_mode_responses",
    "fin_and_syn_lengths",
    "input_held",
    "fridge_stalls",
    "flow_stalls",
    "lanes_apart",
    "back_to_back_records",
];

/// A random record: mostly TCP (IPv4 and IPv6, flags drawn to hit both fridge modes), some UDP and drops.
pub fn random_record(rng: &mut impl Rng) -> Record {
    let v6 = rng.gen_bool(0.3);
    let addr = |rng: &mut dyn rand::RngCore| if v6 { rng.gen::<u128>() } else { rng.gen::<u32>() as u128 };
    let flag_sets = [flags::ACK, flags::ACK | flags::PSH, flags::SYN, flags::SYN | flags::ACK, flags::FIN | flags::ACK];
    let mut tcp_flags = flag_sets[rng.gen_range(0..flag_sets.len())];
    if rng.gen_bool(0.1) {
        tcp_flags = rng.gen();
    }
    let fields = Fields {
        is_v6: v6,
        src_addr: addr(rng),
        dst_addr: addr(rng),
        protocol: if rng.gen_bool(0.05) { PROTO_UDP } else { PROTO_TCP },
        src_port: rng.gen(),
        dst_port: rng.gen(),
        seq: rng.gen(),
        ack: rng.gen(),
        tcp_flags,
        payload_len: if rng.gen_bool(0.5) { 0 } else { rng.gen_range(1..=u16::MAX) },
        ip_id: rng.gen(),
        short: rng.gen_bool(0.05),
        l4_header_cut: rng.gen_bool(0.05),
    };
    let drop = rng.gen_bool(0.08).then(|| Drop::ALL[rng.gen_range(0..Drop::ALL.len())]);
    Record { drop, timestamp: rng.gen::<u64>() & ((1 << 48) - 1), fields }
}

/// The co-simulation (see the module docs); a transaction is a record taken.
pub fn run(cfg: &RunConfig) -> RunReport {
    let mut run = Run::new("parser_desc", cfg);
    let mut sim = Sim::new(ParserDesc::new(cfg.x_seed), cfg.vcd.clone());
    let mut gold = DescCycle::new();
    let (mut gap_p, mut fr_p, mut fl_p, mut syn, mut phase) = (0.0, 0.0, 0.0, false, 0u64);
    let mut next = random_record(&mut run.rng);
    let (mut started, mut last_taken) = (false, false);
    while run.transactions < cfg.transactions {
        let c = sim.cycle;
        if c >= phase {
            let r = &mut run.rng;
            phase = c + r.gen_range(200..3000);
            gap_p = [0.0, 0.0, 0.3, 0.8][r.gen_range(0..4)];
            fr_p = [0.0, 0.0, 0.3, 0.9][r.gen_range(0..4)];
            fl_p = [0.0, 0.0, 0.3, 0.9][r.gen_range(0..4)];
            syn = r.gen_bool(0.25);
        }
        let r = &mut run.rng;
        let reset = c == 0 || r.gen_ratio(1, 50_000);
        let valid = !r.gen_bool(gap_p);
        let (fridge_ready, flow_ready) = (!r.gen_bool(fr_p), !r.gen_bool(fl_p));
        // An idle cycle carries whatever record is next (the stage must not look at it).
        sim.m.drive(reset, (valid, next.status(), next.timestamp, &next.fields), syn, fridge_ready, flow_ready);
        sim.settle();
        let i = DescInputs { reset, rec: valid.then_some(next), syn_mode: syn, fridge_ready, flow_ready };
        let o = gold.step(&i);
        if started {
            sim.m.compare(&mut run.sb, c, &o);
        }
        started |= reset;
        count(&mut run, &i, &o, syn);
        let taken = valid && o.rec_ready && !reset;
        if taken {
            run.transactions += 1;
            run.count("back_to_back_records", last_taken as u64);
            next = random_record(&mut run.rng);
        }
        last_taken = taken;
        sim.tick();
    }
    run.finish(sim.cycle)
}

fn count(run: &mut Run, i: &DescInputs, o: &DescOutputs, syn: bool) {
    if i.reset {
        run.count("resets", 1);
        return;
    }
    if let (Some(r), true) = (i.rec, o.rec_ready) {
        let entry = Entry::of(&r, golden::parser::desc::mode_of(syn));
        run.count("dropped_records", r.drop.is_some() as u64);
        run.count("udp_records", (r.drop.is_none() && r.fields.protocol == PROTO_UDP) as u64);
        if let Some(e) = entry {
            run.count(if r.fields.is_v6 { "tcp_v6" } else { "tcp_v4" }, 1);
            run.count("fridge_pairs", (e.fridge.len() == 2) as u64);
            run.count("fridge_none", e.fridge.is_empty() as u64);
            let f = r.fields.tcp_flags;
            run.count("fin_and_syn_lengths", (!syn && f & flags::SYN != 0 && f & flags::FIN != 0) as u64);
            if syn {
                run.count(
                    "syn_mode_requests",
                    e.fridge.iter().any(|d| d.kind == golden::fridge::PacketKind::Request) as u64,
                );
                run.count(
                    "syn_mode_responses",
                    e.fridge.iter().any(|d| d.kind == golden::fridge::PacketKind::Response) as u64,
                );
            }
        }
    }
    run.count("input_held", (i.rec.is_some() && !o.rec_ready) as u64);
    run.count("fridge_stalls", (o.fridge.is_some() && !i.fridge_ready) as u64);
    run.count("flow_stalls", (o.flow.is_some() && !i.flow_ready) as u64);
    let fr_taken = o.fridge.is_some() && i.fridge_ready;
    let fl_taken = o.flow.is_some() && i.flow_ready;
    run.count("lanes_apart", (fr_taken != fl_taken) as u64);
}
