"""complex-sin-cos: complex<f32> sin and cos in real arithmetic, as XLA CPU computes them.

The pinned IREE expands ``sin(a + bi)`` and ``cos(a + bi)`` into its own f32 sin and cos of
``a`` after hlo-mlir's passes have run, so trig-range-reduction never sees them and a huge
real part inherits IREE's single-precision reduction: ``cos(-3.4e38 - 0.15j)`` was
``-inf + inf j`` (XLA 0.98 + 0.037j), ``sin(1e10 + 0.5j)`` -6.8e21 - 7e19j (XLA
-0.55 + 0.45j). XLA CPU (the elemental emitter's kSin and kCos)::

    h = 0.5 * exp(b),  g = 0.5 / exp(b)
    sin(a + bi) = sin(a) * (h + g) + i cos(a) * (h - g)
    cos(a + bi) = cos(a) * (g + h) + i sin(a) * (g - h)

This pass emits exactly that with the real ``stablehlo.sine``/``cosine`` of ``a``, which
trig-range-reduction (after this pass in iree-legalize) then reduces exactly, Payne-Hanek
past ``|a| = 8192``::

    %r = stablehlo.sine %z : tensor<4xcomplex<f32>>

becomes ``stablehlo.complex %re, %im`` of real element-wise ops. Conditions: a
``complex<f32>`` result (complex<f64> sin/cos are the C library's, accurate).
"""

from __future__ import annotations

from typing import Sequence

from iree.compiler import ir

from dialect_ops.elementwise import binary
from hlo_mlir.ir_access import element_type_name
from pipelines.matchers import xla_arrays
from pipelines.pass_base import ExpanderPass
from pipelines.registry import register
from pipelines.values import Expr

__all__ = ["ComplexSinCos"]

_OPS = ("stablehlo.sine", "stablehlo.cosine")


@register
class ComplexSinCos(ExpanderPass):
    """Computes complex<f32> sin and cos from real sin, cos and exp, as XLA does (exact reduction)."""

    name = "complex-sin-cos"
    legalizes_for_iree = True

    def matches(self, op) -> bool:
        return (op.operation.name in _OPS and xla_arrays([*op.operands, *op.results])
                and element_type_name(op.results[0]) == "complex<f32>")

    def expand(self, op) -> Sequence[ir.Value]:
        """sin(a + bi) -> complex(sin a (h + g), cos a (h - g)), cos(a + bi) -> complex(cos a
        (g + h), sin a (g - h)), with h = exp(b) / 2 and g = 0.5 / exp(b)."""
        z = Expr(op.operands[0])
        a, b = z.unary("Real"), z.unary("Imag")
        exp_b = b.unary("Exp")
        h, g = exp_b * 0.5, 0.5 / exp_b
        sin_a, cos_a = a.unary("Sin"), a.unary("Cos")
        if op.operation.name == "stablehlo.sine":
            re, im = sin_a * (h + g), cos_a * (h - g)
        else:
            re, im = cos_a * (g + h), sin_a * (g - h)
        return [binary("Complex", re.value, im.value)]
