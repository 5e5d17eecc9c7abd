"""Bounded dynamic shapes: GetDimensionSize and SetDimensionSize (spec: GetDimensionSize,
SetDimensionSize).

``SetDimensionSize(operand, size, dimension)`` passes ``operand`` through with that
dimension made dynamic: its static size becomes the bound (``f32[10]`` ->
``f32[<=10]``, MLIR ``tensor<?xf32, #stablehlo.bounds<10>>``) and ``size`` (an s32
scalar, known at run time) the number of valid elements. Elements past ``size`` are
padding, and ops that combine elements ignore them: the spec's ``reduce_sum`` of
``set_dimension_size(v, 5, 0)`` adds ``v[0..4]`` only.

On IREE these run as real dynamic tensors (verified on llvm-cpu): reductions over a
dynamic dimension see exactly ``size`` elements, ``GetDimensionSize`` reads ``size``
back, and a dynamic result comes back with ``size`` rows (XLA's PjRt hands back the
padded buffer instead). A size outside ``[0, bound]`` makes IREE read past the buffer;
the ``set-dimension-size-clamp`` pass clamps it, which is what XLA's masks compute.
"""

from __future__ import annotations

from iree.compiler import ir

from dialect_ops._args import int_arg, require_array
from hlo_mlir import _emit
from hlo_mlir.builder import XlaOp, builder_of
from hlo_mlir.errors import DTypeError, InvalidArgumentError, ShapeError
from hlo_mlir.shape import Shape
from hlo_mlir.types import PrimitiveType

__all__ = ["GetDimensionSize", "get_dimension_size", "get_dimension_size_rule",
           "SetDimensionSize", "set_dimension_size", "set_dimension_size_rule"]

_SIZE = Shape.scalar_shape(PrimitiveType.S32)


def _dimension(op_name: str, operand: Shape, dimension) -> int:
    require_array(op_name, operand)
    d = int_arg(op_name, "dimension", dimension)
    if not 0 <= d < operand.rank:
        raise InvalidArgumentError(f"{op_name} requires dimension in [0, {operand.rank}); got {d} for "
                                   f"operand {operand}.")
    return d


# --- GetDimensionSize ------------------------------------------------------------------------
def GetDimensionSize(operand: XlaOp, dimension: int) -> XlaOp:
    """The size of ``dimension`` of ``operand`` as an s32 scalar: the static size, or the
    run-time size of a dynamic dimension (spec: GetDimensionSize)."""
    b = builder_of("GetDimensionSize", operand)
    return b.emit("GetDimensionSize", lambda: get_dimension_size(operand.value, dimension))


def get_dimension_size_rule(operand: Shape, dimension: int) -> Shape:
    _dimension("GetDimensionSize", operand, dimension)
    return _SIZE


def get_dimension_size(operand: ir.Value, dimension: int) -> ir.Value:
    """``stablehlo.get_dimension_size``."""
    result = get_dimension_size_rule(_emit.shape_of(operand), dimension)
    return _emit.create("stablehlo.get_dimension_size", [operand], [_emit.type_of(result)],
                        {"dimension": _emit.i64_attr(dimension)}).result


# --- SetDimensionSize ------------------------------------------------------------------------
def SetDimensionSize(operand: XlaOp, val: XlaOp, dimension: int) -> XlaOp:
    """``operand`` with ``dimension`` dynamic: ``val`` (s32 scalar) valid elements, the
    static size as the bound; reductions ignore the padding past ``val`` (spec:
    SetDimensionSize)."""
    b = builder_of("SetDimensionSize", operand, val)
    return b.emit("SetDimensionSize", lambda: set_dimension_size(operand.value, val.value, dimension))


def set_dimension_size_rule(operand: Shape, size: Shape, dimension: int) -> Shape:
    d = _dimension("SetDimensionSize", operand, dimension)
    if not size.is_array or size.rank != 0:
        raise ShapeError(f"SetDimensionSize requires a scalar size; got {size}.")
    if size.element_type is not PrimitiveType.S32:
        # XLA's ShapeInference: "SetDimensionSize's value has to be S32 scalar".
        raise DTypeError(f"SetDimensionSize requires an s32 size; got {size}.")
    dynamic = list(operand.dynamic_dimensions)
    dynamic[d] = True
    return Shape.array_shape(operand.element_type, operand.dimensions, dynamic)


def set_dimension_size(operand: ir.Value, size: ir.Value, dimension: int) -> ir.Value:
    """``stablehlo.set_dimension_size``."""
    result = set_dimension_size_rule(_emit.shape_of(operand), _emit.shape_of(size), dimension)
    return _emit.create("stablehlo.set_dimension_size", [operand, size], [_emit.type_of(result)],
                        {"dimension": _emit.i64_attr(dimension)}).result
