"""The cost of a potential written in Python, per call (docs/python.md, "User functions"):
a chain of point masses whose springs are one Python potential (energy, gradient, Hessian given;
then energy alone, by central differences) against the same springs as the library's polynomial
potentials, stepped alike; the extra time divided by the Python calls made.

    PYTHONPATH=build/python /usr/bin/python3 benchmarks/python/user_function_cost.py
"""

import argparse
import time

import numpy as np

import noether


def chain(n, builtin):
    """n point masses on a line, each tied to the next by a quartic spring in its coordinate x."""
    m = noether.Mechanism("springs")
    for i in range(n):
        m.add_body("coordinates", name=f"x{i}", coordinates=["x"], position=[0.1 * (i % 3)], velocity=[0.0])
    m.add_inertia(name="masses", bodies=[f"x{i}" for i in range(n)], matrix=np.eye(n))
    if builtin:
        for i in range(n):
            m.add_force("polynomial", name=f"spring{i}", body=f"x{i}", coordinate="x", coefficients=[0, 0, 0.5, 0, 0.25])
    return m.build()


def energy(q):
    return float(np.sum(0.5 * q**2 + 0.25 * q**4))


def gradient(q):
    return q + q**3


def hessian(q):
    return np.diag(1.0 + 3.0 * q**2)


def seconds(model, steps):
    stepper = noether.Stepper(model)
    state = model.initial_state()
    stepper.initialize(state)
    start = time.perf_counter()
    stepper.advance(state, 0.01, steps)
    return time.perf_counter() - start


def counted(f, counter):
    def call(*args):
        counter[0] += 1
        return f(*args)
    return call


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--n", type=int, default=3, help="coordinates of the potential")
    parser.add_argument("--steps", type=int, default=2000)
    parser.add_argument("--repeats", type=int, default=5)
    a = parser.parse_args()
    base = min(seconds(chain(a.n, True), a.steps) for _ in range(a.repeats))
    for label, derivatives in (("energy, gradient, Hessian", True), ("energy alone (central differences)", False)):
        times, calls = [], []
        for _ in range(a.repeats):
            model, counter = chain(a.n, False), [0]
            functions = (counted(gradient, counter), counted(hessian, counter)) if derivatives else (None, None)
            model.add_potential("springs", [f"x{i}" for i in range(a.n)], counted(energy, counter), *functions)
            times.append(seconds(model, a.steps))
            calls.append(counter[0])
        per_call = (min(times) - base) / calls[0]
        print(f"n = {a.n}, {label}: {calls[0] / a.steps:.1f} Python calls per step, "
              f"{per_call * 1e6:.2f} us per call ({min(times):.3f} s against {base:.3f} s built in)")


if __name__ == "__main__":
    main()
