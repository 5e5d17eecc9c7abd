"""variadic-reduce-barrier: the results of a variadic reduce that a transpose reads go
through an optimization barrier.

The pinned IREE fails to compile a reduce of several operands whose reducer couples them
(an argmax: the index follows the value's comparison) when a result reaches a transpose,
directly or through element-wise ops: its transpose propagation rewrites the reduction's
``linalg.generic`` for the one result the transpose reads and keeps the body's two yields
("'linalg.yield' op expected number of yield values (2) to match the number of inits /
outs operands of the enclosing LinalgOp (1)"; fuzz seed 20261127 program 785)::

    %r:2 = stablehlo.reduce(%x init: %ninf), (%iota init: %max) across dimensions = [2] ...
    %t = stablehlo.transpose %r#1, dims = [1, 0]

becomes::

    %r:2 = stablehlo.reduce(%x init: %ninf), (%iota init: %max) across dimensions = [2] ...
    %b:2 = stablehlo.optimization_barrier %r#0, %r#1
    %t = stablehlo.transpose %b#1, dims = [1, 0]

A ``broadcast_in_dim`` that permutes dimensions is a transpose to IREE and fails too. The
barrier changes no value and costs nothing at run time; the transpose is then a dispatch
of its own. Reshapes, slices, reverses, pads, concatenates, contractions and element-wise
readers compile right, and so do reducers whose operands stay independent (a max and a
min, a sum of each): the pass keys on the reader only, a barrier being always safe.
Conditions: a ``stablehlo.reduce`` with two or more results, one of which reaches a
permuting transpose or broadcast through at most 64 element-wise ops.
"""

from __future__ import annotations

from iree.compiler import ir

from dialect_ops.op_facts import ELEMENTWISE_OPS
from pipelines.matchers import ops_where
from pipelines.operand_fences import fence_results
from pipelines.pass_base import Pass
from pipelines.registry import register

__all__ = ["VariadicReduceBarrier"]

_MAX_OPS = 64  # the forward walk's bound: past it the results are fenced (always safe)


def _permutes(op) -> bool:
    """Whether ``op`` moves dimensions: a transpose, or a broadcast_in_dim with unsorted dimensions."""
    name = op.operation.name
    if name not in ("stablehlo.transpose", "stablehlo.broadcast_in_dim"):
        return False
    attribute = "permutation" if name == "stablehlo.transpose" else "broadcast_dimensions"
    dims = list(ir.DenseI64ArrayAttr(op.attributes[attribute]))
    return dims != sorted(dims)


def _reaches_transpose(op) -> bool:
    """Whether a result of ``op`` reaches a permuting op through element-wise ops."""
    pending, seen = list(op.results), 0
    while pending:
        for use in pending.pop().uses:
            reader = use.owner
            if _permutes(reader):
                return True
            if reader.operation.name in ELEMENTWISE_OPS:
                seen += 1
                if seen > _MAX_OPS:
                    return True
                pending.extend(reader.results)
    return False


@register
class VariadicReduceBarrier(Pass):
    """Fences the results of a variadic reduce that a transpose reads (IREE fails to compile it)."""

    name = "variadic-reduce-barrier"
    legalizes_for_iree = True

    def run(self, module: ir.Module) -> bool:
        found = ops_where(module, lambda op: op.name == "stablehlo.reduce" and len(op.results) > 1)
        changed = False
        with module.context:
            for op in found:
                if _reaches_transpose(op):
                    fence_results(op)
                    self.record("fence-results")
                    changed = True
        return changed
