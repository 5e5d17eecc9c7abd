"""Convolution canonicalization (spec 004, CPU: Convolution canonicalization; XLA
``ConvCanonicalization``).

XLA's CPU backend hands Eigen convolutions in one dimension order: input and output
``[batch, spatial..., feature]`` (NHWC), kernel ``[spatial..., input feature, output
feature]`` (HWIO). Any other order gets transposes around a convolution with those
dimension numbers::

    %r = stablehlo.convolution(%x, %w) dim_numbers = [b, f, 0]x[o, i, 0]->[b, f, 0], ...
           : (tensor<1x2x5xf32>, tensor<3x2x2xf32>) -> tensor<1x3x4xf32>

becomes ::

    %x2 = stablehlo.transpose %x, dims = [0, 2, 1] : (tensor<1x2x5xf32>) -> tensor<1x5x2xf32>
    %w2 = stablehlo.transpose %w, dims = [2, 1, 0] : (tensor<3x2x2xf32>) -> tensor<2x2x3xf32>
    %c = stablehlo.convolution(%x2, %w2) dim_numbers = [b, 0, f]x[0, i, o]->[b, 0, f], ...
           : (tensor<1x5x2xf32>, tensor<2x2x3xf32>) -> tensor<1x4x3xf32>
    %r = stablehlo.transpose %c, dims = [0, 2, 1] : (tensor<1x4x3xf32>) -> tensor<1x3x4xf32>

Each output element sums the same products; the pinned IREE gives bit-identical
results before and after on llvm-cpu and Vulkan (NCHW/OIHW, NHWC, grouped and 1-D
layouts measured; tests/unit/test_gpu_rewrites.py checks float sums bit for bit). The window, group
counts, precision and result element type are kept; an operand already in canonical
order gets no transpose. Conditions: static shapes of XLA element types and a result
type our shape rule gives. transpose-folding undoes this pass: run it before, or not
at all, when this one runs.
"""

from __future__ import annotations

from typing import Sequence

from iree.compiler import ir

from dialect_ops.convolution import ConvolutionDimensionNumbers
from dialect_ops.shape_ops import transpose
from pipelines.contractions import conv_dims, rebuildable, rebuilt_convolution
from pipelines.pass_base import ExpanderPass
from pipelines.registry import register

__all__ = ["ConvolutionCanonicalization", "canonical_dims"]


def canonical_dims(n: int) -> ConvolutionDimensionNumbers:
    """Input/output ``[b, 0..n-1, f]``, kernel ``[0..n-1, i, o]`` for ``n`` spatial dimensions."""
    spatial = tuple(range(1, n + 1))
    return ConvolutionDimensionNumbers(0, n + 1, spatial, n, n + 1, tuple(range(n)), 0, n + 1, spatial)


def _identity(perm: Sequence[int]) -> bool:
    return list(perm) == list(range(len(perm)))


def _transposed(value: ir.Value, perm: Sequence[int]) -> ir.Value:
    return value if _identity(perm) else transpose(value, perm)


@register
class ConvolutionCanonicalization(ExpanderPass):
    """Transpose convolution operands and result to input/output [b, spatial, f], kernel [spatial, i, o]."""

    name = "convolution-canonicalization"
    acts_on = frozenset({"stablehlo.convolution"})

    def matches(self, op) -> bool:
        if op.operation.name != "stablehlo.convolution" or not rebuildable(op):
            return False
        dnums = conv_dims(op)
        return dnums != canonical_dims(len(dnums.input_spatial_dimensions))

    def rule(self, op) -> str:
        return "canonical-dimensions"

    def expand(self, op) -> Sequence[ir.Value]:
        d = conv_dims(op)
        n = len(d.input_spatial_dimensions)
        lhs = _transposed(op.operands[0], [d.input_batch_dimension, *d.input_spatial_dimensions,
                                           d.input_feature_dimension])
        rhs = _transposed(op.operands[1], [*d.kernel_spatial_dimensions, d.kernel_input_feature_dimension,
                                           d.kernel_output_feature_dimension])
        result = rebuilt_convolution(op, lhs, rhs, canonical_dims(n))
        # Output dimension d_out of the original is dimension back[d_out] of the canonical one.
        back = [0] * (n + 2)
        back[d.output_batch_dimension] = 0
        for j, s in enumerate(d.output_spatial_dimensions):
            back[s] = j + 1
        back[d.output_feature_dimension] = n + 1
        return [_transposed(result, back)]
