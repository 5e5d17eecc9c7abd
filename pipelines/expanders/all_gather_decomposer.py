"""All gather decomposer (spec 004: All gather decomposer; XLA ``all_gather_decomposer.cc``).

An ``all_gather`` becomes, per operand, a ``dynamic_update_slice`` of the operand into a
buffer of the result's shape at this process's block, and an ``all_reduce`` that adds
the buffers of the group (for backends that run all-reduces but not all-gathers)::

    %r = "stablehlo.all_gather"(%x) {all_gather_dim = 1, replica_groups = dense<[[1, 0]]>}
        : (tensor<2x3xf32>) -> tensor<2x6xf32>

becomes::

    %id = stablehlo.replica_id : tensor<ui32>
    %k = reshape(dynamic_slice(constant [1, 0], %id))     // the position in the group
    %bits = stablehlo.bitcast_convert %x : (tensor<2x3xf32>) -> tensor<2x3xi32>
    %buf = broadcast_in_dim(constant 0) : tensor<2x6xi32>
    %u = stablehlo.dynamic_update_slice %buf, %bits, 0, %k * 3
    %s = "stablehlo.all_reduce"(%u) ({add}) {replica_groups = dense<[[1, 0]]>}
    %r = stablehlo.bitcast_convert %s : (tensor<2x6xi32>) -> tensor<2x6xf32>

Exactness: at each element one member contributes the gathered value and every other
member the buffer's fill. XLA adds floats over a ``+0`` fill, which turns a gathered
``-0.0`` into ``+0.0`` (``-0.0 + +0.0 == +0.0``), and a backend that flushes denormals
(the pinned IREE does) turns a gathered denormal into zero. So by default (``as-bits``)
floats travel as the integers of their bits (``bitcast_convert`` to the signed integer
of their width, summed over a ``0`` fill, converted back): every bit arrives, NaN
payloads included. With ``as-bits=false`` floats and complex numbers are summed as they
are, over the identity of ``add`` (``dialect_ops.op_facts``: ``-0.0``; ``x + (-0.0) ==
x`` for every ``x`` in any order of the additions), exact except where the backend
flushes denormals; complex gathers are decomposed only then. PRED buffers are combined
with ``or`` over ``false``, as XLA does; integers are summed over ``0``.

The position of a process in its group comes from the spec's process groups
(pipelines/legalizations/_process_groups.py, as ``emulate-replicas`` reads them): a
table indexed by the process id (``replica_id``; ``replica_id * P + partition_id`` for
flattened ids), or the id itself when positions and ids coincide. Every other attribute
of the ``all_gather`` (groups, channel handle, ``use_global_device_ids``) goes to the
``all_reduce`` unchanged, so the process groups are the same.

Conditions: groups whose positions are known: ``replica_groups`` as written, or empty
(all replicas) for a cross-replica gather; flattened ids need ``mhlo.num_replicas`` and
``mhlo.num_partitions``; a cross-replica-and-partition gather (a channel without
``use_global_device_ids``) only with one partition (the StableHLO spec orders such a
group partition-major, XLA replica-major: no rewrite where they differ). A variadic
``all_gather`` is decomposed operand by operand. The result is a variadic-free
``all_reduce`` per operand, which IREE compiles; run ``all-reduce-combiner`` to merge them.
"""

from __future__ import annotations

import dataclasses
from typing import Sequence

import numpy as np
from iree.compiler import ir

from dialect_ops import op_facts
from dialect_ops.collectives import partition_id, replica_id
from dialect_ops.constant import constant
from dialect_ops.elementwise import binary, bitcast_convert
from dialect_ops.indexing import dynamic_slice, dynamic_update_slice
from dialect_ops.shape_ops import reshape
from hlo_mlir import _emit
from hlo_mlir.errors import InvalidArgumentError
from hlo_mlir.ir_access import attribute_dict, int_attr, replica_groups
from hlo_mlir.types import PrimitiveType
from pipelines.matchers import known_dtype, xla_arrays
from pipelines.pass_base import ExpanderPass
from pipelines.process_groups import (
    CROSS_REPLICA,
    CROSS_REPLICA_AND_PARTITION,
    FLATTENED_IDS,
    grid_of,
    process_groups,
    strategy_of,
)
from pipelines.registry import register
from pipelines.values import Expr, full, scalar

__all__ = ["AllGatherDecomposer", "group_positions"]


def group_positions(op, num_replicas: int | None, num_partitions: int | None) -> list[int] | None:
    """Position in its process group of every participant of collective ``op``, indexed
    by the id the op's strategy reads (replica id, or the flattened id ``r * P + p``),
    or None when the groups or their order are not known (module docstring)."""
    strategy, groups, p = strategy_of(op), replica_groups(op), num_partitions
    if strategy == CROSS_REPLICA_AND_PARTITION and p == 1:
        strategy = CROSS_REPLICA  # one partition: the groups are the replica groups
    if strategy == CROSS_REPLICA:
        if not groups:
            return None if num_replicas is None else list(range(num_replicas))
        ids = [i for g in groups for i in g]
        count = len(ids)
        if sorted(ids) != list(range(count)) or num_replicas not in (None, count):
            return None  # not a partition of the replica ids (the verifier's business)
        positions = [0] * count
        for g in groups:
            for k, i in enumerate(g):
                positions[i] = k
        return positions
    if strategy == FLATTENED_IDS and num_replicas is not None and p is not None:
        positions = [0] * (num_replicas * p)
        try:
            groups = process_groups(op, num_replicas, p)
        except InvalidArgumentError:
            return None  # not a partition of the process ids
        for g in groups:
            for k, i in enumerate(g):
                positions[i] = k
        return positions
    return None


def _position(op, positions: list[int], num_partitions: int | None) -> Expr:
    """This process's position in its group (``ui32``)."""
    ident = Expr(replica_id())
    if strategy_of(op) == FLATTENED_IDS and num_partitions != 1:
        ident = ident * Expr(scalar(num_partitions, PrimitiveType.U32)) + Expr(partition_id())
    if positions == list(range(len(positions))):
        return ident
    table = constant(np.asarray(positions, np.uint32))
    return Expr(reshape(dynamic_slice(table, [ident.value], [1]), []))


@register
@dataclasses.dataclass
class AllGatherDecomposer(ExpanderPass):
    """Rewrite all_gather as a dynamic_update_slice into an identity-filled buffer and an all_reduce."""

    name = "all-gather-decomposer"
    as_bits: bool = dataclasses.field(
        default=True,
        metadata={"help": "gather floats as the integers of their bits (exact on every backend)"})

    def run(self, module: ir.Module) -> bool:
        self._grid = grid_of(module)
        return super().run(module)

    def matches(self, op) -> bool:
        if op.operation.name != "stablehlo.all_gather":
            return False
        if not xla_arrays([*op.operands, *op.results]):
            return False
        classes = {op_facts.type_class(known_dtype(v)) for v in op.operands}
        if self.as_bits and op_facts.COMPLEX in classes:
            return False
        return group_positions(op, *self._grid) is not None

    def expand(self, op) -> Sequence[ir.Value]:
        positions = group_positions(op, *self._grid)
        assert positions is not None  # matches(op) held
        start = _position(op, positions, self._grid[1])
        dim = int_attr(op, "all_gather_dim")
        attributes = {k: v for k, v in attribute_dict(op).items() if k != "all_gather_dim"}
        out = []
        for operand, result in zip(op.operands, op.results, strict=True):
            shard = _emit.shape_of(operand).dimensions[dim]
            zero = scalar(0, PrimitiveType.U32)
            starts = [zero] * _emit.shape_of(operand).rank
            starts[dim] = (start * Expr(scalar(shard, PrimitiveType.U32))).value
            bits = self.as_bits and op_facts.type_class(known_dtype(operand)) == op_facts.FLOAT
            width = f"s{_emit.shape_of(operand).element_type.bit_width}"
            value = bitcast_convert(operand, width) if bits else operand
            buffer = _buffer(value, _emit.shape_of(result).dimensions)
            gathered = _sum_of_buffers(dynamic_update_slice(buffer, value, starts), attributes)
            out.append(bitcast_convert(gathered, known_dtype(result)) if bits else gathered)
        return out


def _combine_name(dtype: np.dtype) -> str:
    """``or`` for PRED (XLA's choice), ``add`` for every other type."""
    return "stablehlo.or" if dtype == np.bool_ else "stablehlo.add"


def _buffer(operand: ir.Value, dimensions) -> ir.Value:
    """``dimensions`` filled with the identity of the op combining ``operand``'s element type
    (``-0.0`` for floats)."""
    dtype = known_dtype(operand)
    shape = _emit.shape_of(operand).with_dimensions(dimensions)
    return full(op_facts.identity_of(_combine_name(dtype), dtype), shape)


def _sum_of_buffers(buffer: ir.Value, attributes: dict) -> ir.Value:
    """``all_reduce`` of ``buffer`` with ``add`` (``or`` for PRED) and ``attributes``."""
    name = _combine_name(known_dtype(buffer))
    scalar_type = _emit.type_of(_emit.shape_of(buffer).with_dimensions([]))
    op, (block,) = _emit.create_with_region("stablehlo.all_reduce", [buffer], [buffer.type], attributes,
                                            [[scalar_type, scalar_type]])
    with ir.InsertionPoint(block):
        a, b = block.arguments
        _emit.region_return([binary(op_facts.FACTS[name].builder_name, a, b)])
    return op.results[0]
