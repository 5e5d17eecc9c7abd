"""GPU conv padding legalization (spec 004: GPU conv padding legalization; XLA
``GpuConvPaddingLegalization``, forward convolutions).

cuDNN convolutions take only symmetric, non-negative padding and no input (lhs)
dilation. A convolution with anything else gets it made explicit on its input, as
XLA's MaybePaddedAndSlicedInput does: asymmetric padding or lhs dilation moves into a
``pad`` of zeros (positive edges, interior ``lhs_dilation - 1``), and negative padding
into a ``slice``; the convolution keeps the rest::

    %r = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, f]x[0, i, o]->[b, 0, f],
           window = {pad = [[2, -1]], lhs_dilate = [2]} ...

becomes ::

    %z = stablehlo.constant dense<0.0> : tensor<f32>
    %p = stablehlo.pad %x, %z, low = [0, 2, 0], high = [0, 0, 0], interior = [0, 1, 0]
    %s = stablehlo.slice %p [0:1, 0:N-1, 0:2]
    %r = stablehlo.convolution(%s, %w) dim_numbers = ..., window = {pad = [[0, 0]], lhs_dilate = [1]} ...

The spec defines a convolution on exactly that padded input (``pad(lhs, 0, low, high,
lhs_dilation - 1)``, negative edges cropping), so the rewrite is exact for every type.
XLA also writes a kernel (rhs) dilation into the kernel as interior zeros; that is not
exact (``0 * inf`` is NaN where the dilated convolution never reads the element, and
``+0.0`` terms turn a ``-0.0`` sum into ``+0.0``), so kernel dilation stays in the
convolution. Conditions: static shapes of XLA element types and a result type our
shape rule gives.
"""

from __future__ import annotations

from typing import Sequence

import numpy as np
from iree.compiler import ir

from dialect_ops.constant import constant
from dialect_ops.slicing import pad, slice_
from pipelines.contractions import conv_dims, conv_window, rebuildable, rebuilt_convolution
from pipelines.matchers import element_dtype, known_dims
from pipelines.pass_base import ExpanderPass
from pipelines.registry import register

__all__ = ["GpuConvPaddingLegalization", "canonical_padding"]


def canonical_padding(padding: Sequence[tuple[int, int]], lhs_dilation: Sequence[int]) -> bool:
    """XLA's IsForwardConvolutionCanonical without window dilation: symmetric,
    non-negative padding and no lhs dilation."""
    return all(lo == hi >= 0 for lo, hi in padding) and all(d == 1 for d in lhs_dilation)


@register
class GpuConvPaddingLegalization(ExpanderPass):
    """Move asymmetric or negative convolution padding and lhs dilation into an explicit pad and slice."""

    name = "gpu-conv-padding-legalization"
    acts_on = frozenset({"stablehlo.convolution"})

    def matches(self, op) -> bool:
        if op.operation.name != "stablehlo.convolution" or not rebuildable(op):
            return False
        _, padding, lhs_dilation, _ = conv_window(op)
        return not canonical_padding(padding, lhs_dilation)

    def rule(self, op) -> str:
        return "explicit-input-padding"

    def expand(self, op) -> Sequence[ir.Value]:
        strides, padding, lhs_dilation, rhs_dilation = conv_window(op)
        spatial = conv_dims(op).input_spatial_dimensions
        x = op.operands[0]
        padding = list(padding)
        if any(lo != hi for lo, hi in padding) or any(d != 1 for d in lhs_dilation):
            config = [(0, 0, 0)] * len(known_dims(x))
            for i, dim in enumerate(spatial):
                lo, hi = padding[i]
                config[dim] = (max(lo, 0), max(hi, 0), lhs_dilation[i] - 1)
                padding[i] = (min(lo, 0), min(hi, 0))
            x = pad(x, constant(np.zeros((), element_dtype(x))), config)
            lhs_dilation = [1] * len(spatial)
        if any(lo < 0 or hi < 0 for lo, hi in padding):
            start, limit = [0] * len(known_dims(x)), known_dims(x)
            for i, dim in enumerate(spatial):
                lo, hi = padding[i]
                start[dim] += max(-lo, 0)
                limit[dim] -= max(-hi, 0)
                padding[i] = (max(lo, 0), max(hi, 0))
            x = slice_(x, start, limit)
        return [rebuilt_convolution(op, x, op.operands[1],
                                    window=(strides, padding, lhs_dilation, rhs_dilation))]
