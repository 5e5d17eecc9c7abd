"""Pipeline specs, parsed: ``parse_pipeline("algsimp{max-iterations=3},O1,fixed-point(cse,dce)")``
gives pass instances and fixed-point groups (the syntax is in :mod:`pipelines.pipeline`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Union

from hlo_mlir.errors import InvalidArgumentError, did_you_mean
from pipelines import registry
from pipelines.pass_base import Pass
from pipelines.presets import PRESETS

__all__ = ["parse_pipeline", "PassNode", "FixedPointNode", "Node", "PipelineSpecError",
           "FIXED_POINT_DEFAULT_ITERATIONS"]

FIXED_POINT_DEFAULT_ITERATIONS = 8


class PipelineSpecError(InvalidArgumentError):
    """A pipeline spec string is malformed or names unknown passes/options."""


@dataclass
class PassNode:
    name: str
    instance: Pass


@dataclass
class FixedPointNode:
    max_iterations: int
    children: list["Node"]


Node = Union[PassNode, FixedPointNode]

_TOKEN = re.compile(r"\s*(?:(?P<name>[A-Za-z0-9_.\-]+)|(?P<punct>[,(){}]))")


class _Parser:
    def __init__(self, spec: str, depth: int = 0):
        self.spec, self.pos, self.depth = spec, 0, depth

    def error(self, message: str) -> PipelineSpecError:
        return PipelineSpecError(f"pipeline spec {self.spec!r} (at offset {self.pos}): {message}")

    def peek(self) -> str | None:
        m = _TOKEN.match(self.spec, self.pos)
        return m.group("name") or m.group("punct") if m else None

    def take(self) -> str:
        m = _TOKEN.match(self.spec, self.pos)
        if not m:
            rest = self.spec[self.pos :].strip()
            if not rest:
                raise self.error("unexpected end of spec.")
            raise self.error(f"unexpected character {rest[0]!r}.")
        self.pos = m.end()
        return m.group("name") or m.group("punct")

    def at_end(self) -> bool:
        return not self.spec[self.pos :].strip()

    def pipeline(self, closing: str | None = None) -> list[Node]:
        nodes: list[Node] = []
        if (closing is None and self.at_end()) or (closing and self.peek() == closing):
            return nodes
        while True:
            nodes.extend(self.element())
            if closing is None and self.at_end():
                return nodes
            tok = self.take()
            if tok == closing:
                self.pos -= 1  # the caller consumes the closing bracket
                return nodes
            if tok != ",":
                raise self.error(f"expected ',' between passes; got {tok!r}.")

    def options(self) -> dict[str, str]:
        if self.peek() != "{":
            return {}
        start = self.spec.index("{", self.pos)
        end = self.spec.find("}", start)
        if end < 0:
            raise self.error("unclosed '{' in pass options.")
        self.pos = end + 1
        out = {}
        for item in filter(None, re.split(r"[\s,]+", self.spec[start + 1 : end])):
            key, eq, value = item.partition("=")
            if not eq or not key or not value:
                raise self.error(f"pass options are key=value; got {item!r}.")
            out[key] = value
        return out

    def element(self) -> list[Node]:
        name = self.take()
        if name in ",(){}":
            raise self.error(f"expected a pass name; got {name!r}.")
        options = self.options()
        if name == "fixed-point":
            return [self.fixed_point(options)]
        if name in PRESETS:
            if options:
                raise self.error(f"preset '{name}' takes no options.")
            if self.depth > 8:
                raise self.error(f"presets nest too deeply at '{name}'.")
            return _Parser(PRESETS[name].spec, self.depth + 1).pipeline()
        try:
            cls = registry.get(name)
        except InvalidArgumentError:
            raise self.error(
                registry.unknown_pass_message(name, {"presets": list(PRESETS), "group": ["fixed-point"]})
            ) from None
        try:
            return [PassNode(cls.name, cls.from_options(options))]  # an alias runs as its pass
        except InvalidArgumentError as e:
            raise self.error(e.message) from None

    def fixed_point(self, options: dict[str, str]) -> FixedPointNode:
        limit = FIXED_POINT_DEFAULT_ITERATIONS
        for key, value in options.items():
            if key != "max-iterations":
                raise self.error(f"fixed-point has no option '{key}'; valid options: max-iterations"
                                 f"{did_you_mean(key, ['max-iterations']) or '.'}")
            try:
                limit = int(value, 0)
            except ValueError:
                raise self.error(
                    f"option 'max-iterations' of fixed-point requires an integer; got {value!r}."
                ) from None
            if limit < 1:
                raise self.error(
                    f"option 'max-iterations' of fixed-point requires a value >= 1; got {limit}."
                )
        if self.take() != "(":
            raise self.error("fixed-point requires a parenthesized group: fixed-point(algsimp,cse).")
        children = self.pipeline(")")
        self.take()
        return FixedPointNode(limit, children)


def parse_pipeline(spec: str) -> list[Node]:
    """Parses a pipeline spec into pass instances and fixed-point groups."""
    if not isinstance(spec, str):
        raise PipelineSpecError(f"a pipeline spec must be a string; got {type(spec).__name__}.")
    return _Parser(spec).pipeline()
