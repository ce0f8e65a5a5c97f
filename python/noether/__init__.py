"""Noether from Python: mechanisms, steppers, measures and runs (docs/python.md).

    import noether
    m = noether.Mechanism("pendulum")
    bar = m.add_planar_body(name="bar", mass=1.0, inertia=1 / 12, position=[0.5, 0.0])
    m.add_joint("revolute_planar", name="pivot", point_a=[0, 0], body_b=bar, point_b=[-0.5, 0])
    m.add_gravity(acceleration=[0, -9.81])
    model = m.build()
    stepper = noether.Stepper(model, "livens-em")
    state = model.initial_state()
    stepper.initialize(state)
    stepper.advance(state, 0.01, 500)

    result = noether.run("double-fourbar", t_end=1, out="out/dfb")   # as `noether run`
"""

from . import _noether, _settings
from ._mechanism import Body, Mechanism
from ._noether import (
    Error,
    NewtonError,
    State,
    StepperRefusal,
    StepReport,
    constraint_values,
    joint_reactions,
    kinetic_energy,
    momenta,
    potential_energy,
    project,
    steppers,
    velocity_constraint_values,
)
from ._run import RunResult, read_timeseries, run

__all__ = [
    "Body", "Error", "Mechanism", "Model", "NewtonError", "RunResult", "State", "Stepper", "StepperRefusal",
    "StepReport", "constraint_values", "joint_reactions", "kinetic_energy", "momenta", "potential_energy",
    "project", "read_timeseries", "run", "run_settings", "scenario", "scene_file", "steppers",
    "velocity_constraint_values",
]

Model = _noether.Model


def scenario(name, **parameters):
    """The Model of a built-in scenario (`noether list`) with its parameters (numbers, or a
    choice's name), checked as `--set` checks them."""
    return Model.from_scenario(name, parameters)


def scene_file(path):
    """The Model of a scene file."""
    return Model.from_scene_file(path)


def _model_of(source):
    if isinstance(source, Mechanism):
        return source.build()
    if isinstance(source, Model):
        return source
    raise TypeError(f"expects a Model or a Mechanism, got {type(source).__name__}")


_STEPPER_SETTINGS = tuple(_noether.stepper_settings())


class Stepper(_noether.Stepper):
    """A stepper of the registry (noether.steppers()) on a Model (a Mechanism is built first).

    settings: the run settings a stepper takes, by name or option as noether.run takes them
    (newton_tolerance=1e-12 or newton_tol=1e-12, solver="umfpack", refine_depth=4, ...);
    parameters: the stepper's own ({"S": 3} for evi). A refusal of the system raises
    noether.StepperRefusal, a bad value ValueError. Methods: initialize(state), step(state, h),
    advance(state, h, n), conserved_energy(state); the model it steps is .model."""

    def __init__(self, model, name="livens-em", parameters=None, **settings):
        texts, _ = _settings.to_texts(settings, allowed=_STEPPER_SETTINGS)
        super().__init__(_model_of(model), name, texts, dict(parameters or {}))


def run_settings():
    """The rows of the CLI's run settings' table: name, flag, kind, choices, default, help; each
    is a keyword of noether.run under its name and under its flag's name."""
    return [dict(row) for row in _settings.ROWS]
