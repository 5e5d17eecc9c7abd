"""Collectives: ReplicaId, AllReduce (alias CrossReplicaSum with add), AllGather, AllToAll,
ReduceScatter and CollectivePermute (spec: ReplicaId, AllReduce, AllGather, AllToAll,
ReduceScatter, CollectivePermute, CrossReplicaSum).

Every replica runs the same program on its own data; a collective exchanges data between
the replicas of each *replica group*. ``replica_groups`` is a list of lists of replica ids
that must partition ``[0, N)`` (N replicas); ``None`` or ``[]`` means one group of all
replicas, in id order (StableHLO: an empty ``replica_groups`` attribute, which XLA reads
that way). The replica count is a module attribute (``mhlo.num_replicas``, as JAX emits
it): :func:`set_replica_count` records it on a builder, and the ops then check their
replica ids against it and spell "all replicas" as the explicit group ``[[0, ..., N-1]]``.

IREE runs collectives only on CUDA/HIP with one process per device (docs/collectives.md);
``emulate-replicas`` (pipelines/legalizations/emulate_replicas.py) turns an N-replica module
into a single-device one so that it runs, and is tested, on one CPU.
"""

from __future__ import annotations

from typing import Callable, Sequence

from iree.compiler import ir

from dialect_ops._args import int_arg, require_static
from dialect_ops.elementwise import Add
from dialect_ops.replica_groups import (
    explicit_groups,
    groups_attr,
    replica_count,
    replica_groups_rule,
    set_replica_count,
    source_target_pairs_rule,
)
from dialect_ops.tuple_ops import get_tuple_element, tuple_
from hlo_mlir import _emit
from hlo_mlir.builder import Parameter, XlaBuilder, XlaComputation, XlaOp, builder_of
from hlo_mlir.errors import DTypeError, InvalidArgumentError, ShapeError
from hlo_mlir.shape import ProgramShape, Shape
from hlo_mlir.types import PrimitiveType

__all__ = ["set_replica_count", "replica_count",
           "ReplicaId", "replica_id", "partition_id",
           "AllReduce", "CrossReplicaSum", "all_reduce", "all_reduce_rule",
           "AllGather", "all_gather", "all_gather_rule",
           "AllToAll", "all_to_all", "all_to_all_rule",
           "ReduceScatter", "reduce_scatter", "reduce_scatter_rule",
           "CollectivePermute", "collective_permute", "collective_permute_rule",
           "replica_groups_rule", "source_target_pairs_rule"]

Filler = Callable[[ir.Block], None]
_U32 = Shape.scalar_shape(PrimitiveType.U32)


def _channel_attrs(op_name: str, channel_id, use_global_device_ids: bool = False) -> dict:
    attrs = {}
    if channel_id is not None:
        # Channel ids are positive: XLA reserves 0 for "no channel".
        if int_arg(op_name, "channel_id", channel_id) < 1:
            raise InvalidArgumentError(f"{op_name} requires a positive channel_id; got {channel_id}.")
        attrs["channel_handle"] = _emit.parse_attr(
            f"#stablehlo.channel_handle<handle = {int(channel_id)}, type = 1>")
    if use_global_device_ids:
        # Global device ids are only defined for cross-replica-and-partition collectives.
        if channel_id is None:
            raise InvalidArgumentError(
                f"{op_name} requires a channel_id when use_global_device_ids is set; got none.")
        attrs["use_global_device_ids"] = _emit.parse_attr("unit")
    return attrs


def _reducer_block_types(element_type: PrimitiveType) -> list[list[ir.Type]]:
    scalar = _emit.type_of(Shape.scalar_shape(element_type))
    return [[scalar, scalar]]


def _check_reducer(op_name: str, reducer: ProgramShape | None, element_type: PrimitiveType) -> None:
    """The reducer is (T[], T[]) -> T[] for the operand's element type T."""
    if reducer is None:
        return
    scalar = Shape.scalar_shape(element_type)
    if len(reducer.parameters) != 2 or not all(p.compatible(scalar) for p in reducer.parameters) \
            or not reducer.result.compatible(scalar):
        raise DTypeError(f"{op_name} requires a computation of shape ({scalar}, {scalar}) -> {scalar} for an "
                         f"operand of element type {element_type.value}; got {reducer}.")


def _array_leaves(op_name: str, operand: XlaOp) -> list[ir.Value]:
    """An array operand, or the elements of a non-empty tuple of arrays (read at the
    insertion point)."""
    shape = operand.shape
    if not shape.is_tuple:
        return [operand.value]
    if not shape.tuple_shapes or not all(s.is_array for s in shape.tuple_shapes):
        raise ShapeError(f"{op_name} requires an array or a non-empty tuple of arrays; got {shape}.")
    return [get_tuple_element(operand.value, i) for i in range(len(shape.tuple_shapes))]


def _per_element(op_name: str, operand: XlaOp, fn: Callable[[ir.Value], ir.Value]) -> ir.Value:
    """``fn`` applied to an array operand, or to each array of a tuple operand (the spec: "the
    op is performed on each element of the tuple"); one op per element, packed again."""
    results = [fn(v) for v in _array_leaves(op_name, operand)]
    return tuple_(results) if operand.shape.is_tuple else results[0]


def _computation(op_name: str, computation) -> XlaComputation:
    if not isinstance(computation, XlaComputation):
        raise InvalidArgumentError(
            f"{op_name} requires an XlaComputation reducer; got {type(computation).__name__}.")
    return computation


def _dimension(op_name: str, what: str, value, operand: Shape) -> int:
    d = int_arg(op_name, what, value)
    if not 0 <= d < operand.rank:
        raise InvalidArgumentError(
            f"{op_name} requires {what} in [0, {operand.rank}); got {d} for operand {operand}.")
    return d


def _group_count(op_name: str, what: str, value, replica_groups, num_replicas: int | None, operand: Shape,
                 dimension: int | None = None, dimension_what: str = "") -> int:
    """A positive shard/split count: the size of every replica group (of all replicas when the
    groups are empty and N is known) and, with ``dimension``, a divisor of its size."""
    n = int_arg(op_name, what, value)
    if n < 1:
        raise InvalidArgumentError(f"{op_name} requires a positive {what}; got {n}.")
    if dimension is not None and operand.dimensions[dimension] % n:
        raise ShapeError(
            f"{op_name} requires the {dimension_what} dimension's size divisible by {what}; got size "
            f"{operand.dimensions[dimension]} of dimension {dimension} of {operand} and {what}={n}.")
    groups = replica_groups_rule(op_name, replica_groups, num_replicas, group_size=n)
    if not groups and num_replicas is not None and n != num_replicas:
        raise InvalidArgumentError(
            f"{op_name} requires {what} equal to the number of replicas ({num_replicas}) "
            f"when all replicas form one group; got {n}.")
    return n


# --- ReplicaId -----------------------------------------------------------------------------------
def ReplicaId(builder: XlaBuilder) -> XlaOp:
    """The id of the replica running the program, a U32 scalar in ``[0, N)`` (spec: ReplicaId)."""
    if not isinstance(builder, XlaBuilder):
        raise InvalidArgumentError(f"ReplicaId requires an XlaBuilder; got {type(builder).__name__}.")
    return builder.emit("ReplicaId", replica_id)


def replica_id() -> ir.Value:
    """Emits ``stablehlo.replica_id : tensor<ui32>``."""
    return _emit.create("stablehlo.replica_id", [], [_emit.type_of(_U32)]).result


def partition_id() -> ir.Value:
    """Emits ``stablehlo.partition_id : tensor<ui32>`` (the partition running the program)."""
    return _emit.create("stablehlo.partition_id", [], [_emit.type_of(_U32)]).result


# --- AllReduce, CrossReplicaSum ------------------------------------------------------------------
def AllReduce(operand: XlaOp, computation: XlaComputation, replica_groups=None, channel_id: int | None = None,
              shape_with_layout: Shape | None = None, use_global_device_ids: bool | None = None) -> XlaOp:
    """Reduces ``operand`` with ``computation`` across the replicas of each group; every member
    gets the group's result (spec: AllReduce). A tuple of arrays is reduced element by
    element. ``shape_with_layout`` (a layout request) must equal the operand's shape."""
    b = builder_of("AllReduce", operand)

    def emit():
        reducer = _computation("AllReduce", computation).program_shape()
        if shape_with_layout is not None and not shape_with_layout.compatible(operand.shape):
            raise ShapeError(f"AllReduce requires shape_with_layout equal to the operand shape; got "
                             f"{shape_with_layout} for operand {operand.shape}.")
        fill = lambda block: b.inline_computation(computation, block)  # noqa: E731
        return _per_element("AllReduce", operand, lambda v: all_reduce(
            v, fill, replica_groups, channel_id, bool(use_global_device_ids), reducer, replica_count(b)))

    return b.emit("AllReduce", emit)


def CrossReplicaSum(operand: XlaOp, replica_groups=None) -> XlaOp:
    """AllReduce with a summation computation (spec 003: CrossReplicaSum)."""
    b = builder_of("CrossReplicaSum", operand)
    leaves = operand.shape.leaves()
    if not leaves or not all(s.is_array for s in leaves) or len({s.element_type for s in leaves}) != 1:
        raise ShapeError("CrossReplicaSum requires an array or a non-empty tuple of arrays of one element "
                         f"type; got {operand.shape}.")
    scalar = Shape.scalar_shape(leaves[0].element_type)
    adder = b.create_sub_builder("sum")
    add = adder.build(Add(Parameter(adder, 0, scalar, "x"), Parameter(adder, 1, scalar, "y")))
    return AllReduce(operand, add, replica_groups)


def all_reduce_rule(operand: Shape, reducer: ProgramShape | None = None, replica_groups=None,
                    num_replicas: int | None = None) -> Shape:
    """AllReduce of one array keeps its shape; groups may differ in size (StableHLO pads them)."""
    require_static("AllReduce", operand)
    replica_groups_rule("AllReduce", replica_groups, num_replicas, equal_sizes=False)
    _check_reducer("AllReduce", reducer, operand.element_type)
    return operand


def all_reduce(operand: ir.Value, body: Filler, replica_groups=None, channel_id: int | None = None,
               use_global_device_ids: bool = False, reducer: ProgramShape | None = None,
               num_replicas: int | None = None) -> ir.Value:
    """Emits ``stablehlo.all_reduce`` of one array; ``body(block)`` fills the reducer region
    (two scalar arguments) and ends it with ``stablehlo.return``."""
    shape = all_reduce_rule(_emit.shape_of(operand), reducer, replica_groups, num_replicas)
    groups = explicit_groups(
        replica_groups_rule("AllReduce", replica_groups, num_replicas, equal_sizes=False), num_replicas)
    attrs = {"replica_groups": groups_attr(groups),
             **_channel_attrs("AllReduce", channel_id, use_global_device_ids)}
    op, (block,) = _emit.create_with_region("stablehlo.all_reduce", [operand], [_emit.type_of(shape)], attrs,
                                            _reducer_block_types(shape.element_type))
    body(block)
    return op.results[0]


# --- AllGather -----------------------------------------------------------------------------------
def AllGather(operand: XlaOp, all_gather_dimension: int, shard_count: int, replica_groups=None,
              channel_id: int | None = None) -> XlaOp:
    """Concatenates the operands of each group's replicas, in group order, along
    ``all_gather_dimension``, which grows ``shard_count`` (the group size) times (spec: AllGather)."""
    b = builder_of("AllGather", operand)
    return b.emit("AllGather", lambda: all_gather(operand.value, all_gather_dimension, shard_count,
                                                  replica_groups, channel_id, replica_count(b)))


def all_gather_rule(operand: Shape, all_gather_dimension: int, shard_count: int, replica_groups=None,
                    num_replicas: int | None = None) -> Shape:
    require_static("AllGather", operand)
    d = _dimension("AllGather", "all_gather_dimension", all_gather_dimension, operand)
    n = _group_count("AllGather", "shard_count", shard_count, replica_groups, num_replicas, operand)
    sizes = list(operand.dimensions)
    sizes[d] *= n
    return operand.with_dimensions(sizes)


def all_gather(operand: ir.Value, all_gather_dimension: int, shard_count: int, replica_groups=None,
               channel_id: int | None = None, num_replicas: int | None = None) -> ir.Value:
    """Emits ``stablehlo.all_gather``."""
    result = all_gather_rule(_emit.shape_of(operand), all_gather_dimension, shard_count, replica_groups,
                             num_replicas)
    groups = explicit_groups(replica_groups_rule("AllGather", replica_groups, num_replicas), num_replicas)
    return _emit.create("stablehlo.all_gather", [operand], [_emit.type_of(result)],
                        {"all_gather_dim": _emit.i64_attr(all_gather_dimension),
                         "replica_groups": groups_attr(groups),
                         **_channel_attrs("AllGather", channel_id)}).result


# --- AllToAll --------------------------------------------------------------------------------------
def AllToAll(operand: XlaOp, split_dimension: int, concat_dimension: int, split_count: int,
             replica_groups=None) -> XlaOp:
    """Splits ``operand`` into ``split_count`` blocks along ``split_dimension`` and sends block i
    to the i-th replica of the group; each replica concatenates the blocks it receives, in
    group order, along ``concat_dimension`` (spec: AllToAll)."""
    b = builder_of("AllToAll", operand)
    return b.emit("AllToAll", lambda: all_to_all(operand.value, split_dimension, concat_dimension,
                                                 split_count, replica_groups, replica_count(b)))


def all_to_all_rule(operand: Shape, split_dimension: int, concat_dimension: int, split_count: int,
                    replica_groups=None, num_replicas: int | None = None) -> Shape:
    require_static("AllToAll", operand)
    split = _dimension("AllToAll", "split_dimension", split_dimension, operand)
    concat = _dimension("AllToAll", "concat_dimension", concat_dimension, operand)
    n = _group_count("AllToAll", "split_count", split_count, replica_groups, num_replicas, operand, split,
                     "split")
    sizes = list(operand.dimensions)
    sizes[split] //= n
    sizes[concat] *= n
    return operand.with_dimensions(sizes)


def all_to_all(operand: ir.Value, split_dimension: int, concat_dimension: int, split_count: int,
               replica_groups=None, num_replicas: int | None = None) -> ir.Value:
    """Emits ``stablehlo.all_to_all``."""
    result = all_to_all_rule(_emit.shape_of(operand), split_dimension, concat_dimension, split_count,
                             replica_groups, num_replicas)
    groups = explicit_groups(replica_groups_rule("AllToAll", replica_groups, num_replicas), num_replicas)
    return _emit.create("stablehlo.all_to_all", [operand], [_emit.type_of(result)],
                        {"split_dimension": _emit.i64_attr(split_dimension),
                         "concat_dimension": _emit.i64_attr(concat_dimension),
                         "split_count": _emit.i64_attr(split_count),
                         "replica_groups": groups_attr(groups)}).result


# --- ReduceScatter ----------------------------------------------------------------------------------
def ReduceScatter(operand: XlaOp, computation: XlaComputation, scatter_dimension: int, shard_count: int,
                  replica_groups=None, channel_id: int | None = None) -> XlaOp:
    """AllReduce, then the result split into ``shard_count`` blocks along ``scatter_dimension``:
    the i-th replica of a group gets block i (spec: ReduceScatter). A tuple of arrays is
    handled element by element."""
    b = builder_of("ReduceScatter", operand)

    def emit():
        reducer = _computation("ReduceScatter", computation).program_shape()
        fill = lambda block: b.inline_computation(computation, block)  # noqa: E731
        return _per_element("ReduceScatter", operand, lambda v: reduce_scatter(
            v, fill, scatter_dimension, shard_count, replica_groups, channel_id, reducer, replica_count(b)))

    return b.emit("ReduceScatter", emit)


def reduce_scatter_rule(operand: Shape, scatter_dimension: int, shard_count: int, replica_groups=None,
                        reducer: ProgramShape | None = None, num_replicas: int | None = None) -> Shape:
    require_static("ReduceScatter", operand)
    d = _dimension("ReduceScatter", "scatter_dimension", scatter_dimension, operand)
    n = _group_count("ReduceScatter", "shard_count", shard_count, replica_groups, num_replicas, operand, d,
                     "scatter")
    _check_reducer("ReduceScatter", reducer, operand.element_type)
    sizes = list(operand.dimensions)
    sizes[d] //= n
    return operand.with_dimensions(sizes)


def reduce_scatter(operand: ir.Value, body: Filler, scatter_dimension: int, shard_count: int,
                   replica_groups=None, channel_id: int | None = None, reducer: ProgramShape | None = None,
                   num_replicas: int | None = None) -> ir.Value:
    """Emits ``stablehlo.reduce_scatter``; ``body(block)`` fills the reducer region."""
    result = reduce_scatter_rule(_emit.shape_of(operand), scatter_dimension, shard_count, replica_groups,
                                 reducer, num_replicas)
    groups = explicit_groups(replica_groups_rule("ReduceScatter", replica_groups, num_replicas), num_replicas)
    attrs = {"scatter_dimension": _emit.i64_attr(scatter_dimension), "replica_groups": groups_attr(groups),
             **_channel_attrs("ReduceScatter", channel_id)}
    op, (block,) = _emit.create_with_region("stablehlo.reduce_scatter", [operand], [_emit.type_of(result)],
                                            attrs, _reducer_block_types(result.element_type))
    body(block)
    return op.results[0]


# --- CollectivePermute ------------------------------------------------------------------------------
def CollectivePermute(operand: XlaOp, source_target_pairs: Sequence[tuple[int, int]]) -> XlaOp:
    """Sends ``operand`` from each pair's source replica to its target replica; a replica that
    is no pair's target gets zeros of the operand's shape (spec: CollectivePermute)."""
    b = builder_of("CollectivePermute", operand)
    return b.emit("CollectivePermute", lambda: collective_permute(operand.value, source_target_pairs,
                                                                  replica_count(b)))


def collective_permute_rule(operand: Shape, source_target_pairs, num_replicas: int | None = None) -> Shape:
    require_static("CollectivePermute", operand)
    source_target_pairs_rule(source_target_pairs, num_replicas)
    return operand


def collective_permute(operand: ir.Value, source_target_pairs, num_replicas: int | None = None) -> ir.Value:
    """Emits ``stablehlo.collective_permute``."""
    result = collective_permute_rule(_emit.shape_of(operand), source_target_pairs, num_replicas)
    pairs = source_target_pairs_rule(source_target_pairs, num_replicas)
    attr = _emit.dense_i64_elements([i for p in pairs for i in p], (len(pairs), 2))
    return _emit.create("stablehlo.collective_permute", [operand], [_emit.type_of(result)],
                        {"source_target_pairs": attr}).result
