"""Sorting: Sort (single and multi-operand) and TopK, plus XLA's comparator builders
(spec: Sort; XLA's client library ``comparators.h`` and ``TopK``).

The comparator of ``Sort`` is an XlaComputation built with its own builder, as in XLA:
for N operands it takes 2N scalars, parameter ``2k`` the element at position i of
operand k and ``2k + 1`` the element at position j, and returns PRED "i goes before j".
``stablehlo.sort`` gets it inlined into its region. One operand gives an array, several
give one tuple-shaped XlaOp (read it with GetTupleElement), as XLA's builder does.

``CreateScalarLtComputation`` / ``CreateScalarGtComputation`` compare the first operand
only, floats under XLA's total order ``-NaN < -Inf < -Finite < -0 < +0 < +Finite < +Inf
< +NaN``. ``TopK`` emits ``chlo.top_k`` (largest) like XLA's MLIR bridge, or the sort
form XLA's TopkDecomposer uses (smallest): values compared under the total order, ties
broken by the lower index.
"""

from __future__ import annotations

from typing import Callable, Sequence

from iree.compiler import ir

from dialect_ops._args import int_arg, same_dimensions
from dialect_ops.elementwise import And, Compare, Select, binary, compare
from dialect_ops.shape_ops import iota
from dialect_ops.side_effects import optimization_barrier
from dialect_ops.slicing import slice_
from dialect_ops.tuple_ops import tuple_
from hlo_mlir import _emit
from hlo_mlir import types as _types
from hlo_mlir.builder import Parameter, XlaBuilder, XlaComputation, XlaOp, builder_of
from hlo_mlir.errors import DTypeError, InvalidArgumentError, ShapeError
from hlo_mlir.shape import ProgramShape, Shape
from hlo_mlir.types import PrimitiveType

__all__ = ["Sort", "sort", "sort_rule", "comparator_rule",
           "CreateScalarComparisonComputation", "CreateScalarLtComputation", "CreateScalarGtComputation",
           "TopK", "top_k", "top_k_rule", "top_k_by_sort", "total_order_compare", "index_type_for"]


# --- Sort ----------------------------------------------------------------------------------------
def Sort(operands: Sequence[XlaOp], comparator: XlaComputation, dimension: int = -1,
         is_stable: bool = False) -> XlaOp:
    """Sorts N same-shaped arrays together along ``dimension`` by ``comparator`` (spec: Sort).

    ``comparator(lhs_0, rhs_0, ..., lhs_{N-1}, rhs_{N-1})`` returns PRED "lhs goes first";
    ``dimension`` counts from the end when negative (-1, the default, is the last).
    ``is_stable`` keeps the order of elements the comparator calls equal. One operand
    gives the sorted array; N > 1 give a tuple of the N sorted arrays.
    """
    operands = [operands] if isinstance(operands, XlaOp) else list(operands)
    if not operands:
        raise InvalidArgumentError("Sort requires at least one operand; got none.")
    b = builder_of("Sort", *operands)

    def emit():
        if not isinstance(comparator, XlaComputation):
            raise InvalidArgumentError(
                f"Sort requires an XlaComputation comparator; got {type(comparator).__name__}.")
        results = sort([x.value for x in operands], dimension, is_stable,
                       lambda block: b.inline_computation(comparator, block), comparator.program_shape())
        return results[0] if len(results) == 1 else tuple_(results)

    return b.emit("Sort", emit)


def sort_rule(operands: Sequence[Shape], dimension: int, comparator: ProgramShape | None = None
              ) -> tuple[list[Shape], int]:
    """The result shapes of Sort (the operands') and ``dimension`` made non-negative.

    Operands are N >= 1 arrays of rank >= 1 and one set of dimensions (element types may
    differ); ``dimension`` is in [-rank, rank). ``comparator`` is checked when given.
    """
    if not operands:
        raise InvalidArgumentError("Sort requires at least one operand; got none.")
    same_dimensions("Sort", operands)
    rank = operands[0].rank
    if rank == 0:
        raise ShapeError(f"Sort requires operands of rank >= 1; got {operands[0]}.")
    d = int_arg("Sort", "dimension", dimension)
    if not -rank <= d < rank:
        raise InvalidArgumentError(
            f"Sort requires dimension in [{-rank}, {rank}); got {d} for operand {operands[0]}.")
    if comparator is not None:
        comparator_rule(comparator, [s.element_type for s in operands])
    return list(operands), d % rank


def comparator_rule(comparator: ProgramShape, element_types: Sequence[PrimitiveType],
                    op_name: str = "Sort") -> None:
    """Checks a comparator of N operands: parameters (T_0, T_0, ..., T_{N-1}, T_{N-1}) of
    scalars, T_k the element type of operand k, and a PRED scalar result."""
    n = len(element_types)
    expected = ProgramShape([Shape.scalar_shape(t) for t in element_types for _ in (0, 1)],
                            Shape.scalar_shape(PrimitiveType.PRED))
    if len(comparator.parameters) != 2 * n:
        raise InvalidArgumentError(
            f"{op_name} requires a comparator of {2 * n} parameters for {n} operand(s), of shape "
            f"{expected}; got {len(comparator.parameters)} parameters: {comparator}.")
    for i, (param, want) in enumerate(zip(comparator.parameters, expected.parameters, strict=True)):
        if not param.is_scalar:
            raise ShapeError(f"{op_name} requires scalar comparator parameters, of shape {expected}; "
                             f"got {param} for parameter {i}: {comparator}.")
        if param.element_type != want.element_type:
            side = "lhs" if i % 2 == 0 else "rhs"
            raise DTypeError(f"{op_name} requires comparator parameter {i} (the {side} of operand {i // 2}) "
                             f"to be {want}; got {param}: {comparator}.")
    result = comparator.result
    if not (result.is_array and result.is_scalar and result.element_type is PrimitiveType.PRED):
        raise DTypeError(f"{op_name} requires a comparator returning a PRED scalar, of shape {expected}; "
                         f"got {comparator}.")


def sort(operands: Sequence[ir.Value], dimension: int, is_stable: bool,
         body: Callable[[ir.Block], None], comparator: ProgramShape | None = None) -> list[ir.Value]:
    """Emits ``stablehlo.sort``; ``body(block)`` fills its comparator region, whose arguments
    are (lhs, rhs) scalar pairs per operand, and ends it with ``stablehlo.return``."""
    shapes, d = sort_rule(_emit.shapes_of(operands), dimension, comparator)
    scalar_types = [_emit.type_of(Shape.scalar_shape(s.element_type)) for s in shapes for _ in (0, 1)]
    op, (block,) = _emit.create_with_region(
        "stablehlo.sort", list(operands), [_emit.type_of(s) for s in shapes],
        {"dimension": _emit.i64_attr(d), "is_stable": _emit.i1_attr(bool(is_stable))}, [scalar_types])
    body(block)
    return list(op.results)


# --- comparator builders (XLA's comparators.h) --------------------------------------------------
Generator = Callable[[XlaOp, XlaOp], XlaOp]


def _compare_type(element_type: PrimitiveType) -> str | None:
    """XLA's *TotalOrder comparisons: the total order for floats, the default otherwise."""
    return "TOTALORDER" if element_type.is_floating_point else None


def total_order_compare(lhs: ir.Value, rhs: ir.Value, direction: str) -> ir.Value:
    """``compare`` in ``direction``, under the total order for floating-point operands."""
    return compare(lhs, rhs, direction, _compare_type(_emit.shape_of(lhs).element_type))


def _total_order(direction: str) -> Generator:
    def generator(lhs: XlaOp, rhs: XlaOp) -> XlaOp:
        return Compare(lhs, rhs, direction=direction, compare_type=_compare_type(lhs.shape.element_type))

    generator.__name__ = f"{direction.capitalize()}TotalOrder"
    return generator


def CreateScalarComparisonComputation(name: str, operand_types: Sequence,
                                      generators: Sequence[Generator | None],
                                      builder: XlaBuilder | None = None) -> XlaComputation:
    """A lexicographic comparator for Sort: operand k with ``generators[k]`` (None: skipped),
    each later one deciding only where all earlier compared operands are equal under the
    total order (XLA's CreateScalarComparisonComputation)."""
    types = [_types.from_dtype(t) for t in operand_types]
    if not types:
        raise InvalidArgumentError(f"{name} requires at least one operand type; got none.")
    generators = list(generators)
    if len(generators) != len(types) or not any(g is not None for g in generators):
        raise InvalidArgumentError(
            f"{name} requires one generator (or None) per operand type and at least one generator; "
            f"got {len(generators)} for {len(types)} operand types.")
    b = builder.create_sub_builder(name) if builder is not None else XlaBuilder(name)
    params = [Parameter(b, 2 * k + side, Shape.scalar_shape(t), f"p.{k}.{'rhs' if side else 'lhs'}")
              for k, t in enumerate(types) for side in (0, 1)]
    last = max(k for k, g in enumerate(generators) if g is not None)
    result: XlaOp | None = None
    prev_equal: XlaOp | None = None
    for k, generator in enumerate(generators):
        if generator is None:
            continue
        lhs, rhs = params[2 * k], params[2 * k + 1]
        cmp = generator(lhs, rhs)
        result = cmp if prev_equal is None or result is None else Select(prev_equal, cmp, result)
        if k != last:
            eq = _total_order("EQ")(lhs, rhs)
            prev_equal = eq if prev_equal is None else And(prev_equal, eq)
    return b.build(result)


def CreateScalarLtComputation(operand_types: Sequence, builder: XlaBuilder | None = None) -> XlaComputation:
    """Comparator for an ascending Sort of operands of ``operand_types``: the first operand
    under the total order, the others carried along (XLA's CreateScalarLtComputation)."""
    generators = [_total_order("LT")] + [None] * (len(operand_types) - 1)
    return CreateScalarComparisonComputation("compare-less-than", operand_types, generators, builder)


def CreateScalarGtComputation(operand_types: Sequence, builder: XlaBuilder | None = None) -> XlaComputation:
    """Comparator for a descending Sort: the first operand under the total order, greater
    first (XLA's CreateScalarGtComputation)."""
    generators = [_total_order("GT")] + [None] * (len(operand_types) - 1)
    return CreateScalarComparisonComputation("compare-greater-than", operand_types, generators, builder)


# --- TopK ----------------------------------------------------------------------------------------
def TopK(operand: XlaOp, k: int, largest: bool = True) -> XlaOp:
    """The ``k`` largest (or smallest) elements along the last dimension and their S32
    indices, as a tuple (values, indices); values are ordered under the total order,
    equal values by lower index first (XLA's TopK)."""
    b = builder_of("TopK", operand)

    def emit():
        if not isinstance(largest, bool):
            raise InvalidArgumentError(f"TopK requires a bool largest; got {largest!r}.")
        if largest:
            return tuple_(top_k(operand.value, k))
        return tuple_(top_k_by_sort(operand.value, k, largest=False))

    return b.emit("TopK", emit)


def top_k_rule(operand: Shape, k: int) -> tuple[Shape, Shape]:
    """TopK: an array of rank >= 1, ``0 <= k <=`` its last dimension; results (values, S32
    indices) with the last dimension ``k`` (XLA's ShapeInference::InferTopKShape)."""
    if not operand.is_array or operand.rank == 0:
        raise ShapeError(f"TopK requires an array operand of rank >= 1; got {operand}.")
    k = int_arg("TopK", "k", k)
    last = operand.dimensions[-1]
    if not 0 <= k <= last:
        raise InvalidArgumentError(f"TopK requires 0 <= k <= {last} (the last dimension); got k={k} "
                                   f"for operand {operand}.")
    if operand.element_type.is_complex or operand.element_type.is_pred:
        raise DTypeError(f"TopK requires an integer or floating-point operand; got {operand}.")
    dims = operand.dimensions[:-1] + (k,)
    return operand.with_dimensions(dims), Shape.array_shape(PrimitiveType.S32, dims)


def top_k(operand: ir.Value, k: int) -> list[ir.Value]:
    """Emits ``chlo.top_k`` (the k largest along the last dimension): [values, indices]."""
    values, indices = top_k_rule(_emit.shape_of(operand), k)
    return list(_emit.create("chlo.top_k", [operand], [_emit.type_of(values), _emit.type_of(indices)],
                             {"k": _emit.i64_attr(k)}).results)


def index_type_for(size: int) -> PrimitiveType:
    """S32 indices where they fit (XLA's choice), S64 beyond."""
    return PrimitiveType.S32 if size < 2**31 else PrimitiveType.S64


def top_k_by_sort(operand: ir.Value, k: int, largest: bool = True) -> list[ir.Value]:
    """TopK as XLA's TopkDecomposer writes it: sort (operand, iota) along the last dimension,
    values under the total order (greater first when ``largest``) and ties by lower index,
    then slice the first ``k``. The comparator is a strict total order, so the sort needs
    no stability."""
    values_shape, indices_shape = top_k_rule(_emit.shape_of(operand), k)
    shape = _emit.shape_of(operand)
    last = shape.rank - 1
    index = iota(shape.with_element_type(PrimitiveType.S32), last)

    def body(block: ir.Block) -> None:
        a, b, ia, ib = block.arguments
        with ir.InsertionPoint(block):
            first = total_order_compare(a, b, "GT" if largest else "LT")
            tie = binary("And", total_order_compare(a, b, "EQ"), compare(ia, ib, "LT"))
            _emit.region_return([binary("Or", first, tie)])

    # The barrier keeps IREE from raising sort(x, iota) + slice back into its own top-k,
    # which ignores the total order and the tie order.
    sorted_values, sorted_index = optimization_barrier(sort([operand, index], last, False, body))
    starts, limits = [0] * shape.rank, list(values_shape.dimensions)
    return [slice_(sorted_values, starts, limits, [1] * shape.rank),
            slice_(sorted_index, starts, limits, [1] * shape.rank)]
