"""Slice sinking (spec 004: Slice sinker; XLA ``slice_sinker.cc``).

Element-wise ops that each read slices of the same sources, taken alike within each op,
become one element-wise op on the sources and a slice of it per op::

    %a = stablehlo.slice %p [0:6] : (tensor<10xf32>) -> tensor<6xf32>
    %b = stablehlo.slice %p [6:10] : (tensor<10xf32>) -> tensor<4xf32>
    %aa = stablehlo.add %a, %a : tensor<6xf32>
    %bb = stablehlo.add %b, %b : tensor<4xf32>

becomes ::

    %s = stablehlo.add %p, %p : tensor<10xf32>
    %aa = stablehlo.slice %s [0:6] : (tensor<10xf32>) -> tensor<6xf32>
    %bb = stablehlo.slice %s [6:10] : (tensor<10xf32>) -> tensor<4xf32>

Overlapping slices compute their common elements once; adjacent ones become one op.
Element-wise ops compute each element from the operands' elements at the same index, so
a slice of the op on the sources is the op on the slices, exactly.

Conditions (XLA's): every operand of an element-wise op (op_facts.ELEMENTWISE_OPS) is a
``stablehlo.slice``, all with one (start, limit, stride) and of sources of one static
shape; the group is every op of the same name, attributes (a ``compare`` direction) and result
element type in the same block whose
operand ``i`` is a slice, taken alike across its operands, of the first op's source ``i``;
and the group's results hold at least as many elements as one source (the sunk op never
does more element-wise work than the ops it replaces). Run ``dce`` after it (the old
slices), and ``cse``.
"""

from __future__ import annotations

from iree.compiler import ir

from dialect_ops.op_facts import ELEMENTWISE_OPS
from dialect_ops.slicing import slice_
from hlo_mlir import _emit
from hlo_mlir.ir_access import attribute_dict, int_array
from pipelines.matchers import has_uses, ops_where, producer, static_dims
from pipelines.pass_base import Pass
from pipelines.registry import register

__all__ = ["SliceSinker"]

_WINDOW = ("start_indices", "limit_indices", "strides")


def _window(slice_op) -> tuple[list[int], ...]:
    return tuple(int_array(slice_op, name) for name in _WINDOW)


def _slices(op) -> list | None:
    """The slice ops feeding element-wise ``op``, when every operand is one and all take one
    window of sources of one shape; None otherwise."""
    slices = [producer(v, "stablehlo.slice") for v in op.operands]
    if not slices or any(s is None for s in slices):
        return None
    dims = static_dims(slices[0].operands[0])
    window = _window(slices[0])
    if dims is None or any(static_dims(s.operands[0]) != dims or _window(s) != window for s in slices[1:]):
        return None
    return slices


def _similar(op, sources: list[ir.Value], candidate) -> bool:
    """Whether ``candidate`` is an op like ``op`` on alike slices of ``sources``, in its block."""
    if candidate.name != op.name or len(candidate.results) != 1 or not has_uses(candidate.results[0]):
        return False
    if candidate.operation.block != op.operation.block:
        return False
    slices = _slices(candidate)
    if slices is None or [s.operands[0] for s in slices] != sources:
        return False
    same_type = ir.RankedTensorType(candidate.results[0].type).element_type \
        == ir.RankedTensorType(op.results[0].type).element_type
    return same_type and attribute_dict(candidate) == attribute_dict(op)


def _group(op, sources: list[ir.Value]) -> list:
    """The ops similar to ``op`` (itself included), reached through slices of ``sources[0]``."""
    group: list = []
    for use in sources[0].uses:
        slice_op = use.owner
        if slice_op.name != "stablehlo.slice":
            continue
        for user in slice_op.results[0].uses:
            candidate = user.owner
            if candidate.name in ELEMENTWISE_OPS and _similar(op, sources, candidate) \
                    and not any(candidate == g for g in group):
                group.append(candidate)
    return group


def _elements(value: ir.Value) -> int:
    count = 1
    for d in ir.RankedTensorType(value.type).shape:
        count *= d
    return count


@register
class SliceSinker(Pass):
    """Sink slices below element-wise ops on alike slices of the same sources: one op, then slices."""

    name = "slice-sinker"
    acts_on = frozenset({"stablehlo.slice"})

    def run(self, module: ir.Module) -> bool:
        done: list = []
        for op in ops_where(module, lambda o: o.name in ELEMENTWISE_OPS and len(o.results) == 1):
            if not has_uses(op.results[0]):
                continue  # sunk already (or dead)
            slices = _slices(op)
            if slices is None:
                continue
            sources = [s.operands[0] for s in slices]
            group = _group(op, sources)
            if sum(_elements(g.results[0]) for g in group) < _elements(sources[0]):
                continue
            with module.context, op.location:
                _sink(op, sources, group)
            self.record("sunk-ops", len(group))
            done += group
        for op in done:
            op.erase()
        return bool(done)


def _sink(op, sources: list[ir.Value], group: list) -> None:
    """Emits ``op`` on ``sources`` before the group's first op, and a slice of it in place of
    each op of ``group`` (their results are left unused)."""
    first = group[0]
    for g in group[1:]:
        if g.operation.is_before_in_block(first.operation):
            first = g
    element_type = ir.RankedTensorType(op.results[0].type).element_type
    result_type = ir.RankedTensorType.get(static_dims(sources[0]), element_type)
    with ir.InsertionPoint(first):
        sunk = _emit.create(op.name, sources, [result_type], attribute_dict(op)).result
    for g in group:
        starts, limits, strides = _window(producer(g.operands[0], "stablehlo.slice"))
        with ir.InsertionPoint(g), g.location:
            g.results[0].replace_all_uses_with(slice_(sunk, starts, limits, strides))

