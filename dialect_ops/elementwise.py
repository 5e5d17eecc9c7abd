"""Element-wise ops: unary functions, binary arithmetic/logic, comparisons, Select,
Clamp, ConvertElementType, BitcastConvertType (spec: "Element-wise binary
arithmetic operations", "Element-wise comparison operations", "Element-wise unary
functions", Select, Clamp, ConvertElementType, BitcastConvertType).

Each op is one table row; the factories below turn rows into builder functions.
Binary ops follow XLA's broadcasting: same-rank operands broadcast degenerate
(size-1) dimensions, a scalar broadcasts to any shape, and operands of different
ranks need ``broadcast_dimensions`` mapping the lower rank into the higher one.
"""

from __future__ import annotations

from typing import Callable, Sequence

from iree.compiler import ir

from dialect_ops import _emit
from dialect_ops.shape_ops import broadcast_in_dim
from hlo_mlir import types as _types
from hlo_mlir.builder import XlaOp, builder_of
from hlo_mlir.errors import DTypeError, InvalidArgumentError, ShapeError
from hlo_mlir.shape import Shape
from hlo_mlir.types import PrimitiveType

# --- element-type classes ----------------------------------------------------------
TypeCheck = Callable[[PrimitiveType], bool]


def _is_float(t): return t.is_floating_point
def _is_complex(t): return t.is_complex
def _is_int(t): return t.is_integer
def _is_signed(t): return t.is_signed_integer
def _is_pred(t): return t.is_pred
def _any_of(*checks: TypeCheck) -> TypeCheck: return lambda t: any(c(t) for c in checks)
def _is_numeric(t): return t.is_integer or t.is_floating_point or t.is_complex


_FLOAT_COMPLEX = _any_of(_is_float, _is_complex)
_INT_PRED = _any_of(_is_int, _is_pred)
_SIGNED_FLOAT_COMPLEX = _any_of(_is_signed, _is_float, _is_complex)
_INT_FLOAT = _any_of(_is_int, _is_float)
_ANY = lambda t: t.is_array_type  # noqa: E731

_CLASS_NAMES = {_is_float: "floating-point", _FLOAT_COMPLEX: "floating-point or complex",
                _INT_PRED: "integer or PRED", _is_int: "integer", _is_numeric: "numeric",
                _SIGNED_FLOAT_COMPLEX: "signed integer, floating-point or complex",
                _ANY: "array", _is_signed: "signed integer", _INT_FLOAT: "integer or floating-point"}


def _check_dtype(op_name: str, check: TypeCheck, shape: Shape, what: str = "an operand") -> None:
    if not shape.is_array:
        raise ShapeError(f"{op_name} requires {what} of array shape; got {shape}.")
    if not check(shape.element_type):
        raise DTypeError(f"{op_name} requires {what} of {_CLASS_NAMES[check]} type; "
                         f"got {shape.element_type.value} ({shape}).")


# --- unary ----------------------------------------------------------------------------
# name -> (stablehlo op, allowed element types, result element type rule)
_SAME = None
_UNARY: dict[str, tuple[str, TypeCheck, Callable[[PrimitiveType], PrimitiveType] | None]] = {
    "Abs": ("stablehlo.abs", _SIGNED_FLOAT_COMPLEX,
            lambda t: t.complex_component_type if t.is_complex else t),
    "Neg": ("stablehlo.negate", _is_numeric, _SAME),
    "Sign": ("stablehlo.sign", _SIGNED_FLOAT_COMPLEX, _SAME),
    "Ceil": ("stablehlo.ceil", _is_float, _SAME),
    "Floor": ("stablehlo.floor", _is_float, _SAME),
    "Round": ("stablehlo.round_nearest_afz", _is_float, _SAME),
    "RoundNearestEven": ("stablehlo.round_nearest_even", _is_float, _SAME),
    "Cos": ("stablehlo.cosine", _FLOAT_COMPLEX, _SAME),
    "Sin": ("stablehlo.sine", _FLOAT_COMPLEX, _SAME),
    "Tan": ("stablehlo.tan", _FLOAT_COMPLEX, _SAME),
    "Tanh": ("stablehlo.tanh", _FLOAT_COMPLEX, _SAME),
    "Exp": ("stablehlo.exponential", _FLOAT_COMPLEX, _SAME),
    "Expm1": ("stablehlo.exponential_minus_one", _FLOAT_COMPLEX, _SAME),
    "Log": ("stablehlo.log", _FLOAT_COMPLEX, _SAME),
    "Log1p": ("stablehlo.log_plus_one", _FLOAT_COMPLEX, _SAME),
    "Logistic": ("stablehlo.logistic", _FLOAT_COMPLEX, _SAME),
    "Sqrt": ("stablehlo.sqrt", _FLOAT_COMPLEX, _SAME),
    "Rsqrt": ("stablehlo.rsqrt", _FLOAT_COMPLEX, _SAME),
    "Cbrt": ("stablehlo.cbrt", _is_float, _SAME),
    "Erf": ("chlo.erf", _is_float, _SAME),
    "IsFinite": ("stablehlo.is_finite", _is_float, lambda t: PrimitiveType.PRED),
    "Not": ("stablehlo.not", _INT_PRED, _SAME),
    "PopulationCount": ("stablehlo.popcnt", _is_int, _SAME),
    "Clz": ("stablehlo.count_leading_zeros", _is_int, _SAME),
    "Real": ("stablehlo.real", _FLOAT_COMPLEX,
             lambda t: t.complex_component_type if t.is_complex else t),
    "Imag": ("stablehlo.imag", _FLOAT_COMPLEX,
             lambda t: t.complex_component_type if t.is_complex else t),
}


def unary_rule(op_name: str, operand: Shape) -> Shape:
    """Result shape of a unary element-wise op: the operand's, with the op's result type."""
    _, check, result = _UNARY[op_name]
    _check_dtype(op_name, check, operand)
    return operand.with_element_type(result(operand.element_type)) if result else operand


def unary(op_name: str, operand: ir.Value) -> ir.Value:
    """Emits unary element-wise op ``op_name`` (a spec name such as ``"Abs"``)."""
    result = unary_rule(op_name, _emit.shape_of(operand))
    return _emit.create(_UNARY[op_name][0], [operand], [_emit.type_of(result)]).result


def _make_unary(op_name: str):
    def op(operand: XlaOp) -> XlaOp:
        b = builder_of(op_name, operand)
        return b.emit(op_name, lambda: unary(op_name, operand.value))

    op.__name__ = op.__qualname__ = op_name
    op.__doc__ = f"Element-wise {op_name} (spec: Element-wise unary functions); lowers to {_UNARY[op_name][0]}."
    return op


# --- binary -----------------------------------------------------------------------------
# name -> (stablehlo op, allowed element types)
_BINARY: dict[str, tuple[str, TypeCheck]] = {
    "Add": ("stablehlo.add", _ANY),
    "Sub": ("stablehlo.subtract", _is_numeric),
    "Mul": ("stablehlo.multiply", _ANY),
    "Div": ("stablehlo.divide", _is_numeric),
    "Rem": ("stablehlo.remainder", _INT_FLOAT),
    "Max": ("stablehlo.maximum", _ANY),
    "Min": ("stablehlo.minimum", _ANY),
    "Pow": ("stablehlo.power", _is_numeric),
    "Atan2": ("stablehlo.atan2", _FLOAT_COMPLEX),
    "And": ("stablehlo.and", _INT_PRED),
    "Or": ("stablehlo.or", _INT_PRED),
    "Xor": ("stablehlo.xor", _INT_PRED),
    "ShiftLeft": ("stablehlo.shift_left", _is_int),
    "ShiftRightArithmetic": ("stablehlo.shift_right_arithmetic", _is_int),
    "ShiftRightLogical": ("stablehlo.shift_right_logical", _is_int),
    "Complex": ("stablehlo.complex", lambda t: t in (PrimitiveType.F32, PrimitiveType.F64)),
}
_CLASS_NAMES[_BINARY["Complex"][1]] = "F32 or F64"


def broadcast_rule(op_name: str, lhs: Shape, rhs: Shape,
                   broadcast_dimensions: Sequence[int] = ()) -> tuple[int, ...]:
    """The dimensions both operands of a binary op broadcast to (XLA's rules).

    - same rank: sizes must match or one must be 1 (degenerate broadcast);
      ``broadcast_dimensions`` must be empty or the identity;
    - a scalar operand broadcasts to the other's shape;
    - different ranks: ``broadcast_dimensions`` maps each dimension of the
      lower-rank operand, in increasing order, to a dimension of the higher-rank one.
    """
    for name, s in (("lhs", lhs), ("rhs", rhs)):
        if not s.is_array:
            raise ShapeError(f"{op_name} requires array operands; got {s} for {name}.")
    dims = list(broadcast_dimensions)
    if lhs.rank == rhs.rank:
        if dims and dims != list(range(lhs.rank)):
            raise InvalidArgumentError(
                f"{op_name} requires broadcast_dimensions to be empty or the identity for operands "
                f"of equal rank; got {dims} for {lhs} and {rhs}.")
        return _degenerate(op_name, lhs, rhs, lhs.dimensions, rhs.dimensions)
    if (lhs.rank == 0 or rhs.rank == 0) and not dims:
        return (lhs if rhs.rank == 0 else rhs).dimensions
    small, large = (lhs, rhs) if lhs.rank < rhs.rank else (rhs, lhs)
    if not dims:
        raise ShapeError(
            f"{op_name} requires broadcast_dimensions for operands of different rank; got {lhs} and "
            f"{rhs}. Pass broadcast_dimensions mapping the {small.rank} dimensions of {small} "
            f"into {large}.")
    if len(dims) != small.rank:
        raise InvalidArgumentError(
            f"{op_name} requires one broadcast dimension per dimension of the lower-rank operand "
            f"{small}; got {dims}.")
    for i, d in enumerate(dims):
        if not 0 <= d < large.rank:
            raise InvalidArgumentError(
                f"{op_name} requires broadcast_dimensions in [0, {large.rank}); got {dims} for {large}.")
        if i and d <= dims[i - 1]:
            raise InvalidArgumentError(
                f"{op_name} requires strictly increasing broadcast_dimensions; got {dims}.")
    expanded = [1] * large.rank
    for i, d in enumerate(dims):
        expanded[d] = small.dimensions[i]
    if small is lhs:
        return _degenerate(op_name, lhs, rhs, expanded, large.dimensions)
    return _degenerate(op_name, lhs, rhs, large.dimensions, expanded)


def _degenerate(op_name, lhs: Shape, rhs: Shape, ldims, rdims) -> tuple[int, ...]:
    out = []
    for i, (a, b) in enumerate(zip(ldims, rdims)):
        if a != b and a != 1 and b != 1:
            raise ShapeError(
                f"{op_name} requires compatible operand shapes; got {lhs} and {rhs} "
                f"(dimension {i}: {a} vs {b}).")
        out.append(b if a == 1 else a)
    return tuple(out)


def broadcast_dynamic_dimensions(lhs: Shape, rhs: Shape, rank: int,
                                 broadcast_dimensions: Sequence[int] = ()) -> list[bool]:
    """Which result dimensions of a broadcasting binary op are (bounded) dynamic: those
    that a dynamic dimension of either operand maps to (XLA keeps the dynamic flag)."""
    flags = [False] * rank
    for shape in (lhs, rhs):
        if shape.rank == rank:
            targets = range(rank)
        elif shape.rank == 0:
            targets = []
        else:
            targets = broadcast_dimensions
        for d, target in zip(range(shape.rank), targets):
            flags[target] = flags[target] or shape.dynamic_dimensions[d]
    return flags


def binary_rule(op_name: str, lhs: Shape, rhs: Shape, broadcast_dimensions: Sequence[int] = ()) -> Shape:
    """Result shape of binary element-wise op ``op_name``."""
    dims = broadcast_rule(op_name, lhs, rhs, broadcast_dimensions)
    _check_same_type(op_name, lhs, rhs)
    _check_dtype(op_name, _BINARY[op_name][1], lhs, "operands")
    et = lhs.element_type
    if op_name == "Complex":
        et = PrimitiveType.C64 if et is PrimitiveType.F32 else PrimitiveType.C128
    return Shape.array_shape(et, dims, broadcast_dynamic_dimensions(lhs, rhs, len(dims), broadcast_dimensions))


def _check_same_type(op_name: str, lhs: Shape, rhs: Shape) -> None:
    if lhs.element_type != rhs.element_type:
        raise DTypeError(f"{op_name} requires operands of the same element type; got {lhs} and {rhs}.")


def _broadcast_operands(lhs: ir.Value, rhs: ir.Value, out_dims: Sequence[int],
                        broadcast_dimensions: Sequence[int]) -> tuple[ir.Value, ir.Value]:
    """Broadcasts either operand whose shape differs from ``out_dims``."""
    ls, rs = _emit.shape_of(lhs), _emit.shape_of(rhs)
    result = []
    for value, shape, other in ((lhs, ls, rs), (rhs, rs, ls)):
        if shape.dimensions == tuple(out_dims):
            result.append(value)
            continue
        if shape.rank == len(out_dims):
            dims = list(range(shape.rank))
        elif shape.rank == 0:
            dims = []
        else:
            dims = list(broadcast_dimensions)
        result.append(broadcast_in_dim(value, out_dims, dims))
    return result[0], result[1]


def binary(op_name: str, lhs: ir.Value, rhs: ir.Value, broadcast_dimensions: Sequence[int] = ()) -> ir.Value:
    """Emits binary element-wise op ``op_name`` with XLA broadcasting."""
    result = binary_rule(op_name, _emit.shape_of(lhs), _emit.shape_of(rhs), broadcast_dimensions)
    lhs, rhs = _broadcast_operands(lhs, rhs, result.dimensions, broadcast_dimensions)
    return _emit.create(_BINARY[op_name][0], [lhs, rhs], [_emit.type_of(result)]).result


def _make_binary(op_name: str):
    def op(lhs: XlaOp, rhs: XlaOp, broadcast_dimensions: Sequence[int] = ()) -> XlaOp:
        b = builder_of(op_name, lhs, rhs)
        return b.emit(op_name, lambda: binary(op_name, lhs.value, rhs.value, broadcast_dimensions))

    op.__name__ = op.__qualname__ = op_name
    op.__doc__ = (f"Element-wise {op_name} with XLA broadcasting (spec: Element-wise binary "
                  f"arithmetic operations); lowers to {_BINARY[op_name][0]}.")
    return op


# --- comparisons ------------------------------------------------------------------------
_DIRECTIONS = ("EQ", "NE", "GE", "GT", "LE", "LT")
_COMPARE_TYPES = ("FLOAT", "TOTALORDER", "SIGNED", "UNSIGNED")


def _default_compare_type(t: PrimitiveType) -> str:
    if t.is_floating_point or t.is_complex:
        return "FLOAT"
    return "SIGNED" if t.is_signed_integer else "UNSIGNED"


def compare_rule(op_name: str, lhs: Shape, rhs: Shape, direction: str, compare_type: str | None,
                 broadcast_dimensions: Sequence[int] = ()) -> Shape:
    """Result shape of a comparison: the broadcast shape with element type PRED."""
    if direction not in _DIRECTIONS:
        raise InvalidArgumentError(
            f"{op_name} requires a comparison direction in {list(_DIRECTIONS)}; got {direction!r}.")
    if compare_type is not None and compare_type not in _COMPARE_TYPES:
        raise InvalidArgumentError(
            f"{op_name} requires a comparison type in {list(_COMPARE_TYPES)}; got {compare_type!r}.")
    dims = broadcast_rule(op_name, lhs, rhs, broadcast_dimensions)
    _check_same_type(op_name, lhs, rhs)
    if lhs.element_type.is_complex and direction not in ("EQ", "NE"):
        raise DTypeError(f"{op_name} requires EQ or NE for complex operands; got {direction} on {lhs}.")
    if compare_type == "TOTALORDER" and not lhs.element_type.is_floating_point:
        raise DTypeError(f"{op_name} requires floating-point operands for a total order; got {lhs}.")
    return Shape.array_shape(PrimitiveType.PRED, dims,
                             broadcast_dynamic_dimensions(lhs, rhs, len(dims), broadcast_dimensions))


def compare(lhs: ir.Value, rhs: ir.Value, direction: str, compare_type: str | None = None,
            broadcast_dimensions: Sequence[int] = (), op_name: str = "Compare") -> ir.Value:
    """Emits ``stablehlo.compare`` with XLA broadcasting."""
    lshape = _emit.shape_of(lhs)
    result = compare_rule(op_name, lshape, _emit.shape_of(rhs), direction, compare_type,
                          broadcast_dimensions)
    lhs, rhs = _broadcast_operands(lhs, rhs, result.dimensions, broadcast_dimensions)
    ctype = compare_type or _default_compare_type(lshape.element_type)
    attrs = {"comparison_direction": _emit.parse_attr(f"#stablehlo<comparison_direction {direction}>"),
             "compare_type": _emit.parse_attr(f"#stablehlo<comparison_type {ctype}>")}
    return _emit.create("stablehlo.compare", [lhs, rhs], [_emit.type_of(result)], attrs).result


def Compare(lhs: XlaOp, rhs: XlaOp, broadcast_dimensions: Sequence[int] = (), direction: str = "EQ",
            compare_type: str | None = None) -> XlaOp:
    """Element-wise comparison with an explicit direction and comparison type."""
    b = builder_of("Compare", lhs, rhs)
    return b.emit("Compare", lambda: compare(lhs.value, rhs.value, direction.upper(), compare_type,
                                             broadcast_dimensions))


def _make_compare(op_name: str, direction: str, total_order: bool):
    def op(lhs: XlaOp, rhs: XlaOp, broadcast_dimensions: Sequence[int] = ()) -> XlaOp:
        b = builder_of(op_name, lhs, rhs)
        return b.emit(op_name, lambda: compare(
            lhs.value, rhs.value, direction, "TOTALORDER" if total_order else None,
            broadcast_dimensions, op_name))

    op.__name__ = op.__qualname__ = op_name
    order = (" under the total order -NaN < -Inf < -Finite < -0 < +0 < +Finite < +Inf < +NaN"
             if total_order else "")
    op.__doc__ = f"Element-wise {direction} comparison{order} (spec: Element-wise comparison operations)."
    return op


# --- select, clamp --------------------------------------------------------------------
def select_rule(pred: Shape, on_true: Shape, on_false: Shape) -> Shape:
    """Select: same-shaped branches; ``pred`` is PRED, scalar or of the branches' dimensions."""
    for name, s in (("pred", pred), ("on_true", on_true), ("on_false", on_false)):
        if not s.is_array:
            raise ShapeError(f"Select requires array operands; got {s} for {name}.")
    if pred.element_type is not PrimitiveType.PRED:
        raise DTypeError(f"Select requires a PRED predicate; got {pred}.")
    if not on_true.compatible(on_false):
        raise ShapeError(f"Select requires on_true and on_false of the same shape; got {on_true} and {on_false}.")
    if pred.rank and pred.dimensions != on_true.dimensions:
        raise ShapeError(f"Select requires a scalar predicate or one of the branches' dimensions; "
                         f"got {pred} for branches {on_true}.")
    return on_true


def select(pred: ir.Value, on_true: ir.Value, on_false: ir.Value) -> ir.Value:
    result = select_rule(*_emit.shapes_of([pred, on_true, on_false]))
    return _emit.create("stablehlo.select", [pred, on_true, on_false], [_emit.type_of(result)]).result


def Select(pred: XlaOp, on_true: XlaOp, on_false: XlaOp) -> XlaOp:
    """Element-wise ``pred ? on_true : on_false`` (spec: Select); a scalar pred picks a whole branch."""
    b = builder_of("Select", pred, on_true, on_false)
    return b.emit("Select", lambda: select(pred.value, on_true.value, on_false.value))


def clamp_rule(min_: Shape, operand: Shape, max_: Shape) -> Shape:
    """Clamp: ``min`` and ``max`` are scalars or of the operand's shape, all one element type."""
    for name, s in (("min", min_), ("operand", operand), ("max", max_)):
        if not s.is_array:
            raise ShapeError(f"Clamp requires array operands; got {s} for {name}.")
        if s.element_type != operand.element_type:
            raise DTypeError(f"Clamp requires min, operand and max of one element type; "
                             f"got {min_}, {operand} and {max_}.")
        if s.rank and s.dimensions != operand.dimensions:
            raise ShapeError(f"Clamp requires {name} to be a scalar or of the operand's shape; "
                             f"got {s} for operand {operand}.")
    if operand.element_type.is_complex:
        raise DTypeError(f"Clamp requires a non-complex element type; got {operand}.")
    return operand


def clamp(min_: ir.Value, operand: ir.Value, max_: ir.Value) -> ir.Value:
    result = clamp_rule(*_emit.shapes_of([min_, operand, max_]))
    return _emit.create("stablehlo.clamp", [min_, operand, max_], [_emit.type_of(result)]).result


def Clamp(min: XlaOp, operand: XlaOp, max: XlaOp) -> XlaOp:  # noqa: A002 - spec names
    """``min(max(operand, min), max)`` element-wise (spec: Clamp)."""
    b = builder_of("Clamp", min, operand, max)
    return b.emit("Clamp", lambda: clamp(min.value, operand.value, max.value))


# --- conversions ------------------------------------------------------------------------
def convert_rule(operand: Shape, new_element_type) -> Shape:
    """ConvertElementType: same dimensions, new element type; complex -> real is not defined."""
    _check_dtype("ConvertElementType", _ANY, operand)
    et = _types.from_dtype(new_element_type)
    if not et.is_array_type:
        raise DTypeError(f"ConvertElementType requires an array element type; got {et.name}.")
    if operand.element_type.is_complex and not et.is_complex:
        raise DTypeError(f"ConvertElementType requires a complex target for complex operands "
                         f"(use Real/Imag); got {operand} to {et.value}.")
    return operand.with_element_type(et)


def convert(operand: ir.Value, new_element_type) -> ir.Value:
    result = convert_rule(_emit.shape_of(operand), new_element_type)
    return _emit.create("stablehlo.convert", [operand], [_emit.type_of(result)]).result


def ConvertElementType(operand: XlaOp, new_element_type) -> XlaOp:
    """Element-wise conversion to ``new_element_type``, like a C++ static_cast (spec: ConvertElementType)."""
    b = builder_of("ConvertElementType", operand)
    return b.emit("ConvertElementType", lambda: convert(operand.value, new_element_type))


def bitcast_convert_rule(operand: Shape, new_element_type) -> Shape:
    """BitcastConvertType: reinterpret bits; a narrower target adds a minor dimension of
    size ratio, a wider one consumes a minor dimension of that size."""
    _check_dtype("BitcastConvertType", _ANY, operand)
    et = _types.from_dtype(new_element_type)
    if not et.is_array_type:
        raise DTypeError(f"BitcastConvertType requires an array element type; got {et.name}.")
    if PrimitiveType.PRED in (et, operand.element_type) and et != operand.element_type:
        raise DTypeError(f"BitcastConvertType does not convert to or from PRED; got {operand} to {et.value}.")
    src, dst = operand.element_type.bit_width, et.bit_width
    if src == dst:
        return operand.with_element_type(et)
    if src > dst:
        if src % dst:
            raise DTypeError(f"BitcastConvertType requires bit widths that divide; got {src} and {dst}.")
        return Shape.array_shape(et, operand.dimensions + (src // dst,))
    if dst % src or not operand.rank or operand.dimensions[-1] != dst // src:
        raise ShapeError(f"BitcastConvertType from {src} to {dst} bits requires a minor dimension of "
                         f"size {dst // src if dst % src == 0 else 'dst/src'}; got {operand}.")
    return Shape.array_shape(et, operand.dimensions[:-1])


def bitcast_convert(operand: ir.Value, new_element_type) -> ir.Value:
    result = bitcast_convert_rule(_emit.shape_of(operand), new_element_type)
    return _emit.create("stablehlo.bitcast_convert", [operand], [_emit.type_of(result)]).result


def BitcastConvertType(operand: XlaOp, new_element_type) -> XlaOp:
    """Reinterprets the operand's bits as ``new_element_type`` (spec: BitcastConvertType)."""
    b = builder_of("BitcastConvertType", operand)
    return b.emit("BitcastConvertType", lambda: bitcast_convert(operand.value, new_element_type))


# --- the public table --------------------------------------------------------------------
_ops = {name: _make_unary(name) for name in _UNARY}
_ops.update({name: _make_binary(name) for name in _BINARY})
for _direction in _DIRECTIONS:
    _name = _direction.capitalize()
    _ops[_name] = _make_compare(_name, _direction, False)
    _ops[_name + "TotalOrder"] = _make_compare(_name + "TotalOrder", _direction, True)
globals().update(_ops)
LogicalAnd, LogicalOr, LogicalNot = _ops["And"], _ops["Or"], _ops["Not"]

__all__ = sorted(_ops) + [
    "LogicalAnd", "LogicalOr", "LogicalNot", "Compare", "Select", "Clamp",
    "ConvertElementType", "BitcastConvertType",
    "unary", "binary", "compare", "select", "clamp", "convert", "bitcast_convert",
    "unary_rule", "binary_rule", "broadcast_rule", "broadcast_dynamic_dimensions", "compare_rule", "select_rule", "clamp_rule",
    "convert_rule", "bitcast_convert_rule",
]
