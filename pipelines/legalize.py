"""Rewrites that make the pinned IREE compute XLA's answers (ARCHITECTURE.md, defects).

``legalize_for_iree(module, target)`` runs before every IREE compile (``hlo_mlir.compile``).
Each row of ``LEGALIZATIONS`` is one rewrite: the ops it applies to, a predicate, and a
rewrite function (whose docstring states its algebra) that builds equivalent StableHLO
IREE handles correctly, through the same ``dialect_ops`` emit functions the builder uses.
The module is changed in place.

``required_flags(module, target)`` names the IREE flags a module needs beyond the
target defaults: f64 and complex<f64> transcendentals lower to libm calls that the
embedded ELF linker cannot resolve ("undefined symbol: cos"), so such modules are
linked as a system library (``--iree-llvmcpu-link-embedded=false``), whose libm calls
resolve in the loading process. ``hlo_mlir.compile`` must pass these flags.

Defects checked against XLA CPU and found NOT to need a rewrite (IREE already agrees
with XLA, tests/e2e/test_legalize.py and test_elementwise.py): denormal inputs of
ceil/floor (XLA CPU flushes them too), complex max/min, reduce_precision overflow (inf),
integer pow (both use only the low 6 bits of the exponent). Known and not fixed here:
f32 log of a denormal (IREE flushes it, XLA does not), complex sqrt(-inf + 1j) and
complex division by (NaN + inf j) (xfailed tests).
"""

from __future__ import annotations

import logging
import re
from dataclasses import dataclass
from typing import Callable, Sequence

import numpy as np
from iree.compiler import ir

from pipelines.matchers import xla_arrays

__all__ = ["legalize_for_iree", "required_flags", "Legalization", "LEGALIZATIONS"]

_log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Legalization:
    """One row: ops named ``op_names`` for which ``matches(op)`` holds are replaced by
    the values ``rewrite(op)`` builds at the op (its insertion point and location)."""

    op_names: tuple[str, ...]
    matches: Callable[[ir.Operation], bool]
    rewrite: Callable[[ir.Operation], list]

    @property
    def name(self) -> str:
        return self.rewrite.__name__.lstrip("_")

    @property
    def summary(self) -> str:
        return (self.rewrite.__doc__ or "").strip().splitlines()[0]


# --- predicates over element types ------------------------------------------------------
def _element_type(value: ir.Value) -> str:
    t = value.type
    return str(t.element_type) if isinstance(t, ir.ShapedType) else str(t)


def _result_is(*spellings: str) -> Callable[[ir.Operation], bool]:
    return lambda op: _element_type(op.results[0]) in spellings


_FLOATS = ("f16", "bf16", "f32", "f64")
_is_pred_result = _result_is("i1")
_is_float_result = _result_is(*_FLOATS)


def _is_complex_result(op) -> bool:
    return _element_type(op.results[0]).startswith("complex<")


# --- a small expression language over ir.Values, so that rewrites read as algebra ---------
class _E:
    """An ``ir.Value`` whose Python operators emit StableHLO through ``dialect_ops``.

    Python numbers combine with it as constants of its element type and shape.
    """

    __slots__ = ("value",)

    def __init__(self, value: ir.Value):
        self.value = value

    @property
    def shape(self):
        from dialect_ops import _emit

        return _emit.shape_of(self.value)

    def lift(self, other) -> "_E":
        """``other`` as an expression of this one's shape (numbers become constants)."""
        if isinstance(other, _E):
            return other
        from dialect_ops import constant, shape_ops

        shape = self.shape
        scalar = constant.constant(np.asarray(other, dtype=shape.dtype))
        return _E(shape_ops.broadcast_in_dim(scalar, shape.dimensions, []))

    def _binary(self, name: str, other, reverse: bool = False) -> "_E":
        from dialect_ops import elementwise

        lhs, rhs = (self.lift(other), self) if reverse else (self, self.lift(other))
        return _E(elementwise.binary(name, lhs.value, rhs.value))

    def __add__(self, o): return self._binary("Add", o)
    def __radd__(self, o): return self._binary("Add", o, True)
    def __sub__(self, o): return self._binary("Sub", o)
    def __rsub__(self, o): return self._binary("Sub", o, True)
    def __mul__(self, o): return self._binary("Mul", o)
    def __rmul__(self, o): return self._binary("Mul", o, True)
    def __truediv__(self, o): return self._binary("Div", o)
    def __rtruediv__(self, o): return self._binary("Div", o, True)
    def __and__(self, o): return self._binary("And", o)
    def __or__(self, o): return self._binary("Or", o)

    def __neg__(self): return self.unary("Neg")
    def __invert__(self): return self.unary("Not")

    def unary(self, name: str) -> "_E":
        from dialect_ops import elementwise

        return _E(elementwise.unary(name, self.value))

    def compare(self, direction: str, other) -> "_E":
        from dialect_ops import elementwise

        return _E(elementwise.compare(self.value, self.lift(other).value, direction))

    def eq(self, o): return self.compare("EQ", o)
    def ne(self, o): return self.compare("NE", o)
    def lt(self, o): return self.compare("LT", o)
    def gt(self, o): return self.compare("GT", o)

    def convert(self, element_type) -> "_E":
        from dialect_ops import elementwise

        return _E(elementwise.convert(self.value, element_type))

    def signbit(self) -> "_E":
        """True where the sign bit is set (-0.0 and -NaN included)."""
        from dialect_ops import elementwise
        from hlo_mlir.types import from_dtype

        bits = _E(elementwise.bitcast_convert(self.value, from_dtype(f"s{self.shape.element_type.bit_width}")))
        return bits.lt(0)


def _where(cond: _E, on_true, on_false) -> _E:
    """``select(cond, on_true, on_false)``; numbers take the other branch's type."""
    from dialect_ops import elementwise

    like = on_true if isinstance(on_true, _E) else on_false
    return _E(elementwise.select(cond.value, like.lift(on_true).value, like.lift(on_false).value))


def _in_f32(body: Callable[..., _E]) -> Callable[[ir.Operation], list]:
    """Runs ``body`` on the op's operands as expressions; f16/bf16 operands are computed
    in f32 and the result rounded back (XLA CPU evaluates these ops in f32 as well)."""

    def rewrite(op) -> list:
        operands = [_E(v) for v in op.operands]
        narrow = _element_type(op.results[0]) in ("f16", "bf16")
        if narrow:
            operands = [x.convert("f32") for x in operands]
        result = body(*operands)
        if narrow:
            result = result.convert(_element_type(op.results[0]))
        return [result.value]

    rewrite.__name__, rewrite.__doc__ = body.__name__, body.__doc__
    return rewrite


def _emit_same(op_name: str, operands: Sequence[_E]) -> _E:
    """Re-emits ``op_name`` itself (the cases IREE gets right) on ``operands``."""
    from dialect_ops import _emit

    return _E(_emit.create(op_name, [x.value for x in operands], [operands[0].value.type]).result)


# --- the rewrites --------------------------------------------------------------------------
def _pred_add_to_or(op):
    """add(p, q) on PRED -> or(p, q): XLA's add on PRED is logical OR; IREE adds mod 2."""
    from dialect_ops import elementwise

    return [elementwise.binary("Or", *op.operands)]


def _pred_mul_to_and(op):
    """multiply(p, q) on PRED -> and(p, q): XLA's multiply on PRED is logical AND."""
    from dialect_ops import elementwise

    return [elementwise.binary("And", *op.operands)]


def _complex_constant_from_parts(op):
    """constant(c) of complex type -> complex(constant(real(c)), constant(imag(c))).

    IREE crashes (SIGFPE while packing the constant; "stream.async.splat operand must
    be ... integer, but got i128" for a complex<f64> scalar) on any complex constant it
    has to materialize; constants of the component type are fine.
    """
    from dialect_ops import constant, elementwise

    shape = _E(op.results[0]).shape
    values = _complex_constant_values(op, shape.dtype)
    size = int(np.prod(shape.dimensions))
    array = values.reshape(shape.dimensions) if values.size == size else np.full(shape.dimensions, values[0])
    real = constant.constant(np.array(array.real, order="C"))
    imag = constant.constant(np.array(array.imag, order="C"))
    return [elementwise.binary("Complex", real, imag)]


_DENSE = re.compile(r"dense<(.*)>\s*:\s*tensor<", re.S)
_PAIR = re.compile(r"\(\s*([^,()\s]+)\s*,\s*([^,()\s]+)\s*\)")


def _complex_constant_values(op, dtype: np.dtype) -> np.ndarray:
    """The values of a complex ``stablehlo.constant`` (flat, or one value for a splat).

    The bindings cannot hand complex DenseElementsAttrs to numpy, so this reads the
    op's printed form: ``dense<[(re,im), ...]>`` (floats that do not print exactly, inf
    and NaN print as hex bit patterns) or a raw little-endian hex blob ``dense<"0x..">``.
    """
    body = _DENSE.search(op.get_asm()).group(1).strip()
    if body.startswith('"0x'):
        return np.frombuffer(bytes.fromhex(body[3:-1]), dtype=dtype)
    part = np.dtype(dtype.char.lower())  # complex64 -> float32, complex128 -> float64
    bits = np.dtype(f"u{part.itemsize}")

    def number(token: str):
        if token.lower().startswith("0x"):
            return np.array(int(token, 16), dtype=bits).view(part)[()]
        return part.type(float(token))

    pairs = [(number(re_), number(im)) for re_, im in _PAIR.findall(body)]
    out = np.empty(len(pairs), dtype=dtype)
    out.real, out.imag = [p[0] for p in pairs], [p[1] for p in pairs]
    return out


def _power(x: _E, y: _E) -> _E:
    """pow(x, y) -> C99 pow from pow(|x|, y), which IREE gets right for 0 < |x| < inf.

    IREE computes exp(y * log(x)): NaN for every negative base and for pow(0, 0),
    pow(inf, 0), pow(-inf, inf). XLA CPU follows C99:
      pow(x, 0) = pow(1, y) = 1 (NaN included);
      |x| = 0: +0 for y > 0, +inf for y < 0;  |x| = inf: +inf for y > 0, +0 for y < 0;
      |x| = 1: 1 in magnitude (pow(-1, +-inf) = 1);
      signbit(x) and y an odd integer: -pow(|x|, y);  x < 0 and y not an integer: NaN
    (an integer y is floor(y) == y, so +-inf count as even integers: pow(-1, inf) = 1;
    odd: y - 2 * floor(y / 2) == 1, exact for every float).
    """
    ax = x.unary("Abs")
    magnitude = _emit_same("stablehlo.power", [ax, y])
    y_pos = y.gt(0)
    magnitude = _where(ax.eq(0), _where(y_pos, ax.lift(0.0), np.inf), magnitude)
    magnitude = _where(ax.eq(np.inf), _where(y_pos, ax.lift(np.inf), 0.0), magnitude)
    magnitude = _where(ax.eq(1), 1.0, magnitude)  # IREE: pow(1, +-inf) = NaN
    y_floor = y.unary("Floor")
    is_integer = y_floor.eq(y)
    is_odd = (y - 2.0 * (y * 0.5).unary("Floor")).eq(1.0)
    negative = x.signbit()
    result = _where(negative & is_odd, -magnitude, magnitude)
    result = _where(x.lt(0) & ~is_integer, np.nan, result)
    return _where(y.eq(0) | x.eq(1), 1.0, result)


def _atan2(y: _E, x: _E) -> _E:
    """atan2(y, x) -> IREE's atan2 with C99's signed zeros and infinities restored.

    IREE returns NaN for atan2(+-0, +-0) and atan2(+-inf, +-inf). XLA CPU (C99):
      y = +-0, x not NaN: y for x = +0 or x > 0, copysign(pi, y) for x = -0 or x < 0;
      y = +-inf, x = +-inf: copysign(pi/4, y) for x = +inf, copysign(3pi/4, y) for x = -inf.
    """
    general = _emit_same("stablehlo.atan2", [y, x])
    sign = _where(y.signbit(), y.lift(-1.0), 1.0)
    zero_case = _where(x.signbit(), sign * np.pi, y)
    inf_case = sign * _where(x.gt(0), x.lift(np.pi / 4), 3 * np.pi / 4)
    ay, ax = y.unary("Abs"), x.unary("Abs")
    result = _where(y.eq(0) & x.eq(x), zero_case, general)
    return _where(ay.eq(np.inf) & ax.eq(np.inf), inf_case, result)


def _cbrt(x: _E) -> _E:
    """cbrt(x) -> sign(x) * r with r = exp(log|x| / 3) refined by one Newton step
    r <- (2r + |x| / r^2) / 3; cbrt(+-0) = +-0, cbrt(+-inf) = +-inf, NaN stays NaN.

    IREE cannot lower f64 cbrt at all ("failed to run translation", math.cbrt), and its
    f32 cbrt returns NaN for +-inf and is off by up to ~13 ULP.
    """
    ax = x.unary("Abs")
    r = (ax.unary("Log") * (1.0 / 3.0)).unary("Exp")
    r = (2.0 * r + ax / (r * r)) * (1.0 / 3.0)
    signed = _where(x.lt(0), -r, r)
    return _where(ax.eq(0) | ax.eq(np.inf), x, signed)


def _log1p_f64(op):
    """log_plus_one(x) in f64 -> x where u = 1 + x rounds to 1, else log(u) * x / (u - 1)
    (Goldberg: the factor x / (u - 1) cancels the rounding of 1 + x); log1p(inf) = inf.

    IREE's f64 log1p is off by ~500 ULP near 1e-3 (log1p(1e-3) wrong in the 13th digit).
    """
    x = _E(op.operands[0])
    u = 1.0 + x
    general = u.unary("Log") * (x / (u - 1.0))
    return [_where(u.eq(1.0), x, _where(x.eq(np.inf), x, general)).value]


def _complex_log(op):
    """log(z) on complex -> complex(log(|z|), atan2(imag z, real z)) with C99's atan2.

    IREE's own expansion uses its atan2, so log(+-0 + 0j) gave -inf + NaN j; XLA gives
    -inf + 0j and -inf + pi j.
    """
    from dialect_ops import elementwise

    z = _E(op.operands[0])
    magnitude = z.unary("Abs").unary("Log")
    phase = _atan2(z.unary("Imag"), z.unary("Real"))  # with the signed-zero rules above
    return [elementwise.binary("Complex", magnitude.value, phase.value)]


def _is_unsigned(value: ir.Value) -> bool:
    return _element_type(value).startswith("ui")


def _width(value: ir.Value) -> int:
    from dialect_ops import _emit

    return _emit.shape_of(value).element_type.bit_width


def _widened_unsigned(value: ir.Value) -> ir.Value | None:
    """The narrower unsigned value that ``value`` is (or is a ``convert`` of), if any."""
    owner = value.owner
    if isinstance(owner, (ir.Operation, ir.OpView)) and owner.operation.name == "stablehlo.convert":
        source = owner.operands[0]
        if _is_unsigned(source) and _width(source) < _width(value):
            return source
    return value if _is_unsigned(value) else None


def _has_narrow_unsigned_operand(op) -> bool:
    wide = _width(op.results[0])
    return any((u := _widened_unsigned(v)) is not None and _width(u) < wide for v in op.operands)


def _zero_extended_dot(op):
    """dot_general(x, y) with an unsigned operand narrower than the result ->
    dot_general(zext(x), zext(y)) where zext(u) = convert(and(convert(u, iW), 2^bits - 1)).

    IREE folds the widening of an unsigned operand (the operand itself, or a convert
    from a narrower unsigned type) into the contraction as a sign extension: u8 200 is
    read as -56. The mask after the widening convert keeps it a zero extension.
    """
    from dialect_ops import _emit

    result = _emit.shape_of(op.results[0])
    wide_int = "s64" if result.element_type.bit_width > 32 else "s32"
    operands = []
    for value in op.operands:
        source = _widened_unsigned(value)
        if source is None or _width(source) >= result.element_type.bit_width:
            operands.append(value)
            continue
        masked = _E(source).convert(wide_int) & ((1 << _width(source)) - 1)
        operands.append(masked.convert(result.element_type).value)
    attrs = {name: op.attributes[name] for name in op.attributes}
    return [_emit.create("stablehlo.dot_general", operands, [op.results[0].type], attrs).result]


def _reverse_in_range(op):
    """reverse(x, dims) -> x when x is rank 0 or dims is empty; an unsigned x is reversed
    as the signless integers of its bits (bitcast, reverse, bitcast back).

    IREE fails to compile reverse on unsigned integers and on rank-0 tensors.
    """
    from dialect_ops import _emit, elementwise, shape_ops

    operand = op.operands[0]
    shape = _emit.shape_of(operand)
    dims = list(ir.DenseI64ArrayAttr(op.attributes["dimensions"]))
    if not dims or shape.rank == 0:
        return [operand]
    signless = elementwise.bitcast_convert(operand, f"s{shape.element_type.bit_width}")
    return [elementwise.bitcast_convert(shape_ops.rev(signless, dims), shape.element_type)]


def _reverse_needs_help(op) -> bool:
    operand = op.operands[0]
    return _is_unsigned(operand) or not list(ir.DenseI64ArrayAttr(op.attributes["dimensions"])) or \
        _E(operand).shape.rank == 0


LEGALIZATIONS: list[Legalization] = [
    Legalization(("stablehlo.add",), _is_pred_result, _pred_add_to_or),
    Legalization(("stablehlo.multiply",), _is_pred_result, _pred_mul_to_and),
    Legalization(("stablehlo.constant",), _is_complex_result, _complex_constant_from_parts),
    Legalization(("stablehlo.power",), _is_float_result, _in_f32(_power)),
    Legalization(("stablehlo.atan2",), _is_float_result, _in_f32(_atan2)),
    Legalization(("stablehlo.cbrt",), _is_float_result, _in_f32(_cbrt)),
    Legalization(("stablehlo.log_plus_one",), _result_is("f64"), _log1p_f64),
    Legalization(("stablehlo.log",), _is_complex_result, _complex_log),
    Legalization(("stablehlo.dot_general",), _has_narrow_unsigned_operand, _zero_extended_dot),
    Legalization(("stablehlo.reverse",), _reverse_needs_help, _reverse_in_range),
]


def legalize_for_iree(module: ir.Module, target: str = "llvm-cpu") -> bool:
    """Applies every legalization to ``module``; returns whether anything changed. Ops with
    an operand or result that is no XLA array (a quantized or token type) are left alone."""
    by_name: dict[str, list[Legalization]] = {}
    for row in LEGALIZATIONS:
        for name in row.op_names:
            by_name.setdefault(name, []).append(row)
    matches = []

    def visit(op):
        rows = by_name.get(op.operation.name, ())
        if rows and not xla_arrays(list(op.operands) + list(op.results)):
            return ir.WalkResult.ADVANCE  # e.g. !quant.uniform tensors: not ours to rewrite
        for row in rows:
            if row.matches(op):
                matches.append((op, row))
                break
        return ir.WalkResult.ADVANCE

    module.operation.walk(visit)
    with module.context:
        for op, row in matches:
            _log.debug("legalize: %s at %s", row.name, op.location)
            with ir.InsertionPoint(op), op.location:
                new_values = row.rewrite(op)
            for old, new in zip(op.results, new_values):
                old.replace_all_uses_with(new)
            op.erase()
    return bool(matches)


# --- flags ------------------------------------------------------------------------------------
# Ops whose f64 / complex<f64> forms IREE's llvm-cpu backend lowers to libm calls.
_LIBM_F64_OPS = frozenset({
    "stablehlo.sine", "stablehlo.cosine", "stablehlo.tan", "stablehlo.tanh", "stablehlo.atan2",
    "stablehlo.remainder"})
_LIBM_C128_OPS = _LIBM_F64_OPS | frozenset({
    "stablehlo.exponential", "stablehlo.exponential_minus_one", "stablehlo.log",
    "stablehlo.log_plus_one", "stablehlo.logistic", "stablehlo.sqrt", "stablehlo.rsqrt",
    "stablehlo.power"})
_SYSTEM_LINK = "--iree-llvmcpu-link-embedded=false"


def _needs_libm(op) -> bool:
    name = op.operation.name
    if name not in _LIBM_C128_OPS or not len(op.results):
        return False
    types = {_element_type(v) for v in list(op.operands) + list(op.results)}
    return ("f64" in types and name in _LIBM_F64_OPS) or "complex<f64>" in types


def required_flags(module: ir.Module, target: str = "llvm-cpu") -> list[str]:
    """IREE flags ``module`` needs on ``target`` beyond the defaults (see the module docstring).

    llvm-cpu: ``--iree-llvmcpu-link-embedded=false`` when an f64 sin/cos/tan/tanh/atan2/
    remainder or a complex<f64> transcendental is present (their libm calls do not link
    into the embedded ELF: "undefined symbol: cos").
    """
    if target != "llvm-cpu":
        return []
    found = []

    def visit(op):
        if _needs_libm(op):
            found.append(op)
            return ir.WalkResult.INTERRUPT
        return ir.WalkResult.ADVANCE

    module.operation.walk(visit)
    return [_SYSTEM_LINK] if found else []
