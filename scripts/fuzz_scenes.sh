#!/usr/bin/env bash
# Fuzzes the scene loader (fuzz/scene_fuzzer.cpp) with libFuzzer, AddressSanitizer and
# UndefinedBehaviorSanitizer for 10 minutes (or $1 seconds), starting from a seed corpus of the
# example scenes and every built-in scenario exported as a scene. Not part of CI.
#   bash scripts/fuzz_scenes.sh [SECONDS]
# Builds with clang in ./build-fuzz (Debian: clang, libclang-rt-14-dev); the log of the last run is
# build-fuzz/fuzz/last_run.log, inputs that failed are left as build-fuzz/fuzz/crash-* (or leak-*,
# timeout-*). docs/scenes.md records the last result.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-600}
missing=()
for p in clang libclang-rt-14-dev; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi
CC=clang CXX=clang++ cmake -S . -B build-fuzz -DCMAKE_BUILD_TYPE=RelWithDebInfo -DNOETHER_FUZZ=ON \
  -DNOETHER_BUILD_TESTS=OFF -DNOETHER_BUILD_BENCHMARKS=OFF > /dev/null
cmake --build build-fuzz -j2 --target noether_scene_fuzzer noether_cli
work=build-fuzz/fuzz
mkdir -p "$work/seeds" "$work/corpus"
cp examples/scenes/*.json "$work/seeds/"
for scenario in $(build-fuzz/bin/noether list | sed -n '/^scenarios:/,/^steppers:/p' | awk '/^  /{print $1}'); do
  size=()
  case $scenario in chain2d|chain3d|nfourbar) size=(--set n=3) ;; grid2d) size=(--set k=2) ;; esac
  build-fuzz/bin/noether export "$scenario" "${size[@]}" > "$work/seeds/$scenario.json"
done
cd "$work"
./../bin/noether_scene_fuzzer -max_total_time="$seconds" -timeout=10 -rss_limit_mb=4096 -print_final_stats=1 \
  -dict=../../fuzz/scene.dict corpus seeds 2>&1 | tee last_run.log | grep -E "^#[0-9]+ +(pulse|DONE)|ERROR|SUMMARY" || true
grep -q "^Done\|DONE" last_run.log && ! grep -q "ERROR: " last_run.log
