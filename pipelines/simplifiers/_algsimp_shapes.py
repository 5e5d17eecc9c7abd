"""The algebraic simplifier's data-movement rules: slice, pad, concatenate, broadcast,
transpose, dynamic_slice and dynamic_update_slice (XLA ``algebraic_simplifier.cc``:
HandleSlice, HandlePad, HandleConcatenate, HandleTranspose, HandleReshape,
HandleDynamicSlice, HandleDynamicUpdateSlice).

Each rule only moves or selects elements, so the result is bit for bit the elements the
original computed, for every element type. Static shapes only: a rule whose operand or
result has a dynamic dimension returns None. ``algsimp`` applies them (``PATTERNS``).
"""

from __future__ import annotations

import functools

import numpy as np
from iree.compiler import ir

from dialect_ops import shape_ops, slicing
from hlo_mlir import _emit
from hlo_mlir.ir_access import int_array, int_attr
from hlo_mlir.shape import Shape
from pipelines.matchers import producer, same_bits, splat_of, static_dims, xla_arrays
from pipelines.pass_base import pattern

__all__ = ["PATTERNS", "splat_constant", "same_scalar", "xla_typed"]


def xla_typed(fn):
    """A rule that emits ops through dialect_ops (which read XLA shapes) matches only ops whose
    operands and results all have XLA element types: quantized ops are left alone."""

    @functools.wraps(fn)
    def rule(op):
        return fn(op) if xla_arrays([*op.operands, *op.results]) else None

    return rule


def splat_constant(value: np.ndarray, like: ir.Value) -> ir.Value:
    """A constant of ``like``'s type holding ``value`` everywhere (a splat)."""
    shape = Shape.from_mlir_type(like.type)
    return _emit.constant(np.asarray(value, dtype=shape.dtype), shape)


def same_scalar(a: ir.Value, b: ir.Value) -> bool:
    """Whether two values are one value: the same SSA value, or splats of the same bits."""
    if a == b:
        return True
    sa, sb = splat_of(a), splat_of(b)
    return sa is not None and sb is not None and same_bits(sa, sb)


def _slice_params(op) -> tuple[list[int], list[int], list[int]]:
    return int_array(op, "start_indices"), int_array(op, "limit_indices"), int_array(op, "strides")


def _count(start: int, limit: int, stride: int) -> int:
    """The number of elements a slice takes in one dimension."""
    return max(0, -(-(limit - start) // stride))


# --- slice -------------------------------------------------------------------------------------
@pattern("stablehlo.slice")
@xla_typed
def slice_of_slice(op):
    """slice(slice(x, s1, l1, t1), s2, l2, t2) -> slice(x, s1 + s2*t1, ..., t1*t2) (element j
    of the outer slice is x[s1 + (s2 + j*t2)*t1])."""
    inner = producer(op.operands[0], "stablehlo.slice")
    x = inner.operands[0] if inner is not None else None
    if x is None or static_dims(x) is None:
        return None
    dims = static_dims(x)
    starts, limits, strides = [], [], []
    for s1, t1, s2, l2, t2, n in zip(*_slice_params(inner)[::2], *_slice_params(op), dims, strict=True):
        start, stride, count = s1 + s2 * t1, t1 * t2, _count(s2, l2, t2)
        start = min(start, n)  # an empty slice may start anywhere in [0, n]
        starts.append(start)
        limits.append(start + (count - 1) * stride + 1 if count else start)
        strides.append(stride)
    return [slicing.slice_(x, starts, limits, strides)]


@pattern("stablehlo.slice")
@xla_typed
def slice_of_concatenate(op):
    """slice(concatenate(a0, ..., an, dim d), ...) -> slice(ak, ...) when every element the
    slice takes in dimension d lies inside operand ak."""
    concat = producer(op.operands[0], "stablehlo.concatenate")
    if concat is None or any(static_dims(v) is None for v in concat.operands):
        return None
    d = int_attr(concat, "dimension")
    starts, limits, strides = _slice_params(op)
    count = _count(starts[d], limits[d], strides[d])
    if count == 0:
        return None  # zero-sized-hlo-elimination's
    first, last = starts[d], starts[d] + (count - 1) * strides[d]
    offset = 0
    for a in concat.operands:
        size = static_dims(a)[d]
        if offset <= first and last < offset + size:
            starts, limits = list(starts), list(limits)
            starts[d], limits[d] = first - offset, last - offset + 1
            return [slicing.slice_(a, starts, limits, strides)]
        offset += size
    return None


def _pad_params(op) -> tuple[list[int], list[int], list[int]]:
    return (int_array(op, "edge_padding_low"), int_array(op, "edge_padding_high"),
            int_array(op, "interior_padding"))


@pattern("stablehlo.slice")
@xla_typed
def slice_of_pad_operand(op):
    """slice(pad(x, v), ...) -> slice(x, ...) when every element the slice takes is an element
    of x (in each dimension: after the low padding, before the high one, and on x's grid
    when there is interior padding)."""
    pad = producer(op.operands[0], "stablehlo.pad")
    if pad is None or static_dims(pad.operands[0]) is None:
        return None
    x = pad.operands[0]
    new = ([], [], [])
    for s, l, t, n, lo, interior in zip(*_slice_params(op), static_dims(x), _pad_params(pad)[0],
                                       _pad_params(pad)[2], strict=True):
        count, step = _count(s, l, t), interior + 1
        if count == 0:
            return None  # zero-sized-hlo-elimination's
        first, last = s - lo, s - lo + (count - 1) * t  # positions in the interior-padded x
        if first < 0 or last > (n - 1) * step or first % step or (count > 1 and t % step):
            return None
        start, stride = first // step, (t // step if count > 1 else 1)
        for part, value in zip(new, (start, start + (count - 1) * stride + 1, stride), strict=True):
            part.append(value)
    return [slicing.slice_(x, *new)]


@pattern("stablehlo.slice")
@xla_typed
def slice_of_pad_padding(op):
    """slice(pad(x, v), ...) -> broadcast_in_dim(v) when, in some dimension, the slice takes
    only elements of the low or of the high edge padding."""
    pad = producer(op.operands[0], "stablehlo.pad")
    result = static_dims(op.results[0])
    if pad is None or result is None or static_dims(pad.operands[0]) is None:
        return None
    lows, highs, _ = _pad_params(pad)
    size = static_dims(pad.results[0])
    for s, l, t, lo, hi, n in zip(*_slice_params(op), lows, highs, size, strict=True):
        count = _count(s, l, t)
        last = s + (count - 1) * t
        if count and (last < lo or s >= n - hi):
            return [shape_ops.broadcast_in_dim(pad.operands[1], result, [])]
    return None


@pattern("stablehlo.slice")
@xla_typed
def slice_of_broadcast(op):
    """slice(broadcast_in_dim(x, dims)) -> broadcast_in_dim(slice(x), dims): x's dimension i
    takes the slice of result dimension dims[i], or stays whole when it is a size-1 dimension
    that broadcasts."""
    inner = producer(op.operands[0], "stablehlo.broadcast_in_dim")
    out = static_dims(op.results[0])
    x = inner.operands[0] if inner is not None else None
    if x is None or out is None or static_dims(x) is None or static_dims(inner.results[0]) is None:
        return None
    full, dims = static_dims(inner.results[0]), int_array(inner, "broadcast_dimensions")
    starts, limits, strides = _slice_params(op)
    new = ([], [], [])
    for n, d in zip(static_dims(x), dims, strict=True):
        ranges = (starts[d], limits[d], strides[d]) if n == full[d] else (0, 1, 1)
        for part, value in zip(new, ranges, strict=True):
            part.append(value)
    sliced = slicing.slice_(x, *new) if dims else x
    return [shape_ops.broadcast_in_dim(sliced, out, dims)]


# --- pad ---------------------------------------------------------------------------------------
@pattern("stablehlo.pad")
@xla_typed
def pad_of_pad(op):
    """pad(pad(x, v, l1, h1, i1), v, l2, h2, 0) -> pad(x, v, l1 + l2, h1 + h2, i1), for
    non-negative edge padding (the outer pad adds only edges of the same value)."""
    inner = producer(op.operands[0], "stablehlo.pad")
    if inner is None or not same_scalar(inner.operands[1], op.operands[1]):
        return None
    (l1, h1, i1), (l2, h2, i2) = _pad_params(inner), _pad_params(op)
    if any(i2) or any(p < 0 for p in l1 + h1 + l2 + h2):
        return None
    config = [(a + b, c + e, i) for a, b, c, e, i in zip(l1, l2, h1, h2, i1, strict=True)]
    return [slicing.pad(inner.operands[0], inner.operands[1], config)]


# --- concatenate -------------------------------------------------------------------------------
@pattern("stablehlo.concatenate")
@xla_typed
def concatenate_of_concatenate(op):
    """concatenate(a, concatenate(b, c, dim d), e, dim d) -> concatenate(a, b, c, e, dim d)."""
    d = int_attr(op, "dimension")
    flat, changed = [], False
    for v in op.operands:
        inner = producer(v, "stablehlo.concatenate")
        if inner is not None and int_attr(inner, "dimension") == d:
            flat.extend(inner.operands)
            changed = True
        else:
            flat.append(v)
    return [slicing.concatenate(flat, d)] if changed else None


@pattern("stablehlo.concatenate")
@xla_typed
def concatenate_drop_empty(op):
    """concatenate(a, e, b) -> concatenate(a, b) when e has no elements (nor then does its
    part of the result); at least one operand stays."""
    if any(static_dims(v) is None for v in op.operands):
        return None
    d = int_attr(op, "dimension")
    kept = [v for v in op.operands if static_dims(v)[d] != 0]
    if not kept or len(kept) == len(op.operands):
        return None
    return [kept[0]] if len(kept) == 1 else [slicing.concatenate(kept, d)]


def _joined_slice(a: ir.Value, b: ir.Value, d: int) -> ir.Value | None:
    """slice(x, [.., s:m]) and slice(x, [.., m:e]) (stride 1 in ``d``, the same elsewhere) as
    one slice(x, [.., s:e]); None when they are not two such neighbours."""
    sa, sb = producer(a, "stablehlo.slice"), producer(b, "stablehlo.slice")
    if sa is None or sb is None or sa.operands[0] != sb.operands[0]:
        return None
    (s1, l1, t1), (s2, l2, t2) = _slice_params(sa), _slice_params(sb)
    others_equal = all(p[i] == q[i] for p, q in ((s1, s2), (l1, l2), (t1, t2))
                       for i in range(len(s1)) if i != d)
    if not others_equal or t1[d] != 1 or t2[d] != 1 or l1[d] != s2[d]:
        return None
    limits = list(l1)
    limits[d] = l2[d]
    return slicing.slice_(sa.operands[0], s1, limits, t1)


@pattern("stablehlo.concatenate")
@xla_typed
def concatenate_adjacent_slices(op):
    """concatenate(slice(x, [s:m]), slice(x, [m:e]), dim d) -> slice(x, [s:e]): neighbouring
    stride-1 slices of one x along d, equal in the other dimensions, become one slice."""
    d = int_attr(op, "dimension")
    operands = list(op.operands)
    merged, changed = [operands[0]], False
    for v in operands[1:]:
        joined = _joined_slice(merged[-1], v, d)
        if joined is None:
            merged.append(v)
        else:
            merged[-1], changed = joined, True
    if not changed:
        return None
    return [merged[0]] if len(merged) == 1 else [slicing.concatenate(merged, d)]


# --- broadcast, transpose, reshape --------------------------------------------------------------
@pattern("stablehlo.transpose")
@xla_typed
def transpose_of_broadcast(op):
    """transpose(broadcast_in_dim(x, dims), perm) -> broadcast_in_dim(x, [inv[d] for d in dims])
    (inv the inverse of perm), when those dimensions stay in increasing order."""
    inner = producer(op.operands[0], "stablehlo.broadcast_in_dim")
    out = static_dims(op.results[0])
    if inner is None or out is None or static_dims(inner.operands[0]) is None:
        return None
    perm = int_array(op, "permutation")
    inverse = {p: i for i, p in enumerate(perm)}
    dims = [inverse[d] for d in int_array(inner, "broadcast_dimensions")]
    if dims != sorted(dims):
        return None
    return [shape_ops.broadcast_in_dim(inner.operands[0], out, dims)]


@pattern("stablehlo.transpose")
@xla_typed
def transpose_of_unit_dims(op):
    """transpose(x, perm) -> reshape(x) when perm keeps the order of x's dimensions larger than
    1 (it only moves size-1 dimensions, so the elements keep their row-major order)."""
    dims, out = static_dims(op.operands[0]), static_dims(op.results[0])
    perm = int_array(op, "permutation")
    if dims is None or out is None or perm == sorted(perm):
        return None
    moved = [p for p in perm if dims[p] != 1]
    return [shape_ops.reshape(op.operands[0], out)] if moved == sorted(moved) else None


@pattern("stablehlo.reshape")
@xla_typed
def reshape_of_scalar_broadcast(op):
    """reshape(broadcast_in_dim(x)) -> broadcast_in_dim(reshape(x, [])) when x has one element
    (every element of the result is that element)."""
    inner = producer(op.operands[0], "stablehlo.broadcast_in_dim")
    out = static_dims(op.results[0])
    x = inner.operands[0] if inner is not None else None
    if x is None or out is None or static_dims(x) is None or int(np.prod(static_dims(x))) != 1:
        return None
    scalar = x if not static_dims(x) else shape_ops.reshape(x, [])
    return [shape_ops.broadcast_in_dim(scalar, out, [])]


# --- dynamic_slice, dynamic_update_slice --------------------------------------------------------
@pattern("stablehlo.dynamic_slice")
@xla_typed
def dynamic_slice_constant_indices(op):
    """dynamic_slice(x, c0, ..., cn, sizes) -> slice(x, starts, starts + sizes) for constant
    start indices, each clamped into [0, dim - size] as the spec's DynamicSlice does."""
    x, *indices = op.operands
    dims = static_dims(x)
    values = [splat_of(i, through_broadcast=False) for i in indices]
    if dims is None or not dims or any(v is None for v in values):
        return None
    sizes = int_array(op, "slice_sizes")
    starts = [min(max(int(v), 0), n - s) for v, n, s in zip(values, dims, sizes, strict=True)]
    return [slicing.slice_(x, starts, [a + s for a, s in zip(starts, sizes, strict=True)])]


@pattern("stablehlo.dynamic_update_slice")
def dynamic_update_slice_whole(op):
    """dynamic_update_slice(x, u, i...) -> u when u is as large as x (every start clamps to 0)."""
    x, u = op.operands[0], op.operands[1]
    return [u] if static_dims(x) is not None and u.type == op.results[0].type else None


@pattern("stablehlo.dynamic_update_slice")
def dynamic_update_slice_empty(op):
    """dynamic_update_slice(x, u, i...) -> x when u has no elements (nothing is written)."""
    x, u = op.operands[0], op.operands[1]
    dims = static_dims(u)
    return [x] if dims is not None and 0 in dims and x.type == op.results[0].type else None


PATTERNS = (
    slice_of_slice,
    slice_of_concatenate,
    slice_of_pad_operand,
    slice_of_pad_padding,
    slice_of_broadcast,
    pad_of_pad,
    concatenate_of_concatenate,
    concatenate_drop_empty,
    concatenate_adjacent_slices,
    transpose_of_broadcast,
    transpose_of_unit_dims,
    reshape_of_scalar_broadcast,
    dynamic_slice_constant_indices,
    dynamic_update_slice_whole,
    dynamic_update_slice_empty,
)
