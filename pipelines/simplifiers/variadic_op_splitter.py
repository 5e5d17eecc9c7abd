"""Variadic op splitter (spec 004: Variadic op splitter; XLA ``VariadicOpSplitter``).

A ``concatenate`` of more than ``max-operands`` operands (XLA: 128, the GPU kernel
parameter space) becomes a tree of concatenates of at most ``max-operands`` each::

    %r = stablehlo.concatenate %a0, %a1, %a2, %a3, %a4, dim = 0   (max-operands = 2)

becomes ::

    %c0 = stablehlo.concatenate %a0, %a1, dim = 0
    %c1 = stablehlo.concatenate %a2, %a3, dim = 0
    %c2 = stablehlo.concatenate %c0, %c1, %a4, dim = 0   -> ... until one is left

Each round concatenates consecutive groups of ``max-operands`` operands; a last group
that is not full is carried to the next round (XLA's SplitConcatenate), so the result
holds the operands in their order: exact for every element type. Concatenates of
dynamic shapes or non-XLA element types are left alone.
"""

from __future__ import annotations

import dataclasses
from typing import Sequence

from iree.compiler import ir

from dialect_ops.slicing import concatenate
from hlo_mlir.errors import InvalidArgumentError
from hlo_mlir.ir_access import int_attr
from pipelines.matchers import static_dims, xla_arrays
from pipelines.pass_base import ExpanderPass
from pipelines.registry import register

__all__ = ["VariadicOpSplitter", "split_rounds"]


def split_rounds(n: int, limit: int) -> list[list[int]]:
    """The group sizes of each round that reduces ``n`` operands to one concatenate of at
    most ``limit`` operands per op (a group of 1 is carried, not concatenated)."""
    rounds = []
    while n > 1:
        groups, offset = [], 0
        while offset < n:
            if offset > 0 and offset + limit > n:
                groups.extend([1] * (n - offset))  # carried to the next round
                break
            groups.append(min(limit, n - offset))
            offset += limit
        rounds.append(groups)
        n = len(groups)
    return rounds


@register
@dataclasses.dataclass
class VariadicOpSplitter(ExpanderPass):
    """Split concatenates of more than max-operands operands into a tree of concatenates."""

    name = "variadic-op-splitter"
    acts_on = frozenset({"stablehlo.concatenate"})
    max_operands: int = dataclasses.field(
        default=128, metadata={"help": "the most operands one concatenate keeps (at least 2)"})

    def __post_init__(self):
        if self.max_operands < 2:
            raise InvalidArgumentError(
                f"variadic-op-splitter requires max-operands >= 2; got {self.max_operands}.")

    def matches(self, op) -> bool:
        values = [*op.operands, *op.results]
        return (op.operation.name == "stablehlo.concatenate" and len(op.operands) > self.max_operands
                and xla_arrays(values) and all(static_dims(v) is not None for v in values))

    def rule(self, op) -> str:
        return "split-concatenate"

    def expand(self, op) -> Sequence[ir.Value]:
        dimension = int_attr(op, "dimension")
        values = list(op.operands)
        for groups in split_rounds(len(values), self.max_operands):
            out, offset = [], 0
            for size in groups:
                part = values[offset:offset + size]
                out.append(part[0] if size == 1 else concatenate(part, dimension))
                offset += size
            values = out
        return values
