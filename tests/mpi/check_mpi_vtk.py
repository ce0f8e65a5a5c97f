#!/usr/bin/python3
"""The drawings of runs over several processes (docs/output.md, "Over several processes"), read
back with VTK's own readers (Debian python3-vtk9) against the same run in one process:

  index    motion.pvd lists one vtk/step_<step>.pvtp per row of timeseries.csv, at the row's time
           and the one-process run's; each .pvtp names the piece of every rank,
           step_<step>_<rank>.vtp, in rank order; vtk/ holds nothing else. (Debian's VTK 9.1 wraps
           no .pvd reader for Python, ParaView's vtkPVDReader is ParaView's: the .pvd is read as XML,
           as tests/apps/check_vtk_output.py does.)
  pieces   each .pvtp, read by vtkXMLPPolyDataReader, joins the pieces into the one-process
           drawing of the same step: the same numbers of points, vertices and lines, and the same
           cells (kind, index) with the same points: bit for bit at step 0, and to 1e-10 of the
           drawing's size later (the two runs' solvers round differently: tests/mpi/check_mpi_runs.py
           "agreement"); each body's centre equals its q: columns of the run's own row bit for bit;
           the field data is the row's
  parts    each piece, read by vtkXMLPolyDataReader alone, holds cells no other piece holds, and
           each rank that owns a body draws something (a rank may own none: top, one body)

Scenarios: chain2d (planar bodies, revolute joints), chain3d (3D bodies), double-pendulum (point
masses, distance joints drawn across the cut between the ranks), top (one body and a probe: one
rank's piece is empty), with the whole model on every rank (--parts off); the first three also
over parts (--parts on: each rank draws from its own part, a joint across the cut from its ghost
body's coordinates).

Usage: check_mpi_vtk.py --noether PATH --work DIR [--ranks N]
Exits 77 (CTest SKIP_RETURN_CODE) when VTK's Python modules are missing, 1 naming each mismatch.
"""
import argparse
import csv
import json
import os
import pathlib
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ElementTree

try:
    from vtkmodules.vtkIOXML import vtkXMLPolyDataReader, vtkXMLPPolyDataReader
except ImportError:
    print("skipped: VTK's Python modules (Debian python3-vtk9) are not installed")
    sys.exit(77)

ENV = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1")
TIMEOUT = 300  # seconds: a run that hangs fails its case instead of the whole suite
KIND_CENTRE = 0
failures = []


def check(condition, message):
    if not condition:
        failures.append(message)
        print("FAIL:", message)
    return condition


def read_xml(reader_class, path):
    reader = reader_class()
    reader.SetFileName(str(path))
    reader.Update()
    check(reader.GetErrorCode() == 0, f"{path}: VTK reports error {reader.GetErrorCode()}")
    return reader


def cells(data):
    """{(kind, index): (point, ...)} of a PolyData's cells; a key seen twice is listed in `twice`."""
    kinds, indices = data.GetCellData().GetArray("kind"), data.GetCellData().GetArray("index")
    out, twice = {}, []
    for cell in range(data.GetNumberOfCells()):
        ids = data.GetCell(cell).GetPointIds()
        key = (kinds.GetValue(cell), indices.GetValue(cell))
        if key in out:
            twice.append(key)
        out[key] = tuple(data.GetPoint(ids.GetId(k)) for k in range(ids.GetNumberOfIds()))
    return out, twice


def field(data, name):
    array = data.GetFieldData().GetArray(name)
    return array.GetValue(0) if array is not None and array.GetNumberOfTuples() >= 1 else None


def counts(data):
    return data.GetNumberOfPoints(), data.GetNumberOfVerts(), data.GetNumberOfLines()


def run(noether, ranks, scenario, args, out):
    shutil.rmtree(out, ignore_errors=True)
    command = [noether, "run", scenario, "--threads", "1", "--out", str(out)] + args
    if ranks > 1:
        command = ["mpirun", "--allow-run-as-root", "--oversubscribe", "-np", str(ranks)] + command
    r = subprocess.run(command, env=ENV, capture_output=True, text=True, timeout=TIMEOUT)
    return check(r.returncode == 0, f"{' '.join(command)}: exit {r.returncode}: {r.stderr[-2000:]}")


def listed(pvd):
    return [(float(d.get("timestep")), d.get("file")) for d in ElementTree.parse(pvd).getroot().iter("DataSet")]


def check_index(name, many, ranks, steps, one_steps, rows):
    """The .pvd lists the .pvtp files, each naming every rank's piece; vtk/ holds just those. False
    when the .pvd lists no .pvtp files (nothing more to read)."""
    check(len(steps) == len(rows), f"{name}: motion.pvd lists {len(steps)} files, timeseries.csv has {len(rows)} rows")
    check([t for t, _ in steps] == [t for t, _ in one_steps], f"{name}: motion.pvd's times differ from one process's")
    expected_files = set()
    for (t, file), (_, one_file), row in zip(steps, one_steps, rows):
        stem = pathlib.Path(one_file).stem  # step_<step>, as one process names the drawing
        check(t == float(row["t"]), f"{name}: {file} at t = {t}, its row at {row['t']}")
        if not check(file == f"vtk/{stem}.pvtp", f"{name}: motion.pvd lists {file}, expected vtk/{stem}.pvtp"):
            return False
        sources = [p.get("Source") for p in ElementTree.parse(many / file).getroot().iter("Piece")]
        pieces = [f"{stem}_{rank}.vtp" for rank in range(ranks)]
        check(sources == pieces, f"{name}: {file} names the pieces {sources}, expected {pieces}")
        expected_files |= {pathlib.Path(file).name, *pieces}
    present = {p.name for p in (many / "vtk").iterdir()}
    check(present == expected_files, f"{name}: vtk/ holds {sorted(present - expected_files)} beyond the listed "
                                     f"files and lacks {sorted(expected_files - present)}")
    return True


def check_step(name, many, one, file, one_file, row, first):
    """The pieces joined against one process's drawing and against the run's own row."""
    where = f"{name}: {file}"
    reader = read_xml(vtkXMLPPolyDataReader, many / file)
    joined = reader.GetOutput()
    whole = read_xml(vtkXMLPolyDataReader, one / one_file).GetOutput()
    check(counts(joined) == counts(whole), f"{where}: {counts(joined)} points, vertices, lines; one process "
                                           f"draws {counts(whole)}")
    joined_cells, twice = cells(joined)
    whole_cells, _ = cells(whole)
    check(not twice, f"{where}: cells drawn twice: {twice}")
    check(joined_cells.keys() == whole_cells.keys(), f"{where}: cells {sorted(joined_cells.keys() ^ whole_cells.keys())} "
                                                     "are in one drawing only")
    size = max((abs(x) for points in whole_cells.values() for p in points for x in p), default=1.0)
    tolerance = 0.0 if first else 1e-10 * max(size, 1.0)
    worst = max((abs(x - y) for key in joined_cells.keys() & whole_cells.keys()
                 for p, q in zip(joined_cells[key], whole_cells[key]) for x, y in zip(p, q)), default=0.0)
    check(worst <= tolerance, f"{where}: points differ from one process's by {worst:.3g} (allowed {tolerance:.3g})")
    t = float(row["t"])
    check(field(joined, "TimeValue") == t, f"{where}: TimeValue {field(joined, 'TimeValue')} != t {t} of its row")
    check(field(joined, "energy") == float(row["energy"]) or row["energy"] == "nan", f"{where}: energy differs from the row's")
    return reader.GetNumberOfPieces(), joined_cells


def check_centres(where, joined_cells, bodies, row):
    """Each body's centre is its q: columns of the row, bit for bit."""
    for (kind, index), points in joined_cells.items():
        if kind != KIND_CENTRE:
            continue
        prefix = f"q:{bodies[index]}." + ("phi." if f"q:{bodies[index]}.phi.x" in row else "")
        expected = [float(row[prefix + axis]) for axis in "xyz" if prefix + axis in row]
        check(list(points[0][:len(expected)]) == expected, f"{where}: centre of {bodies[index]} {points[0]} != {expected}")


def check_parts(where, many, file):
    """Each piece alone: no cell in two pieces; returns the number of pieces that draw something."""
    seen, drawing = {}, 0
    for source in (p.get("Source") for p in ElementTree.parse(many / file).getroot().iter("Piece")):
        piece = read_xml(vtkXMLPolyDataReader, (many / file).parent / source).GetOutput()
        own, _ = cells(piece)
        drawing += 1 if own else 0
        for key in own:
            check(key not in seen, f"{where}: cell {key} in {seen.get(key)} and in {source}")
            seen[key] = source
    return drawing


def check_scenario(noether, work, ranks, scenario, args, drawing_ranks, parts=False):
    name = scenario + ("-parts" if parts else "")
    one, many = work / f"{name}-1", work / f"{name}-{ranks}"
    over = ["--parts", "on" if parts else "off"]  # off: the whole model, which auto leaves the scaling scenarios
    if not (run(noether, 1, scenario, args, one) and run(noether, ranks, scenario, args + over, many)):
        return
    with open(many / "timeseries.csv", newline="") as f:
        rows = list(csv.DictReader(f))
    parameters = [x for k in range(len(args) - 1) if args[k] == "--set" for x in args[k:k + 2]]  # for the bodies
    export = subprocess.run([noether, "export", scenario] + parameters, capture_output=True, text=True, check=True).stdout
    bodies = [b["name"] for b in json.loads(export)["bodies"]]
    steps, one_steps = listed(many / "motion.pvd"), listed(one / "motion.pvd")
    if not check_index(name, many, ranks, steps, one_steps, rows):
        return
    for k, ((t, file), (_, one_file), row) in enumerate(zip(steps, one_steps, rows)):
        pieces, joined_cells = check_step(name, many, one, file, one_file, row, k == 0)
        check(pieces == ranks, f"{name}: {file}: VTK reads {pieces} pieces, expected {ranks}")
        check_centres(f"{name}: {file}", joined_cells, bodies, row)
        drawing = check_parts(f"{name}: {file}", many, file)
        check(drawing == drawing_ranks, f"{name}: {file}: {drawing} pieces draw something, expected {drawing_ranks}")
    print(f"{'ok  ' if not failures else 'FAIL'} {name}: {len(steps)} drawings of {ranks} pieces")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--noether", required=True)
    parser.add_argument("--work", required=True, type=pathlib.Path)
    parser.add_argument("--ranks", type=int, default=2)
    a = parser.parse_args()
    a.work.mkdir(parents=True, exist_ok=True)
    short = ["--t", "0.05", "--h", "0.01", "--every", "2"]
    check_scenario(a.noether, a.work, a.ranks, "chain2d", ["--set", "n=12"] + short, a.ranks)
    check_scenario(a.noether, a.work, a.ranks, "chain3d", ["--set", "n=8"] + short, a.ranks)
    check_scenario(a.noether, a.work, a.ranks, "double-pendulum", ["--t", "0.05", "--every", "2"], min(a.ranks, 2))
    check_scenario(a.noether, a.work, a.ranks, "top", ["--t", "0.05", "--every", "20"], 1)
    for scenario, args in (("chain2d", ["--set", "n=12"] + short), ("chain3d", ["--set", "n=8"] + short),
                           ("double-pendulum", ["--t", "0.05", "--every", "2"])):
        check_scenario(a.noether, a.work, a.ranks, scenario, args, min(a.ranks, 2) if scenario == "double-pendulum" else a.ranks, True)
    print("FAILED" if failures else "all pieces read back as one process's drawings")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
