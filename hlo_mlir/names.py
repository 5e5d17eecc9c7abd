"""Instruction names: the ``hlo.name`` attribute of each operation of an HloModule.

Every instruction has a module-wide unique name, as in XLA. A new ``HloModule``
names the instructions that have none (from their ``NameLoc`` where they carry
one, ``loc("jit(f)/add")`` -> ``add``, else from the op kind), with XLA's
``NameUniquer`` style: ``add``, ``add.1``, ``add.2``. Instructions created later
(by a pass, say) are unnamed until :meth:`HloModule.uniquify_names` runs.
Names survive bytecode round trips, and text round trips except in one place:
StableHLO's compact form of a reduce (``applies stablehlo.add``) does not print its
reducer op's attributes, so that op is renamed when the text is parsed again.
"""

from __future__ import annotations

import collections
import re
from typing import Iterable

from iree.compiler import ir

from hlo_mlir import ir_access
from hlo_mlir.call_graph import nested_instructions, region_instructions

__all__ = ["NAME_ATTR", "NameUniquer", "name_of", "base_name", "all_instructions", "name_problems",
           "assign_names"]

NAME_ATTR = "hlo.name"

_SUFFIX = re.compile(r"^(.*)\.(\d+)$")


class NameUniquer:
    """XLA's NameUniquer with separator ".": ``add``, ``add.1``, ``add.2``, ..."""

    def __init__(self, used: Iterable[str] = ()):
        self._used = set(used)
        self._next: dict[str, int] = {}

    def get_unique_name(self, base: str) -> str:
        if base not in self._used:
            self._used.add(base)
            return base
        m = _SUFFIX.match(base)
        root = m.group(1) if m else base
        n = self._next.get(root, 1)
        while f"{root}.{n}" in self._used:
            n += 1
        self._next[root] = n + 1
        name = f"{root}.{n}"
        self._used.add(name)
        return name


def name_of(op: ir.Operation) -> str | None:
    return ir_access.optional_string_attr(op, NAME_ATTR)


def base_name(op: ir.Operation) -> str:
    """A name for an unnamed instruction: its NameLoc's last path part, else its op kind."""
    loc = op.location
    if isinstance(loc, ir.NameLoc):
        text = re.sub(r"[^A-Za-z0-9_.\-]", "_", loc.name_str.rsplit("/", 1)[-1]).strip("._")
        if text:
            return text
    return op.name.rsplit(".", 1)[-1]


def all_instructions(module: ir.Module) -> list[tuple[str, ir.Operation]]:
    """(computation name, instruction) for every instruction, in module pre-order."""
    return [(ir_access.symbol_name(f), inner) for f in ir_access.functions(module)
            for op in region_instructions(f.regions[0]) for inner in (op, *nested_instructions(op))]


def name_problems(module: ir.Module) -> list[str]:
    """What keeps the names from being unique: repeated computation or instruction names,
    unnamed instructions (``HloModule.verify_unique_names`` raises with them)."""
    problems = []
    names = collections.Counter(ir_access.symbol_name(f) for f in ir_access.functions(module))
    for name, count in names.items():
        if count > 1:
            problems.append(f"computation name {name!r} {count} times")
    instructions = all_instructions(module)
    counts = collections.Counter(name_of(op) for _, op in instructions)
    for instruction, count in counts.items():
        if instruction is not None and count > 1:
            problems.append(f"instruction name {instruction!r} {count} times")
    unnamed = [(comp, op) for comp, op in instructions if name_of(op) is None]
    if unnamed:
        comp, op = unnamed[0]
        problems.append(f"{len(unnamed)} unnamed instruction(s) (first: {op.name} in {comp!r}; "
                        "uniquify_names() names them)")
    return problems


def assign_names(module: ir.Module, rename_duplicates: bool) -> None:
    """Names every unnamed instruction, and with ``rename_duplicates`` every duplicate but
    the first (in module order)."""
    kept: set[str] = set()
    pending = []
    for _, op in all_instructions(module):
        name = name_of(op)
        if name is None or (rename_duplicates and name in kept):
            pending.append(op)
        else:
            kept.add(name)
    uniquer = NameUniquer(kept)
    with module.context:
        for op in pending:
            base = name_of(op) or base_name(op)  # a duplicate keeps its name as the base
            op.attributes[NAME_ATTR] = ir.StringAttr.get(uniquer.get_unique_name(base))
