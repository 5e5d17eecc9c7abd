"""Process groups of collectives, as the StableHLO spec defines them (spec: Execution,
Collective ops: cross_replica, cross_partition, cross_replica_and_partition, flattened_ids).

A program runs on a grid of ``N`` replicas by ``P`` partitions (the module attributes
``mhlo.num_replicas`` and ``mhlo.num_partitions``); process ``(r, p)`` has the index
``r * P + p`` here (the spec's flattened id). A collective splits the grid into process
groups by a strategy that its ``channel_handle`` (a handle > 0 means a channel) and
``use_global_device_ids`` select:

- ``all_reduce``, ``all_gather``, ``reduce_scatter``: ``cross_replica(replica_groups)``
  without a channel, ``cross_replica_and_partition(replica_groups)`` with one (every group
  spans all partitions: ``[[0]]`` with P = 2 is the group ``{(0, 0), (0, 1)}``), and
  ``flattened_ids(replica_groups)`` with one and ``use_global_device_ids``;
- ``all_to_all``, ``collective_broadcast``, ``collective_permute``: ``cross_replica``
  without a channel, ``cross_partition`` (groups or pairs of partition ids) with one.

An empty ``replica_groups`` attribute means one group of all ids of its kind (XLA's reading).
"""

from __future__ import annotations

from iree.compiler import ir

from dialect_ops.replica_groups import replica_groups_rule
from hlo_mlir.ir_access import channel_handle, optional_int_attr, replica_groups

__all__ = ["CROSS_REPLICA", "CROSS_PARTITION", "CROSS_REPLICA_AND_PARTITION", "FLATTENED_IDS",
           "grid_of", "strategy_of", "group_sizes", "process_groups", "process_pairs"]

CROSS_REPLICA = "cross_replica"
CROSS_PARTITION = "cross_partition"
CROSS_REPLICA_AND_PARTITION = "cross_replica_and_partition"
FLATTENED_IDS = "flattened_ids"

# Ops whose channel makes the groups span partitions (the others: groups of partition ids).
_REPLICA_GROUPED = ("stablehlo.all_reduce", "stablehlo.all_gather", "stablehlo.reduce_scatter")


def grid_of(module: ir.Module) -> tuple[int | None, int | None]:
    """``(N, P)``: the module's ``mhlo.num_replicas`` and ``mhlo.num_partitions`` (None when absent)."""
    return (optional_int_attr(module.operation, "mhlo.num_replicas"),
            optional_int_attr(module.operation, "mhlo.num_partitions"))


def strategy_of(op) -> str:
    """How ``op`` splits the process grid (the spec's strategy name)."""
    handle = channel_handle(op)
    channel = handle is not None and handle.handle > 0  # handle 0: no channel
    if op.operation.name in _REPLICA_GROUPED:
        if not channel:
            return CROSS_REPLICA
        return FLATTENED_IDS if "use_global_device_ids" in op.attributes else CROSS_REPLICA_AND_PARTITION
    return CROSS_PARTITION if channel else CROSS_REPLICA


def group_sizes(op, num_replicas: int | None, num_partitions: int | None) -> set[int] | None:
    """The sizes of ``op``'s process groups, or None when they depend on an unknown count."""
    groups = replica_groups(op)
    strategy = strategy_of(op)
    n, p = num_replicas, num_partitions
    if strategy == CROSS_REPLICA_AND_PARTITION:
        if p is None:
            return None
        if groups:
            return {len(g) * p for g in groups}
        return None if n is None else {n * p}
    if groups:
        return {len(g) for g in groups}
    every = {CROSS_REPLICA: n, CROSS_PARTITION: p,
             FLATTENED_IDS: n * p if n is not None and p is not None else None}[strategy]
    return None if every is None else {every}


def _ids(op, count: int, what: str, equal_sizes: bool) -> list[list[int]]:
    """The op's groups (checked to partition ``[0, count)``; empty: all ids)."""
    name = op.operation.name if what == "replica" else f"{op.operation.name} (groups of {what} ids)"
    groups = replica_groups_rule(name, replica_groups(op), count, equal_sizes=equal_sizes)
    return groups or [list(range(count))]


def process_groups(op, num_replicas: int, num_partitions: int, equal_sizes: bool = True) -> list[list[int]]:
    """``op``'s process groups as lists of process indices ``r * P + p``, in the spec's order."""
    n, p = num_replicas, num_partitions
    strategy = strategy_of(op)
    if strategy == CROSS_REPLICA:
        return [[r * p + q for r in g] for g in _ids(op, n, "replica", equal_sizes) for q in range(p)]
    if strategy == CROSS_PARTITION:
        return [[r * p + q for q in g] for g in _ids(op, p, "partition", equal_sizes) for r in range(n)]
    if strategy == CROSS_REPLICA_AND_PARTITION:
        return [[r * p + q for q in range(p) for r in g] for g in _ids(op, n, "replica", equal_sizes)]
    return _ids(op, n * p, "flattened process", equal_sizes)


def process_pairs(op, pairs: list[tuple[int, int]], num_replicas: int,
                  num_partitions: int) -> list[tuple[int, int]]:
    """``collective_permute``'s ``(source, target)`` pairs (replica ids without a channel,
    partition ids with one) as pairs of process indices, for every partition (replica)."""
    n, p = num_replicas, num_partitions
    if strategy_of(op) == CROSS_PARTITION:
        return [(r * p + s, r * p + t) for r in range(n) for s, t in pairs]
    return [(s * p + q, t * p + q) for q in range(p) for s, t in pairs]
