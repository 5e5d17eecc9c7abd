"""Indexed array analysis (spec 004: Indexed array analysis; XLA ``indexed_array_analysis.cc``):
which values are gathers in disguise.

Every value of a module is modelled as one of XLA's arrays:

- ``Unknown``: a value the analysis does not see through (printed ``%name``);
- ``Constant``: a known literal, from the module or computed by the analysis
  (``(constant s32[3,4])``);
- ``Reshaped``: a reshape of another array (``(reshape %x to s32[5])``);
- ``ScalarIndexed``: a gather of one dimension, ``(scalar-indexed SOURCE INDICES s->[o...])``;
  ``scalar-indexed-const`` when SOURCE is a constant. Element ``I`` of the result is
  element ``J`` of SOURCE, where ``I'`` is ``I`` without the components at the output dims
  ``o...``, ``T = clamp(INDICES[I at o...], 0, N-1)`` (``N`` the size of source dim ``s``),
  and ``J`` is ``I'`` with ``T`` inserted at position ``s``. With SOURCE ``f32[11,13,17,19]``,
  INDICES ``s32[23,29]``, ``2->[0,2]``: result ``f32[23,11,29,13,19]``, and ``[A,B,C,D,E]``
  reads ``SOURCE[B, D, INDICES[A,C], E]``.

What the analysis sees through (XLA's rules, and where marked, more):

- ``gather`` of any array whose one indexed dimension is collapsed and whose slice is the
  full operand elsewhere (XLA's "scalar indexed" gathers); indices with an explicit index
  vector dimension of size 1 (what JAX emits for ``x[idx]``) too, as a reshaped index
  array [extension]; a gather of such a gather over one of its output dims folds into one
  gather whose indices are themselves gathered (``Gather(Gather(A, X), Y) =
  Gather(A, Gather(X, Y))``);
- ``reshape`` of a constant (a constant), of a scalar-indexed constant where the reshape
  passes the output dims through (a scalar-indexed constant of a reshaped constant), of
  anything else (``Reshaped``);
- ``transpose`` of a constant (a constant) and of a scalar-indexed array whose output dims
  keep their order (a scalar-indexed array of a transposed source; a non-constant source
  only where it needs no transpose) [extension: XLA has no transpose rule];
- a unary element-wise op of a scalar-indexed constant (the op folded into the constant),
  and a binary one of a scalar-indexed constant with a ``broadcast_in_dim`` of a constant
  that is broadcast along the output dims, or [extension] with a constant that does not
  vary along them (StableHLO's splat constants);
- ``dot_general`` (and ``dot``) of an integer scalar-indexed constant whose one free dim is
  its output dim with a constant: a scalar-indexed constant of the folded dot. XLA's test
  expectations get the output dims of such a dot wrong (``DotOpBasic_1``, ``DotOpBasic_3``,
  ``DotOpWithBatch`` in ``indexed_array_analysis_test.cc`` name dims the result does not index
  that way; the unit tests here check the forms by evaluating them).

Constants are only computed where the fold is exact (``op_facts.fold_unary``/``fold_binary``,
data movement, integer dots), so every form evaluates bit for bit to its value
(:func:`evaluate`). The module never changes.

The pass ``indexed-array-analysis`` counts the non-trivial results (neither unknown nor
constant) per kind as statistics, and with ``print=true`` (or the ``hlo_mlir.pipelines``
logger at DEBUG) writes one line per such value, ``%gather = (scalar-indexed-const
(constant f32[3,3]) %indices 0->[0])``, to stderr (to the log). Other passes call
:func:`analyze`.
"""

from __future__ import annotations

import dataclasses
import functools
import logging
import math
import sys
from typing import Callable, Union

import numpy as np
from iree.compiler import ir

from dialect_ops import op_facts
from hlo_mlir import ir_access
from hlo_mlir.names import NameUniquer, base_name, name_of
from hlo_mlir.shape import Shape
from pipelines.matchers import constant_array, defining_op, element_dtype, static_dims
from pipelines.pass_base import Pass
from pipelines.registry import register

__all__ = ["IndexedArrayAnalysis", "Unknown", "Constant", "Reshaped", "ScalarIndexed", "IndexedArray",
           "analyze", "to_string", "evaluate", "is_trivial"]

log = logging.getLogger("hlo_mlir.pipelines")


# --- the arrays ---------------------------------------------------------------------------------
@dataclasses.dataclass(frozen=True, eq=False)
class Unknown:
    """A value the analysis does not see through."""

    value: ir.Value
    name: str
    dtype: np.dtype
    dims: tuple[int, ...]

    kind = "unknown"


@dataclasses.dataclass(frozen=True, eq=False)
class Constant:
    """A known literal; a module's constant is read only when a rule needs its elements."""

    dtype: np.dtype
    dims: tuple[int, ...]
    load: Callable[[], np.ndarray | None] = dataclasses.field(repr=False)  # None: unreadable

    kind = "constant"

    @staticmethod
    def of(literal: np.ndarray) -> "Constant":
        return Constant(literal.dtype, tuple(literal.shape), lambda: literal)

    @functools.cached_property
    def literal(self) -> np.ndarray:
        literal = self.load()
        if literal is None:
            raise ValueError("the constant's elements cannot be read")
        return literal


@dataclasses.dataclass(frozen=True, eq=False)
class Reshaped:
    """``operand`` reshaped (row-major) to ``dims``."""

    operand: "IndexedArray"
    dims: tuple[int, ...]

    kind = "reshaped"

    @property
    def dtype(self) -> np.dtype:
        return self.operand.dtype


@dataclasses.dataclass(frozen=True, eq=False)
class ScalarIndexed:
    """``source`` indexed along ``source_dim`` by ``indices``, whose dims are the result's
    ``output_dims`` (see the module docstring)."""

    source: "IndexedArray"
    indices: "IndexedArray"
    source_dim: int
    output_dims: tuple[int, ...]
    dims: tuple[int, ...]

    @property
    def kind(self) -> str:
        return "scalar-indexed-constant" if isinstance(self.source, Constant) else "scalar-indexed"

    @property
    def dtype(self) -> np.dtype:
        return self.source.dtype


IndexedArray = Union[Unknown, Constant, Reshaped, ScalarIndexed]


def is_trivial(array: IndexedArray) -> bool:
    """Unknown and constant arrays say nothing a reader of the module does not know."""
    return isinstance(array, (Unknown, Constant))


def _shape_text(dtype: np.dtype, dims) -> str:
    return str(Shape.array_shape(dtype, list(dims)))


def _literal_text(literal: np.ndarray) -> str:
    if literal.ndim == 0:
        return str(literal.item()).lower() if literal.dtype == np.bool_ else str(literal.item())
    return "{" + ", ".join(_literal_text(row) for row in literal) + "}"


def to_string(array: IndexedArray, print_constants: bool = False) -> str:
    """XLA's notation (``IndexedArrayAnalysis::ToString``)."""
    if isinstance(array, Unknown):
        return f"%{array.name}"
    if isinstance(array, Constant):
        shape = _shape_text(array.dtype, array.dims)
        if print_constants:
            return f"(constant {shape} {_literal_text(array.literal)})"
        return f"(constant {shape})"
    if isinstance(array, Reshaped):
        return (f"(reshape {to_string(array.operand, print_constants)} to "
                f"{_shape_text(array.dtype, array.dims)})")
    name = "scalar-indexed-const" if isinstance(array.source, Constant) else "scalar-indexed"
    return (f"({name} {to_string(array.source, print_constants)} {to_string(array.indices, print_constants)} "
            f"{array.source_dim}->[{','.join(map(str, array.output_dims))}])")


# --- evaluation: what a form means --------------------------------------------------------------
def evaluate(array: IndexedArray, leaf: Callable[[Unknown], np.ndarray]) -> np.ndarray:
    """The value ``array`` denotes, with ``leaf(u)`` the value of each unknown array. Indices
    clamp into the source dim as a gather's start indices do."""
    if isinstance(array, Unknown):
        return np.asarray(leaf(array))
    if isinstance(array, Constant):
        return array.literal
    if isinstance(array, Reshaped):
        return evaluate(array.operand, leaf).reshape(array.dims)
    source = evaluate(array.source, leaf)
    indices = evaluate(array.indices, leaf)
    last = source.shape[array.source_dim] - 1
    if indices.dtype == np.uint64:
        indices = np.minimum(indices, np.uint64(max(last, 0)))
    clamped = np.clip(indices.astype(np.int64), 0, max(last, 0))
    taken = np.take(source, clamped, axis=array.source_dim)
    # ``taken`` is source[:s] + indices dims + source[s+1:]; put the indices dims at output_dims.
    sd, count = array.source_dim, len(array.output_dims)
    perm, seen = [], 0
    for r in range(len(array.dims)):
        if r in array.output_dims:
            perm.append(sd + array.output_dims.index(r))
        else:
            perm.append(seen if seen < sd else seen + count)
            seen += 1
    return np.transpose(taken, perm)


# --- the rules ----------------------------------------------------------------------------------
def _scalar_indexed(source, indices, source_dim, output_dims, dims) -> ScalarIndexed:
    return ScalarIndexed(source, indices, source_dim, tuple(output_dims), tuple(dims))


def _has_zero(dims) -> bool:
    return any(d == 0 for d in dims)


def _gather(op, dims, source: IndexedArray, indices: IndexedArray) -> IndexedArray | None:
    """XLA ComputeArrayForGather: one collapsed indexed dim, full slices elsewhere."""
    numbers = ir_access.gather_dimension_numbers(op)
    slice_sizes = ir_access.int_array(op, "slice_sizes")
    index_dims = list(indices.dims)
    if numbers.operand_batching_dims or len(numbers.start_index_map) != 1:
        return None
    if numbers.index_vector_dim != len(index_dims):
        # [extension] an explicit index vector of one component: the indices without that dim
        if numbers.index_vector_dim > len(index_dims) or index_dims[numbers.index_vector_dim] != 1:
            return None
        del index_dims[numbers.index_vector_dim]
        indices = _reshape(tuple(index_dims), indices)
    source_dim = numbers.start_index_map[0]
    if list(numbers.collapsed_slice_dims) != [source_dim]:
        return None
    if any(i != source_dim and size != slice_sizes[i] for i, size in enumerate(source.dims)):
        return None  # slices along another dim: not one scalar index per output element
    output_dims = [i for i in range(len(dims)) if i not in numbers.offset_dims]
    if isinstance(source, ScalarIndexed) and source_dim in source.output_dims:
        return _gather_of_gather(source, indices, source_dim, output_dims, dims)
    return _scalar_indexed(source, indices, source_dim, output_dims, dims)


def _gather_of_gather(inner: ScalarIndexed, y: IndexedArray, source_dim: int, output_dims, dims):
    """XLA FoldGatherOfGather: ``Gather(Gather(A, X), Y) => Gather(A, Gather(X, Y))``,
    found by simulating which index components each gather produces."""
    a, x = inner.source, inner.indices
    ungathered, first, second = 0, 1, 2
    simulated = [ungathered] * len(a.dims)
    del simulated[inner.source_dim]
    for d in inner.output_dims:
        simulated.insert(d, first)
    del simulated[source_dim]
    for d in output_dims:
        simulated.insert(d, second)
    index_output_dims, seen = [], 0
    for component in simulated:
        if component == second:
            index_output_dims.append(seen)
        if component != ungathered:
            seen += 1
    composed = [i for i, c in enumerate(simulated) if c != ungathered]
    inner_indices = _scalar_indexed(x, y, inner.output_dims.index(source_dim), index_output_dims,
                                    [dims[i] for i in composed])
    return _scalar_indexed(a, inner_indices, inner.source_dim, composed, dims)


def _suffix_with_product(values, product: int) -> int:
    """XLA FindSuffixWithProduct: the index where the suffix of ``values`` multiplies to
    ``product``, or -1."""
    current, i = 1, len(values) - 1
    while i >= 0 and product > current:
        current *= values[i]
        i -= 1
    return i + 1 if product == current else -1


def _passthrough_pairs(operand_dims, result_dims) -> list[tuple[int, int]]:
    """XLA ComputeReshapePassthroughDimPairs: (result dim, operand dim) pairs whose index
    components a reshape keeps equal (same size, same product of the dims after them)."""
    pairs, subarray = [], 1
    for result_dim in range(len(result_dims) - 1, -1, -1):
        candidate = _suffix_with_product(operand_dims, subarray)
        if candidate > 0 and result_dims[result_dim] == operand_dims[candidate - 1]:
            pairs.append((result_dim, candidate - 1))
        subarray *= result_dims[result_dim]
    return pairs[::-1]


def _strip(dims) -> tuple[int, ...]:
    return tuple(d for d in dims if d != 1)


def _remove_degenerate_dims(array: ScalarIndexed) -> ScalarIndexed:
    """XLA ReshapeToRemoveDegenerateDims: the same array without its size-1 dims."""
    if 1 not in array.dims:
        return array
    source_dims = array.source.dims
    new_source_dims = tuple(d for i, d in enumerate(source_dims) if i == array.source_dim or d != 1)
    output_dims, degenerate = [], 0
    for i, d in enumerate(array.dims):
        if d == 1:
            degenerate += 1
        elif i in array.output_dims:
            output_dims.append(i - degenerate)
    source_dim = array.source_dim - sum(1 for d in source_dims[:array.source_dim] if d == 1)
    return _scalar_indexed(_reshape(new_source_dims, array.source), _reshape(_strip(array.indices.dims),
                           array.indices), source_dim, output_dims, _strip(array.dims))


def _add_degenerate_dims(array: ScalarIndexed, degenerate_dims: list[int]) -> ScalarIndexed:
    """XLA ReshapeToAddDegenerateDims: ``array`` (no size-1 dims) with size-1 dims inserted
    at ``degenerate_dims``; the source gets them among its other dims, and its indexed dim
    right after the source dim it followed (first when it was first)."""
    if not degenerate_dims:
        return array
    is_output = [i in array.output_dims for i in range(len(array.dims))]
    dims = list(array.dims)
    inserted = [False] * len(dims)
    for d in degenerate_dims:
        is_output.insert(d, False)
        dims.insert(d, 1)
        inserted.insert(d, True)
    output_dims = [i for i, o in enumerate(is_output) if o]
    rest = [i for i, o in enumerate(is_output) if not o]
    source_dims = [dims[i] for i in rest]
    originals = [k for k, i in enumerate(rest) if not inserted[i]]
    # XLA's loop here resets its counter every iteration (it finds source dim 0 only); any
    # place between the source dims around it is right, and dim 0 stays first as in XLA.
    source_dim = 0 if array.source_dim == 0 else originals[array.source_dim - 1] + 1
    source_dims.insert(source_dim, array.source.dims[array.source_dim])
    return _scalar_indexed(_reshape(tuple(source_dims), array.source), array.indices, source_dim,
                           output_dims, dims)


def _fold_reshape_no_degenerate_dims(dims, array: ScalarIndexed) -> ScalarIndexed | None:
    """XLA FoldReshapeOfGatherNoDegenerateDims: ``Reshape(ScalarIndexed(C, I)) =>
    ScalarIndexed(Reshape'(C), I)`` when the reshape passes every output dim through and the
    source dim can be placed where the reshape of the source passes it through."""
    pairs = _passthrough_pairs(array.dims, dims)
    to_result = {operand: result for result, operand in pairs}
    if not all(o in to_result for o in array.output_dims):
        return None
    new_source_dims = list(dims)
    for o in reversed(array.output_dims):
        del new_source_dims[to_result[o]]
    source_dims = array.source.dims
    position = _suffix_with_product(new_source_dims, math.prod(source_dims[array.source_dim + 1:]))
    if position == -1:
        return None
    new_source_dims.insert(position, source_dims[array.source_dim])
    constant = array.source
    assert isinstance(constant, Constant)  # _reshape folds scalar-indexed constants only
    source = Constant.of(constant.literal.reshape(new_source_dims))
    return _scalar_indexed(source, array.indices, position, [to_result[o] for o in array.output_dims], dims)


def _fold_reshape_of_gather(dims, array: ScalarIndexed) -> ScalarIndexed | None:
    """XLA FoldReshapeOfGather: the fold on the shapes without size-1 dims, which are then
    put back."""
    if _has_zero(dims) or _has_zero(array.dims) or _has_zero(array.source.dims):
        return None
    folded = _fold_reshape_no_degenerate_dims(_strip(dims), _remove_degenerate_dims(array))
    if folded is None:
        return None
    return _add_degenerate_dims(folded, [i for i, d in enumerate(dims) if d == 1])


def _reshape(dims: tuple[int, ...], operand: IndexedArray) -> IndexedArray:
    """XLA ComputeArrayForReshape."""
    if tuple(operand.dims) == tuple(dims):
        return operand
    if isinstance(operand, ScalarIndexed) and isinstance(operand.source, Constant):
        folded = _fold_reshape_of_gather(dims, operand)
        if folded is not None:
            return folded
    if isinstance(operand, Constant):
        return Constant.of(operand.literal.reshape(dims))
    return Reshaped(operand, tuple(dims))


def _transpose(perm: list[int], dims, operand: IndexedArray) -> IndexedArray | None:
    """[extension] ``Transpose(ScalarIndexed(S, I)) => ScalarIndexed(Transpose'(S), I)`` when
    the output dims keep their order (the indices are not transposed); ``Transpose'`` is
    the identity or ``S`` is a constant."""
    if isinstance(operand, Constant):
        return Constant.of(np.transpose(operand.literal, perm))
    if not isinstance(operand, ScalarIndexed):
        return None
    inverse = {p: i for i, p in enumerate(perm)}
    output_dims = [inverse[o] for o in operand.output_dims]
    if output_dims != sorted(output_dims):
        return None
    kept = [d for d in range(len(perm)) if d not in operand.output_dims]  # operand non-output dims
    sd = operand.source_dim
    # the source dim of each non-output result dim, in result order
    sources = [kept.index(p) + (kept.index(p) >= sd) for p in perm if p not in operand.output_dims]
    position = sum(1 for s in sources if s < sd)
    order = sources[:position] + [sd] + sources[position:]
    if order == sorted(order):
        source = operand.source
    elif isinstance(operand.source, Constant):
        source = Constant.of(np.transpose(operand.source.literal, order))
    else:
        return None
    return _scalar_indexed(source, operand.indices, position, output_dims, dims)


def _indexed_like(indexed: ScalarIndexed, source: Constant, dims) -> ScalarIndexed:
    """``indexed`` with another source of the same shape (a folded constant)."""
    return _scalar_indexed(source, indexed.indices, indexed.source_dim, indexed.output_dims, dims)


def _constant_indexed(array: IndexedArray) -> tuple[ScalarIndexed, Constant] | None:
    """``(array, its constant source)`` for a scalar-indexed constant, else None."""
    if isinstance(array, ScalarIndexed) and isinstance(array.source, Constant):
        return array, array.source
    return None


def _unary(name: str, operand: IndexedArray, dims) -> IndexedArray | None:
    """XLA ComputeArrayForElementwiseUnaryOp: ``UnaryOp(ScalarIndexed(C, I)) =>
    ScalarIndexed(UnaryOp(C), I)`` (exact folds only)."""
    found = _constant_indexed(operand)
    if found is None:
        return None
    indexed, constant = found
    literal = op_facts.fold_unary(name, constant.literal)
    if literal is None:
        return None
    return _indexed_like(indexed, Constant.of(literal), dims)


def _invariant_part(value: ir.Value, array: IndexedArray, output_dims) -> np.ndarray | None:
    """The constant ``value`` at index 0 of each of ``output_dims`` (its dims are then the other
    result dims), if ``value`` does not vary along them: a ``broadcast_in_dim`` of a constant
    that broadcasts them (XLA), or a constant equal along them [extension]."""
    op = defining_op(value)
    if op is None:
        return None
    full = None
    if op.operation.name == "stablehlo.broadcast_in_dim":
        operand = constant_array(op.operands[0])
        if operand is None:
            return None
        mapping = ir_access.int_array(op, "broadcast_dimensions")
        if any(r in output_dims and operand.shape[i] != 1 for i, r in enumerate(mapping)):
            return None
        expanded = [1] * len(array.dims)
        for i, r in enumerate(mapping):
            expanded[r] = operand.shape[i]
        full = np.broadcast_to(operand.reshape(expanded), array.dims)
    elif isinstance(array, Constant):
        full = array.literal
    if full is None or full.dtype == object:
        return None
    part = full[tuple(slice(0, 1) if i in output_dims else slice(None) for i in range(full.ndim))]
    if isinstance(array, Constant) and np.broadcast_to(part, full.shape).tobytes() != np.ascontiguousarray(
            full).tobytes():
        return None
    return part.reshape([d for i, d in enumerate(full.shape) if i not in output_dims])


def _binary(name: str, lhs: IndexedArray, rhs: IndexedArray, values, dims) -> IndexedArray | None:
    """XLA ComputeArrayForElementwiseBinaryOp: ``BinaryOp(Broadcast(C0), ScalarIndexed(C1, I))
    => ScalarIndexed(BinaryOp(Broadcast'(C0), C1), I)`` when the broadcast does not vary
    along the output dims (exact folds only)."""
    lhs_found, rhs_found = _constant_indexed(lhs), _constant_indexed(rhs)
    if lhs_found is not None and rhs_found is None:
        (indexed, constant), other, other_value = lhs_found, rhs, values[1]
    elif rhs_found is not None and lhs_found is None:
        (indexed, constant), other, other_value = rhs_found, lhs, values[0]
    else:
        return None
    part = _invariant_part(other_value, other, indexed.output_dims)
    if part is None:
        return None
    source = constant.literal
    inner = np.broadcast_to(np.expand_dims(part, indexed.source_dim), source.shape).astype(source.dtype)
    literal = op_facts.fold_binary(name, source, inner) if lhs_found is not None \
        else op_facts.fold_binary(name, inner, source)
    if literal is None or literal.dtype != source.dtype:
        return None
    return _indexed_like(indexed, Constant.of(literal), dims)


def _dot_dims(op) -> ir_access.DotDimensions:
    if op.name == "stablehlo.dot":
        lhs_rank = len(static_dims(op.operands[0]) or ())
        return ir_access.DotDimensions((lhs_rank - 1,), (0,))
    return ir_access.dot_dimension_numbers(op)


def _dot_general(lhs: np.ndarray, rhs: np.ndarray, numbers: ir_access.DotDimensions, dtype) -> np.ndarray:
    """Integer dot_general with wrap-around, result ``[batch..., lhs free..., rhs free...]``."""
    letters = iter("abcdefghijklmnopqrstuvwxyz")
    lhs_sub = [next(letters) for _ in range(lhs.ndim)]
    rhs_sub = [next(letters) for _ in range(rhs.ndim)]
    for lb, rb in zip(numbers.lhs_batch_dimensions, numbers.rhs_batch_dimensions, strict=True):
        rhs_sub[rb] = lhs_sub[lb]
    for lc, rc in zip(numbers.lhs_contracting_dimensions, numbers.rhs_contracting_dimensions, strict=True):
        rhs_sub[rc] = lhs_sub[lc]
    out = [lhs_sub[d] for d in numbers.lhs_batch_dimensions]
    out += [s for d, s in enumerate(lhs_sub) if d not in numbers.lhs_batch_dimensions
            and d not in numbers.lhs_contracting_dimensions]
    out += [s for d, s in enumerate(rhs_sub) if d not in numbers.rhs_batch_dimensions
            and d not in numbers.rhs_contracting_dimensions]
    wide = np.uint64 if np.dtype(dtype).kind == "u" else np.int64
    result = np.einsum(f"{''.join(lhs_sub)},{''.join(rhs_sub)}->{''.join(out)}",
                       lhs.astype(dtype).astype(wide), rhs.astype(dtype).astype(wide))
    return result.astype(dtype)


def _free_dims(rank: int, contracting, batch) -> list[int]:
    return [d for d in range(rank) if d not in contracting and d not in batch]


def _dot(op, lhs: IndexedArray, rhs: IndexedArray, dtype, dims) -> IndexedArray | None:
    """XLA ComputeArrayForDot: ``Dot(ScalarIndexed(C, I), R) => ScalarIndexed(Dot'(C, R), I)``
    (and mirrored) when the indexed operand's one free dim is its output dim and the other
    operand is a constant. Integer types only (an integer dot is exact)."""
    if op_facts.type_class(dtype) != "int":
        return None
    numbers = _dot_dims(op)
    for found, other, on_left in ((_constant_indexed(lhs), rhs, True),
                                  (_constant_indexed(rhs), lhs, False)):
        if found is None or not isinstance(other, Constant):
            continue
        indexed, constant = found
        contracting = numbers.lhs_contracting_dimensions if on_left else numbers.rhs_contracting_dimensions
        batch = numbers.lhs_batch_dimensions if on_left else numbers.rhs_batch_dimensions
        if len(indexed.output_dims) != 1 or _free_dims(len(indexed.dims), contracting, batch) != list(
                indexed.output_dims):
            continue  # XLA CanFoldDotIntoIndexedArray: one free dim, the one output dim
        # indexed dim d (not the output dim) is source dim to_source[d]; the source dim is free
        d_out = indexed.output_dims[0]
        kept = [d for d in range(len(indexed.dims)) if d != d_out]
        to_source = {d: k + (k >= indexed.source_dim) for k, d in enumerate(kept)}
        side = "lhs_" if on_left else "rhs_"
        mapped = dataclasses.replace(numbers, **{
            side + "contracting_dimensions": tuple(to_source[d] for d in contracting),
            side + "batch_dimensions": tuple(to_source[d] for d in batch)})
        source = constant.literal
        literal = _dot_general(source, other.literal, mapped, dtype) if on_left \
            else _dot_general(other.literal, source, mapped, dtype)
        n_batch = len(numbers.lhs_batch_dimensions)
        position = n_batch if on_left else n_batch + len(
            _free_dims(len(other.dims), numbers.lhs_contracting_dimensions, numbers.lhs_batch_dimensions))
        return _scalar_indexed(Constant.of(literal), indexed.indices, position, [position], dims)
    return None


# --- the walk -----------------------------------------------------------------------------------
def _names(module: ir.Module) -> dict[ir.Operation, str]:
    """XLA-style instruction names: ``hlo.name`` where set, else unique names from the op kind."""
    ops: list[ir.Operation] = []

    def visit(op):
        if op.name.startswith("stablehlo.") or op.name.startswith("chlo."):
            ops.append(op)
        return ir.WalkResult.ADVANCE

    module.operation.walk(visit, ir.WalkOrder.PRE_ORDER)
    uniquer = NameUniquer(n for n in (name_of(op) for op in ops) if n is not None)
    return {op: name_of(op) or uniquer.get_unique_name(base_name(op)) for op in ops}


def _value_name(value: ir.Value, names: dict) -> str:
    if isinstance(value, ir.OpResult):
        op = value.owner.operation
        name = names.get(op) or base_name(op)
        return name if len(op.results) == 1 else f"{name}#{value.result_number}"
    return f"arg{ir.BlockArgument(value).arg_number}"


def _compute(op, operands: list[IndexedArray], value: ir.Value, dtype, dims) -> IndexedArray | None:
    name = op.name
    if name == "stablehlo.constant":
        if dtype.kind == "c" or not isinstance(op.attributes["value"], ir.DenseElementsAttr):
            return None  # elements the bindings cannot read
        return Constant(dtype, tuple(dims), lambda: constant_array(value))
    if name == "stablehlo.gather":
        return _gather(op, dims, *operands)
    if name == "stablehlo.reshape":
        return _reshape(tuple(dims), operands[0])
    if name == "stablehlo.transpose":
        return _transpose(ir_access.int_array(op, "permutation"), dims, operands[0])
    if name in ("stablehlo.dot_general", "stablehlo.dot"):
        lhs, rhs = operands
        return _dot(op, lhs, rhs, dtype, dims)
    if name in op_facts.ELEMENTWISE_OPS and len(operands) == 1:
        return _unary(name, operands[0], dims)
    if name in op_facts.ELEMENTWISE_OPS and len(operands) == 2:
        return _binary(name, operands[0], operands[1], list(op.operands), dims)
    return None


def analyze(module: ir.Module) -> dict[ir.Value, IndexedArray]:
    """The indexed array of every ranked, static-shaped value that an op of ``module``
    defines or reads (XLA ``GetArrayFor`` over every instruction), in module order. The
    module is only read."""
    return _analysis(module)[0]


def _analysis(module: ir.Module) -> tuple[dict[ir.Value, IndexedArray], dict[ir.Operation, str]]:
    names = _names(module)
    arrays: dict[ir.Value, IndexedArray] = {}

    def array_of(value: ir.Value) -> IndexedArray | None:
        if value not in arrays:
            dtype, dims = element_dtype(value), static_dims(value)
            if dtype is None or dims is None:
                return None
            arrays[value] = Unknown(value, _value_name(value, names), dtype, tuple(dims))
        return arrays[value]

    def visit(op):
        if op.name == "func.func":
            return ir.WalkResult.ADVANCE
        operands = [array_of(v) for v in op.operands]
        for value in op.results:
            dtype, dims = element_dtype(value), static_dims(value)
            if dtype is None or dims is None:
                continue
            computed = None
            if len(op.results) == 1 and all(a is not None for a in operands):
                try:
                    computed = _compute(op, operands, value, dtype, dims)
                except ValueError as e:  # a constant whose elements cannot be read
                    log.debug("indexed-array-analysis: %s not analyzed: %s", op.name, e)
                    computed = None
            arrays[value] = computed or Unknown(value, _value_name(value, names), dtype, tuple(dims))
        return ir.WalkResult.ADVANCE

    module.operation.walk(visit, ir.WalkOrder.PRE_ORDER)
    return arrays, names


# --- the pass -----------------------------------------------------------------------------------
@register
@dataclasses.dataclass
class IndexedArrayAnalysis(Pass):
    """Report values that are gathers in disguise (XLA's indexed array analysis); changes nothing."""

    name = "indexed-array-analysis"
    print: bool = dataclasses.field(
        default=False, metadata={"help": "write one line per non-trivial value to stderr"})
    print_constants: bool = dataclasses.field(
        default=False, metadata={"help": "print the elements of constants in those lines"})

    def run(self, module: ir.Module) -> bool:
        arrays, names = _analysis(module)
        show = self.print or log.isEnabledFor(logging.DEBUG)
        for value, array in arrays.items():
            if is_trivial(array):
                continue
            self.statistics[array.kind] += 1
            if show:
                line = f"%{_value_name(value, names)} = {to_string(array, self.print_constants)}"
                if self.print:
                    sys.stderr.write(line + "\n")
                else:
                    log.debug("%s: %s", self.name, line)
        return False
