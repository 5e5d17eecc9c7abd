"""complex-sqrt-sign: complex sqrt and rsqrt with the sign of the imaginary part C99 gives.

The pinned IREE's complex ``sqrt`` loses the sign of a tiny imaginary part on the
negative real axis: ``sqrt(-4 - 1.2e-38j)`` gave ``2j`` and ``sqrt(-3.4e38 - 3j)``
``1.8e19j`` (XLA and C99: ``-2j``, ``-1.8e19j``), and ``rsqrt`` the opposite sign
(``rsqrt(-4 - 1.2e-38j)``: ``-0.5j``, XLA ``0.5j``; fuzzer seed 20261124 program 547). The
magnitudes are right. ``sqrt`` is odd in the imaginary part (``csqrt(conj z) =
conj(csqrt z)``), so its imaginary part takes the sign of a nonzero ``imag z``, and
``rsqrt``'s the other::

    %r = stablehlo.sqrt %z : tensor<3xcomplex<f32>>

becomes::

    %s = stablehlo.sqrt %z {hlo_mlir.imaginary_sign}
    %i = |imag %s| if imag %z > 0, -|imag %s| if imag %z < 0, else imag %s
    // rsqrt: -|imag %s| for a clear sign bit of imag %z (+0 included), |imag %s| for a set one
    %r = stablehlo.complex (real %s), %i

XLA is not consistent about zeros: its ``sqrt(-4 - 0j)`` is ``2j`` (C99: ``-2j``) but its
``rsqrt(-4 - 0j)`` is ``0.5j``; both are kept. A NaN ``imag z`` is left as IREE gives it.
Conditions: a complex ``sqrt`` or ``rsqrt``.
"""

from __future__ import annotations

from typing import Sequence

from iree.compiler import ir

from dialect_ops.elementwise import binary
from hlo_mlir import _emit
from hlo_mlir.ir_access import element_type_name
from pipelines.matchers import xla_arrays
from pipelines.pass_base import ExpanderPass
from pipelines.registry import register
from pipelines.values import Expr, where

__all__ = ["ComplexSqrtSign"]

# op -> whether its imaginary part has the sign of imag z (sqrt) or the opposite (rsqrt)
_SAME_SIGN = {"stablehlo.sqrt": True, "stablehlo.rsqrt": False}
# marks the root this pass reads, so that a second run leaves it alone
_MARK = "hlo_mlir.imaginary_sign"


@register
class ComplexSqrtSign(ExpanderPass):
    """Gives complex sqrt and rsqrt the imaginary sign of C99 (IREE loses a tiny part's sign)."""

    name = "complex-sqrt-sign"
    legalizes_for_iree = True

    def matches(self, op) -> bool:
        return (op.operation.name in _SAME_SIGN and _MARK not in op.attributes
                and xla_arrays([*op.operands, *op.results])
                and element_type_name(op.results[0]).startswith("complex<"))

    def expand(self, op) -> Sequence[ir.Value]:
        """sqrt(z) -> complex(real s, +-|imag s|) with s = IREE's sqrt(z), signed as imag z."""
        z = Expr(op.operands[0])
        root = Expr(_emit.create(op.operation.name, [z.value], [op.results[0].type],
                                 {_MARK: ir.UnitAttr.get()}).result)
        im_z, im_root = z.unary("Imag"), root.unary("Imag")
        up = im_root.unary("Abs")
        if _SAME_SIGN[op.operation.name]:
            # a zero imag z keeps IREE's answer, XLA's: sqrt(-4 - 0j) = 2j (C99: -2j)
            imaginary = where(im_z.lt(0), -up, where(im_z.gt(0), up, im_root))
        else:
            # XLA's rsqrt reads the sign bit: rsqrt(-4 - 0j) = 0.5j, rsqrt(-4 + 0j) = -0.5j
            imaginary = where(im_z.compare("NE", im_z), im_root, where(im_z.signbit(), up, -up))
        return [binary("Complex", root.unary("Real").value, imaginary.value)]
