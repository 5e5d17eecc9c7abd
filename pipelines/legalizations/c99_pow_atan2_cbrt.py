"""c99-pow-atan2-cbrt: float pow, atan2 and cbrt with C99's special values, as XLA CPU.

The pinned IREE computes ``pow(x, y)`` as ``exp(y * log(x))`` (NaN for every negative
base; in f64 up to 700 ulp off: f64 ``|x|^y`` is computed here in double-double), returns
NaN for ``atan2(+-0, +-0)`` and ``atan2(+-inf, +-inf)`` (and its f32
atan2 is up to 40 ulp off: f32 atan2 is computed here, within 3 ulp), cannot lower f64
cbrt and is ~13 ULP off (NaN for +-inf) in f32 cbrt. Each op becomes IREE's own op where
IREE is right plus selects for the special cases (the algebra is in each function's
docstring); f16 and bf16 operands are computed in f32 and rounded back, as XLA CPU does::

    %r = stablehlo.atan2 %y, %x : tensor<4xf16>

becomes::

    %y32 = stablehlo.convert %y : (tensor<4xf16>) -> tensor<4xf32>
    %x32 = stablehlo.convert %x : ...
    %g = stablehlo.atan2 %y32, %x32 : tensor<4xf32>
    ... select(y == 0 && x == x, copysign(0 or pi, y), select(|y| == |x| == inf, ..., %g))
    %r = stablehlo.convert ... : (tensor<4xf32>) -> tensor<4xf16>

Conditions: a float result (f16, bf16, f32, f64); complex pow and atan2 are left alone.
The ``stablehlo.power``/``atan2`` an expansion emits are not expanded again.
"""

from __future__ import annotations

from typing import Callable, Sequence

import numpy as np
from iree.compiler import ir

from dialect_ops.elementwise import binary
from hlo_mlir import _emit
from hlo_mlir.ir_access import element_type_name
from pipelines.matchers import xla_arrays
from pipelines.pass_base import ExpanderPass
from pipelines.registry import register
from pipelines.values import Expr, where

__all__ = ["C99PowAtan2Cbrt", "c99_atan2"]

_FLOATS = ("f16", "bf16", "f32", "f64")


def _same_op(op_name: str, operands: Sequence[Expr]) -> Expr:
    """``op_name`` itself (for the cases IREE gets right) on ``operands``."""
    return Expr(_emit.create(op_name, [x.value for x in operands], [operands[0].value.type]).result)


# ln 2 as head + tail (fdlibm's): the head's low 32 bits are zero, so e * head is exact for
# any binary exponent e of a double
_LN2 = (6.93147180369123816490e-01, 1.90821492927058770002e-10)
_SPLIT = 134217729.0  # 2^27 + 1: Dekker's split of a double into two halves of 26 bits
_SMALLEST_NORMAL_F64 = float(np.finfo(np.float64).smallest_normal)
# atanh(s) = s (1 + s^2 / 3 + s^4 / 5 + ...): the series to s^20, within 2^-60 for |s| < 0.172
_ATANH_SERIES = tuple(1.0 / k for k in range(21, 1, -2))


def _two_prod(a: Expr, b: Expr) -> tuple[Expr, Expr]:
    """``(p, err)``: ``p = fl(a * b)`` and ``p + err = a * b`` exactly (Dekker's product; ``|a|``,
    ``|b|`` below 2^995 so that splitting does not overflow)."""
    def split(v: Expr) -> tuple[Expr, Expr]:
        c = v * _SPLIT
        high = c - (c - v)
        return high, v - high
    p = a * b
    (ah, al), (bh, bl) = split(a), split(b)
    return p, ((ah * bh - p) + ah * bl + al * bh) + al * bl


def _log_f64(a: Expr) -> tuple[Expr, Expr]:
    """``ln(a)`` as head + tail, to about 2^-60 relative, for a normal f64 ``a > 0``:
    ``a = m 2^e`` with ``sqrt(1/2) <= m < sqrt(2)`` (from the bits), ``ln m = 2 atanh(s)``
    with ``s = (m - 1) / (m + 1)`` (``|s| < 0.172``) itself as head + tail, and ``e ln 2`` with
    ln 2 as head + tail."""
    bits = a.convert_bits("s64")
    e = (bits >> 52) - 1023
    m = ((bits & 0xFFFFFFFFFFFFF) | (1023 << 52)).convert_bits("f64")  # [1, 2)
    big = m.gt(float(np.sqrt(2.0)))
    m = where(big, m * 0.5, m)
    e = where(big, e + 1, e).convert("f64")
    f = m - 1.0  # exact (Sterbenz)
    u = m + 1.0
    u_lo = m - (u - 1.0)  # u + u_lo = m + 1 exactly (|1| has the larger exponent)
    s = f / u
    p, p_err = _two_prod(s, u)
    s_lo = (((f - p) - p_err) - s * u_lo) / u  # s + s_lo = f / (m + 1) to about 2^-100
    z = s * s
    series = z.lift(_ATANH_SERIES[0])
    for c in _ATANH_SERIES[1:]:
        series = series * z + c
    head, two_s = e * _LN2[0], 2.0 * s  # head: exact
    total = head + two_s  # two-sum: total + err = head + 2 s exactly
    b = total - head
    err = (head - (total - b)) + (two_s - b)
    low = err + (e * _LN2[1] + (2.0 * s * z * series + 2.0 * s_lo))
    hi = total + low
    return hi, low - (hi - total)


def _pow_f64(a: Expr, y: Expr) -> Expr:
    """``a^y`` for f64 ``a > 0`` within about 2 ulp: ``exp(t) (1 + t_lo)`` with ``t + t_lo =
    y ln(a)`` in double-double (``_log_f64``, Dekker's product). IREE's ``exp(y * log(a))``
    rounds ``y log(a)`` to an absolute error of up to ``|y log(a)| * 2^-53``, which exp makes
    a relative one: 123 ulp for ``pow(2^-1022, -1)`` (fuzzer seed 20261127 program 3865), up
    to 700 near the overflow; XLA (libm) is within 1 ulp. Subnormal ``a``, ``|y| >= 2^900``
    (the result is 0 or inf unless ``a = 1``) and non-finite operands keep IREE's pow; C99's
    special cases are ``c99_pow``'s."""
    plain = _same_op("stablehlo.power", [a, y])
    hi, lo = _log_f64(a)
    t, t_err = _two_prod(y, hi)
    t_lo = t_err + y * lo
    exp_t = t.unary("Exp")
    accurate = where(exp_t.eq(np.inf), exp_t, exp_t + exp_t * t_lo)
    usable = (a.compare("GE", _SMALLEST_NORMAL_F64) & a.lt(np.inf)
              & y.unary("Abs").lt(2.0 ** 900))
    return where(usable, accurate, plain)


def c99_pow(x: Expr, y: Expr) -> Expr:
    """pow(x, y) -> C99 pow from pow(|x|, y), which IREE gets right for 0 < |x| < inf (f64:
    ``_pow_f64``, IREE's is up to 700 ulp off).

    XLA CPU follows C99:
      pow(x, 0) = pow(1, y) = 1 (NaN included);
      |x| = 0: +0 for y > 0, +inf for y < 0;  |x| = inf: +inf for y > 0, +0 for y < 0;
      |x| = 1: 1 in magnitude (pow(-1, +-inf) = 1);
      signbit(x) and y an odd integer: -pow(|x|, y);  finite x < 0 and y not an integer: NaN
      (pow(-inf, y) is +inf for y > 0, +0 for y < 0, as for +inf, when y is not an odd integer);
      y NaN: NaN (but pow(1, NaN) = 1); pow(x, 1) = x (correctly rounded; IREE's
      exp(1 * log(3.4e38)) is inf)
    (an integer y is floor(y) == y, so +-inf count as even integers: pow(-1, inf) = 1;
    odd: y - 2 * floor(y / 2) == 1, exact for every float).
    """
    ax = x.unary("Abs")
    if element_type_name(x.value) == "f64":
        magnitude = _pow_f64(ax, y)
    else:
        magnitude = _same_op("stablehlo.power", [ax, y])
    y_pos = y.gt(0)
    magnitude = where(ax.eq(0), where(y_pos, ax.lift(0.0), np.inf), magnitude)
    magnitude = where(ax.eq(np.inf), where(y_pos, ax.lift(np.inf), 0.0), magnitude)
    magnitude = where(ax.eq(1), 1.0, magnitude)  # IREE: pow(1, +-inf) = NaN
    y_floor = y.unary("Floor")
    is_integer = y_floor.eq(y)
    is_odd = (y - 2.0 * (y * 0.5).unary("Floor")).eq(1.0)
    negative = x.signbit()
    result = where(negative & is_odd, -magnitude, magnitude)
    result = where(x.lt(0) & ax.lt(np.inf) & ~is_integer, np.nan, result)  # pow(-inf, 0.5) = inf
    result = where(~y.eq(y), np.nan, result)  # the |x| = 0 and inf selects above gave pow(inf, NaN) = 0
    result = where(y.eq(1), x, result)  # IREE's exp(log(3.4e38)) overflows: pow(x, 1) is x exactly
    return where(y.eq(0) | x.eq(1), 1.0, result)


# pi/2 and pi as f32 head + tail (head + tail is pi/2, pi to about 2^-48)
_HALF_PI = (float(np.float32(np.pi / 2)), float(np.float32(np.pi / 2 - float(np.float32(np.pi / 2)))))
_PI = (float(np.float32(np.pi)), float(np.float32(np.pi - float(np.float32(np.pi)))))


def _atan2_f32(ay: Expr, x: Expr) -> Expr:
    """atan2(ay, x) for f32 ``ay >= 0`` within about 2 ulp (IREE's own atan2 is up to 40 ulp
    off, XLA's 1.4; a complex pow multiplies the phase's error by the exponent): Cephes'
    atanf of ``a = min / max`` of ``|x|, ay`` (``a > tan(pi/8)``: pi/4 + atan((a-1)/(a+1))),
    then ``pi/2 - r`` where ``ay > |x|`` and ``pi - r`` where ``x < 0``, the constants as
    head + tail. Zeros and infinities in both are c99_atan2's."""
    ax = x.unary("Abs")
    mx = Expr(binary("Max", ax.value, ay.value))
    mn = Expr(binary("Min", ax.value, ay.value))
    a = mn / mx
    big = a.gt(0.41421356237309503)  # tan(pi/8)
    t = where(big, (a - 1.0) / (a + 1.0), a)
    z = t * t
    poly = ((((8.05374449538e-2 * z - 1.38776856032e-1) * z + 1.99777106478e-1) * z
             - 3.33329491539e-1) * z) * t + t
    r = where(big, poly + float(np.float32(np.pi / 4)), poly)
    r = where(ay.gt(ax), (_HALF_PI[0] - r) + _HALF_PI[1], r)
    return where(x.lt(0), (_PI[0] - r) + _PI[1], r)


def c99_atan2(y: Expr, x: Expr) -> Expr:
    """atan2(y, x) -> atan2(|y|, x) signed as y, with C99's signed zeros and infinities.

    The sign is y's: IREE's atan2 reads |y| (it lost the sign where y / x underflows);
    f32 (and f16/bf16 computed in f32) reads ``_atan2_f32``, not IREE's atan2 (40 ulp off).
    XLA CPU (C99):
      y = +-0, x not NaN: y for x = +0 or x > 0, copysign(pi, y) for x = -0 or x < 0;
      y = +-inf, x = +-inf: copysign(pi/4, y) for x = +inf, copysign(3pi/4, y) for x = -inf.
    """
    sign = where(y.signbit(), y.lift(-1.0), 1.0)
    # atan2 is odd in y; IREE's lost the sign when y / x underflows (atan2(-3, -3.4e38)
    # gave +pi, XLA -pi), so it only sees |y|
    if element_type_name(y.value) == "f32":
        general = sign * _atan2_f32(y.unary("Abs"), x)
    else:
        general = sign * _same_op("stablehlo.atan2", [y.unary("Abs"), x])
    zero_case = where(x.signbit(), sign * np.pi, y)
    inf_case = sign * where(x.gt(0), x.lift(np.pi / 4), 3 * np.pi / 4)
    ay, ax = y.unary("Abs"), x.unary("Abs")
    result = where(y.eq(0) & x.eq(x), zero_case, general)
    return where(ay.eq(np.inf) & ax.eq(np.inf), inf_case, result)


def c99_cbrt(x: Expr) -> Expr:
    """cbrt(x) -> sign(x) * r with r = exp(log|x| / 3) refined by one Newton step
    r <- (2r + |x| / r^2) / 3; cbrt(+-0) = +-0, cbrt(+-inf) = +-inf, NaN stays NaN."""
    ax = x.unary("Abs")
    r = (ax.unary("Log") * (1.0 / 3.0)).unary("Exp")
    r = (2.0 * r + ax / (r * r)) * (1.0 / 3.0)
    signed = where(x.lt(0), -r, r)
    return where(ax.eq(0) | ax.eq(np.inf), x, signed)


# op -> (its C99 form, rule name)
_RULES: dict[str, tuple[Callable[..., Expr], str]] = {
    "stablehlo.power": (c99_pow, "c99-pow"),
    "stablehlo.atan2": (c99_atan2, "c99-atan2"),
    "stablehlo.cbrt": (c99_cbrt, "c99-cbrt"),
}


@register
class C99PowAtan2Cbrt(ExpanderPass):
    """Gives float pow, atan2 and cbrt C99's special values (IREE returns NaN); f16/bf16 in f32."""

    name = "c99-pow-atan2-cbrt"
    legalizes_for_iree = True

    def matches(self, op) -> bool:
        return (op.operation.name in _RULES and xla_arrays([*op.operands, *op.results])
                and element_type_name(op.results[0]) in _FLOATS)

    def rule(self, op) -> str:
        return _RULES[op.operation.name][1]

    def expand(self, op) -> Sequence[ir.Value]:
        """pow/atan2/cbrt(x, ...) -> c99_pow/c99_atan2/c99_cbrt(x, ...); f16/bf16 operands are
        converted to f32 and the result rounded back."""
        body = _RULES[op.operation.name][0]
        operands = [Expr(v) for v in op.operands]
        narrow = element_type_name(op.results[0]) in ("f16", "bf16")
        if narrow:
            operands = [x.convert("f32") for x in operands]
        result = body(*operands)
        if narrow:
            result = result.convert(element_type_name(op.results[0]))
        return [result.value]
