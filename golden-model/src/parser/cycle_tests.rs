//! Cycle-model tests: latency, no bubble between frames, stalls, reset mid-frame, and the records of random
//! frame mixes equal the transaction model's verdicts on the whole frames.

use super::*;
use crate::parser::random;
use rand::{rngs::SmallRng, SeedableRng};

/// Drives frames back to back (`gap` idle cycles after each, the output always ready): the cycle of each
/// tlast beat and each record with its cycle.
fn drive(m: &mut ParserCycle, frames: &[Vec<u8>], gap: usize) -> (Vec<u64>, Vec<(u64, Record)>) {
    let (mut lasts, mut recs, mut cycle) = (Vec::new(), Vec::new(), 0u64);
    let mut beats: Vec<Option<([u8; 64], u64, bool)>> = Vec::new();
    for f in frames {
        beats.extend(beats_of(f, m.data_bytes()).into_iter().map(Some));
        beats.extend(std::iter::repeat_n(None, gap));
    }
    beats.extend(std::iter::repeat_n(None, LATENCY + 2));
    for b in beats {
        let i = match b {
            Some((tdata, tkeep, tlast)) => {
                ParserInputs { tvalid: true, tdata, tkeep, tlast, tuser: cycle << 16, rec_ready: true, reset: false }
            }
            None => ParserInputs { rec_ready: true, ..Default::default() },
        };
        let o = m.step(&i);
        assert!(o.tready, "always ready when the output is");
        if i.tvalid && i.tlast {
            lasts.push(cycle);
        }
        if let Some(r) = o.record {
            recs.push((cycle, r));
        }
        cycle += 1;
    }
    (lasts, recs)
}

fn beats_of(f: &[u8], d: usize) -> Vec<([u8; 64], u64, bool)> {
    if f.is_empty() {
        return vec![([0; 64], 0, true)];
    }
    beats(f, d)
}

#[test]
fn records_come_latency_cycles_after_tlast_without_bubbles() {
    for d in [8, 64] {
        let mut rng = SmallRng::seed_from_u64(1);
        let frames: Vec<Vec<u8>> = (0..2000).map(|_| random::frame(&mut rng, d)).collect();
        for gap in [0, 3] {
            let mut m = ParserCycle::new(d);
            let (lasts, recs) = drive(&mut m, &frames, gap);
            assert_eq!(lasts.len(), frames.len());
            assert_eq!(recs.len(), frames.len(), "one record per frame");
            for ((f, last), (c, r)) in frames.iter().zip(&lasts).zip(&recs) {
                assert_eq!(*c, last + LATENCY as u64, "latency");
                let want = parse(f, &ParserConfig::HARDWARE);
                assert_eq!(r.drop, want.as_ref().err().copied(), "{f:02x?}");
                if let Ok(h) = want {
                    assert_eq!(r.fields, Fields::of(&h));
                }
            }
            let c = m.counters();
            assert_eq!(c.frames, frames.len() as u64);
            let mut want = Counters::default();
            frames.iter().for_each(|f| want.count(&parse(f, &ParserConfig::HARDWARE)));
            assert_eq!(*c, want);
        }
    }
}

#[test]
fn the_mix_reaches_every_drop_reason_and_every_encapsulation() {
    let mut rng = SmallRng::seed_from_u64(2);
    let mut c = Counters::default();
    let mut kinds = std::collections::BTreeSet::new();
    for _ in 0..100_000 {
        let f = random::frame(&mut rng, 8);
        let r = parse(&f, &ParserConfig::HARDWARE);
        if let Ok(h) = &r {
            kinds.insert((h.vlan.tags, matches!(h.addrs, Addrs::V6 { .. }), h.protocol, h.l4_offset));
        }
        c.count(&r);
    }
    // The frame ending inside the Ethernet header or a tag is a runt first (22 < 60 bytes).
    assert_eq!(c.dropped(Drop::TruncatedL2), 0);
    for d in Drop::ALL.into_iter().filter(|&d| d != Drop::TruncatedL2) {
        assert!(c.dropped(d) > 100, "{d:?}: {c:?}");
    }
    assert!(c.accepted > 20_000 && c.short > 100 && c.l4_header_cut > 100, "{c:?}");
    // Tags 0..2 × v4/v6 × TCP/UDP, at many L4 offsets.
    assert!(kinds.len() > 100, "{}", kinds.len());
}

#[test]
fn backpressure_fills_the_fifo_then_holds_the_input_and_loses_nothing() {
    // One-beat frames back to back at 64 bytes a beat, the output never ready: the parser takes exactly
    // FIFO_DEPTH frames (the credits), then holds tready low; the records come out in order when taken.
    let mut rng = SmallRng::seed_from_u64(3);
    let mut m = ParserCycle::new(64);
    let frames: Vec<Vec<u8>> = (0..FIFO_DEPTH + 4)
        .map(|_| {
            let mut f = random::frame_of(&mut rng, random::Kind::Valid, 64);
            f.resize(60, 0);
            f
        })
        .collect();
    let mut taken = 0;
    for c in 0..FIFO_DEPTH + 30 {
        let (tdata, tkeep, tlast) = beats(&frames[taken.min(frames.len() - 1)], 64)[0];
        let o = m.step(&ParserInputs { tvalid: true, tdata, tkeep, tlast, ..Default::default() });
        assert_eq!(o.tready, taken < FIFO_DEPTH, "cycle {c}: tready with {taken} frames taken");
        assert_eq!(o.record.is_some(), c >= LATENCY, "cycle {c}: the first record waits on the output");
        taken += o.tready as usize;
    }
    assert_eq!(m.counters().frames, FIFO_DEPTH as u64, "every frame taken reached the FIFO");
    // Taking records frees credits: tready comes back the cycle after the first is taken.
    let mut recs = Vec::new();
    for c in 0..3 * FIFO_DEPTH {
        let o = m.step(&ParserInputs { rec_ready: true, ..Default::default() });
        assert_eq!(o.tready, c >= 1, "cycle {c} of draining");
        recs.extend(o.record);
    }
    assert_eq!(recs.len(), FIFO_DEPTH);
    for (f, r) in frames.iter().zip(&recs) {
        let mut w = [0; WINDOW];
        w[..60].copy_from_slice(f);
        assert_eq!(*r, ParserCycle::record_of(&w, 60, 0));
    }
}

#[test]
fn reset_mid_frame_restarts_and_the_rest_is_a_frame_of_its_own() {
    let mut rng = SmallRng::seed_from_u64(4);
    let f = random::frame_of(&mut rng, random::Kind::Valid, 8);
    let g = random::frame_of(&mut rng, random::Kind::Valid, 8);
    let mut m = ParserCycle::new(8);
    let bs = beats(&f, 8);
    let step = |m: &mut ParserCycle, b: &([u8; 64], u64, bool), reset| {
        m.step(&ParserInputs { tvalid: true, tdata: b.0, tkeep: b.1, tlast: b.2, rec_ready: true, reset, tuser: 0 })
    };
    step(&mut m, &bs[0], false);
    step(&mut m, &bs[1], true); // lost in the reset
    let rest = &bs[2..];
    let (_, recs) = {
        for b in rest {
            step(&mut m, b, false);
        }
        drive(&mut m, std::slice::from_ref(&g), 0)
    };
    let tail: Vec<u8> = f[16..].to_vec();
    assert_eq!(recs.len(), 2);
    assert_eq!(recs[0].1.drop, parse(&tail, &ParserConfig::HARDWARE).err());
    assert_eq!(recs[1].1.drop, None);
    assert_eq!(m.counters().frames, 2);
}

#[test]
fn timestamp_is_the_first_beats_tuser() {
    let mut rng = SmallRng::seed_from_u64(5);
    let f = random::frame_of(&mut rng, random::Kind::Giant, 8);
    let mut m = ParserCycle::new(8);
    let mut rec = None;
    for (k, b) in beats(&f, 8).iter().enumerate() {
        let i =
            ParserInputs { tvalid: true, tdata: b.0, tkeep: b.1, tlast: b.2, rec_ready: true, reset: false, tuser: 0 };
        m.step(&ParserInputs { tuser: ((1000 + k as u64) << 16) | 0xABCD, ..i });
    }
    for _ in 0..LATENCY {
        rec = rec.or(m.step(&ParserInputs { rec_ready: true, ..Default::default() }).record);
    }
    let r = rec.expect("a record");
    assert_eq!((r.timestamp, r.drop), (1000, None));
    assert!(r.fields.payload_len >= 200);
}

#[test]
fn csr_map_checks_and_lists_every_counter() {
    let map = csr_layout();
    map.check().unwrap();
    let m = ParserCycle::new(8);
    assert_eq!(m.status_words().len(), 4 + Drop::ALL.len());
    assert_eq!(map.status_offset("bad_l4_header"), Some(32 * (3 + Drop::ALL.len())));
}

#[test]
fn keep_bytes_counts_every_contiguous_tkeep() {
    for d in [8usize, 16, 32, 64] {
        for k in 0..=d {
            let keep = if k == 64 { u64::MAX } else { (1u64 << k) - 1 };
            assert_eq!(keep_bytes(keep, d), k, "d = {d}, k = {k}");
            // Bits above the bus width are not the beat's.
            assert_eq!(keep_bytes(keep | !((u64::MAX >> (64 - d)) | if d == 64 { u64::MAX } else { 0 }), d), k);
        }
    }
    assert_eq!(keep_mask(0, 8), 0xFF);
    assert_eq!(keep_mask(3, 8), 0x80);
    assert_eq!(keep_mask(5, 64), 1 << 31 | 1 << 63);
}

#[test]
fn a_records_fields_give_back_the_frames_tcp_segment() {
    let mut rng = SmallRng::seed_from_u64(5);
    let (mut tcp, mut udp) = (0, 0);
    for _ in 0..50_000 {
        let f = random::frame(&mut rng, 64);
        let Ok(h) = parse(&f, &ParserConfig::HARDWARE) else { continue };
        let seg = Fields::of(&h).tcp_segment();
        assert_eq!(seg, h.tcp_segment(), "{h:?}");
        tcp += seg.is_some() as u32;
        udp += seg.is_none() as u32;
    }
    assert!(tcp > 5_000 && udp > 1_000, "{tcp} TCP, {udp} UDP");
}
