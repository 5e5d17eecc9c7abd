"""trig-range-reduction: f32 (and f16, bf16) sin, cos and tan with XLA's accuracy for every argument.

The pinned IREE picks the quadrant of sin/cos/tan by flooring ``x * 2/pi`` and reduces
with a single-precision pi/2, so its absolute error is about 1e-7 wherever it reduces to
the far end of a quadrant: ``sin(-1.46e-8)`` is ``+6.2e-8``, ``tan(-0.0019339)`` is 479
ULP off, ``tan(-10.97)`` (0.03 from a pole) 113 ULP, and the error grows as ``|x| * 3e-8``
until the reduction overflows past 1e9 (``sin(1e10)`` = -6.0e21, ``sin(3.4e38)`` = -inf;
XLA CPU: under 1 ULP everywhere; fuzzer seeds 20261125 and 20261126). This pass reduces
the argument itself, to nearest, and calls IREE's sin and cos only on ``|r| <= pi/4``, where
they are accurate. Below ``|x| = 8192`` with pi/2 in four parts (Cody-Waite: ``k * C1``,
``k * C2`` and ``k * C3`` are exact for ``k < 2^13``, and so is each subtraction where ``r``
is small); from 8192 on with Payne-Hanek (``_huge_reduction``: ``|x| / (pi/2) mod 4`` from
the f32 mantissa times 24-bit chunks of 1/(2 pi) in u64 arithmetic; ``r`` to half an ULP
even at 16367173 * 2^72, the f32 value closest to a multiple of pi/2), selected per element::

    %r = stablehlo.tan %x : tensor<4xf32>

becomes::

    %k = round_nearest_even(%x * 2/pi)
    %r1 = (((%x - %k * C1) - %k * C2) - %k * C3) - %k * C4  // |r| <= pi/4
    %q2, %r2 = payne_hanek(%x)                             // u64 fixed point, any |x|
    %q, %r = select(abs(%x) < 8192, (%k & 3, %r1), (%q2, %r2))   // NaN r for inf, NaN
    %s = select(%r < 0, -sin(abs(%r)), sin(abs(%r)))   // IREE's sin and cos of |r| only
    %c = cos(abs(%r))
    %t = select(%q is even, %s / %c, -%c / %s)

f16 and bf16 operands are computed in f32 and rounded back, as XLA CPU does. Conditions:
a real f16, bf16 or f32 result; f64 sin/cos/tan are the C library's (accurate), complex
ones are complex-sin-cos's (which emits real sin/cos for this pass). The sin and cos an
expansion emits read ``|r| <= pi/4`` and are not expanded again in the same run
(docs/iree-defects.md, 'sin/cos/tan of large arguments').
"""

from __future__ import annotations

from typing import Sequence

import numpy as np
from iree.compiler import ir

from hlo_mlir.ir_access import element_type_name
from pipelines.legalizations.complex_pow import turn_fraction
from pipelines.matchers import xla_arrays
from pipelines.pass_base import ExpanderPass
from pipelines.registry import register
from pipelines.values import Expr, where

__all__ = ["TrigRangeReduction", "reduce_half_pi"]

_OPS = {"stablehlo.sine": "Sin", "stablehlo.cosine": "Cos", "stablehlo.tan": "Tan"}
_TYPES = ("f16", "bf16", "f32")
TWO_OVER_PI = float(np.float32(2 / np.pi))
# pi/2 = C1 + C2 + C3 + C4 + 8e-20: C1 has 8 significant bits, C2 and C3 11 (C1, C2: Cephes'
# sinf DP1, DP2 times 2), so k * C1, k * C2 and k * C3 are exact for |k| < 2^13, and the
# subtractions cancel exactly where r is small (Sterbenz); C4 is the rest, rounded to f32.
C1, C2, C3, C4 = 1.5703125, 4.837512969970703125e-4, 7.549533620476723e-08, 2.5633440682570896e-12
LIMIT = 8192.0  # |x| below this: k = round(x * 2/pi) < 2^13; from it on Payne-Hanek


def _split(value: float, bits: int = 12) -> tuple[float, float]:
    """``value`` as ``head + tail``: f32 ``head`` with ``bits`` significant bits, f32 ``tail``."""
    mantissa, exponent = np.frexp(value)
    head = float(np.ldexp(np.trunc(mantissa * 2 ** bits), exponent - bits))
    return head, float(np.float32(value - head))


# pi/2 per unit of the 62-bit fraction of a quadrant, head (12 bits) and tail
P1, P2 = _split(np.pi / 2 * 2.0 ** -62)


def _huge_reduction(x: Expr) -> tuple[Expr, Expr]:
    """The quadrant ``q`` (s32, 0..3) and ``r = x - (q + 4 n) pi/2`` (``|r| <= pi/4``) of a
    finite f32 ``x`` with ``|x| >= 2^13`` (Payne-Hanek): ``|x| / (pi/2) mod 4`` is complex-pow's
    64-bit fraction of a turn, read as 2 quadrant bits and a 62-bit fraction ``f``, rounded
    to the nearest quadrant; ``r = f * 2^-62 * pi/2`` is ``fh + fl`` (``f`` rounded to f32,
    and the rest) times ``P1 + P2``, with ``fh`` cut in two 12-bit halves so that the
    leading product ``h * P1`` is exact: ``r`` to about half an ULP."""
    turn = turn_fraction(x) + 2 ** 61  # to nearest: quadrant + [-1/2, 1/2)
    quadrant = (turn >> 62).convert("s32")
    f = (turn & (2 ** 62 - 1)).convert_bits("s64") - 2 ** 61
    fh = f.convert("f32")
    fl = (f - fh.convert("s64")).convert("f32")
    h = (fh.convert_bits("u32") & 0xFFFFF000).convert_bits("f32")
    r = h * P1 + (((fh - h) * P1 + fh * P2) + fl * P1)
    negative = x.signbit()  # -x = -q pi/2 - r
    return where(negative, (-quadrant) & 3, quadrant), where(negative, -r, r)


def reduce_half_pi(x: Expr) -> tuple[Expr, Expr]:
    """The quadrant ``q`` (s32, 0..3) and the rest ``r`` (``|r| <= pi/4``) of f32 ``x`` by pi/2:
    four-part Cody-Waite below ``LIMIT``, Payne-Hanek from there; ``r`` is NaN for inf and NaN."""
    k = (x * TWO_OVER_PI).unary("RoundNearestEven")
    r = (((x - k * C1) - k * C2) - k * C3) - k * C4
    small = x.unary("Abs").lt(LIMIT)
    huge_q, huge_r = _huge_reduction(x)
    quadrant = where(small, where(small, k, 0.0).convert("s32") & 3, huge_q)
    finite = x.unary("Abs").lt(np.inf)
    return quadrant, where(small, r, where(finite, huge_r, x - x))


@register
class TrigRangeReduction(ExpanderPass):
    """Reduces f32/f16/bf16 sin, cos and tan arguments to |r| <= pi/4 (IREE's reduction is ~1e-7 off)."""

    name = "trig-range-reduction"
    legalizes_for_iree = True

    def matches(self, op) -> bool:
        return (op.operation.name in _OPS and xla_arrays([*op.operands, *op.results])
                and element_type_name(op.results[0]) in _TYPES)

    def expand(self, op) -> Sequence[ir.Value]:
        """sin/cos/tan(x) -> by the quadrant q of r = x - q * pi/2 (mod 2 pi):
        sin: [s, c, -s, -c][q], cos: [c, -s, -c, s][q], tan: s / c (q even), -c / s (q odd),
        with s = sin(r), c = cos(r), |r| <= pi/4."""
        fn = _OPS[op.operation.name]
        kind = element_type_name(op.results[0])
        x = Expr(op.operands[0])
        x32 = x if kind == "f32" else x.convert("f32")
        quadrant, r = reduce_half_pi(x32)
        magnitude = r.unary("Abs")  # IREE's sin and cos are accurate on [0, pi/4], not below 0
        s, c = magnitude.unary("Sin"), magnitude.unary("Cos")
        s = where(r.lt(0.0), -s, s)
        odd, upper = (quadrant & 1).eq(1), (quadrant & 2).eq(2)
        if fn == "Tan":
            value = where(odd, -c / s, s / c)
        elif fn == "Sin":  # q = 0..3: s, c, -s, -c
            value = where(upper, -where(odd, c, s), where(odd, c, s))
        else:  # cos, q = 0..3: c, -s, -c, s
            value = where(odd ^ upper, -where(odd, s, c), where(odd, s, c))
        return [(value if kind == "f32" else value.convert(kind)).value]
