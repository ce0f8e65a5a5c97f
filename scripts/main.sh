#!/usr/bin/env bash
# The main job: install what is missing, build Release, run the demonstration simulation and
# print its summary (the program is then at build/bin/noether).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
echo
echo "== noether list"
build/bin/noether list
echo
echo "== noether run double-fourbar --stepper livens-em --out out/double-fourbar"
build/bin/noether run double-fourbar --stepper livens-em --out out/double-fourbar
