"""Actuators in mechanisms built from Python: a PD motor holds a pendulum on its reference with the
energy balance of livens-em, and the steppers that do not take actuators refuse them by name."""

import math

import pytest

import noether


def motor_pendulum(law):
    """A planar bar of 1 kg and 1 m on a pivot at the origin, horizontal at rest, under gravity, with
    a motor at the pivot."""
    m = noether.Mechanism("motor-pendulum")
    bar = m.add_planar_body(name="bar", mass=1.0, inertia=1 / 12, position=[0.5, 0.0])
    m.add_joint("revolute_planar", name="pivot", point_a=[0, 0], body_b=bar, point_b=[-0.5, 0])
    m.add_gravity(acceleration=[0, -9.81])
    m.add_actuator("revolute", name="motor", body_b=bar, law=law)
    return m.build()


def test_a_pd_motor_holds_the_pendulum_near_its_reference_and_the_energy_balance_holds():
    # r(t) = 0.3 sin(2 t); the gravity torque m g l/2 = 4.9 N m against kp = 500 leaves ~0.01 rad.
    model = motor_pendulum({"type": "pd", "kp": 500.0, "kd": 40.0,
                            "reference": {"type": "sine", "amplitude": 0.3, "angular_frequency": 2.0}})
    stepper = noether.Stepper(model, "livens-em")
    state = model.initial_state()
    stepper.initialize(state)
    energy = stepper.conserved_energy(state)
    largest_residual = 0.0
    for _ in range(200):
        work = stepper.step(state, 0.005).work
        next_energy = stepper.conserved_energy(state)
        largest_residual = max(largest_residual, abs(next_energy - energy - work))
        energy = next_energy
    assert largest_residual <= 1e-12 * 10.0  # Newton's tolerance on energies of about 5 J
    angle = math.atan2(state.q[3], state.q[2])  # the bar's d1 from the world x axis
    assert abs(angle - 0.3 * math.sin(2.0 * state.t)) < 0.02


def test_steppers_without_actuator_kernels_refuse_them_by_name():
    model = motor_pendulum({"type": "profile", "profile": 1.0})
    with pytest.raises(noether.Error, match="sem-vi: takes no actuators, and the system has actuator 'motor'"):
        noether.Stepper(model, "sem-vi")


def test_a_negative_gain_is_refused_at_its_path():
    with pytest.raises(ValueError, match="/actuators/0/law/kp"):
        motor_pendulum({"type": "pd", "kp": -1.0, "kd": 0.0, "reference": 0.0})


def test_a_controller_written_in_python_with_or_without_its_derivatives():
    """u = -kp tanh(x - r) - kd x_dot, a saturated PD law, as a Python function on a scene's pendulum."""
    def law(t, x, rate):
        return -20.0 * math.tanh(x - 0.2) - 2.0 * rate

    def derivatives(t, x, rate):
        return -20.0 / math.cosh(x - 0.2) ** 2, -2.0

    finals = []
    for given in (derivatives, None):
        model = motor_pendulum({"type": "profile", "profile": 0.0})
        model.add_actuator("python", "revolute", law, body_b="bar", derivatives=given)
        stepper = noether.Stepper(model, "em-ggl")
        state = model.initial_state()
        stepper.initialize(state)
        energy = stepper.conserved_energy(state)
        for _ in range(100):
            work = stepper.step(state, 0.01).work
            next_energy = stepper.conserved_energy(state)
            assert abs(next_energy - energy - work) <= 1e-12 * 10.0
            energy = next_energy
        finals.append(state.q)
    # The derivatives enter Newton's tangent only: the same step equations, solved to its tolerance.
    assert max(abs(a - b) for a, b in zip(*finals)) <= 1e-12


def test_a_python_actuator_on_a_body_that_does_not_exist_is_refused_by_name():
    model = motor_pendulum({"type": "profile", "profile": 0.0})
    with pytest.raises(ValueError, match="actuator 'python': no body named 'arm'"):
        model.add_actuator("python", "revolute", lambda t, x, rate: 0.0, body_b="arm")
