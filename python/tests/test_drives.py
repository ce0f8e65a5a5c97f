"""Prescribed motion from Python: a drive added to a Mechanism, stepped, its energy balance and its
refusal by the stepper that does not take it."""

import math

import pytest

import noether


def driven_crank(omega=2 * math.pi):
    """A bar of 1 kg and 1 m turned about its end at the origin at the rate omega (a revolute drive
    from the ground, its angle omega t), gravity along -y."""
    m = noether.Mechanism("driven crank")
    bar = m.add_planar_body(name="bar", mass=1.0, inertia=1 / 12, position=[0.5, 0.0], velocity=[0.0, 0.5 * omega],
                            angular_velocity=omega)
    m.add_drive("revolute", name="motor", point_a=[0, 0], body_b=bar, point_b=[-0.5, 0],
                profile={"type": "ramp", "rate": omega, "offset": 0.0})
    m.add_gravity(acceleration=[0, -9.81])
    m.add_probe(name="tip", body=bar, point=[0.5, 0])
    return m.build()


def test_a_driven_crank_follows_its_profile_and_keeps_the_energy_balance_with_the_drives_work():
    model = driven_crank()
    stepper = noether.Stepper(model, "livens-em")
    state = model.initial_state()
    stepper.initialize(state)
    energy, worst, total_work, turned_work = stepper.conserved_energy(state), 0.0, 0.0, 0.0
    for _ in range(100):
        report = stepper.step(state, 0.01)
        e = stepper.conserved_energy(state)
        worst = max(worst, abs(e - energy - report.work))
        energy, total_work, turned_work = e, total_work + report.work, turned_work + abs(report.work)
    tip = model.probe("tip", state)
    angle = 2 * math.pi * state.t
    assert tip == pytest.approx([math.cos(angle), math.sin(angle)], abs=1e-12)  # the drive holds the angle
    # the motor lifts the bar against gravity (by m g r = 4.9 J over half a turn) and holds it back
    # on the way down: over the whole turn its work nearly cancels
    assert turned_work > 10.0
    assert abs(total_work) < 0.01 * turned_work
    # the balance holds to Newton's tolerance (1e-13 relative, energies ~10)
    assert worst < 1e-11, f"max |E(n+1) - E(n) - W(n)| {worst:.3g}"


def test_sem_vi_refuses_a_drive_by_name():
    model = driven_crank()
    with pytest.raises(noether.StepperRefusal, match="constraint 'motor'"):
        noether.Stepper(model, "sem-vi").initialize(model.initial_state())
