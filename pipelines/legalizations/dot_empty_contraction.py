"""dot-empty-contraction: a ``dot_general`` whose contraction is empty is rewritten without
a contraction: over no elements it is zeros, over no dimensions a multiply.

**zeros.** The pinned IREE crashes (SIGFPE in ``AnnotateDispatches``' dispatch summary,
which divides by the contraction's extent) compiling a ``dot_general`` whose contracting
dimensions have no elements while its result has some, when the constant evaluator is
off (``--iree-opt-const-eval=false``, which modules with f64 transcendentals get, see
``libm-flags``)::

    %r = stablehlo.dot_general %x, %y, contracting_dims = [0] x [0]
        : (tensor<0xf32>, tensor<0x2xf32>) -> tensor<2xf32>

becomes ``%r = stablehlo.constant dense<0.0> : tensor<2xf32>``. Each result element is a
sum over no products, the additive identity: ``+0.0`` (XLA's answer; no ``-0.0``, NaN or
inf can arise from no terms), ``0`` for integers, ``false`` for PRED, ``(0, 0)`` for
complex. Conditions: statically shaped, a product of contracting extents equal to 0 and
a result with elements (an empty result is left alone: IREE compiles it).

**multiply.** A ``dot_general`` with no contracting dimensions computes one product per
result element. The pinned IREE fuses a ``reduce`` over one of its batch dimensions and a
free dimension into a contraction it cannot vectorize ("'vector.contract' op invalid
accumulator/result vector shape", fuzzer seed 20261130 program 48) or crashes on
(SIGSEGV), and with a result type other than the operands' it converts the operands
first where XLA rounds the product (``f32 -> bf16``). XLA's algebraic simplifier
rewrites every such dot as a multiply of broadcast operands; so does this pass::

    %r = stablehlo.dot_general %x, %y, batching_dims = [0] x [1], contracting_dims = [] x []
        : (tensor<2x3xf32>, tensor<4x2xf32>) -> tensor<2x3x4xf32>

becomes::

    %a = stablehlo.broadcast_in_dim %x, dims = [0, 1] : (tensor<2x3xf32>) -> tensor<2x3x4xf32>
    %t = stablehlo.transpose %y, dims = [1, 0] : (tensor<4x2xf32>) -> tensor<2x4xf32>
    %b = stablehlo.broadcast_in_dim %t, dims = [0, 2] : (tensor<2x4xf32>) -> tensor<2x3x4xf32>
    %r = stablehlo.multiply %a, %b : tensor<2x3x4xf32>

(each operand dimension goes to its result position: batch dimensions first, then the
lhs's free dimensions, then the rhs's; an operand whose dimensions land out of order is
transposed first, as the pinned IREE miscompiles a broadcast_in_dim that permutes). The
product is taken in XLA's computation type: the result type when XLA ranks it the higher
precision (its ``HigherPrecisionType``: complex, then floating-point range, significand,
bit width, signedness), the operands converted first (XLA CPU's ``OperandUpcaster``:
``s32 -> f32`` rounds 16777217 before the product); otherwise the operands' type, the
product converted to the result (XLA CPU's ``ResultCaster``: ``f32 -> bf16``). A complex
product is ``stablehlo.multiply``'s, as in XLA's rewrite. Conditions: static shapes,
operands of one XLA type that our shape rule accepts (PRED dots are not XLA dots) and no
``algorithm`` attribute (XLA keeps those dots too); the precision config does not change
a single product on CPU.

Run ``dce`` afterwards.
"""

from __future__ import annotations

from typing import Sequence

import ml_dtypes
import numpy as np
from iree.compiler import ir

from dialect_ops.elementwise import binary, convert
from dialect_ops.shape_ops import broadcast_in_dim, transpose
from hlo_mlir import _emit
from hlo_mlir.ir_access import dot_dimension_numbers
from hlo_mlir.types import PrimitiveType, dtype_of
from pipelines.contractions import dot_dims, free_dims, rebuildable
from pipelines.matchers import static_dims, xla_arrays
from pipelines.pass_base import ExpanderPass
from pipelines.registry import register

__all__ = ["DotEmptyContraction"]


def _empty_extent(op) -> bool:
    lhs, result = static_dims(op.operands[0]), static_dims(op.results[0])
    if lhs is None or result is None or 0 in result:
        return False
    return any(lhs[d] == 0 for d in dot_dimension_numbers(op).lhs_contracting_dimensions)


def _no_contraction(op) -> bool:
    return (not dot_dimension_numbers(op).lhs_contracting_dimensions
            and "algorithm" not in op.attributes and rebuildable(op))


def _precision_rank(t: PrimitiveType) -> tuple:
    """XLA's ``primitive_util::HigherPrecisionType`` order: complex first, then the
    floating-point range and significand, then bit width, then signed over unsigned."""
    component = t.complex_component_type if t.is_complex else t
    info = ml_dtypes.finfo(dtype_of(component)) if component.is_floating_point else None
    return (t.is_complex, info.maxexp if info else -1, info.nmant + 1 if info else -1,
            component.bit_width, component.is_signed_integer)


def _computation_type(operands: PrimitiveType, result: PrimitiveType) -> PrimitiveType:
    """The type XLA CPU multiplies in: the result's where it has the higher precision
    (``OperandUpcaster``), else the operands' (``ResultCaster`` converts the product)."""
    return result if _precision_rank(result) > _precision_rank(operands) else operands


@register
class DotEmptyContraction(ExpanderPass):
    """Rewrites a dot_general over an empty contraction: zeros (IREE: SIGFPE) or a multiply (IREE: fails)."""

    name = "dot-empty-contraction"
    legalizes_for_iree = True

    def matches(self, op) -> bool:
        if op.operation.name != "stablehlo.dot_general" or not xla_arrays(op.results):
            return False
        return _empty_extent(op) or _no_contraction(op)

    def rule(self, op) -> str:
        return "zeros" if _empty_extent(op) else "multiply"

    def expand(self, op) -> Sequence[ir.Value]:
        """dot_general(x, y) -> zeros when a contracting dimension is empty;
        dot_general(x, y) -> broadcast(x) * broadcast(y) when there is no contracting dimension."""
        shape = _emit.shape_of(op.results[0])
        if _empty_extent(op):
            return [_emit.constant(np.zeros(shape.dimensions, shape.dtype), shape)]
        dnums = dot_dims(op)
        lhs, rhs = op.operands
        lhs_free = free_dims(_emit.shape_of(lhs).rank, (), dnums.lhs_batch_dimensions)
        rhs_free = free_dims(_emit.shape_of(rhs).rank, (), dnums.rhs_batch_dimensions)
        nb, nl = len(dnums.lhs_batch_dimensions), len(lhs_free)
        # the result position of each operand dimension: batch, then lhs free, then rhs free
        lhs_at = dict(zip([*dnums.lhs_batch_dimensions, *lhs_free], range(nb + nl), strict=True))
        rhs_at = dict(zip([*dnums.rhs_batch_dimensions, *rhs_free],
                          [*range(nb), *range(nb + nl, shape.rank)], strict=True))
        compute = _computation_type(_emit.shape_of(lhs).element_type, shape.element_type)
        factors = [self._placed(value, at, shape.dimensions, compute)
                   for value, at in ((lhs, lhs_at), (rhs, rhs_at))]
        product = binary("Mul", *factors)
        return [product if compute == shape.element_type else convert(product, shape.element_type)]

    @staticmethod
    def _placed(value: ir.Value, at: dict[int, int], dims: Sequence[int], compute: PrimitiveType) -> ir.Value:
        """``value`` in type ``compute``, its dimension ``d`` at result dimension ``at[d]``."""
        operand = _emit.shape_of(value)
        if operand.element_type != compute:
            value = convert(value, compute)
        positions = [at[d] for d in range(operand.rank)]
        order = sorted(range(operand.rank), key=positions.__getitem__)
        if order != list(range(operand.rank)):
            # A transpose, then a broadcast with ascending dimensions: the pinned IREE gets a
            # broadcast_in_dim that also permutes wrong (f16 and f32, seed 9 program 144).
            value, positions = transpose(value, order), sorted(positions)
        if positions == list(range(len(dims))):
            return value
        return broadcast_in_dim(value, dims, positions)
