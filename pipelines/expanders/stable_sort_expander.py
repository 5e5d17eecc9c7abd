"""stable-sort-expander: a stable ``stablehlo.sort`` as an unstable sort by a total order.

The pinned IREE ignores ``is_stable`` (ARCHITECTURE.md, defects): elements the comparator
calls equal come out in any order. Carrying each element's position along the sort
dimension and breaking ties by it gives the stable order from any sort::

    %r:N = "stablehlo.sort"(%x_0, ..., %x_{N-1}) ({c}) {dimension = d, is_stable = true}

becomes::

    %i = stablehlo.iota dim = d                       // s32, s64 for dimensions >= 2^31
    %s:N+1 = "stablehlo.sort"(%x_0, ..., %x_{N-1}, %i) ({
      c(a, b) || (!c(b, a) && i_a < i_b)
    }) {dimension = d, is_stable = false}
    // %r#k -> %s#k; the position result is dropped

When an operand already is an integer iota along ``d`` (an argsort's indices), the
comparator breaks ties by it and no operand is added: IREE merges equal iotas, and a
sort given one buffer for two operands crashes the SPIR-V compiler (SIGSEGV).

Conditions: ``is_stable = true``, more than one element along ``d``, and operands with
XLA shapes (quantized sorts are left alone). Run before
IREE (``legalizes_for_iree``); ``sort-network-expander`` makes large sorts stable
itself, so running it first leaves this pass less to do. The dropped position result
crashes IREE's SPIR-V path (an operand the comparator reads whose result is unused):
``sort-barriers``, run after this pass, keeps it alive.
"""

from __future__ import annotations

from typing import Sequence

import numpy as np
from iree.compiler import ir

from dialect_ops.shape_ops import iota
from dialect_ops.sorting import index_type_for, sort
from hlo_mlir import _emit
from hlo_mlir.ir_access import bool_attr, int_attr
from pipelines.matchers import producer, xla_arrays
from pipelines.pass_base import ExpanderPass
from pipelines.registry import register
from pipelines.sort_regions import comparator_block, sort_dimension, write_tie_break_comparator

__all__ = ["StableSortExpander"]


@register
class StableSortExpander(ExpanderPass):
    """Makes stable sorts stable on IREE: ties broken by position in an unstable sort."""

    name = "stable-sort-expander"
    legalizes_for_iree = True

    def matches(self, op) -> bool:
        if op.operation.name != "stablehlo.sort" or "is_stable" not in op.attributes:
            return False
        if not xla_arrays(op.operands):  # quantized: left alone
            return False
        return bool_attr(op, "is_stable") and \
            _emit.shape_of(op.operands[0]).dimensions[sort_dimension(op)] > 1

    def expand(self, op) -> Sequence[ir.Value]:
        operands = list(op.operands)
        d = sort_dimension(op)
        shape = _emit.shape_of(operands[0])
        own = _position_operand(operands, d)
        if own is not None:  # an argsort: its iota already numbers the elements
            return sort(operands, d, False,
                        lambda block: write_tie_break_comparator(block, comparator_block(op), own))
        position = iota(shape.with_element_type(index_type_for(shape.dimensions[d])), d)
        results = sort(operands + [position], d, False,
                       lambda block: write_tie_break_comparator(block, comparator_block(op)))
        return results[:-1]


def _position_operand(operands: Sequence[ir.Value], d: int) -> int | None:
    """The index of an operand that is an integer ``iota`` along ``d`` with a distinct
    value per position (an argsort's indices), if any."""
    for k, value in enumerate(operands):
        op = producer(value, "stablehlo.iota")
        if op is None or int_attr(op, "iota_dimension") != d:
            continue
        shape = _emit.shape_of(value)
        if shape.element_type.is_integer and shape.dimensions[d] - 1 <= np.iinfo(shape.dtype).max:
            return k
    return None
