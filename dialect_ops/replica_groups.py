"""Who takes part in a collective: the replica count of a module, replica groups and
permutation pairs (checked against it) and their StableHLO attributes. The rules are
shared by the collective ops (:mod:`dialect_ops.collectives`) and by ``emulate-replicas``.
"""

from __future__ import annotations

from typing import Sequence

import numpy as np
from iree.compiler import ir

from dialect_ops._args import int_arg, int_list
from hlo_mlir import _emit
from hlo_mlir.builder import XlaBuilder
from hlo_mlir.errors import InvalidArgumentError
from hlo_mlir.ir_access import optional_int_attr

__all__ = ["set_replica_count", "replica_count", "replica_groups_rule", "source_target_pairs_rule",
           "groups_attr", "explicit_groups"]

_NUM_REPLICAS, _NUM_PARTITIONS = "mhlo.num_replicas", "mhlo.num_partitions"


# --- the replica count of a module ---------------------------------------------------------------
def set_replica_count(builder: XlaBuilder, num_replicas: int, num_partitions: int = 1) -> None:
    """Records that ``builder``'s computation runs on ``num_replicas`` replicas (and
    ``num_partitions`` partitions) as the module attributes ``mhlo.num_replicas`` and
    ``mhlo.num_partitions``, as JAX emits them. Call it before adding collectives."""
    if not isinstance(builder, XlaBuilder):
        raise InvalidArgumentError(f"set_replica_count requires an XlaBuilder; got {type(builder).__name__}.")
    for what, n in (("num_replicas", num_replicas), ("num_partitions", num_partitions)):
        if int_arg("set_replica_count", what, n) < 1:
            raise InvalidArgumentError(f"set_replica_count requires {what} >= 1; got {n}.")
    attributes = builder.module.operation.attributes
    with builder.module.context:
        attributes[_NUM_REPLICAS] = _emit.parse_attr(f"{int(num_replicas)} : i32")
        attributes[_NUM_PARTITIONS] = _emit.parse_attr(f"{int(num_partitions)} : i32")


def replica_count(module_or_builder) -> int | None:
    """The ``mhlo.num_replicas`` attribute of a module (or a builder's or computation's
    module), or None when it is not set."""
    module = getattr(module_or_builder, "module", module_or_builder)
    return optional_int_attr(module.operation, _NUM_REPLICAS)


# --- replica groups and permutation pairs ----------------------------------------------------------
def replica_groups_rule(op_name: str, replica_groups, num_replicas: int | None = None,
                        group_size: int | None = None, equal_sizes: bool = True) -> list[list[int]]:
    """``replica_groups`` as lists of ints, checked: every group non-empty, together a
    partition of ``[0, N)`` (every replica in exactly one group), N = ``num_replicas`` when
    known; of one size, equal to ``group_size``, when asked. ``None`` or ``[]`` (all replicas)
    gives ``[]``."""
    if replica_groups is None:
        return []
    try:
        groups = [int_list(op_name, "replica_groups", g) for g in replica_groups]
    except TypeError:
        raise InvalidArgumentError(f"{op_name} requires replica_groups as a list of lists of replica ids; "
                                   f"got {replica_groups!r}.") from None
    if not groups:
        return []
    if any(not g for g in groups):
        raise InvalidArgumentError(f"{op_name} requires non-empty replica groups; got {groups}.")
    ids = sorted(i for g in groups for i in g)
    n = num_replicas if num_replicas is not None else len(ids)
    duplicates = sorted({i for i in ids if ids.count(i) > 1})
    missing = sorted(set(range(n)) - set(ids))
    outside = sorted(i for i in set(ids) if not 0 <= i < n)
    if duplicates or missing or outside:
        problems = [f"replica {i} in two groups" for i in duplicates] + \
                   [f"replica {i} missing" for i in missing] + [f"replica {i} out of range" for i in outside]
        raise InvalidArgumentError(
            f"{op_name} requires replica_groups that partition the replicas [0, {n}) (each replica in "
            f"exactly one group); got {groups} ({', '.join(problems)}).")
    if equal_sizes and len({len(g) for g in groups}) > 1:
        raise InvalidArgumentError(f"{op_name} requires replica groups of one size; got {groups}.")
    if group_size is not None and len(groups[0]) != group_size:
        raise InvalidArgumentError(f"{op_name} requires replica groups of size {group_size} (its shard/split "
                                   f"count); got {groups}.")
    return groups


def source_target_pairs_rule(pairs, num_replicas: int | None = None,
                             op_name: str = "CollectivePermute") -> list[tuple[int, int]]:
    """``source_target_pairs`` as (source, target) ints: no source and no target twice (the
    spec's restriction), every id in ``[0, N)`` when N is known."""
    try:
        pairs = [tuple(int_list(op_name, "source_target_pairs", p)) for p in pairs]
    except TypeError:
        raise InvalidArgumentError(f"{op_name} requires source_target_pairs as (source, target) pairs; "
                                   f"got {pairs!r}.") from None
    if any(len(p) != 2 for p in pairs):
        raise InvalidArgumentError(
            f"{op_name} requires source_target_pairs of two replica ids each; got {pairs}.")
    for role, k in (("source", 0), ("target", 1)):
        seen = [p[k] for p in pairs]
        twice = sorted({i for i in seen if seen.count(i) > 1})
        if twice:
            raise InvalidArgumentError(
                f"{op_name} requires distinct {role} replicas; got {role} {twice[0]} twice in {pairs}.")
    bad = sorted({i for p in pairs for i in p if i < 0 or (num_replicas is not None and i >= num_replicas)})
    if bad:
        bound = f"[0, {num_replicas})" if num_replicas is not None else "non-negative ids"
        raise InvalidArgumentError(f"{op_name} requires replica ids in {bound}; got {bad[0]} in {pairs}.")
    return pairs


def groups_attr(groups: Sequence[Sequence[int]]) -> ir.Attribute:
    """``replica_groups`` as a dense i64 matrix, shorter groups padded with -1 (StableHLO)."""
    width = max((len(g) for g in groups), default=0)
    rows = [list(g) + [-1] * (width - len(g)) for g in groups]
    flat = np.asarray(rows, np.int64).reshape(len(rows), width).ravel()
    return _emit.dense_i64_elements(flat, (len(rows), width))


def explicit_groups(groups: list[list[int]], num_replicas: int | None) -> list[list[int]]:
    """The groups as written, or the one group of all replicas when the count is known."""
    return groups if groups or num_replicas is None else [list(range(num_replicas))]
