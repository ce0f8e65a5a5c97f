#!/usr/bin/env bash
# The main job: install what it needs, build the program and the Python module (Release; not the
# tests, examples or benchmarks: scripts/test.sh builds those), run a scene file (the damped double four-bar linkage,
# examples/scenes/double_fourbar.json) into out/double-fourbar, print its summary, draw its plots
# and say where they and the ParaView collection are. The program is then at build/bin/noether.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh program
scene=examples/scenes/double_fourbar.json
out=out/double-fourbar
echo
echo "== build/bin/noether run $scene --out $out"
build/bin/noether run "$scene" --out "$out"
echo
echo "== build/bin/noether plot $out"
build/bin/noether plot "$out"
echo
echo "The run's files (docs/output.md): $out/summary.json, $out/timeseries.csv"
echo "Its plots (docs/cli.md, noether plot): $out/plots/*.svg and *.png"
if [ -f "$out/motion.pvd" ]; then
  echo "Its motion for ParaView: open $out/motion.pvd (File > Open, then Apply)"
else
  echo "No $out/motion.pvd: this build writes no ParaView collection"
fi
echo "The Python module (docs/python.md): PYTHONPATH=build/python /usr/bin/python3 examples/python/pendulum.py"
