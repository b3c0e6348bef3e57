#!/usr/bin/env bash
# The main job: set up, then `netmeas demo` (extra arguments are passed on, e.g. --transactions 1000000).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/setup.sh
exec cargo run --release -p sim --bin netmeas -- demo "$@"
