"""vulkan-inf-nan-arithmetic: ``x - x``, ``x * 0``, ``0 / x``, ``0 - x`` with IEEE's NaN, inf, -0.

On vulkan-spirv the pinned IREE declares no float controls (SPIR-V's
``SignedZeroInfNanPreserve``), so Mesa's shader compiler folds, as if no value were NaN,
inf or -0: ``x - x`` and ``x + (-x)`` to 0, ``x * 0.0`` and ``0.0 / x`` to 0 (XLA: NaN for
a NaN or inf ``x``, resp. a NaN or zero ``x``; the sign of ``-3 * 0.0`` lost), and
``0.0 - x`` to ``-x`` (-0 for x = +0; XLA: +0). These forms are rewritten into selects on
integer and comparison tests, which it keeps::

    %r = stablehlo.subtract %x, %x : tensor<4xf32>          // also add(x, negate(x))
    %r = select(is_finite(x), 0.0, NaN)

    %r = stablehlo.multiply %x, %zero : tensor<4xf32>       // %zero: a splat +-0.0
    %r = select(is_finite(x), bitcast((bits(x) & SIGN) ^ (bits(%zero) & SIGN)), NaN)

    %r = stablehlo.divide %zero, %x : tensor<4xf32>
    %r = select(x != x | x == 0, NaN, bitcast((bits(%zero) & SIGN) ^ (bits(x) & SIGN)))

    %r = stablehlo.subtract %pzero, %x : tensor<4xf32>      // %pzero: a splat +0.0
    %r = select(x == 0, 0.0, negate(x))

Conditions: a float (f16, bf16, f32, f64) result; the same SSA value on both sides of the
subtract (or an add of a value and its negation); a splat zero constant (or its
broadcast) as a multiply operand, a dividend, or a +0 minuend. Other operands reach Mesa
as loaded values it cannot fold. Runs only for vulkan-spirv (the ``vulkan-legalize``
preset).
"""

from __future__ import annotations

from typing import Sequence

import numpy as np
from iree.compiler import ir

from pipelines.legalizations.float_bits import from_bits, sign_bits
from pipelines.legalizations.vulkan_float_rem import is_real_float
from pipelines.matchers import producer, splat_of, xla_arrays
from pipelines.pass_base import ExpanderPass
from pipelines.registry import register
from pipelines.values import Expr, where

__all__ = ["VulkanInfNanArithmetic"]


def _negation_of(a: ir.Value, b: ir.Value) -> bool:
    negate = producer(b, "stablehlo.negate")
    return negate is not None and negate.operands[0] == a


def _is_zero(value: ir.Value, positive_only: bool = False) -> bool:
    splat = splat_of(value)
    return splat is not None and float(splat) == 0.0 and not (positive_only and np.signbit(splat))


def _rule(op) -> str | None:
    """The form ``op`` has (the statistic its rewrite counts under), or None."""
    name = op.operation.name
    a, b = op.operands
    if name == "stablehlo.multiply" and (_is_zero(a) or _is_zero(b)):
        return "multiply-by-zero"
    if name == "stablehlo.divide" and _is_zero(a):
        return "zero-dividend"
    if name == "stablehlo.subtract" and a == b or name == "stablehlo.add" and (_negation_of(a, b)
                                                                               or _negation_of(b, a)):
        return "self-cancelling"
    if name == "stablehlo.subtract" and _is_zero(a, positive_only=True):
        return "positive-zero-minuend"
    return None


def _signed_zero(x: Expr, y: Expr) -> Expr:
    """0 with the sign bit sign(x) ^ sign(y)."""
    return from_bits(sign_bits(x) ^ sign_bits(y), x)


@register
class VulkanInfNanArithmetic(ExpanderPass):
    """Keeps NaN, inf and -0 in x - x, x * 0, 0 / x and 0 - x on Vulkan, which Mesa folds."""

    name = "vulkan-inf-nan-arithmetic"
    legalizes_for_target = "vulkan-spirv"

    def matches(self, op) -> bool:
        if op.operation.name not in ("stablehlo.subtract", "stablehlo.add", "stablehlo.multiply",
                                     "stablehlo.divide"):
            return False
        return (xla_arrays([*op.operands, *op.results]) and is_real_float(op.results[0])
                and _rule(op) is not None)

    def rule(self, op) -> str:
        return _rule(op) or self.name

    def expand(self, op) -> Sequence[ir.Value]:
        """x - x, x + (-x) -> select(is_finite(x), 0, NaN); x * z -> select(is_finite(x),
        signed zero, NaN); z / x -> select(isnan(x) | x == 0, NaN, signed zero);
        +0 - x -> select(x == 0, +0, -x)."""
        a, b = op.operands
        rule = _rule(op)
        if rule == "self-cancelling":
            x = Expr(a)  # -x is finite where x is
            return [where(x.unary("IsFinite"), x.lift(0.0), np.nan).value]
        if rule == "multiply-by-zero":
            x, zero = (Expr(b), Expr(a)) if _is_zero(a) else (Expr(a), Expr(b))
            return [where(x.unary("IsFinite"), _signed_zero(x, zero), np.nan).value]
        zero, x = Expr(a), Expr(b)
        if rule == "zero-dividend":
            undefined = x.compare("NE", x) | x.eq(0.0)
            return [where(undefined, np.nan, _signed_zero(zero, x)).value]
        return [where(x.eq(0.0), zero, -x).value]
