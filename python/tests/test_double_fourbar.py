"""The damped double four-bar of KinonBetschSchneider2023, Sec. 5.2, built and stepped from Python
through its singular (horizontal) configurations, against the program's run of its scene file."""

import json
import math

import numpy as np
import pytest

import noether

L = 1.0


def double_fourbar():
    """examples/scenes/double_fourbar.json, entry by entry."""
    m = noether.Mechanism("double-fourbar", "The damped double four-bar linkage (KinonBetschSchneider2023, Sec. 5.2).")
    upright = dict(mass=1.0, inertia=0.08333333333333333, angle=math.pi / 2, velocity=[0.5, 0.0], angular_velocity=-1.0)
    grounded = [m.add_planar_body(name=f"B{i + 1}", position=[i * L, 0.5], **upright) for i in range(3)]
    couplers = [m.add_planar_body(name=f"B{i + 4}", mass=1.0, inertia=0.08333333333333333,
                                  position=[0.5 + i, 1.0], velocity=[1.0, 0.0]) for i in range(2)]
    for i, bar in enumerate(grounded):
        m.add_joint("revolute_planar", name=f"P{i + 1}", point_a=[i * L, 0.0], body_b=bar, point_b=[-0.5, 0.0])
    b1, b2, b3 = grounded
    b4, b5 = couplers
    top, left, right = np.array([0.5, 0.0]), np.array([-0.5, 0.0]), np.array([0.5, 0.0])
    m.add_joint("revolute_planar", name="P4", body_a=b1, point_a=top, body_b=b4, point_b=left)
    m.add_joint("revolute_planar", name="P5.B4", body_a=b2, point_a=top, body_b=b4, point_b=right)
    m.add_joint("revolute_planar", name="P5.B5", body_a=b2, point_a=top, body_b=b5, point_b=left)
    m.add_joint("revolute_planar", name="P6", body_a=b3, point_a=top, body_b=b5, point_b=right)
    m.add_gravity(acceleration=[0.0, -9.81])
    m.add_damper(name="damper.P1-P5", point_a=[0.0, 0.0], body_b=b4, point_b=right, damping=0.5)
    m.add_damper(name="damper.P2-P6", point_a=[1.0, 0.0], body_b=b5, point_b=right, damping=0.5)
    m.add_probe(name="B0", body=b1, point=top)
    return m


def test_the_python_step_loop_passes_the_singular_configurations_on_the_constraints():
    model = double_fourbar().build()
    stepper = noether.Stepper(model, "livens-em")
    state = model.initial_state()
    stepper.initialize(state)
    labels = model.coordinate_labels
    d1y = labels.index("B1.d1.y")  # B1 is horizontal where its d1 has no y component
    energy = stepper.conserved_energy(state)
    crossings, worst_g, rise = 0, 0.0, 0.0
    for _ in range(10_000):
        previous = state.q[d1y]
        stepper.step(state, 1e-3)
        crossings += (previous > 0) != (state.q[d1y] > 0)
        worst_g = max(worst_g, np.max(np.abs(noether.constraint_values(model, state))))
        e = stepper.conserved_energy(state)
        rise, energy = max(rise, e - energy), e
    assert crossings == 3, f"B1 was horizontal {crossings} times in 10 s, the README's figure says 3"
    # README: the 29 constraint equations stay within a few round-offs (4.0e-15) at each of the
    # 10 000 steps. Not 1e-15: livens-em's rows undo 1/100 of g's rounding a step, so g settles near
    # eps / sqrt(2 / 100), about 7 eps (steppers/livens_em.hpp); a random walk of g (the rows
    # without that share) reaches 1.0e-14 here.
    assert worst_g < 1e-14, f"max |g| {worst_g:.3g}"
    # the dampers only take energy out: no step adds more than round-off of E ~ 30
    assert rise < 1e-12, f"the energy rose by {rise:.3g} in a step"


def test_each_steps_work_closes_the_energy_balance_of_the_damped_run():
    model = double_fourbar().build()
    stepper = noether.Stepper(model, "livens-em")
    state = model.initial_state()
    stepper.initialize(state)
    energy0 = energy = stepper.conserved_energy(state)
    total_work, worst_balance = 0.0, 0.0
    for _ in range(1000):
        report = stepper.step(state, 1e-3)
        assert report.work <= 0.0, "the dampers only take energy out"
        assert report.as_dict()["work"] == report.work
        e = stepper.conserved_energy(state)
        worst_balance = max(worst_balance, abs(e - energy - report.work))
        total_work, energy = total_work + report.work, e
    # livens-em's discrete energy balance holds to Newton's tolerance (1e-13 relative, E ~ 30)
    assert worst_balance < 1e-11, f"max |E(n+1) - E(n) - W(n)| {worst_balance:.3g}"
    assert total_work < -1e-3, "the dampers did work over 1 s"
    assert energy - energy0 == pytest.approx(total_work, rel=1e-9)


def test_the_python_built_mechanism_runs_to_the_bytes_of_the_scene_file_run_by_the_program(cli, source_dir, tmp_path):
    scene = source_dir / "examples" / "scenes" / "double_fourbar.json"
    by_cli = cli("run", scene, "--t", 1, "--out", tmp_path / "cli")
    assert by_cli.returncode == 0, by_cli.stderr
    result = noether.run(double_fourbar(), h=0.001, t_end=1, out=tmp_path / "python")
    for name in ("timeseries.csv", "final_state.json"):
        assert (tmp_path / "python" / name).read_bytes() == (tmp_path / "cli" / name).read_bytes(), name
    assert result.ok and result.summary["steps"] == 1000
    # and a Python step loop ends on the final state's every bit
    final = json.loads((tmp_path / "cli" / "final_state.json").read_text())
    model = double_fourbar().build()
    stepper = noether.Stepper(model)
    state = model.initial_state()
    stepper.initialize(state)
    stepper.advance(state, 1e-3, 1000)
    np.testing.assert_array_equal(state.q, [final["q"][label] for label in model.coordinate_labels])
