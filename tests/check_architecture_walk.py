#!/usr/bin/env python3
"""docs/architecture.md's "One Newton iteration, file by file" against the tree.

Each numbered item names a place: a file, or a header and its source ("`X.hpp` and `.cpp`"). The
check fails when a named file does not exist, when the walk has more than eight places, or when a
named file is not reached from the scheme file the walk follows (steppers/livens_em.cpp) through
the project's includes, where reaching a header also reaches its source's includes (a merged or
renamed file that the doc still names is found here).

Usage: check_architecture_walk.py SOURCE_DIR
"""
import re
import sys
from pathlib import Path

MAX_PLACES = 8
START = "steppers/livens_em.cpp"
ITEM = re.compile(r"^(\d+)\. `([^`]+)`( and `\.cpp`)?")
INCLUDE = re.compile(r'^#include <noether/([^>]+)>', re.M)


def walk_places(doc):
    section = doc.split("### One Newton iteration, file by file", 1)[1].split("\n### ", 1)[0]
    places = []
    for line in section.splitlines():
        m = ITEM.match(line)
        if m:
            files = [m.group(2)]
            if m.group(3):
                files.append(str(Path(m.group(2)).with_suffix(".cpp")))
            places.append(files)
    return places


def reached(root, start):
    seen, todo = set(), [start]
    while todo:
        path = todo.pop()
        if path in seen or not (root / path).is_file():
            continue
        seen.add(path)
        todo += INCLUDE.findall((root / path).read_text())
        if path.endswith(".hpp"):
            todo.append(str(Path(path).with_suffix(".cpp")))
    return seen


def main():
    root = Path(sys.argv[1])
    places = walk_places((root / "docs/architecture.md").read_text())
    errors = []
    if not places:
        errors.append("no numbered places found in the walk")
    if len(places) > MAX_PLACES:
        errors.append(f"the walk has {len(places)} places, more than {MAX_PLACES}")
    reachable = reached(root, START)
    for files in places:
        for f in files:
            if not (root / f).is_file():
                errors.append(f"{f}: named by the walk, not in the tree")
            elif f not in reachable:
                errors.append(f"{f}: named by the walk, not reached from {START} through includes")
    for e in errors:
        print("docs/architecture.md:", e)
    print(f"{len(places)} places, {sum(len(f) for f in places)} files")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
