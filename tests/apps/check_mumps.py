"""--solver mumps through the program, in one process without mpirun (docs/distributed.md):
  check_mumps.py NOETHER WORK
- nfourbar n = 100 to t = 0.2 with mumps agrees with klu to 1e-10 relative in q (max |dq| / max |q|
  over final_state.json's q), and says nothing on stderr (no PETSc or MPI output);
- the same mumps run twice gives the same final_state.json, byte for byte;
- grid2d k = 10, whose factorizations outgrow MUMPS's estimated workspace, completes;
- a run stopped by SIGTERM after a checkpoint (exit code 143: the CLI's own handler, not PETSc's or
  MPI's) and resumed writes the uninterrupted run's files, byte for byte;
- a run meeting a singular Newton matrix ends with the run's own message naming MUMPS's INFOG(1)
  and no PETSc trace (coordinate b with no mass and nothing acting on it: the reliability table's
  massless_coordinate scene, with mumps).
"""
import json
import pathlib
import shutil
import signal
import subprocess
import sys
import time

noether, work = sys.argv[1], pathlib.Path(sys.argv[2])
shutil.rmtree(work, ignore_errors=True)
work.mkdir(parents=True)


def run(name, *args):
    out = work / name
    result = subprocess.run([noether, "run", *args, "--out", str(out)], capture_output=True, text=True, timeout=300)
    return result, out


def q_values(out):
    def flat(x):
        if isinstance(x, list):
            return [v for e in x for v in flat(e)]
        if isinstance(x, dict):
            return [v for k in sorted(x) for v in flat(x[k])]
        return [x]
    return flat(json.loads((out / "final_state.json").read_text())["q"])


failures = []
nfourbar = ("nfourbar", "--set", "n=100", "--t", "0.2", "--threads", "1")
klu, klu_out = run("klu", *nfourbar, "--solver", "klu")
mumps, mumps_out = run("mumps", *nfourbar, "--solver", "mumps")
again, again_out = run("mumps_again", *nfourbar, "--solver", "mumps")
for name, result in (("klu", klu), ("mumps", mumps), ("mumps again", again)):
    if result.returncode != 0:
        failures.append(f"{name}: exit code {result.returncode}: {result.stderr}")
if not failures:
    a, b = q_values(mumps_out), q_values(klu_out)
    relative = max(abs(x - y) for x, y in zip(a, b)) / max(abs(y) for y in b)
    print(f"nfourbar n = 100, t = 0.2: max|q_mumps - q_klu| / max|q_klu| = {relative:.3e}")
    if len(a) != len(b) or not relative <= 1e-10:
        failures.append(f"mumps and klu disagree: {relative:.3e} relative (at most 1e-10)")
    if mumps.stderr:
        failures.append(f"the mumps run wrote to stderr: {mumps.stderr!r}")
    if (mumps_out / "final_state.json").read_bytes() != (again_out / "final_state.json").read_bytes():
        failures.append("two mumps runs wrote different final_state.json")

# grid2d's Newton matrices delay so many pivots (their constraint rows' zero diagonal) that MUMPS's
# estimated workspace runs short (INFOG(1) = -9): the back-end retries with more.
grid, grid_out = run("grid", "grid2d", "--set", "k=10", "--t", "0.05", "--threads", "1", "--solver", "mumps")
if grid.returncode != 0:
    failures.append(f"grid2d k = 10 with mumps: exit code {grid.returncode}: {grid.stderr}")

# A run interrupted after a checkpoint and resumed writes the files of the same run never
# interrupted, byte for byte (the back-end drops MUMPS's analysis at each checkpoint,
# LinearSolver::forget_factorization, so that the resumed run analyses the matrix the other
# analysed there: MUMPS's matching, ICNTL(6) = 5, reads the values).
grid_run = ("grid2d", "--set", "k=8", "--t", "1", "--threads", "1", "--solver", "mumps", "--checkpoint-every", "10")
whole, whole_out = run("whole", *grid_run)
stopped_out = work / "stopped"
stopped = subprocess.Popen([noether, "run", *grid_run, "--out", str(stopped_out)],
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
deadline = time.monotonic() + 120
while not (stopped_out / "checkpoint.json").exists() and stopped.poll() is None and time.monotonic() < deadline:
    time.sleep(0.05)
stopped.send_signal(signal.SIGTERM)
stopped.wait(timeout=120)
resumed = subprocess.run([noether, "resume", str(stopped_out)], capture_output=True, text=True, timeout=300)
if whole.returncode != 0 or stopped.returncode != 143 or resumed.returncode != 0:
    failures.append(f"resume: exit codes {whole.returncode}, {stopped.returncode} (143: stopped by SIGTERM after a "
                    f"checkpoint), {resumed.returncode}: {resumed.stderr}")
else:
    for name in ("final_state.json", "timeseries.csv"):
        if (whole_out / name).read_bytes() != (stopped_out / name).read_bytes():
            failures.append(f"resume with mumps: {name} differs from the uninterrupted run's")

scene = work / "massless.json"
scene.write_text(json.dumps({
    "noether_scene": 1,
    "bodies": [{"name": "x", "type": "coordinates", "coordinates": ["a", "b"], "position": [0.1, 0.2]}],
    "inertias": [{"name": "m", "bodies": ["x"], "matrix": [[1, 0], [0, 0]]}],
    "forces": [{"name": "pot", "type": "polynomial", "body": "x", "coordinate": "a", "coefficients": [0, 0, 1]}],
    "run": {"h": 0.01, "t_end": 0.03}}))
singular, _ = run("singular", str(scene), "--solver", "mumps")
print("singular:", singular.returncode, singular.stderr.strip())
if singular.returncode != 1 or "MUMPS INFOG(1) = -" not in singular.stderr or "PETSC ERROR" in singular.stderr:
    failures.append(f"the singular run: exit code {singular.returncode}, stderr {singular.stderr!r}")

for f in failures:
    print("FAIL:", f)
sys.exit(1 if failures else 0)
