"""Window ops: ReduceWindow (single and variadic), ReduceWindowWithGeneralPadding,
SelectAndScatter, SelectAndScatterWithGeneralPadding (spec: ReduceWindow,
SelectAndScatter), plus the window arithmetic that Conv shares.

A window slides over a base area: per dimension it has a size, a stride, (low, high)
padding (negative padding removes elements), a base dilation (holes between base
elements) and a window dilation (holes between window elements). The number of window
positions in a dimension is XLA's ``StridedBound``: with ``B`` the padded dilated base
and ``W`` the dilated window, ``0`` if ``W > B`` else ``(B - W) // stride + 1``.
``Padding.SAME`` / ``Padding.VALID`` become explicit pairs with XLA's ``MakePadding``.

Reducers, ``select`` and ``scatter`` are XlaComputations built with their own builders
and inlined into the op regions. ``stablehlo.select_and_scatter`` is rewritten before
IREE by the ``select-and-scatter-expander`` pass (IREE picks the last tied maximum and
rejects padded forms).
"""

from __future__ import annotations

import enum
import inspect
from typing import Callable, Sequence, Union

from iree.compiler import ir

from dialect_ops._args import bind_form, int_list
from dialect_ops.reduction import reduce_rule
from dialect_ops.tuple_ops import inline_untupled, tuple_
from hlo_mlir import _emit
from hlo_mlir.builder import XlaBuilder, XlaComputation, XlaOp, builder_of
from hlo_mlir.errors import HloMlirError, InvalidArgumentError, ShapeError
from hlo_mlir.shape import ProgramShape, Shape
from hlo_mlir.types import PrimitiveType

__all__ = ["Padding", "MakePadding", "window_output_dims",
           "ReduceWindow", "ReduceWindowWithGeneralPadding", "reduce_window_rule", "reduce_window",
           "SelectAndScatter", "SelectAndScatterWithGeneralPadding", "select_and_scatter_rule",
           "select_and_scatter"]


# --- window arithmetic ------------------------------------------------------------------------
class Padding(enum.Enum):
    """XLA's Padding: SAME pads so that a stride-1 window gives the input's size; VALID pads
    nothing and stops the window where it no longer fits."""

    SAME = "SAME"
    VALID = "VALID"


PaddingSpec = Union[Padding, str, Sequence[Sequence[int]]]


def _padding_enum(op_name: str, padding) -> Padding | None:
    """``padding`` as a Padding when it names one, None when it is a list of pairs."""
    if isinstance(padding, Padding):
        return padding
    if isinstance(padding, str):
        if padding.upper() not in Padding.__members__:
            raise InvalidArgumentError(f"{op_name} requires padding SAME, VALID or (low, high) pairs; "
                                       f"got {padding!r}.")
        return Padding[padding.upper()]
    return None


def MakePadding(input_dimensions: Sequence[int], window_dimensions: Sequence[int],
                window_strides: Sequence[int], padding) -> list[tuple[int, int]]:
    """(low, high) pairs for ``padding`` (XLA's MakePadding): VALID is no padding; SAME gives
    ``ceil(input / stride)`` positions, splitting the needed padding with the extra element
    on the high side (TensorFlow's convention), never negative."""
    kind = _padding_enum("MakePadding", padding)
    if kind is None:
        raise InvalidArgumentError(f"MakePadding requires Padding.SAME or Padding.VALID; got {padding!r}.")
    dims = int_list("MakePadding", "input_dimensions", input_dimensions)
    window = int_list("MakePadding", "window_dimensions", window_dimensions)
    strides = int_list("MakePadding", "window_strides", window_strides)
    if not len(dims) == len(window) == len(strides):
        raise InvalidArgumentError(
            f"MakePadding requires as many window dimensions and strides as input dimensions; got input "
            f"{dims}, window_dimensions {window} and window_strides {strides}.")
    if any(s < 1 for s in strides):
        raise InvalidArgumentError(f"MakePadding requires positive window_strides; got {strides}.")
    if kind is Padding.VALID:
        return [(0, 0)] * len(dims)
    pairs = []
    for size, w, stride in zip(dims, window, strides, strict=True):
        output = -(-size // stride)
        total = max((output - 1) * stride + w - size, 0)
        pairs.append((total // 2, total - total // 2))
    return pairs


def _padding_pairs(op_name: str, padding, rank: int) -> list[tuple[int, int]]:
    """Explicit ``(low, high)`` pairs, one per dimension."""
    try:
        pairs = [tuple(int_list(op_name, "padding", p)) for p in padding]
    except TypeError:
        pairs = None
    if pairs is None or any(len(p) != 2 for p in pairs):
        raise InvalidArgumentError(f"{op_name} requires padding as (low, high) pairs; got {padding!r}.")
    if len(pairs) != rank:
        raise InvalidArgumentError(
            f"{op_name} requires one (low, high) padding pair per window dimension ({rank}); got {pairs}.")
    return [(lo, hi) for lo, hi in pairs]


def _resolve_padding(op_name: str, padding: PaddingSpec, base: Sequence[int], window: Sequence[int],
                     strides: Sequence[int]) -> list[tuple[int, int]]:
    if _padding_enum(op_name, padding) is not None:
        if any(s < 1 for s in strides):
            raise InvalidArgumentError(f"{op_name} requires positive window_strides; got {list(strides)}.")
        return MakePadding(base, window, strides, padding)
    return _padding_pairs(op_name, padding, len(base))


def _require_pairs(op_name: str, padding, enum_form: str) -> None:
    """The general-padding forms take (low, high) pairs; SAME/VALID belong to ``enum_form``."""
    if _padding_enum(op_name, padding) is not None:
        raise InvalidArgumentError(f"{op_name} requires (low, high) padding pairs; got {padding!r} "
                                   f"(use {enum_form} for SAME/VALID).")


def _dilated(size: int, dilation: int) -> int:
    """XLA's DilatedBound: ``dilation - 1`` holes between neighbours."""
    return 0 if size == 0 else (size - 1) * dilation + 1


def window_output_dims(op_name: str, base: Sequence[int], window_dimensions: Sequence[int],
                       window_strides: Sequence[int], padding: Sequence[tuple[int, int]],
                       base_dilations: Sequence[int] | None = None,
                       window_dilations: Sequence[int] | None = None, what: str = "operand") -> list[int]:
    """The number of window positions per dimension (XLA's InferWindowOutputShape)."""
    rank = len(base)
    fields = {"window_dimensions": window_dimensions, "window_strides": window_strides,
              "base_dilations": [1] * rank if base_dilations is None else base_dilations,
              "window_dilations": [1] * rank if window_dilations is None else window_dilations}
    values = {}
    for name, v in fields.items():
        values[name] = int_list(op_name, name, v)
        if len(values[name]) != rank:
            raise InvalidArgumentError(
                f"{op_name} requires one entry of {name} per {what} dimension ({rank}); got {values[name]}.")
        if any(x < 1 for x in values[name]):
            raise InvalidArgumentError(f"{op_name} requires positive {name}; got {values[name]}.")
    pairs = _padding_pairs(op_name, padding, rank)
    out = []
    for i, size in enumerate(base):
        padded = pairs[i][0] + _dilated(size, values["base_dilations"][i]) + pairs[i][1]
        if padded < 0:
            raise ShapeError(
                f"{op_name} requires padding that leaves a non-negative base area; got padding {pairs[i]} "
                f"for {what} dimension {i} of size {size} (padded size {padded}).")
        w = _dilated(values["window_dimensions"][i], values["window_dilations"][i])
        out.append(0 if w > padded else (padded - w) // values["window_strides"][i] + 1)
    return out


def _padding_attr(pairs: Sequence[tuple[int, int]]) -> ir.Attribute:
    return _emit.dense_i64_elements([x for p in pairs for x in p], (len(pairs), 2))


def _renamed(op_name: str, fn: Callable, *args):
    """Runs a rule written for Reduce, naming ``op_name`` in its error instead."""
    try:
        return fn(*args)
    except HloMlirError as e:
        raise type(e)(e.message.replace("Reduce requires", f"{op_name} requires", 1)) from None


def _variadic_dispatch(op_name: str, single: Callable, variadic: Callable, args, kwargs):
    """Calls ``variadic`` when the first argument is a builder (XLA's span form), else ``single``."""
    form = variadic if (bool(args) and isinstance(args[0], XlaBuilder)) or "builder" in kwargs else single
    single_args, variadic_args = (list(inspect.signature(f).parameters) for f in (single, variadic))
    return bind_form(op_name, form, args, kwargs, f"the arguments {single_args} or {variadic_args}")


def _computation(op_name: str, what: str, computation) -> ProgramShape:
    if not isinstance(computation, XlaComputation):
        raise InvalidArgumentError(
            f"{op_name} requires an XlaComputation {what}; got {type(computation).__name__}.")
    return computation.program_shape()


# --- ReduceWindow ---------------------------------------------------------------------------------
def ReduceWindow(*args, **kwargs) -> XlaOp:
    """Reduces every window of N arrays with a reducer (spec: ReduceWindow).

    ``ReduceWindow(operand, init_value, computation, window_dimensions, window_strides,
    padding)`` returns an array; ``ReduceWindow(builder, operands, init_values, computation,
    window_dimensions, window_strides, padding)`` returns a tuple of N arrays. ``padding``
    is ``Padding.SAME``/``"SAME"``, ``"VALID"`` or (low, high) pairs; padded positions hold
    the init values.
    """
    return _variadic_dispatch("ReduceWindow", _reduce_window_single, _reduce_window_variadic, args, kwargs)


def ReduceWindowWithGeneralPadding(*args, **kwargs) -> XlaOp:
    """ReduceWindow with explicit (low, high) padding and base/window dilations (spec:
    ReduceWindow): ``(operand, init_value, computation, window_dimensions, window_strides,
    base_dilations, window_dilations, padding)``, or ``builder, operands, init_values, ...``
    for the variadic form."""
    return _variadic_dispatch("ReduceWindowWithGeneralPadding", _general_reduce_window_single,
                              _general_reduce_window_variadic, args, kwargs)


def _reduce_window_single(operand, init_value, computation, window_dimensions, window_strides, padding):
    b = builder_of("ReduceWindow", operand, init_value)
    return _reduce_window_variadic(b, [operand], [init_value], computation, window_dimensions,
                                   window_strides, padding)


def _reduce_window_variadic(builder, operands, init_values, computation, window_dimensions, window_strides,
                            padding):
    return _reduce_window(builder, list(operands), list(init_values), computation, window_dimensions,
                          window_strides, None, None, padding)


def _general_reduce_window_single(operand, init_value, computation, window_dimensions, window_strides,
                                  base_dilations, window_dilations, padding):
    b = builder_of("ReduceWindow", operand, init_value)
    _require_pairs("ReduceWindowWithGeneralPadding", padding, "ReduceWindow")
    return _reduce_window(b, [operand], [init_value], computation, window_dimensions, window_strides,
                          base_dilations, window_dilations, padding)


def _general_reduce_window_variadic(builder, operands, init_values, computation, window_dimensions,
                                    window_strides, base_dilations, window_dilations, padding):
    _require_pairs("ReduceWindowWithGeneralPadding", padding, "ReduceWindow")
    return _reduce_window(builder, list(operands), list(init_values), computation, window_dimensions,
                          window_strides, base_dilations, window_dilations, padding)


def _reduce_window(b: XlaBuilder, operands: list[XlaOp], init_values: list[XlaOp], computation,
                   window_dimensions, window_strides, base_dilations, window_dilations, padding) -> XlaOp:
    if not operands:
        raise InvalidArgumentError("ReduceWindow requires at least one operand; got none.")
    if builder_of("ReduceWindow", *operands, *init_values) is not b:
        raise InvalidArgumentError(f"ReduceWindow requires operands of the builder it is given ({b.name!r}); "
                                   f"got operands of {operands[0].builder.name!r}.")

    def emit():
        reducer = _computation("ReduceWindow", "reducer", computation)
        base = operands[0].shape
        if not base.is_array:
            raise ShapeError(f"ReduceWindow requires array operands; got {base}.")
        window = int_list("ReduceWindow", "window_dimensions", window_dimensions)
        strides = int_list("ReduceWindow", "window_strides", window_strides)
        if len(window) != base.rank:
            raise InvalidArgumentError(f"ReduceWindow requires one window dimension per operand dimension; "
                                       f"got window_dimensions {window} for operand {base}.")
        pairs = _resolve_padding("ReduceWindow", padding, base.dimensions, window, strides)
        results = reduce_window([x.value for x in operands], [x.value for x in init_values], window, strides,
                                base_dilations, window_dilations, pairs,
                                lambda block: inline_untupled(b, computation, block), reducer)
        return results[0] if len(results) == 1 else tuple_(results)

    return b.emit("ReduceWindow", emit)


def reduce_window_rule(operands: Sequence[Shape], init_values: Sequence[Shape],
                       window_dimensions: Sequence[int], window_strides: Sequence[int],
                       base_dilations: Sequence[int] | None,
                       window_dilations: Sequence[int] | None, padding: Sequence[tuple[int, int]],
                       reducer: ProgramShape | None = None) -> list[Shape]:
    """The N result shapes of ReduceWindow: one dimension per window position, of the init
    values' types (XLA's ShapeInference::InferReduceWindowShape)."""
    # Operands, init values and reducer follow Reduce's rules (nothing reduced away here).
    _renamed("ReduceWindow", reduce_rule, operands, init_values, [], reducer)
    dims = window_output_dims("ReduceWindow", operands[0].dimensions, window_dimensions, window_strides,
                              padding, base_dilations, window_dilations)
    return [Shape.array_shape(s.element_type, dims) for s in init_values]


def reduce_window(operands: Sequence[ir.Value], init_values: Sequence[ir.Value],
                  window_dimensions: Sequence[int], window_strides: Sequence[int],
                  base_dilations: Sequence[int] | None,
                  window_dilations: Sequence[int] | None, padding: Sequence[tuple[int, int]],
                  body: Callable[[ir.Block], None], reducer: ProgramShape | None = None) -> list[ir.Value]:
    """Emits ``stablehlo.reduce_window``; ``body(block)`` fills its region (N accumulators then
    N inputs, all 0-d tensors) and ends it with ``stablehlo.return``."""
    shapes = reduce_window_rule(_emit.shapes_of(operands), _emit.shapes_of(init_values), window_dimensions,
                                window_strides, base_dilations, window_dilations, padding, reducer)
    rank = len(window_dimensions)
    scalars = [_emit.type_of(Shape.scalar_shape(s.element_type)) for s in shapes]
    op, (block,) = _emit.create_with_region(
        "stablehlo.reduce_window", list(operands) + list(init_values), [_emit.type_of(s) for s in shapes],
        {"window_dimensions": _emit.i64_array(window_dimensions),
         "window_strides": _emit.i64_array(window_strides),
         "base_dilations": _emit.i64_array(base_dilations or [1] * rank),
         "window_dilations": _emit.i64_array(window_dilations or [1] * rank),
         "padding": _padding_attr(padding)}, [scalars * 2])
    body(block)
    return list(op.results)


# --- SelectAndScatter -----------------------------------------------------------------------------
def SelectAndScatter(operand: XlaOp, select: XlaComputation, window_dimensions: Sequence[int],
                     window_strides: Sequence[int], padding, source: XlaOp, init_value: XlaOp,
                     scatter: XlaComputation) -> XlaOp:
    """Selects one element per window of ``operand`` with ``select`` and combines each
    ``source`` element into the output at its window's selected index with ``scatter``;
    the output starts as ``init_value`` everywhere (spec: SelectAndScatter). ``padding``
    is SAME, VALID or (low, high) pairs; padded positions are never selected."""
    return _select_and_scatter("SelectAndScatter", operand, select, window_dimensions, window_strides,
                               padding,
                               source, init_value, scatter)


def SelectAndScatterWithGeneralPadding(operand: XlaOp, select: XlaComputation,
                                       window_dimensions: Sequence[int],
                                       window_strides: Sequence[int], padding: Sequence[Sequence[int]],
                                       source: XlaOp, init_value: XlaOp, scatter: XlaComputation) -> XlaOp:
    """SelectAndScatter with explicit (low, high) padding pairs (spec: SelectAndScatter)."""
    _require_pairs("SelectAndScatterWithGeneralPadding", padding, "SelectAndScatter")
    return _select_and_scatter("SelectAndScatterWithGeneralPadding", operand, select, window_dimensions,
                               window_strides, padding, source, init_value, scatter)


def _select_and_scatter(op_name, operand, select, window_dimensions, window_strides, padding, source,
                        init_value, scatter) -> XlaOp:
    b = builder_of(op_name, operand, source, init_value)

    def emit():
        select_shape = _computation(op_name, "select", select)
        scatter_shape = _computation(op_name, "scatter", scatter)
        window = int_list(op_name, "window_dimensions", window_dimensions)
        strides = int_list(op_name, "window_strides", window_strides)
        if not operand.shape.is_array or len(window) != operand.shape.rank:
            raise InvalidArgumentError(f"{op_name} requires one window dimension per operand dimension; "
                                       f"got window_dimensions {window} for operand {operand.shape}.")
        pairs = _resolve_padding(op_name, padding, operand.shape.dimensions, window, strides)
        return select_and_scatter(operand.value, source.value, init_value.value, window, strides, pairs,
                                  lambda block: b.inline_computation(select, block),
                                  lambda block: b.inline_computation(scatter, block),
                                  select_shape, scatter_shape, op_name)

    return b.emit(op_name, emit)


def select_and_scatter_rule(operand: Shape, source: Shape, init_value: Shape,
                            window_dimensions: Sequence[int],
                            window_strides: Sequence[int], padding: Sequence[tuple[int, int]],
                            select: ProgramShape | None = None, scatter: ProgramShape | None = None,
                            op_name: str = "SelectAndScatter") -> Shape:
    """The result shape (the operand's) of SelectAndScatter; ``source`` must have the shape of
    the window positions (XLA's ShapeInference::InferSelectAndScatterShape)."""
    if not operand.is_array:
        raise ShapeError(f"{op_name} requires an array operand; got {operand}.")
    t = operand.element_type
    if not init_value.is_scalar or init_value.element_type != t:
        raise ShapeError(f"{op_name} requires a scalar init_value of the operand's element type; got "
                         f"{init_value} for operand {operand}.")
    scalar = Shape.scalar_shape(t)
    if select is not None:
        want = ProgramShape([scalar, scalar], Shape.scalar_shape(PrimitiveType.PRED))
        if len(select.parameters) != 2 or not all(p.compatible(scalar) for p in select.parameters) \
                or not select.result.compatible(want.result):
            raise InvalidArgumentError(
                f"{op_name} requires a select computation of shape {want}; got {select}.")
    if scatter is not None:
        want = ProgramShape([scalar, scalar], scalar)
        if len(scatter.parameters) != 2 or not all(p.compatible(scalar) for p in scatter.parameters) \
                or not scatter.result.compatible(scalar):
            raise InvalidArgumentError(
                f"{op_name} requires a scatter computation of shape {want}; got {scatter}.")
    dims = window_output_dims(op_name, operand.dimensions, window_dimensions, window_strides, padding)
    expected = Shape.array_shape(t, dims)
    if not source.is_array or not source.compatible(expected):
        raise ShapeError(f"{op_name} requires a source of the window positions' shape {expected}; got "
                         f"{source} for operand {operand}, window_dimensions {list(window_dimensions)}, "
                         f"window_strides {list(window_strides)} and padding {[tuple(p) for p in padding]}.")
    return operand


def select_and_scatter(operand: ir.Value, source: ir.Value, init_value: ir.Value,
                       window_dimensions: Sequence[int],
                       window_strides: Sequence[int], padding: Sequence[tuple[int, int]],
                       select_body: Callable[[ir.Block], None], scatter_body: Callable[[ir.Block], None],
                       select: ProgramShape | None = None, scatter: ProgramShape | None = None,
                       op_name: str = "SelectAndScatter") -> ir.Value:
    """Emits ``stablehlo.select_and_scatter``; the two body callbacks fill the select and
    scatter regions (two 0-d tensor arguments each)."""
    result = select_and_scatter_rule(_emit.shape_of(operand), _emit.shape_of(source),
                                     _emit.shape_of(init_value),
                                     window_dimensions, window_strides, padding, select, scatter, op_name)
    scalar = _emit.type_of(Shape.scalar_shape(result.element_type))
    op, (select_block, scatter_block) = _emit.create_with_region(
        "stablehlo.select_and_scatter", [operand, source, init_value], [_emit.type_of(result)],
        {"window_dimensions": _emit.i64_array(window_dimensions),
         "window_strides": _emit.i64_array(window_strides),
         "padding": _padding_attr(padding)}, [[scalar, scalar], [scalar, scalar]])
    select_body(select_block)
    scatter_body(scatter_block)
    return op.result
