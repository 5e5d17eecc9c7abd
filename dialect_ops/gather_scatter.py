"""Gather and Scatter (spec: Gather, Scatter) and their dimension numbers.

The dimension numbers are :class:`GatherDimensionNumbers` and
:class:`ScatterDimensionNumbers` (XLA's protos, batching dimensions included). Start
indices are run-time values, so XLA defines what happens out of range: Gather clamps
each start index into ``[0, operand_dim - slice_size]`` (the slice always lies inside
the operand); Scatter skips every update window that does not lie entirely inside the
operand. As in XLA, the variadic Scatter (a list of operands) returns one tuple-shaped
XlaOp; the emit function ``scatter`` returns the N results of ``stablehlo.scatter``.

The pinned IREE reads and writes out of bounds on some of these forms; the expanders
``gather-clamp`` and ``scatter-bounds`` rewrite them before IREE sees them.
"""

from __future__ import annotations

from dataclasses import Field, asdict, dataclass, fields
from typing import Any, Callable, ClassVar, Sequence

from iree.compiler import ir

from dialect_ops._args import int_arg, int_list, require_static
from dialect_ops.tuple_ops import inline_untupled, tuple_
from hlo_mlir import _emit, ir_access
from hlo_mlir.builder import XlaComputation, XlaOp, builder_of
from hlo_mlir.errors import DTypeError, InvalidArgumentError, ShapeError
from hlo_mlir.shape import ProgramShape, Shape

__all__ = ["GatherDimensionNumbers", "Gather", "gather", "gather_rule",
           "ScatterDimensionNumbers", "Scatter", "scatter", "scatter_rule", "update_computation_rule"]


# --- checks --------------------------------------------------------------------------------
def _require_integer_indices(op_name: str, shape: Shape, what: str) -> None:
    require_static(op_name, shape, what)
    if not shape.element_type.is_integer:
        raise DTypeError(f"{op_name} requires {what} of an integer type; got {shape}.")


def _require_bool(op_name: str, what: str, value) -> bool:
    if not isinstance(value, bool):
        raise InvalidArgumentError(f"{op_name} requires {what} to be a bool; got {value!r}.")
    return value


def _check_dims(op_name: str, what: str, dims: Sequence[int], bound: int, bound_name: str,
                ordered: bool = False) -> None:
    """``dims`` distinct, each in [0, bound) and, if ``ordered``, ascending."""
    if any(not 0 <= d < bound for d in dims):
        raise InvalidArgumentError(
            f"{op_name} requires {what} in [0, {bound}) ({bound_name}); got {list(dims)}.")
    if len(set(dims)) != len(dims):
        raise InvalidArgumentError(f"{op_name} requires distinct {what}; got {list(dims)}.")
    if ordered and list(dims) != sorted(dims):
        raise InvalidArgumentError(f"{op_name} requires {what} in ascending order; got {list(dims)}.")


# --- dimension numbers ------------------------------------------------------------------------
class _DimensionNumbers:
    """Shared by the two dimension-number records (their fields are those of the records
    ``hlo_mlir.ir_access`` reads): argument checks, the attribute text
    ``#stablehlo.<kind><field = [...], ...>`` and reading it back (for passes)."""

    __dataclass_fields__: ClassVar[dict[str, Field[Any]]]  # a mixin of dataclasses, for fields()
    _KIND = ""
    _READ: Callable[[ir.Attribute], Any]  # the ir_access reader of the attribute
    _SCALARS: tuple[str, ...] = ("index_vector_dim",)

    def __post_init__(self):
        for f in fields(self):
            value = getattr(self, f.name)
            if f.name in self._SCALARS:
                object.__setattr__(self, f.name, int_arg(type(self).__name__, f.name, value))
            else:
                object.__setattr__(self, f.name, tuple(int_list(type(self).__name__, f.name, value)))

    def attribute_text(self) -> str:
        def text(name):
            value = getattr(self, name)
            return str(value) if name in self._SCALARS else str(list(value))

        parts = [f"{f.name} = {text(f.name)}" for f in fields(self)]
        return f"#stablehlo.{self._KIND}<{', '.join(parts)}>"

    @classmethod
    def from_attribute(cls, attr: ir.Attribute):
        """The dimension numbers of a ``#stablehlo.gather``/``#stablehlo.scatter`` attribute."""
        return cls(**asdict(cls._READ(attr)))

    def __str__(self) -> str:
        return self.attribute_text()


@dataclass(frozen=True)
class GatherDimensionNumbers(_DimensionNumbers, ir_access.GatherDimensions):
    """Gather's dimension numbers (XLA's GatherDimensionNumbers proto).

    ``offset_dims``: result dimensions that index into the slice; ``collapsed_slice_dims``:
    operand dimensions of size-1 slices dropped from the result; ``start_index_map``:
    operand dimension of each start index component; ``index_vector_dim``: the dimension of
    ``start_indices`` holding the index vectors (= its rank for an implicit trailing 1);
    ``operand_batching_dims`` / ``start_indices_batching_dims``: paired batch dimensions.
    """

    _KIND = "gather"
    _READ = staticmethod(ir_access.gather_dimension_numbers)


@dataclass(frozen=True)
class ScatterDimensionNumbers(_DimensionNumbers, ir_access.ScatterDimensions):
    """Scatter's dimension numbers (XLA's ScatterDimensionNumbers proto).

    ``update_window_dims``: dimensions of ``updates`` that index into the window;
    ``inserted_window_dims``: operand dimensions where the window has size 1 and no
    updates dimension; ``scatter_dims_to_operand_dims``: operand dimension of each index
    vector component; ``index_vector_dim``: as for Gather; ``input_batching_dims`` /
    ``scatter_indices_batching_dims``: paired batch dimensions.
    """

    _KIND = "scatter"
    _READ = staticmethod(ir_access.scatter_dimension_numbers)


def _dnums(op_name: str, cls, value):
    if not isinstance(value, cls):
        raise InvalidArgumentError(f"{op_name} requires a {cls.__name__}; got {value!r}.")
    return value


def _index_batch_dims(op_name: str, indices: Shape, index_vector_dim: int, index_map: Sequence[int],
                      map_name: str) -> list[int]:
    """The sizes of ``indices`` without ``index_vector_dim`` (its batch dimensions), after
    checking that the index vector has one component per entry of ``index_map``."""
    if not 0 <= index_vector_dim <= indices.rank:
        raise InvalidArgumentError(f"{op_name} requires index_vector_dim in [0, {indices.rank}] (the rank "
                                   f"of the indices); got {index_vector_dim} for indices {indices}.")
    implicit = index_vector_dim == indices.rank
    width = 1 if implicit else indices.dimensions[index_vector_dim]
    if len(index_map) != width:
        raise ShapeError(f"{op_name} requires {map_name} to have one entry per index vector component "
                         f"({width}); got {list(index_map)} for indices {indices} with index_vector_dim "
                         f"{index_vector_dim}.")
    return [n for d, n in enumerate(indices.dimensions) if d != index_vector_dim]


def _batching_rule(op_name: str, operand: Shape, indices: Shape, operand_dims: Sequence[int],
                   index_dims: Sequence[int], index_vector_dim: int, names: tuple[str, str]) -> None:
    """Paired batching dimensions: same count, distinct, in range, not the index vector
    dimension, same sizes."""
    _check_dims(op_name, names[1], index_dims, indices.rank, f"rank of indices {indices}")
    if index_vector_dim in index_dims:
        raise InvalidArgumentError(f"{op_name} requires {names[1]} to exclude index_vector_dim "
                                   f"{index_vector_dim}; got {list(index_dims)}.")
    if len(operand_dims) != len(index_dims):
        raise InvalidArgumentError(f"{op_name} requires as many {names[0]} as {names[1]}; got "
                                   f"{list(operand_dims)} and {list(index_dims)}.")
    for a, c in zip(operand_dims, index_dims, strict=True):
        if operand.dimensions[a] != indices.dimensions[c]:
            raise ShapeError(f"{op_name} requires batching dimensions of equal size; got operand {operand} "
                             f"dimension {a} and indices {indices} dimension {c}.")


# --- Gather -------------------------------------------------------------------------------------
def Gather(operand: XlaOp, start_indices: XlaOp, dimension_numbers: GatherDimensionNumbers,
           slice_sizes: Sequence[int], indices_are_sorted: bool = False) -> XlaOp:
    """Stitches together slices of ``operand`` of ``slice_sizes``, one per index vector of
    ``start_indices``, each start clamped so that the slice lies inside the operand
    (spec: Gather)."""
    b = builder_of("Gather", operand, start_indices)
    return b.emit("Gather", lambda: gather(operand.value, start_indices.value, dimension_numbers,
                                           slice_sizes, indices_are_sorted))


def gather_rule(operand: Shape, start_indices: Shape, dimension_numbers: GatherDimensionNumbers,
                slice_sizes: Sequence[int], indices_are_sorted: bool = False) -> Shape:
    """The result shape of Gather (XLA's ShapeInference::InferGatherShape; StableHLO gather
    constraints C1-C23)."""
    op = "Gather"
    dn = _dnums(op, GatherDimensionNumbers, dimension_numbers)
    require_static(op, operand)
    _require_integer_indices(op, start_indices, "start_indices")
    _require_bool(op, "indices_are_sorted", indices_are_sorted)
    sizes = int_list(op, "slice_sizes", slice_sizes)
    batch = _index_batch_dims(op, start_indices, dn.index_vector_dim, dn.start_index_map, "start_index_map")
    result_rank = len(batch) + len(dn.offset_dims)
    _check_dims(op, "offset_dims", dn.offset_dims, result_rank, "rank of the result", ordered=True)
    of_operand = f"rank of operand {operand}"
    _check_dims(op, "collapsed_slice_dims", dn.collapsed_slice_dims, operand.rank, of_operand, ordered=True)
    _check_dims(op, "operand_batching_dims", dn.operand_batching_dims, operand.rank, of_operand, ordered=True)
    _check_dims(op, "collapsed_slice_dims and operand_batching_dims together",
                dn.collapsed_slice_dims + dn.operand_batching_dims, operand.rank, of_operand)
    _check_dims(op, "start_index_map and operand_batching_dims together",
                dn.start_index_map + dn.operand_batching_dims, operand.rank, of_operand)
    removed = len(dn.collapsed_slice_dims) + len(dn.operand_batching_dims)
    if operand.rank != len(dn.offset_dims) + removed:
        raise ShapeError(f"{op} requires operand rank = size(offset_dims) + size(collapsed_slice_dims) + "
                         f"size(operand_batching_dims); got operand {operand} and {dn}.")
    if len(sizes) != operand.rank or any(not 0 <= s <= d
                                         for s, d in zip(sizes, operand.dimensions, strict=True)):
        raise ShapeError(f"{op} requires one slice size per operand dimension with 0 <= size <= dimension; "
                         f"got slice_sizes {sizes} for operand {operand}.")
    for what, dims in (("collapsed_slice_dims", dn.collapsed_slice_dims),
                       ("operand_batching_dims", dn.operand_batching_dims)):
        if any(sizes[d] > 1 for d in dims):
            raise ShapeError(f"{op} requires slice sizes of at most 1 in {what} {list(dims)}; "
                             f"got slice_sizes {sizes}.")
    _batching_rule(op, operand, start_indices, dn.operand_batching_dims, dn.start_indices_batching_dims,
                   dn.index_vector_dim, ("operand_batching_dims", "start_indices_batching_dims"))
    offset_sizes = [s for d, s in enumerate(sizes)
                    if d not in dn.collapsed_slice_dims and d not in dn.operand_batching_dims]
    offsets, batches = iter(offset_sizes), iter(batch)
    dims = [next(offsets) if d in dn.offset_dims else next(batches) for d in range(result_rank)]
    return Shape.array_shape(operand.element_type, dims)


def gather(operand: ir.Value, start_indices: ir.Value, dimension_numbers: GatherDimensionNumbers,
           slice_sizes: Sequence[int], indices_are_sorted: bool = False) -> ir.Value:
    """Emits ``stablehlo.gather``."""
    result = gather_rule(_emit.shape_of(operand), _emit.shape_of(start_indices), dimension_numbers,
                         slice_sizes, indices_are_sorted)
    return _emit.create("stablehlo.gather", [operand, start_indices], [_emit.type_of(result)],
                        {"dimension_numbers": _emit.parse_attr(dimension_numbers.attribute_text()),
                         "slice_sizes": _emit.i64_array(slice_sizes),
                         "indices_are_sorted": _emit.i1_attr(indices_are_sorted)}).result


# --- Scatter ------------------------------------------------------------------------------------
def Scatter(operands, scatter_indices: XlaOp, updates, update_computation: XlaComputation,
            dimension_numbers: ScatterDimensionNumbers, indices_are_sorted: bool = False,
            unique_indices: bool = False) -> XlaOp:
    """``operands`` with the windows of ``updates`` combined in at ``scatter_indices`` by
    ``update_computation(current, update)``; a window that does not lie entirely inside the
    operand is skipped (spec: Scatter).

    ``operands`` and ``updates`` are one XlaOp each (result: an array) or lists of N
    (result: a tuple of N arrays, the computation taking N currents then N updates).
    Duplicate indices combine in an unspecified order.
    """
    variadic = not isinstance(operands, XlaOp)
    operands = list(operands) if variadic else [operands]
    updates = list(updates) if variadic and not isinstance(updates, XlaOp) else [updates]
    if not operands:
        raise InvalidArgumentError("Scatter requires at least one operand; got none.")
    b = builder_of("Scatter", *operands, scatter_indices, *updates)
    if not isinstance(update_computation, XlaComputation):
        raise InvalidArgumentError(f"Scatter requires an XlaComputation update_computation; "
                                   f"got {type(update_computation).__name__}.")

    def emit():
        results = scatter([x.value for x in operands], scatter_indices.value, [u.value for u in updates],
                          dimension_numbers, lambda block: inline_untupled(b, update_computation, block),
                          indices_are_sorted, unique_indices, update_computation.program_shape())
        return tuple_(results) if variadic else results[0]

    return b.emit("Scatter", emit)


def scatter_rule(operands: Sequence[Shape], scatter_indices: Shape, updates: Sequence[Shape],
                 dimension_numbers: ScatterDimensionNumbers, indices_are_sorted: bool = False,
                 unique_indices: bool = False, update_computation: ProgramShape | None = None) -> list[Shape]:
    """The N result shapes of Scatter (the operands'), after XLA's
    ShapeInference::InferScatterShape checks (StableHLO scatter constraints C1-C25)."""
    op = "Scatter"
    dn = _dnums(op, ScatterDimensionNumbers, dimension_numbers)
    _require_bool(op, "indices_are_sorted", indices_are_sorted)
    _require_bool(op, "unique_indices", unique_indices)
    if not operands or len(operands) != len(updates):
        raise InvalidArgumentError(f"Scatter requires N >= 1 operands and as many updates; got "
                                   f"{len(operands)} operands and {len(updates)} updates.")
    for i, (s, u) in enumerate(zip(operands, updates, strict=True)):
        require_static(op, s, f"operand {i}")
        require_static(op, u, f"updates {i}")
        if s.dimensions != operands[0].dimensions or u.dimensions != updates[0].dimensions:
            raise ShapeError(f"Scatter requires operands of one shape and updates of one shape; got operands "
                             f"{', '.join(map(str, operands))} and updates {', '.join(map(str, updates))}.")
        if u.element_type != s.element_type:
            raise DTypeError(f"Scatter requires updates of their operand's element type; got updates {u} "
                             f"for operand {s}.")
    _require_integer_indices(op, scatter_indices, "scatter_indices")
    operand, upd = operands[0], updates[0]
    batch = _index_batch_dims(op, scatter_indices, dn.index_vector_dim, dn.scatter_dims_to_operand_dims,
                              "scatter_dims_to_operand_dims")
    of_operand = f"rank of operand {operand}"
    _check_dims(op, "update_window_dims", dn.update_window_dims, upd.rank, f"rank of updates {upd}",
                ordered=True)
    _check_dims(op, "inserted_window_dims", dn.inserted_window_dims, operand.rank, of_operand, ordered=True)
    _check_dims(op, "input_batching_dims", dn.input_batching_dims, operand.rank, of_operand, ordered=True)
    _check_dims(op, "inserted_window_dims and input_batching_dims together",
                dn.inserted_window_dims + dn.input_batching_dims, operand.rank, of_operand)
    _check_dims(op, "scatter_dims_to_operand_dims and input_batching_dims together",
                dn.scatter_dims_to_operand_dims + dn.input_batching_dims, operand.rank, of_operand)
    window_rank = len(dn.update_window_dims) + len(dn.inserted_window_dims) + len(dn.input_batching_dims)
    if operand.rank != window_rank:
        raise ShapeError(f"Scatter requires operand rank = size(update_window_dims) + "
                         f"size(inserted_window_dims) + size(input_batching_dims); got operand {operand} "
                         f"and {dn}.")
    if upd.rank != len(dn.update_window_dims) + len(batch):
        raise ShapeError(f"Scatter requires updates of rank size(update_window_dims) + {len(batch)} (the "
                         f"scatter_indices dimensions other than index_vector_dim); got updates {upd} for "
                         f"scatter_indices {scatter_indices} and {dn}.")
    _batching_rule(op, operand, scatter_indices, dn.input_batching_dims, dn.scatter_indices_batching_dims,
                   dn.index_vector_dim, ("input_batching_dims", "scatter_indices_batching_dims"))
    window_bounds = [n for d, n in enumerate(operand.dimensions)
                     if d not in dn.inserted_window_dims and d not in dn.input_batching_dims]
    for k, d in enumerate(dn.update_window_dims):
        if upd.dimensions[d] > window_bounds[k]:
            raise ShapeError(f"Scatter requires update window dimension {d} ({upd.dimensions[d]}) to fit "
                             f"its operand dimension ({window_bounds[k]}); got updates {upd} for operand "
                             f"{operand} and {dn}.")
    scatter_dims = [d for d in range(upd.rank) if d not in dn.update_window_dims]
    for k, d in enumerate(scatter_dims):
        if upd.dimensions[d] != batch[k]:
            raise ShapeError(f"Scatter requires update scatter dimension {d} ({upd.dimensions[d]}) to equal "
                             f"the matching scatter_indices dimension ({batch[k]}); got updates {upd} for "
                             f"scatter_indices {scatter_indices} and {dn}.")
    if update_computation is not None:
        update_computation_rule(update_computation, [s.element_type for s in operands])
    return list(operands)


def update_computation_rule(computation: ProgramShape, element_types: Sequence) -> None:
    """Checks a scatter update computation of N operands: parameters (T_0..T_{N-1},
    T_0..T_{N-1}) of scalars (currents, then updates), result T_0 (N = 1) or a tuple of them."""
    n = len(element_types)
    scalars = [Shape.scalar_shape(t) for t in element_types]
    expected = ProgramShape(scalars * 2, scalars[0] if n == 1 else Shape.tuple_shape(scalars))
    results = list(computation.result.tuple_shapes) if computation.result.is_tuple else [computation.result]
    if len(computation.parameters) != 2 * n:
        raise InvalidArgumentError(f"Scatter requires an update_computation of {2 * n} parameters for {n} "
                                   f"operand(s), of shape {expected}; got {computation}.")
    if list(computation.parameters) != scalars * 2 or results != scalars or \
            (n == 1 and computation.result.is_tuple):
        raise DTypeError(f"Scatter requires an update_computation of shape {expected}; got {computation}.")


def scatter(operands: Sequence[ir.Value], scatter_indices: ir.Value, updates: Sequence[ir.Value],
            dimension_numbers: ScatterDimensionNumbers, body: Callable[[ir.Block], None],
            indices_are_sorted: bool = False, unique_indices: bool = False,
            update_computation: ProgramShape | None = None) -> list[ir.Value]:
    """Emits ``stablehlo.scatter``; ``body(block)`` fills its region, whose arguments are the N
    current values then the N updates (scalars), and ends it with ``stablehlo.return``."""
    shapes = scatter_rule(_emit.shapes_of(operands), _emit.shape_of(scatter_indices),
                          _emit.shapes_of(updates), dimension_numbers, indices_are_sorted, unique_indices,
                          update_computation)
    scalar_types = [_emit.type_of(Shape.scalar_shape(s.element_type)) for s in shapes]
    op, (block,) = _emit.create_with_region(
        "stablehlo.scatter", [*operands, scatter_indices, *updates], [_emit.type_of(s) for s in shapes],
        {"scatter_dimension_numbers": _emit.parse_attr(dimension_numbers.attribute_text()),
         "indices_are_sorted": _emit.i1_attr(indices_are_sorted),
         "unique_indices": _emit.i1_attr(unique_indices)}, [scalar_types * 2])
    body(block)
    return list(op.results)
