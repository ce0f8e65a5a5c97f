#!/usr/bin/env bash
# With summary.json and timeseries.csv in the output directory symlinks to other files, noether
# must not overwrite those files: the links are replaced, never written through; so are the links
# named like the other outputs: motion.pvd, final_state.json, and vtk,
# a link to a directory that holds a step file.
# Usage: check_symlinks.sh NOETHER WORK_DIR
set -u
program=$1
work=$2
fail() { echo "FAIL: $*"; exit 1; }
rm -rf "$work"
mkdir -p "$work/out"
files="summary.json timeseries.csv summary.json.tmp timeseries.csv.partial motion.pvd final_state.json"
for name in $files; do
  echo precious >"$work/$name.target"
  ln -s "$work/$name.target" "$work/out/$name"
done
mkdir "$work/vtk.target"
echo precious >"$work/vtk.target/step_00000000.vtp"
ln -s "$work/vtk.target" "$work/out/vtk"
"$program" run double-pendulum --t 0.02 --threads 1 --out "$work/out" >/dev/null || fail "the run failed"
for target in $(for name in $files; do echo "$name.target"; done) vtk.target/step_00000000.vtp; do
  [ "$(cat "$work/$target")" = precious ] || fail "noether wrote through the symlink to $target"
done
for name in summary.json timeseries.csv motion.pvd final_state.json vtk/step_00000000.vtp; do
  [ -f "$work/out/$name" ] && [ ! -L "$work/out/$name" ] || fail "$name is not a regular file"
done
[ -d "$work/out/vtk" ] && [ ! -L "$work/out/vtk" ] || fail "vtk is not a directory"
[ "$(ls "$work/out" | tr '\n' ' ')" = "final_state.json motion.pvd summary.json timeseries.csv vtk " ] ||
  fail "left in out: $(ls "$work/out")"
grep -q '^  "status": "completed",$' "$work/out/summary.json" || fail "summary.json does not say completed"
