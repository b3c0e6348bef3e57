#!/usr/bin/env bash
# CI timing gate: every configuration listed in synth/timing_gate.txt, synthesized with the pinned tools
# (scripts/setup_synth.sh) at placement seed 1, must reach 150 MHz (`netmeas synth --min-fmax 150`, which
# prints the critical path of any that does not). One `netmeas synth` run over all of them, with as many
# tool processes at once as the machine has hardware threads (the results do not depend on it); it fails if
# any configuration is below the bar or cannot be synthesized.
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
args=()
while read -r core configs; do
    case "$core" in ''|'#'*) continue ;; esac
    for c in $configs; do args+=(--config "$core/$c"); done
done < synth/timing_gate.txt
echo "[timing gate] ${#args[@]} arguments: ${args[*]}"
if ! "$netmeas" synth --core all "${args[@]}" --seeds 1 --min-fmax "$min" --out out/timing_gate; then
    echo "[timing gate] FAILED: a configuration is below $min MHz or could not be synthesized (see above)" >&2
    exit 1
fi
echo "[timing gate] passed: every gated configuration at or above $min MHz"
