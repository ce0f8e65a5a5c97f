#!/usr/bin/env bash
# SIGINT, SIGTERM and SIGHUP end a run cleanly: exit 130, 143 or 129, the
# summary says interrupted (never the previous run's "ok"), timeseries.csv holds steps 0 to
# `steps`, whole, and no partial file is left. A SIGINT the shell set to ignored (a background
# job) stays ignored; a SIGKILL, which no program can catch, leaves "running" and the partial rows.
# A printed summary that cannot be written (a full device, a closed pipe) is an error, exit 1,
# after a run whose files are complete; SIGPIPE does not end the program.
# Usage: check_interrupt.sh NOETHER WORK_DIR
. "$(dirname "$0")/script_support.sh"

# A run of 10^6 steps, far longer than the test waits, started in the background: in a subshell,
# which runs it with SIGINT's default action, or (with $2) directly, which runs it with SIGINT
# ignored, as a non-interactive shell starts its background jobs.
# SIGHUP is reset to its default action (env --default-signal): a test run under nohup would start
# it ignored, and an ignored SIGHUP stays ignored.
start_long_run() {
  local dir=$1 keep_ignored=${2:-}
  local run=(run chain2d --set n=20 --t 10000 --max-steps 1000000 --threads 1 --out "$dir")
  if [ -z "$keep_ignored" ]; then
    (exec env --default-signal=HUP "$program" "${run[@]}" >"$work/out" 2>"$work/err") &
  else
    "$program" "${run[@]}" >"$work/out" 2>"$work/err" &
  fi
  pid=$!
  for _ in $(seq 600); do
    [ -e "$dir/timeseries.csv.partial" ] && return 0
    sleep 0.1
  done
  fail "no $dir/timeseries.csv.partial after 60 s"
}

# The files after an interruption by SIG$1: exit code $2.
check_interrupted() {
  local signal=$1 expected=$2 dir=$3 rc
  wait "$pid"
  rc=$?
  [ "$rc" -eq "$expected" ] || fail "SIG$signal: exit code $rc, expected $expected"
  grep -q '^  "status": "interrupted",$' "$dir/summary.json" || fail "SIG$signal: summary.json does not say interrupted"
  grep -q "^  \"interrupted_by\": \"SIG$signal\",\$" "$dir/summary.json" || fail "SIG$signal: no interrupted_by"
  grep -q '^  "scenario": "chain2d",$' "$dir/summary.json" || fail "SIG$signal: summary.json is not this run's"
  grep -q '^  "timeseries": "timeseries.csv",$' "$dir/summary.json" || fail "SIG$signal: timeseries not closed"
  [ -e "$dir/timeseries.csv.partial" ] && fail "SIG$signal: timeseries.csv.partial left behind"
  local steps rows
  steps=$(sed -n 's/^  "steps": \([0-9]*\),$/\1/p' "$dir/summary.json")
  rows=$(wc -l <"$dir/timeseries.csv")
  [ "$rows" -eq $((steps + 2)) ] || fail "SIG$signal: $rows lines in timeseries.csv for $steps steps"
  [ -z "$(tail -c 1 "$dir/timeseries.csv")" ] || fail "SIG$signal: the last row of timeseries.csv is torn"
  [ "$(wc -l <"$work/err")" -eq 1 ] &&
    grep -q "^noether: error: interrupted by SIG$signal after step $steps (t = " "$work/err" ||
    fail "SIG$signal: stderr is not the one line naming the interruption"
  echo "SIG$signal: exit $rc after step $steps"
}

# Defect 3: a completed run's directory, then a long run in it, interrupted.
"$program" run double-fourbar --t 0.1 --threads 1 --out "$work/prev" >/dev/null || fail "the first run failed"
start_long_run "$work/prev"
grep -q '^  "status": "running",$' "$work/prev/summary.json" || fail "the summary does not say running"
grep -q '^  "scenario": "chain2d",$' "$work/prev/summary.json" || fail "the running summary is the previous run's"
[ -e "$work/prev/timeseries.csv" ] && fail "the previous run's timeseries.csv sits beside the running one"
kill -INT "$pid"
check_interrupted INT 130 "$work/prev"

start_long_run "$work/term"
kill -TERM "$pid"
check_interrupted TERM 143 "$work/term"

# SIGHUP (the terminal closed) as SIGTERM: the run ends after its step, its files closed.
start_long_run "$work/hup"
kill -HUP "$pid"
check_interrupted HUP 129 "$work/hup"

# SIGINT ignored by the shell stays ignored (nohup, background jobs); SIGTERM still ends the run.
start_long_run "$work/ignored" keep-ignored
kill -INT "$pid"
sleep 1
kill -0 "$pid" 2>/dev/null || fail "SIGINT ended a run that was started with SIGINT ignored"
kill -TERM "$pid"
check_interrupted TERM 143 "$work/ignored"

# SIGKILL cannot be caught: the summary keeps saying running, the rows stay partial.
start_long_run "$work/killed"
kill -KILL "$pid"
wait "$pid"
grep -q '^  "status": "running",$' "$work/killed/summary.json" || fail "SIGKILL: summary.json changed"
[ -e "$work/killed/timeseries.csv.partial" ] || fail "SIGKILL: the partial rows are gone"
echo "SIGKILL: status running, timeseries.csv.partial kept"

# Standard output that cannot be written, after a run that completed: exit 1, one line naming the
# reason on stderr; summary.json says completed, the files are whole.
# check_unprinted LABEL REASON DIR: the run into DIR has ended with $rc and its stderr in $work/err.
check_unprinted() {
  local label=$1 reason=$2 dir=$3
  [ "$rc" -eq 1 ] || fail "$label: exit code $rc, expected 1"
  [ "$(wc -l <"$work/err")" -eq 1 ] &&
    grep -q "^noether: error: writing to standard output failed ($reason): what noether printed there is incomplete" "$work/err" ||
    fail "$label: stderr is not the one line naming the write error"
  grep -q '^  "status": "completed",$' "$dir/summary.json" || fail "$label: summary.json does not say completed"
  [ -e "$dir/timeseries.csv.partial" ] && fail "$label: timeseries.csv.partial left behind"
  echo "$label: exit 1, $(cat "$work/err")"
}
short_run=(run double-pendulum --t 0.1 --threads 1 --vtk off)
"$program" "${short_run[@]}" --out "$work/full" >/dev/full 2>"$work/err"
rc=$?
check_unprinted "summary > /dev/full" "No space left on device" "$work/full"
# A pipe whose reader has gone before the summary is printed: the write fails with EPIPE (the
# program is started with SIGPIPE at its default action, as a shell starts it).
/usr/bin/python3 -c 'import os, subprocess, sys
read_end, write_end = os.pipe()
os.close(read_end)
code = subprocess.run(sys.argv[1:], stdout=write_end).returncode
sys.exit(128 - code if code < 0 else code)' "$program" "${short_run[@]}" --out "$work/pipe" 2>"$work/err"
rc=$?
check_unprinted "summary into a closed pipe" "Broken pipe" "$work/pipe"
"$program" list >/dev/full 2>"$work/err"
rc=$?
[ "$rc" -eq 1 ] && grep -q "^noether: error: writing to standard output failed (No space left on device)" "$work/err" ||
  fail "noether list > /dev/full: exit code $rc, stderr $(cat "$work/err")"
echo "noether list > /dev/full: exit 1"
