"""single-window-stride: stride 1 on window dimensions that have one window position.

The pinned IREE fails to compile a ``stablehlo.convolution`` or ``stablehlo.reduce_window``
whose result has size 1 in a window dimension with a stride > 1 and more padded input
than one window ("'linalg.generic' op inferred input/output operand #1 has shape's
dimension #0 to be 3, but found 2"), e.g. ``f32[1,2,3]`` * ``f32[2,2,2]`` with stride 2.
With a single window position the stride never applies, so the rewrite sets it to 1 and
crops the unused input with negative high padding, keeping the window where it was::

    convolution(%x, %w) window = {stride = [2], pad = [[0, 0]]}    : 3-element input, 2-element window
 -> convolution(%x, %w) window = {stride = [1], pad = [[0, -1]]}   : same single window, same result

The op is copied with the new ``window_strides`` and ``padding``, so every other attribute
(dilations, groups, precision, any discardable one), the result type, the reducer region
and any element type (quantized ones included) are kept.

Conditions: static shapes, result size 1 and stride > 1 in that dimension. Run it after
``select-and-scatter-expander``, whose reduce_window may need it.
"""

from __future__ import annotations

from typing import Sequence

import numpy as np
from iree.compiler import ir

from dialect_ops.windows import _dilated
from hlo_mlir import _emit
from hlo_mlir.ir_access import convolution_dimension_numbers, int_array, padding_pairs, window_values
from pipelines.matchers import known_dims, static_dims
from pipelines.pass_base import ExpanderPass
from pipelines.registry import register

__all__ = ["SingleWindowStride"]

# op -> (base dilation, window dilation) attribute names
_DILATIONS = {"stablehlo.convolution": ("lhs_dilation", "rhs_dilation"),
              "stablehlo.reduce_window": ("base_dilations", "window_dilations")}


@register
class SingleWindowStride(ExpanderPass):
    """Sets stride 1 on convolution/reduce_window dimensions with one window position (IREE rejects them)."""

    name = "single-window-stride"
    legalizes_for_iree = True

    def matches(self, op) -> bool:
        name = op.operation.name
        if name not in _WINDOW_DIMS or any(static_dims(v) is None for v in (*op.operands, *op.results)):
            return False
        return bool(_single_window_dims(op, *_WINDOW_DIMS[name](op)))

    def expand(self, op) -> Sequence[ir.Value]:
        base_dims, window_dims, result_dims = _WINDOW_DIMS[op.operation.name](op)
        rank = len(base_dims)
        base_dilations, window_dilations = (window_values(op, a, rank) for a in _DILATIONS[op.operation.name])
        strides, padding = window_values(op, "window_strides", rank), padding_pairs(op, rank)
        for i in _single_window_dims(op, base_dims, window_dims, result_dims):
            low, high = padding[i]
            extra = low + _dilated(base_dims[i], base_dilations[i]) + high - _dilated(window_dims[i],
                                                                                       window_dilations[i])
            padding[i], strides[i] = (low, high - extra), 1
        copy = op.operation.clone()  # at the insertion point: operands, types, regions and attributes
        copy.attributes["window_strides"] = _emit.i64_array(strides)
        flat_padding = np.asarray(padding, np.int64).ravel()
        copy.attributes["padding"] = _emit.dense_i64_elements(flat_padding, (rank, 2))
        return list(copy.results)


def _conv_dims(op) -> tuple[list[int], list[int], list[int]]:
    """(input, kernel, output) sizes of the spatial dimensions, in dimension-number order."""
    dnums = convolution_dimension_numbers(op)
    lhs, rhs, out = (known_dims(v) for v in (op.operands[0], op.operands[1], op.results[0]))
    return ([lhs[d] for d in dnums.input_spatial_dimensions],
            [rhs[d] for d in dnums.kernel_spatial_dimensions],
            [out[d] for d in dnums.output_spatial_dimensions])


def _reduce_window_dims(op) -> tuple[list[int], list[int], list[int]]:
    return (known_dims(op.operands[0]), int_array(op, "window_dimensions"),
            known_dims(op.results[0]))


_WINDOW_DIMS = {"stablehlo.convolution": _conv_dims, "stablehlo.reduce_window": _reduce_window_dims}


def _single_window_dims(op, base_dims, window_dims, result_dims) -> list[int]:
    """Window dimensions with one result position and a stride > 1."""
    strides = window_values(op, "window_strides", len(base_dims))
    return [i for i, size in enumerate(result_dims) if size == 1 and strides[i] > 1]
