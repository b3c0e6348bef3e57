//! Random frames for the parser's tests and test benches: every encapsulation the parser knows (0–2 VLAN
//! tags of every TPID, IPv4 with 0–40 bytes of options, IPv6 with 0–2 extension headers of each kind, TCP
//! with options, UDP), each malformed kind aimed at one [`Drop`](super::Drop) reason, minimum-size
//! (60-byte) frames, frames of one beat and giant frames past the header window.

use super::build::{ether, ipv4, ipv6, tcp, udp};
use super::ip::{IPV6_AH, IPV6_FRAGMENT};
use super::{PROTO_TCP, PROTO_UDP};
use rand::Rng;

/// What [`frame`] builds (the mix's weights are in [`frame`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// A well-formed frame of a random encapsulation, padded to at least 60 bytes.
    Valid,
    /// A well-formed frame cut at a random byte (runts, truncations of every header, short frames).
    Cut,
    /// A well-formed frame with one header field broken (version, IHL, lengths, fragment, protocol, TPIDs,
    /// TCP data offset, UDP length, ethertype).
    Broken,
    /// Random bytes of a random length (0–200).
    Noise,
    /// 1 to `data_bytes` bytes: a frame of one beat.
    OneBeat,
    /// A well-formed frame with 200–9000 bytes of payload.
    Giant,
    /// A frame whose headers end beyond the 128-byte window (many options, long extension headers).
    Deep,
}

/// A random source or destination.
fn addr4(rng: &mut impl Rng) -> [u8; 4] {
    rng.gen()
}

fn addr6(rng: &mut impl Rng) -> [u8; 16] {
    rng.gen()
}

/// A random IPv6 extension header of `len8` 8-byte units (hop-by-hop, routing, destination options,
/// atomic fragment or AH).
fn ext(rng: &mut impl Rng, len8: usize) -> (u8, Vec<u8>) {
    match rng.gen_range(0..5) {
        0 => (IPV6_FRAGMENT, vec![0, 0, 0, 0, 1, 2, 3, 4]),
        1 => {
            // AH: (len + 2) × 4 bytes.
            let n = 8 * len8.max(2);
            let mut v = vec![0u8; n];
            v[1] = (n / 4 - 2) as u8;
            (IPV6_AH, v)
        }
        k => {
            let mut v = vec![0u8; 8 * len8];
            v[1] = (len8 - 1) as u8;
            ([0u8, 43, 60][k - 2], v)
        }
    }
}

/// A well-formed frame with `payload` payload bytes; `deep` makes its headers long.
fn valid(rng: &mut impl Rng, payload: usize, deep: bool) -> Vec<u8> {
    let body: Vec<u8> = (0..payload).map(|_| rng.gen()).collect();
    let is_tcp = rng.gen_bool(0.7);
    let l4 = if is_tcp {
        let opts = 4 * if deep { rng.gen_range(5..=10) } else { rng.gen_range(0..=10) };
        tcp(rng.gen(), rng.gen(), rng.gen(), rng.gen(), rng.gen(), opts, &body)
    } else {
        udp(rng.gen(), rng.gen(), &body)
    };
    let proto = if is_tcp { PROTO_TCP } else { PROTO_UDP };
    let (ethertype, l3) = if rng.gen_bool(0.5) {
        let mut v = ipv4(addr4(rng), addr4(rng), proto, &l4);
        let opt_words = if deep { rng.gen_range(6..=10) } else { rng.gen_range(0..=10) };
        if opt_words > 0 {
            // Options (NOPs) after the fixed header: IHL and total length follow.
            let opts = vec![1u8; 4 * opt_words];
            v.splice(20..20, opts);
            v[0] = 0x40 | (5 + opt_words) as u8;
            let total = (v.len() as u16).to_be_bytes();
            v[2..4].copy_from_slice(&total);
        }
        v[4..6].copy_from_slice(&rng.gen::<u16>().to_be_bytes());
        (0x0800, v)
    } else {
        let n = if deep { rng.gen_range(1..=2) } else { rng.gen_range(0..=2) };
        let exts: Vec<(u8, Vec<u8>)> = (0..n)
            .map(|_| {
                let len8 = if deep { rng.gen_range(2..=4) } else { rng.gen_range(1..=2) };
                ext(rng, len8)
            })
            .collect();
        (0x86DD, ipv6(addr6(rng), addr6(rng), &exts, proto, &l4))
    };
    let tags: Vec<u16> =
        (0..rng.gen_range(0..=2)).map(|_| [0x8100, 0x88A8, 0x9100, 0x9200, 0x9300][rng.gen_range(0..5)]).collect();
    let mut f = ether(&tags, ethertype, &l3);
    for t in 0..tags.len() {
        let tci = rng.gen::<u16>().to_be_bytes();
        f[14 + 4 * t..16 + 4 * t].copy_from_slice(&tci);
    }
    if f.len() < 60 {
        f.resize(60, 0);
    }
    f
}

/// Breaks one header field of a well-formed frame `f`.
fn broken(rng: &mut impl Rng, mut f: Vec<u8>) -> Vec<u8> {
    // The offset of the IP header (after the tags) and its version.
    let mut l3 = 14;
    while l3 < 22 && [0x81, 0x88, 0x91, 0x92, 0x93].contains(&f[l3 - 2]) {
        l3 += 4;
    }
    let v6 = f[l3] >> 4 == 6;
    match rng.gen_range(0..10) {
        0 => f[l3] = (rng.gen::<u8>() & 0xF0) | (f[l3] & 0x0F), // version
        1 if !v6 => f[l3] = 0x40 | rng.gen_range(0..5),         // IHL < 5
        2 => {
            // IP length: 0, random, or just below the header.
            let at = if v6 { l3 + 4 } else { l3 + 2 };
            let v: u16 = [0, rng.gen(), rng.gen_range(0..64)][rng.gen_range(0..3)];
            f[at..at + 2].copy_from_slice(&v.to_be_bytes());
        }
        3 if !v6 => f[l3 + 6] |= [0x20, 0x01, 0x10][rng.gen_range(0..3)], // MF or an offset
        4 => {
            // Protocol / next header: ICMP, ESP, no next header, something else.
            let at = if v6 { l3 + 6 } else { l3 + 9 };
            f[at] = [1, 50, 59, 58, rng.gen()][rng.gen_range(0..5)];
        }
        5 => {
            // A third tag, or an ethertype that is not IP.
            let e = [0x8100u16, 0x0806, 0x0042, rng.gen()][rng.gen_range(0..4)];
            f[l3 - 2..l3].copy_from_slice(&e.to_be_bytes());
        }
        6 if v6 && f[l3 + 6] != PROTO_TCP && f[l3 + 6] != PROTO_UDP => {
            // The first extension header: a non-atomic fragment, a third extension header or its length.
            let p = l3 + 40;
            match rng.gen_range(0..3) {
                0 => f[l3 + 6] = IPV6_FRAGMENT,
                1 => f[p] = 0,
                _ => f[p + 1] = rng.gen(),
            }
            f[p + 3] |= rng.gen_range(0..2);
        }
        _ => {
            // The L4 header: TCP data offset, UDP length, or any byte of it.
            let i = rng.gen_range(l3..f.len().min(110));
            f[i] = rng.gen();
        }
    }
    f
}

/// A random frame of `kind`, for a bus of `data_bytes` bytes a beat.
pub fn frame_of(rng: &mut impl Rng, kind: Kind, data_bytes: usize) -> Vec<u8> {
    match kind {
        Kind::Valid => {
            let p = rng.gen_range(0..60);
            valid(rng, p, false)
        }
        Kind::Cut => {
            let p = rng.gen_range(0..40);
            let mut f = valid(rng, p, false);
            let n = rng.gen_range(0..f.len());
            f.truncate(n);
            f
        }
        Kind::Broken if rng.gen_bool(0.1) => {
            // Three IPv6 extension headers: one more than the parser skips.
            let exts: Vec<(u8, Vec<u8>)> = (0..3).map(|_| ext(rng, 1)).collect();
            let l4 = udp(rng.gen(), rng.gen(), &[0; 4]);
            ether(&[], 0x86DD, &ipv6(addr6(rng), addr6(rng), &exts, PROTO_UDP, &l4))
        }
        Kind::Broken => {
            let p = rng.gen_range(0..60);
            let f = valid(rng, p, false);
            broken(rng, f)
        }
        Kind::Noise => (0..rng.gen_range(0..200)).map(|_| rng.gen()).collect(),
        Kind::OneBeat => {
            let p = rng.gen_range(0..20);
            let mut f = valid(rng, p, false);
            f.truncate(rng.gen_range(1..=data_bytes.min(f.len())));
            f
        }
        Kind::Giant => {
            let p = rng.gen_range(200..9000);
            valid(rng, p, false)
        }
        Kind::Deep => {
            let p = rng.gen_range(0..100);
            valid(rng, p, true)
        }
    }
}

/// A random frame of the default mix (mostly valid and minimum-size frames, every malformed kind often).
pub fn frame(rng: &mut impl Rng, data_bytes: usize) -> Vec<u8> {
    let kind = match rng.gen_range(0..100) {
        0..=34 => Kind::Valid,
        35..=49 => Kind::Cut,
        50..=69 => Kind::Broken,
        70..=74 => Kind::Noise,
        75..=88 => Kind::OneBeat,
        89 => Kind::Giant,
        _ => Kind::Deep,
    };
    frame_of(rng, kind, data_bytes)
}
