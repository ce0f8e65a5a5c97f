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


def pendulum_with_a_python_motor(law, derivatives=None):
    """A planar bar on a pivot whose motor's law (and derivatives) are Python functions."""
    m = noether.Mechanism("motor-pendulum")
    bar = m.add_planar_body(name="bar", mass=1.0, inertia=1 / 12, position=[0.5, 0.0])
    m.add_joint("revolute_planar", name="pivot", point_a=[0, 0], body_b=bar, point_b=[-0.5, 0])
    model = m.build()
    model.add_actuator("motor", "revolute", law, body_b="bar", derivatives=derivatives)
    return model


def zero_law(t, x, rate):
    return 0.0


# (how the model is made, the exception, its message): each result converted as the engine reads
# it, through a step; pybind11 said "Unable to cast Python instance to C++ type" for each.
WRONG_RESULTS = {
    "energy: a text": (
        lambda m: m.add_potential("bad", ["mass"], lambda q: "oops", spring_gradient, spring_hessian), TypeError,
        "potential 'bad': energy returned 'oops' (a str), expected a number"),
    "energy: None": (
        lambda m: m.add_potential("bad", ["mass"], lambda q: None), TypeError,
        "potential 'bad': energy returned None, expected a number"),
    "energy: an array": (
        lambda m: m.add_potential("bad", ["mass"], lambda q: q * q, spring_gradient, spring_hessian), ValueError,
        "potential 'bad': energy returned a numpy array of shape (2,) and dtype float64, expected a number"),
    "gradient: a matrix": (
        lambda m: m.add_potential("bad", ["mass"], spring_energy, lambda q: [[1, 2], [3, 4]], spring_hessian),
        ValueError, "potential 'bad': gradient returned [[1, 2], [3, 4]] (a list), expected an array of 2 numbers"),
    "gradient: an array of texts": (
        lambda m: m.add_potential("bad", ["mass"], spring_energy, lambda q: np.array(["1", "2"]), spring_hessian),
        TypeError, "potential 'bad': gradient returned a numpy array of shape (2,) and dtype <U1, expected an array "
                   "of 2 numbers"),
    "gradient: None in an array": (
        lambda m: m.add_potential("bad", ["mass"], spring_energy, lambda q: np.array([q[0], None]), spring_hessian),
        TypeError, "potential 'bad': gradient returned a numpy array of shape (2,) and dtype object, expected an "
                   "array of 2 numbers"),
    "hessian: ragged rows": (
        lambda m: m.add_potential("bad", ["mass"], spring_energy, spring_gradient, lambda q: [[1.0, 0.0], [3.0]]),
        TypeError, "potential 'bad': hessian returned [[1.0, 0.0], [3.0]] (a list), expected a 2 x 2 array of numbers"),
    "force: a text": (
        lambda m: m.add_load("bad", ["mass"], lambda t, q: "push"), TypeError,
        "load 'bad': force returned 'push' (a str), expected an array of 2 numbers"),
    "jacobian: a number": (
        lambda m: m.add_load("bad", ["mass"], lambda t, q: -q, jacobian=lambda t, q: 3.0), ValueError,
        "load 'bad': jacobian returned 3.0 (a float), expected a 2 x 2 array of numbers"),
}


@pytest.mark.parametrize("case", WRONG_RESULTS)
def test_a_result_of_the_wrong_type_names_the_element_the_function_and_what_it_returned(case):
    add, error, message = WRONG_RESULTS[case]
    model = oscillator().build()
    add(model)
    with pytest.raises(error) as raised:
        run(model, steps=1)
    assert str(raised.value) == message


LAW_RESULTS = {
    "law: None": (lambda t, x, rate: None, None, TypeError, "actuator 'motor': law returned None, expected a number"),
    "law: a list, differenced": (lambda t, x, rate: [1.0], None, ValueError,
                                 "actuator 'motor': law returned [1.0] (a list), expected a number"),
    "derivatives: a number": (zero_law, lambda t, x, rate: 1.0, ValueError,
                              "actuator 'motor': derivatives returned 1.0 (a float), expected a pair of numbers "
                              "(du/dx, du/dx_dot)"),
    "derivatives: three": (zero_law, lambda t, x, rate: (1, 2, 3), ValueError,
                           "actuator 'motor': derivatives returned (1, 2, 3) (a tuple), expected a pair of numbers "
                           "(du/dx, du/dx_dot)"),
    "derivatives: a text": (zero_law, lambda t, x, rate: ("a", 1.0), TypeError,
                            "actuator 'motor': derivatives returned ('a', 1.0) (a tuple), expected a pair of numbers "
                            "(du/dx, du/dx_dot)"),
}


@pytest.mark.parametrize("case", LAW_RESULTS)
def test_an_actuator_law_of_the_wrong_type_is_named_through_the_step(case):
    law, derivatives, error, message = LAW_RESULTS[case]
    model = pendulum_with_a_python_motor(law, derivatives)
    stepper = noether.Stepper(model, "livens-em")
    state = model.initial_state()
    stepper.initialize(state)
    q0 = state.q
    with pytest.raises(error) as raised:
        stepper.step(state, 0.01)
    assert str(raised.value) == message
    np.testing.assert_array_equal(state.q, q0)  # the step that failed left the state as it was


def test_results_numpy_converts_exactly_are_taken_as_before():
    """A 1-element array for a number, an n x 1 column for a vector, tuples of integers for a matrix:
    the motion of plain floats and arrays (what converted before the checks still does)."""
    exact = oscillator().build()
    exact.add_potential("spring", ["mass"], lambda q: 0.5 * 3.0 * (q @ q), lambda q: 3.0 * q, lambda q: 3.0 * np.eye(2))
    loose = oscillator().build()
    loose.add_potential("spring", ["mass"], lambda q: np.array([0.5 * 3.0 * (q @ q)]),
                        lambda q: (3.0 * q).reshape(2, 1), lambda q: ((3, 0), (0, 3)))
    a, _, _ = run(exact, steps=20)
    b, _, _ = run(loose, steps=20)
    np.testing.assert_array_equal(b.q, a.q)
