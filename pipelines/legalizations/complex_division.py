"""complex-division: complex division by Smith's algorithm with XLA's special cases.

The pinned IREE divides by the textbook formula ``(a * conj(b)) / |b|^2``, whose ``|b|^2``
overflows or underflows: ``x / x`` with a part of 3.4e38 gave NaN (XLA 1),
``(1+1j) / (inf+0j)`` NaN (XLA 0), ``(0.25-1j) / -1.2e-38j`` inf+NaN j (XLA 8.5e37+2.1e37j).
XLA CPU (``ElementalIrEmitter::EmitComplexDivide``) divides by the larger part of ``b``::

    |b_r| < |b_i|:  t = b_r / b_i, d = b_i + t * b_r,  c = ((t*a_r + a_i) + (t*a_i - a_r) i) / d
    otherwise:      t = b_i / b_r, d = b_r + t * b_i,  c = ((t*a_i + a_r) + (a_i - t*a_r) i) / d

and where both parts of that come out NaN it takes C99's special values: a zero divisor
(and a numerator not all NaN) gives ``copysign(inf, b_r) * a``; an infinite numerator over
a finite divisor ``inf * (a' * conj(b))`` and a finite numerator over an infinite divisor
``0 * (a * conj(b'))``, with ``x'`` the unit-or-zero of each infinite part's sign. This pass
emits exactly that::

    %r = stablehlo.divide %a, %b : tensor<3xcomplex<f32>>

becomes ``stablehlo.complex`` of two selects over real arithmetic on the parts.

Conditions: a complex result; real division is left alone.
"""

from __future__ import annotations

from typing import Sequence

from iree.compiler import ir

from dialect_ops.elementwise import binary
from hlo_mlir.ir_access import element_type_name
from pipelines.matchers import xla_arrays
from pipelines.pass_base import ExpanderPass
from pipelines.registry import register
from pipelines.values import Expr, where

__all__ = ["ComplexDivision", "smith_divide"]


def _unit(x: Expr, where_true: Expr) -> Expr:
    """copysign(1, x) where ``where_true``, copysign(0, x) elsewhere."""
    sign = where(x.signbit(), x.lift(-1.0), 1.0)
    return sign * where(where_true, x.lift(1.0), 0.0)


def smith_divide(a_r: Expr, a_i: Expr, b_r: Expr, b_i: Expr) -> tuple[Expr, Expr]:
    """(real, imag) of ``(a_r + a_i i) / (b_r + b_i i)`` as XLA CPU computes it."""
    inf = float("inf")
    br_abs, bi_abs, ar_abs, ai_abs = (x.unary("Abs") for x in (b_r, b_i, a_r, a_i))
    small_r = br_abs.lt(bi_abs)
    t1 = b_r / b_i
    d1 = b_i + t1 * b_r
    t2 = b_i / b_r
    d2 = b_r + t2 * b_i
    re = where(small_r, (t1 * a_r + a_i) / d1, (t2 * a_i + a_r) / d2)
    im = where(small_r, (t1 * a_i - a_r) / d1, (a_i - t2 * a_r) / d2)

    def isnan(x: Expr) -> Expr:
        return x.compare("NE", x)

    def finite(x_abs: Expr) -> Expr:  # ordered and not inf
        return x_abs.lt(inf)

    zero_b = br_abs.eq(0.0) & bi_abs.eq(0.0) & (~isnan(a_r) | ~isnan(a_i))
    signed_inf = where(b_r.signbit(), b_r.lift(-inf), inf)
    ar_inf, ai_inf, br_inf, bi_inf = (x.eq(inf) for x in (ar_abs, ai_abs, br_abs, bi_abs))
    inf_num = (ar_inf | ai_inf) & finite(br_abs) & finite(bi_abs)
    ar1, ai1 = _unit(a_r, ar_inf), _unit(a_i, ai_inf)
    inf_den = (br_inf | bi_inf) & finite(ar_abs) & finite(ai_abs)
    br1, bi1 = _unit(b_r, br_inf), _unit(b_i, bi_inf)
    nan = isnan(re) & isnan(im)
    special_re = where(zero_b, signed_inf * a_r, where(inf_num, inf * (ar1 * b_r + ai1 * b_i),
                                                       where(inf_den, 0.0 * (a_r * br1 + a_i * bi1), re)))
    special_im = where(zero_b, signed_inf * a_i, where(inf_num, inf * (ai1 * b_r - ar1 * b_i),
                                                       where(inf_den, 0.0 * (a_i * br1 - a_r * bi1), im)))
    return where(nan, special_re, re), where(nan, special_im, im)


@register
class ComplexDivision(ExpanderPass):
    """Divides complex numbers by Smith's algorithm with XLA's special cases (IREE overflows)."""

    name = "complex-division"
    legalizes_for_iree = True

    def matches(self, op) -> bool:
        return (op.operation.name == "stablehlo.divide" and xla_arrays([*op.operands, *op.results])
                and element_type_name(op.results[0]).startswith("complex<"))

    def expand(self, op) -> Sequence[ir.Value]:
        """a / b -> complex(real, imag) of ``smith_divide`` on the parts."""
        a, b = Expr(op.operands[0]), Expr(op.operands[1])
        re, im = smith_divide(a.unary("Real"), a.unary("Imag"), b.unary("Real"), b.unary("Imag"))
        return [binary("Complex", re.value, im.value)]
