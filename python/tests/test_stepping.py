"""A step loop from Python: every stepper, the state's arrays, the measures, the errors."""

import math

import numpy as np
import pytest

import noether
from conftest import pendulum_mechanism


def double_pendulum():
    """Two planar bars of 1 kg and 1 m in a chain, hinged to the ground, released horizontally."""
    m = noether.Mechanism("double pendulum")
    upper = m.add_planar_body(name="upper", mass=1.0, inertia=1 / 12, position=[0.5, 0.0])
    lower = m.add_planar_body(name="lower", mass=1.0, inertia=1 / 12, position=[1.5, 0.0])
    m.add_joint("revolute_planar", name="ground", point_a=[0, 0], body_b=upper, point_b=[-0.5, 0])
    m.add_joint("revolute_planar", name="elbow", body_a=upper, point_a=[0.5, 0], body_b=lower, point_b=[-0.5, 0])
    m.add_gravity(acceleration=[0, -9.81])
    return m.build()


def test_livens_em_keeps_the_double_pendulums_energy_and_constraints():
    model = double_pendulum()
    stepper = noether.Stepper(model, "livens-em")
    state = model.initial_state()
    stepper.initialize(state)
    energy0 = stepper.conserved_energy(state)
    assert energy0 == pytest.approx(noether.kinetic_energy(model, state) + noether.potential_energy(model, state))
    worst_energy = worst_g = 0.0
    for _ in range(200):
        stepper.step(state, 0.01)
        worst_energy = max(worst_energy, abs(stepper.conserved_energy(state) - energy0))
        worst_g = max(worst_g, np.max(np.abs(noether.constraint_values(model, state))))
    assert state.step == 200 and state.t == pytest.approx(2.0)
    # Newton's relative tolerance 1e-13 on rows of magnitude ~10: the energy balance to ~1e-12
    assert worst_energy < 1e-11, f"energy drift {worst_energy:.3g}"
    assert worst_g < 1e-13, f"constraint residual {worst_g:.3g}"
    assert not np.allclose(state.q, model.initial_state().q)  # it moved


@pytest.mark.parametrize("info", noether.steppers(), ids=lambda s: s["name"])
def test_every_registered_stepper_steps_a_python_mechanism(info):
    model = pendulum_mechanism(noether).build()
    stepper = noether.Stepper(model, info["name"])
    assert stepper.name == info["name"]
    state = model.initial_state()
    stepper.initialize(state)
    for _ in range(10):
        report = stepper.step(state, 0.01)
        assert report.iterations >= 1
    assert state.t == pytest.approx(0.1, rel=1e-12) or info["adaptive_step_size"]
    assert np.max(np.abs(noether.constraint_values(model, state))) < 1e-12
    tip = model.probe("tip", state)
    assert tip[1] < 0  # falling
    assert math.hypot(*tip) == pytest.approx(1.0, abs=1e-12)  # the bar is rigid and pinned


def test_the_states_arrays_are_read_only_copies_and_assignment_copies_in():
    model = pendulum_mechanism(noether).build()
    state = model.initial_state()
    q = state.q
    with pytest.raises(ValueError, match="read-only"):
        q[0] = 3.0
    state.q = q + 1.0
    assert state.q[0] == q[0] + 1.0 and q[0] == 0.5  # the earlier copy did not change
    stepper = noether.Stepper(model)
    state = model.initial_state()
    stepper.initialize(state)
    before = state.q
    stepper.step(state, 0.01)
    assert not np.array_equal(before, state.q)  # a copy, not a view of storage a step replaced
    assert state.multipliers.shape == (model.num_multipliers,)
    assert state.p.shape == state.v.shape == (model.num_coordinates,)


def test_advance_takes_n_steps_as_step_does():
    model = pendulum_mechanism(noether).build()
    a, b = model.initial_state(), model.initial_state()
    stepper = noether.Stepper(model)
    stepper.initialize(a)
    stepper.initialize(b)
    assert stepper.advance(a, 0.01, 50) == 50
    for _ in range(50):
        stepper.step(b, 0.01)
    np.testing.assert_array_equal(a.q, b.q)
    np.testing.assert_array_equal(a.p, b.p)


def test_a_hanging_pendulum_at_rest_carries_its_weight_at_the_joint():
    m = noether.Mechanism("hanging")
    bar = m.add_planar_body(name="bar", mass=2.0, inertia=1 / 6, position=[0, -0.5], angle=-math.pi / 2)
    m.add_joint("revolute_planar", name="pivot", point_a=[0, 0], body_b=bar, point_b=[-0.5, 0])
    m.add_gravity(acceleration=[0, -9.81])
    model = m.build()
    stepper = noether.Stepper(model)
    state = model.initial_state()
    stepper.initialize(state)
    stepper.step(state, 0.01)
    (pivot,) = noether.joint_reactions(model, state)
    assert pivot["joint"] == "pivot" and pivot["dimension"] == 2
    np.testing.assert_allclose(pivot["force"], [0.0, 2.0 * 9.81, 0.0], atol=1e-12)
    momenta = noether.momenta(model, state)
    np.testing.assert_allclose(momenta["linear"], 0.0, atol=1e-12)


def test_settings_of_a_stepper_come_from_the_run_settings_table():
    model = pendulum_mechanism(noether).build()
    noether.Stepper(model, "evi", parameters={"S": 3}, newton_tol=1e-12, solver="umfpack", refine_depth=2)
    with pytest.raises(ValueError, match=r"--newton-tol.*\(0, 0.001\]"):
        noether.Stepper(model, newton_tolerance=0.5)
    with pytest.raises(ValueError, match="--solver|unknown solver 'lapack'"):
        noether.Stepper(model, solver="lapack")
    with pytest.raises(TypeError, match="unexpected keyword argument 't_end'"):
        noether.Stepper(model, t_end=1.0)
    with pytest.raises(ValueError, match="unknown stepper|livens-em"):
        noether.Stepper(model, "rk4")
    with pytest.raises(ValueError, match="S"):
        noether.Stepper(model, "livens-em", parameters={"S": 3})


def test_refusals_and_failed_steps_are_noether_errors_with_the_libraries_messages():
    singular = noether.scenario("singular-mass-spring")
    with pytest.raises(noether.StepperRefusal, match="livens-em"):
        noether.Stepper(singular, "ggl-vi")
    model = pendulum_mechanism(noether).build()
    stepper = noether.Stepper(model, newton_max_iterations=1, refine_depth=0)
    state = model.initial_state()
    stepper.initialize(state)
    before = state.q
    with pytest.raises(noether.NewtonError, match="Newton failed") as failure:
        stepper.step(state, 0.5)
    assert isinstance(failure.value, noether.Error) and isinstance(failure.value, RuntimeError)
    np.testing.assert_array_equal(state.q, before)  # left as it was
    with pytest.raises(ValueError, match="h"):
        stepper.step(state, 0.0)
    off = model.initial_state()
    off.q = off.q + 1e-3
    with pytest.raises(noether.StepperRefusal, match="project"):
        noether.Stepper(model).initialize(off)
    assert noether.project(model, off) != ""
    noether.Stepper(model).initialize(off)


def test_a_system_in_use_refuses_new_elements_as_a_noether_error():
    model = pendulum_mechanism(noether).build()
    stepper = noether.Stepper(model)
    with pytest.raises(noether.Error, match="livens-em"):
        model.add_potential("late", ["bar"], lambda q: 0.0)
    del stepper


def test_a_step_does_not_depend_on_the_blas_thread_count_and_gives_it_back():
    """UMFPACK's fronts on grid2d k = 30 are wide enough for OpenBLAS to split them over threads,
    which changes their last bits: Stepper.step and advance hold the BLAS to one thread, as
    `noether run` does (solvers/linear/blas_threads.hpp), and give numpy's count back."""
    import ctypes
    import os

    try:  # loaded by noether's module (or numpy's), if the BLAS is OpenBLAS
        openblas = ctypes.CDLL("libopenblas.so.0", mode=os.RTLD_NOLOAD | os.RTLD_LAZY)
    except OSError:
        pytest.skip("the BLAS is not OpenBLAS")
    set_threads, get_threads = openblas.openblas_set_num_threads, openblas.openblas_get_num_threads
    model = noether.Model.from_scenario("grid2d", {"k": 30})
    before = get_threads()
    states = []
    for blas_threads in (1, 2):
        stepper = noether.Stepper(model, "livens-em", solver="umfpack")
        state = model.initial_state()
        stepper.initialize(state)
        set_threads(blas_threads)
        stepper.step(state, 1e-3)
        stepper.advance(state, 1e-3, 1)
        assert get_threads() == blas_threads
        states.append(state)
    set_threads(before)
    assert np.array_equal(states[0].q, states[1].q) and np.array_equal(states[0].multipliers, states[1].multipliers)
