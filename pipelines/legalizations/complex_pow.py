"""complex-pow: complex pow in real arithmetic, as XLA CPU computes it.

The pinned IREE computes ``x^y`` as ``exp(y * log x)`` with its own complex log, whose
phase is IREE's atan2: ``(-0.96 - 0j)^(-0.96 - 0j)`` had the imaginary sign flipped
(the phase of ``-0.96 - 0j`` is -pi, IREE took +pi), and ``(-4 - 1.2e-38j)^(-0.2j)``
was 3.5x too large (the same -pi read as +pi, then ``exp(-d * phase)``);
``(2.5 + 1.2e-7j)^(-801.6j)`` was 2e-5 off (its sin/cos of the phase 734). XLA CPU
(``EmitComplexPower``) computes, with ``x = a + bi``, ``y = c + di``, ``t = atan2(b, a)``::

    |x|^c * exp(-d * t) * (cos(q) + i sin(q)),   q = c * t + d * log|x|

and five special cases (imaginary part 0), each overriding the ones before it::

    |x| = 0, d = 0, c >= 0: 1 if c = 0 else 0;   c = d = 0: 1;   x = 1 + 0i: 1;
    x = inf + 0i, d = 0: inf for c > 0, 0 for c < 0

This pass emits that with the project's C99 pieces: ``|x|`` is complex-abs's hypot, the
real ``pow`` c99-pow-atan2-cbrt's C99 pow, ``t`` its C99 atan2 (the sign of a zero or
underflowing ``b`` kept); where IREE's ``|x|^c`` overflows but ``|x|^(c/2)`` is at most
the square root of the largest float (its ``pow(3.4e38, 1)`` is inf) the coefficient is
``(|x|^(c/2) exp(-d t)) |x|^(c/2)``. ``cos(q)``, ``sin(q)`` read ``q`` reduced by 2 pi first (f32:
Cody-Waite with a four-part 2 pi, exact for ``|q| < 4.1e5``): IREE's f32 sin/cos
reduce with a single-precision pi, off by about ``|q| * 3e-8``::

    %r = stablehlo.power %x, %y : tensor<4xcomplex<f32>>

becomes ``stablehlo.complex %re, %im`` of real element-wise ops. Conditions: a complex
result; real pow is c99-pow-atan2-cbrt's.
"""

from __future__ import annotations

from typing import Sequence

import numpy as np
from iree.compiler import ir

from dialect_ops.elementwise import binary
from hlo_mlir.ir_access import element_type_name
from pipelines.legalizations.c99_pow_atan2_cbrt import c99_atan2, c99_pow
from pipelines.legalizations.complex_abs import hypot
from pipelines.matchers import xla_arrays
from pipelines.pass_base import ExpanderPass
from pipelines.registry import register
from pipelines.values import Expr, where

__all__ = ["ComplexPow", "reduced_2pi", "turn_fraction"]

_KEEP = 8  # significant bits of each leading part of 2 pi: k * part is exact for |k| < 2^16
_K_LIMIT = 2.0 ** (24 - _KEEP)


def _split_2pi() -> list[float]:
    """2 pi as the sum of four f32 values, the first three with at most _KEEP significant bits."""
    def head(v: float) -> float:
        mantissa, exponent = np.frexp(v)
        return float(np.ldexp(np.trunc(mantissa * 2 ** _KEEP), exponent - _KEEP))
    parts, rest = [], 2 * np.pi
    for _ in range(3):
        parts.append(head(rest))
        rest -= parts[-1]
    return parts + [float(np.float32(rest))]


def _inverse_2pi_chunks(count: int = 9) -> list[int]:
    """1 / (2 pi) as ``sum(c[i] * 2^(-24 (i + 1)))``: ``count`` 24-bit integers."""
    import mpmath

    with mpmath.workprec(24 * count + 64):
        scaled = int(mpmath.floor(mpmath.ldexp(1 / (2 * mpmath.pi), 24 * count)))
    return [(scaled >> (24 * (count - 1 - i))) & 0xFFFFFF for i in range(count)]


def turn_fraction(q: Expr) -> Expr:
    """``frac(|q| / (2 pi)) * 2^64`` (u64, truncated, at most 9 below) of a finite f32 ``q``
    with ``|q| >= 2^13`` (garbage below: callers select it only there) (Payne-Hanek):
    ``|q| = M 2^e`` with the 24-bit integer mantissa ``M``, ``-10 <= e <= 104``; the sum of
    the products of ``M`` with 24-bit chunks of 1 / (2 pi) shifted into place (u64, wrapping:
    whole turns fall off the top). A chunk whose shift has one sign over that range of ``e``
    shifts one way only."""
    bits = q.convert_bits("u32")
    mantissa = ((bits & 0x7FFFFF) | 0x800000).convert("u64")
    e = ((bits >> 23) & 0xFF).convert("s64") - 150  # |q| = mantissa * 2^e
    total = mantissa & 0  # u64 zero
    for i, chunk in enumerate(_inverse_2pi_chunks()):
        product = mantissa * chunk  # < 2^48
        offset = 40 - 24 * i  # the product's bit 0 lands at bit e + offset of the fraction
        shift = e + offset
        if offset - 10 >= 0:
            term = product << shift.convert("u64")
        elif offset + 104 <= 0:
            term = product >> (-shift).convert("u64")
        else:
            term = where(shift.compare("GE", 0), product << shift.convert("u64"),
                         product >> (-shift).convert("u64"))
        total = total + term
    return total


def _huge_reduced_2pi(q: Expr) -> Expr:
    """``q`` (f32, finite) minus the nearest multiple of 2 pi, in [-pi, pi), for any
    magnitude: the top bits of ``turn_fraction``, signed, are the angle's fraction of a turn."""
    total = turn_fraction(q)
    turns = (total.convert_bits("s64") >> 40).convert("f32") * 2.0 ** -24 + \
        ((total >> 16) & 0xFFFFFF).convert("f32") * 2.0 ** -48  # in [-1/2, 1/2)
    two_pi = float(np.float32(2 * np.pi))
    angle = turns * two_pi + turns * float(np.float32(2 * np.pi - two_pi))
    return where(q.signbit(), -angle, angle)


def reduced_2pi(q: Expr) -> Expr:
    """``q`` minus the nearest multiple ``k`` of 2 pi, for f32 ``q``: Cody-Waite with a
    four-part 2 pi (exact for ``|k| < 2^16``, ``|q| < 4.1e5``), Payne-Hanek beyond
    (``_huge_reduced_2pi``); inf and NaN stay. Other types are returned as they are."""
    if element_type_name(q.value) != "f32":
        return q
    k = (q * float(np.float32(1 / (2 * np.pi)))).unary("RoundNearestEven")
    r = q
    for part in _split_2pi():
        r = r - k * part
    huge = where(q.unary("Abs").lt(np.inf), _huge_reduced_2pi(q), q)
    return where(k.unary("Abs").lt(_K_LIMIT), r, huge)


def complex_pow(a: Expr, b: Expr, c: Expr, d: Expr) -> tuple[Expr, Expr]:
    """(a + bi)^(c + di) as XLA's EmitComplexPower: real and imaginary parts."""
    magnitude = hypot(a, b)
    t = c99_atan2(b, a)
    abs_to_c, exp_dt = c99_pow(magnitude, c), (-d * t).unary("Exp")
    # IREE's pow(3.4e38, 1) overflows (exp(88.72...) rounded up): where its |x|^c is inf
    # but |x|^(c/2) is at most sqrt(max float) (give or take IREE's pow error), the product
    # is (|x|^(c/2) exp(-d t)) |x|^(c/2); where |x|^c itself overflows, XLA's
    # inf * exp(-d t) (inf, or NaN for a zero exp(-d t)) is kept
    half = c99_pow(magnitude, c * 0.5)
    largest = np.finfo(np.float32 if element_type_name(c.value) == "f32" else np.float64).max
    rounded_up = abs_to_c.eq(np.inf) & half.compare("LE", float(np.sqrt(largest)) * (1 + 2.0 ** -18))
    coeff = where(rounded_up, half * exp_dt * half, abs_to_c * exp_dt)
    q = reduced_2pi(c * t + d * magnitude.unary("Log"))
    re, im = coeff * q.unary("Cos"), coeff * q.unary("Sin")
    zero_base = magnitude.eq(0) & d.eq(0) & c.compare("GE", 0)
    re, im = where(zero_base, where(c.eq(0), a.lift(1.0), 0.0), re), where(zero_base, a.lift(0.0), im)
    one = (c.eq(0) & d.eq(0)) | (a.eq(1) & b.eq(0))
    re, im = where(one, a.lift(1.0), re), where(one, a.lift(0.0), im)
    inf_base = a.eq(np.inf) & b.eq(0) & d.eq(0)
    re = where(inf_base & c.gt(0), a.lift(np.inf), where(inf_base & c.lt(0), a.lift(0.0), re))
    im = where(inf_base & (c.gt(0) | c.lt(0)), a.lift(0.0), im)
    return re, im


@register
class ComplexPow(ExpanderPass):
    """Computes complex pow as XLA's |x|^c exp(-d t) cis(q) with C99's atan2 (IREE flips signs)."""

    name = "complex-pow"
    legalizes_for_iree = True

    def matches(self, op) -> bool:
        return (op.operation.name == "stablehlo.power" and xla_arrays([*op.operands, *op.results])
                and element_type_name(op.results[0]).startswith("complex<"))

    def expand(self, op) -> Sequence[ir.Value]:
        """pow(a + bi, c + di) -> complex(coeff cos q, coeff sin q), coeff = |x|^c exp(-d t),
        q = c t + d log|x|, t = atan2(b, a), with XLA's special cases."""
        x, y = Expr(op.operands[0]), Expr(op.operands[1])
        re, im = complex_pow(x.unary("Real"), x.unary("Imag"), y.unary("Real"), y.unary("Imag"))
        return [binary("Complex", re.value, im.value)]
