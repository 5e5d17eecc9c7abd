"""Convolution 4D expander (spec 004: Convolution 4D expander; XLA ``Convolution4DExpander``).

A convolution with four spatial dimensions, one or more of them trivial (input size 1
and no padding), drops those dimensions: reshapes take them out of the input, the
kernel and the result, and a convolution of fewer spatial dimensions remains::

    %r = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, 1, 2, 3, f]x[0, 1, 2, 3, i, o]->...
           : (tensor<1x1x5x5x5x2xf32>, tensor<1x3x3x3x2x4xf32>) -> tensor<1x1x3x3x3x4xf32>

becomes ::

    %x2 = stablehlo.reshape %x : (tensor<1x1x5x5x5x2xf32>) -> tensor<1x5x5x5x2xf32>
    %w2 = stablehlo.reshape %w : (tensor<1x3x3x3x2x4xf32>) -> tensor<3x3x3x2x4xf32>
    %c = stablehlo.convolution(%x2, %w2) dim_numbers = [b, 0, 1, 2, f]x[0, 1, 2, i, o]->...
    %r = stablehlo.reshape %c : (tensor<1x3x3x3x4xf32>) -> tensor<1x1x3x3x3x4xf32>

A trivial input dimension without padding admits only a size-1 window (the kernel's
dimension is 1 whatever the dilations, and its output dimension too), so every output
element sums the same products: exact. Its stride and dilations go with it. XLA keeps
the pass to 4-D convolutions (its emitters handle up to three spatial dimensions);
``all-ranks=true`` applies it to every rank. One spatial dimension always stays (a
convolution without spatial dimensions is valid in HLO but not what IREE expects).
Conditions: static shapes of XLA element types, a result type our shape rule gives,
and no ``window_reversal``.
"""

from __future__ import annotations

import dataclasses
from dataclasses import replace
from typing import Sequence

from iree.compiler import ir

from dialect_ops.shape_ops import reshape
from pipelines.contractions import conv_dims, conv_window, rebuildable, rebuilt_convolution, renumbered
from pipelines.matchers import known_dims
from pipelines.pass_base import ExpanderPass
from pipelines.registry import register

__all__ = ["Convolution4DExpander"]


def _without(dims: Sequence[int], dropped: Sequence[int]) -> list[int]:
    return [s for d, s in enumerate(dims) if d not in dropped]


@register
@dataclasses.dataclass
class Convolution4DExpander(ExpanderPass):
    """Drop trivial spatial dimensions (input size 1, no padding) of 4-D convolutions by reshapes."""

    name = "convolution-4d-expander"
    all_ranks: bool = dataclasses.field(
        default=False, metadata={"help": "drop trivial spatial dimensions of convolutions of any rank"})

    def _trivial(self, op) -> list[int]:
        """The indices (in the spatial dimension lists) of the dimensions that go."""
        dnums = conv_dims(op)
        n = len(dnums.input_spatial_dimensions)
        if n != 4 and not (self.all_ranks and n >= 2):
            return []
        sizes = known_dims(op.operands[0])
        padding = conv_window(op)[1]
        trivial = [i for i, d in enumerate(dnums.input_spatial_dimensions)
                   if sizes[d] == 1 and padding[i] == (0, 0)]
        return trivial[:n - 1]  # one spatial dimension stays

    def matches(self, op) -> bool:
        return (op.operation.name == "stablehlo.convolution" and rebuildable(op)
                and "window_reversal" not in op.attributes and bool(self._trivial(op)))

    def rule(self, op) -> str:
        return "drop-trivial-spatial-dimensions"

    def expand(self, op) -> Sequence[ir.Value]:
        d = conv_dims(op)
        trivial = self._trivial(op)
        keep = [i for i in range(len(d.input_spatial_dimensions)) if i not in trivial]
        gone_in = [d.input_spatial_dimensions[i] for i in trivial]
        gone_k = [d.kernel_spatial_dimensions[i] for i in trivial]
        gone_out = [d.output_spatial_dimensions[i] for i in trivial]

        def kept(dims: Sequence[int], gone: Sequence[int]) -> tuple[int, ...]:
            return renumbered([dims[i] for i in keep], gone)

        new = replace(
            d,
            input_batch_dimension=renumbered([d.input_batch_dimension], gone_in)[0],
            input_feature_dimension=renumbered([d.input_feature_dimension], gone_in)[0],
            input_spatial_dimensions=kept(d.input_spatial_dimensions, gone_in),
            kernel_input_feature_dimension=renumbered([d.kernel_input_feature_dimension], gone_k)[0],
            kernel_output_feature_dimension=renumbered([d.kernel_output_feature_dimension], gone_k)[0],
            kernel_spatial_dimensions=kept(d.kernel_spatial_dimensions, gone_k),
            output_batch_dimension=renumbered([d.output_batch_dimension], gone_out)[0],
            output_feature_dimension=renumbered([d.output_feature_dimension], gone_out)[0],
            output_spatial_dimensions=kept(d.output_spatial_dimensions, gone_out))
        window = tuple([values[i] for i in keep] for values in conv_window(op))
        lhs = reshape(op.operands[0], _without(known_dims(op.operands[0]), gone_in))
        rhs = reshape(op.operands[1], _without(known_dims(op.operands[1]), gone_k))
        result = rebuilt_convolution(op, lhs, rhs, new, window=window)
        return [reshape(result, known_dims(op.results[0]))]
