"""The run settings as keyword arguments: each row of the CLI's table (apps/run_settings.cpp,
noether.run_settings()) is a keyword under its name (``t_end``, ``newton_tolerance``,
``output_directory``) and under its option's name spelled as a Python identifier (``t``,
``newton_tol``, ``out``). Values go to the row's own conversion as the text the option would take,
so they are checked as on the command line, with its messages (which name the option, ``--h``)."""

import math
import numbers
import os

from . import _noether

ROWS = tuple(_noether.run_settings())
_BY_KEYWORD = {}
for _row in ROWS:
    _BY_KEYWORD[_row["name"]] = _row
    _BY_KEYWORD[_row["flag"].lstrip("-").replace("-", "_")] = _row


def _number_text(keyword, value):
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise TypeError(f"{keyword} expects a number, got {type(value).__name__}")
    if isinstance(value, numbers.Integral):
        return str(int(value))
    return repr(float(value))  # the shortest text that reads back as the same double


def _text(keyword, row, value):
    """The text the row's option would take for value."""
    if isinstance(value, str):
        return value
    kind = row["kind"]
    if kind in ("number", "whole"):
        return _number_text(keyword, value)
    if kind == "choice" and isinstance(value, bool) and set(row["choices"]) == {"on", "off"}:
        return "on" if value else "off"
    if kind == "text" and isinstance(value, os.PathLike):
        return os.fspath(value)
    accepted = " or ".join(row["choices"]) if kind == "choice" else "a text"
    raise TypeError(f"{keyword} expects {accepted}, got {type(value).__name__}")


def _assignments(keyword, value):
    """A family setting (``set``: scenario and stepper parameters) as --set's key=value texts."""
    if not isinstance(value, dict):
        raise TypeError(f"{keyword} expects a dict of parameters, got {type(value).__name__}")
    out = []
    for key, v in value.items():
        text = v if isinstance(v, str) else _number_text(f"{keyword}[{key!r}]", v)
        out.append(f"{key}={text}")
    return out


def keyword_names():
    """Every keyword noether.run takes, by the row it sets."""
    return dict(_BY_KEYWORD)


def to_texts(settings, allowed=None):
    """The settings' texts by row name, and --set's assignments. A keyword not in the table, one
    outside `allowed` (row names), or two keywords of one row raise TypeError."""
    texts, assignments, given = {}, [], {}
    for keyword, value in settings.items():
        row = _BY_KEYWORD.get(keyword)
        if row is None or (allowed is not None and row["name"] not in allowed):
            known = sorted(k for k, r in _BY_KEYWORD.items() if allowed is None or r["name"] in allowed)
            raise TypeError(f"unexpected keyword argument {keyword!r}; the settings are {', '.join(known)}")
        name = row["name"]
        if name in given:
            raise TypeError(f"{keyword} and {given[name]} are one setting ({row['flag']}); give it once")
        given[name] = keyword
        if value is None:
            continue
        if row["kind"] == "family":
            assignments += _assignments(keyword, value)
        else:
            texts[name] = _text(keyword, row, value)
    return texts, assignments


def is_finite_number(value):
    return isinstance(value, numbers.Real) and not isinstance(value, bool) and math.isfinite(value)
