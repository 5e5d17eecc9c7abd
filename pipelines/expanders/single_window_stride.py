"""single-window-stride: stride 1 on window dimensions that have one window position.

The pinned IREE fails to compile a ``stablehlo.convolution`` or ``stablehlo.reduce_window``
whose result has size 1 in a window dimension with a stride > 1 and more padded input
than one window ("'linalg.generic' op inferred input/output operand #1 has shape's
dimension #0 to be 3, but found 2"), e.g. ``f32[1,2,3]`` * ``f32[2,2,2]`` with stride 2.
With a single window position the stride never applies, so the rewrite sets it to 1 and
crops the unused input with negative high padding, keeping the window where it was::

    convolution(%x, %w) window = {stride = [2], pad = [[0, 0]]}    : 3-element input, 2-element window
 -> convolution(%x, %w) window = {stride = [1], pad = [[0, -1]]}   : same single window, same result

Conditions: result size 1 and stride > 1 in that dimension; every other attribute
(dilations, groups, precision, result type, the reducer region) is kept. Run it after
``select-and-scatter-expander``, whose reduce_window may need it.
"""

from __future__ import annotations

from typing import Sequence

from iree.compiler import ir

from dialect_ops import _emit
from dialect_ops.convolution import ConvolutionDimensionNumbers, convolution
from dialect_ops.windows import _dilated, reduce_window
from pipelines.expanders._window_util import i64_list, padding_pairs, splice_block
from pipelines.pass_base import ExpanderPass
from pipelines.registry import register

__all__ = ["SingleWindowStride"]


@register
class SingleWindowStride(ExpanderPass):
    """Sets stride 1 on convolution/reduce_window dimensions with one window position (IREE rejects them)."""

    name = "single-window-stride"
    legalizes_for_iree = True

    def matches(self, op) -> bool:
        name = op.operation.name
        return name in _WINDOW_DIMS and bool(_single_window_dims(op, *_WINDOW_DIMS[name](op)))

    def expand(self, op) -> Sequence[ir.Value]:
        base_dims, window_dims, result_dims = _WINDOW_DIMS[op.operation.name](op)
        rank = len(base_dims)
        dilation_names = (("lhs_dilation", "rhs_dilation") if op.operation.name == "stablehlo.convolution"
                          else ("base_dilations", "window_dilations"))
        base_dilations, window_dilations = (i64_list(op, name, rank) for name in dilation_names)
        strides, padding = i64_list(op, "window_strides", rank), padding_pairs(op, rank)
        for i in _single_window_dims(op, base_dims, window_dims, result_dims):
            low, high = padding[i]
            extra = low + _dilated(base_dims[i], base_dilations[i]) + high - _dilated(window_dims[i],
                                                                                       window_dilations[i])
            padding[i], strides[i] = (low, high - extra), 1
        if op.operation.name == "stablehlo.convolution":
            return [_convolution(op, strides, padding, base_dilations, window_dilations)]
        n = len(op.results)
        operands = list(op.operands)
        old_block = op.regions[0].blocks[0]
        return reduce_window(operands[:n], operands[n:], window_dims, strides, base_dilations,
                             window_dilations,
                             padding, lambda block: _move_body(old_block, block))


def _convolution(op, strides, padding, lhs_dilation, rhs_dilation) -> ir.Value:
    lhs, rhs = op.operands
    result = convolution(lhs, rhs, strides, padding, lhs_dilation, rhs_dilation, _dnums(op),
                         _int_attr(op, "feature_group_count"), _int_attr(op, "batch_group_count"),
                         preferred_element_type=_emit.shape_of(op.result).element_type)
    if "precision_config" in op.attributes:
        result.owner.attributes["precision_config"] = op.attributes["precision_config"]
    return result


def _move_body(old: ir.Block, new: ir.Block) -> None:
    with ir.InsertionPoint(new):
        _emit.region_return(splice_block(old, new, list(new.arguments)))


def _int_attr(op, name: str) -> int:
    return ir.IntegerAttr(op.attributes[name]).value if name in op.attributes else 1


def _dnums(op) -> ConvolutionDimensionNumbers:
    return ConvolutionDimensionNumbers.from_attribute(op.attributes["dimension_numbers"])


def _conv_dims(op) -> tuple[list[int], list[int], list[int]]:
    """(input, kernel, output) sizes of the spatial dimensions, in dimension-number order."""
    dnums = _dnums(op)
    lhs, rhs, out = (_emit.shape_of(v).dimensions for v in (op.operands[0], op.operands[1], op.result))
    return ([lhs[d] for d in dnums.input_spatial_dimensions],
            [rhs[d] for d in dnums.kernel_spatial_dimensions],
            [out[d] for d in dnums.output_spatial_dimensions])


def _reduce_window_dims(op) -> tuple[list[int], list[int], list[int]]:
    return (list(_emit.shape_of(op.operands[0]).dimensions), list(ir.DenseI64ArrayAttr(op.attributes[
        "window_dimensions"])), list(_emit.shape_of(op.results[0]).dimensions))


_WINDOW_DIMS = {"stablehlo.convolution": _conv_dims, "stablehlo.reduce_window": _reduce_window_dims}


def _single_window_dims(op, base_dims, window_dims, result_dims) -> list[int]:
    """Window dimensions with one result position and a stride > 1."""
    strides = i64_list(op, "window_strides", len(base_dims))
    return [i for i, size in enumerate(result_dims) if size == 1 and strides[i] > 1]
