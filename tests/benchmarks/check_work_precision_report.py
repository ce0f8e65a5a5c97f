#!/usr/bin/env python3
"""The work-precision report says which clock its times are on, in its text and in its plots.

    check_work_precision_report.py --report benchmarks/work_precision/report --json RESULTS.json --work DIR

Writes the report from RESULTS.json (the binary's output, docs/performance/work_precision.json) twice,
once as measured on the wall clock and once as if on CPU time (the JSON's context.clock set to
"cpu"), and checks that work_precision.md and every work_precision_*.svg name that clock and never
the other. Exit status 0 when they do, 1 when not, 77 (skipped) without gnuplot, which draws the plots.
"""
import argparse
import glob
import json
import os
import shutil
import subprocess
import sys

HEADER = {"wall": "times are wall-clock times", "cpu": "times are the process's CPU time"}
AXIS = {"wall": "wall-clock time (s)", "cpu": "CPU time (s)"}


def check_clock(report, results, work, clock):
    out = os.path.join(work, clock)
    shutil.rmtree(out, ignore_errors=True)
    os.makedirs(out)
    results = dict(results, context=dict(results["context"], clock=clock))
    json_path = os.path.join(out, "results.json")
    with open(json_path, "w") as f:
        json.dump(results, f)
    subprocess.run([sys.executable, report, "--json", json_path, "--out", out], check=True, stdout=subprocess.DEVNULL)
    other = "cpu" if clock == "wall" else "wall"
    problems = []
    with open(os.path.join(out, "work_precision.md")) as f:
        text = f.read()
    if HEADER[clock] not in text or HEADER[other] in text:
        problems.append(f"{clock}: work_precision.md does not say '{HEADER[clock]}' alone")
    plots = sorted(glob.glob(os.path.join(out, "work_precision_*.svg")))
    if not plots:
        problems.append(f"{clock}: no plot written")
    for path in plots:
        with open(path) as f:
            svg = f.read()
        if AXIS[clock] not in svg or AXIS[other] in svg:
            problems.append(f"{clock}: {os.path.basename(path)} does not label its axis '{AXIS[clock]}' alone")
    return problems


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--report", required=True)
    parser.add_argument("--json", required=True)
    parser.add_argument("--work", required=True)
    args = parser.parse_args()
    if not shutil.which("gnuplot"):
        print("gnuplot not found (Debian gnuplot-nox): the plots cannot be checked")
        return 77
    with open(args.json) as f:
        results = json.load(f)
    problems = [p for clock in ("wall", "cpu") for p in check_clock(args.report, results, args.work, clock)]
    for p in problems:
        print("FAIL:", p)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
