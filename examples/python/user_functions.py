"""Potentials and loads written in Python (docs/python.md, "User functions"): a point mass of 2 kg
in the plane on a quartic spring given by its energy, gradient and Hessian, then the same spring
by its energy alone (central differences), each pushed by a load of time, stepped 10 s by
livens-em. Prints where the first ends and how far apart the two motions end; exits with 1 when
they are further apart than the differences' error allows.

    PYTHONPATH=build/python /usr/bin/python3 examples/python/user_functions.py
"""

import sys

import numpy as np

import noether


def energy(q):
    return 1.5 * (q[0] ** 2 + q[1] ** 2) + 0.25 * q[0] ** 4


def gradient(q):
    return np.array([3.0 * q[0] + q[0] ** 3, 3.0 * q[1]])


def hessian(q):
    return np.array([[3.0 + 3.0 * q[0] ** 2, 0.0], [0.0, 3.0]])


def push(t, q):
    return np.array([0.0, 0.5 * np.sin(t)])


def final_state(with_derivatives, **settings):
    m = noether.Mechanism("oscillator")
    m.add_point_mass(name="mass", mass=2.0, position=[1.0, 0.0], velocity=[0.0, 0.5])
    model = m.build()
    if with_derivatives:
        model.add_potential("spring", ["mass"], energy, gradient, hessian)
    else:
        model.add_potential("spring", ["mass"], energy)
    model.add_load("push", ["mass"], push, depends_on_q=False)
    stepper = noether.Stepper(model, "livens-em", **settings)
    state = model.initial_state()
    stepper.initialize(state)
    stepper.advance(state, 0.01, 1000)
    return state


# Central differences are accurate to about 4e-11 relative: Newton's tolerance goes above that.
exact, differenced = final_state(True), final_state(False, newton_tolerance=1e-11)
apart = np.max(np.abs(exact.q - differenced.q))
print(f"t = {exact.t:g}: q = ({exact.q[0]:.6f}, {exact.q[1]:.6f}); by central differences {apart:.1e} apart")
sys.exit(0 if apart < 1e-9 else 1)
