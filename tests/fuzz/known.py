"""Documented defects of the pinned IREE that the fuzzer reports as ``known``, not as findings.

An entry belongs here only when docs/iree-defects.md lists the defect and a test pins it
down (the entry names both); ``match(program, result)`` recognizes it by signature: the
ops of the program and what went wrong. ``--no-known`` turns the list off (every such
program is then a finding again). An empty list is the goal.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

__all__ = ["Known", "KNOWN", "match"]


@dataclass(frozen=True)
class Known:
    name: str
    doc: str  # the row of docs/iree-defects.md
    test: str  # the test that pins it down
    signature: Callable  # (program, result) -> bool


KNOWN: list[Known] = []


def match(program, result) -> str:
    """The name of the known defect ``result`` is an instance of, or ""."""
    for known in KNOWN:
        if known.signature(program, result):
            return f"known defect {known.name} ({known.doc}; {known.test})"
    return ""
