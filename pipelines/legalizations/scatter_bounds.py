"""scatter-bounds: rewrites scatter into single-operand forms the pinned IREE compiles, with
every update window that XLA would skip made harmless.

XLA skips an update window unless it lies entirely inside the operand. The pinned IREE
writes out-of-bounds windows out of bounds (heap corruption), fails to legalize every
scatter whose scattered dimensions are not inserted, whose windows do not span whole
operand dimensions or that scatters two index components beside a window dimension,
rejects variadic scatter ("NYI variadic operands scatter") and crashes (SIGFPE) on
empty updates (ARCHITECTURE.md, defects). Each scatter not marked ``hlo_mlir.in_bounds``
becomes one of:

- empty operand or updates: the operands themselves (nothing can be written);
- N > 1 operands whose update computation is separable (result i depends only on
  current i and update i): N single-operand scatters, each rewritten as below (a
  combiner mixing operands is left alone; IREE then rejects it at compile time);
- *row form* (every scattered dimension inserted, every other inserted one of size 1;
  every window spans its whole operand dimension; one index component, or no window
  dimension at all): the same scatter on
  an operand padded by one row in the first scattered dimension, where every index
  vector out of bounds is redirected before the result is sliced back::

      %ok = and_k(0 <= %idx[..., k] <= dim(sdod[k]) - 1)
      %r = slice(scatter(pad(%operand, high 1 in d0), select(%ok, %idx, [dim(d0), 0, ...]), %upd))

- any other form: a scatter of single elements into the flattened operand, each
  update element at its linear index ``sum_d (start + batch + window)[d] * stride[d]``,
  or the padding slot ``numel`` when its window is out of bounds::

      %r = reshape(slice(scatter(pad(reshape(%operand, [numel]), high 1), %linear [M, 1],
                                 reshape(%upd, [M]))), dims(%operand))

Indices become s64 (values of any width convert exactly or, for u64 beyond 2^63, turn
negative and stay out of bounds). Padding is skipped when the indices are a constant
in bounds. The new scatter is marked ``hlo_mlir.in_bounds`` and keeps
``unique_indices`` only when nothing was redirected and its operand is no window into a
larger buffer; ``indices_are_sorted`` is kept in the row form only.

A scatter with ``unique_indices`` whose operand is, through the views IREE folds, a
``slice`` or a ``pad`` with negative edge padding failed to compile: IREE fuses the
slice into the scatter's dispatch as a copy into a buffer outside the distributed loop
("'linalg.generic' op write affecting operations on global resources are restricted to
workgroup distributed contexts"; ``Scatter(Slice(p), constant index, u, unique)``, and
``scatter-bounds``' own slice of a padded scatter read by a second scatter: fuzz seed
20261127 program 5889). Without the hint (it changes no value) IREE copies the slice
into a buffer of its own.

Scatters whose operands have no XLA shape (quantized element types) are left alone. Run
``dce`` afterwards.
"""

from __future__ import annotations

import math
from typing import Sequence

import numpy as np
from iree.compiler import ir

from dialect_ops.elementwise import binary, select
from dialect_ops.gather_scatter import ScatterDimensionNumbers, scatter
from dialect_ops.shape_ops import broadcast_in_dim, iota, reshape
from dialect_ops.slicing import pad, slice_
from hlo_mlir import _emit
from hlo_mlir.ir_access import bool_attr, int_array
from hlo_mlir.shape import Shape
from hlo_mlir.types import PrimitiveType
from pipelines.index_bounds import (
    constant_in_bounds,
    in_bounds_mask,
    is_marked,
    mark_in_bounds,
    normalized_indices,
    vector_constant,
)
from pipelines.legalizations.inplace_operand_copy import through_views
from pipelines.matchers import defining_op, xla_arrays
from pipelines.pass_base import ExpanderPass
from pipelines.registry import register
from pipelines.values import scalar

__all__ = ["ScatterBounds"]

S64 = PrimitiveType.S64


@register
class ScatterBounds(ExpanderPass):
    """Rewrites scatter into forms IREE compiles, skipping out-of-bounds windows as XLA does."""

    name = "scatter-bounds"
    legalizes_for_iree = True

    def matches(self, op) -> bool:
        if op.operation.name != "stablehlo.scatter" or is_marked(op) or not xla_arrays(op.operands):
            return False
        n = len(op.results)
        return n == 1 or _empty(op) or all(_separable_result(op, i) for i in range(n))

    def expand(self, op) -> Sequence[ir.Value]:
        n = len(op.results)
        operands, indices, updates = list(op.operands[:n]), op.operands[n], list(op.operands[n + 1:])
        if _empty(op):
            return operands
        dn = ScatterDimensionNumbers.from_attribute(op.attributes["scatter_dimension_numbers"])
        hints = (bool_attr(op, "indices_are_sorted"), bool_attr(op, "unique_indices"))
        body = op.regions[0].blocks[0]
        return [_bounded_scatter(operands[i], indices, updates[i], dn, hints,
                                 lambda block, i=i: _copy_result(body, block, i, n))
                for i in range(n)]


def _empty(op) -> bool:
    n = len(op.results)
    return any(_emit.shape_of(v).element_count() == 0 for v in (op.operands[0], op.operands[n + 1]))


# --- update computation of one operand ---------------------------------------------------------
def _separable_result(op, i: int) -> bool:
    """Whether result i of the update computation depends on no block argument but
    current i and update i (and the body has no nested regions)."""
    body = op.regions[0].blocks[0]
    n = len(op.results)
    ops = list(body.operations)
    if any(len(o.regions) for o in ops):
        return False
    allowed = {body.arguments[i], body.arguments[n + i]}
    pending, seen = [ops[-1].operands[i]], []
    while pending:
        v = pending.pop()
        if v in seen:
            continue
        seen.append(v)
        if isinstance(v, ir.BlockArgument):
            if v not in allowed:
                return False
        else:
            pending.extend(v.owner.operands)
    return True


def _copy_result(source: ir.Block, dest: ir.Block, i: int, n: int) -> None:
    """Fills ``dest`` (arguments: current, update) with the ops of ``source`` computing its
    result i, then returns it."""
    mapping = {source.arguments[i]: dest.arguments[0], source.arguments[n + i]: dest.arguments[1]}
    ops = list(source.operations)
    with ir.InsertionPoint(dest):
        for o in ops[:-1]:
            if all(v in mapping for v in o.operands):
                clone = o.operation.clone(ir.InsertionPoint(dest))
                for j, v in enumerate(o.operands):
                    clone.operands[j] = mapping[v]
                for old, new in zip(o.results, clone.results, strict=True):
                    mapping[old] = new
        _emit.region_return([mapping[ops[-1].operands[i]]])


# --- one operand ----------------------------------------------------------------------------
def _bounded_scatter(operand: ir.Value, indices: ir.Value, updates: ir.Value, dn: ScatterDimensionNumbers,
                     hints: tuple[bool, bool], body) -> ir.Value:
    shape, upd = _emit.shape_of(operand), _emit.shape_of(updates)
    window_dims = [d for d in range(shape.rank) if d not in dn.inserted_window_dims + dn.input_batching_dims]
    window = [1] * shape.rank
    for j, d in enumerate(window_dims):
        window[d] = upd.dimensions[dn.update_window_dims[j]]
    upper = [shape.dimensions[d] - window[d] for d in dn.scatter_dims_to_operand_dims]
    idx = normalized_indices(indices, dn.index_vector_dim)
    known = constant_in_bounds(indices, dn.index_vector_dim, upper)
    mask = None if known else in_bounds_mask(idx, upper)
    vector_dim = dn.index_vector_dim
    batching = [d - (d > vector_dim) for d in dn.scatter_indices_batching_dims]  # in normalized indices
    row_form = (dn.scatter_dims_to_operand_dims
                and set(dn.scatter_dims_to_operand_dims) <= set(dn.inserted_window_dims)
                and all(window[d] == shape.dimensions[d] for d in window_dims)
                # An inserted dimension no index names is a window of 1 at 0: a row only if it is whole.
                and all(shape.dimensions[d] == 1 for d in dn.inserted_window_dims
                        if d not in dn.scatter_dims_to_operand_dims)
                and (len(dn.scatter_dims_to_operand_dims) == 1 or not window_dims))
    if row_form:
        return _row_scatter(operand, idx, updates, dn, batching, mask, hints, body)
    return _element_scatter(operand, idx, updates, dn, batching, window_dims, mask, hints[1], body)


def _scatter_marked(operand, indices, updates, dn, hints, body) -> ir.Value:
    hints = (hints[0], hints[1] and not _window_view(operand))
    (result,) = scatter([operand], indices, [updates], dn, body, *hints)
    return mark_in_bounds(result)


def _window_view(operand: ir.Value) -> bool:
    """Whether IREE reads ``operand`` as a window into a larger buffer: through the views it
    folds, a ``slice`` or a ``pad`` with negative edge padding (see the module docstring)."""
    op = defining_op(through_views(operand))
    name = op.operation.name if op is not None else None
    if name == "stablehlo.slice":
        return True
    return name == "stablehlo.pad" and any(p < 0 for a in ("edge_padding_low", "edge_padding_high")
                                           for p in int_array(op, a))


def _row_scatter(operand, idx, updates, dn, batching, mask, hints, body) -> ir.Value:
    """The same scatter (indices normalized); out-of-bounds vectors go to a padding row."""
    idx_shape = _emit.shape_of(idx)
    normalized = ScatterDimensionNumbers(dn.update_window_dims, dn.inserted_window_dims,
                                         dn.scatter_dims_to_operand_dims, idx_shape.rank - 1,
                                         dn.input_batching_dims, batching)
    if mask is None:
        return _scatter_marked(operand, idx, updates, normalized, hints, body)
    shape = _emit.shape_of(operand)
    d0 = dn.scatter_dims_to_operand_dims[0]
    redirect = [shape.dimensions[d0]] + [0] * (idx_shape.dimensions[-1] - 1)
    safe = select(broadcast_in_dim(mask, idx_shape.dimensions, list(range(idx_shape.rank - 1))), idx,
                  vector_constant(redirect, S64, idx_shape.dimensions, idx_shape.rank - 1))
    padded = _pad_high(operand, d0)
    result = _scatter_marked(padded, safe, updates, normalized, (hints[0], False), body)
    return slice_(result, [0] * shape.rank, list(shape.dimensions))


def _element_scatter(operand, idx, updates, dn, batching, window_dims, mask, unique, body) -> ir.Value:
    """One scalar update per element of ``updates``, into the flattened operand."""
    shape, upd = _emit.shape_of(operand), _emit.shape_of(updates)
    numel, m = shape.element_count(), upd.element_count()
    strides = [math.prod(shape.dimensions[d + 1:]) for d in range(shape.rank)]
    scatter_dims = [d for d in range(upd.rank) if d not in dn.update_window_dims]
    over_updates = Shape.array_shape(S64, upd.dimensions)
    idx_shape = _emit.shape_of(idx)
    terms = []
    for k, d in enumerate(dn.scatter_dims_to_operand_dims):  # start index component k, times its stride
        start = [0] * idx_shape.rank
        limit = list(idx_shape.dimensions)
        start[-1], limit[-1] = k, k + 1
        component = reshape(slice_(idx, start, limit), idx_shape.dimensions[:-1])
        terms.append((broadcast_in_dim(component, upd.dimensions, scatter_dims), strides[d]))
    for d, p in zip(dn.input_batching_dims, batching, strict=True):  # batch position p of the indices
        terms.append((iota(over_updates, scatter_dims[p]), strides[d]))
    for j, d in enumerate(window_dims):
        terms.append((iota(over_updates, dn.update_window_dims[j]), strides[d]))
    linear = None
    for value, stride in terms:
        term = value if stride == 1 else binary("Mul", value, scalar(stride, S64))
        linear = term if linear is None else binary("Add", linear, term)
    if linear is None:  # a rank-0 operand: every element goes to index 0
        linear = broadcast_in_dim(scalar(0, S64), upd.dimensions, [])
    if mask is not None:
        linear = select(broadcast_in_dim(mask, upd.dimensions, scatter_dims), linear,
                        broadcast_in_dim(scalar(numel, S64), upd.dimensions, []))
    flat = reshape(operand, [numel])
    flat = flat if mask is None else _pad_high(flat, 0)
    element_dn = ScatterDimensionNumbers((), (0,), (0,), 1)
    result = _scatter_marked(flat, reshape(linear, [m, 1]), reshape(updates, [m]), element_dn,
                             (False, unique and mask is None), body)
    return reshape(slice_(result, [0], [numel]), shape.dimensions)


def _pad_high(operand: ir.Value, dimension: int) -> ir.Value:
    """``operand`` with one more (zero) entry at the end of ``dimension``."""
    shape = _emit.shape_of(operand)
    zero = _emit.constant(np.zeros((), shape.dtype), Shape.scalar_shape(shape.element_type))
    return pad(operand, zero, [(0, int(d == dimension), 0) for d in range(shape.rank)])
