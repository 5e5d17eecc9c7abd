"""complex-abs: the magnitude of a complex number without overflow or underflow.

The pinned IREE computes ``|a + bi|`` as ``sqrt(a^2 + b^2)``, whose squares overflow or
underflow: ``|3.4e38 - 3j|`` gave inf, ``|1.2e-38|`` gave 0 and ``|1e30 + 1e30j|`` inf
(XLA: 3.4e38, 1.2e-38, 1.4e30), and complex ``log``, which reads the magnitude, gave
``+-inf`` for them (fuzzer seed 20261124 program 745). XLA computes a hypot::

    %r = stablehlo.abs %z : (tensor<3xcomplex<f32>>) -> tensor<3xf32>

becomes, with ``m = max(|a|, |b|)`` and ``n = min(|a|, |b|)``::

    m * sqrt(1 + (n / m)^2)      // 0 when m = 0; inf when |a| or |b| is inf

A NaN part gives NaN, also beside an infinite one (XLA; C99's hypot says inf).
``complex-log`` uses ``log_hypot``, ``log(m) + log1p((n / m)^2) / 2``, which stays finite
where the magnitude overflows. Conditions: a complex operand.
"""

from __future__ import annotations

from typing import Sequence

import numpy as np
from iree.compiler import ir

from dialect_ops.elementwise import binary
from hlo_mlir.ir_access import element_type_name
from pipelines.matchers import xla_arrays
from pipelines.pass_base import ExpanderPass
from pipelines.registry import register
from pipelines.values import Expr, where

__all__ = ["ComplexAbs", "hypot", "log_hypot"]


def _with_specials(a: Expr, b: Expr, general) -> Expr:
    """``general(m, ratio)`` of ``m = max(|a|, |b|)`` and ``ratio = min / m``, with XLA's
    special cases: NaN for a NaN part (C99 would say inf beside an inf part), inf for an
    infinite part, ``general(0, 0)`` for ``m = 0``."""
    aa, ab = a.unary("Abs"), b.unary("Abs")
    m = Expr(binary("Max", aa.value, ab.value))
    ratio = where(m.eq(0), m, Expr(binary("Min", aa.value, ab.value)) / m)
    infinite = where(aa.eq(np.inf) | ab.eq(np.inf), aa.lift(np.inf), general(m, ratio))
    return where(aa.compare("NE", aa) | ab.compare("NE", ab), aa + ab, infinite)


def hypot(a: Expr, b: Expr) -> Expr:
    """sqrt(a^2 + b^2) as ``m * sqrt(1 + ratio^2)``: no overflow or underflow in between."""
    return _with_specials(a, b, lambda m, ratio: m * (1.0 + ratio * ratio).unary("Sqrt"))


def log_hypot(a: Expr, b: Expr) -> Expr:
    """log(sqrt(a^2 + b^2)) as ``log(m) + log1p(ratio^2) / 2``: finite also where the
    magnitude itself overflows (``log|3.4e38 + 3.4e38j|`` is 89.07, as XLA)."""
    return _with_specials(a, b, lambda m, ratio: m.unary("Log") + 0.5 * (ratio * ratio).unary("Log1p"))


@register
class ComplexAbs(ExpanderPass):
    """Computes complex abs as a scaled hypot (IREE's sqrt(a^2 + b^2) overflows and underflows)."""

    name = "complex-abs"
    legalizes_for_iree = True

    def matches(self, op) -> bool:
        return (op.operation.name == "stablehlo.abs" and xla_arrays([*op.operands, *op.results])
                and element_type_name(op.operands[0]).startswith("complex<"))

    def expand(self, op) -> Sequence[ir.Value]:
        """abs(a + bi) -> m * sqrt(1 + (n / m)^2), m = max(|a|, |b|), n = min(|a|, |b|)."""
        z = Expr(op.operands[0])
        return [hypot(z.unary("Real"), z.unary("Imag")).value]
