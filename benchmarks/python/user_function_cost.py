"""The cost of a potential and of a controller written in Python, per call (docs/python.md, "User
functions"): n coordinates whose springs are one Python potential (energy, gradient, Hessian given;
then energy alone, by central differences; then a potential that does nothing, whose cost is the
binding's: taking the GIL, making q an array, converting the result) against the same springs as
the library's polynomial potentials, stepped alike; and a pendulum whose motor is a PD law written
in Python (with its derivatives, then without them: central differences) against the same law as
the library's PD actuator. Each: the extra time divided by the Python calls made, beside the
functions' own cost called from Python directly.

    PYTHONPATH=build/python /usr/bin/python3 benchmarks/python/user_function_cost.py
"""

import argparse
import math
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


def motor_pendulum(builtin):
    """A planar bar of 1 kg and 1 m on a pivot, under gravity, with a PD motor at the pivot tracking
    r(t) = 0.3 sin(2 t): the library's (builtin) or none, for one written in Python."""
    m = noether.Mechanism("motor-pendulum")
    bar = m.add_planar_body(name="bar", mass=1.0, inertia=1 / 12, position=[0.5, 0.0])
    m.add_joint("revolute_planar", name="pivot", point_a=[0, 0], body_b=bar, point_b=[-0.5, 0])
    m.add_gravity(acceleration=[0, -9.81])
    if builtin:
        m.add_actuator("revolute", name="motor", body_b=bar, law={"type": "pd", "kp": KP, "kd": KD, "reference": {
            "type": "sine", "amplitude": 0.3, "angular_frequency": 2.0}})
    return m.build()


KP, KD = 500.0, 40.0


def pd_law(t, x, rate):
    """The library's PD law (docs/scenes.md, "actuators") towards r(t) = 0.3 sin(2 t)."""
    return -KP * (x - 0.3 * math.sin(2.0 * t)) - KD * (rate - 0.6 * math.cos(2.0 * t))


def pd_derivatives(t, x, rate):
    return -KP, -KD


def direct_law_cost(functions, calls=20000, rounds=5):
    """Seconds per call of the laws called from Python directly (their own cost), the least of `rounds`."""
    best = math.inf
    for _ in range(rounds):
        start = time.perf_counter()
        for k in range(calls // len(functions)):
            for f in functions:
                f(0.001 * k, 0.1, 0.2)
        best = min(best, (time.perf_counter() - start) / calls)
    return best


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


def seconds(model, steps, h=0.01):
    stepper = noether.Stepper(model)
    state = model.initial_state()
    stepper.initialize(state)
    start = time.perf_counter()
    stepper.advance(state, h, steps)
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
    base = min(seconds(motor_pendulum(True), a.steps, 0.005) for _ in range(a.repeats))
    for label, functions in (("PD controller: u and its derivatives", (pd_law, pd_derivatives)),
                             ("PD controller: u alone (central differences)", (pd_law,))):
        times, calls = [], []
        for _ in range(a.repeats):
            model, counter = motor_pendulum(False), [0]
            model.add_actuator("motor", "revolute", counted(functions[0], counter), body_b="bar",
                               derivatives=counted(functions[1], counter) if len(functions) > 1 else None)
            times.append(seconds(model, a.steps, 0.005))
            calls.append(counter[0])
        per_call = (min(times) - base) / calls[0]
        own = direct_law_cost(functions)
        print(f"{label}: {calls[0] / a.steps:.1f} Python calls per step, {per_call * 1e6:.2f} us per call in a step, "
              f"of which the functions' own {own * 1e6:.2f} us ({min(times):.3f} s against {base:.3f} s for the "
              f"library's PD actuator)")

if __name__ == "__main__":
    main()
