"""vulkan-log1p: f16/bf16/f32 log1p accurate near zero on Vulkan.

On vulkan-spirv (Mesa llvmpipe) the pinned IREE computes ``log_plus_one`` as
``log(1 + x)``: the rounding of ``1 + x`` leaves ``log1p(1e-4)`` 0.01% off and
``log1p(3e-7)`` 19% off. For ``1 + x`` in [0.5, 2], where Vulkan allows ``log`` an
absolute error of 2^-21, the atanh series is exact to f32 rounding; elsewhere (``log``
within 3 ULP) Goldberg's formula cancels the rounding of ``1 + x``. In f32 (f16 and bf16
round once at the end)::

    %r = stablehlo.log_plus_one %x : tensor<4xf32>

becomes, with ``s = x / (2 + x)``, ``z = s * s`` and ``u = 1 + x``::

    near = s * (2 + z * (2/3 + z * (2/5 + ... + z * 2/17)))
    far = select(x == inf, x, log(u) * (x / (u - 1)))
    %r = select(-0.5 <= x <= 1, near, far)

Conditions: an f16, bf16 or f32 result (f64 is ``f64-log1p``'s, complex is IREE's). Runs
only for vulkan-spirv (the ``vulkan-legalize`` preset).
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

__all__ = ["VulkanLog1p"]

# 2 / (2k + 1), k = 1..8: the atanh series log1p(x) = 2 atanh(s) = 2 (s + s^3/3 + s^5/5 + ...).
# For -0.5 <= x <= 1, |s| <= 1/3: the first omitted term is below 2^-30 of the sum.
_SERIES = [2.0 / (2 * k + 1) for k in range(1, 9)]
_NEAR = (-0.5, 1.0)


def _log1p_f32(x: Expr) -> Expr:
    s = x / (2.0 + x)
    z = s * s
    poly = _SERIES[-1] * z
    for c in reversed(_SERIES[:-1]):
        poly = (c + poly) * z
    near = s * (2.0 + poly)
    u = 1.0 + x
    far = where(x.eq(np.inf), x, u.unary("Log") * (x / (u - 1.0)))
    return where((x >= _NEAR[0]) & (x <= _NEAR[1]), near, far)


@register
class VulkanLog1p(ExpanderPass):
    """Computes f16/bf16/f32 log1p on Vulkan by the atanh series near 0 (IREE's is log(1 + x))."""

    name = "vulkan-log1p"
    legalizes_for_target = "vulkan-spirv"

    def matches(self, op) -> bool:
        return (op.operation.name == "stablehlo.log_plus_one" and xla_arrays([*op.operands, *op.results])
                and element_type_name(op.results[0]) in ("f16", "bf16", "f32"))

    def expand(self, op) -> Sequence[ir.Value]:
        """log_plus_one(x) -> series(x / (2 + x)) for -0.5 <= x <= 1, else log(u) * x / (u - 1)."""
        x = Expr(op.operands[0])
        element_type = x.shape.element_type
        if element_type_name(op.results[0]) == "f32":
            return [_log1p_f32(x).value]
        return [_log1p_f32(x.convert("f32")).convert(element_type).value]
