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
#       a corrupt one, a time series shorter than the checkpoint says;
#   (e) checkpoints that do not continue the run whose outputs DIR holds, refused before anything
#       in DIR changes: edited (h, t_end, state.t, a key twice), with other settings than
#       summary.json's (solver, a stepper parameter), another run's (a later run into DIR removed
#       it; put back, it is named as another run's), a directory in its place.
# Usage: check_resume.sh NOETHER WORK_DIR
. "$(dirname "$0")/script_support.sh"

# summary.json without the timings (wall, setup, stepping and closing seconds, phase_seconds' three
# lines) and the run's id, which names each run apart (the resumed run keeps its own).
untimed() { grep -v -e '"wall_seconds"' -e '"setup_seconds"' -e '"stepping_seconds"' -e '"closing_seconds"' -e '"assembly"' -e '"factorization"' -e '"solve"' -e '"run_id"' "$1"; }

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

# (c) A checkpoint of version 1 (no evaluation counts, no work) resumes to the same rows;
# the summary has the evaluations as not counted (null; "not counted" printed).
v1="$work/c_version_1"
cp -r "$work/b_ref_livens-em" "$v1"
truncate -s "$(checkpoint_field "$v1" timeseries_length)" "$v1/timeseries.csv"
sed -i 's/^  "status": "completed",$/  "status": "interrupted",/' "$v1/summary.json"
sed -i 's/"version":7,/"version":1,/' "$v1/checkpoint.json"
grep -q '"version":1,' "$v1/checkpoint.json" || fail "(c) the checkpoint's version could not be set to 1"
resume_ok "$v1" "(c) version 1"
# Its rows are the run never stopped's, but for the cumulative work after the checkpoint: a
# checkpoint before version 5 did not save it, so it is unknown there (nan; docs/output.md).
without_work() { awk -F, -v OFS=, 'NR == 1 { for (i = 1; i <= NF; ++i) if ($i == "work") w = i } { $w = ""; print }' "$1"; }
cmp <(without_work "$v1/timeseries.csv") <(without_work "$work/b_ref_livens-em/timeseries.csv") ||
  fail "(c) timeseries.csv differs from the run never stopped in a column other than work"
tail -n 1 "$v1/timeseries.csv" | awk -F, -v w="$(head -n 1 "$v1/timeseries.csv" | tr , '\n' | grep -nx work | cut -d: -f1)" \
  '$w != "nan" { exit 1 }' || fail "(c) the work after a version-1 checkpoint is not nan"
grep -q '^  "newton_evaluations_total": null,$' "$v1/summary.json" &&
  grep -q '^  "newton_matrix_evaluations_total": null,$' "$v1/summary.json" ||
  fail "(c) summary.json does not have the evaluations as null"
grep -q '^newton_evaluations_total  *not counted$' "$work/out" || fail "(c) the printed summary does not say 'not counted'"
grep -q '^  "newton_evaluations_total": [0-9]*,$' "$work/b_ref_livens-em/summary.json" ||
  fail "(c) the reference run's summary has no evaluation count"
echo "(c) version-1 checkpoint resumed to the same rows, evaluations not counted, work unknown"

# (d) Refusals: exit 2, one line on stderr naming the file and what is wrong.
refused() {
  local label=$1 pattern=$2 dir=$3 rc
  "$program" resume "$dir" >"$work/out" 2>"$work/err"
  rc=$?
  [ "$rc" -eq 2 ] || fail "$label: exit code $rc, expected 2"
  [ "$(wc -l <"$work/err")" -eq 1 ] && grep -q "^noether: error: $pattern" "$work/err" ||
    fail "$label: stderr is not one line matching '$pattern'"
  echo "$label: $(cat "$work/err")"
}
refused "(d) completed run" "nothing to resume: the run completed ('[^']*/a_ref/summary.json' says so)$" "$work/a_ref"
mkdir -p "$work/empty"
refused "(d) no checkpoint" "no checkpoint in '[^']*/empty': '[^']*/empty/checkpoint.json' is missing" "$work/empty"
corrupt="$work/corrupt"
cp -r "$work/b_after_livens-em" "$corrupt"
sed -i 's/^  "status": "completed",$/  "status": "interrupted",/' "$corrupt/summary.json"
head -c 300 "$work/b_ref_livens-em/checkpoint.json" >"$corrupt/checkpoint.json"
refused "(d) truncated checkpoint" "'[^']*/corrupt/checkpoint.json': line 1, column [0-9]*: " "$corrupt"
sed 's/"q":\[/"q":[1.5,/' "$work/b_ref_livens-em/checkpoint.json" >"$corrupt/checkpoint.json"
refused "(d) state of the wrong size" "'[^']*/corrupt/checkpoint.json' does not fit the model of its options: livens-em: state.q holds 121 entries, the system has 120 coordinates$" "$corrupt"
sed 's/"format":"noether-checkpoint"/"format":"other"/' "$work/b_ref_livens-em/checkpoint.json" >"$corrupt/checkpoint.json"
refused "(d) another format" "'[^']*/corrupt/checkpoint.json': /format: is not \"noether-checkpoint\"" "$corrupt"
cp "$work/b_ref_livens-em/checkpoint.json" "$corrupt/checkpoint.json"
truncate -s 1000 "$corrupt/timeseries.csv"
refused "(d) time series too short" "'[^']*/corrupt/timeseries.csv' holds 1000 bytes, but the checkpoint says [0-9]* were written" "$corrupt"

# (e) Checkpoints that do not continue the run in DIR. stopped_copy REF DIR: REF's directory as the
# run would leave it stopped right after its last checkpoint (as in (b)).
stopped_copy() {
  rm -rf "$2"
  cp -r "$1" "$2"
  truncate -s "$(checkpoint_field "$2" timeseries_length)" "$2/timeseries.csv"
  sed -i 's/^  "status": "completed",$/  "status": "interrupted",/' "$2/summary.json"
}
# edited LABEL PATTERN SED REF: REF stopped, its checkpoint edited by SED, refused with PATTERN;
# nothing in the directory changes.
edited() {
  local label=$1 pattern=$2 expression=$3 ref=$4 dir="$work/e_edited"
  stopped_copy "$ref" "$dir"
  sed -i "$expression" "$dir/checkpoint.json"
  cmp -s "$dir/checkpoint.json" "$ref/checkpoint.json" && fail "(e) $label: the edit '$expression' changed nothing"
  (cd "$dir" && ls -l --time-style=+%s.%N && md5sum summary.json timeseries.csv) >"$work/before"
  refused "(e) $label" "$pattern" "$dir"
  (cd "$dir" && ls -l --time-style=+%s.%N && md5sum summary.json timeseries.csv) >"$work/after"
  cmp -s "$work/before" "$work/after" || fail "(e) $label: the refused resume changed the directory"
}
ref_b="$work/b_ref_livens-em"  # chain2d, h = 0.01, t_end = 1.37, its last checkpoint at step 120
file_re="'[^']*/e_edited/checkpoint.json'"
grep -q '"state":{"step":120,"t":1.2000000000000008,' "$ref_b/checkpoint.json" || fail "(e) the reference checkpoint is not at step 120"
edited "h edited" "$file_re: /state/t: is 1.2000000000000008, but step 120 of h = 0.001 ends at t = 0.12 (to within the rounding of the additions that reach it, [^)]*): the file was edited or damaged; restore the checkpoint.json the run wrote, or start the run again$" \
  's/"h":0.01,/"h":0.001,/' "$ref_b"
edited "t_end below the state" "$file_re: /state/step: is 120, at or past the run's last step, 100 (t_end = 1, h = 0.01), after which it writes no checkpoint: " \
  's/"t_end":1.37,/"t_end":1.0,/' "$ref_b"
edited "state.t shifted by 5" "$file_re: /state/t: is 6.200000000000001, but step 120 of h = 0.01 ends at t = 1.2 " \
  's/"t":1.2000000000000008,/"t":6.2000000000000008,/' "$ref_b"
edited "a key twice" "$file_re: /options/h: the key 'h' is given twice in this object; give it once [(]a JSON reader keeps one of the two values[)]$" \
  's/"h":0.01,/"h":0.01,"h":0.02,/' "$ref_b"
edited "another solver" "$file_re gives solver = \"umfpack\", but '[^']*/e_edited/summary.json' says the outputs in '[^']*/e_edited' were computed with solver = \"auto\" (a resumed run continues with the settings that computed its rows): " \
  's/"solver":"auto"/"solver":"umfpack"/' "$ref_b"
"$program" run double-pendulum --stepper evi --t 0.3 --checkpoint-every 8 --threads 1 --vtk off --out "$work/e_evi" >/dev/null 2>&1 ||
  fail "(e) the evi run failed"
edited "another stepper parameter" "$file_re gives scheme_parameters = {\"S\":3.0,\"omega\":0.0}, but '[^']*/summary.json' says the outputs in '[^']*' were computed with scheme_parameters = {\"S\":2.0,\"omega\":0.0} " \
  's/"scheme_parameters":{}/"scheme_parameters":{"S":3.0}/' "$work/e_evi"

# A stale checkpoint: run A with checkpoints completes; run B into the same directory, without
# checkpoints, is killed; B removed A's checkpoint when it started. Put back, it is refused as
# another run's, and B's rows stay.
stale="$work/e_stale"
"$program" run double-pendulum --t 1 --checkpoint-every 30 --threads 1 --vtk off --out "$stale" >/dev/null 2>&1 || fail "(e) run A failed"
cp "$stale/checkpoint.json" "$work/a_checkpoint.json"
(exec "$program" run chain2d --set n=20 --t 10000 --max-steps 1000000 --threads 1 --vtk off --out "$stale" >/dev/null 2>&1) &
pid=$!
for _ in $(seq 600); do
  [ -s "$stale/timeseries.csv.partial" ] && break
  sleep 0.05
done
kill -KILL "$pid"
wait "$pid" 2>/dev/null
grep -q '^  "status": "running",$' "$stale/summary.json" || fail "(e) run B's summary does not say running"
refused "(e) a later run removed the checkpoint" "no checkpoint in '[^']*/e_stale': " "$stale"
cp "$work/a_checkpoint.json" "$stale/checkpoint.json"
rows=$(md5sum <"$stale/timeseries.csv.partial")
refused "(e) another run's checkpoint" "'[^']*/e_stale/checkpoint.json' belongs to another run (run_id [0-9a-f]\{16\}) than the outputs in '[^']*/e_stale' ('[^']*/e_stale/summary.json' names run_id \"[0-9a-f]\{16\}\"): a later run wrote into the directory, and resuming would cut its rows; the checkpoint's run cannot be continued: start it again$" "$stale"
[ "$(md5sum <"$stale/timeseries.csv.partial")" = "$rows" ] || fail "(e) the refused resume changed run B's rows"

# checkpoint.json a directory: refused naming it (exit 2), not a stream's "Is a directory" (exit 1).
stopped_copy "$ref_b" "$work/e_directory"
rm "$work/e_directory/checkpoint.json"
mkdir "$work/e_directory/checkpoint.json"
refused "(e) checkpoint.json a directory" "'[^']*/e_directory/checkpoint.json' is a directory, not a file: there is no checkpoint to resume from; start the run again$" "$work/e_directory"
echo "all resume checks passed"
