"""Shrinks a failing fuzz program to the few builder calls that still fail the same way.

A program is straight-line builder code (``Program.code``), so shrinking is editing lines:

1. keep only the failing result (``return b.build(v7)``), or else as few results as fail;
2. drop every line that the result no longer depends on (sub-computations whole, main
   parameters renumbered, their inputs kept);
3. bypass an op: ``v7 = Tanh(v5)`` goes and ``v5`` takes the place of ``v7`` when it has
   ``v7``'s shape, so only what matters is left; repeat while something changes.

A candidate counts when ``still_fails(candidate)`` says so; the caller decides what "the
same way" is (the same outcome, the same first error line, a mismatch of the same
result). Exactness cannot grow by bypassing: a result the generator marked exact only
ever depends on exact values, so the comparison stays as strict as it was.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from typing import Callable

from tests.fuzz import generator

__all__ = ["Candidate", "shrink", "build_candidate"]

_DEF = re.compile(r"^(\w+) = (.*)$")
_NAME = re.compile(r"\b(v\d+|p\d+|c\d+(?:_[a-z]\w*)?)\b")
_STRING = re.compile(r"\"[^\"]*\"|'[^']*'")
_PARAM = re.compile(r'^(p\d+) = Parameter\(b, (\d+), (.*), "p\d+"\)$')
_SUB_PARAM = re.compile(r"^(c\d+)_p\d+ = Parameter\(")
_OP = re.compile(r"^(v\d+) = (\w+)\((.*)\)$")


@dataclass
class Candidate:
    """Builder code (``return b.build(...)`` last), the inputs by original parameter number
    and the result's comparison records."""

    code: list[str]
    inputs: dict[int, object]
    leaves: list

    def root_names(self) -> list[str]:
        return _NAME.findall(_STRING.sub("", self.code[-1].split("b.build(", 1)[1]))


def _uses(line: str) -> set[str]:
    m = _DEF.match(line)
    rhs = m.group(2) if m else line
    return set(_NAME.findall(_STRING.sub("", rhs)))


def _defined(line: str) -> str | None:
    m = _DEF.match(line)
    return m.group(1) if m else None


def dead_code(code: list[str]) -> list[str]:
    """``code`` without the lines the final ``return`` does not need; a kept sub-builder
    keeps all its parameters (its signature must not change)."""
    needed = _uses(code[-1]) | {"b"}
    kept_builders: set[str] = set()
    keep = [False] * len(code)
    keep[-1] = True
    changed = True
    while changed:
        changed = False
        for i in range(len(code) - 2, -1, -1):
            if keep[i]:
                continue
            name = _defined(code[i])
            sub = _SUB_PARAM.match(code[i])
            if name in needed or (sub and f"{sub.group(1)}_b" in kept_builders):
                keep[i] = changed = True
                needed |= _uses(code[i])
                if name and name.endswith("_b"):
                    kept_builders.add(name)
    return [line for line, k in zip(code, keep, strict=True) if k]


def build_candidate(c: Candidate, namespace: dict | None = None):
    """(computation, args) of ``c``, main parameters renumbered in order; raises what the
    builder raises. ``namespace``: the names the code runs with (default: the generator's)."""
    ns = generator._namespace() if namespace is None else namespace
    args = []
    for line in c.code:
        m = _PARAM.match(line)
        if m:
            name, number, shape = m.groups()
            line = f'{name} = Parameter(b, {len(args)}, {shape}, "{name}")'
            args.append(c.inputs[int(number)])
        if line.startswith("return "):
            line = "__fuzz_result__ = " + line[len("return "):]
        exec(compile(line, "<reduced>", "exec"), ns)
    return ns["__fuzz_result__"], args, ns


def renumbered(c: Candidate) -> list[str]:
    """The code with main parameters numbered 0, 1, ... as ``build_candidate`` builds it."""
    out, n = [], 0
    for line in c.code:
        m = _PARAM.match(line)
        if m:
            line = f'{m.group(1)} = Parameter(b, {n}, {m.group(3)}, "{m.group(1)}")'
            n += 1
        out.append(line)
    return out


def shrink(c: Candidate, still_fails: Callable[[Candidate], bool], failing_leaf: int | None = None,
           budget: int = 60) -> Candidate:
    """The smallest candidate found with at most ``budget`` calls of ``still_fails``."""
    tries = [0]

    def attempt(candidate: Candidate) -> bool:
        if tries[0] >= budget:
            return False
        tries[0] += 1
        try:
            return still_fails(candidate)
        except Exception:  # noqa: BLE001 - a candidate that does not build is not interesting
            return False

    names = c.root_names()
    order = ([failing_leaf] if failing_leaf is not None and failing_leaf < len(names) else []) + [
        k for k in range(len(names)) if k != failing_leaf]
    if len(names) > 1:
        for k in order:
            code = dead_code(c.code[:-1] + [f"return b.build({names[k]})"])
            single = replace(c, code=code, leaves=[c.leaves[k]])
            if attempt(single):
                c = single
                break
    names = c.root_names()
    k = 0
    while len(names) > 1 and k < len(names):  # drop the other results one at a time
        rest = names[:k] + names[k + 1:]
        leaves = c.leaves[:k] + c.leaves[k + 1:]
        fewer = replace(c, code=dead_code(c.code[:-1] + [f"return b.build(Tuple(b, [{', '.join(rest)}]))"]),
                        leaves=leaves)
        if attempt(fewer):
            c, names = fewer, rest
        else:
            k += 1
    c = replace(c, code=dead_code(c.code))
    shapes = _shapes(c)
    changed = True
    while changed and tries[0] < budget:
        changed = False
        for i in range(len(c.code) - 2, -1, -1):
            if i >= len(c.code) - 1:
                continue
            m = _OP.match(c.code[i])
            if not m:
                continue
            name, fn, args = m.groups()
            for operand in sorted(set(_NAME.findall(_STRING.sub("", args))), key=args.find):
                if not re.fullmatch(r"v\d+|p\d+", operand) or shapes.get(operand) != shapes.get(name):
                    continue
                code = c.code[:i] + [re.sub(rf"\b{name}\b", operand, line) for line in c.code[i + 1:]]
                candidate = replace(c, code=dead_code(code))
                if attempt(candidate):
                    c, changed = candidate, True
                    shapes = _shapes(c)
                    break
    return c


def _shapes(c: Candidate) -> dict[str, str]:
    try:
        _, _, ns = build_candidate(c)
    except Exception:  # noqa: BLE001
        return {}
    return {k: str(v.shape) for k, v in ns.items() if hasattr(v, "shape") and re.fullmatch(r"v\d+|p\d+", k)}
