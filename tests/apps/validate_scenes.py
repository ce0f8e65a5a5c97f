"""Validates scene files against docs/scene.schema.json with python3-jsonschema (Draft 2020-12).

usage: validate_scenes.py SCHEMA NOETHER SCRATCH_DIR SCENE_OR_SCENARIO...
A name ending in .json is validated as it is; any other is a scenario, exported with NOETHER first.
Exits 1 naming each file and the first errors when one does not validate.
"""
import json
import pathlib
import subprocess
import sys

import jsonschema


def main():
    schema_path, program, scratch = sys.argv[1:4]
    schema = json.loads(pathlib.Path(schema_path).read_text())
    jsonschema.Draft202012Validator.check_schema(schema)
    validator = jsonschema.Draft202012Validator(schema)
    scratch = pathlib.Path(scratch)
    scratch.mkdir(parents=True, exist_ok=True)
    failures = 0
    for name in sys.argv[4:]:
        if name.endswith(".json"):
            path = pathlib.Path(name)
        else:
            path = scratch / (name + ".json")
            path.write_text(subprocess.run([program, "export", name], check=True, capture_output=True, text=True).stdout)
        errors = list(validator.iter_errors(json.loads(path.read_text())))
        for error in errors[:3]:
            print(f"{path}: {'/'.join(map(str, error.absolute_path))}: {error.message[:300]}")
        failures += bool(errors)
        print(f"{path}: {'valid' if not errors else 'INVALID'}")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
