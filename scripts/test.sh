#!/usr/bin/env bash
# The test suite: set up, then every test of the workspace in release mode (co-simulation is long).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/setup.sh
exec cargo test --release --workspace "$@"
