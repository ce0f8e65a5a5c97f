#!/usr/bin/env bash
# Installs the Debian packages Noether needs (only the missing ones), then configures and builds a
# Release tree in ./build:
#   bash scripts/setup.sh program [CMAKE_ARGS...]   the `noether` program and the libraries it links,
#                                                   and the Python module (build/python/noether)
#   bash scripts/setup.sh all [CMAKE_ARGS...]       everything: also the tests, the examples and
#                                                   the benchmarks, with what only they need, and
#                                                   the PETSc back-end (mumps)
# The Python module is built for Debian's /usr/bin/python3 (a pyenv shim may come first on PATH):
# PYTHONPATH=build/python /usr/bin/python3 -c "import noether" (docs/python.md).
# Run as root on a fresh machine; safe to run again. One tree serves both: `program` after `all`
# configures the tests and benchmarks out and builds the program alone, `all` builds them again.
set -euo pipefail
cd "$(dirname "$0")/.."
python=(-DNOETHER_WITH_PYTHON=ON -DPython3_EXECUTABLE=/usr/bin/python3)
case "${1:-}" in
  program)
    shift
    bash scripts/install_packages.sh
    cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DNOETHER_WERROR=ON -DNOETHER_BUILD_TESTS=OFF \
          -DNOETHER_BUILD_BENCHMARKS=OFF "${python[@]}" "$@"
    cmake --build build -j"$(nproc)" --target noether_program ;;
  all)
    shift
    bash scripts/install_packages.sh --tests
    cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DNOETHER_WERROR=ON -DNOETHER_BUILD_TESTS=ON \
          -DNOETHER_BUILD_BENCHMARKS=ON -DNOETHER_WITH_PETSC=ON "${python[@]}" "$@"
    cmake --build build -j"$(nproc)" ;;
  *)
    echo "usage: bash scripts/setup.sh program|all [CMAKE_ARGS...]" >&2
    exit 2 ;;
esac
