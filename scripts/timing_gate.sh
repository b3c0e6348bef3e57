#!/usr/bin/env bash
# CI timing gate: every configuration listed in synth/timing_gate.txt, synthesized with the pinned tools
# (scripts/setup_synth.sh) at placement seed 1, must reach 150 MHz (`netmeas synth --min-fmax 150`, which
# prints the critical path of any that does not). Runs all lines, then fails if any failed.
# Usage: scripts/timing_gate.sh [MHZ]   (default 150)
set -euo pipefail
cd "$(dirname "$0")/.."
min=${1:-150}
bash scripts/setup_synth.sh
# The control plane without the RTL feature is enough for synthesis (no Verilator models needed); in CI it
# is already built by the Verilator-free check. Note: this replaces a `netmeas` built with the RTL engine in
# the same target directory (`cargo build --release -p sim` brings it back).
cargo build --release -q -p sim --no-default-features
netmeas="${CARGO_TARGET_DIR:-target}/release/netmeas"
failed=0
while read -r core configs; do
    case "$core" in ''|'#'*) continue ;; esac
    args=()
    for c in $configs; do args+=(--config "$c"); done
    echo "[timing gate] $core: $configs"
    if ! "$netmeas" synth --core "$core" "${args[@]}" --seeds 1 --min-fmax "$min" --out out/timing_gate; then
        failed=1
    fi
done < synth/timing_gate.txt
if [ "$failed" -ne 0 ]; then
    echo "[timing gate] FAILED: a configuration is below $min MHz or could not be synthesized (see above)" >&2
    exit 1
fi
echo "[timing gate] passed: every gated configuration at or above $min MHz"
