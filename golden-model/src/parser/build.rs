//! Builders of test frames (Ethernet, VLAN tags, IPv4, IPv6 with extension headers, TCP, UDP), for the
//! parser's tests, the software reader's tests and test benches. They build well-formed headers with
//! correct length fields (checksums are left 0: the parser does not check them); tests then break fields.

/// A TCP header (20 bytes + `opts` bytes of NOP options) followed by `payload`.
pub fn tcp(sport: u16, dport: u16, seq: u32, ack: u32, flags: u8, opts: usize, payload: &[u8]) -> Vec<u8> {
    assert!(opts % 4 == 0, "options are whole words");
    let mut v = Vec::new();
    v.extend(sport.to_be_bytes());
    v.extend(dport.to_be_bytes());
    v.extend(seq.to_be_bytes());
    v.extend(ack.to_be_bytes());
    v.push((((20 + opts) / 4) as u8) << 4);
    v.push(flags);
    v.extend([0xFF, 0xFF, 0, 0, 0, 0]);
    v.extend(std::iter::repeat_n(1u8, opts));
    v.extend_from_slice(payload);
    v
}

/// An IPv4 header (protocol `proto`, total length from `l4`) followed by `l4`.
pub fn ipv4(src: [u8; 4], dst: [u8; 4], proto: u8, l4: &[u8]) -> Vec<u8> {
    let mut v = vec![0x45, 0];
    v.extend(((20 + l4.len()) as u16).to_be_bytes());
    v.extend([0, 0, 0x40, 0, 64, proto, 0, 0]);
    v.extend(src);
    v.extend(dst);
    v.extend_from_slice(l4);
    v
}

/// An IPv6 header with the given extension headers (each `(type, bytes)`, chained in order).
pub fn ipv6(src: [u8; 16], dst: [u8; 16], exts: &[(u8, Vec<u8>)], proto: u8, l4: &[u8]) -> Vec<u8> {
    let ext_len: usize = exts.iter().map(|e| e.1.len()).sum();
    let first = exts.first().map_or(proto, |e| e.0);
    let mut v = vec![0x60, 0, 0, 0];
    v.extend(((ext_len + l4.len()) as u16).to_be_bytes());
    v.extend([first, 64]);
    v.extend(src);
    v.extend(dst);
    for (i, (_, body)) in exts.iter().enumerate() {
        let mut body = body.clone();
        body[0] = exts.get(i + 1).map_or(proto, |e| e.0);
        v.extend(body);
    }
    v.extend_from_slice(l4);
    v
}

/// An Ethernet frame with VLAN tags (TPIDs) before the ethertype.
pub fn ether(tags: &[u16], ethertype: u16, l3: &[u8]) -> Vec<u8> {
    let mut v = vec![2, 0, 0, 0, 0, 1, 2, 0, 0, 0, 0, 2];
    for t in tags {
        v.extend(t.to_be_bytes());
        v.extend(0x0005u16.to_be_bytes()); // TCI: VLAN 5
    }
    v.extend(ethertype.to_be_bytes());
    v.extend_from_slice(l3);
    v
}

/// A UDP header (length from `payload`) followed by `payload`.
pub fn udp(sport: u16, dport: u16, payload: &[u8]) -> Vec<u8> {
    let mut v = Vec::new();
    v.extend(sport.to_be_bytes());
    v.extend(dport.to_be_bytes());
    v.extend(((8 + payload.len()) as u16).to_be_bytes());
    v.extend([0, 0]);
    v.extend_from_slice(payload);
    v
}
