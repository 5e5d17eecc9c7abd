"""Convolution group converter (spec 004: Convolution group converter; XLA
``convolution_group_converter.cc``).

Rewrites a grouped ``convolution`` (``feature_group_count`` or ``batch_group_count``
G > 1) into G convolutions of one group each, concatenated along the output feature
dimension: StableHLO's own definition of the grouped convolution::

    %r = stablehlo.convolution(%x, %w) dim_numbers = [b, f, 0]x[o, i, 0]->[b, f, 0],
           {feature_group_count = 2} : (tensor<1x4x5xf32>, tensor<6x2x3xf32>) -> tensor<1x6x3xf32>

becomes ::

    %x0 = stablehlo.slice %x [0:1, 0:2, 0:5]    %w0 = stablehlo.slice %w [0:3, 0:2, 0:3]
    %x1 = stablehlo.slice %x [0:1, 2:4, 0:5]    %w1 = stablehlo.slice %w [3:6, 0:2, 0:3]
    %r0 = stablehlo.convolution(%x0, %w0) ... {feature_group_count = 1} -> tensor<1x3x3xf32>
    %r1 = stablehlo.convolution(%x1, %w1) ... {feature_group_count = 1} -> tensor<1x3x3xf32>
    %r = stablehlo.concatenate %r0, %r1, dim = 1

Feature groups split the input along its feature dimension, batch groups along its batch
dimension; both split the kernel along its output feature dimension. Exact: every output
element sums the same products as before. XLA can instead build a block-diagonal kernel
with zeros off the diagonal blocks, which is not exact (``inf * 0`` is NaN, ``-0 + 0`` is
``+0``), so this pass does not.

Conditions: G > 1 and at most ``max-groups`` (a depthwise convolution of hundreds of
groups would become hundreds of convolutions); static shapes of XLA element types. Run
``algsimp`` and ``cse`` after it.
"""

from __future__ import annotations

import dataclasses
from typing import Sequence

from iree.compiler import ir

from dialect_ops.slicing import concatenate, slice_
from hlo_mlir.ir_access import int_attr
from pipelines.contractions import conv_dims, rebuildable, rebuilt_convolution
from pipelines.matchers import known_dims
from pipelines.pass_base import ExpanderPass
from pipelines.registry import register

__all__ = ["ConvolutionGroupConverter"]


def _part(value: ir.Value, dim: int, index: int, groups: int) -> ir.Value:
    """Part ``index`` of ``groups`` equal parts of ``value`` along ``dim``."""
    dims = known_dims(value)
    size = dims[dim] // groups
    start = [0] * len(dims)
    limit = list(dims)
    start[dim], limit[dim] = index * size, (index + 1) * size
    return slice_(value, start, limit)


@register
@dataclasses.dataclass
class ConvolutionGroupConverter(ExpanderPass):
    """Rewrite grouped convolutions into one convolution per group and a concatenate."""

    name = "convolution-group-converter"
    max_groups: int = dataclasses.field(
        default=64, metadata={"help": "most groups a convolution may have to be split"})

    def matches(self, op) -> bool:
        if op.operation.name != "stablehlo.convolution" or not rebuildable(op):
            return False
        return 1 < max(self._counts(op)) <= self.max_groups

    @staticmethod
    def _counts(op) -> tuple[int, int]:
        return int_attr(op, "feature_group_count"), int_attr(op, "batch_group_count")

    def rule(self, op) -> str:
        return "feature-groups" if self._counts(op)[0] > 1 else "batch-groups"

    def expand(self, op) -> Sequence[ir.Value]:
        """conv(x, w, G groups) -> concatenate([conv(x_g, w_g, 1 group) for g < G], output
        feature dimension): x_g the g-th part of x's feature (or batch) dimension, w_g of
        w's output feature dimension."""
        fgc, bgc = self._counts(op)
        dnums = conv_dims(op)
        groups = max(fgc, bgc)
        split = dnums.input_feature_dimension if fgc > 1 else dnums.input_batch_dimension
        lhs, rhs = op.operands
        parts = [rebuilt_convolution(op, _part(lhs, split, g, groups),
                                     _part(rhs, dnums.kernel_output_feature_dimension, g, groups),
                                     feature_group_count=1, batch_group_count=1)
                 for g in range(groups)]
        return [concatenate(parts, dnums.output_feature_dimension)]
