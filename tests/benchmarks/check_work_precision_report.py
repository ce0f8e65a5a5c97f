#!/usr/bin/env python3
"""The work-precision report says which clock its times are on, in its text and in its plots,
whether the sweeps of a case took turns, and how the repeats of a point were made.

    check_work_precision_report.py --report benchmarks/work_precision/report --json RESULTS.json --work DIR

Writes the report from RESULTS.json (the binary's output, docs/performance/work_precision.json) twice,
once as measured on the wall clock and once as if on CPU time (the JSON's context.clock set to
"cpu"), and checks that work_precision.md and every work_precision_*.svg name that clock and never
the other; then twice more, with the JSON's context.sweeps absent (files written before the sweeps
took turns) and "in turns", and checks that work_precision.md says how the sweeps ran, and only that;
then twice more, with context.repeats_made absent (files written before the repeats were made in
rounds, its runs without round_seconds) and "in rounds" with every run's round_seconds set to
(seconds, 1.5 seconds), and checks that work_precision.md says how the repeats were made, and that
its table of the repeats' spread is there, with the median 1.50, exactly when the runs have
round_seconds.
Exit status 0 when they do, 1 when not, 77 (skipped) without gnuplot, which draws the plots.
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


def render(report, results, out):
    """work_precision.md of the report written from `results` into the fresh directory `out`."""
    shutil.rmtree(out, ignore_errors=True)
    os.makedirs(out)
    json_path = os.path.join(out, "results.json")
    with open(json_path, "w") as f:
        json.dump(results, f)
    subprocess.run([sys.executable, report, "--json", json_path, "--out", out], check=True, stdout=subprocess.DEVNULL)
    with open(os.path.join(out, "work_precision.md")) as f:
        return f.read()


def check_clock(report, results, work, clock):
    out = os.path.join(work, clock)
    text = render(report, dict(results, context=dict(results["context"], clock=clock)), out)
    other = "cpu" if clock == "wall" else "wall"
    problems = []
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


SWEEPS = {None: "the sweeps of a case ran one after another", "in turns": "the sweeps of a case took turns"}


def check_sweeps(report, results, work, sweeps):
    context = {k: v for k, v in results["context"].items() if k != "sweeps"}
    if sweeps is not None:
        context["sweeps"] = sweeps
    text = render(report, dict(results, context=context), os.path.join(work, f"sweeps_{sweeps}"))
    if any((phrase in text) != (key == sweeps) for key, phrase in SWEEPS.items()):
        return [f"sweeps {sweeps}: work_precision.md does not say '{SWEEPS[sweeps]}' alone"]
    return []


REPEATS = {None: ", run one after another", "in rounds": ", one in each round over the case's points"}
SPREAD = "## The repeats' spread"


def check_repeats(report, results, work, repeats_made):
    context = {k: v for k, v in results["context"].items() if k != "repeats_made"}
    if repeats_made is not None:
        context["repeats_made"] = repeats_made

    def runs_of(case):
        for r in case.get("runs", []):
            run = {k: v for k, v in r.items() if k != "round_seconds"}
            if repeats_made is not None:
                run["round_seconds"] = [r["seconds"], 1.5 * r["seconds"]]
            yield run

    cases = [dict(c, runs=list(runs_of(c))) for c in results["cases"]]
    text = render(report, dict(results, context=context, cases=cases), os.path.join(work, f"repeats_{repeats_made}"))
    problems = []
    if any((phrase in text) != (key == repeats_made) for key, phrase in REPEATS.items()):
        problems.append(f"repeats {repeats_made}: work_precision.md does not say '{REPEATS[repeats_made]}' alone")
    spread = text.split(SPREAD)[1].split("\n## ")[0] if SPREAD in text else None
    if (spread is not None) != (repeats_made is not None):
        problems.append(f"repeats {repeats_made}: the table of the repeats' spread is "
                        + ("there without round_seconds" if spread is not None else "missing"))
    elif spread is not None and "| 1.50 | 1.50 | 1: " not in spread:
        problems.append(f"repeats {repeats_made}: the spread table does not give slowest / fastest 1.50")
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
    problems += [p for sweeps in SWEEPS for p in check_sweeps(args.report, results, args.work, sweeps)]
    problems += [p for repeats in REPEATS for p in check_repeats(args.report, results, args.work, repeats)]
    for p in problems:
        print("FAIL:", p)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
