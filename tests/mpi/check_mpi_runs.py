#!/usr/bin/python3
"""Runs of the `noether` program over several processes (docs/distributed.md), each checked
against what it must do:

  agreement  mpirun -np N noether run SCENARIO --solver mumps (also nfourbar n = 1e4, whose analysis
             crashed with the ordering the back-end gives MUMPS in one process), and with the default solver (auto:
             schur on these but the grid, mumps there), agrees with the one-process KLU run to
             1e-10 relative in q at the end (chain2d, chain3d, nfourbar, grid2d, double-fourbar);
             summary.json names the solver. With --parts left at auto the scaling scenarios run
             over parts (so do resume, output and piece, on chain2d) and double-fourbar with the
             whole model on every process
  bits       the same run twice on the same number of processes: with mumps it agrees to rounding
             (1e-12 relative in q; whether to the bit is printed: MUMPS's scheduling may change
             rounding), with schur to the bit
  outputs    rank 0 alone writes: one summary, the time series with as many rows as one process's
  signal     SIGTERM to mpirun interrupts every process after the same step (summary: interrupted)
  resume     that run resumes under mpirun and ends as the run that was never stopped, to rounding;
             the same for a scene file over parts (--parts on)
  newton     a Newton failure ends every process with exit 1 and a summary saying so
  limit      an adaptive run stopped by its step limit ends every process together (no MPI_Abort),
             exit 1, summary.json saying so
  output     rank 0's time series hitting a file-size limit (an output error only rank 0 meets)
             ends every process within seconds, exit 1, summary.json naming the output error
  piece      the other ranks under a file-size limit their pieces of a drawing pass: the processes
             agree on the error and end together within seconds, exit 1, rank 0's summary.json
             naming rank 1's piece (docs/output.md, "Over several processes")
  klu        a one-process solver (--solver klu) under mpirun is refused, exit 2, naming what to use

Usage: check_mpi_runs.py --noether PATH --work DIR [--ranks N]
"""
import argparse
import json
import os
import shutil
import signal
import subprocess
import sys
import time

ENV = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1")
TIMEOUT = 300  # seconds: a run that hangs fails its case instead of the whole suite


def mpirun(ranks, noether, args):
    return ["mpirun", "--oversubscribe", "-np", str(ranks), noether] + args


def run(command, **kwargs):
    return subprocess.run(command, env=ENV, capture_output=True, text=True, timeout=TIMEOUT, **kwargs)


def final_q(directory):
    with open(os.path.join(directory, "final_state.json")) as f:
        state = json.load(f)
    return list(state["q"].values())


def summary(directory):
    with open(os.path.join(directory, "summary.json")) as f:
        return json.load(f)


class Checker:
    def __init__(self, noether, work, ranks):
        self.noether, self.work, self.ranks = noether, work, ranks
        self.failures = []

    def directory(self, name):
        path = os.path.join(self.work, name)
        shutil.rmtree(path, ignore_errors=True)
        return path

    def expect(self, case, condition, detail):
        print(("ok   " if condition else "FAIL ") + case + ("" if condition else ": " + detail))
        if not condition:
            self.failures.append(case)

    def agreement(self, scenario, args, solver, chosen, name=None):
        """solver: --solver of the run over several processes (None: the default); chosen: the
        back-end its summary.json must name; name: of the case's directories (the scenario's)."""
        name = name or scenario
        one, many = self.directory(name + "-klu"), self.directory(name + "-" + (solver or "default"))
        if not os.path.exists(os.path.join(one, "final_state.json")):
            run([self.noether, "run", scenario] + args + ["--solver", "klu", "--out", one])
        b = run(mpirun(self.ranks, self.noether, ["run", scenario] + args + (["--solver", solver] if solver else [])
                       + ["--out", many]))
        case = "agreement %s %s" % (name, solver or "default")
        if not os.path.exists(os.path.join(one, "final_state.json")) or b.returncode != 0:
            return self.expect(case, False, "exit code %d: %s" % (b.returncode, b.stderr[-2000:]))
        qa, qb = final_q(one), final_q(many)
        scale = max(1.0, max(abs(x) for x in qa))
        worst = max(abs(x - y) for x, y in zip(qa, qb)) / scale
        named = summary(many)["factorization"]["solver"]
        self.expect(case, len(qa) == len(qb) and worst <= 1e-10 and named == chosen,
                    "max relative difference in q %.3g, solver %s (expected %s)" % (worst, named, chosen))
        return many

    def outputs(self, directory, reference):
        rows = lambda d: sum(1 for _ in open(os.path.join(d, "timeseries.csv")))
        s = summary(directory)
        self.expect("outputs", s["status"] == "completed" and rows(directory) == rows(reference),
                    "status %s, %d rows against %d" % (s["status"], rows(directory), rows(reference)))

    def bits(self, scenario, args):
        """The same run twice on the same number of processes: the processes' sums are a fixed
        fold, but MUMPS's dynamic scheduling (which process takes which part of a front, by the
        load at the moment) may change its rounding from run to run; the runs must agree to
        rounding, and whether they agree to the bit is printed. schur's KLU factorizations and
        sums are fixed: its runs must be the same bytes."""
        first, second = self.directory("bits-1"), self.directory("bits-2")
        for d in (first, second):
            run(mpirun(self.ranks, self.noether, ["run", scenario] + args + ["--solver", "mumps", "--out", d]))
        read = lambda d: open(os.path.join(d, "final_state.json")).read()
        print("note the two runs' final_state.json are " + ("" if read(first) == read(second) else "not ") +
              "the same bytes")
        schur = [self.directory("bits-schur-1"), self.directory("bits-schur-2")]
        for d in schur:
            run(mpirun(self.ranks, self.noether, ["run", "nfourbar", "--set", "n=60", "--t", "0.1", "--solver", "schur",
                                                  "--out", d]))
        self.expect("bits schur", os.path.exists(os.path.join(schur[0], "final_state.json")) and
                    read(schur[0]) == read(schur[1]), "two schur runs on %d processes differ" % self.ranks)
        qa, qb = final_q(first), final_q(second)
        worst = max(abs(x - y) for x, y in zip(qa, qb)) / max(1.0, max(abs(x) for x in qa))
        self.expect("bits", worst <= 1e-12, "two runs on %d processes differ by %.3g relative in q" % (self.ranks, worst))

    def resume(self, name="resume", model=("chain2d", "--set", "n=50"), options=("--solver", "mumps"), t="2"):
        """A run stopped by SIGTERM after its first checkpoint, resumed under mpirun, ends as the
        run never stopped. model: the scenario with its parameters, or a scene file."""
        # 2000 steps of about 1.6 ms: the signal, sent once the first checkpoint (step 50) is
        # written, has about 3 s to arrive (at t = 0.5, 0.7 s were too few one run in three).
        args = ["run", *model, "--t", t, "--h", "0.001", *options, "--checkpoint-every", "50"]
        whole, stopped = self.directory(name + "-whole"), self.directory(name + "-stopped")
        run(mpirun(self.ranks, self.noether, args + ["--out", whole]))
        process = subprocess.Popen(mpirun(self.ranks, self.noether, args + ["--out", stopped]), env=ENV,
                                   stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        while not os.path.exists(os.path.join(stopped, "checkpoint.json")) and process.poll() is None:
            time.sleep(0.05)
        process.send_signal(signal.SIGTERM)
        process.wait(timeout=TIMEOUT)
        status = summary(stopped)["status"]
        # mpirun's own exit code is its business (Open MPI's is 1 after forwarding SIGTERM); the
        # processes' ending is the summary's.
        self.expect(name + " signal", process.returncode != 0 and status == "interrupted",
                    "exit %d, status %s" % (process.returncode, status))
        r = run(mpirun(self.ranks, self.noether, ["resume", stopped]))
        qa, qb = final_q(whole), final_q(stopped)
        worst = max(abs(x - y) for x, y in zip(qa, qb))
        self.expect(name, r.returncode == 0 and worst <= 1e-10,
                    "exit %d, max difference in q %.3g: %s" % (r.returncode, worst, r.stderr[-2000:]))

    def newton(self):
        d = self.directory("newton")
        r = run(mpirun(self.ranks, self.noether, ["run", "double-fourbar", "--solver", "mumps", "--t", "0.1",
                                                 "--newton-max-iterations", "1", "--refine-depth", "0", "--out", d]))
        s = summary(d)
        self.expect("newton", r.returncode == 1 and s["status"] == "failed" and "Newton" in r.stderr,
                    "exit %d, status %s: %s" % (r.returncode, s["status"], r.stderr[-2000:]))

    def limit(self):
        d = self.directory("limit")
        # sem-vi on an amplified oscillation: its step shrinks until the run stops at 100 times
        # t_end / h steps, on every process at the same step; none ends the job alone (MPI_Abort).
        r = run(mpirun(self.ranks, self.noether, ["run", "damped-oscillator", "--stepper", "sem-vi", "--set",
                                                 "zeta=-0.9", "--h", "0.5", "--t", "8", "--out", d]))
        s = summary(d)
        self.expect("limit", r.returncode == 1 and s["status"] == "failed" and "shrinks faster" in s.get("error", "")
                    and "MPI_ABORT" not in r.stderr, "exit %d, status %s: %s" % (r.returncode, s["status"],
                                                                                  r.stderr[-2000:]))

    def output(self):
        d = self.directory("output")
        start = time.monotonic()
        # Every process under `ulimit -f 64` (files up to 64 KiB): rank 0's time series passes it
        # after a few dozen steps, summary.json does not; the other processes write nothing.
        r = run(["mpirun", "--oversubscribe", "-np", str(self.ranks), "bash", "-c", 'ulimit -f 64 && exec "$@"',
                 "bash", self.noether, "run", "chain2d", "--set", "n=20", "--t", "1", "--h", "0.001",
                 "--solver", "mumps", "--vtk", "off", "--out", d])
        seconds = time.monotonic() - start
        s = summary(d)
        self.expect("output", r.returncode != 0 and s["status"] == "failed" and s.get("failure", {}).get("cause") == "output"
                    and seconds < 60, "exit %d, status %s, %.0f s: %s" % (r.returncode, s["status"], seconds,
                                                                          r.stderr[-2000:]))

    def piece(self):
        d = self.directory("piece")
        start = time.monotonic()
        # chain2d n = 1000 over two processes: a piece of about 100 KiB, above `ulimit -f 64`, which
        # only the ranks but 0 run under (MPMD: one command for rank 0, one for the others).
        program = [self.noether, "run", "chain2d", "--set", "n=1000", "--t", "0.05", "--out", d]
        r = run(["mpirun", "--oversubscribe", "-np", "1"] + program + [":", "-np", str(self.ranks - 1), "bash", "-c",
                                                                      'ulimit -f 64 && exec "$@"', "bash"] + program)
        seconds = time.monotonic() - start
        s = summary(d)
        error = s.get("error", "")
        self.expect("piece", r.returncode == 1 and s["status"] == "failed" and s.get("failure", {}).get("cause") == "output"
                    and error.startswith("rank 1: writing '") and "step_00000000_1.vtp' failed: File too large" in error
                    and seconds < 60, "exit %d, status %s, %.0f s, error %s: %s" % (r.returncode, s["status"], seconds,
                                                                                   error, r.stderr[-2000:]))

    def klu(self):
        r = run(mpirun(self.ranks, self.noether, ["run", "double-pendulum", "--t", "0.01", "--solver", "klu"]))
        self.expect("klu", r.returncode == 2 and "distributed solver" in r.stderr, "exit %d: %s" % (r.returncode, r.stderr))


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--noether", required=True)
    parser.add_argument("--work", required=True)
    parser.add_argument("--ranks", type=int, default=2)
    parser.add_argument("--case", action="append",
                        help="run only these (klu, agreement, bits, resume, newton, limit, output, piece)")
    a = parser.parse_args()
    os.makedirs(a.work, exist_ok=True)
    c = Checker(a.noether, a.work, a.ranks)
    wanted = lambda case: not a.case or case in a.case
    short = ["--t", "0.05", "--h", "0.01"]
    if wanted("klu"):
        c.klu()
    if wanted("agreement"):
        for solver, chosen in (("mumps", "mumps"), (None, "schur")):
            nfourbar = c.agreement("nfourbar", ["--set", "n=100", "--t", "0.2"], solver, chosen)
            if nfourbar:
                c.outputs(nfourbar, os.path.join(a.work, "nfourbar-klu"))
            c.agreement("chain2d", ["--set", "n=200"] + short, solver, chosen)
            c.agreement("chain3d", ["--set", "n=100"] + short, solver, chosen)
            c.agreement("grid2d", ["--set", "k=10"] + short, solver, "mumps")  # auto: a cut of a grid is wide
            c.agreement("double-fourbar", ["--t", "0.5"], solver, chosen)
        # MUMPS's AMF ordering (ICNTL(7) = 2) ended this matrix's analysis over processes in a
        # segmentation fault: the back-end leaves the ordering to MUMPS there.
        c.agreement("nfourbar", ["--set", "n=10000", "--t", "0.002", "--h", "0.001"], "mumps", "mumps", "nfourbar-1e4")
    if wanted("bits"):
        c.bits("grid2d", ["--set", "k=10"] + short)
    if wanted("resume"):
        c.resume()
        # A scene over parts: every process reads it outlined and lets it go once its part is
        # built (process 0 copies its text into DIR/scene.json for the checkpoints first), and
        # `noether resume` reads it from that copy.
        scene = os.path.join(a.work, "chain2d-50.json")
        with open(scene, "w") as f:
            f.write(run([a.noether, "export", "chain2d", "--set", "n=50"]).stdout)
        c.resume("resume-scene", (scene,), ("--parts", "on"), "10")  # schur's steps are faster: 10 000 of them
    if wanted("newton"):
        c.newton()
    if wanted("limit"):
        c.limit()
    if wanted("output"):
        c.output()
    if wanted("piece"):
        c.piece()
    if c.failures:
        print("failed: " + ", ".join(c.failures))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
