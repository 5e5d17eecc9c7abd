"""Ops that cut arrays apart and put them together: Slice, SliceInDim, ConcatInDim
(alias Concatenate) and Pad (spec: Slice, Concatenate, Pad).

Pad takes a :class:`PaddingConfig` (one :class:`PaddingConfigDimension` per operand
dimension) or, for convenience, a list of ``(low, high, interior)`` triples. Edge
padding may be negative (it removes elements); interior padding may not.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence, Union

from iree.compiler import ir

from dialect_ops._args import int_arg, int_list, require_static
from hlo_mlir import _emit
from hlo_mlir.builder import XlaBuilder, XlaOp, builder_of
from hlo_mlir.errors import DTypeError, InvalidArgumentError, ShapeError
from hlo_mlir.shape import Shape

__all__ = ["Slice", "SliceInDim", "slice_", "slice_rule",
           "ConcatInDim", "Concatenate", "concatenate", "concatenate_rule",
           "PaddingConfig", "PaddingConfigDimension", "MakeNoPaddingConfig", "MakeEdgePaddingConfig",
           "Pad", "pad", "pad_rule"]


# --- Slice, SliceInDim ---------------------------------------------------------------------
def Slice(operand: XlaOp, start_indices: Sequence[int], limit_indices: Sequence[int],
          strides: Sequence[int] | None = None) -> XlaOp:
    """The sub-array from ``start_indices`` (inclusive) to ``limit_indices`` (exclusive),
    taking every ``strides[d]``-th element of dimension d (default 1) (spec: Slice)."""
    b = builder_of("Slice", operand)
    return b.emit("Slice", lambda: slice_(operand.value, start_indices, limit_indices, strides))


def SliceInDim(operand: XlaOp, start_index: int, limit_index: int, stride: int, dimno: int) -> XlaOp:
    """Slice along dimension ``dimno`` only, keeping every other dimension whole."""
    b = builder_of("SliceInDim", operand)

    def emit():
        shape = _emit.shape_of(operand.value)
        require_static("SliceInDim", shape)
        dim = int_arg("SliceInDim", "dimno", dimno)
        if not 0 <= dim < shape.rank:
            raise InvalidArgumentError(
                f"SliceInDim requires dimno in [0, {shape.rank}); got {dim} for operand {shape}.")
        start, limit, strides = [0] * shape.rank, list(shape.dimensions), [1] * shape.rank
        start[dim], limit[dim], strides[dim] = start_index, limit_index, stride
        return slice_(operand.value, start, limit, strides, "SliceInDim")

    return b.emit("SliceInDim", emit)


def slice_rule(operand: Shape, start_indices: Sequence[int], limit_indices: Sequence[int],
               strides: Sequence[int] | None = None, op_name: str = "Slice") -> Shape:
    require_static(op_name, operand)
    start = int_list(op_name, "start_indices", start_indices)
    limit = int_list(op_name, "limit_indices", limit_indices)
    stride = int_list(op_name, "strides", strides) if strides is not None else [1] * operand.rank
    for what, values in (("start_indices", start), ("limit_indices", limit), ("strides", stride)):
        if len(values) != operand.rank:
            raise InvalidArgumentError(
                f"{op_name} requires one entry of {what} per operand dimension; "
                f"got {values} for operand {operand}.")
    for d, size in enumerate(operand.dimensions):
        # The spec: 0 <= start <= limit <= size in every dimension, strides positive.
        if not 0 <= start[d] <= limit[d] <= size:
            raise ShapeError(
                f"{op_name} requires 0 <= start_indices[d] <= limit_indices[d] <= operand dimension d; "
                f"got start_indices {start} and limit_indices {limit} for operand {operand} "
                f"(dimension {d}).")
        if stride[d] < 1:
            raise InvalidArgumentError(f"{op_name} requires positive strides; got {stride}.")
    return Shape.array_shape(operand.element_type,
                             [-(-(hi - lo) // s) for lo, hi, s in zip(start, limit, stride, strict=True)])


def slice_(operand: ir.Value, start_indices: Sequence[int], limit_indices: Sequence[int],
           strides: Sequence[int] | None = None, op_name: str = "Slice") -> ir.Value:
    """``stablehlo.slice`` of ``operand`` (strides default to 1)."""
    shape = _emit.shape_of(operand)
    result = slice_rule(shape, start_indices, limit_indices, strides, op_name)
    strides = [1] * shape.rank if strides is None else strides
    return _emit.create("stablehlo.slice", [operand], [_emit.type_of(result)],
                        {"start_indices": _emit.i64_array(start_indices),
                         "limit_indices": _emit.i64_array(limit_indices),
                         "strides": _emit.i64_array(strides)}).result


# --- ConcatInDim ---------------------------------------------------------------------------
def ConcatInDim(builder: XlaBuilder, operands: Sequence[XlaOp], dimension: int) -> XlaOp:
    """Joins ``operands`` (N >= 1, same rank and element type, equal sizes outside
    ``dimension``) one after the other along ``dimension`` (spec: Concatenate)."""
    operands = list(operands)
    b = builder_of("ConcatInDim", *operands)

    def emit():
        if b is not builder:
            raise InvalidArgumentError(
                f"ConcatInDim requires operands of the builder it is given; got {builder!r} "
                f"and operands of {b!r}.")
        return concatenate([op.value for op in operands], dimension)

    return b.emit("ConcatInDim", emit)


Concatenate = ConcatInDim


def concatenate_rule(operands: Sequence[Shape], dimension: int, op_name: str = "ConcatInDim") -> Shape:
    if not operands:
        raise InvalidArgumentError(f"{op_name} requires at least one operand; got none.")
    for i, s in enumerate(operands):
        require_static(op_name, s, f"operand {i}")
    first = operands[0]
    listing = ", ".join(str(s) for s in operands)
    dim = int_arg(op_name, "dimension", dimension)
    # Rank-0 values cannot be concatenated: there is no dimension to join along.
    if not 0 <= dim < first.rank:
        raise InvalidArgumentError(
            f"{op_name} requires dimension in [0, {first.rank}); got {dim} for operands {listing}.")
    for s in operands[1:]:
        if s.element_type != first.element_type:
            raise DTypeError(f"{op_name} requires operands of one element type; got {listing}.")
        if s.rank != first.rank:
            raise ShapeError(f"{op_name} requires operands of one rank; got {listing}.")
        pairs = enumerate(zip(s.dimensions, first.dimensions, strict=True))
        if any(a != c for d, (a, c) in pairs if d != dim):
            raise ShapeError(
                f"{op_name} requires operands with equal sizes outside dimension {dim}; got {listing}.")
    sizes = list(first.dimensions)
    sizes[dim] = sum(s.dimensions[dim] for s in operands)
    return Shape.array_shape(first.element_type, sizes)


def concatenate(operands: Sequence[ir.Value], dimension: int) -> ir.Value:
    """``stablehlo.concatenate`` of ``operands`` along ``dimension``."""
    result = concatenate_rule(_emit.shapes_of(operands), dimension)
    return _emit.create("stablehlo.concatenate", operands, [_emit.type_of(result)],
                        {"dimension": _emit.i64_attr(dimension)}).result


# --- Pad -------------------------------------------------------------------------------------
@dataclass(frozen=True)
class PaddingConfigDimension:
    """Padding of one dimension: ``edge_padding_low`` elements before index 0 and
    ``edge_padding_high`` after the last (negative: that many removed), and
    ``interior_padding`` (>= 0) between any two elements."""

    edge_padding_low: int = 0
    edge_padding_high: int = 0
    interior_padding: int = 0

    def __post_init__(self):
        low, high, interior = int_list("PaddingConfigDimension", "padding amounts",
                                    (self.edge_padding_low, self.edge_padding_high, self.interior_padding))
        if interior < 0:
            raise InvalidArgumentError(
                f"PaddingConfigDimension requires interior_padding >= 0; got {interior}.")
        object.__setattr__(self, "edge_padding_low", low)
        object.__setattr__(self, "edge_padding_high", high)
        object.__setattr__(self, "interior_padding", interior)

    def padded_size(self, size: int) -> int:
        """The size a dimension of ``size`` elements has after this padding (may be < 0)."""
        interior = max(size - 1, 0) * self.interior_padding
        return size + self.edge_padding_low + self.edge_padding_high + interior


PaddingTriples = Sequence[Sequence[int]]


@dataclass(frozen=True)
class PaddingConfig:
    """XLA's PaddingConfig: one :class:`PaddingConfigDimension` per operand dimension."""

    dimensions: tuple[PaddingConfigDimension, ...] = ()

    def __post_init__(self):
        dims = tuple(self.dimensions)
        for d in dims:
            if not isinstance(d, PaddingConfigDimension):
                raise InvalidArgumentError(
                    f"PaddingConfig requires PaddingConfigDimension entries; got {d!r}.")
        object.__setattr__(self, "dimensions", dims)

    @staticmethod
    def from_triples(triples: PaddingTriples) -> "PaddingConfig":
        """``[(low, high, interior), ...]``, one triple per dimension."""
        dims = []
        for t in triples:
            values = list(t) if isinstance(t, (tuple, list)) else None
            if values is None or len(values) != 3:
                raise InvalidArgumentError(
                    f"PaddingConfig requires (edge_padding_low, edge_padding_high, interior_padding) "
                    f"triples; got {t!r}.")
            dims.append(PaddingConfigDimension(*values))
        return PaddingConfig(tuple(dims))

    @staticmethod
    def of(config: Union["PaddingConfig", PaddingTriples]) -> "PaddingConfig":
        """``config`` itself, or a PaddingConfig made from a list of triples."""
        if isinstance(config, PaddingConfig):
            return config
        if isinstance(config, (str, bytes)) or not isinstance(config, Sequence):
            raise InvalidArgumentError(
                f"Pad requires a PaddingConfig or a list of (low, high, interior) triples; got {config!r}.")
        return PaddingConfig.from_triples(config)

    @property
    def low(self) -> list[int]:
        return [d.edge_padding_low for d in self.dimensions]

    @property
    def high(self) -> list[int]:
        return [d.edge_padding_high for d in self.dimensions]

    @property
    def interior(self) -> list[int]:
        return [d.interior_padding for d in self.dimensions]

    def __str__(self) -> str:
        return "[" + ", ".join(f"({d.edge_padding_low}, {d.edge_padding_high}, {d.interior_padding})"
                               for d in self.dimensions) + "]"


def MakeNoPaddingConfig(rank: int) -> PaddingConfig:
    """A PaddingConfig that pads nothing in ``rank`` dimensions."""
    return PaddingConfig((PaddingConfigDimension(),) * rank)


def MakeEdgePaddingConfig(padding: Sequence[tuple[int, int]]) -> PaddingConfig:
    """Edge padding only: one ``(low, high)`` pair per dimension."""
    return PaddingConfig.from_triples([(low, high, 0) for low, high in padding])


def Pad(operand: XlaOp, padding_value: XlaOp, padding_config: Union[PaddingConfig, PaddingTriples]) -> XlaOp:
    """Pads ``operand`` with the scalar ``padding_value``: first ``interior_padding``
    elements between neighbours, then edge padding at both ends, where negative edge
    padding removes elements (spec: Pad)."""
    b = builder_of("Pad", operand, padding_value)
    return b.emit("Pad", lambda: pad(operand.value, padding_value.value, padding_config))


def pad_rule(operand: Shape, padding_value: Shape,
             padding_config: Union[PaddingConfig, PaddingTriples]) -> Shape:
    require_static("Pad", operand)
    config = PaddingConfig.of(padding_config)
    if not padding_value.is_scalar:
        raise ShapeError(f"Pad requires a scalar padding_value; got {padding_value}.")
    if padding_value.element_type != operand.element_type:
        raise DTypeError(f"Pad requires padding_value of the operand's element type; "
                         f"got {padding_value} for operand {operand}.")
    if len(config.dimensions) != operand.rank:
        raise InvalidArgumentError(
            f"Pad requires one padding_config entry per operand dimension; got {config} "
            f"for operand {operand}.")
    sizes = [d.padded_size(n) for d, n in zip(config.dimensions, operand.dimensions, strict=True)]
    if any(s < 0 for s in sizes):
        raise ShapeError(f"Pad requires padding that leaves non-negative sizes; got sizes {sizes} "
                         f"from padding_config {config} for operand {operand}.")
    return Shape.array_shape(operand.element_type, sizes)


def pad(operand: ir.Value, padding_value: ir.Value, padding_config: Union[PaddingConfig, PaddingTriples]
        ) -> ir.Value:
    """``stablehlo.pad`` (negative edge padding is native to StableHLO and runs on IREE)."""
    result = pad_rule(_emit.shape_of(operand), _emit.shape_of(padding_value), padding_config)
    config = PaddingConfig.of(padding_config)
    return _emit.create("stablehlo.pad", [operand, padding_value], [_emit.type_of(result)],
                        {"edge_padding_low": _emit.i64_array(config.low),
                         "edge_padding_high": _emit.i64_array(config.high),
                         "interior_padding": _emit.i64_array(config.interior)}).result
