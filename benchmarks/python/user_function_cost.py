"""The cost of a potential written in Python, per call (docs/python.md, "User functions"):
n coordinates whose springs are one Python potential (energy, gradient, Hessian given; then energy
alone, by central differences; then a potential that does nothing, whose cost is the binding's:
taking the GIL, making q an array, converting the result) against the same springs as the
library's polynomial potentials, stepped alike; the extra time divided by the Python calls made,
beside the functions' own cost called from Python directly.

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


ZERO_GRADIENT, ZERO_HESSIAN = None, None


def zero_energy(q):
    return 0.0


def zero_gradient(q):
    return ZERO_GRADIENT


def zero_hessian(q):
    return ZERO_HESSIAN


def direct_cost(functions, n, calls=20000):
    """Seconds per call of the functions called from Python directly (their own cost)."""
    q = np.linspace(0.1, 0.2, n)
    start = time.perf_counter()
    for _ in range(calls // len(functions)):
        for f in functions:
            f(q)
    return (time.perf_counter() - start) / calls


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
    global ZERO_GRADIENT, ZERO_HESSIAN
    ZERO_GRADIENT, ZERO_HESSIAN = np.zeros(a.n), np.zeros((a.n, a.n))
    base = min(seconds(chain(a.n, True), a.steps) for _ in range(a.repeats))
    cases = (("springs: energy, gradient, Hessian", (energy, gradient, hessian)),
             ("springs: energy alone (central differences)", (energy,)),
             ("zero potential: energy, gradient, Hessian (the binding's own cost)",
              (zero_energy, zero_gradient, zero_hessian)))
    for label, functions in cases:
        times, calls = [], []
        for _ in range(a.repeats):
            model, counter = chain(a.n, False), [0]
            model.add_potential("springs", [f"x{i}" for i in range(a.n)], *(counted(f, counter) for f in functions))
            times.append(seconds(model, a.steps))
            calls.append(counter[0])
        per_call = (min(times) - base) / calls[0]
        own = direct_cost(functions, a.n)
        print(f"n = {a.n}, {label}: {calls[0] / a.steps:.1f} Python calls per step, {per_call * 1e6:.2f} us per call "
              f"in a step, of which the functions' own {own * 1e6:.2f} us ({min(times):.3f} s against {base:.3f} s "
              f"for the built-in springs)")

if __name__ == "__main__":
    main()
