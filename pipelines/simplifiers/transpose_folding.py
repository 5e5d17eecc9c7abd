"""Transpose folding (spec 004: Transpose folding; XLA ``transpose_folding.cc``).

A ``transpose`` that feeds a ``dot_general`` or ``convolution`` operand folds into the
op's dimension numbers, so the op reads the transpose's operand directly::

    %t = stablehlo.transpose %x, dims = [1, 0] : (tensor<4x3xf32>) -> tensor<3x4xf32>
    %r = stablehlo.dot_general %t, %y, contracting_dims = [1] x [0]
        : (tensor<3x4xf32>, tensor<4x5xf32>) -> tensor<3x5xf32>

becomes ::

    %r = stablehlo.dot_general %x, %y, contracting_dims = [0] x [0]
        : (tensor<4x3xf32>, tensor<4x5xf32>) -> tensor<3x5xf32>

Dimension ``d`` of ``transpose(x, perm)`` is dimension ``perm[d]`` of ``x``, so each
contracting and batch dimension ``d`` becomes ``perm[d]`` (convolution: every input or
kernel dimension number). Conditions:

- dot: the transpose is not the identity (algsimp removes those) and keeps the order of
  the operand's free dimensions (neither contracting nor batch): a dot's result lists
  them in operand order, which dimension numbers cannot change. XLA's default folds
  only row/column transposes (batch dimensions in place, one contracting and one free
  dimension) of dots without a rank-1 operand, for its GEMM kernels: ``row-column-only``
  keeps to that;
- convolution (``fold-convolutions``): always, as its dimension numbers name every
  input and kernel dimension;
- static shapes of XLA element types, and operands of one type (our shape rule's).

A chain of transposes folds one at a time while each keeps the order. A folded
transpose left without users is erased (XLA's ReplaceInstruction does the same); one
with other users stays.
"""

from __future__ import annotations

import dataclasses
from dataclasses import replace
from typing import Any, Sequence

from iree.compiler import ir

from hlo_mlir.ir_access import int_array
from pipelines.contractions import (
    conv_dims,
    dot_dims,
    free_dims,
    rebuildable,
    rebuilt_convolution,
    rebuilt_dot,
)
from pipelines.matchers import known_dims, producer
from pipelines.pass_base import ExpanderPass
from pipelines.registry import register

__all__ = ["TransposeFolding", "dot_foldable"]

_SIDES = ("lhs", "rhs")


def _permutation(value: ir.Value) -> list[int] | None:
    """The permutation of the non-identity transpose defining ``value``, or None."""
    op = producer(value, "stablehlo.transpose")
    if op is None:
        return None
    perm = int_array(op, "permutation")
    return None if perm == list(range(len(perm))) else perm


def dot_foldable(perm: Sequence[int], contracting: Sequence[int], batch: Sequence[int],
                 row_column_only: bool = False) -> bool:
    """Whether a dot operand ``transpose(x, perm)`` with these ``contracting`` and ``batch``
    dimensions folds: the free dimensions keep their order in ``x`` (and, with
    ``row_column_only``, XLA's IsRowColumnTransposeDotOperand holds)."""
    if row_column_only:
        return (len(batch) == len(perm) - 2 and len(contracting) == 1
                and all(perm[d] == d for d in batch))
    mapped = [perm[d] for d in free_dims(len(perm), contracting, batch)]
    return mapped == sorted(mapped)


@register
@dataclasses.dataclass
class TransposeFolding(ExpanderPass):
    """Fold transposes of dot_general and convolution operands into their dimension numbers."""

    name = "transpose-folding"
    acts_on = frozenset({"stablehlo.transpose"})
    fold_convolutions: bool = dataclasses.field(
        default=True, metadata={"help": "also fold transposes of convolution inputs and kernels"})
    row_column_only: bool = dataclasses.field(
        default=False, metadata={"help": "fold only XLA's row/column dot operand transposes"})

    def run(self, module: ir.Module) -> bool:
        self._folded: set[ir.Operation] = set()
        changed = super().run(module)
        for op in self._dead_folded():
            op.erase()
        return changed

    def _dead_folded(self) -> list[ir.Operation]:
        """The folded transposes that only dead folded transposes read, each after its
        users (a chain's inner transpose dies with the outer one)."""
        dead: dict[ir.Operation, None] = {}  # insertion order: users first
        grew = True
        while grew:
            grew = False
            for op in self._folded:
                if op not in dead and all(use.owner.operation in dead for use in op.result.uses):
                    dead[op] = None
                    grew = True
        return list(dead)

    def matches(self, op) -> bool:
        name = op.operation.name
        if name == "stablehlo.dot_general" and rebuildable(op):
            if self.row_column_only and any(len(known_dims(v)) < 2 for v in op.operands):
                return False  # XLA leaves dots with a rank-1 operand alone
            return bool(self._dot_sides(op))
        if name == "stablehlo.convolution" and self.fold_convolutions and rebuildable(op):
            return any(_permutation(v) is not None for v in op.operands)
        return False

    def rule(self, op) -> str:
        if op.operation.name == "stablehlo.convolution":
            return "convolution"
        return "dot-" + "-".join(_SIDES[i] for i in self._dot_sides(op))

    def _dot_sides(self, op) -> list[int]:
        """The operands of dot ``op`` that are foldable transposes."""
        dnums = dot_dims(op)
        sides = []
        for i, side in enumerate(_SIDES):
            perm = _permutation(op.operands[i])
            if perm is not None and dot_foldable(perm, getattr(dnums, f"{side}_contracting_dimensions"),
                                                 getattr(dnums, f"{side}_batch_dimensions"),
                                                 self.row_column_only):
                sides.append(i)
        return sides

    def expand(self, op) -> Sequence[ir.Value]:
        if op.operation.name == "stablehlo.convolution":
            return [self._fold_convolution(op)]
        return [self._fold_dot(op)]

    def _fold_dot(self, op) -> ir.Value:
        """dot(transpose(x, p), y) -> dot(x, y) with each lhs contracting/batch dim d as p[d]
        (the same for rhs), repeated down a chain of foldable transposes."""
        dnums = dot_dims(op)
        operands = list(op.operands)
        for i, side in enumerate(_SIDES):
            contracting = f"{side}_contracting_dimensions"
            batch = f"{side}_batch_dimensions"
            while (perm := _permutation(operands[i])) is not None and dot_foldable(
                    perm, getattr(dnums, contracting), getattr(dnums, batch), self.row_column_only):
                dnums = replace(dnums, **{contracting: tuple(perm[d] for d in getattr(dnums, contracting)),
                                          batch: tuple(perm[d] for d in getattr(dnums, batch))})
                operands[i] = self._peel(operands[i])
        return rebuilt_dot(op, operands[0], operands[1], dnums)

    def _peel(self, value: ir.Value) -> ir.Value:
        """The operand of the transpose defining ``value``, noting the transpose."""
        op = producer(value, "stablehlo.transpose").operation
        self._folded.add(op)
        return op.operands[0]

    def _fold_convolution(self, op) -> ir.Value:
        """conv(transpose(x, p), transpose(w, q)) -> conv(x, w) with each input dimension
        number d as p[d] and each kernel dimension number d as q[d]."""
        dnums = conv_dims(op)
        operands = list(op.operands)
        fields = (("input_batch_dimension", "input_feature_dimension", "input_spatial_dimensions"),
                  ("kernel_input_feature_dimension", "kernel_output_feature_dimension",
                   "kernel_spatial_dimensions"))
        for i, names in enumerate(fields):
            while (perm := _permutation(operands[i])) is not None:
                changes: dict[str, Any] = {}
                for field in names:
                    value = getattr(dnums, field)
                    changes[field] = tuple(perm[d] for d in value) if isinstance(value, tuple) \
                        else perm[value]
                dnums = replace(dnums, **changes)
                operands[i] = self._peel(operands[i])
        return rebuilt_convolution(op, operands[0], operands[1], dnums)
