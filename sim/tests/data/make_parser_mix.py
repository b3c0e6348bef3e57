#!/usr/bin/env python3
"""Write parser_mix.pcap.gz, the capture of sim/tests/parser_tshark.rs, and its tshark table.

Frames 1..1000: the first 600 frames of ../../../../shared/captures/multipath-tcp-A.pcap.gz and every 1000th
frame after them (real Linux TCP over loopback, Ethernet link type, snaplen 128: payloads cut, lengths from
the IP header; SYNs, data, pure ACKs, FINs and 54-byte RSTs). Then hand-made frames, one per case (see
CRAFTED below): VLAN tags (802.1Q, 802.1ad, the legacy 0x9100, three tags), IPv4 options, IPv6 with and
without extension headers, UDP over IPv4 and IPv6, a fragment, ARP, ICMP, a frame cut inside the IP
header, Ethernet padding. Usage (from this directory; needs python3 and tshark):

    python3 make_parser_mix.py
    tshark -r parser_mix.pcap.gz -T fields -E header=y -E separator=, -E occurrence=f \\
        -e frame.number -e frame.len -e ip.src -e ip.dst -e ipv6.src -e ipv6.dst -e tcp.srcport \\
        -e tcp.dstport -e tcp.seq_raw -e tcp.ack_raw -e tcp.len -e tcp.flags -e udp.srcport \\
        -e udp.dstport -e udp.length > parser_mix.fields.csv

(the script runs that tshark command itself when tshark is installed).
"""
import gzip, os, struct, subprocess

HERE = os.path.dirname(os.path.abspath(__file__))
SHARED = os.path.join(HERE, "../../../../shared/captures/multipath-tcp-A.pcap.gz")


def read_pcap(path, keep):
    with gzip.open(path, "rb") as f:
        hdr = f.read(24)
        assert struct.unpack("<I", hdr[:4])[0] == 0xA1B23C4D, "nanosecond little-endian pcap expected"
        n = 0
        while True:
            rec = f.read(16)
            if len(rec) < 16:
                return
            sec, frac, incl, orig = struct.unpack("<IIII", rec)
            data = f.read(incl)
            n += 1
            if keep(n):
                yield sec, frac, orig, data


def tcp(sport, dport, seq, ack, flags, opts=b"", payload=b""):
    assert len(opts) % 4 == 0
    head = struct.pack(">HHIIBBHHH", sport, dport, seq, ack, (20 + len(opts)) // 4 << 4, flags, 65535, 0, 0)
    return head + opts + payload


def udp(sport, dport, payload):
    return struct.pack(">HHHH", sport, dport, 8 + len(payload), 0) + payload


def ipv4(src, dst, proto, l4, opts=b"", ident=0x1234, frag=0x4000):
    ihl = 5 + len(opts) // 4
    return struct.pack(">BBHHHBBH4s4s", 0x40 | ihl, 0, 4 * ihl + len(l4), ident, frag, 64, proto, 0, bytes(src),
                       bytes(dst)) + opts + l4


def ipv6(src, dst, proto, l4, exts=()):
    """exts: (type, body) with body[0] (next header) filled in here."""
    chain = b""
    types = [e[0] for e in exts] + [proto]
    for i, (_, body) in enumerate(exts):
        chain += bytes([types[i + 1]]) + body[1:]
    head = struct.pack(">IHBB16s16s", 0x60000000, len(chain) + len(l4), types[0], 64, bytes(src), bytes(dst))
    return head + chain + l4


def ether(ethertype, l3, tags=()):
    out = bytes([2, 0, 0, 0, 0, 1, 2, 0, 0, 0, 0, 2])
    for t in tags:
        out += struct.pack(">HH", t, 0x0005)
    return out + struct.pack(">H", ethertype) + l3


A, B = [192, 168, 7, 1], [192, 168, 7, 2]
S6 = [0x20, 0x01, 0x0d, 0xb8] + [0] * 11 + [1]
D6 = [0x20, 0x01, 0x0d, 0xb8] + [0] * 11 + [2]
ACK, PSH, SYN, FIN = 0x10, 0x08, 0x02, 0x01
HOP = (0, bytes([0, 0, 1, 4, 0, 0, 0, 0]))
DST = (60, bytes([0, 1, 1, 12] + [0] * 12))
AFRAG = (44, bytes([0, 0, 0, 0, 0, 0, 0, 1]))
data_seg = tcp(40000, 80, 1000, 2000, ACK | PSH, payload=b"x" * 100)
CRAFTED = [
    ether(0x0800, ipv4(A, B, 6, data_seg), tags=[0x8100]),                       # 802.1Q
    ether(0x0800, ipv4(A, B, 6, data_seg), tags=[0x88A8, 0x8100]),               # 802.1ad QinQ
    ether(0x0800, ipv4(A, B, 6, data_seg), tags=[0x9100, 0x8100]),               # legacy QinQ TPID
    ether(0x0800, ipv4(A, B, 6, data_seg), tags=[0x88A8, 0x8100, 0x8100]),       # three tags
    ether(0x0800, ipv4(A, B, 6, tcp(5, 6, 7, 8, SYN), opts=bytes([1, 1, 1, 0]))),  # IPv4 options (IHL 6)
    ether(0x0800, ipv4(A, B, 6, data_seg, opts=bytes([7, 11, 4] + [0] * 9))),    # IHL 8 (record route)
    ether(0x86DD, ipv6(S6, D6, 6, tcp(443, 50000, 0xFFFFFFF0, 77, ACK | FIN, payload=b"y" * 40))),
    ether(0x86DD, ipv6(S6, D6, 6, data_seg, exts=[HOP])),                         # hop-by-hop
    ether(0x86DD, ipv6(S6, D6, 6, data_seg, exts=[HOP, DST])),                    # two extension headers
    ether(0x86DD, ipv6(S6, D6, 6, data_seg, exts=[HOP, DST, AFRAG])),             # three
    ether(0x0800, ipv4(A, B, 17, udp(53, 33000, b"q" * 30))),                     # UDP
    ether(0x86DD, ipv6(S6, D6, 17, udp(5353, 5353, b"r" * 3))),                   # UDP over IPv6
    ether(0x0800, ipv4(A, B, 6, data_seg, frag=0x2000)),                          # first fragment, MF
    ether(0x0806, bytes(28)),                                                     # ARP
    ether(0x0800, ipv4(A, B, 1, bytes([8, 0, 0, 0, 0, 1, 0, 1]))),                # ICMP echo
    ether(0x0800, ipv4(A, B, 6, data_seg))[:30],                                  # cut inside the IP header
    ether(0x0800, ipv4(A, B, 6, tcp(1, 2, 3, 4, ACK))) + bytes(6),                # padded to 60
]


def main():
    frames = list(read_pcap(SHARED, lambda n: n <= 600 or n % 1000 == 0))
    sec, frac = frames[-1][0], frames[-1][1]
    for i, f in enumerate(CRAFTED):
        frames.append((sec + 1, frac + i, len(f), f[:128]))
    out = os.path.join(HERE, "parser_mix.pcap.gz")
    with gzip.GzipFile(out, "wb", mtime=0) as g:
        g.write(struct.pack("<IHHiIII", 0xA1B23C4D, 2, 4, 0, 0, 128, 1))
        for sec, frac, orig, data in frames:
            g.write(struct.pack("<IIII", sec, frac, len(data), orig) + data)
    print(f"{out}: {len(frames)} frames")
    table = os.path.join(HERE, "parser_mix.fields.csv")
    fields = ["frame.number", "frame.len", "ip.src", "ip.dst", "ipv6.src", "ipv6.dst", "tcp.srcport", "tcp.dstport",
              "tcp.seq_raw", "tcp.ack_raw", "tcp.len", "tcp.flags", "udp.srcport", "udp.dstport", "udp.length"]
    cmd = ["tshark", "-r", out, "-T", "fields", "-E", "header=y", "-E", "separator=,", "-E", "occurrence=f"]
    for f in fields:
        cmd += ["-e", f]
    with open(table, "w") as t:
        subprocess.run(cmd, stdout=t, check=True)
    print(f"{table}: written by {' '.join(cmd)}")


if __name__ == "__main__":
    main()
