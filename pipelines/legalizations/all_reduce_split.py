"""all-reduce-split: a variadic ``all_reduce`` as one ``all_reduce`` per operand.

The pinned IREE segfaults (in ``scalarToTensor`` while converting StableHLO) on an
``all_reduce`` with more than one operand; XLA and JAX emit that form for a tuple
all-reduce. Each operand is reduced on its own, with a copy of the reducer and every
attribute of the original (groups, channel handle, ``use_global_device_ids``, and any
other, e.g. ``mhlo.frontend_attributes``), so the process groups are the same::

    %r:2 = "stablehlo.all_reduce"(%a, %b) ({add}) {replica_groups = G, channel_handle = C}

becomes::

    %r0 = "stablehlo.all_reduce"(%a) ({add}) {replica_groups = G, channel_handle = C}
    %r1 = "stablehlo.all_reduce"(%b) ({add}) {replica_groups = G, channel_handle = C}

Conditions: ``all_reduce`` with two or more operands.
"""

from __future__ import annotations

from typing import Sequence

from iree.compiler import ir

from hlo_mlir import _emit
from hlo_mlir.ir_access import attribute_dict
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
        reducer = op.regions[0].blocks[0]
        attributes = attribute_dict(op)
        scalars = [a.type for a in reducer.arguments]
        out = []
        for value, result in zip(op.operands, op.results, strict=True):
            single, (block,) = _emit.create_with_region("stablehlo.all_reduce", [value], [result.type],
                                                        attributes, [scalars])
            copy_of(reducer)(block)
            out.append(single.results[0])
        return out
