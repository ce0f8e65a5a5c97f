#!/usr/bin/env bash
# The tests: install what is missing, build Release (warnings are errors), run the whole suite.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
ctest --test-dir build --output-on-failure -j"$(nproc)"
