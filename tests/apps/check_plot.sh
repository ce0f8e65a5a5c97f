#!/usr/bin/env bash
# noether plot: the figures of real runs, checked by tests/apps/check_plots.py
# (SVG parsed as XML, PNG signature and size), and the error cases' messages and exit codes.
# Usage: check_plot.sh NOETHER WORK_DIR SOURCE_DIR
set -u
program=$1
work=$2
source=$3
fail() { echo "FAIL: $*"; exit 1; }
rm -rf "$work"
mkdir -p "$work"
cd "$work" || exit 1

# expect CODE STDERR_REGEX COMMAND...: the exit code, and stderr matching the regex ('' : empty).
expect() {
  local code=$1 pattern=$2
  shift 2
  "$@" >stdout 2>stderr
  local got=$?
  [ "$got" = "$code" ] || fail "$* exited $got, expected $code; stderr: $(cat stderr)"
  if [ -z "$pattern" ]; then
    [ ! -s stderr ] || fail "$*: stderr '$(cat stderr)' is not empty"
    return
  fi
  grep -Eq "$pattern" stderr || fail "$*: stderr '$(cat stderr)' does not match '$pattern'"
}

"$program" run double-pendulum --t 1 --threads 1 --out D >/dev/null || fail "the run failed"
expect 0 '' "$program" plot D
[ "$(cat stdout)" = "$(printf 'D/plots/%s\n' energy.svg energy.png constraints.svg constraints.png)" ] ||
  fail "plot printed '$(cat stdout)'"
python3 "$source/tests/apps/check_plots.py" D/plots energy constraints || fail "double-pendulum's figures"

# Probes (the double four-bar's B0), momenta (top's J_z), a varying step (sem-vi).
"$program" run double-fourbar --t 0.2 --threads 1 --out F >/dev/null || fail "double-fourbar failed"
"$program" run top --t 0.02 --threads 1 --out T >/dev/null || fail "top failed"
"$program" run double-well --stepper sem-vi --t 1 --threads 1 --out W >/dev/null || fail "double-well failed"
for dir in F T W; do expect 0 '' "$program" plot $dir; done
python3 "$source/tests/apps/check_plots.py" F/plots energy constraints probes || fail "double-fourbar's figures"
python3 "$source/tests/apps/check_plots.py" T/plots energy constraints momenta probes || fail "top's figures"
python3 "$source/tests/apps/check_plots.py" W/plots energy step_size || fail "double-well's figures"

# Actuators (robot-arm's PD motors): their torques and tracking errors, not drawn as probes.
"$program" run robot-arm --t 0.2 --threads 1 --out R >/dev/null || fail "robot-arm failed"
expect 0 '' "$program" plot R
python3 "$source/tests/apps/check_plots.py" R/plots energy energy_balance constraints probes actuators tracking ||
  fail "robot-arm's figures"

# A figure of an earlier plot that this one does not draw is removed; an entry where gnuplot writes
# (a symlink) is replaced, its target untouched.
echo precious >precious
touch D/plots/momenta.svg D/plots/momenta.png
ln -s "$work/precious" D/plots/energy.svg.tmp
expect 0 '' "$program" plot D
[ "$(cat precious)" = precious ] || fail "noether plot wrote through the symlink energy.svg.tmp"
python3 "$source/tests/apps/check_plots.py" D/plots energy constraints || fail "the figures after a second plot"

# Issue 40: DIR/plots a symlink to a directory outside DIR is replaced by a directory of DIR, as
# vtk/ is (OutputDirectory's subdirectory), and nothing is written into the symlink's target.
mkdir outside
cp -r D S && rm -rf S/plots && ln -s "$work/outside" S/plots
expect 0 '' "$program" plot S
[ -z "$(ls outside)" ] || fail "noether plot wrote through the symlink S/plots: $(ls outside | tr '\n' ' ')"
[ -d S/plots ] && [ ! -L S/plots ] || fail "S/plots is not a directory of S"
python3 "$source/tests/apps/check_plots.py" S/plots energy constraints || fail "the figures beside a replaced symlink"

# A run that goes on, or was killed: its partial time series is plotted, and the note says so.
cp -r D P
mv P/timeseries.csv P/timeseries.csv.partial
sed -i 's/"status": "completed"/"status": "running"/; s/"timeseries": "timeseries.csv"/"timeseries": "timeseries.csv.partial"/' P/summary.json
printf '1.01,0.5' >>P/timeseries.csv.partial  # a row being written
expect 0 "^noether: note: 'P' holds timeseries.csv.partial \(summary.json says \"running\"\): the run goes on, or was killed; plotting the 101 rows written so far$" \
  "$program" plot P
python3 "$source/tests/apps/check_plots.py" P/plots energy constraints || fail "the partial run's figures"
rm P/summary.json
expect 0 "^noether: note: 'P' holds timeseries.csv.partial \(no summary.json\): the run goes on, or was killed; plotting the 101 rows written so far$" \
  "$program" plot P

# Usage errors (2): no such directory, no time series, a time series that does not parse.
expect 2 "^noether: error: plot: 'nowhere' does not exist; give the --out directory of a noether run$" "$program" plot nowhere
mkdir empty
expect 2 "^noether: error: plot: 'empty' holds no timeseries.csv \(nor timeseries.csv.partial\); give the --out directory of a noether run$" \
  "$program" plot empty
[ ! -e empty/plots ] || fail "a refused plot created empty/plots"
mkdir bad && printf 't,energy\n0,x\n' >bad/timeseries.csv
expect 2 "^noether: error: bad/timeseries.csv line 2: 'x' is not a number$" "$program" plot bad
expect 2 "^noether: error: directory is required" "$program" plot

# Failures (1): gnuplot missing, gnuplot failing (its stderr is reported, no figure is left).
expect 1 "^noether: error: plot: gnuplot is not installed \(not found on PATH\); install the Debian package gnuplot-nox \(apt-get install gnuplot-nox\)$" \
  env PATH="$work/no-such-dir" "$program" plot D
mkdir fake
printf '#!/bin/sh\necho "line 3: unknown terminal type" >&2\nexit 1\n' >fake/gnuplot
chmod +x fake/gnuplot
cp -r D G && rm -rf G/plots
expect 1 "^noether: error: plot: gnuplot failed on 'G/plots/plot.gp' \(exit code 1\): line 3: unknown terminal type$" \
  env PATH="$work/fake:$PATH" "$program" plot G
[ "$(ls G/plots | tr '\n' ' ')" = "plot.gp plot_data.tsv " ] || fail "a failed plot left $(ls G/plots)"
echo "noether plot: all checks passed"
