"""vulkan-float-rem: float remainder computed exactly, with C fmod's special cases, on Vulkan.

On vulkan-spirv (Mesa llvmpipe) the pinned IREE's float ``remainder`` computes
``x - y * trunc(x / y)`` in the operands' type: where |x / y| is large the rounding of
``y * trunc(x / y)`` (up to an ulp of x) swamps the remainder (``fmod(-9121.092,
0.051045936)`` gives -0 for -0.0508859; f16 ``fmod(-0.97, 0.2026)`` is 3 ULP off),
``fmod(5, inf)`` gives NaN (C and XLA: 5) and ``fmod(-0.0, 3)`` +0 (the result takes the
dividend's sign). fmod is exact in every float type, so it is computed on the integer
mantissas: with ``|x| = mx 2^ex`` and ``|y| = my 2^ey`` (24-bit mantissas, f16 and bf16
widened to f32 exactly), ``fmod(|x|, |y|) = ((mx mod my) (2^(ex - ey) mod my) mod my) 2^ey``
for ``ex >= ey`` (else |x|), the power by binary exponentiation in 64-bit integers::

    %r = stablehlo.remainder %x, %y : tensor<4xf32>

becomes::

    %q = exact_fmod(|x|, |y|)                  // 8 squaring steps in i64, then scaled by 2^ey
    %d = select(is_finite(x) & y != 0 & y == y, %q, NaN)
    %f = select(is_finite(x) & abs(y) == inf, x, %d)
    %r = copysign(%f, x)                       // bit operations on the integer view

Conditions: a float (f16, bf16, f32, f64) result; integer and complex remainders are left
alone; f64 (53-bit mantissas: products beyond 64 bits) gets only the special cases, and
IREE's ``remainder``. Needs 64-bit integers on the device (llvmpipe has them). Runs only
for vulkan-spirv (the ``vulkan-legalize`` preset).
"""

from __future__ import annotations

from typing import Sequence

import numpy as np
from iree.compiler import ir

from pipelines.legalizations.float_bits import copysign
from pipelines.matchers import element_dtype, xla_arrays
from pipelines.pass_base import ExpanderPass
from pipelines.registry import register
from pipelines.values import Expr, where

__all__ = ["VulkanFloatRem", "is_real_float"]


def is_real_float(value: ir.Value) -> bool:
    """Whether ``value`` holds f16, bf16, f32 or f64 elements."""
    dtype = element_dtype(value)
    return dtype is not None and (dtype.kind == "f" or str(dtype) == "bfloat16")


def _fields(bits: Expr) -> tuple[Expr, Expr]:
    """(mantissa m, exponent field e) of non-negative f32 bits in i64, with |v| = m * 2^(e - 150)
    (a subnormal has e = 1 and no implicit bit)."""
    e = bits >> 23
    m = bits & 0x7FFFFF
    return where(e.eq(0), m, m | 0x800000), where(e.eq(0), e.lift(1), e)


def _power_of_two(k: Expr) -> Expr:
    """2^k as f32 for k in [-75, 52] (a normal number), from its exponent field."""
    return ((k + 127) << 23).convert("s32").convert_bits("f32")


def exact_f32_fmod(x: Expr, y: Expr) -> Expr:
    """fmod(|x|, |y|) of finite f32 x and finite non-zero y, exactly, in 64-bit integers.

    With |x| = mx 2^(ex - 150) and |y| = my 2^(ey - 150): |x| < |y| where ex < ey (then
    the answer is |x|), else fmod = ((mx mod my) (2^(ex - ey) mod my) mod my) 2^(ey - 150),
    2^d mod my by binary exponentiation (d <= 253: 8 steps; products below 2^48)."""
    ax = x.unary("Abs")
    mx, ex = _fields(ax.convert_bits("s32").convert("s64"))
    my, ey = _fields(y.unary("Abs").convert_bits("s32").convert("s64"))
    d = ex - ey
    power = d.lift(1)
    for bit in range(7, -1, -1):
        power = (power * power) % my
        power = where(((d >> bit) & 1).eq(1), (power * 2) % my, power)
    r = ((mx % my) * power) % my
    k = ey - 150
    half = k >> 1
    scaled = r.convert("f32") * _power_of_two(half) * _power_of_two(k - half)
    return where(d.lt(0), ax, scaled)


@register
class VulkanFloatRem(ExpanderPass):
    """Computes f16/bf16/f32 remainder exactly on Vulkan (integer mantissas), with fmod's inf and -0."""

    name = "vulkan-float-rem"
    legalizes_for_target = "vulkan-spirv"

    def matches(self, op) -> bool:
        return (op.operation.name == "stablehlo.remainder" and xla_arrays([*op.operands, *op.results])
                and is_real_float(op.results[0]))

    def expand(self, op) -> Sequence[ir.Value]:
        """remainder(x, y) -> copysign(select(finite(x) & |y| == inf, x, exact_fmod(|x|, |y|)), x);
        NaN for a non-finite x, a zero or NaN y; f64 keeps IREE's remainder inside."""
        x, y = Expr(op.operands[0]), Expr(op.operands[1])
        element_type = x.shape.element_type
        if element_type.bit_width == 64:
            q = x % y
        else:
            wide_x, wide_y = (x, y) if element_type.bit_width == 32 else (x.convert("f32"), y.convert("f32"))
            exact = exact_f32_fmod(wide_x, wide_y)
            defined = wide_x.unary("IsFinite") & wide_y.compare("NE", 0.0) & wide_y.eq(wide_y)
            q = where(defined, exact, np.nan)
            q = q if element_type.bit_width == 32 else q.convert(element_type)
        keep_x = x.unary("IsFinite") & y.unary("Abs").eq(np.inf)
        return [copysign(where(keep_x, x, q), x).value]
