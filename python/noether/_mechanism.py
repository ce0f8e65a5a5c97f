"""Mechanisms built in Python: a scene (docs/scenes.md) assembled by keyword arguments.

Every ``add_*`` method takes the keys of its entry in a scene file as keyword arguments (a body's
``mass``, ``inertia``, ``position``; a joint's ``body_a``, ``point_a``, ...), with numpy arrays or
sequences for vectors and matrices and a Body (or its name) for a body. The scene reader checks
the whole mechanism when it is used (``build()``, ``noether.run``, ``check()``): its errors are
ValueErrors that name the mechanism, the entry's JSON path and the value at fault, as for a scene
file ("mechanism 'arm': /joints/1/body_b: no body named 'bar7'; bodies are ..."). What no scene can
hold is refused by the ``add_*`` call itself, in the same form: a value that is no number, text or
body (TypeError), a NaN or infinity ("mechanism 'arm': /bodies/0/position/0: must be a finite
number, got nan").
"""

import json
import math
import numbers
import os

import numpy as np

from . import _noether

# h and t_end of the scene a Model is built from: the scene format requires a run, a Model has
# none (any values the reader accepts).
_MODEL_RUN = {"h": 1.0, "t_end": 0.0}


class Body:
    """A body of a Mechanism: pass it wherever an entry names a body."""

    __slots__ = ("name",)

    def __init__(self, name):
        self.name = name

    def __repr__(self):
        return f"Body({self.name!r})"

    def __str__(self):
        return self.name


def _pointer_token(key):
    """key as a JSON Pointer writes it ("~" as "~0", "/" as "~1"), as the scene reader's paths do."""
    return key.replace("~", "~0").replace("/", "~1")


def _json_value(value, where):
    """value in the scene's JSON form: arrays and sequences as lists, bodies by name. `where` names
    the value in an error ("mechanism 'arm': /bodies/0"): a number that is not finite, or an integer
    beyond the doubles, is a ValueError naming its path, since JSON holds neither and the scene
    reader would blame the generated text ("line 38, column 20"); any other object a TypeError."""
    if isinstance(value, Body):
        return value.name
    if isinstance(value, np.ndarray):
        return _json_value(value.tolist(), where)
    if isinstance(value, dict):
        return {str(k): _json_value(v, f"{where}/{_pointer_token(str(k))}")
                for k, v in value.items() if v is not None}
    if isinstance(value, (list, tuple)):
        return [_json_value(v, f"{where}/{i}") for i, v in enumerate(value)]
    if isinstance(value, (bool, str)) or value is None:
        return value
    if isinstance(value, numbers.Integral):
        try:
            float(value)
        except OverflowError:
            raise ValueError(f"{where}: must be a finite number, got an integer of {len(str(abs(int(value))))} "
                             "digits, beyond the largest double (1.8e308)") from None
        return int(value)
    if isinstance(value, numbers.Real):
        if not math.isfinite(value):
            raise ValueError(f"{where}: must be a finite number, got {float(value)!r}")
        return float(value)
    if isinstance(value, os.PathLike):
        return os.fspath(value)
    raise TypeError(f"{where}: cannot put a {type(value).__name__} into a scene: give numbers, arrays, texts or "
                    "bodies")


class Mechanism:
    """A mechanism as a scene: bodies, inertias, joints, constraints, forces, actuators, probes, invariants.

    >>> m = Mechanism("pendulum")
    >>> bar = m.add_planar_body(name="bar", mass=1.0, inertia=1 / 12, position=[0.5, 0.0])
    >>> m.add_joint("revolute_planar", name="pivot", point_a=[0, 0], body_b=bar, point_b=[-0.5, 0])
    >>> m.add_gravity(acceleration=[0, -9.81])
    >>> m.add_probe(name="tip", body=bar, point=[0.5, 0])
    """

    _LISTS = ("bodies", "inertias", "joints", "constraints", "drives", "forces", "actuators", "probes", "invariants")

    def __init__(self, name="mechanism", description=""):
        self.name = name
        self.description = description
        self._entries = {key: [] for key in self._LISTS}
        self.conserved_momenta = None

    # ---- bodies --------------------------------------------------------------------------
    def add_body(self, type, **keys):
        """A body of a scene's "type" (rigid, planar, point_mass, spherical_point_mass,
        coordinates) with its keys; returns its Body."""
        self._add("bodies", {"type": type, **keys})
        return Body(keys.get("name"))

    def add_rigid_body(self, **keys):
        """name, mass, inertia (3 x 3 or principal moments), center_of_mass, position, rotation or
        quaternion or axis_angle, velocity, angular_velocity (docs/scenes.md)."""
        return self.add_body("rigid", **keys)

    def add_planar_body(self, **keys):
        """name, mass, inertia, center_of_mass, position, angle, velocity, angular_velocity."""
        return self.add_body("planar", **keys)

    def add_point_mass(self, **keys):
        """name, mass, position (2 or 3 entries), velocity."""
        return self.add_body("point_mass", **keys)

    # ---- elements ------------------------------------------------------------------------
    def add_inertia(self, **keys):
        """A mass matrix over the listed bodies' coordinates: name, bodies, matrix."""
        self._add("inertias", keys)

    def add_joint(self, type, **keys):
        """A joint of a library kind (noether.joint_kinds: spherical, revolute, ...,
        revolute_planar) with the keys its kind takes: name, body_a (absent: the ground), point_a,
        axis_a, normal_a, body_b, point_b, ..., and its numbers (distance: length)."""
        self._add("joints", {"type": type, **keys})

    def add_constraint(self, type, **keys):
        """A quadratic or distance_power constraint (docs/scenes.md)."""
        self._add("constraints", {"type": type, **keys})

    def add_drive(self, type, **keys):
        """A prescribed motion (docs/scenes.md, "drives"): type "revolute" (its angle a profile of
        time), "prismatic" (its slide) or "point" (body_b's point follows profile_x, profile_y, ...),
        with name, body_a (absent: the ground), point_a, axis_a, ..., body_b, point_b, ... as a joint's
        sides and the profile, a dict ({"type": "ramp", "rate": ..., "offset": ...}, "sine", "table",
        ...). A driven joint replaces the plain joint of its kind. Every stepper but sem-vi takes
        drives; sem-vi refuses them."""
        self._add("drives", {"type": type, **keys})

    def add_force(self, type, **keys):
        """A force element: gravity, spring, damper, rotational_spring, rotational_damper, force,
        torque, polynomial, damping_matrix, with its keys."""
        self._add("forces", {"type": type, **keys})

    def add_gravity(self, **keys):
        """acceleration, and bodies (default: every body)."""
        self.add_force("gravity", **keys)

    def add_spring(self, **keys):
        self.add_force("spring", **keys)

    def add_damper(self, **keys):
        self.add_force("damper", **keys)

    def add_actuator(self, type, **keys):
        """A motor along a joint coordinate (docs/scenes.md, "actuators"): type "revolute" (a torque
        about the hinge angle: name, body_a, u_a, w_a, body_b, u_b, zero_angle) or "prismatic" (a force
        along the slide: name, body_a, point_a, axis_a, body_b, point_b), and law, a dict:
        {"type": "profile", "profile": ...} or {"type": "pd", "kp": ..., "kd": ..., "reference": ...}.
        Its probes actuator:<name> (and tracking_error:<name> for pd) are columns of the run.
        Every stepper but sem-vi takes actuators; sem-vi refuses them."""
        self._add("actuators", {"type": type, **keys})

    def add_probe(self, **keys):
        """A point whose position the run records: name, body, point (columns NAME.x, ...)."""
        self._add("probes", keys)

    def add_invariant(self, **keys):
        """A momentum map the run monitors: type (linear, angular), name, bodies."""
        self._add("invariants", keys)

    # ---- the scene -----------------------------------------------------------------------
    def scene(self, **run):
        """The scene file's JSON object, with `run` as its "run" object (h and t_end required by
        the format; the other keys of docs/scenes.md's run object may follow)."""
        document = {"noether_scene": 1, "name": self.name}
        if self.description:
            document["description"] = self.description
        for key in self._LISTS:
            if self._entries[key]:
                document[key] = self._entries[key]
        if self.conserved_momenta is not None:
            momenta = f"{self.origin()}: /conserved_momenta"
            document["conserved_momenta"] = _json_value(self.conserved_momenta, momenta)
        document["run"] = _json_value(run, f"{self.origin()}: /run")
        return document

    def to_json(self, **run):
        """scene(**run) as JSON text; numbers as repr writes them, which read back as the same doubles."""
        return json.dumps(self.scene(**run), indent=2)

    def write_scene(self, path, **run):
        """Writes to_json(**run) to path: a scene file `noether run` runs."""
        with open(path, "w", encoding="utf-8") as f:
            f.write(self.to_json(**run) + "\n")

    def origin(self):
        """How the scene reader's messages name this mechanism."""
        return f"mechanism {self.name!r}"

    def build(self):
        """The Model of this mechanism (every entry checked by the scene reader)."""
        return _noether.Model.from_scene_text(self.to_json(**_MODEL_RUN), self.origin())

    def check(self):
        """Raises the scene reader's ValueError for the first entry it refuses; returns self."""
        self.build()
        return self

    def _add(self, key, entry):
        """Appends entry to the list `key`, refusing what no scene can hold (_json_value) at once."""
        entries = self._entries[key]
        entries.append(_json_value(entry, f"{self.origin()}: /{key}/{len(entries)}"))

    def __repr__(self):
        counts = ", ".join(f"{len(v)} {k}" for k, v in self._entries.items() if v)
        return f"<noether.Mechanism {self.name!r}: {counts or 'empty'}>"
