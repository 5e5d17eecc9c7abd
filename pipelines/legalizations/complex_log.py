"""complex-log: complex log as log|z| + i atan2(imag z, real z) with C99's atan2.

The pinned IREE's own complex log uses its atan2, so ``log(+-0 + 0j)`` gave
``-inf + NaN j``; XLA gives ``-inf + 0j`` and ``-inf + pi j``. Its ``log|z|`` overflowed
and underflowed with ``|z|`` (``log(-1.2e-38)`` was -inf, XLA -87.3)::

    %r = stablehlo.log %z : tensor<3xcomplex<f32>>

becomes::

    %m = complex-abs's log_hypot(stablehlo.real %z, stablehlo.imag %z)   // log|z|
    %p = c99-pow-atan2-cbrt's atan2 of (stablehlo.imag %z, stablehlo.real %z)
    %r = stablehlo.complex %m, %p : tensor<3xcomplex<f32>>

Complex ``log_plus_one`` keeps IREE's real part and takes its phase from the same
C99 atan2, ``atan2(imag z, real z + 1)``: IREE's ``log1p(-2 - 0j)`` was ``+pi j`` (XLA
``-pi j``: the phase of ``-1 - 0j``) and ``log1p(-1 + 0j)`` was ``NaN`` (XLA ``-inf + 0j``,
as ``log(0)``)::

    %r = stablehlo.log_plus_one %z : tensor<3xcomplex<f32>>

becomes::

    %l = stablehlo.log_plus_one %z {hlo_mlir.log1p_phase}        // IREE's real part
    %re = select(real z == -1 and imag z == 0, -inf, stablehlo.real %l)
    %r = stablehlo.complex %re, atan2(imag z, real z + 1)

Conditions: a complex result; real log and log1p are left alone.
"""

from __future__ import annotations

from typing import Sequence

import numpy as np
from iree.compiler import ir

from dialect_ops.elementwise import binary
from hlo_mlir import _emit
from hlo_mlir.ir_access import element_type_name
from pipelines.legalizations.c99_pow_atan2_cbrt import c99_atan2
from pipelines.legalizations.complex_abs import log_hypot
from pipelines.matchers import xla_arrays
from pipelines.pass_base import ExpanderPass
from pipelines.registry import register
from pipelines.values import Expr, where

__all__ = ["ComplexLog"]

# marks the log_plus_one whose real part this pass reads, so that a second run leaves it alone
_MARK = "hlo_mlir.log1p_phase"
_RULES = {"stablehlo.log": "complex-log", "stablehlo.log_plus_one": "complex-log1p"}


@register
class ComplexLog(ExpanderPass):
    """Computes complex log and log1p phases with C99's atan2 (IREE gives log(0) a NaN phase)."""

    name = "complex-log"
    legalizes_for_iree = True

    def matches(self, op) -> bool:
        return (op.operation.name in _RULES and _MARK not in op.attributes
                and xla_arrays([*op.operands, *op.results])
                and element_type_name(op.results[0]).startswith("complex<"))

    def rule(self, op) -> str:
        return _RULES[op.operation.name]

    def expand(self, op) -> Sequence[ir.Value]:
        """log(z) -> complex(log(|z|), atan2(imag z, real z)) with C99's atan2;
        log1p(z) -> complex(real of IREE's log1p(z) (-inf at z = -1), atan2(imag z, real z + 1))."""
        z = Expr(op.operands[0])
        if op.operation.name == "stablehlo.log_plus_one":
            iree = Expr(_emit.create(op.operation.name, [z.value], [op.results[0].type],
                                     {_MARK: ir.UnitAttr.get()}).result)
            re, im = z.unary("Real"), z.unary("Imag")
            shifted = re + 1.0
            real = where(shifted.eq(0) & im.eq(0), re.lift(-np.inf), iree.unary("Real"))
            return [binary("Complex", real.value, c99_atan2(im, shifted).value)]
        magnitude = log_hypot(z.unary("Real"), z.unary("Imag"))
        phase = c99_atan2(z.unary("Imag"), z.unary("Real"))
        return [binary("Complex", magnitude.value, phase.value)]
