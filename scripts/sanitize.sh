#!/usr/bin/env bash
# The test suite's second pass, under AddressSanitizer and UndefinedBehaviorSanitizer: installs
# what is missing, builds a Debug tree with NOETHER_SANITIZE=ON in ./build-sanitize with clang and
# runs the suite there without the tests labelled `long` (docs/testing.md says which and why).
# scripts/test.sh runs it after the Release suite; on its own: bash scripts/sanitize.sh
# [ctest arguments, e.g. -R 'cli\.']. Run as root; safe to run again.
#
# clang, not g++: on this code g++ 12 compiles slowly with -fsanitize=undefined at -O1
# (steppers/evi.cpp: 30 s with clang 14, unfinished after 9 minutes with g++; docs/testing.md).
set -euo pipefail
cd "$(dirname "$0")/.."
# llvm-14 brings llvm-symbolizer, with which the reports' stack traces name functions and lines.
bash scripts/install_packages.sh --tests clang libclang-rt-14-dev llvm-14
# The Python module is left out: a sanitized extension needs the interpreter started with the
# sanitizer's runtime preloaded; the Release pass runs its suite (python.pytest).
CC=clang CXX=clang++ cmake -S . -B build-sanitize -DCMAKE_BUILD_TYPE=Debug -DNOETHER_SANITIZE=ON \
      -DNOETHER_WERROR=ON -DNOETHER_BUILD_BENCHMARKS=OFF -DNOETHER_WITH_PETSC=ON -DNOETHER_WITH_PYTHON=OFF
cmake --build build-sanitize -j"$(nproc)"

# Every finding fails its test: ASan and LeakSanitizer (on by default with ASan on Linux, made
# explicit) and UBSan (built with -fno-sanitize-recover=all) end the process with exit code 99,
# which no test expects of the program (the CLI's codes are 0, 1, 2, 130, 143).
export ASAN_OPTIONS=detect_leaks=1:exitcode=99:check_initialization_order=1:strict_init_order=1:detect_stack_use_after_return=1
export UBSAN_OPTIONS=print_stacktrace=1:exitcode=99
ctest --test-dir build-sanitize --output-on-failure -j"$(nproc)" --label-exclude long "$@"
