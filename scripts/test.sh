#!/usr/bin/env bash
# The tests: install what is missing, build Release (warnings are errors), run the whole suite;
# then the suite's second pass under AddressSanitizer and UndefinedBehaviorSanitizer
# (scripts/sanitize.sh: a Debug tree built with clang). docs/testing.md has both.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh all
ctest --test-dir build --output-on-failure -j"$(nproc)"
bash scripts/sanitize.sh
