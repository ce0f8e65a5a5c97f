"""Potentials and loads written in Python: with their derivatives, or by central differences."""

import numpy as np
import pytest

import noether


def oscillator(**force):
    """A point mass of 2 kg on the x axis; with `force`, a scene force element on it."""
    m = noether.Mechanism("oscillator")
    m.add_point_mass(name="mass", mass=2.0, position=[1.0, 0.0], velocity=[0.0, 0.5])
    if force:
        m.add_force(**force)
    return m


def spring_energy(q):
    return 0.5 * 3.0 * (q[0] ** 2 + q[1] ** 2) + 0.25 * q[0] ** 4


def spring_gradient(q):
    return np.array([3.0 * q[0] + q[0] ** 3, 3.0 * q[1]])


def spring_hessian(q):
    return np.array([[3.0 + 3.0 * q[0] ** 2, 0.0], [0.0, 3.0]])


def run(model, steps=200, h=0.01, **settings):
    """The state after `steps` steps, and the change of the conserved energy (the steps refined: a
    third result when asked for with refinements=True)."""
    stepper = noether.Stepper(model, **settings)
    state = model.initial_state()
    stepper.initialize(state)
    energy0 = stepper.conserved_energy(state)
    refined = sum(stepper.step(state, h).refinements > 0 for _ in range(steps))
    return state, stepper.conserved_energy(state) - energy0, refined


def test_a_python_potential_with_derivatives_conserves_its_energy():
    model = oscillator().build()
    model.add_potential("spring", ["mass"], spring_energy, spring_gradient, spring_hessian)
    state, drift, _ = run(model)
    assert abs(drift) < 1e-13
    assert noether.potential_energy(model, state) == pytest.approx(spring_energy(state.q))


def test_without_derivatives_central_differences_give_the_same_motion_to_their_error():
    exact = oscillator().build()
    exact.add_potential("spring", ["mass"], spring_energy, spring_gradient, spring_hessian)
    differenced = oscillator().build()
    differenced.add_potential("spring", ["mass"], spring_energy)
    a, _, _ = run(exact, steps=1000)
    # a differenced gradient is accurate to ~4e-11 relative (cbrt(eps)^2): Newton's tolerance must
    # be above that, or steps it cannot meet are refined (docs/python.md, "User functions")
    b, drift, refined = run(differenced, steps=1000, newton_tolerance=1e-11)
    assert refined == 0
    # Gonzalez's discrete gradient balances the energy whatever the gradient's error
    assert abs(drift) < 1e-13
    # the gradient's error moves the motion by about as much over these 1000 steps (9e-11 measured)
    np.testing.assert_allclose(b.q, a.q, rtol=0, atol=1e-9)


def test_a_python_load_acts_as_the_librarys_point_force():
    library = oscillator(type="force", name="push", body="mass", force=[0.0, -1.5]).build()
    python = oscillator().build()
    python.add_load("push", ["mass"], lambda t, q: np.array([0.0, -1.5]), depends_on_q=False)
    a, _, _ = run(library)
    b, _, _ = run(python)
    np.testing.assert_array_equal(b.q, a.q)


def test_a_configuration_dependent_load_with_a_differenced_jacobian():
    with_jacobian = oscillator().build()
    with_jacobian.add_load("drag", ["mass"], lambda t, q: -0.3 * q, jacobian=lambda t, q: -0.3 * np.eye(2))
    differenced = oscillator().build()
    differenced.add_load("drag", ["mass"], lambda t, q: -0.3 * q)
    a, _, _ = run(with_jacobian)
    b, _, _ = run(differenced)
    # a Jacobian only steers Newton: it converges to the same solution to round-off
    np.testing.assert_allclose(b.q, a.q, rtol=0, atol=1e-14)


def test_wrong_sizes_and_python_exceptions_reach_the_caller():
    model = oscillator().build()
    model.add_potential("bad", ["mass"], spring_energy, lambda q: np.zeros(3), spring_hessian)
    with pytest.raises(ValueError, match=r"potential 'bad'.*gradient.*3.*expected 2"):
        run(model, steps=1)
    model = oscillator().build()

    def broken(q):
        raise ZeroDivisionError("user code")

    model.add_potential("broken", ["mass"], broken, spring_gradient, spring_hessian)
    with pytest.raises(ZeroDivisionError, match="user code"):
        run(model, steps=1)
    with pytest.raises(ValueError, match="no body named 'wheel'"):
        oscillator().build().add_potential("x", ["wheel"], spring_energy)
