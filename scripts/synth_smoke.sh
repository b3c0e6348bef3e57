#!/usr/bin/env bash
# Synthesis smoke test (CI): installs the pinned toolchain (scripts/setup_synth.sh), synthesizes the smallest
# II=1 configuration — the RMW counter table, 2^10 × 32 bits, dual-port — with one placement seed, and
# checks that it places, routes, uses the expected block RAM and meets 150 MHz. The full table is
# `netmeas synth --core all` (about 8 minutes; not run by CI).
set -euo pipefail
cd "$(dirname "$0")/.."
start=$(date +%s)
bash scripts/setup_synth.sh
json=$(cargo run --release -q -p sim --bin netmeas -- synth --core rmw --config dp_a10_w32 --seeds 1 --json)
echo "$json"
echo "$json" | python3 -c '
import json, sys
r = json.load(sys.stdin)[0]
ok = r["bram"] == r["bram_min_blocks"] and r["fmax_mhz"] >= 150
print("synth smoke: %s %s: %d LUT4, %d FF, %d DP16KD, %.1f MHz -> %s" % (r["core"], r["config"], r["lut4"], r["ff"], r["bram"], r["fmax_mhz"], "ok" if ok else "FAILED"))
sys.exit(0 if ok else 1)
'
echo "synth smoke finished in $(( $(date +%s) - start )) s"
