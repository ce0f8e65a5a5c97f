#!/usr/bin/env bash
# A real full disk: noether writes into a 128 KiB tmpfs filled to leave
# 0 to 64 KiB free, so that the disk fills while the running summary, the time series or the
# final summary is written. Whatever fails, the program must say so (exit 1, "No space left on
# device" on stderr) and leave no file that claims more than happened: no empty or "running"
# summary.json, no temporary file; and with enough room the run completes.
# Mounting needs root and mount rights in a private mount namespace (unshare -m), which CI may
# not give: the test then exits 77 (skipped). The same failures are injected without root by
# tests/apps/test_output_directory.cpp, test_run_outputs.cpp and the cli.write_fails_* tests.
# Usage: check_disk_full.sh NOETHER WORK_DIR
set -u
program=$1
work=$2
if [ "${3:-}" != --inside ]; then
  rm -rf "$work"
  mkdir -p "$work/small"
  unshare -m true 2>/dev/null || { echo "skipped: unshare -m is not permitted here"; exit 77; }
  exec unshare -m bash "$0" "$program" "$work" --inside
fi
mount -t tmpfs -o size=128k tmpfs "$work/small" 2>/dev/null || { echo "skipped: cannot mount a tmpfs"; exit 77; }

fail() {
  echo "FAIL with $free KiB free: $*"
  echo "--- stdout"; cat "$work/out"; echo "--- stderr"; cat "$work/err"
  ls -la "$work/small/r" 2>/dev/null
  exit 1
}

completed=0 failed=0
for free in 0 4 8 12 16 20 24 28 32 40 48 64; do
  rm -rf "$work/small/"*
  head -c $(((128 - free) * 1024)) /dev/zero >"$work/small/fill" 2>/dev/null
  "$program" run double-pendulum --threads 1 --every 200 --out "$work/small/r" >"$work/out" 2>"$work/err"
  rc=$?
  dir=$work/small/r
  ls "$dir" 2>/dev/null | grep -q '\.tmp$' && fail "a temporary file is left"
  if [ "$rc" -eq 0 ]; then
    grep -q '^  "status": "completed",$' "$dir/summary.json" || fail "exit 0, but summary.json does not say completed"
    [ -s "$dir/timeseries.csv" ] || fail "exit 0 without timeseries.csv"
    completed=$((completed + 1))
  elif [ "$rc" -eq 1 ]; then
    grep -q "No space left on device" "$work/err" || fail "exit 1 without the reason"
    if [ -e "$dir/summary.json" ]; then
      grep -q '^  "status": "failed",$' "$dir/summary.json" || fail "exit 1, but summary.json does not say failed"
      grep -q '"cause": "output"' "$dir/summary.json" || fail "the failure's cause is not output"
    fi
    if [ -e "$dir/timeseries.csv" ]; then
      [ -z "$(tail -c 1 "$dir/timeseries.csv")" ] || fail "the last row of timeseries.csv is torn"
    fi
    failed=$((failed + 1))
  else
    fail "exit code $rc"
  fi
  echo "$free KiB free: exit $rc: $(head -c 120 "$work/err")"
done
[ "$failed" -gt 0 ] || { echo "FAIL: the disk never filled"; exit 1; }
[ "$completed" -gt 0 ] || { echo "FAIL: no run completed with 64 KiB free"; exit 1; }
