#!/usr/bin/python3
"""Checks the figures of `noether plot`: check_plots.py PLOTS_DIR NAME...

Each NAME.svg must parse as XML (an <svg> root) and draw a path or polyline; each NAME.png must
start with the PNG signature, hold an IHDR of a plausible size (200 to 4000 pixels a side) and
more than 2 KB; PLOTS_DIR must hold no other figure and no temporary file.
"""
import os
import struct
import sys
import xml.etree.ElementTree as ET

SVG = "{http://www.w3.org/2000/svg}"


def check_svg(path):
    root = ET.parse(path).getroot()
    if root.tag != SVG + "svg":
        return f"{path}: the root element is {root.tag}, not svg"
    if not any(True for tag in ("path", "polyline") for _ in root.iter(SVG + tag)):
        return f"{path}: no path or polyline"
    return None


def check_png(path):
    with open(path, "rb") as f:
        data = f.read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        return f"{path}: no PNG signature"
    if data[12:16] != b"IHDR":
        return f"{path}: the first chunk is not IHDR"
    width, height = struct.unpack(">II", data[16:24])
    if not (200 <= width <= 4000 and 200 <= height <= 4000):
        return f"{path}: implausible size {width} x {height}"
    if len(data) < 2048:
        return f"{path}: only {len(data)} bytes"
    return None


def main():
    plots, names = sys.argv[1], sys.argv[2:]
    failures = []
    for name in names:
        for check, extension in ((check_svg, ".svg"), (check_png, ".png")):
            path = os.path.join(plots, name + extension)
            try:
                failure = check(path)
            except (OSError, ET.ParseError) as e:
                failure = f"{path}: {e}"
            if failure:
                failures.append(failure)
    expected = {n + e for n in names for e in (".svg", ".png")} | {"plot.gp", "plot_data.tsv"}
    found = set(os.listdir(plots))
    if found != expected:
        failures.append(f"{plots} holds {sorted(found)}, expected {sorted(expected)}")
    for f in failures:
        print("FAIL:", f)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
