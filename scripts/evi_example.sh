#!/usr/bin/env bash
# The example of [Kosmas2020, Sec. IV] (docs/evi.md): runs build/bin/example_evi_double_pendulum
# (build first: bash scripts/test.sh or scripts/main.sh) and writes docs/evi/double_pendulum.csv
# and docs/evi/double_pendulum.svg (gnuplot, Debian gnuplot-nox).
set -euo pipefail
cd "$(dirname "$0")/.."
out=docs/evi
mkdir -p "$out"
build/bin/example_evi_double_pendulum > "$out/double_pendulum.csv"
gnuplot <<PLOT
set terminal svg size 900,420 font "sans,11"
set output "$out/double_pendulum.svg"
set datafile separator ","
set logscale xy
set format y "10^{%L}"
set xlabel "h (100 steps)"
set key bottom right font ",9"
set multiplot layout 1,2 title "Planar double pendulum, [Kosmas2020] Sec. IV: max errors over 100 steps"
methods = "RK4 (index 1)|evi S=1 omega=0|evi S=3 omega=0|evi S=1 omega=3|evi S=3 omega=3"
method(i) = system(sprintf("echo '%s' | cut -d'|' -f%d", methods, i))
set title "energy, max |H - H_0|"
set yrange [1e-17:1e3]
plot for [i=1:5] "$out/double_pendulum.csv" using 1:(strcol(2) eq method(i) ? \$3 : 1/0) with linespoints title method(i)
set title "constraints, max |g(q)|"
plot for [i=1:5] "$out/double_pendulum.csv" using 1:(strcol(2) eq method(i) ? (\$4 > 0 ? \$4 : 1e-17) : 1/0) with linespoints title method(i)
unset multiplot
PLOT
echo "wrote $out/double_pendulum.csv and $out/double_pendulum.svg"
