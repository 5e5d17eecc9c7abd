"""Data-dependent slicing: DynamicSlice and DynamicUpdateSlice (spec: DynamicSlice,
DynamicUpdateSlice). Gather and Scatter are in :mod:`dialect_ops.gather_scatter`.

Start indices are run-time values, so XLA defines what happens out of range: each start
index is clamped into ``[0, operand_dim - slice_size]``, so the slice always lies inside
the operand.

The pinned IREE misreads some start index types; the expander ``dynamic-slice-indices``
rewrites them before IREE sees them.
"""

from __future__ import annotations

from typing import Sequence

from iree.compiler import ir

from dialect_ops._args import int_list, require_static
from dialect_ops.shape_ops import reshape
from dialect_ops.slicing import slice_
from hlo_mlir import _emit
from hlo_mlir.builder import XlaOp, builder_of
from hlo_mlir.errors import DTypeError, InvalidArgumentError, ShapeError
from hlo_mlir.shape import Shape

__all__ = ["DynamicSlice", "dynamic_slice", "dynamic_slice_rule",
           "DynamicUpdateSlice", "dynamic_update_slice", "dynamic_update_slice_rule"]


def _start_index_rule(op_name: str, operand: Shape, start_indices: Sequence[Shape]) -> None:
    """N scalar start indices of one integer type for a rank-N operand."""
    if len(start_indices) != operand.rank:
        raise ShapeError(f"{op_name} requires one start index per operand dimension ({operand.rank}); "
                         f"got {len(start_indices)} for operand {operand}.")
    for i, s in enumerate(start_indices):
        if not s.is_scalar or not s.element_type.is_integer:
            raise DTypeError(f"{op_name} requires scalar integer start indices; got {s} for start index {i}.")
        if s.element_type != start_indices[0].element_type:
            raise DTypeError(f"{op_name} requires start indices of one element type; got "
                             f"{', '.join(str(x) for x in start_indices)}.")


def _start_index_values(op_name: str, start_indices) -> list[XlaOp]:
    """XLA's list of scalar XlaOps, or the older single rank-1 XlaOp of N indices split into
    scalars."""
    if isinstance(start_indices, XlaOp):
        shape = start_indices.shape
        if shape.rank != 1:
            raise ShapeError(f"{op_name} requires a list of scalar start indices or one rank-1 array of "
                             f"them; got {shape}.")
        b = start_indices.builder
        return b.emit(op_name, lambda: [reshape(slice_(start_indices.value, [i], [i + 1], [1]), [])
                                        for i in range(shape.dimensions[0])])
    if isinstance(start_indices, (str, bytes)) or not isinstance(start_indices, Sequence):
        raise InvalidArgumentError(f"{op_name} requires start_indices as a list of scalar XlaOps; "
                                   f"got {start_indices!r}.")
    return list(start_indices)


# --- DynamicSlice -----------------------------------------------------------------------------
def DynamicSlice(operand: XlaOp, start_indices, slice_sizes: Sequence[int]) -> XlaOp:
    """The ``slice_sizes`` sub-array at run-time ``start_indices`` (one scalar per dimension),
    each start clamped into ``[0, dim - size]`` so that the slice lies inside the operand
    (spec: DynamicSlice). Of a rank-0 operand: the operand itself."""
    indices = _start_index_values("DynamicSlice", start_indices)
    b = builder_of("DynamicSlice", operand, *indices)
    return b.emit("DynamicSlice", lambda: dynamic_slice(operand.value, [i.value for i in indices],
                                                        slice_sizes))


def dynamic_slice_rule(operand: Shape, start_indices: Sequence[Shape], slice_sizes: Sequence[int]) -> Shape:
    require_static("DynamicSlice", operand)
    _start_index_rule("DynamicSlice", operand, start_indices)
    sizes = int_list("DynamicSlice", "slice_sizes", slice_sizes)
    if len(sizes) != operand.rank or any(not 0 <= s <= d
                                         for s, d in zip(sizes, operand.dimensions, strict=True)):
        raise ShapeError(f"DynamicSlice requires one slice size per operand dimension with 0 <= size <= "
                         f"dimension; got slice_sizes {sizes} for operand {operand}.")
    return Shape.array_shape(operand.element_type, sizes)


def dynamic_slice(operand: ir.Value, start_indices: Sequence[ir.Value],
                  slice_sizes: Sequence[int]) -> ir.Value:
    """Emits ``stablehlo.dynamic_slice`` (whose start indices clamp like XLA's). A rank-0
    slice is its operand: no op (its printed form ``%x, , sizes = []`` does not parse back)."""
    result = dynamic_slice_rule(_emit.shape_of(operand), _emit.shapes_of(start_indices), slice_sizes)
    if result.rank == 0:
        return operand
    return _emit.create("stablehlo.dynamic_slice", [operand, *start_indices], [_emit.type_of(result)],
                        {"slice_sizes": _emit.i64_array(slice_sizes)}).result


# --- DynamicUpdateSlice -----------------------------------------------------------------------
def DynamicUpdateSlice(operand: XlaOp, update: XlaOp, start_indices) -> XlaOp:
    """``operand`` with ``update`` written at run-time ``start_indices``, each clamped into
    ``[0, dim - update_dim]`` so that the update lies inside the operand (spec:
    DynamicUpdateSlice). Of a rank-0 operand: the update itself."""
    indices = _start_index_values("DynamicUpdateSlice", start_indices)
    b = builder_of("DynamicUpdateSlice", operand, update, *indices)
    return b.emit("DynamicUpdateSlice", lambda: dynamic_update_slice(
        operand.value, update.value, [i.value for i in indices]))


def dynamic_update_slice_rule(operand: Shape, update: Shape, start_indices: Sequence[Shape]) -> Shape:
    require_static("DynamicUpdateSlice", operand)
    require_static("DynamicUpdateSlice", update, "update")
    if update.element_type != operand.element_type:
        raise DTypeError(f"DynamicUpdateSlice requires an update of the operand's element type; "
                         f"got update {update} for operand {operand}.")
    if update.rank != operand.rank or any(
            u > d for u, d in zip(update.dimensions, operand.dimensions, strict=True)):
        raise ShapeError(f"DynamicUpdateSlice requires an update of the operand's rank no larger than the "
                         f"operand in any dimension; got update {update} for operand {operand}.")
    _start_index_rule("DynamicUpdateSlice", operand, start_indices)
    return operand


def dynamic_update_slice(operand: ir.Value, update: ir.Value, start_indices: Sequence[ir.Value]) -> ir.Value:
    """Emits ``stablehlo.dynamic_update_slice``; a rank-0 update is the result itself (no op)."""
    result = dynamic_update_slice_rule(_emit.shape_of(operand), _emit.shape_of(update),
                                       _emit.shapes_of(start_indices))
    if result.rank == 0:
        return update
    return _emit.create("stablehlo.dynamic_update_slice", [operand, update, *start_indices],
                        [_emit.type_of(result)]).result
