"""Helpers of the window-op expanders: moving a region's body into a new op (their window
attributes are read through ``hlo_mlir.ir_access``: ``window_values``, ``padding_pairs``)."""

from __future__ import annotations

from typing import Sequence

from iree.compiler import ir

from hlo_mlir import _emit

__all__ = ["splice_block"]


def splice_block(source: ir.Block, dest: ir.Block, args: Sequence[ir.Value]) -> list[ir.Value]:
    """Moves ``source``'s ops (not its terminator) to the end of ``dest`` (the insertion point
    must be there), with ``args`` for its block arguments; returns the values its terminator
    returned."""
    ops = list(source.operations)
    anchor = _emit.region_return([])  # placeholder at the end of dest, removed below
    for o in ops[:-1]:
        o.operation.move_before(anchor)
    for old, new in zip(source.arguments, args, strict=True):
        old.replace_all_uses_with(new)
    anchor.erase()
    return list(ops[-1].operands)
