#!/usr/bin/env bash
# The examples of [EnergyPreservingForcedVI] (docs/sem_vi.md), run with build/bin/noether (build
# first: bash scripts/test.sh or scripts/main.sh). Writes the figures docs/sem_vi/*.svg (gnuplot,
# Debian gnuplot-nox) and the tables docs/sem_vi/*.csv they are drawn from.
#   double-well: midpoint-vi (fixed h) and sem-vi (adaptive) from h = 0.05 on two orbits in the
#     right well, against livens-em4 at h = 5e-4 (order 4; the reference, interpolated by cubics);
#     sem-vi's condition estimate for initial steps from 0.2 to 0.001.
#   damped-oscillator: sem-vi and midpoint-vi at h = 0.05 for zeta = 0.01, 0.05, 0.1 and -0.05 (and
#     0), against the closed form (the scenario's probe `exact`).
set -euo pipefail
cd "$(dirname "$0")/.."
noether=build/bin/noether
out=docs/sem_vi
runs=$(mktemp -d)
trap 'rm -rf "$runs"' EXIT
mkdir -p "$out"

run() {  # run NAME ARGS...: noether run ARGS --out $runs/NAME, its summary discarded
  local name=$1
  shift
  "$noether" run "$@" --threads 1 --out "$runs/$name" > /dev/null
}
column_of() {  # column_of CSV NAME: the 1-based index of column NAME
  head -1 "$1" | tr ',' '\n' | grep -nx "$2" | cut -d: -f1
}
summary_value() {  # summary_value DIR KEY: a number from DIR/summary.json
  grep -o "\"$2\": [^,]*" "$1/summary.json" | head -1 | sed 's/.*: //'
}

# The double well: t, q, energy error, trajectory error against the reference, h.
#   case A: q0 = 1.2 (energy 0.19 a, near the well's bottom); case B: q0 = 0.3 (0.83 a, near the barrier).
errors() {  # errors REFERENCE RUN: t, |E - E_first|, |q - q_ref(t)|, h of each row after the first
  local q_ref q e h
  q_ref=$(column_of "$1/timeseries.csv" q:particle.q)
  q=$(column_of "$2/timeseries.csv" q:particle.q)
  e=$(column_of "$2/timeseries.csv" energy)
  h=$(column_of "$2/timeseries.csv" h)
  awk -F, -v qr="$q_ref" -v q="$q" -v e="$e" -v hc="$h" '
    FNR == 1 { next }
    NR == FNR { n++; T[n] = $1; Q[n] = $qr; next }
    {
      if ($e == "nan") next
      if (E0 == "") E0 = $e
      t = $1
      while (k < n - 3 && T[k + 3] < t) k++  # the four reference samples around t: k+1 .. k+4
      if (k < 1) k = 1
      ref = 0
      for (i = 0; i < 4; i++) {  # Lagrange cubic through them
        w = 1
        for (j = 0; j < 4; j++) if (j != i) w *= (t - T[k + j]) / (T[k + i] - T[k + j])
        ref += w * Q[k + i]
      }
      de = $e - E0; dq = $q - ref
      printf "%.10g,%.6e,%.6e,%.10g\n", t, (de < 0 ? -de : de), (dq < 0 ? -dq : dq), $hc
    }' "$1/timeseries.csv" "$2/timeseries.csv"
}
echo "stepper,case,t,energy_error,trajectory_error,h" > "$out/double_well.csv"
for case in A:1.2 B:0.3; do
  name=${case%%:*} q0=${case#*:}
  run "ref_$name" double-well --stepper livens-em4 --h 0.0005 --set q0="$q0"
  for stepper in midpoint-vi sem-vi; do
    run "${stepper}_$name" double-well --stepper "$stepper" --set q0="$q0"
    errors "$runs/ref_$name" "$runs/${stepper}_$name" | sed "s/^/$stepper,$name,/" >> "$out/double_well.csv"
  done
done

# sem-vi's condition estimate against the initial step (case B), and its run's other figures.
echo "h0,condition_max,condition_median,steps,h_min,h_max,energy_max_increment,midpoint_energy_error" \
  > "$out/double_well_condition.csv"
for h0 in 0.2 0.1 0.05 0.02 0.01 0.005 0.002 0.001; do
  run "sem_$h0" double-well --stepper sem-vi --h "$h0"
  run "mid_$h0" double-well --stepper midpoint-vi --h "$h0"
  csv=$runs/sem_$h0/timeseries.csv
  median=$(awk -F, 'NR > 2 { print $NF }' "$csv" | sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }')
  mid_error=$(awk -F, -v e="$(column_of "$runs/mid_$h0/timeseries.csv" energy)" \
    'NR == 2 { E0 = $e } NR > 2 { d = $e - E0; if (d < 0) d = -d; if (d > m) m = d } END { printf "%.3e", m }' \
    "$runs/mid_$h0/timeseries.csv")
  echo "$h0,$(summary_value "$runs/sem_$h0" condition_estimate_max),$median,$(summary_value "$runs/sem_$h0" steps),$(summary_value "$runs/sem_$h0" step_size_min),$(summary_value "$runs/sem_$h0" step_size_max),$(summary_value "$runs/sem_$h0" energy_max_abs_increment),$mid_error" \
    >> "$out/double_well_condition.csv"
  if [ "$h0" = 0.1 ] || [ "$h0" = 0.01 ] || [ "$h0" = 0.001 ]; then  # about 340 rows each
    awk -F, -v h0="$h0" -v every="$(awk -v h0="$h0" 'BEGIN { print int(0.1 / h0 + 0.5) }')" \
      'NR > 2 && (NR - 3) % every == 0 { printf "%s,%.10g,%s\n", h0, $1, $NF }' "$csv"
  fi
done > "$runs/condition_series.csv"
{ echo "h0,t,condition"; cat "$runs/condition_series.csv"; } > "$out/double_well_condition_series.csv"

# The damped oscillator: t, h, q, the closed form and |q - exact| for each zeta and stepper.
echo "stepper,zeta,t,h,q,exact,error" > "$out/damped_oscillator.csv"
for zeta in 0.01 0.05 0.1 -0.05 0; do
  for stepper in sem-vi midpoint-vi; do
    run "osc_${stepper}_$zeta" damped-oscillator --stepper "$stepper" --set zeta="$zeta"
    csv=$runs/osc_${stepper}_$zeta/timeseries.csv
    awk -F, -v s="$stepper" -v z="$zeta" -v q="$(column_of "$csv" q:mass.q)" -v x="$(column_of "$csv" exact.x)" \
      -v hc="$(column_of "$csv" h)" \
      'NR > 2 { d = $q - $x; printf "%s,%s,%.10g,%.10g,%.8g,%.8g,%.6e\n", s, z, $1, $hc, $q, $x, (d < 0 ? -d : d) }' \
      "$csv" >> "$out/damped_oscillator.csv"
  done
done

gnuplot <<PLOT
set terminal svg size 1100,640 font "sans,11"
set datafile separator ","
set key font ",9" bottom right
set xrange [0:20]
sel(s, c) = (strcol(1) eq s && strcol(2) eq c)

set output "$out/double_well.svg"
set multiplot layout 2,3 title "Double well a (q^2 - 1)^2, h = 0.05: midpoint-vi (fixed step) and sem-vi (adaptive) [EnergyPreservingForcedVI]"
do for [c in "A B"] {
  q0 = (c eq "A") ? "1.2" : "0.3"
  set logscale y
  set format y "10^{%L}"
  set xlabel "t"
  set title sprintf("case %s (q0 = %s): energy error", c, q0)
  plot "$out/double_well.csv" using 3:(sel("midpoint-vi", c) ? \$4 + 1e-17 : 1/0) with lines title "midpoint-vi |H - H_0|", \
       "" using 3:(sel("sem-vi", c) ? \$4 + 1e-17 : 1/0) with lines title "sem-vi |E_k - E_1|"
  set title sprintf("case %s: |q - q_{ref}|", c)
  set yrange [1e-8:1]
  plot "$out/double_well.csv" using 3:(sel("midpoint-vi", c) ? \$5 + 1e-17 : 1/0) with lines title "midpoint-vi", \
       "" using 3:(sel("sem-vi", c) ? \$5 + 1e-17 : 1/0) with lines title "sem-vi"
  unset logscale y
  set yrange [*:*]
  set format y "%g"
  set title sprintf("case %s: step size", c)
  plot "$out/double_well.csv" using 3:(sel("midpoint-vi", c) ? \$6 : 1/0) with lines title "midpoint-vi", \
       "" using 3:(sel("sem-vi", c) ? \$6 : 1/0) with lines title "sem-vi"
}
unset multiplot

set output "$out/double_well_condition.svg"
set terminal svg size 1000,420 font "sans,11"
set multiplot layout 1,2 title "sem-vi on the double well (case B): condition number of the step equations (1-norm estimate)"
set logscale y
set format y "10^{%L}"
set xlabel "t"
set title "over time, for three initial steps h0"
set key top right
plot for [h0 in "0.1 0.01 0.001"] "$out/double_well_condition_series.csv" using 2:(strcol(1) eq h0 ? \$3 : 1/0) with lines title "h0 = ".h0
set logscale x
set xrange [5e-4:0.4]
set format x "10^{%L}"
set xlabel "initial step h0"
set title "against the initial step"
plot "$out/double_well_condition.csv" using 1:2 with linespoints title "largest", \
     "" using 1:3 with linespoints title "median", \
     28 / x**2 with lines dashtype 2 title "28 / h0^2"
unset multiplot

set output "$out/damped_oscillator.svg"
set terminal svg size 1200,420 font "sans,11"
unset logscale x
set xrange [0:20]
set format x "%g"
set multiplot layout 1,3 title "Damped oscillator m = k = 1, q0 = 1, v0 = 0, h0 = 0.05 [EnergyPreservingForcedVI]"
unset logscale y
set format y "%g"
set xlabel "t"
set key top left
set title "sem-vi's step size"
plot for [z in "0.1 0.05 0.01 0 -0.05"] "$out/damped_oscillator.csv" using 3:(sel("sem-vi", z) ? \$4 : 1/0) with lines title "zeta = ".z
set title "q: sem-vi (points) and the closed form"
set key bottom left
plot for [z in "0.1 -0.05"] "$out/damped_oscillator.csv" using 3:(sel("sem-vi", z) ? \$6 : 1/0) with lines title "exact, zeta = ".z, \
     for [z in "0.1 -0.05"] "" using 3:(sel("sem-vi", z) ? \$5 : 1/0) every 4 with points pointtype 7 pointsize 0.3 title "sem-vi, zeta = ".z
set logscale y
set format y "10^{%L}"
set yrange [1e-6:1e-1]
set key top left
set title "|q - q_{exact}|"
plot for [z in "0.1 -0.05"] "$out/damped_oscillator.csv" using 3:(sel("sem-vi", z) ? \$7 + 1e-17 : 1/0) with lines title "sem-vi, zeta = ".z, \
     for [z in "0.1 -0.05"] "" using 3:(sel("midpoint-vi", z) ? \$7 + 1e-17 : 1/0) with lines dashtype 2 title "midpoint-vi, zeta = ".z
unset multiplot
PLOT
echo "wrote $out/double_well.svg, $out/double_well_condition.svg, $out/damped_oscillator.svg and their tables"
