"""Element-wise ops: unary functions, binary arithmetic/logic, comparisons, Select,
Clamp, ConvertElementType, BitcastConvertType (spec: "Element-wise binary
arithmetic operations", "Element-wise comparison operations", "Element-wise unary
functions", Select, Clamp, ConvertElementType, BitcastConvertType).

Each unary, binary and comparison op is one table row: a module-level definition
``Abs = _unary("Abs", "abs", <element types>, "<semantics>")`` whose factory records the
row and returns the documented builder function, so type checkers, IDEs and ``help()``
see every op. Binary ops and comparisons follow XLA's broadcasting
(``dialect_ops.broadcasting``): same-rank operands broadcast degenerate (size-1)
dimensions, a scalar broadcasts to any shape, and operands of different ranks need
``broadcast_dimensions`` mapping the lower rank into the higher one.
"""

from __future__ import annotations

from typing import Callable, Protocol, Sequence

from iree.compiler import ir

from dialect_ops.broadcasting import broadcast_dynamic_dimensions, broadcast_operands, broadcast_rule
from hlo_mlir import _emit
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
def _is_f32_f64(t): return t in (PrimitiveType.F32, PrimitiveType.F64)


_FLOAT_COMPLEX = _any_of(_is_float, _is_complex)
_INT_PRED = _any_of(_is_int, _is_pred)
_SIGNED_FLOAT_COMPLEX = _any_of(_is_signed, _is_float, _is_complex)
_INT_FLOAT = _any_of(_is_int, _is_float)
_ANY = lambda t: t.is_array_type  # noqa: E731

_CLASS_NAMES = {_is_float: "floating-point", _FLOAT_COMPLEX: "floating-point or complex",
                _INT_PRED: "integer or PRED", _is_int: "integer", _is_numeric: "numeric",
                _SIGNED_FLOAT_COMPLEX: "signed integer, floating-point or complex",
                _ANY: "array", _is_signed: "signed integer", _INT_FLOAT: "integer or floating-point",
                _is_f32_f64: "F32 or F64"}


def _check_dtype(op_name: str, check: TypeCheck, shape: Shape, what: str = "an operand") -> None:
    if not shape.is_array:
        raise ShapeError(f"{op_name} requires {what} of array shape; got {shape}.")
    if not check(shape.element_type):
        raise DTypeError(f"{op_name} requires {what} of {_CLASS_NAMES[check]} type; "
                         f"got {shape.element_type.value} ({shape}).")


# --- unary ----------------------------------------------------------------------------
class UnaryOp(Protocol):
    """The signature of the unary op builder functions."""

    def __call__(self, operand: XlaOp) -> XlaOp: ...


ResultType = Callable[[PrimitiveType], PrimitiveType]
# name -> (stablehlo op, allowed element types, result element type rule or None: the operand's)
_UNARY: dict[str, tuple[str, TypeCheck, ResultType | None]] = {}


def _unary(op_name: str, stablehlo: str, check: TypeCheck, semantics: str,
           result: ResultType | None = None) -> UnaryOp:
    """One table row: the builder function of unary op ``op_name``, documented by ``semantics``
    (``stablehlo``: the op it emits, ``stablehlo.`` implied unless the name has a dialect)."""
    stablehlo = stablehlo if "." in stablehlo else f"stablehlo.{stablehlo}"
    _UNARY[op_name] = (stablehlo, check, result)

    def op(operand: XlaOp) -> XlaOp:
        b = builder_of(op_name, operand)
        return b.emit(op_name, lambda: unary(op_name, operand.value))

    op.__name__ = op.__qualname__ = op_name
    op.__doc__ = f"Element-wise {semantics} (spec: Element-wise unary functions); lowers to {stablehlo}."
    return op


def _component(t: PrimitiveType) -> PrimitiveType: return t.complex_component_type if t.is_complex else t
def _to_pred(t: PrimitiveType) -> PrimitiveType: return PrimitiveType.PRED


Abs = _unary("Abs", "abs", _SIGNED_FLOAT_COMPLEX, "absolute value x -> |x| (complex: modulus)", _component)
Neg = _unary("Neg", "negate", _is_numeric, "negation x -> -x")
Sign = _unary("Sign", "sign", _SIGNED_FLOAT_COMPLEX, "sign x -> sgn(x): -1, 0 or 1 (NaN and -0 kept)")
Ceil = _unary("Ceil", "ceil", _is_float, "ceiling x -> ceil(x)")
Floor = _unary("Floor", "floor", _is_float, "floor x -> floor(x)")
Round = _unary("Round", "round_nearest_afz", _is_float, "rounding, ties away from zero")
RoundNearestEven = _unary("RoundNearestEven", "round_nearest_even", _is_float, "rounding, ties to even")
Cos = _unary("Cos", "cosine", _FLOAT_COMPLEX, "cosine x -> cos(x)")
Sin = _unary("Sin", "sine", _FLOAT_COMPLEX, "sine x -> sin(x)")
Tan = _unary("Tan", "tan", _FLOAT_COMPLEX, "tangent x -> tan(x)")
Tanh = _unary("Tanh", "tanh", _FLOAT_COMPLEX, "hyperbolic tangent x -> tanh(x)")
Exp = _unary("Exp", "exponential", _FLOAT_COMPLEX, "natural exponential x -> e^x")
Expm1 = _unary("Expm1", "exponential_minus_one", _FLOAT_COMPLEX, "x -> e^x - 1, accurate near zero")
Log = _unary("Log", "log", _FLOAT_COMPLEX, "natural logarithm x -> ln(x)")
Log1p = _unary("Log1p", "log_plus_one", _FLOAT_COMPLEX, "x -> ln(1 + x), accurate near zero")
Logistic = _unary("Logistic", "logistic", _FLOAT_COMPLEX, "logistic function x -> 1 / (1 + e^-x)")
Sqrt = _unary("Sqrt", "sqrt", _FLOAT_COMPLEX, "square root x -> sqrt(x)")
Rsqrt = _unary("Rsqrt", "rsqrt", _FLOAT_COMPLEX, "reciprocal square root x -> 1 / sqrt(x)")
Cbrt = _unary("Cbrt", "cbrt", _is_float, "cube root x -> cbrt(x)")
Erf = _unary("Erf", "chlo.erf", _is_float, "error function x -> erf(x)")
IsFinite = _unary("IsFinite", "is_finite", _is_float, "test x -> (x is not +-Inf or NaN) as PRED", _to_pred)
Not = _unary("Not", "not", _INT_PRED, "logical (PRED) or bitwise (integer) not x -> !x")
PopulationCount = _unary("PopulationCount", "popcnt", _is_int, "population count: the bits set in x")
Clz = _unary("Clz", "count_leading_zeros", _is_int, "count of the leading zero bits of x")
Real = _unary("Real", "real", _FLOAT_COMPLEX, "real part x -> real(x) (x itself when real)", _component)
Imag = _unary("Imag", "imag", _FLOAT_COMPLEX, "imaginary part x -> imag(x) (0 when real)", _component)


def unary_rule(op_name: str, operand: Shape) -> Shape:
    """Result shape of a unary element-wise op: the operand's, with the op's result type."""
    _, check, result = _UNARY[op_name]
    _check_dtype(op_name, check, operand)
    return operand.with_element_type(result(operand.element_type)) if result else operand


def unary(op_name: str, operand: ir.Value) -> ir.Value:
    """Emits unary element-wise op ``op_name`` (a spec name such as ``"Abs"``)."""
    result = unary_rule(op_name, _emit.shape_of(operand))
    return _emit.create(_UNARY[op_name][0], [operand], [_emit.type_of(result)]).result


# --- binary -----------------------------------------------------------------------------
class BinaryOp(Protocol):
    """The signature of the binary and comparison op builder functions."""

    def __call__(self, lhs: XlaOp, rhs: XlaOp, broadcast_dimensions: Sequence[int] = ()) -> XlaOp: ...


# name -> (stablehlo op, allowed element types)
_BINARY: dict[str, tuple[str, TypeCheck]] = {}


def _binary(op_name: str, stablehlo: str, check: TypeCheck, semantics: str) -> BinaryOp:
    """One table row: the builder function of binary op ``op_name`` (emits ``stablehlo.<stablehlo>``)."""
    stablehlo = f"stablehlo.{stablehlo}"
    _BINARY[op_name] = (stablehlo, check)

    def op(lhs: XlaOp, rhs: XlaOp, broadcast_dimensions: Sequence[int] = ()) -> XlaOp:
        b = builder_of(op_name, lhs, rhs)
        return b.emit(op_name, lambda: binary(op_name, lhs.value, rhs.value, broadcast_dimensions))

    op.__name__ = op.__qualname__ = op_name
    op.__doc__ = (f"Element-wise {semantics}, with XLA broadcasting (spec: Element-wise binary arithmetic "
                  f"operations); lowers to {stablehlo}.")
    return op


Add = _binary("Add", "add", _ANY, "addition lhs + rhs")
Sub = _binary("Sub", "subtract", _is_numeric, "subtraction lhs - rhs")
Mul = _binary("Mul", "multiply", _ANY, "multiplication lhs * rhs")
Div = _binary("Div", "divide", _is_numeric, "division lhs / rhs (integers round toward zero)")
Rem = _binary("Rem", "remainder", _INT_FLOAT, "remainder of lhs / rhs, with the sign of the dividend")
Max = _binary("Max", "maximum", _ANY, "maximum max(lhs, rhs)")
Min = _binary("Min", "minimum", _ANY, "minimum min(lhs, rhs)")
Pow = _binary("Pow", "power", _is_numeric, "power lhs ** rhs")
Atan2 = _binary("Atan2", "atan2", _FLOAT_COMPLEX, "two-argument arctangent atan2(lhs, rhs)")
And = _binary("And", "and", _INT_PRED, "logical (PRED) or bitwise (integer) AND")
Or = _binary("Or", "or", _INT_PRED, "logical (PRED) or bitwise (integer) OR")
Xor = _binary("Xor", "xor", _INT_PRED, "logical (PRED) or bitwise (integer) XOR")
ShiftLeft = _binary("ShiftLeft", "shift_left", _is_int, "left shift lhs << rhs")
ShiftRightArithmetic = _binary("ShiftRightArithmetic", "shift_right_arithmetic", _is_int,
                               "arithmetic (sign-filling) right shift lhs >> rhs")
ShiftRightLogical = _binary("ShiftRightLogical", "shift_right_logical", _is_int,
                            "logical (zero-filling) right shift lhs >> rhs")
Complex = _binary("Complex", "complex", _is_f32_f64, "complex number lhs + i*rhs from its two parts")
LogicalAnd, LogicalOr, LogicalNot = And, Or, Not


def binary_rule(op_name: str, lhs: Shape, rhs: Shape, broadcast_dimensions: Sequence[int] = ()) -> Shape:
    """Result shape of binary element-wise op ``op_name``."""
    dims = broadcast_rule(op_name, lhs, rhs, broadcast_dimensions)
    _check_same_type(op_name, lhs, rhs)
    _check_dtype(op_name, _BINARY[op_name][1], lhs, "operands")
    et = lhs.element_type
    if op_name == "Complex":
        et = PrimitiveType.C64 if et is PrimitiveType.F32 else PrimitiveType.C128
    dynamic = broadcast_dynamic_dimensions(lhs, rhs, len(dims), broadcast_dimensions)
    return Shape.array_shape(et, dims, dynamic)


def _check_same_type(op_name: str, lhs: Shape, rhs: Shape) -> None:
    if lhs.element_type != rhs.element_type:
        raise DTypeError(f"{op_name} requires operands of the same element type; got {lhs} and {rhs}.")


def binary(op_name: str, lhs: ir.Value, rhs: ir.Value, broadcast_dimensions: Sequence[int] = ()) -> ir.Value:
    """Emits binary element-wise op ``op_name`` with XLA broadcasting."""
    result = binary_rule(op_name, _emit.shape_of(lhs), _emit.shape_of(rhs), broadcast_dimensions)
    lhs, rhs = broadcast_operands(lhs, rhs, result.dimensions, broadcast_dimensions)
    return _emit.create(_BINARY[op_name][0], [lhs, rhs], [_emit.type_of(result)]).result


# --- comparisons ------------------------------------------------------------------------
_SYMBOLS = {"EQ": "==", "NE": "!=", "GE": ">=", "GT": ">", "LE": "<=", "LT": "<"}
_DIRECTIONS = tuple(_SYMBOLS)
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
    lhs, rhs = broadcast_operands(lhs, rhs, result.dimensions, broadcast_dimensions)
    ctype = compare_type or _default_compare_type(lshape.element_type)
    attrs = {"comparison_direction": _emit.parse_attr(f"#stablehlo<comparison_direction {direction}>"),
             "compare_type": _emit.parse_attr(f"#stablehlo<comparison_type {ctype}>")}
    return _emit.create("stablehlo.compare", [lhs, rhs], [_emit.type_of(result)], attrs).result


def Compare(lhs: XlaOp, rhs: XlaOp, broadcast_dimensions: Sequence[int] = (), direction: str = "EQ",
            compare_type: str | None = None) -> XlaOp:
    """Element-wise ``lhs <direction> rhs`` as PRED, ``direction`` one of EQ, NE, GE, GT, LE, LT and
    ``compare_type`` FLOAT, TOTALORDER, SIGNED or UNSIGNED (default: by element type), with XLA
    broadcasting (spec: Element-wise comparison operations)."""
    b = builder_of("Compare", lhs, rhs)
    return b.emit("Compare", lambda: compare(lhs.value, rhs.value, direction.upper(), compare_type,
                                             broadcast_dimensions))


def _compare(op_name: str, direction: str, total_order: bool = False) -> BinaryOp:
    """One table row: the builder function of comparison ``op_name`` (``direction``: EQ, NE, ...)."""
    def op(lhs: XlaOp, rhs: XlaOp, broadcast_dimensions: Sequence[int] = ()) -> XlaOp:
        b = builder_of(op_name, lhs, rhs)
        return b.emit(op_name, lambda: compare(
            lhs.value, rhs.value, direction, "TOTALORDER" if total_order else None,
            broadcast_dimensions, op_name))

    op.__name__ = op.__qualname__ = op_name
    order = (" under the total order -NaN < -Inf < -Finite < -0 < +0 < +Finite < +Inf < +NaN"
             if total_order else " (IEEE 754 for floats)")
    op.__doc__ = (f"Element-wise lhs {_SYMBOLS[direction]} rhs as PRED{order}, with XLA broadcasting "
                  f"(spec: Element-wise comparison operations).")
    return op


Eq, EqTotalOrder = _compare("Eq", "EQ"), _compare("EqTotalOrder", "EQ", total_order=True)
Ne, NeTotalOrder = _compare("Ne", "NE"), _compare("NeTotalOrder", "NE", total_order=True)
Ge, GeTotalOrder = _compare("Ge", "GE"), _compare("GeTotalOrder", "GE", total_order=True)
Gt, GtTotalOrder = _compare("Gt", "GT"), _compare("GtTotalOrder", "GT", total_order=True)
Le, LeTotalOrder = _compare("Le", "LE"), _compare("LeTotalOrder", "LE", total_order=True)
Lt, LtTotalOrder = _compare("Lt", "LT"), _compare("LtTotalOrder", "LT", total_order=True)


# --- select, clamp --------------------------------------------------------------------
def select_rule(pred: Shape, on_true: Shape, on_false: Shape) -> Shape:
    """Select: same-shaped branches; ``pred`` is PRED, scalar or of the branches' dimensions."""
    for name, s in (("pred", pred), ("on_true", on_true), ("on_false", on_false)):
        if not s.is_array:
            raise ShapeError(f"Select requires array operands; got {s} for {name}.")
    if pred.element_type is not PrimitiveType.PRED:
        raise DTypeError(f"Select requires a PRED predicate; got {pred}.")
    if not on_true.compatible(on_false):
        raise ShapeError(f"Select requires on_true and on_false of the same shape; "
                         f"got {on_true} and {on_false}.")
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
    if et.is_complex != operand.element_type.is_complex:  # StableHLO bitcast_convert (C2)
        raise DTypeError(f"BitcastConvertType requires complex operand and result element types together "
                         f"(or neither); got {operand} to {et.value}.")
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


__all__ = [
    # unary (spec: Element-wise unary functions)
    "Abs", "Neg", "Sign", "Ceil", "Floor", "Round", "RoundNearestEven", "Cos", "Sin", "Tan", "Tanh", "Exp",
    "Expm1", "Log", "Log1p", "Logistic", "Sqrt", "Rsqrt", "Cbrt", "Erf", "IsFinite", "Not", "PopulationCount",
    "Clz", "Real", "Imag", "LogicalNot",
    # binary (spec: Element-wise binary arithmetic operations)
    "Add", "Sub", "Mul", "Div", "Rem", "Max", "Min", "Pow", "Atan2", "And", "Or", "Xor", "ShiftLeft",
    "ShiftRightArithmetic", "ShiftRightLogical", "Complex", "LogicalAnd", "LogicalOr",
    # comparisons (spec: Element-wise comparison operations)
    "Compare", "Eq", "Ne", "Ge", "Gt", "Le", "Lt",
    "EqTotalOrder", "NeTotalOrder", "GeTotalOrder", "GtTotalOrder", "LeTotalOrder", "LtTotalOrder",
    "Select", "Clamp", "ConvertElementType", "BitcastConvertType",
    # emit steps and shape rules, for passes
    "unary", "binary", "compare", "select", "clamp", "convert", "bitcast_convert",
    "unary_rule", "binary_rule", "broadcast_rule", "broadcast_dynamic_dimensions", "compare_rule",
    "select_rule", "clamp_rule", "convert_rule", "bitcast_convert_rule",
]
