"""Reads a run's VTK time series back with VTK's own reader (Debian python3-vtk9): motion.pvd and
every vtk/step_*.vtp it lists, against timeseries.csv, final_state.json and the scene the run was
made of (`noether export`), for a 3D body, a planar linkage, point masses, and a failed run.

usage: check_vtk_output.py NOETHER SCRATCH_DIR
Exits 77 (CTest SKIP_RETURN_CODE) when VTK's Python modules are missing, 1 naming each mismatch.

The expected points and cells follow docs/output.md ("vtk/ and motion.pvd"), counted here from
the scene: a rigid body draws 4 points (phi and phi + l d_i), 1 vertex and 3 lines; a planar
body 3 points, 1 vertex, 2 lines; a point mass 1 point and 1 vertex; a joint with a point 1 point
and 1 vertex, a distance joint 1 point and 1 line more; a probe on a body 1 point and 1 vertex.
"""
import csv
import json
import pathlib
import subprocess
import sys
import xml.etree.ElementTree as ElementTree

try:
    from vtkmodules.vtkIOXML import vtkXMLPolyDataReader
except ImportError:
    print("skipped: VTK's Python modules (Debian python3-vtk9) are not installed")
    sys.exit(77)

KIND_CENTRE, KIND_JOINT_POINT = 0, 4
failures = []


def check(condition, message):
    if not condition:
        failures.append(message)
        print("FAIL:", message)


def expected_counts(scene):
    """(points, vertices, lines) of one drawing of the scene."""
    per_body = {"rigid": (4, 1, 3), "planar": (3, 1, 2), "point_mass": (1, 1, 0)}
    drawn = {b["name"] for b in scene["bodies"] if b["type"] in per_body}
    points = vertices = lines = 0
    for body in scene["bodies"]:
        p, v, l = per_body.get(body["type"], (0, 0, 0))
        points, vertices, lines = points + p, vertices + v, lines + l
    for joint in scene.get("joints", []):
        if joint["type"] == "perpendicular" or joint["body_b"] not in drawn or joint.get("body_a", "") not in drawn | {""}:
            continue
        points, vertices = points + 1, vertices + 1
        if joint["type"] == "distance":
            points, lines = points + 1, lines + 1
    probes = sum(1 for p in scene.get("probes", []) if "body" in p)
    return points + probes, vertices + probes, lines


def read(path):
    reader = vtkXMLPolyDataReader()
    reader.SetFileName(str(path))
    reader.Update()
    check(reader.GetErrorCode() == 0, f"{path}: VTK reports error {reader.GetErrorCode()}")
    return reader.GetOutput()


def field(data, name):
    array = data.GetFieldData().GetArray(name)
    return array.GetValue(0) if array is not None and array.GetNumberOfTuples() == 1 else None


def check_run(noether, scratch, name, scenario, options, expect_ok, expect_files=None):
    out = scratch / name
    scene = json.loads(subprocess.run([noether, "export", scenario], check=True, capture_output=True, text=True).stdout)
    run = subprocess.run([noether, "run", scenario, "--threads", "1", "--out", str(out), *options], capture_output=True, text=True)
    check((run.returncode == 0) == expect_ok, f"{name}: exit {run.returncode}: {run.stderr[:300]}")
    steps = ElementTree.parse(out / "motion.pvd").getroot().findall("./Collection/DataSet")
    with open(out / "timeseries.csv", newline="") as f:
        rows = list(csv.DictReader(f))
    check(len(steps) == len(rows), f"{name}: motion.pvd lists {len(steps)} files, timeseries.csv has {len(rows)} rows")
    if expect_files is not None:
        check(len(steps) == expect_files, f"{name}: motion.pvd lists {len(steps)} files, expected {expect_files}")
    check(sorted(p.name for p in (out / "vtk").iterdir()) == sorted(pathlib.Path(s.get("file")).name for s in steps),
          f"{name}: vtk/ holds other files than motion.pvd lists")
    points, vertices, lines = expected_counts(scene)
    bodies = [b["name"] for b in scene["bodies"]]
    for step, row in zip(steps, rows):
        data = read(out / step.get("file"))
        where = f"{name}: {step.get('file')}"
        t = float(row["t"])
        check(float(step.get("timestep")) == t, f"{where}: timestep {step.get('timestep')} != t {row['t']} of its row")
        check(field(data, "TimeValue") == t, f"{where}: TimeValue {field(data, 'TimeValue')} != {t}")
        check(field(data, "energy") == float(row["energy"]) or row["energy"] == "nan", f"{where}: energy differs from the row's")
        g = max((abs(float(v)) for k, v in row.items() if k.startswith("g:")), default=0.0)
        check(field(data, "constraint_residual") == g, f"{where}: constraint_residual {field(data, 'constraint_residual')} != max|g| {g}")
        check((data.GetNumberOfPoints(), data.GetNumberOfVerts(), data.GetNumberOfLines()) == (points, vertices, lines),
              f"{where}: {data.GetNumberOfPoints()} points, {data.GetNumberOfVerts()} vertices, {data.GetNumberOfLines()} lines; "
              f"expected {points}, {vertices}, {lines}")
        check_centres(where, data, bodies, scene, row)
    return out, rows


def check_centres(where, data, bodies, scene, row):
    """Each body's centre vertex is at its phi (a point mass: its position) of the row, bit for bit;
    each director segment of a director body points along its d_i."""
    kinds, indices = data.GetCellData().GetArray("kind"), data.GetCellData().GetArray("index")
    centres = {}
    for cell in range(data.GetNumberOfCells()):
        ids = data.GetCell(cell).GetPointIds()
        kind, index = kinds.GetValue(cell), indices.GetValue(cell)
        if kind == KIND_CENTRE:
            body = scene["bodies"][index]
            prefix = f"q:{body['name']}." + ("phi." if body["type"] in ("rigid", "planar") else "")
            point = data.GetPoint(ids.GetId(0))
            expected = [float(row[prefix + axis]) for axis in "xyz" if prefix + axis in row]
            check(list(point[:len(expected)]) == expected, f"{where}: centre of {body['name']} {point} != {expected}")
            centres[index] = ids.GetId(0)
        elif 1 <= kind <= 3:
            body = bodies[index]
            a, b = data.GetPoint(ids.GetId(0)), data.GetPoint(ids.GetId(1))
            segment = [b[i] - a[i] for i in range(3)]
            director = [float(row.get(f"q:{body}.d{kind}.{axis}", 0.0)) for axis in "xyz"]
            length = sum(s * s for s in segment) ** 0.5
            check(ids.GetId(0) == centres.get(index), f"{where}: director d{kind} of {body} does not start at its centre")
            check(length > 0 and all(abs(s / length - d) < 1e-12 for s, d in zip(segment, director)),
                  f"{where}: director d{kind} of {body} is {segment}, not along {director}")
    drawn = sum(1 for b in scene["bodies"] if b["type"] in ("rigid", "planar", "point_mass"))
    check(len(centres) == drawn, f"{where}: {len(centres)} body centres drawn, expected {drawn}")


def main():
    noether, scratch = sys.argv[1], pathlib.Path(sys.argv[2])
    scratch.mkdir(parents=True, exist_ok=True)
    # A 3D director body on a spherical joint, with a probe.
    check_run(noether, scratch, "top", "top", ["--t", "0.1", "--every", "10"], True, 6)
    # Planar bodies and their revolute joints.
    check_run(noether, scratch, "double_fourbar", "double-fourbar", ["--t", "0.2", "--every", "50"], True, 5)
    # Point masses on distance joints (lines between the joints' points).
    check_run(noether, scratch, "double_pendulum", "double-pendulum", ["--t", "0.1", "--every", "3"], True, 4)
    # A failed run: ggl-vi cannot take step 4502 without refinement; the drawings of steps 0, 1000,
    # ..., 4000 and of the last good state, step 4501, which final_state.json holds too.
    out, rows = check_run(noether, scratch, "failed", "double-fourbar",
                          ["--stepper", "ggl-vi", "--h", "0.002", "--refine-depth", "0", "--every", "1000"], False, 6)
    final = json.loads((out / "final_state.json").read_text())
    check(final["step"] == 4501 and final["t"] == float(rows[-1]["t"]), f"failed: final state {final['step']}, {final['t']}")
    summary = json.loads((out / "summary.json").read_text())
    check(summary["status"] == "failed" and summary["motion"] == "motion.pvd", "failed: the summary does not say failed, motion.pvd")
    print("FAILED" if failures else "all VTK files read back as expected")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
