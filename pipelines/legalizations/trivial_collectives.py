"""trivial-collectives: collectives whose process groups have one member are their operand.

When every process group has one member, each process only exchanges with itself: an
all-reduce reduces one value, an all-gather or reduce-scatter has one shard, an
all-to-all has one split. The pinned IREE fails to compile ``all_to_all`` with
``split_count = 1`` ("failed to legalize operation 'stablehlo.reshape'"), so these are
removed before IREE::

    %r = "stablehlo.all_to_all"(%x) {split_count = 1, replica_groups = dense<[[0], [1]]>, ...}
    %s = "stablehlo.all_reduce"(%x) ({add}) {replica_groups = dense<[[0], [1]]>}

become ``%x`` (the result types equal the operand types).

Process groups are the spec's (pipelines/legalizations/_process_groups.py), not the
``replica_groups`` as written: with a channel handle and without
``use_global_device_ids``, an ``all_reduce``, ``all_gather`` or ``reduce_scatter`` group
spans every partition, so ``replica_groups = [[0]]`` with ``mhlo.num_partitions = 2`` is a
group of two processes and stays.

Conditions: ``all_to_all`` with ``split_count = 1`` (its groups have ``split_count``
members); ``all_reduce``, ``all_gather`` and ``reduce_scatter`` whose process groups all
have one member: ``replica_groups`` of singletons without a channel or with
``use_global_device_ids``; with a channel alone, singletons and ``mhlo.num_partitions = 1``;
an empty attribute (all replicas) when the module declares one replica (and one partition
with a channel). An unknown count keeps the op. ``collective_permute`` is never trivial
(a process that is no target receives zeros).
"""

from __future__ import annotations

from typing import Sequence

from iree.compiler import ir

from hlo_mlir.ir_access import int_attr
from pipelines.pass_base import ExpanderPass
from pipelines.process_groups import grid_of, group_sizes
from pipelines.registry import register

__all__ = ["TrivialCollectives"]

_GROUPED = ("stablehlo.all_reduce", "stablehlo.all_gather", "stablehlo.reduce_scatter")


@register
class TrivialCollectives(ExpanderPass):
    """Replaces collectives over one-process groups with their operands."""

    name = "trivial-collectives"
    legalizes_for_iree = True

    def run(self, module: ir.Module) -> bool:
        self._grid = grid_of(module)
        return super().run(module)

    def matches(self, op) -> bool:
        name = op.operation.name
        if name == "stablehlo.all_to_all":
            return int_attr(op, "split_count") == 1
        if name in _GROUPED:
            return group_sizes(op, *self._grid) == {1}
        return False

    def expand(self, op) -> Sequence[ir.Value]:
        return list(op.operands)
