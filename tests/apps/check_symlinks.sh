#!/usr/bin/env bash
# Issue 20, defect 4: with summary.json and timeseries.csv in the output directory symlinks to
# other files, noether overwrote those files. The links must be replaced, never written through.
# Usage: check_symlinks.sh NOETHER WORK_DIR
set -u
program=$1
work=$2
fail() { echo "FAIL: $*"; exit 1; }
rm -rf "$work"
mkdir -p "$work/out"
for name in summary.json timeseries.csv summary.json.tmp timeseries.csv.partial; do
  echo precious >"$work/$name.target"
  ln -s "$work/$name.target" "$work/out/$name"
done
"$program" run double-pendulum --t 0.02 --threads 1 --out "$work/out" >/dev/null || fail "the run failed"
for name in summary.json timeseries.csv summary.json.tmp timeseries.csv.partial; do
  [ "$(cat "$work/$name.target")" = precious ] || fail "noether wrote through the symlink $name"
done
for name in summary.json timeseries.csv; do
  [ -f "$work/out/$name" ] && [ ! -L "$work/out/$name" ] || fail "$name is not a regular file"
done
[ "$(ls "$work/out" | tr '\n' ' ')" = "summary.json timeseries.csv " ] || fail "left in out: $(ls "$work/out")"
grep -q '^  "status": "completed",$' "$work/out/summary.json" || fail "summary.json does not say completed"
