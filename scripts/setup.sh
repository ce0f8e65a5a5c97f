#!/usr/bin/env bash
# Installs the Debian 12 packages Noether needs (only the missing ones), then configures and
# builds a Release tree in ./build. Run as root on a fresh machine; safe to run again.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install_packages.sh
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DNOETHER_WERROR=ON "$@"
cmake --build build -j"$(nproc)"
