#!/usr/bin/env bash
# Regenerate the capture fixtures of sim/tests/traffic_tshark.rs. Loopback only; needs root (tcpdump),
# python3, tcpdump, tshark and editcap (apt-get install -y tcpdump tshark).
#
#   lo_eth.pcap        tcpdump -i lo, Ethernet link type, nanosecond pcap, snaplen 96 (payloads cut)
#   lo_eth.pcapng      the same file converted with editcap -F pcapng (if_tsresol 10^-9)
#   any_sll2.pcap      tcpdump -i any: Linux cooked v2 link type, microsecond pcap, snaplen 96
#   *.acks.tsv         tshark -Y tcp.analysis.acks_frame -T fields -e frame.number
#                             -e tcp.analysis.acks_frame -e tcp.analysis.ack_rtt
#                      (a superset of `-Y tcp.analysis.ack_rtt`: tshark leaves ack_rtt out when it is 0,
#                      which happens at microsecond resolution)
#   *.tcp_len.tsv      tshark -T fields -e frame.number -e tcp.len
#
# The traffic (tests/data/loopback_traffic.py): IPv4 and IPv6 connections to a local server doing
# request/response exchanges of assorted sizes with pauses (delayed ACKs), a bulk transfer with a small MSS
# (cumulative ACKs), and an abortive close (RST).
set -euo pipefail
cd "$(dirname "$0")"
snap=96

capture() { # file, interface, precision
    tcpdump -i "$2" -s $snap --time-stamp-precision="$3" -U -w "$1" 'tcp and (host 127.0.0.1 or host ::1)' \
        2>/dev/null &
    local pid=$!
    sleep 1
    python3 loopback_traffic.py
    sleep 1
    kill -INT "$pid"
    wait "$pid" || true
}

capture lo_eth.pcap lo nano
editcap -F pcapng lo_eth.pcap lo_eth.pcapng
capture any_sll2.pcap any micro

for f in lo_eth.pcap lo_eth.pcapng any_sll2.pcap; do
    tshark -r "$f" -Y tcp.analysis.acks_frame -T fields -e frame.number -e tcp.analysis.acks_frame \
        -e tcp.analysis.ack_rtt > "$f.acks.tsv"
    tshark -r "$f" -T fields -e frame.number -e tcp.len > "$f.tcp_len.tsv"
done
ls -l
