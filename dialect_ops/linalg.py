"""Linear algebra: Dot and DotGeneral (spec: Dot, DotGeneral), both lowering to
``stablehlo.dot_general``.

DotGeneral sums products over the contracting dimensions; its result dimensions are
the batch dimensions, then lhs's free (non-batch, non-contracting) dimensions, then
rhs's. ``precision_config`` holds one :class:`Precision` per operand and
``preferred_element_type`` sets the result element type (e.g. s8 x s8 -> s32).
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import ClassVar

from iree.compiler import ir

from dialect_ops._args import int_list
from hlo_mlir import _emit, ir_access
from hlo_mlir import types as _types
from hlo_mlir.builder import XlaOp, builder_of
from hlo_mlir.errors import DTypeError, InvalidArgumentError, ShapeError
from hlo_mlir.shape import Shape
from hlo_mlir.types import PrimitiveType

__all__ = ["Dot", "DotGeneral", "DotDimensionNumbers", "Precision", "PrecisionConfig",
           "dot_rule", "dot_general_rule", "dot_general"]


class Precision(enum.Enum):
    """How much precision an operand of a dot gets on backends that trade it for speed."""

    DEFAULT = "DEFAULT"
    HIGH = "HIGH"
    HIGHEST = "HIGHEST"


@dataclass(frozen=True)
class PrecisionConfig:
    """XLA's PrecisionConfig: one :class:`Precision` per operand (empty means DEFAULT)."""

    operand_precision: tuple[Precision, ...] = ()
    Precision: ClassVar = Precision  # xla_client spelling: PrecisionConfig.Precision.HIGHEST

    def __post_init__(self):
        object.__setattr__(self, "operand_precision",
                           tuple(_precision(p) for p in self.operand_precision))


def _precision(p) -> Precision:
    if isinstance(p, Precision):
        return p
    if isinstance(p, str) and p.upper() in Precision.__members__:
        return Precision[p.upper()]
    raise InvalidArgumentError(
        f"PrecisionConfig requires precisions in {list(Precision.__members__)}; got {p!r}.")


def _precisions(op_name: str, precision_config) -> tuple[Precision, ...]:
    """``precision_config`` as a tuple of 0 or 2 Precisions: accepts a PrecisionConfig, one
    Precision (for both operands) or a sequence of them."""
    if precision_config is None:
        return ()
    if isinstance(precision_config, PrecisionConfig):
        precisions = precision_config.operand_precision
    elif isinstance(precision_config, (Precision, str)):
        precisions = (_precision(precision_config),) * 2
    else:
        precisions = PrecisionConfig(tuple(precision_config)).operand_precision
    if len(precisions) not in (0, 2):
        raise InvalidArgumentError(
            f"{op_name} requires one precision per operand (2); got {len(precisions)}: "
            f"{[p.name for p in precisions]}.")
    return precisions


@dataclass(frozen=True)
class DotDimensionNumbers(ir_access.DotDimensions):
    """Which dimensions DotGeneral contracts and which it treats as batch dimensions.

    JAX's form ``((lhs_contracting, rhs_contracting), (lhs_batch, rhs_batch))`` converts
    with :meth:`of`.
    """

    def __post_init__(self):
        for name in ("lhs_contracting_dimensions", "rhs_contracting_dimensions",
                     "lhs_batch_dimensions", "rhs_batch_dimensions"):
            object.__setattr__(self, name, tuple(int_list("DotDimensionNumbers", name, getattr(self, name))))

    @staticmethod
    def of(value) -> "DotDimensionNumbers":
        """A DotDimensionNumbers, or JAX's ``((lc, rc), (lb, rb))`` tuple form of one."""
        if isinstance(value, DotDimensionNumbers):
            return value
        try:
            (lc, rc), (lb, rb) = value
        except (TypeError, ValueError):
            raise InvalidArgumentError(
                "DotGeneral requires DotDimensionNumbers or ((lhs_contracting, rhs_contracting), "
                f"(lhs_batch, rhs_batch)); got {value!r}.") from None
        return DotDimensionNumbers(lc, rc, lb, rb)

    def attribute_text(self) -> str:
        return (f"#stablehlo.dot<lhs_batching_dimensions = {list(self.lhs_batch_dimensions)}, "
                f"rhs_batching_dimensions = {list(self.rhs_batch_dimensions)}, "
                f"lhs_contracting_dimensions = {list(self.lhs_contracting_dimensions)}, "
                f"rhs_contracting_dimensions = {list(self.rhs_contracting_dimensions)}>")


# --- Dot ------------------------------------------------------------------------------------
def Dot(lhs: XlaOp, rhs: XlaOp, precision_config=None, preferred_element_type=None) -> XlaOp:
    """Vector-vector, matrix-vector or matrix-matrix product: sums over lhs's last dimension
    and rhs's first (spec: Dot)."""
    b = builder_of("Dot", lhs, rhs)

    def emit():
        dnums = dot_rule(lhs.shape, rhs.shape)
        return dot_general(lhs.value, rhs.value, dnums, precision_config, preferred_element_type, "Dot")

    return b.emit("Dot", emit)


def dot_rule(lhs: Shape, rhs: Shape) -> DotDimensionNumbers:
    """Dot's dimension numbers: operands of rank 1 or 2, contracting lhs's last dimension
    with rhs's first."""
    for name, s in (("lhs", lhs), ("rhs", rhs)):
        if not s.is_array or s.rank not in (1, 2):
            raise ShapeError(f"Dot requires operands of rank 1 or 2 (use DotGeneral otherwise); "
                             f"got {s} for {name} (operands {lhs} and {rhs}).")
    return DotDimensionNumbers((lhs.rank - 1,), (0,))


# --- DotGeneral -------------------------------------------------------------------------------
def DotGeneral(lhs: XlaOp, rhs: XlaOp, dimension_numbers, precision_config=None,
               preferred_element_type=None) -> XlaOp:
    """Sum of products over the contracting dimensions, batched over the batch dimensions;
    result dimensions are batch, lhs free, rhs free (spec: DotGeneral)."""
    b = builder_of("DotGeneral", lhs, rhs)
    return b.emit("DotGeneral", lambda: dot_general(lhs.value, rhs.value, dimension_numbers,
                                                    precision_config, preferred_element_type))


def dot_general_rule(lhs: Shape, rhs: Shape, dimension_numbers, preferred_element_type=None,
                     op_name: str = "DotGeneral") -> Shape:
    """The result shape of DotGeneral (XLA's ShapeInference::InferDotOpShape)."""
    dnums = DotDimensionNumbers.of(dimension_numbers)
    for name, s in (("lhs", lhs), ("rhs", rhs)):
        if not s.is_array:
            raise ShapeError(f"{op_name} requires array operands; got {s} for {name}.")
    if lhs.element_type != rhs.element_type:
        raise DTypeError(f"{op_name} requires operands of the same element type; got {lhs} and {rhs}.")
    et = lhs.element_type
    if not (et.is_integer or et.is_floating_point or et.is_complex):
        raise DTypeError(f"{op_name} requires integer, floating-point or complex operands; got {lhs}.")
    for side, shape, contracting, batch in (
            ("lhs", lhs, dnums.lhs_contracting_dimensions, dnums.lhs_batch_dimensions),
            ("rhs", rhs, dnums.rhs_contracting_dimensions, dnums.rhs_batch_dimensions)):
        for d in contracting + batch:
            if not 0 <= d < shape.rank:
                raise InvalidArgumentError(
                    f"{op_name} requires {side} contracting and batch dimensions in [0, {shape.rank}); "
                    f"got contracting {list(contracting)} and batch {list(batch)} for {shape}.")
        if len(set(contracting + batch)) != len(contracting + batch):
            raise InvalidArgumentError(
                f"{op_name} requires distinct {side} contracting and batch dimensions; "
                f"got contracting {list(contracting)} and batch {list(batch)} for {shape}.")
    for kind in ("contracting", "batch"):
        ldims = getattr(dnums, f"lhs_{kind}_dimensions")
        rdims = getattr(dnums, f"rhs_{kind}_dimensions")
        if len(ldims) != len(rdims):
            raise InvalidArgumentError(
                f"{op_name} requires as many lhs as rhs {kind} dimensions; got {list(ldims)} "
                f"and {list(rdims)}.")
        lsizes = tuple(lhs.dimensions[d] for d in ldims)
        rsizes = tuple(rhs.dimensions[d] for d in rdims)
        if lsizes != rsizes:
            raise ShapeError(
                f"{op_name} requires {kind} dimensions to have the same shape; got {lsizes} and "
                f"{rsizes} (lhs {lhs} dimensions {list(ldims)}, rhs {rhs} dimensions {list(rdims)}).")
    result_type = _result_type(op_name, lhs, preferred_element_type)
    lhs_free = [d for d in range(lhs.rank)
                if d not in dnums.lhs_contracting_dimensions + dnums.lhs_batch_dimensions]
    rhs_free = [d for d in range(rhs.rank)
                if d not in dnums.rhs_contracting_dimensions + dnums.rhs_batch_dimensions]
    dims = ([lhs.dimensions[d] for d in dnums.lhs_batch_dimensions]
            + [lhs.dimensions[d] for d in lhs_free] + [rhs.dimensions[d] for d in rhs_free])
    return Shape.array_shape(result_type, dims)


def _result_type(op_name: str, operand: Shape, preferred_element_type) -> PrimitiveType:
    """The operands' type, or ``preferred_element_type`` where XLA and JAX allow it:
    integer -> integer of the same signedness or floating point, floating point ->
    floating point, complex -> complex; never narrower for non-floating operands."""
    et = operand.element_type
    if preferred_element_type is None:
        return et
    preferred = _types.from_dtype(preferred_element_type)
    if preferred == et:
        return et
    compatible = ((et.is_integer and (preferred.is_integer or preferred.is_floating_point))
                  or (et.is_floating_point and preferred.is_floating_point)
                  or (et.is_complex and preferred.is_complex))
    if not compatible:
        raise DTypeError(
            f"{op_name} requires a preferred_element_type of a compatible kind (integer to integer or "
            f"floating point, floating point to floating point, complex to complex); got "
            f"{preferred.value} for operands of type {et.value}.")
    if et.is_integer and preferred.is_integer and et.is_signed_integer != preferred.is_signed_integer:
        raise DTypeError(f"{op_name} requires a preferred_element_type of the operands' signedness; "
                         f"got {preferred.value} for operands of type {et.value}.")
    if not et.is_floating_point and preferred.bit_width < et.bit_width:
        raise DTypeError(f"{op_name} requires a preferred_element_type no narrower than the operands'; "
                         f"got {preferred.value} for operands of type {et.value}.")
    return preferred


def dot_general(lhs: ir.Value, rhs: ir.Value, dimension_numbers, precision_config=None,
                preferred_element_type=None, op_name: str = "DotGeneral") -> ir.Value:
    """Emits ``stablehlo.dot_general``."""
    dnums = DotDimensionNumbers.of(dimension_numbers)
    result = dot_general_rule(_emit.shape_of(lhs), _emit.shape_of(rhs), dnums, preferred_element_type,
                              op_name)
    precisions = _precisions(op_name, precision_config)
    attrs = {"dot_dimension_numbers": _emit.parse_attr(dnums.attribute_text())}
    if precisions:
        attrs["precision_config"] = _emit.parse_attr(
            "[" + ", ".join(f"#stablehlo<precision {p.value}>" for p in precisions) + "]")
    return _emit.create("stablehlo.dot_general", [lhs, rhs], [_emit.type_of(result)], attrs).result
