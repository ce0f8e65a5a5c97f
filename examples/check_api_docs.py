#!/usr/bin/python3
"""Checks the C++ API's documents against the code (CTest example.api_docs):

1. Every ```cpp block of README.md and docs/api.md is a run of consecutive lines of a program in
   examples/ (compared without their common indentation), so every snippet is compiled and run by
   the tests of those programs; every ```json block is likewise a part of a scene file in
   examples/scenes/, which the tests run; every ```python block of README.md and docs/python.md a
   part of a program in examples/python/, which the Python suite runs (test_examples.py).
2. Every header of the library's layers is in <noether/noether.hpp> (directly or through the
   headers it includes) or named in docs/api.md's section "What the umbrella header leaves out",
   and every header named there exists and is not in the umbrella.

    python3 examples/check_api_docs.py SOURCE_DIR
"""
import re
import sys
from pathlib import Path

LAYERS = ["engine", "bodies", "joints", "solvers", "steppers", "apps/model", "apps/mechanisms"]
LEFT_OUT_SECTION = "## What the umbrella header leaves out"


def dedented(lines):
    lines = [line.rstrip() for line in lines]
    indents = [len(line) - len(line.lstrip()) for line in lines if line.strip()]
    cut = min(indents, default=0)
    return [line[cut:] for line in lines]


def blocks(text, language):
    return [dedented(block.split("\n")) for block in re.findall(rf"```{language}\n(.*?)\n```", text, re.S)]


def is_excerpt(block, lines):
    n = len(block)
    return any(dedented(lines[i:i + n]) == block for i in range(len(lines) - n + 1))


def check_snippets(root, errors):
    examples = root / "examples"
    sources = {"cpp": (sorted(examples.rglob("*.cpp")), "program of examples/", ["README.md", "docs/api.md"]),
               "json": (sorted(examples.glob("scenes/*.json")), "scene of examples/scenes/", ["README.md", "docs/api.md"]),
               "python": (sorted(examples.glob("python/*.py")), "program of examples/python/",
                          ["README.md", "docs/python.md"])}
    for language, (paths, what, documents) in sources.items():
        files = [path.read_text().split("\n") for path in paths]
        for document in documents:
            for k, block in enumerate(blocks((root / document).read_text(), language), start=1):
                if not any(is_excerpt(block, lines) for lines in files):
                    errors.append(f"{document}: {language} block {k} (starting {block[0]!r}) is in no {what}")


def umbrella_closure(root):
    seen, todo = set(), ["noether.hpp"]
    while todo:
        header = todo.pop()
        if header in seen:
            continue
        seen.add(header)
        path = root / "include" / "noether" / header
        todo += re.findall(r"#include <noether/([^>]+)>", path.read_text())
    return seen


def check_headers(root, errors):
    included = umbrella_closure(root)
    public = {str(p.relative_to(root)) for layer in LAYERS for p in (root / layer).rglob("*.hpp")}
    api = (root / "docs" / "api.md").read_text()
    if LEFT_OUT_SECTION not in api:
        errors.append(f"docs/api.md has no section {LEFT_OUT_SECTION!r}")
        return
    section = api.split(LEFT_OUT_SECTION, 1)[1].split("\n## ", 1)[0]
    named = set(re.findall(r"`((?:engine|bodies|joints|solvers|steppers|apps)/[\w/]+\.hpp)`", section))
    for header in sorted(public - included - named):
        errors.append(f"{header}: neither in <noether/noether.hpp> nor named in docs/api.md as left out")
    for header in sorted(named - public):
        errors.append(f"docs/api.md names {header} as left out, but there is no such header")
    for header in sorted(named & included):
        errors.append(f"docs/api.md names {header} as left out, but <noether/noether.hpp> includes it")


def main():
    root = Path(sys.argv[1]) if len(sys.argv) > 1 else Path(__file__).resolve().parent.parent
    errors = []
    check_snippets(root, errors)
    check_headers(root, errors)
    for error in errors:
        print(error)
    print(f"{len(errors)} problems" if errors else "the snippets and the umbrella header agree with the code")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
