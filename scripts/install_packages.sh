#!/usr/bin/env bash
# Installs the Debian 12 packages Noether needs, when missing:
#   bash scripts/install_packages.sh [--tests] [PACKAGE...]
# Always what builds the libraries, the `noether` program and the Python module (Python's headers,
# pybind11, numpy) and what the program runs (gnuplot for `noether plot`, OpenBLAS as Debian's BLAS:
# UMFPACK factors grid2d twice as fast on it as on the reference BLAS that the libraries would
# otherwise bring, MUMPS 1.2 times; docs/performance.md); with --tests also what
# only the test suite and the benchmarks need (doctest, Google Benchmark, pytest, the Python checks'
# jsonschema and VTK reader, and PETSc with MPI, so that the suite always tests the mumps
# back-end); then the packages named.
# Run as root; safe to run again (nothing is installed twice, apt-get runs only when needed).
set -euo pipefail

packages=(g++ make cmake pkg-config libeigen3-dev libsuitesparse-dev libtbb-dev nlohmann-json3-dev
          libcli11-dev libmetis-dev gnuplot-nox python3-dev pybind11-dev python3-numpy libopenblas0-pthread)
if [ "${1:-}" = --tests ]; then
  shift
  packages+=(doctest-dev libbenchmark-dev python3 python3-pytest python3-jsonschema python3-vtk9 petsc-dev)
fi
packages+=("$@")
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
