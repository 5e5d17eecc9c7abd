"""What the dot and convolution passes share: reading a ``dot_general``'s dimension
numbers, and rebuilding a ``dot_general`` or ``convolution`` with new operands and
dimension numbers through the ``dialect_ops`` emitters (so the new op passes the same
shape rule as user IR), keeping everything else of the original: the result element
type (``preferred_element_type``), the precision config, a dot's ``algorithm`` and any
other attribute.
"""

from __future__ import annotations

from dataclasses import asdict
from typing import Sequence

from iree.compiler import ir

from dialect_ops.convolution import ConvolutionDimensionNumbers, conv_general_dilated_rule, convolution
from dialect_ops.linalg import DotDimensionNumbers, dot_general, dot_general_rule
from hlo_mlir import _emit, ir_access
from hlo_mlir.errors import HloMlirError
from pipelines.matchers import static_dims, xla_arrays

__all__ = ["dot_dims", "free_dims", "conv_dims", "conv_window", "rebuildable", "rebuilt_dot",
           "rebuilt_convolution", "renumbered"]


def dot_dims(op) -> DotDimensionNumbers:
    """The dimension numbers of ``dot_general`` ``op``."""
    return DotDimensionNumbers(**asdict(ir_access.dot_dimension_numbers(op)))


def free_dims(rank: int, contracting: Sequence[int], batch: Sequence[int]) -> list[int]:
    """An operand's dimensions that are neither contracting nor batch, in order (the order
    in which they appear in the dot's result)."""
    return [d for d in range(rank) if d not in contracting and d not in batch]


def conv_dims(op) -> ConvolutionDimensionNumbers:
    """The dimension numbers of ``convolution`` ``op``."""
    return ConvolutionDimensionNumbers.from_attribute(op.attributes["dimension_numbers"])


def rebuildable(op) -> bool:
    """Whether the dot and convolution passes can rewrite ``op``: its operands and result
    are arrays of XLA types and static shapes, and our shape rule gives its result type
    (not so for StableHLO's mixed operand types, which XLA's builder has no form of)."""
    values = [*op.operands, *op.results]
    if not (xla_arrays(values) and all(static_dims(v) is not None for v in values)):
        return False
    lhs, rhs = _emit.shapes_of(op.operands)
    try:
        if op.operation.name == "stablehlo.dot_general":
            result = dot_general_rule(lhs, rhs, dot_dims(op), _result_type(op))
        else:
            result = conv_general_dilated_rule(lhs, rhs, *_window(op, lhs.rank - 2), conv_dims(op),
                                               *_group_counts(op), _result_type(op))
    except HloMlirError:
        return False
    return result == _emit.shape_of(op.results[0])


def conv_window(op) -> tuple[list[int], list[tuple[int, int]], list[int], list[int]]:
    """Convolution ``op``'s window strides, padding, lhs and rhs dilation."""
    return _window(op, len(conv_dims(op).input_spatial_dimensions))


def _window(op, n: int) -> tuple[list[int], list[tuple[int, int]], list[int], list[int]]:
    """A convolution's window strides, padding, lhs and rhs dilation."""
    return (ir_access.window_values(op, "window_strides", n), ir_access.padding_pairs(op, n),
            ir_access.window_values(op, "lhs_dilation", n), ir_access.window_values(op, "rhs_dilation", n))


def _group_counts(op) -> tuple[int, int]:
    return ir_access.int_attr(op, "feature_group_count"), ir_access.int_attr(op, "batch_group_count")


def renumbered(dims: Sequence[int], dropped: Sequence[int]) -> tuple[int, ...]:
    """``dims`` of an operand renumbered for the operand without the ``dropped`` dimensions."""
    return tuple(d - sum(1 for x in dropped if x < d) for d in dims)


def _result_type(op):
    return _emit.shape_of(op.results[0]).element_type


def _copy_other_attributes(op, new: ir.Value, written: Sequence[str]) -> ir.Value:
    owner = new.owner
    for name, attr in ir_access.attribute_dict(op).items():
        if name not in written:
            owner.attributes[name] = attr
    return new


def rebuilt_dot(op, lhs: ir.Value, rhs: ir.Value, dnums: DotDimensionNumbers) -> ir.Value:
    """A ``dot_general`` of ``lhs`` and ``rhs`` with ``dnums`` and the rest of ``op``'s
    attributes (its result element type, precision config, algorithm)."""
    value = dot_general(lhs, rhs, dnums, ir_access.precision_config(op) or None, _result_type(op))
    return _copy_other_attributes(op, value, ("dot_dimension_numbers", "precision_config"))


def rebuilt_convolution(op, lhs: ir.Value, rhs: ir.Value, dnums: ConvolutionDimensionNumbers | None = None,
                        feature_group_count: int | None = None,
                        batch_group_count: int | None = None, window: tuple | None = None) -> ir.Value:
    """A ``convolution`` of ``lhs`` and ``rhs`` with ``op``'s window, precision and result
    element type; dimension numbers, group counts and the window (strides, padding, lhs
    and rhs dilation, as :func:`conv_window` gives them) are ``op``'s unless given."""
    fgc, bgc = _group_counts(op)
    strides, padding, lhs_dilation, rhs_dilation = window or _window(op, _emit.shape_of(lhs).rank - 2)
    value = convolution(
        lhs, rhs, strides, padding, lhs_dilation, rhs_dilation, dnums or conv_dims(op),
        fgc if feature_group_count is None else feature_group_count,
        bgc if batch_group_count is None else batch_group_count,
        ir_access.precision_config(op) or None, _result_type(op))
    written = ("window_strides", "padding", "lhs_dilation", "rhs_dilation", "dimension_numbers",
               "feature_group_count", "batch_group_count", "precision_config")
    return _copy_other_attributes(op, value, written)
