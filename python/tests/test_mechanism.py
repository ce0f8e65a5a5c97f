"""Mechanisms built with keyword arguments and numpy arrays; the library's checks as exceptions."""

import numpy as np
import pytest

import noether
from conftest import pendulum_mechanism


def test_a_mechanism_builds_a_model_of_its_bodies_joints_and_probes():
    model = pendulum_mechanism(noether).build()
    assert model.num_coordinates == 6  # a planar director body: phi (2), d1 (2), d2 (2)
    assert model.num_multipliers == 3 + 2  # orthonormality of d1, d2; the revolute joint
    assert model.probe_names == ["tip"]
    state = model.initial_state()
    np.testing.assert_array_equal(model.probe("tip", state), [1.0, 0.0])


def test_numpy_arrays_and_bodies_by_handle_or_name_give_the_same_scene():
    by_list = pendulum_mechanism(noether)
    by_array = noether.Mechanism("pendulum", "A uniform bar of 1 kg and 1 m hinged at one end, released horizontally.")
    by_array.add_planar_body(name="bar", mass=np.float64(1.0), inertia=1 / 12, position=np.array([0.5, 0.0]))
    by_array.add_joint("revolute_planar", name="pivot", point_a=np.zeros(2), body_b="bar", point_b=np.array([-0.5, 0]))
    by_array.add_gravity(acceleration=np.array([0.0, -9.81]))
    by_array.add_probe(name="tip", body="bar", point=np.array([0.5, 0.0]))
    assert by_array.to_json(h=0.01, t_end=5.0) == by_list.to_json(h=0.01, t_end=5.0)


def test_a_bad_value_is_a_value_error_naming_the_entry_and_the_value():
    m = noether.Mechanism("arm")
    m.add_planar_body(name="bar", mass=-1.0, inertia=0.1)
    with pytest.raises(ValueError, match=r"mechanism 'arm': /bodies/0/mass: .*-1"):
        m.build()


@pytest.mark.parametrize("value, shown", [(float("nan"), "nan"), (np.inf, "inf"), (-np.inf, "-inf")])
def test_a_number_that_is_not_finite_is_refused_at_its_add_call_naming_its_path(value, shown):
    # JSON holds no NaN or infinity: the scene reader refused the generated text ("line 12, column
    # 9: not valid JSON"), at a place of a text the user never wrote
    m = noether.Mechanism("arm")
    with pytest.raises(ValueError) as refused:
        m.add_planar_body(name="bar", mass=1.0, inertia=0.1, position=np.array([0.0, value]))
    assert str(refused.value) == f"mechanism 'arm': /bodies/0/position/1: must be a finite number, got {shown}"
    assert repr(m) == "<noether.Mechanism 'arm': empty>"  # the entry refused is not kept
    bar = m.add_planar_body(name="bar", mass=1.0, inertia=0.1)
    with pytest.raises(ValueError) as refused:
        m.add_actuator("revolute", name="motor", body_b=bar, law={"type": "profile", "profile": value})
    assert str(refused.value) == f"mechanism 'arm': /actuators/0/law/profile: must be a finite number, got {shown}"


def test_what_the_mechanism_holds_besides_its_entries_is_checked_alike():
    m = noether.Mechanism("arm")
    m.add_point_mass(name="mass", mass=1.0, position=[0.0, 0.0])
    with pytest.raises(ValueError) as refused:
        m.add_force("gravity", acceleration=[0, -(10**400)])
    assert str(refused.value) == ("mechanism 'arm': /forces/0/acceleration/1: must be a finite number, got an "
                                  "integer of 401 digits, beyond the largest double (1.8e308)")
    with pytest.raises(ValueError, match=r"^mechanism 'arm': /run/h: must be a finite number, got nan$"):
        noether.run(m, h=float("nan"), t_end=1.0)
    m.conserved_momenta = {"linear": [float("inf"), 0.0]}
    with pytest.raises(ValueError, match=r"^mechanism 'arm': /conserved_momenta/linear/0: must be a finite number, "
                                         r"got inf$"):
        m.build()


def test_an_unknown_body_is_named_with_the_known_ones():
    m = noether.Mechanism("arm")
    m.add_planar_body(name="bar", mass=1.0, inertia=0.1)
    m.add_joint("revolute_planar", name="pivot", body_b="bar7", point_b=[0, 0])
    with pytest.raises(ValueError, match=r"/joints/0/body_b: .*'bar7'.*bar"):
        m.check()


def test_a_value_that_is_no_number_is_a_type_error_before_any_scene():
    m = noether.Mechanism("arm")
    with pytest.raises(TypeError, match=r"^mechanism 'arm': /bodies/0/mass: cannot put a object into a scene"):
        m.add_planar_body(name="bar", mass=object())


def test_a_scenario_and_a_scene_file_give_models(source_dir):
    fourbar = noether.scenario("double-fourbar", damping=0.5)
    from_file = noether.scene_file(source_dir / "examples" / "scenes" / "double_fourbar.json")
    assert fourbar.num_coordinates == from_file.num_coordinates == 30
    assert fourbar.num_multipliers == from_file.num_multipliers == 29
    np.testing.assert_array_equal(fourbar.initial_state().q, from_file.initial_state().q)
    with pytest.raises(ValueError, match="damping"):
        noether.scenario("double-fourbar", damping=-1)
    with pytest.raises(ValueError, match="chain3d"):
        noether.scenario("no-such-scenario")
    assert noether.scenario("chain3d", n=2, joint="revolute").num_coordinates == 24
