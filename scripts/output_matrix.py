#!/usr/bin/env python3
"""Runs every scenario x stepper pair of `noether list` for a few steps and keeps the bytes of each
run's timeseries.csv and final_state.json, so that two builds can be compared file by file.

    /usr/bin/python3 scripts/output_matrix.py run --noether build/bin/noether --out /tmp/before
    /usr/bin/python3 scripts/output_matrix.py run --noether build/bin/noether --out /tmp/after
    /usr/bin/python3 scripts/output_matrix.py compare /tmp/before /tmp/after

Each pair runs at its scenario's own step h (from `noether export`) for --steps steps on one
thread, without ParaView files. `run` writes DIR/<scenario>/<stepper>/ with the two files (or
timeseries.csv.partial when the run failed) and exit_code. `compare` lists every pair whose exit
code or files differ and exits 1 when there is one; pairs that fail in both builds are compared too
(their outputs must fail alike).
"""
import argparse
import filecmp
import json
import pathlib
import shutil
import subprocess
import sys
import tempfile

KEPT = ("timeseries.csv", "timeseries.csv.partial", "final_state.json")


def listing(noether):
    """(scenarios, steppers) as `noether list` prints them: indented names under two headings."""
    text = subprocess.run([noether, "list"], check=True, capture_output=True, text=True).stdout
    groups, current = {}, None
    for line in text.splitlines():
        if line.endswith(":") and not line.startswith(" "):
            current = groups.setdefault(line[:-1], [])
        elif line.startswith("  ") and current is not None and line.split()[1] != "--set":
            current.append(line.split()[0])  # "  evi --set S=...": a stepper's parameter, not a stepper
    return groups["scenarios"], groups["steppers"]


def scenario_step(noether, scenario):
    scene = json.loads(subprocess.run([noether, "export", scenario], check=True, capture_output=True,
                                      text=True).stdout)
    return scene["run"]["h"]


def run_matrix(noether, out, steps):
    scenarios, steppers = listing(noether)
    for scenario in scenarios:
        h = scenario_step(noether, scenario)
        for stepper in steppers:
            target = out / scenario / stepper
            target.mkdir(parents=True, exist_ok=True)
            with tempfile.TemporaryDirectory() as work:
                run_dir = pathlib.Path(work) / "run"
                command = [noether, "run", scenario, "--stepper", stepper, "--h", repr(h), "--t",
                           repr(steps * h), "--threads", "1", "--vtk", "off", "--out", str(run_dir)]
                code = subprocess.run(command, capture_output=True).returncode
                (target / "exit_code").write_text(f"{code}\n")
                for name in KEPT:
                    if (run_dir / name).exists():
                        shutil.copyfile(run_dir / name, target / name)
            print(f"{scenario:28} {stepper:14} exit {code}", flush=True)


def compare(before, after):
    pairs = sorted({p.relative_to(before) for p in before.glob("*/*")} |
                   {p.relative_to(after) for p in after.glob("*/*")})
    differences = 0
    for pair in pairs:
        a, b = before / pair, after / pair
        names = sorted({f.name for f in a.glob("*")} | {f.name for f in b.glob("*")})
        for name in names:
            if not (a / name).exists() or not (b / name).exists():
                print(f"{pair}: {name} only in {'after' if (b / name).exists() else 'before'}")
                differences += 1
            elif not filecmp.cmp(a / name, b / name, shallow=False):
                print(f"{pair}: {name} differs")
                differences += 1
    print(f"{len(pairs)} pairs compared, {differences} differences")
    return 1 if differences else 0


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    commands = parser.add_subparsers(dest="command", required=True)
    run = commands.add_parser("run")
    run.add_argument("--noether", required=True)
    run.add_argument("--out", required=True, type=pathlib.Path)
    run.add_argument("--steps", type=int, default=20)
    comparison = commands.add_parser("compare")
    comparison.add_argument("before", type=pathlib.Path)
    comparison.add_argument("after", type=pathlib.Path)
    arguments = parser.parse_args()
    if arguments.command == "run":
        run_matrix(arguments.noether, arguments.out, arguments.steps)
        return 0
    return compare(arguments.before, arguments.after)


if __name__ == "__main__":
    sys.exit(main())
