"""Helpers of the window-op expanders: reading the window attributes (strides, dilations,
padding) of convolution, reduce_window and select_and_scatter back into Python lists, and
moving a region's body into a new op."""

from __future__ import annotations

from typing import Sequence

import numpy as np
from iree.compiler import ir

__all__ = ["i64_list", "padding_pairs", "splice_block"]


def i64_list(op, name: str, rank: int) -> list[int]:
    """A dense i64 array attribute of ``op``; all ones when absent (the StableHLO default)."""
    return list(ir.DenseI64ArrayAttr(op.attributes[name])) if name in op.attributes else [1] * rank


def padding_pairs(op, rank: int) -> list[tuple[int, int]]:
    """``op``'s ``padding`` (a ``rank`` x 2 i64 tensor) as (low, high) pairs; zeros when absent."""
    if "padding" not in op.attributes or rank == 0:
        return [(0, 0)] * rank
    flat = np.array(ir.DenseIntElementsAttr(op.attributes["padding"])).reshape(-1)
    return [(int(flat[2 * i]), int(flat[2 * i + 1])) for i in range(rank)]


def splice_block(source: ir.Block, dest: ir.Block, args: Sequence[ir.Value]) -> list[ir.Value]:
    """Moves ``source``'s ops (not its terminator) to the end of ``dest`` (the insertion point
    must be there), with ``args`` for its block arguments; returns the values its terminator
    returned."""
    from dialect_ops import _emit

    ops = list(source.operations)
    anchor = _emit.region_return([])  # placeholder at the end of dest, removed below
    for o in ops[:-1]:
        o.operation.move_before(anchor)
    for old, new in zip(source.arguments, args):
        old.replace_all_uses_with(new)
    anchor.erase()
    return list(ops[-1].operands)
