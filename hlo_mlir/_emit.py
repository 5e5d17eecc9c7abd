"""The only place that creates MLIR operations (``ir.Operation.create``).

Everything else calls these snake_case helpers, which take and return
``ir.Value``s and use the insertion point and location active in the caller's
``with`` block. Attribute constructors live here too, so binding drift touches
one file.
"""

from __future__ import annotations

from typing import Sequence

import numpy as np
from iree.compiler import ir
from iree.compiler.dialects import func

from hlo_mlir.shape import Shape

__all__ = [
    "create", "create_with_region", "shape_of", "shapes_of", "type_of",
    "i64_array", "i64_attr", "i1_attr", "str_attr", "parse_attr", "dense_i64_elements",
    "constant", "func_op", "func_return", "region_return", "call",
]


def create(name: str, operands: Sequence[ir.Value], result_types: Sequence[ir.Type],
           attributes: dict | None = None, num_regions: int = 0) -> ir.Operation:
    """Creates op ``name`` at the current insertion point and location."""
    return ir.Operation.create(
        name, results=list(result_types), operands=list(operands),
        attributes={k: v for k, v in (attributes or {}).items() if v is not None},
        regions=num_regions)


def create_with_region(name: str, operands: Sequence[ir.Value], result_types: Sequence[ir.Type],
                       attributes: dict | None, block_arg_types: Sequence[Sequence[ir.Type]]
                       ) -> tuple[ir.Operation, list[ir.Block]]:
    """Creates an op with one single-block region per entry of ``block_arg_types``."""
    op = create(name, operands, result_types, attributes, num_regions=len(block_arg_types))
    loc = ir.Location.current
    blocks = [op.regions[i].blocks.append(*types, arg_locs=[loc] * len(types))
              for i, types in enumerate(block_arg_types)]
    return op, blocks


def type_of(shape: Shape) -> ir.Type:
    return shape.to_mlir_type()


def shape_of(value: ir.Value) -> Shape:
    """The XLA Shape of an SSA value."""
    return Shape.from_mlir_type(value.type)


def shapes_of(values: Sequence[ir.Value]) -> list[Shape]:
    return [shape_of(v) for v in values]


# --- attributes ----------------------------------------------------------------
def i64_array(values: Sequence[int]) -> ir.Attribute:
    return ir.DenseI64ArrayAttr.get([int(v) for v in values])


def dense_i64_elements(values: Sequence[int] | np.ndarray,
                       shape: Sequence[int] | None = None) -> ir.Attribute:
    arr = np.asarray(values, dtype=np.int64)
    if shape is not None:
        arr = arr.reshape(shape)
    return ir.DenseElementsAttr.get(arr, type=ir.IntegerType.get_signless(64))


def i64_attr(value: int) -> ir.Attribute:
    return ir.IntegerAttr.get(ir.IntegerType.get_signless(64), int(value))


def i1_attr(value: bool) -> ir.Attribute:
    return ir.BoolAttr.get(bool(value))


def str_attr(value: str) -> ir.Attribute:
    return ir.StringAttr.get(value)


def parse_attr(text: str) -> ir.Attribute:
    return ir.Attribute.parse(text)


# --- ops used by every family ------------------------------------------------------
def constant(array: np.ndarray, shape: Shape) -> ir.Value:
    """``stablehlo.constant`` holding ``array`` (already of ``shape``'s dtype)."""
    t = type_of(shape)
    attr = ir.DenseElementsAttr.get(np.ascontiguousarray(array), type=t)
    return create("stablehlo.constant", [], [t], {"value": attr}).result


def func_op(name: str, arg_types: Sequence[ir.Type], result_types: Sequence[ir.Type],
            private: bool = False) -> func.FuncOp:
    """A ``func.func`` at the current insertion point, with an entry block."""
    f = func.FuncOp(name, ir.FunctionType.get(list(arg_types), list(result_types)))
    if private:
        f.attributes["sym_visibility"] = ir.StringAttr.get("private")
    loc = ir.Location.current
    f.body.blocks.append(*arg_types, arg_locs=[loc] * len(arg_types))
    return f


def func_declaration(name: str, arg_types: Sequence[ir.Type], result_types: Sequence[ir.Type]) -> func.FuncOp:
    """A private ``func.func`` without a body at the current insertion point: a function
    the runtime provides (IREE makes it a VM import)."""
    f = func.FuncOp(name, ir.FunctionType.get(list(arg_types), list(result_types)))
    f.attributes["sym_visibility"] = ir.StringAttr.get("private")
    return f


def func_return(values: Sequence[ir.Value]) -> ir.Operation:
    return create("func.return", values, [])


def region_return(values: Sequence[ir.Value]) -> ir.Operation:
    return create("stablehlo.return", values, [])


def call(callee: str, operands: Sequence[ir.Value], result_types: Sequence[ir.Type]) -> list[ir.Value]:
    op = create("func.call", operands, result_types,
                {"callee": ir.FlatSymbolRefAttr.get(callee)})
    return list(op.results)
