"""Copying region bodies: what passes share when they build a region, or straight-line
code, from another region (a reducer, a comparator, a loop body).

Copies are made at the current insertion point; the source is never changed, so it can
be copied again.
"""

from __future__ import annotations

from typing import Callable, Sequence

from iree.compiler import ir

from hlo_mlir import _emit

__all__ = ["clone_ops", "clone_body", "copy_of", "invariant_slice", "hoist_invariant"]


def clone_ops(ops: Sequence, mapping: dict) -> dict:
    """Clones ``ops`` in order, their operands (also those their nested regions capture)
    read through ``mapping``; ``mapping`` gains each original result -> its clone's and is
    returned."""

    def remap(op):
        for i, operand in enumerate(op.operands):
            if operand in mapping:
                op.operands[i] = mapping[operand]
        return ir.WalkResult.ADVANCE

    for op in ops:
        clone = op.operation.clone()
        clone.walk(remap)
        mapping.update(zip(op.results, clone.results, strict=True))
    return mapping


def clone_body(source: ir.Block, args: Sequence[ir.Value]) -> list[ir.Value]:
    """Clones ``source``'s ops (not its terminator) with ``args`` in place of its block
    arguments; returns the clones of the values its terminator returns."""
    *ops, terminator = source.operations
    mapping = clone_ops(ops, dict(zip(source.arguments, args, strict=True)))
    return [mapping.get(v, v) for v in terminator.operands]


def copy_of(source: ir.Block) -> Callable[[ir.Block], None]:
    """A region writer (the ``body`` argument of the dialect_ops emit functions) that fills
    a new block with a copy of ``source``, the new block's arguments in place of its own."""

    def fill(block: ir.Block) -> None:
        with ir.InsertionPoint(block):
            _emit.region_return(clone_body(source, list(block.arguments)))

    return fill


def invariant_slice(block: ir.Block) -> list | None:
    """The ops of ``block`` that its returned value (the terminator's first operand) depends
    on, in order, when none of them reads a block argument or has regions; None otherwise."""
    *ops, terminator = block.operations
    defined = {}
    for op in ops:
        for result in op.results:
            defined[result] = op
    needed, pending = set(), [terminator.operands[0]]
    while pending:
        value = pending.pop()
        op = defined.get(value)
        if op is None:
            if any(value == arg for arg in block.arguments):
                return None
            continue  # defined above the block: captured as it is
        if op in needed:
            continue
        if len(op.regions):
            return None
        needed.add(op)
        pending.extend(op.operands)
    return [op for op in ops if op in needed]


def hoist_invariant(block: ir.Block) -> ir.Value:
    """Clones the :func:`invariant_slice` of ``block`` (which must not be None) at the
    insertion point; returns the clone of the value ``block`` returns."""
    mapping = clone_ops(invariant_slice(block) or [], {})
    value = list(block.operations)[-1].operands[0]
    return mapping.get(value, value)
