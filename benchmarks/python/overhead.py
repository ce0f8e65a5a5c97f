"""The Python module's overhead, measured in one run (docs/performance.md, "Python"):

1. a step loop written in Python (Stepper.step in a for loop) against the same loop in C++
   (noether_step_loop), on chain2d n = 1000 with livens-em: target within 1.1x;
2. noether.run against the program, `noether run` with the same settings and --out: target
   within 1.05x (the run alone: the time series is read when first used, timed apart).

Each measurement is the best of --repeats, the two sides alternating so that the machine's load
hits both alike. A benchmark, not a test: it prints the figures and whether each meets its target.

    PYTHONPATH=build/python /usr/bin/python3 benchmarks/python/overhead.py [--build build]
"""

import argparse
import math
import os
import pathlib
import subprocess
import sys
import tempfile
import time

import noether


def best(times):
    return min(times)


def python_loop(n, stepper_name, h, steps):
    model = noether.scenario("chain2d", n=n)
    stepper = noether.Stepper(model, stepper_name)
    state = model.initial_state()
    stepper.initialize(state)
    start = time.perf_counter()
    for _ in range(steps):
        stepper.step(state, h)
    return time.perf_counter() - start, float(state.q.sum())


def cpp_loop(program, n, stepper_name, h, steps):
    out = subprocess.run([program, "chain2d", str(n), stepper_name, repr(h), str(steps)], capture_output=True,
                         text=True, check=True).stdout.split()
    return float(out[0]), float(out[1])


def cli_run(program, n, t_end, directory):
    start = time.perf_counter()
    subprocess.run([program, "run", "chain2d", "--set", f"n={n}", "--t", repr(t_end), "--out", directory, "--vtk",
                    "off"], capture_output=True, check=True)
    return time.perf_counter() - start


def module_run(n, t_end, directory):
    start = time.perf_counter()
    result = noether.run("chain2d", set={"n": n}, t_end=t_end, out=directory, vtk=False)
    ran = time.perf_counter() - start
    result.timeseries  # read timeseries.csv into numpy arrays
    return ran, time.perf_counter() - start


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--build", default="build", help="the build tree (its bin/noether, bin/noether_step_loop)")
    parser.add_argument("--n", type=int, default=1000)
    parser.add_argument("--stepper", default="livens-em")
    parser.add_argument("--h", type=float, default=0.01)
    parser.add_argument("--steps", type=int, default=200, help="steps of each step loop")
    parser.add_argument("--t", type=float, default=2.0, help="t_end of each run (h = 0.01, chain2d's)")
    parser.add_argument("--repeats", type=int, default=5)
    a = parser.parse_args()
    build = pathlib.Path(a.build)
    cli, loop = str(build / "bin" / "noether"), str(build / "bin" / "noether_step_loop")

    python_times, cpp_times = [], []
    for _ in range(a.repeats):
        seconds, python_sum = python_loop(a.n, a.stepper, a.h, a.steps)
        python_times.append(seconds)
        seconds, cpp_sum = cpp_loop(loop, a.n, a.stepper, a.h, a.steps)
        cpp_times.append(seconds)
        if not math.isclose(python_sum, cpp_sum, rel_tol=1e-12):
            sys.exit(f"the loops stepped different motions: sum q {python_sum!r} against {cpp_sum!r}")
    loop_ratio = best(python_times) / best(cpp_times)

    cli_times, run_times, read_times = [], [], []
    with tempfile.TemporaryDirectory() as scratch:
        for k in range(a.repeats):
            cli_times.append(cli_run(cli, a.n, a.t, os.path.join(scratch, f"cli{k}")))
            ran, with_series = module_run(a.n, a.t, os.path.join(scratch, f"python{k}"))
            run_times.append(ran)
            read_times.append(with_series - ran)
    run_ratio = best(run_times) / best(cli_times)

    steps = round(a.t / 0.01)
    print(f"chain2d n = {a.n}, {a.stepper}, best of {a.repeats}")
    print(f"step loop, {a.steps} steps of h = {a.h}: Python {best(python_times):.4f} s, C++ {best(cpp_times):.4f} s, "
          f"ratio {loop_ratio:.3f} (target 1.1: {'PASS' if loop_ratio <= 1.1 else 'FAIL'})")
    print(f"run, {steps} steps: noether.run {best(run_times):.4f} s, noether run {best(cli_times):.4f} s, "
          f"ratio {run_ratio:.3f} (target 1.05: {'PASS' if run_ratio <= 1.05 else 'FAIL'}); "
          f"reading the time series into numpy then {best(read_times):.4f} s")
    return 0 if loop_ratio <= 1.1 and run_ratio <= 1.05 else 1


if __name__ == "__main__":
    sys.exit(main())
