#!/usr/bin/env bash
# Checkpoint and restart (docs/output.md, "Checkpoints"): a run made with
# --checkpoint-every and stopped, then continued by `noether resume DIR`, leaves a timeseries.csv
# byte-identical (cmp) to the same run never stopped, and a summary.json equal in all but timings.
#   (a) a real SIGTERM part-way (chain2d n = 200), after at least one checkpoint;
#   (b) stops made exactly: right after a checkpoint (the time series cut at the checkpoint's
#       length, nothing to cut) and between checkpoints as a SIGKILL or a crash leaves them (summary
#       "running", rows after the checkpoint in timeseries.csv.partial, cut and recomputed), for a
#       fixed-step, an adaptive (sem-vi) and a composed (livens-em4) stepper, modified Newton (which
#       keeps its factorization across steps) and UMFPACK;
#   (c) a checkpoint of version 1 (no evaluation counts) resumes, its summary saying so;
#   (d) what resume refuses, exit 2 with one line naming the file: a completed run, no checkpoint,
#       a corrupt one, a time series shorter than the checkpoint says.
# Usage: check_resume.sh NOETHER WORK_DIR
. "$(dirname "$0")/script_support.sh"

# summary.json without the timings (wall, setup, stepping and closing seconds, phase_seconds' three lines).
untimed() { grep -v -e '"wall_seconds"' -e '"setup_seconds"' -e '"stepping_seconds"' -e '"closing_seconds"' -e '"assembly"' -e '"factorization"' -e '"solve"' "$1"; }

# The checkpoint's step and time-series length.
checkpoint_field() { sed -n "s/.*\"$2\":\\([0-9]*\\).*/\\1/p" "$1/checkpoint.json" | head -1; }

# cmp and summary comparison of $1 (resumed) against $2 (never stopped).
same_run() {
  local resumed=$1 reference=$2 label=$3
  cmp "$resumed/timeseries.csv" "$reference/timeseries.csv" || fail "$label: timeseries.csv differs from the run never stopped"
  diff <(untimed "$resumed/summary.json") <(untimed "$reference/summary.json") >"$work/diff" ||
    { cat "$work/diff"; fail "$label: summary.json differs from the run never stopped beyond the timings"; }
  grep -q '^  "status": "completed",$' "$resumed/summary.json" || fail "$label: the resumed run did not complete"
  [ -e "$resumed/timeseries.csv.partial" ] && fail "$label: timeseries.csv.partial left behind"
  echo "$label: resumed run equals the run never stopped"
}

resume_ok() {
  "$program" resume "$1" >"$work/out" 2>"$work/err" || fail "$2: noether resume $1 exited with $?"
}

# (a) SIGTERM part-way through a run with checkpoints.
run_a=(run chain2d --set n=200 --t 8 --every 7 --checkpoint-every 50 --threads 1 --vtk off)
(exec "$program" "${run_a[@]}" --out "$work/a" >"$work/out" 2>"$work/err") &
pid=$!
for _ in $(seq 600); do
  [ -e "$work/a/checkpoint.json" ] && break
  sleep 0.05
done
[ -e "$work/a/checkpoint.json" ] || fail "(a) no checkpoint.json after 30 s"
kill -TERM "$pid"
wait "$pid"
rc=$?
[ "$rc" -eq 143 ] || fail "(a) exit code $rc after SIGTERM, expected 143 (did the run end before the signal?)"
echo "(a) SIGTERM after step $(sed -n 's/^  "steps": \([0-9]*\),$/\1/p' "$work/a/summary.json"), checkpoint at step $(checkpoint_field "$work/a" step)"
resume_ok "$work/a" "(a)"
"$program" "${run_a[@]}" --out "$work/a_ref" >/dev/null 2>&1 || fail "(a) the reference run failed"
same_run "$work/a" "$work/a_ref" "(a) SIGTERM"

# (b) Exact stops: the reference run completes; copies of its directory are turned into the
# directory a run stopped at the last checkpoint would leave.
check_exact_stops() {
  local label=$1
  shift
  local ref="$work/b_ref_$label"
  "$program" "$@" --threads 1 --vtk off --out "$ref" >/dev/null 2>&1 || fail "(b) $label: the reference run failed"
  [ -e "$ref/checkpoint.json" ] || fail "(b) $label: no checkpoint.json"
  local length step
  length=$(checkpoint_field "$ref" timeseries_length)
  step=$(checkpoint_field "$ref" step)
  # Right after the checkpoint: its rows, nothing after them; an interrupted summary.
  local after="$work/b_after_$label"
  cp -r "$ref" "$after"
  truncate -s "$length" "$after/timeseries.csv"
  sed -i 's/^  "status": "completed",$/  "status": "interrupted",/' "$after/summary.json"
  resume_ok "$after" "(b) $label right after the checkpoint"
  same_run "$after" "$ref" "(b) $label stopped right after the checkpoint at step $step"
  # Between checkpoints, as SIGKILL leaves it: summary running, rows beyond the checkpoint (here
  # every row to the end) in timeseries.csv.partial.
  local killed="$work/b_killed_$label"
  cp -r "$ref" "$killed"
  mv "$killed/timeseries.csv" "$killed/timeseries.csv.partial"
  sed -i 's/^  "status": "completed",$/  "status": "running",/' "$killed/summary.json"
  [ "$(stat -c %s "$killed/timeseries.csv.partial")" -gt "$length" ] || fail "(b) $label: no rows after the checkpoint to cut"
  resume_ok "$killed" "(b) $label between checkpoints"
  same_run "$killed" "$ref" "(b) $label stopped between checkpoints (rows after step $step cut)"
}
check_exact_stops livens-em run chain2d --set n=20 --t 1.37 --every 3 --checkpoint-every 40
check_exact_stops sem-vi run spring-pendulum --stepper sem-vi --t 0.5 --checkpoint-every 7
check_exact_stops livens-em4 run double-fourbar --stepper livens-em4 --t 0.2 --checkpoint-every 6
check_exact_stops modified-newton run chain2d --set n=20 --t 0.6 --newton modified --checkpoint-every 13
check_exact_stops em-ggl-umfpack run double-pendulum --stepper em-ggl --solver umfpack --t 0.3 --checkpoint-every 8

# (c) A checkpoint of version 1 (no evaluation counts) resumes to the same rows;
# the summary has the evaluations as not counted (null; "not counted" printed).
v1="$work/c_version_1"
cp -r "$work/b_ref_livens-em" "$v1"
truncate -s "$(checkpoint_field "$v1" timeseries_length)" "$v1/timeseries.csv"
sed -i 's/^  "status": "completed",$/  "status": "interrupted",/' "$v1/summary.json"
sed -i 's/"version":3,/"version":1,/' "$v1/checkpoint.json"
grep -q '"version":1,' "$v1/checkpoint.json" || fail "(c) the checkpoint's version could not be set to 1"
resume_ok "$v1" "(c) version 1"
cmp "$v1/timeseries.csv" "$work/b_ref_livens-em/timeseries.csv" || fail "(c) timeseries.csv differs from the run never stopped"
grep -q '^  "newton_evaluations_total": null,$' "$v1/summary.json" &&
  grep -q '^  "newton_matrix_evaluations_total": null,$' "$v1/summary.json" ||
  fail "(c) summary.json does not have the evaluations as null"
grep -q '^newton_evaluations_total  *not counted$' "$work/out" || fail "(c) the printed summary does not say 'not counted'"
grep -q '^  "newton_evaluations_total": [0-9]*,$' "$work/b_ref_livens-em/summary.json" ||
  fail "(c) the reference run's summary has no evaluation count"
echo "(c) version-1 checkpoint resumed to the same rows, evaluations not counted"

# (d) Refusals: exit 2, one line on stderr naming the file and what is wrong.
refused() {
  local label=$1 pattern=$2 dir=$3 rc
  "$program" resume "$dir" >"$work/out" 2>"$work/err"
  rc=$?
  [ "$rc" -eq 2 ] || fail "(d) $label: exit code $rc, expected 2"
  [ "$(wc -l <"$work/err")" -eq 1 ] && grep -q "^noether: error: $pattern" "$work/err" ||
    fail "(d) $label: stderr is not one line matching '$pattern'"
  echo "(d) $label: $(cat "$work/err")"
}
refused "completed run" "nothing to resume: the run completed ('[^']*/a_ref/summary.json' says so)$" "$work/a_ref"
mkdir -p "$work/empty"
refused "no checkpoint" "no checkpoint in '[^']*/empty': '[^']*/empty/checkpoint.json' is missing" "$work/empty"
corrupt="$work/corrupt"
cp -r "$work/b_after_livens-em" "$corrupt"
sed -i 's/^  "status": "completed",$/  "status": "interrupted",/' "$corrupt/summary.json"
head -c 300 "$work/b_ref_livens-em/checkpoint.json" >"$corrupt/checkpoint.json"
refused "truncated checkpoint" "'[^']*/corrupt/checkpoint.json': line 1, column [0-9]*: " "$corrupt"
sed 's/"q":\[/"q":[1.5,/' "$work/b_ref_livens-em/checkpoint.json" >"$corrupt/checkpoint.json"
refused "state of the wrong size" "'[^']*/corrupt/checkpoint.json' does not fit the model of its options: livens-em: state.q holds 121 entries, the system has 120 coordinates$" "$corrupt"
sed 's/"format":"noether-checkpoint"/"format":"other"/' "$work/b_ref_livens-em/checkpoint.json" >"$corrupt/checkpoint.json"
refused "another format" "'[^']*/corrupt/checkpoint.json': /format: is not \"noether-checkpoint\"" "$corrupt"
cp "$work/b_ref_livens-em/checkpoint.json" "$corrupt/checkpoint.json"
truncate -s 1000 "$corrupt/timeseries.csv"
refused "time series too short" "'[^']*/corrupt/timeseries.csv' holds 1000 bytes, but the checkpoint says [0-9]* were written" "$corrupt"
echo "all resume checks passed"
