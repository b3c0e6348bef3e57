#!/usr/bin/env bash
# Installs what netmeas needs on a fresh Debian/Ubuntu machine: Verilator (5.006 from Debian is tested).
# Sourced by scripts/demo.sh and scripts/test.sh; safe to run again (does nothing when all is present).
set -euo pipefail

need_verilator() { ! command -v "${VERILATOR:-verilator}" >/dev/null 2>&1; }

if need_verilator; then
  if command -v apt-get >/dev/null 2>&1; then
    SUDO=""
    [ "$(id -u)" -ne 0 ] && SUDO="sudo"
    echo "netmeas setup: installing Verilator with apt-get" >&2
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq verilator >/dev/null
  else
    echo "netmeas setup: Verilator is missing and apt-get is not available." >&2
    echo "Install Verilator 5.x (https://verilator.org) and put it on PATH or set VERILATOR=/path/to/verilator." >&2
    exit 1
  fi
fi
command -v cargo >/dev/null 2>&1 || { echo "netmeas setup: cargo (Rust toolchain) is missing: https://rustup.rs" >&2; exit 1; }
echo "netmeas setup: $("${VERILATOR:-verilator}" --version)" >&2
