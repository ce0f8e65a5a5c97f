#!/usr/bin/env bash
# Installs the Debian 12 packages Noether needs (only the missing ones), then configures and
# builds a Release tree in ./build. Run as root on a fresh machine; safe to run again.
set -euo pipefail
cd "$(dirname "$0")/.."

packages=(g++ make cmake pkg-config libeigen3-dev libsuitesparse-dev libtbb-dev doctest-dev
          libbenchmark-dev nlohmann-json3-dev libcli11-dev gnuplot-nox python3 python3-jsonschema)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "Installing missing Debian packages: ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DNOETHER_WERROR=ON "$@"
cmake --build build -j"$(nproc)"
