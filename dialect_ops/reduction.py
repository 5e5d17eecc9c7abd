"""Reductions: Reduce (single and variadic) and ReducePrecision (spec: Reduce,
ReducePrecision).

The reducer of ``Reduce`` is an XlaComputation built with its own builder, as in XLA;
``stablehlo.reduce`` gets it inlined into its region. As in XLA, the variadic form
returns one tuple-shaped XlaOp (read it with GetTupleElement); the emit function
``reduce`` returns the N results of ``stablehlo.reduce``.
"""

from __future__ import annotations

from typing import Callable, Sequence

from iree.compiler import ir

from dialect_ops._args import bind_form, dimension_list, int_arg, same_dimensions
from dialect_ops.tuple_ops import inline_untupled, tuple_
from hlo_mlir import _emit
from hlo_mlir.builder import XlaBuilder, XlaComputation, XlaOp, builder_of
from hlo_mlir.errors import DTypeError, InvalidArgumentError, ShapeError
from hlo_mlir.shape import ProgramShape, Shape

__all__ = ["Reduce", "ReducePrecision", "reduce_rule", "reduce_operands_rule", "reducer_rule", "reduce",
           "reduce_precision_rule", "reduce_precision"]


# --- Reduce -------------------------------------------------------------------------------------
def _single_reduce(operand: XlaOp, init_value: XlaOp, computation: XlaComputation,
                   dimensions_to_reduce: Sequence[int]) -> XlaOp:
    return _reduce(builder_of("Reduce", operand, init_value), [operand], [init_value], computation,
                   dimensions_to_reduce)


def _variadic_reduce(builder: XlaBuilder, operands: Sequence[XlaOp], init_values: Sequence[XlaOp],
                     computation: XlaComputation, dimensions_to_reduce: Sequence[int]) -> XlaOp:
    operands, init_values = list(operands), list(init_values)
    if not operands:
        raise InvalidArgumentError("Reduce requires at least one operand; got none.")
    if builder_of("Reduce", *operands, *init_values) is not builder:
        raise InvalidArgumentError(f"Reduce requires operands of the builder it is given "
                                   f"({builder.name!r}); got operands of {operands[0].builder.name!r}.")
    return _reduce(builder, operands, init_values, computation, dimensions_to_reduce)


def Reduce(*args, **kwargs) -> XlaOp:
    """Reduces dimensions of N arrays at once with a reducer computation (spec: Reduce).

    ``Reduce(operand, init_value, computation, dimensions_to_reduce)`` returns an array;
    ``Reduce(builder, operands, init_values, computation, dimensions_to_reduce)`` returns a
    tuple of N arrays. The reducer takes N accumulators then N inputs (all scalars) and
    returns N scalars (a tuple when N > 1). The result keeps the operand dimensions not
    reduced, in order; an empty reduced dimension gives the init value.
    """
    variadic = (bool(args) and isinstance(args[0], XlaBuilder)) or "builder" in kwargs
    form = _variadic_reduce if variadic else _single_reduce
    return bind_form("Reduce", form, args, kwargs,
                     "(operand, init_value, computation, dimensions_to_reduce) or (builder, operands, "
                     "init_values, computation, dimensions_to_reduce)")


def _reduce(b: XlaBuilder, operands: list[XlaOp], init_values: list[XlaOp], computation: XlaComputation,
            dimensions: Sequence[int]) -> XlaOp:
    def emit():
        if not isinstance(computation, XlaComputation):
            raise InvalidArgumentError(
                f"Reduce requires an XlaComputation reducer; got {type(computation).__name__}.")
        results = reduce([x.value for x in operands], [x.value for x in init_values], dimensions,
                         lambda block: inline_untupled(b, computation, block), computation.program_shape())
        return results[0] if len(results) == 1 else tuple_(results)

    return b.emit("Reduce", emit)


def reduce_rule(operands: Sequence[Shape], init_values: Sequence[Shape], dimensions: Sequence[int],
                reducer: ProgramShape | None = None) -> list[Shape]:
    """The N result shapes of Reduce: the operands' dimensions without ``dimensions``, of the
    init values' element types. ``reducer`` (the computation's program shape) is checked
    when given (XLA's ShapeInference::InferReduceShape and VerifyReducerShape)."""
    reduce_operands_rule(operands, init_values)
    dims = dimension_list("Reduce", "dimensions_to_reduce", dimensions, operands[0])
    if reducer is not None:
        reducer_rule(reducer, [s.element_type for s in operands])
    kept = [d for d in range(operands[0].rank) if d not in dims]
    sizes = [operands[0].dimensions[d] for d in kept]
    dynamic = [any(s.dynamic_dimensions[d] for s in operands) for d in kept]  # kept flags stay
    return [Shape.array_shape(init.element_type, sizes, dynamic) for init in init_values]


def reduce_operands_rule(operands: Sequence[Shape], init_values: Sequence[Shape],
                         op_name: str = "Reduce") -> None:
    """Checks N >= 1 arrays of one set of dimensions and N scalar init values of their
    element types (shared by the reducing ops: Reduce, ReduceWindow)."""
    n = len(operands)
    if n == 0:
        raise InvalidArgumentError(f"{op_name} requires at least one operand; got none.")
    if len(init_values) != n:
        raise InvalidArgumentError(
            f"{op_name} requires one init_value per operand; got {n} operands and "
            f"{len(init_values)} init_values.")
    same_dimensions(op_name, operands)
    for i, (s, init) in enumerate(zip(operands, init_values, strict=True)):
        if not init.is_scalar:
            raise ShapeError(f"{op_name} requires scalar init_values; got {init} for init_value {i}.")
        if init.element_type != s.element_type:
            raise DTypeError(f"{op_name} requires each init_value of its operand's element type; "
                             f"got {init} for operand {i} of shape {s}.")


def reducer_rule(reducer: ProgramShape, element_types: Sequence, op_name: str = "Reduce") -> None:
    """Checks a reducer of N inputs: parameters (T_0..T_{N-1}, T_0..T_{N-1}) of scalars, result
    T_0 (N = 1) or a tuple (T_0, ..., T_{N-1}) of scalars, T_i the operands' element types."""
    n = len(element_types)
    scalars = [Shape.scalar_shape(t) for t in element_types]
    expected = ProgramShape(scalars * 2, scalars[0] if n == 1 else Shape.tuple_shape(scalars))
    if len(reducer.parameters) != 2 * n:
        raise InvalidArgumentError(
            f"{op_name} requires a computation of {2 * n} parameters for {n} operand(s), of shape "
            f"{expected}; got {len(reducer.parameters)} parameters: {reducer}.")
    results = list(reducer.result.tuple_shapes) if reducer.result.is_tuple else [reducer.result]
    if len(results) != n or not all(s.is_scalar for s in results):
        raise ShapeError(f"{op_name} requires a computation returning {n} scalar(s), of shape "
                         f"{expected}; got {reducer}.")
    for i, (param, want) in enumerate(zip(reducer.parameters, scalars * 2, strict=True)):
        role = f"accumulator of operand {i}" if i < n else f"element of operand {i - n}"
        if not param.compatible(want):
            raise DTypeError(f"{op_name} requires computation parameter {i} (the {role}) to be {want}; "
                             f"got {reducer}.")
    for i, (result, want) in enumerate(zip(results, scalars, strict=True)):
        if not result.compatible(want):
            raise DTypeError(f"{op_name} requires computation result {i} to be {want}; got {reducer}.")


def reduce(operands: Sequence[ir.Value], init_values: Sequence[ir.Value], dimensions: Sequence[int],
           body: Callable[[ir.Block], None], reducer: ProgramShape | None = None) -> list[ir.Value]:
    """Emits ``stablehlo.reduce``; ``body(block)`` fills its region, whose arguments are the N
    accumulators then the N inputs, and ends it with ``stablehlo.return``."""
    shapes = reduce_rule(_emit.shapes_of(operands), _emit.shapes_of(init_values), dimensions, reducer)
    scalar_types = [_emit.type_of(Shape.scalar_shape(s.element_type)) for s in shapes]
    op, (block,) = _emit.create_with_region(
        "stablehlo.reduce", list(operands) + list(init_values), [_emit.type_of(s) for s in shapes],
        {"dimensions": _emit.i64_array(dimensions)}, [scalar_types * 2])
    body(block)
    return list(op.results)


# --- ReducePrecision ---------------------------------------------------------------------------
def ReducePrecision(operand: XlaOp, exponent_bits: int, mantissa_bits: int) -> XlaOp:
    """Rounds to ``mantissa_bits`` (ties to even) and clamps the range of ``exponent_bits`` to
    +-inf (underflow goes to signed zero); NaN stays NaN (spec: ReducePrecision)."""
    b = builder_of("ReducePrecision", operand)
    return b.emit("ReducePrecision", lambda: reduce_precision(operand.value, exponent_bits, mantissa_bits))


def reduce_precision_rule(operand: Shape, exponent_bits: int, mantissa_bits: int) -> Shape:
    if not operand.is_array or not operand.element_type.is_floating_point:
        raise DTypeError(f"ReducePrecision requires a floating-point operand; got {operand}.")
    # At least one exponent bit tells zero from infinity (both have a zero mantissa).
    if int_arg("ReducePrecision", "exponent_bits", exponent_bits) < 1:
        raise InvalidArgumentError(f"ReducePrecision requires exponent_bits >= 1; got {exponent_bits}.")
    if int_arg("ReducePrecision", "mantissa_bits", mantissa_bits) < 0:
        raise InvalidArgumentError(f"ReducePrecision requires mantissa_bits >= 0; got {mantissa_bits}.")
    return operand


def reduce_precision(operand: ir.Value, exponent_bits: int, mantissa_bits: int) -> ir.Value:
    """Emits ``stablehlo.reduce_precision``."""
    result = reduce_precision_rule(_emit.shape_of(operand), exponent_bits, mantissa_bits)
    return _emit.create("stablehlo.reduce_precision", [operand], [_emit.type_of(result)],
                        {"exponent_bits": _emit.parse_attr(f"{int(exponent_bits)} : i32"),
                         "mantissa_bits": _emit.parse_attr(f"{int(mantissa_bits)} : i32")}).result
