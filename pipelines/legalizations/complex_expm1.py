"""complex-expm1: complex<f32> expm1 in real arithmetic, with exact range reduction.

The pinned IREE expands ``expm1(a + bi)`` itself (after hlo-mlir's passes, so
trig-range-reduction never sees its sin and cos of ``b``) and its f32 sin/cos reduce ``b``
with a single-precision pi: ``expm1(15.05 + 415.76j)`` was 2e-5 off relative (XLA
1649551 + 3023580j), ``expm1(-0.097 + 3.4e38j)`` ``NaN - inf j`` (XLA -0.23 - 0.47j;
fuzzer programs 207, 249, 597). This pass emits it from real ops whose sin and cos
trig-range-reduction (after it in iree-legalize) reduces exactly, with the real part in a
form that keeps small arguments accurate (``e^a cos b - 1 = expm1(a) cos b + (cos b - 1)``,
``cos b - 1 = -2 sin(b/2)^2``) and XLA's ``+0`` imaginary part where ``b = 0`` (``exp(inf) *
sin(0)`` would be NaN)::

    %r = stablehlo.exponential_minus_one %z : tensor<4xcomplex<f32>>

becomes::

    %re = expm1(%a) * cos(%b) - 2 * sin(%b / 2)^2
    %im = select(%b == 0, %b, exp(%a) * sin(%b))
    %r = stablehlo.complex %re, %im

XLA's answers for every pair of 15 special and large parts (inf, NaN, +-F32_MAX, +-0, 1e30,
3e9, ...) on llvm-cpu and Vulkan. Conditions: a ``complex<f32>`` result (complex<f64> sin/cos
are the C library's, accurate).
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

__all__ = ["ComplexExpm1"]


@register
class ComplexExpm1(ExpanderPass):
    """Computes complex<f32> expm1 in real ops whose sin/cos are reduced exactly (IREE's: |b| * 3e-8 off)."""

    name = "complex-expm1"
    legalizes_for_iree = True

    def matches(self, op) -> bool:
        return (op.operation.name == "stablehlo.exponential_minus_one"
                and xla_arrays([*op.operands, *op.results])
                and element_type_name(op.results[0]) == "complex<f32>")

    def expand(self, op) -> Sequence[ir.Value]:
        """expm1(a + bi) -> complex(expm1(a) cos b - 2 sin(b/2)^2, b = 0 ? b : exp(a) sin b)."""
        z = Expr(op.operands[0])
        a, b = z.unary("Real"), z.unary("Imag")
        half = (b * 0.5).unary("Sin")
        re = a.unary("Expm1") * b.unary("Cos") - 2.0 * half * half
        im = where(b.eq(0.0), b, a.unary("Exp") * b.unary("Sin"))
        return [binary("Complex", re.value, im.value)]
