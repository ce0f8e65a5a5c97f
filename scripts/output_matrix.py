#!/usr/bin/env python3
"""Runs every scenario x stepper pair of `noether list` for a few steps and keeps the bytes of each
run's timeseries.csv and final_state.json, so that two builds can be compared file by file.

    /usr/bin/python3 scripts/output_matrix.py run --noether build/bin/noether --out /tmp/before
    /usr/bin/python3 scripts/output_matrix.py run --noether build/bin/noether --out /tmp/after
    /usr/bin/python3 scripts/output_matrix.py compare /tmp/before /tmp/after
    /usr/bin/python3 scripts/output_matrix.py compare --added-columns /tmp/before /tmp/after

Each pair runs at its scenario's own step h (from `noether export`) for --steps steps on one
thread, without ParaView files. `run` writes DIR/<scenario>/<stepper>/ with the two files (or
timeseries.csv.partial when the run failed) and exit_code; with --vtk the runs draw, and motion.pvd
and every drawing (vtk/NAME kept as vtk-NAME) are kept too. `compare` lists every pair whose exit
code or files differ and exits 1 when there is one; pairs that fail in both builds are compared too
(their outputs must fail alike). With --added-columns, a time series of `after` that only adds
columns (every column of `before` there, with the same text in every row) is not a difference: the
pairs are counted, and the added columns listed once.
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


def run_matrix(noether, out, steps, vtk):
    scenarios, steppers = listing(noether)
    for scenario in scenarios:
        h = scenario_step(noether, scenario)
        for stepper in steppers:
            target = out / scenario / stepper
            target.mkdir(parents=True, exist_ok=True)
            with tempfile.TemporaryDirectory() as work:
                run_dir = pathlib.Path(work) / "run"
                command = [noether, "run", scenario, "--stepper", stepper, "--h", repr(h), "--t",
                           repr(steps * h), "--threads", "1", "--vtk", "on" if vtk else "off", "--out", str(run_dir)]
                code = subprocess.run(command, capture_output=True).returncode
                (target / "exit_code").write_text(f"{code}\n")
                for name in KEPT + (("motion.pvd",) if vtk else ()):
                    if (run_dir / name).exists():
                        shutil.copyfile(run_dir / name, target / name)
                if vtk and (run_dir / "vtk").is_dir():
                    for drawing in (run_dir / "vtk").iterdir():
                        shutil.copyfile(drawing, target / ("vtk-" + drawing.name))
            print(f"{scenario:28} {stepper:14} exit {code}", flush=True)


def read_columns(path):
    """The header and rows of a time series, each row as its cells' text."""
    lines = path.read_text().splitlines()
    return lines[0].split(","), [line.split(",") for line in lines[1:]]


def only_adds_columns(a, b):
    """The columns b adds to a when b holds a's columns with the same text in every row, else None."""
    if a.name not in ("timeseries.csv", "timeseries.csv.partial"):
        return None
    head_a, rows_a = read_columns(a)
    head_b, rows_b = read_columns(b)
    if len(rows_a) != len(rows_b) or not set(head_a) <= set(head_b):
        return None
    where = [head_b.index(name) for name in head_a]
    if any(row_a != [row_b[k] for k in where] for row_a, row_b in zip(rows_a, rows_b)):
        return None
    return [name for name in head_b if name not in head_a]


def compare(before, after, added_columns=False):
    pairs = sorted({p.relative_to(before) for p in before.glob("*/*")} |
                   {p.relative_to(after) for p in after.glob("*/*")})
    differences, adding, added = 0, 0, []
    for pair in pairs:
        a, b = before / pair, after / pair
        names = sorted({f.name for f in a.glob("*")} | {f.name for f in b.glob("*")})
        for name in names:
            if not (a / name).exists() or not (b / name).exists():
                print(f"{pair}: {name} only in {'after' if (b / name).exists() else 'before'}")
                differences += 1
            elif not filecmp.cmp(a / name, b / name, shallow=False):
                new = only_adds_columns(a / name, b / name) if added_columns else None
                if new is not None:
                    adding += 1
                    added += [column for column in new if column not in added]
                    continue
                print(f"{pair}: {name} differs")
                differences += 1
    if added_columns:
        print(f"{adding} time series only add columns ({', '.join(added) or 'none'}), every other column identical")
    print(f"{len(pairs)} pairs compared, {differences} differences")
    return 1 if differences else 0


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    commands = parser.add_subparsers(dest="command", required=True)
    run = commands.add_parser("run")
    run.add_argument("--noether", required=True)
    run.add_argument("--out", required=True, type=pathlib.Path)
    run.add_argument("--steps", type=int, default=20)
    run.add_argument("--vtk", action="store_true", help="draw the runs and keep motion.pvd and vtk/")
    comparison = commands.add_parser("compare")
    comparison.add_argument("before", type=pathlib.Path)
    comparison.add_argument("after", type=pathlib.Path)
    comparison.add_argument("--added-columns", action="store_true",
                            help="a time series that only adds columns is not a difference")
    arguments = parser.parse_args()
    if arguments.command == "run":
        run_matrix(arguments.noether, arguments.out, arguments.steps, arguments.vtk)
        return 0
    return compare(arguments.before, arguments.after, arguments.added_columns)


if __name__ == "__main__":
    sys.exit(main())
