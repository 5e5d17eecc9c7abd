"""complex-exp: complex exp in real arithmetic, as XLA CPU computes it.

The pinned IREE computes ``exp(a + bi)`` as ``exp(a) * cos(b) + i exp(a) * sin(b)``:
``exp(156.96 + 0j)`` and ``exp(inf + 0j)`` were ``inf + NaN j`` (``inf * sin(0)``; XLA
and C99: ``inf + 0j``), ``exp(88.8 + 1j)`` was ``inf + inf j`` (XLA 1.99e38 + 3.09e38j),
and its f32 sin/cos of ``b`` reduce with a single-precision pi (``exp(15.05 + 415.76j)``
off by 1e-5 relative). XLA CPU (``EmitComplexExp``, as the StableHLO reference)::

    real = exp(a) * cos(b)                    or (exp(a/2) * cos(b)) * exp(a/2) where exp(a) = inf
    imag = 0 where b = 0, else exp(a) * sin(b)  or (exp(a/2) * sin(b)) * exp(a/2) where exp(a) = inf

This pass emits exactly that, with ``b`` reduced by 2 pi first (complex-pow's
``reduced_2pi``: Cody-Waite, exact for ``|b| < 4.1e5``)::

    %r = stablehlo.exponential %z : tensor<4xcomplex<f32>>

becomes ``stablehlo.complex %re, %im`` of real element-wise ops. Conditions: a complex
result; real exp is IREE's.
"""

from __future__ import annotations

from typing import Sequence

import numpy as np
from iree.compiler import ir

from dialect_ops.elementwise import binary
from hlo_mlir.ir_access import element_type_name
from pipelines.legalizations.complex_pow import reduced_2pi
from pipelines.matchers import xla_arrays
from pipelines.pass_base import ExpanderPass
from pipelines.registry import register
from pipelines.values import Expr, where

__all__ = ["ComplexExp"]


def complex_exp(a: Expr, b: Expr) -> tuple[Expr, Expr]:
    """exp(a + bi) as XLA's EmitComplexExp: real and imaginary parts."""
    exp_a, exp_half = a.unary("Exp"), (a * 0.5).unary("Exp")
    reduced = reduced_2pi(b)
    cos_b, sin_b = reduced.unary("Cos"), reduced.unary("Sin")
    overflow = exp_a.eq(np.inf)
    re = where(overflow, exp_half * cos_b * exp_half, exp_a * cos_b)
    im = where(overflow, exp_half * sin_b * exp_half, exp_a * sin_b)
    return re, where(b.eq(0), a.lift(0.0), im)


@register
class ComplexExp(ExpanderPass):
    """Computes complex exp as XLA does (IREE gives exp(inf + 0j) a NaN imaginary part)."""

    name = "complex-exp"
    legalizes_for_iree = True

    def matches(self, op) -> bool:
        return (op.operation.name == "stablehlo.exponential" and xla_arrays([*op.operands, *op.results])
                and element_type_name(op.results[0]).startswith("complex<"))

    def expand(self, op) -> Sequence[ir.Value]:
        """exp(a + bi) -> complex(exp(a) cos b, b = 0 ? 0 : exp(a) sin b), through exp(a/2)
        twice where exp(a) overflows."""
        z = Expr(op.operands[0])
        re, im = complex_exp(z.unary("Real"), z.unary("Imag"))
        return [binary("Complex", re.value, im.value)]
