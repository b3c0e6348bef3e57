#!/usr/bin/env bash
# Installs what netmeas needs on a fresh Debian/Ubuntu machine: Verilator (5.006 from Debian is tested) and
# a C++ compiler for the Verilated models (Debian's verilator package does not pull one in), and make. Sourced by
# scripts/demo.sh and scripts/test.sh; safe to run again (does nothing when all is present).
set -euo pipefail

missing=()
command -v "${VERILATOR:-verilator}" >/dev/null 2>&1 || missing+=(verilator)
command -v c++ >/dev/null 2>&1 || missing+=(g++)
# make: `verilator --binary` (hdl/tests/ecp5_bram.rs) builds its model with Verilator's makefiles.
command -v make >/dev/null 2>&1 || missing+=(make)
if [ ${#missing[@]} -gt 0 ]; then
  if command -v apt-get >/dev/null 2>&1; then
    SUDO=""
    [ "$(id -u)" -ne 0 ] && SUDO="sudo"
    echo "netmeas setup: installing ${missing[*]} with apt-get" >&2
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
  else
    echo "netmeas setup: missing ${missing[*]} and apt-get is not available." >&2
    echo "Install Verilator 5.x (https://verilator.org) and a C++ compiler; VERILATOR=/path/to/verilator selects one." >&2
    exit 1
  fi
fi
if ! command -v cargo >/dev/null 2>&1; then
  echo "netmeas setup: cargo is missing; install Rust >= 1.89 with rustup (https://rustup.rs)" >&2
  exit 1
fi
rust_minor=$(rustc --version | sed -E 's/^rustc 1\.([0-9]+).*/\1/')
if [ "${rust_minor:-0}" -lt 89 ] 2>/dev/null; then
  echo "netmeas setup: $(rustc --version) is too old; netmeas needs Rust >= 1.89 (rustup update)" >&2
  exit 1
fi
# The reference SystemRDL compiler checks the SystemRDL that `netmeas generate` writes (sim/tests/cli.rs).
# Pinned, from PyPI (pip from Debian when missing).
if ! python3 -c "import systemrdl" >/dev/null 2>&1; then
  if ! python3 -m pip --version >/dev/null 2>&1; then
    if command -v apt-get >/dev/null 2>&1; then
      SUDO=""
      [ "$(id -u)" -ne 0 ] && SUDO="sudo"
      $SUDO apt-get update -qq
      DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends python3-pip >/dev/null
    else
      echo "netmeas setup: python3 with pip is needed for the SystemRDL check (install python3-pip)" >&2
      exit 1
    fi
  fi
  echo "netmeas setup: installing systemrdl-compiler with pip" >&2
  # A Debian system Python refuses pip installs outside a virtualenv (PEP 668): retry with its override.
  PIP_ROOT_USER_ACTION=ignore python3 -m pip install -q systemrdl-compiler==1.33.0 >&2 ||
    PIP_ROOT_USER_ACTION=ignore python3 -m pip install -q --break-system-packages systemrdl-compiler==1.33.0 >&2
fi
echo "netmeas setup: $("${VERILATOR:-verilator}" --version), $(rustc --version)" >&2
