"""Tree reduction rewriter (spec 004: Tree reduction rewriter, Reduction splitter).

A reduction of a long dimension into few results gives the pinned IREE little to run in
parallel: ``reduce(f32[32M] -> f32[])`` is one sequential loop on one thread. Splitting
the long dimension ``n`` into ``(ceil(n / w), w)`` and reducing twice makes the first
reduction ``ceil(n / w)`` independent rows (a 32M-element sum: 9.4 ms -> 4.9 ms on two
cores, XLA's time)::

    %r = stablehlo.reduce(%x init: %c0) applies stablehlo.add across dimensions = [0]
           : (tensor<33554432xf32>, tensor<f32>) -> tensor<f32>

becomes (``w`` = ``window``, the operand padded with the init value when ``w`` does
not divide ``n``)::

    %x2 = stablehlo.reshape %x : (tensor<33554432xf32>) -> tensor<8192x4096xf32>
    %p = stablehlo.reduce(%x2 init: %c0) applies stablehlo.add across dimensions = [1]
    %r = stablehlo.reduce(%p init: %c0) applies stablehlo.add across dimensions = [0]

XLA leaves the order in which a reduction combines elements unspecified, so a float sum
may round differently (as it does in XLA's own rewriter); the init value is applied
once per partial result, so only reductions where that cannot change the answer are
rewritten: a single operand, a reducer that is one element-wise op of its two arguments,
and an init value that is the op's identity (op_facts), ``+0.0`` for a float add
(``(x + 0.0) + 0.0 == x + 0.0``), or any constant for an idempotent op (max, min, and,
or). Conditions: static shapes, a reduced dimension of at least ``min-size`` elements
(a reduction over no dimension is left alone), at most ``max-results`` result elements
(more results already run in parallel), and an element type with an XLA dtype (quantized
reductions are left alone).
"""

from __future__ import annotations

import dataclasses
import math

from iree.compiler import ir

from dialect_ops.reduction import reduce
from dialect_ops.shape_ops import reshape
from dialect_ops.slicing import pad
from hlo_mlir import _emit
from hlo_mlir.ir_access import int_array
from pipelines.matchers import element_dtype
from pipelines.pass_base import ExpanderPass
from pipelines.reductions import init_repeats_safely
from pipelines.regions import copy_of
from pipelines.registry import register

__all__ = ["TreeReductionRewriter"]


@register
@dataclasses.dataclass
class TreeReductionRewriter(ExpanderPass):
    """Split long reductions into few results into two reductions (rows of ``window``, then the rest)."""

    name = "tree-reduction-rewriter"
    acts_on = frozenset({"stablehlo.reduce"})
    min_size: int = dataclasses.field(
        default=1 << 16,
        metadata={"help": "rewrite when a reduced dimension has at least this many elements"})
    max_results: int = dataclasses.field(
        default=64, metadata={"help": "rewrite only reductions with at most this many result elements"})
    window: int = dataclasses.field(default=4096, metadata={"help": "elements each partial result reduces"})

    def matches(self, op) -> bool:
        if op.operation.name != "stablehlo.reduce" or len(op.operands) != 2:
            return False
        if element_dtype(op.operands[0]) is None:  # a type without an XLA dtype (quantized): not ours
            return False
        shape = _emit.shape_of(op.operands[0])
        if shape.is_dynamic or math.prod(_emit.shape_of(op.results[0]).dimensions) > self.max_results:
            return False
        # No reduced dimension (valid: each result is its element combined with the init) has
        # nothing to split.
        n = max((shape.dimensions[d] for d in int_array(op, "dimensions")), default=0)
        return n >= max(self.min_size, 2 * self.window) and init_repeats_safely(op)

    def expand(self, op) -> list[ir.Value]:
        x, init = op.operands
        dims = sorted(int_array(op, "dimensions"))
        sizes = list(_emit.shape_of(x).dimensions)
        d = max(dims, key=lambda i: sizes[i])
        rows = -(-sizes[d] // self.window)
        if rows * self.window != sizes[d]:
            config = [(0, 0, 0)] * len(sizes)
            config[d] = (0, rows * self.window - sizes[d], 0)
            x = pad(x, init, config)
        x = reshape(x, sizes[:d] + [rows, self.window] + sizes[d + 1:])
        # Inner: every reduced dimension but the rows of d (dimensions after d shift by one).
        inner_dims = [i if i < d else i + 1 for i in dims if i != d] + [d + 1]
        body = copy_of(op.regions[0].blocks[0])
        (partial,) = reduce([x], [init], sorted(inner_dims), body)
        kept_before_d = sum(1 for i in range(d) if i not in dims)
        return reduce([partial], [init], [kept_before_d], body)

