"""Tuples: Tuple packs values of any shapes into one, GetTupleElement takes one out
(spec: Tuple, GetTupleElement).

Tuples may nest and may hold tokens. A computation whose parameter or result is a
tuple takes a Python tuple and returns its leaves as a flat tuple (hlo_mlir.runtime).
"""

from __future__ import annotations

from typing import Sequence

from iree.compiler import ir

from dialect_ops._args import int_arg
from hlo_mlir import _emit
from hlo_mlir.builder import XlaBuilder, XlaComputation, XlaOp, builder_of
from hlo_mlir.errors import InvalidArgumentError, ShapeError
from hlo_mlir.shape import Shape

__all__ = ["Tuple", "tuple_", "tuple_rule", "GetTupleElement", "get_tuple_element", "get_tuple_element_rule"]


def Tuple(builder: XlaBuilder, elements: Sequence[XlaOp]) -> XlaOp:
    """A tuple of ``elements``, each keeping its own shape (spec: Tuple)."""
    if not isinstance(builder, XlaBuilder):
        raise InvalidArgumentError(f"Tuple requires an XlaBuilder; got {type(builder).__name__}.")
    elements = list(elements)

    def emit():
        if elements and builder_of("Tuple", *elements) is not builder:
            raise InvalidArgumentError(
                f"Tuple requires elements of the builder it is given; got {builder!r} and elements of "
                f"{elements[0].builder!r}.")
        return tuple_([e.value for e in elements])

    return builder.emit("Tuple", emit)


def tuple_rule(elements: Sequence[Shape]) -> Shape:
    return Shape.tuple_shape(elements)


def tuple_(elements: Sequence[ir.Value]) -> ir.Value:
    """``stablehlo.tuple`` of ``elements``."""
    result = tuple_rule(_emit.shapes_of(elements))
    return _emit.create("stablehlo.tuple", elements, [_emit.type_of(result)]).result


def GetTupleElement(tuple_data: XlaOp, index: int) -> XlaOp:
    """Element ``index`` of the tuple ``tuple_data``; ``index`` is a compile-time
    constant, so the result's shape is known (spec: GetTupleElement)."""
    b = builder_of("GetTupleElement", tuple_data)
    return b.emit("GetTupleElement", lambda: get_tuple_element(tuple_data.value, index))


def get_tuple_element_rule(tuple_shape: Shape, index: int) -> Shape:
    if not tuple_shape.is_tuple:
        raise ShapeError(f"GetTupleElement requires a tuple operand; got {tuple_shape}.")
    i = int_arg("GetTupleElement", "index", index)
    n = len(tuple_shape.tuple_shapes)
    if not 0 <= i < n:
        raise InvalidArgumentError(
            f"GetTupleElement requires index in [0, {n}); got {i} for tuple {tuple_shape}.")
    return tuple_shape.tuple_shapes[i]


def get_tuple_element(tuple_data: ir.Value, index: int) -> ir.Value:
    """``stablehlo.get_tuple_element`` ``index`` of ``tuple_data``."""
    result = get_tuple_element_rule(_emit.shape_of(tuple_data), index)
    return _emit.create("stablehlo.get_tuple_element", [tuple_data], [_emit.type_of(result)],
                        {"index": _emit.parse_attr(f"{int(index)} : i32")}).result


def inline_untupled(builder: XlaBuilder, computation: XlaComputation, block: ir.Block) -> None:
    """``builder.inline_computation(computation, block)``, a tuple-shaped result returned as
    its N elements (reducers, scatter combiners and comparators return several scalars that
    way)."""
    builder.inline_computation(computation, block)
    ret = list(block.operations)[-1]
    operands = list(ret.operands)
    if len(operands) != 1 or not isinstance(operands[0].type, ir.TupleType):
        return
    tuple_value = operands[0]
    owner = tuple_value.owner
    built_here = isinstance(owner, (ir.Operation, ir.OpView)) and owner.operation.name == "stablehlo.tuple"
    with ir.InsertionPoint(ret), ret.location:
        if built_here:
            elements = list(owner.operands)
        else:
            count = ir.TupleType(tuple_value.type).num_types
            elements = [get_tuple_element(tuple_value, i) for i in range(count)]
        _emit.region_return(elements)
    ret.erase()
    if built_here and not list(tuple_value.uses):
        owner.erase()
