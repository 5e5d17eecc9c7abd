"""trig-range-reduction: f32 (and f16, bf16) sin, cos and tan with XLA's accuracy below 8192.

The pinned IREE picks the quadrant of sin/cos/tan by flooring ``x * 2/pi`` and reduces
with a single-precision pi/2, so its absolute error is about 1e-7 wherever it reduces to
the far end of a quadrant: ``sin(-1.46e-8)`` is ``+6.2e-8``, ``tan(-0.0019339)`` is 479
ULP off, ``tan(-10.97)`` (0.03 from a pole) 113 ULP, and the error grows as ``|x| * 3e-8``
(XLA CPU: under 1 ULP; fuzzer seeds 20261125 and 20261126). This pass reduces the
argument itself, to nearest, with pi/2 in four parts (Cody-Waite: ``k * C1``, ``k * C2`` and
``k * C3`` are exact for ``k < 2^13``, and so is each subtraction where ``r`` is small), and
calls IREE's sin and cos only on ``|r| <= pi/4``, where they are accurate::

    %r = stablehlo.tan %x : tensor<4xf32>

becomes::

    %k = round_nearest_even(%x * 2/pi)
    %r = (((%x - %k * C1) - %k * C2) - %k * C3) - %k * C4   // |r| <= pi/4
    %s = select(%r < 0, -sin(abs(%r)), sin(abs(%r)))   // IREE's sin and cos of |r| only
    %c = cos(abs(%r))
    %q = convert(%k) & 3                               // the quadrant
    %t = select(%q is even, %s / %c, -%c / %s)
    %r = select(abs(%x) < 8192, %t, stablehlo.tan %x)  // past 8192: IREE's own

f16 and bf16 operands are computed in f32 and rounded back, as XLA CPU does. Conditions:
a real f16, bf16 or f32 result; f64 sin/cos/tan are the C library's (accurate), complex
ones are left alone. The sin and cos an expansion emits read ``|r| <= pi/4`` and are not
expanded again in the same run. Past ``|x| = 8192`` IREE's error stays (docs/iree-defects.md,
'sin/cos/tan of large arguments').
"""

from __future__ import annotations

from typing import Sequence

import numpy as np
from iree.compiler import ir

from hlo_mlir.ir_access import element_type_name
from pipelines.matchers import xla_arrays
from pipelines.pass_base import ExpanderPass
from pipelines.registry import register
from pipelines.values import Expr, where

__all__ = ["TrigRangeReduction"]

_OPS = {"stablehlo.sine": "Sin", "stablehlo.cosine": "Cos", "stablehlo.tan": "Tan"}
_TYPES = ("f16", "bf16", "f32")
TWO_OVER_PI = float(np.float32(2 / np.pi))
# pi/2 = C1 + C2 + C3 + C4 + 8e-20: C1 has 8 significant bits, C2 and C3 11 (C1, C2: Cephes'
# sinf DP1, DP2 times 2), so k * C1, k * C2 and k * C3 are exact for |k| < 2^13, and the
# subtractions cancel exactly where r is small (Sterbenz); C4 is the rest, rounded to f32.
C1, C2, C3, C4 = 1.5703125, 4.837512969970703125e-4, 7.549533620476723e-08, 2.5633440682570896e-12
LIMIT = 8192.0  # |x| below this: k = round(x * 2/pi) < 2^13


@register
class TrigRangeReduction(ExpanderPass):
    """Reduces f32/f16/bf16 sin, cos and tan arguments to |r| <= pi/4 (IREE's reduction is ~1e-7 off)."""

    name = "trig-range-reduction"
    legalizes_for_iree = True

    def matches(self, op) -> bool:
        return (op.operation.name in _OPS and xla_arrays([*op.operands, *op.results])
                and element_type_name(op.results[0]) in _TYPES)

    def expand(self, op) -> Sequence[ir.Value]:
        """sin/cos/tan(x) -> by the quadrant q = round(x * 2/pi) mod 4 of r = x - q * pi/2:
        sin: [s, c, -s, -c][q], cos: [c, -s, -c, s][q], tan: s / c (q even), -c / s (q odd),
        with s = sin(r), c = cos(r), |r| <= pi/4; IREE's own op where |x| >= 8192."""
        fn = _OPS[op.operation.name]
        kind = element_type_name(op.results[0])
        x = Expr(op.operands[0])
        x32 = x if kind == "f32" else x.convert("f32")
        k = (x32 * TWO_OVER_PI).unary("RoundNearestEven")
        r = (((x32 - k * C1) - k * C2) - k * C3) - k * C4
        magnitude = r.unary("Abs")  # IREE's sin and cos are accurate on [0, pi/4], not below 0
        s, c = magnitude.unary("Sin"), magnitude.unary("Cos")
        s = where(r.lt(0.0), -s, s)
        quadrant = where(k.unary("Abs").lt(LIMIT), k, 0.0).convert("s32") & 3
        odd, upper = (quadrant & 1).eq(1), (quadrant & 2).eq(2)
        if fn == "Tan":
            value = where(odd, -c / s, s / c)
        elif fn == "Sin":  # q = 0..3: s, c, -s, -c
            value = where(upper, -where(odd, c, s), where(odd, c, s))
        else:  # cos, q = 0..3: c, -s, -c, s
            value = where(odd ^ upper, -where(odd, s, c), where(odd, s, c))
        value = where(x32.unary("Abs").lt(LIMIT), value, x32.unary(fn))
        return [(value if kind == "f32" else value.convert(kind)).value]
