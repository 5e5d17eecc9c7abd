"""all-reduce-split: a variadic ``all_reduce`` as one ``all_reduce`` per operand.

The pinned IREE segfaults (in ``scalarToTensor`` while converting StableHLO) on an
``all_reduce`` with more than one operand; XLA and JAX emit that form for a tuple
all-reduce. Each operand is reduced on its own, with a copy of the reducer and the same
groups and channel::

    %r:2 = "stablehlo.all_reduce"(%a, %b) ({add}) {replica_groups = G, channel_handle = C}

becomes::

    %r0 = "stablehlo.all_reduce"(%a) ({add}) {replica_groups = G, channel_handle = C}
    %r1 = "stablehlo.all_reduce"(%b) ({add}) {replica_groups = G, channel_handle = C}

Conditions: ``all_reduce`` with two or more operands.
"""

from __future__ import annotations

from typing import Sequence

from iree.compiler import ir

from dialect_ops.collectives import all_reduce, channel_id_of, replica_groups_of
from pipelines.pass_base import ExpanderPass
from pipelines.regions import copy_of
from pipelines.registry import register

__all__ = ["AllReduceSplit"]


@register
class AllReduceSplit(ExpanderPass):
    """Splits a variadic all_reduce into one all_reduce per operand (IREE crashes on it)."""

    name = "all-reduce-split"
    legalizes_for_iree = True

    def matches(self, op) -> bool:
        return op.operation.name == "stablehlo.all_reduce" and len(op.operands) > 1

    def expand(self, op) -> Sequence[ir.Value]:
        fill = copy_of(op.regions[0].blocks[0])
        groups, channel = replica_groups_of(op), channel_id_of(op)
        global_ids = "use_global_device_ids" in op.attributes
        return [all_reduce(v, fill, groups, channel, global_ids) for v in op.operands]
