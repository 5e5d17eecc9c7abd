"""f64-log1p: f64 log_plus_one by Goldberg's formula, accurate where IREE's is not.

The pinned IREE's f64 log1p is off by ~500 ULP near 1e-3 (``log1p(1e-3)`` wrong in the
13th digit). With ``u = 1 + x``, ``log(u) * x / (u - 1)`` cancels the rounding of ``1 + x``
(Goldberg, "What every computer scientist should know about floating-point")::

    %r = stablehlo.log_plus_one %x : tensor<4xf64>

becomes::

    %u = stablehlo.add %one, %x
    %g = stablehlo.multiply (stablehlo.log %u), (stablehlo.divide %x, (stablehlo.subtract %u, %one))
    %r = select(u == 1, x, select(x == inf, x, %g))

Conditions: an f64 result; f16/bf16/f32 log1p are IREE's own and left alone.
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

__all__ = ["F64Log1p"]


@register
class F64Log1p(ExpanderPass):
    """Computes f64 log1p as log(1 + x) * x / ((1 + x) - 1) (IREE's is ~500 ULP off)."""

    name = "f64-log1p"
    legalizes_for_iree = True

    def matches(self, op) -> bool:
        return (op.operation.name == "stablehlo.log_plus_one" and xla_arrays([*op.operands, *op.results])
                and element_type_name(op.results[0]) == "f64")

    def expand(self, op) -> Sequence[ir.Value]:
        """log_plus_one(x) -> x where u = 1 + x rounds to 1, else log(u) * x / (u - 1);
        log1p(inf) = inf."""
        x = Expr(op.operands[0])
        u = 1.0 + x
        general = u.unary("Log") * (x / (u - 1.0))
        return [where(u.eq(1.0), x, where(x.eq(np.inf), x, general)).value]
