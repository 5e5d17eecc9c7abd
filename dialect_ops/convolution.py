"""Convolution: Conv, ConvWithGeneralPadding, ConvWithGeneralDimensions, ConvGeneral and
ConvGeneralDilated (spec: Conv, ConvWithGeneralPadding), all lowering to
``stablehlo.convolution``.

The input (lhs) has a batch, a feature and n spatial dimensions; the kernel (rhs) an
output-feature, an input-feature and n spatial dimensions; :class:`ConvolutionDimensionNumbers`
says where each one is (default: XLA's ``[b, f, 0, 1, ...]`` / ``[o, i, 0, 1, ...]``).
Each output spatial position is one placement of the (dilated) kernel window over the
padded, dilated input (the window arithmetic of :mod:`dialect_ops.windows`).
``feature_group_count`` splits input and output features into groups convolved
separately; ``batch_group_count`` does the same with the input batch and output features.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Sequence

from iree.compiler import ir

from dialect_ops._args import int_arg, int_list
from dialect_ops.linalg import _precisions, _result_type
from dialect_ops.windows import (
    MakePadding,
    _dilated,
    _padding_attr,
    _padding_enum,
    _padding_pairs,
    window_output_dims,
)
from hlo_mlir import _emit, ir_access
from hlo_mlir.builder import XlaOp, builder_of
from hlo_mlir.errors import DTypeError, InvalidArgumentError, ShapeError
from hlo_mlir.shape import Shape

__all__ = ["ConvolutionDimensionNumbers", "conv_dimension_numbers", "Conv", "ConvWithGeneralPadding",
           "ConvWithGeneralDimensions", "ConvGeneral", "ConvGeneralDilated", "conv_general_dilated_rule",
           "convolution"]


@dataclass(frozen=True)
class ConvolutionDimensionNumbers(ir_access.ConvDimensions):
    """Where the batch, feature and spatial dimensions of input, kernel and output are.

    Spatial dimension ``i`` of the input, the kernel and the output correspond. Build one
    with :meth:`default` (XLA's CreateDefaultConvDimensionNumbers) or from layout strings
    with :func:`conv_dimension_numbers` (``("NHWC", "HWIO", "NHWC")``).
    """

    def __post_init__(self):
        for name in ("input_spatial_dimensions", "kernel_spatial_dimensions", "output_spatial_dimensions"):
            object.__setattr__(self, name, tuple(int_list("ConvolutionDimensionNumbers", name, getattr(self,
                                                                                                    name))))
        for name in ("input_batch_dimension", "input_feature_dimension", "kernel_input_feature_dimension",
                     "kernel_output_feature_dimension", "output_batch_dimension", "output_feature_dimension"):
            object.__setattr__(self, name, int_arg("ConvolutionDimensionNumbers", name, getattr(self, name)))

    @staticmethod
    def default(num_spatial_dims: int) -> "ConvolutionDimensionNumbers":
        """XLA's default: input and output ``[batch, feature, spatial...]``, kernel
        ``[output feature, input feature, spatial...]``."""
        spatial = tuple(range(2, 2 + num_spatial_dims))
        return ConvolutionDimensionNumbers(0, 1, spatial, 1, 0, spatial, 0, 1, spatial)

    @staticmethod
    def of(value, num_spatial_dims: int) -> "ConvolutionDimensionNumbers":
        """``value`` itself, the default when None, or one from three layout strings."""
        if value is None:
            return ConvolutionDimensionNumbers.default(num_spatial_dims)
        if isinstance(value, ConvolutionDimensionNumbers):
            return value
        if isinstance(value, (tuple, list)) and len(value) == 3 and all(isinstance(v, str) for v in value):
            return conv_dimension_numbers(*value)
        raise InvalidArgumentError(f"Conv requires ConvolutionDimensionNumbers or (lhs, rhs, out) layout "
                                   f"strings such as ('NHWC', 'HWIO', 'NHWC'); got {value!r}.")

    @staticmethod
    def from_attribute(attr: ir.Attribute) -> "ConvolutionDimensionNumbers":
        """Reads a ``#stablehlo.conv<[b, f, 0, 1]x[o, i, 0, 1]->[b, f, 0, 1]>`` attribute."""
        return ConvolutionDimensionNumbers(**asdict(ir_access.convolution_dimension_numbers(attr)))

    def attribute_text(self) -> str:
        return ("#stablehlo.conv<raw "
                f"input_batch_dimension = {self.input_batch_dimension}, "
                f"input_feature_dimension = {self.input_feature_dimension}, "
                f"input_spatial_dimensions = {list(self.input_spatial_dimensions)}, "
                f"kernel_input_feature_dimension = {self.kernel_input_feature_dimension}, "
                f"kernel_output_feature_dimension = {self.kernel_output_feature_dimension}, "
                f"kernel_spatial_dimensions = {list(self.kernel_spatial_dimensions)}, "
                f"output_batch_dimension = {self.output_batch_dimension}, "
                f"output_feature_dimension = {self.output_feature_dimension}, "
                f"output_spatial_dimensions = {list(self.output_spatial_dimensions)}>")


def conv_dimension_numbers(lhs_spec: str, rhs_spec: str, out_spec: str) -> ConvolutionDimensionNumbers:
    """Dimension numbers from layout strings, as JAX's ``conv_dimension_numbers``: ``N``/``C``
    mark batch/feature of lhs and out, ``O``/``I`` output/input feature of rhs, any other
    letter a spatial dimension; spatial dimensions are ordered as they appear in ``rhs_spec``."""
    specs = (lhs_spec, rhs_spec, out_spec)
    pairs = (("N", "C"), ("O", "I"), ("N", "C"))
    for spec, (a, c) in zip(specs, pairs, strict=True):
        if spec.count(a) != 1 or spec.count(c) != 1 or len(set(spec)) != len(spec):
            raise InvalidArgumentError(
                f"conv_dimension_numbers requires each layout to name {a} and {c} once and no letter twice; "
                f"got {specs}.")
    spatial = [c for c in rhs_spec if c not in "OI"]
    if not (set(lhs_spec) - {"N", "C"} == set(spatial) == set(out_spec) - {"N", "C"}):
        raise InvalidArgumentError(
            f"conv_dimension_numbers requires the same spatial letters in the three layouts; got {specs}.")
    return ConvolutionDimensionNumbers(
        lhs_spec.index("N"), lhs_spec.index("C"), tuple(lhs_spec.index(c) for c in spatial),
        rhs_spec.index("I"), rhs_spec.index("O"), tuple(rhs_spec.index(c) for c in spatial),
        out_spec.index("N"), out_spec.index("C"), tuple(out_spec.index(c) for c in spatial))


# --- builder forms ------------------------------------------------------------------------------
def Conv(lhs: XlaOp, rhs: XlaOp, window_strides: Sequence[int], padding, feature_group_count: int = 1,
         batch_group_count: int = 1, precision_config=None, preferred_element_type=None) -> XlaOp:
    """Convolution with default dimension numbers and SAME or VALID padding (spec: Conv)."""
    return ConvGeneralDilated(lhs, rhs, window_strides, padding, None, None, None, feature_group_count,
                              batch_group_count, precision_config, preferred_element_type, op_name="Conv")


def ConvWithGeneralPadding(lhs: XlaOp, rhs: XlaOp, window_strides: Sequence[int],
                           padding: Sequence[Sequence[int]], feature_group_count: int = 1,
                           batch_group_count: int = 1, precision_config=None,
                           preferred_element_type=None) -> XlaOp:
    """Convolution with default dimension numbers and explicit (low, high) padding; negative
    padding removes input elements (spec: ConvWithGeneralPadding)."""
    return ConvGeneralDilated(lhs, rhs, window_strides, padding, None, None, None, feature_group_count,
                              batch_group_count, precision_config, preferred_element_type,
                              op_name="ConvWithGeneralPadding")


def ConvWithGeneralDimensions(lhs: XlaOp, rhs: XlaOp, window_strides: Sequence[int], padding,
                              dimension_numbers, feature_group_count: int = 1, batch_group_count: int = 1,
                              precision_config=None, preferred_element_type=None) -> XlaOp:
    """Convolution with SAME or VALID padding and explicit dimension numbers (spec: Conv)."""
    return ConvGeneralDilated(lhs, rhs, window_strides, padding, None, None, dimension_numbers,
                              feature_group_count, batch_group_count, precision_config,
                              preferred_element_type, op_name="ConvWithGeneralDimensions")


def ConvGeneral(lhs: XlaOp, rhs: XlaOp, window_strides: Sequence[int], padding: Sequence[Sequence[int]],
                dimension_numbers, feature_group_count: int = 1, batch_group_count: int = 1,
                precision_config=None, preferred_element_type=None) -> XlaOp:
    """Convolution with explicit padding pairs and dimension numbers (spec: ConvWithGeneralPadding)."""
    return ConvGeneralDilated(lhs, rhs, window_strides, padding, None, None, dimension_numbers,
                              feature_group_count, batch_group_count, precision_config,
                              preferred_element_type, op_name="ConvGeneral")


def ConvGeneralDilated(lhs: XlaOp, rhs: XlaOp, window_strides: Sequence[int], padding,
                       lhs_dilation: Sequence[int] | None = None, rhs_dilation: Sequence[int] | None = None,
                       dimension_numbers=None, feature_group_count: int = 1, batch_group_count: int = 1,
                       precision_config=None, preferred_element_type=None, *,
                       op_name: str = "ConvGeneralDilated") -> XlaOp:
    """The general convolution: padding, lhs dilation (transposed convolution), rhs dilation
    (atrous convolution), dimension numbers and feature/batch groups (spec:
    ConvWithGeneralPadding). ``padding`` is (low, high) pairs or SAME/VALID; SAME pads for
    the dilated kernel as JAX does (XLA's MakePadding when there is no dilation)."""
    b = builder_of(op_name, lhs, rhs)

    def emit():
        lshape, rshape = lhs.shape, rhs.shape
        if not lshape.is_array or not rshape.is_array:
            raise ShapeError(f"{op_name} requires array operands; got {lshape} and {rshape}.")
        dnums = ConvolutionDimensionNumbers.of(dimension_numbers, max(lshape.rank - 2, 0))
        pairs = padding
        if _padding_enum(op_name, padding) is not None:
            _check_dimension_numbers(op_name, lshape, rshape, dnums)
            base = [lshape.dimensions[d] for d in dnums.input_spatial_dimensions]
            kernel = [rshape.dimensions[d] for d in dnums.kernel_spatial_dimensions]
            strides = _spatial_list(op_name, "window_strides", window_strides, len(base))
            dilations = _spatial_list(op_name, "rhs_dilation", rhs_dilation or [1] * len(base), len(base))
            dilated = [_dilated(k, d) for k, d in zip(kernel, dilations, strict=True)]
            pairs = MakePadding(base, dilated, strides, padding)
        return convolution(lhs.value, rhs.value, window_strides, pairs, lhs_dilation, rhs_dilation, dnums,
                           feature_group_count, batch_group_count, precision_config, preferred_element_type,
                           op_name)

    return b.emit(op_name, emit)


# --- shape rule -----------------------------------------------------------------------------------
def _spatial_list(op_name: str, what: str, values, n: int) -> list[int]:
    values = int_list(op_name, what, values)
    if len(values) != n:
        raise InvalidArgumentError(f"{op_name} requires one entry of {what} per spatial dimension ({n}); "
                                   f"got {values}.")
    if any(v < 1 for v in values):
        raise InvalidArgumentError(f"{op_name} requires positive {what}; got {values}.")
    return values


def _check_dimension_numbers(op_name: str, lhs: Shape, rhs: Shape,
                             dnums: ConvolutionDimensionNumbers) -> None:
    """XLA's VerifyConvolution: equal ranks >= 2, and each of input, kernel and output
    dimension numbers a permutation of [0, rank) with rank - 2 spatial dimensions."""
    if lhs.rank != rhs.rank:
        raise ShapeError(f"{op_name} requires lhs and rhs of the same rank; got {lhs} and {rhs}.")
    if lhs.rank < 2:
        raise ShapeError(f"{op_name} requires operands of rank >= 2 (batch and feature dimensions); "
                         f"got {lhs} and {rhs}.")
    groups = {
        "input": (dnums.input_batch_dimension, dnums.input_feature_dimension, dnums.input_spatial_dimensions),
        "kernel": (dnums.kernel_output_feature_dimension, dnums.kernel_input_feature_dimension,
                   dnums.kernel_spatial_dimensions),
        "output": (dnums.output_batch_dimension, dnums.output_feature_dimension,
                   dnums.output_spatial_dimensions),
    }
    for what, (a, c, spatial) in groups.items():
        dims = [a, c, *spatial]
        if sorted(dims) != list(range(lhs.rank)):
            raise InvalidArgumentError(
                f"{op_name} requires the {what} dimension numbers to be a permutation of [0, {lhs.rank}) "
                f"with {lhs.rank - 2} spatial dimensions; got {dims} for operands {lhs} and {rhs}.")


def conv_general_dilated_rule(lhs: Shape, rhs: Shape, window_strides: Sequence[int],
                              padding: Sequence[Sequence[int]], lhs_dilation: Sequence[int] | None,
                              rhs_dilation: Sequence[int] | None, dimension_numbers,
                              feature_group_count: int = 1, batch_group_count: int = 1,
                              preferred_element_type=None, op_name: str = "ConvGeneralDilated") -> Shape:
    """The result shape of a convolution (XLA's ShapeInference::InferConvolveShape)."""
    for name, s in (("lhs", lhs), ("rhs", rhs)):
        if not s.is_array:
            raise ShapeError(f"{op_name} requires array operands; got {s} for {name}.")
    dnums = ConvolutionDimensionNumbers.of(dimension_numbers, max(lhs.rank - 2, 0))
    _check_dimension_numbers(op_name, lhs, rhs, dnums)
    if lhs.element_type != rhs.element_type:
        raise DTypeError(f"{op_name} requires operands of the same element type; got {lhs} and {rhs}.")
    et = lhs.element_type
    if not (et.is_integer or et.is_floating_point or et.is_complex):
        raise DTypeError(f"{op_name} requires integer, floating-point or complex operands; got {lhs}.")
    n = lhs.rank - 2
    fgc = int_arg(op_name, "feature_group_count", feature_group_count)
    bgc = int_arg(op_name, "batch_group_count", batch_group_count)
    if fgc < 1 or bgc < 1:
        raise InvalidArgumentError(f"{op_name} requires positive feature_group_count and batch_group_count; "
                                   f"got {fgc} and {bgc}.")
    if fgc > 1 and bgc > 1:
        raise InvalidArgumentError(f"{op_name} requires feature_group_count or batch_group_count to be 1; "
                                   f"got {fgc} and {bgc}.")
    batch = lhs.dimensions[dnums.input_batch_dimension]
    in_features = lhs.dimensions[dnums.input_feature_dimension]
    kernel_in = rhs.dimensions[dnums.kernel_input_feature_dimension]
    kernel_out = rhs.dimensions[dnums.kernel_output_feature_dimension]
    if in_features % fgc:
        raise ShapeError(f"{op_name} requires input features ({in_features}) divisible by "
                         f"feature_group_count ({fgc}); got lhs {lhs}.")
    if kernel_in * fgc != in_features:
        raise ShapeError(f"{op_name} requires kernel input features * feature_group_count == input features; "
                         f"got {kernel_in} * {fgc} != {in_features} (lhs {lhs}, rhs {rhs}).")
    if kernel_out % fgc:
        raise ShapeError(f"{op_name} requires kernel output features ({kernel_out}) divisible by "
                         f"feature_group_count ({fgc}); got rhs {rhs}.")
    if batch % bgc:
        raise ShapeError(f"{op_name} requires the input batch ({batch}) divisible by batch_group_count "
                         f"({bgc}); got lhs {lhs}.")
    if kernel_out % bgc:
        raise ShapeError(f"{op_name} requires kernel output features ({kernel_out}) divisible by "
                         f"batch_group_count ({bgc}); got rhs {rhs}.")
    strides = _spatial_list(op_name, "window_strides", window_strides, n)
    lhs_dil = _spatial_list(op_name, "lhs_dilation", lhs_dilation or [1] * n, n)
    rhs_dil = _spatial_list(op_name, "rhs_dilation", rhs_dilation or [1] * n, n)
    pairs = _padding_pairs(op_name, padding, n)
    spatial = window_output_dims(op_name, [lhs.dimensions[d] for d in dnums.input_spatial_dimensions],
                                 [rhs.dimensions[d] for d in dnums.kernel_spatial_dimensions], strides, pairs,
                                 lhs_dil, rhs_dil, what="input spatial")
    dims = [0] * lhs.rank
    dims[dnums.output_batch_dimension] = batch // bgc
    dims[dnums.output_feature_dimension] = kernel_out
    for d, size in zip(dnums.output_spatial_dimensions, spatial, strict=True):
        dims[d] = size
    return Shape.array_shape(_result_type(op_name, lhs, preferred_element_type), dims)


def convolution(lhs: ir.Value, rhs: ir.Value, window_strides: Sequence[int], padding: Sequence[Sequence[int]],
                lhs_dilation: Sequence[int] | None = None, rhs_dilation: Sequence[int] | None = None,
                dimension_numbers=None, feature_group_count: int = 1, batch_group_count: int = 1,
                precision_config=None, preferred_element_type=None,
                op_name: str = "ConvGeneralDilated") -> ir.Value:
    """Emits ``stablehlo.convolution`` (padding as explicit pairs)."""
    lshape = _emit.shape_of(lhs)
    result = conv_general_dilated_rule(lshape, _emit.shape_of(rhs), window_strides, padding, lhs_dilation,
                                       rhs_dilation, dimension_numbers, feature_group_count,
                                       batch_group_count, preferred_element_type, op_name)
    n = lshape.rank - 2
    dnums = ConvolutionDimensionNumbers.of(dimension_numbers, n)
    precisions = _precisions(op_name, precision_config)
    attrs = {"window_strides": _emit.i64_array(window_strides),
             "padding": _padding_attr(_padding_pairs(op_name, padding, n)),
             "lhs_dilation": _emit.i64_array(lhs_dilation or [1] * n),
             "rhs_dilation": _emit.i64_array(rhs_dilation or [1] * n),
             "dimension_numbers": _emit.parse_attr(dnums.attribute_text()),
             "feature_group_count": _emit.i64_attr(feature_group_count),
             "batch_group_count": _emit.i64_attr(batch_group_count)}
    if precisions:
        attrs["precision_config"] = _emit.parse_attr(
            "[" + ", ".join(f"#stablehlo<precision {p.value}>" for p in precisions) + "]")
    return _emit.create("stablehlo.convolution", [lhs, rhs], [_emit.type_of(result)], attrs).result
