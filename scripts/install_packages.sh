#!/usr/bin/env bash
# Installs the Debian 12 packages Noether needs, and those given as arguments, when missing.
# Run as root; safe to run again (nothing is installed twice, apt-get runs only when needed).
set -euo pipefail

packages=(g++ make cmake pkg-config libeigen3-dev libsuitesparse-dev libtbb-dev doctest-dev
          libbenchmark-dev nlohmann-json3-dev libcli11-dev gnuplot-nox python3 python3-jsonschema
          python3-vtk9 "$@")
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
