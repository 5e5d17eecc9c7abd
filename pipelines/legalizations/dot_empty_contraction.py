"""dot-empty-contraction: a ``dot_general`` that contracts an empty dimension is zeros.

The pinned IREE crashes (SIGFPE in ``AnnotateDispatches``' dispatch summary, which
divides by the contraction's extent) compiling a ``dot_general`` whose contracting
dimensions have no elements while its result has some, when the constant evaluator is
off (``--iree-opt-const-eval=false``, which modules with f64 transcendentals get, see
``libm-flags``)::

    %r = stablehlo.dot_general %x, %y, contracting_dims = [0] x [0]
        : (tensor<0xf32>, tensor<0x2xf32>) -> tensor<2xf32>

becomes ``%r = stablehlo.constant dense<0.0> : tensor<2xf32>``. Each result element is a
sum over no products, the additive identity: ``+0.0`` (XLA's answer; no ``-0.0``, NaN or
inf can arise from no terms), ``0`` for integers, ``false`` for PRED, ``(0, 0)`` for
complex. Conditions: statically shaped, a product of contracting extents equal to 0 and
a result with elements (an empty result is left alone: IREE compiles it). Run ``dce``
afterwards.
"""

from __future__ import annotations

from typing import Sequence

import numpy as np
from iree.compiler import ir

from hlo_mlir import _emit
from hlo_mlir.ir_access import dot_dimension_numbers
from pipelines.matchers import static_dims, xla_arrays
from pipelines.pass_base import ExpanderPass
from pipelines.registry import register

__all__ = ["DotEmptyContraction"]


@register
class DotEmptyContraction(ExpanderPass):
    """Replaces a dot_general over an empty contraction with zeros (IREE crashes: SIGFPE)."""

    name = "dot-empty-contraction"
    legalizes_for_iree = True

    def matches(self, op) -> bool:
        if op.operation.name != "stablehlo.dot_general" or not xla_arrays(op.results):
            return False
        lhs, result = static_dims(op.operands[0]), static_dims(op.results[0])
        if lhs is None or result is None or 0 in result:
            return False
        contracting = dot_dimension_numbers(op).lhs_contracting_dimensions
        return any(lhs[d] == 0 for d in contracting)

    def expand(self, op) -> Sequence[ir.Value]:
        """dot_general(x, y) -> zeros when a contracting dimension is empty."""
        shape = _emit.shape_of(op.results[0])
        return [_emit.constant(np.zeros(shape.dimensions, shape.dtype), shape)]
