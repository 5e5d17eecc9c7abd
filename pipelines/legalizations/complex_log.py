"""complex-log: complex log as log|z| + i atan2(imag z, real z) with C99's atan2.

The pinned IREE's own complex log uses its atan2, so ``log(+-0 + 0j)`` gave
``-inf + NaN j``; XLA gives ``-inf + 0j`` and ``-inf + pi j``. Its ``log|z|`` overflowed
and underflowed with ``|z|`` (``log(-1.2e-38)`` was -inf, XLA -87.3)::

    %r = stablehlo.log %z : tensor<3xcomplex<f32>>

becomes::

    %m = complex-abs's log_hypot(stablehlo.real %z, stablehlo.imag %z)   // log|z|
    %p = c99-pow-atan2-cbrt's atan2 of (stablehlo.imag %z, stablehlo.real %z)
    %r = stablehlo.complex %m, %p : tensor<3xcomplex<f32>>

Conditions: a complex result; real log is left alone.
"""

from __future__ import annotations

from typing import Sequence

from iree.compiler import ir

from dialect_ops.elementwise import binary
from hlo_mlir.ir_access import element_type_name
from pipelines.legalizations.c99_pow_atan2_cbrt import c99_atan2
from pipelines.legalizations.complex_abs import log_hypot
from pipelines.matchers import xla_arrays
from pipelines.pass_base import ExpanderPass
from pipelines.registry import register
from pipelines.values import Expr

__all__ = ["ComplexLog"]


@register
class ComplexLog(ExpanderPass):
    """Computes complex log from log|z| and C99's atan2 (IREE gives log(0) a NaN phase)."""

    name = "complex-log"
    legalizes_for_iree = True

    def matches(self, op) -> bool:
        return (op.operation.name == "stablehlo.log" and xla_arrays([*op.operands, *op.results])
                and element_type_name(op.results[0]).startswith("complex<"))

    def expand(self, op) -> Sequence[ir.Value]:
        """log(z) -> complex(log(|z|), atan2(imag z, real z)) with C99's atan2."""
        z = Expr(op.operands[0])
        magnitude = log_hypot(z.unary("Real"), z.unary("Imag"))
        phase = c99_atan2(z.unary("Imag"), z.unary("Real"))
        return [binary("Complex", magnitude.value, phase.value)]
