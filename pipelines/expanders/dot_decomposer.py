"""Dot decomposer (spec 004: Dot decomposer; XLA ``dot_decomposer.cc``).

Rewrites every ``dot_general`` into the canonical form: batch dimensions most major,
the free (non-contracting) dimensions of each operand reshaped into one, and the
contracting dimensions reshaped into one::

    %r = stablehlo.dot_general %x, %y, batching_dims = [2] x [0], contracting_dims = [0, 3] x [2, 1]
        : (tensor<2x4x5x3xf32>, tensor<5x3x2x6xf32>) -> tensor<5x4x6xf32>

becomes ::

    %xt = stablehlo.transpose %x, dims = [2, 1, 0, 3]      : tensor<5x4x2x3xf32>
    %xr = stablehlo.reshape %xt                            : tensor<5x4x6xf32>   [B, M, K]
    %yt = stablehlo.transpose %y, dims = [0, 2, 1, 3]      : tensor<5x2x3x6xf32>
    %yr = stablehlo.reshape %yt                            : tensor<5x6x6xf32>   [B, K, N]
    %d = stablehlo.dot_general %xr, %yr, batching_dims = [0] x [0], contracting_dims = [2] x [1]
    %r = stablehlo.reshape %d                              : tensor<5x4x6xf32>

A free or contracting group whose size is 1 is left out of the canonical operands
(XLA's rule; a dot without contracting dimensions gets a contracting dimension of size
1). Identity transposes and reshapes to the same shape are not emitted. Exact: the same
products are summed, only the operands' layout changes; the result element type and
precision config are kept.

A dot is already canonical (and left alone) when it has one contracting dimension, at
most one free dimension per operand, and batch dimensions ``0..n-1`` on both sides (XLA's
test; a dot with neither batch nor contracting dimensions is not canonical). Static
shapes of XLA element types only. Run ``algsimp`` after it to fold the new transposes and
reshapes into their neighbours.
"""

from __future__ import annotations

import math
from typing import Sequence

from iree.compiler import ir

from dialect_ops.linalg import DotDimensionNumbers
from dialect_ops.shape_ops import reshape, transpose
from pipelines.contractions import dot_dims, free_dims, rebuildable, rebuilt_dot
from pipelines.matchers import known_dims
from pipelines.pass_base import ExpanderPass
from pipelines.registry import register

__all__ = ["DotDecomposer", "is_canonical"]


def is_canonical(dnums: DotDimensionNumbers, lhs_rank: int, rhs_rank: int) -> bool:
    """XLA's DotDecomposer test for a dot it leaves alone."""
    nb = len(dnums.lhs_batch_dimensions)
    iota = tuple(range(nb))
    return (len(dnums.lhs_contracting_dimensions) == 1
            and lhs_rank <= nb + 2 and rhs_rank <= nb + 2
            and dnums.lhs_batch_dimensions == iota and dnums.rhs_batch_dimensions == iota)


def _layout(value: ir.Value, order: Sequence[int], sizes: Sequence[int]) -> ir.Value:
    """``value`` transposed to ``order`` and reshaped to ``sizes`` (each op only when it
    changes something)."""
    if list(order) != list(range(len(order))):
        value = transpose(value, order)
    if list(known_dims(value)) != list(sizes):
        value = reshape(value, sizes)
    return value


@register
class DotDecomposer(ExpanderPass):
    """Rewrite dot_general into XLA's canonical [batch, free, contracting] form."""

    name = "dot-decomposer"

    def matches(self, op) -> bool:
        if op.operation.name != "stablehlo.dot_general" or not rebuildable(op):
            return False
        lhs, rhs = op.operands
        return not is_canonical(dot_dims(op), len(known_dims(lhs)), len(known_dims(rhs)))

    def expand(self, op) -> Sequence[ir.Value]:
        """dot(x, y) -> reshape(dot(reshape(transpose(x)), reshape(transpose(y)))): lhs as
        [B..., M, K], rhs as [B..., K, N], M/N/K the products of the free and contracting
        dimensions (a group of size 1 left out, except K)."""
        dnums = dot_dims(op)
        lhs, rhs = op.operands
        ldims, rdims = known_dims(lhs), known_dims(rhs)
        lfree = free_dims(len(ldims), dnums.lhs_contracting_dimensions, dnums.lhs_batch_dimensions)
        rfree = free_dims(len(rdims), dnums.rhs_contracting_dimensions, dnums.rhs_batch_dimensions)
        batch = [ldims[d] for d in dnums.lhs_batch_dimensions]
        m = math.prod(ldims[d] for d in lfree)
        n = math.prod(rdims[d] for d in rfree)
        k = math.prod(ldims[d] for d in dnums.lhs_contracting_dimensions)
        ms, ns = ([m] if m != 1 else []), ([n] if n != 1 else [])
        new_lhs = _layout(lhs, [*dnums.lhs_batch_dimensions, *lfree, *dnums.lhs_contracting_dimensions],
                          [*batch, *ms, k])
        new_rhs = _layout(rhs, [*dnums.rhs_batch_dimensions, *dnums.rhs_contracting_dimensions, *rfree],
                          [*batch, k, *ns])
        nb = len(batch)
        canonical = DotDimensionNumbers((nb + len(ms),), (nb,), tuple(range(nb)), tuple(range(nb)))
        value = rebuilt_dot(op, new_lhs, new_rhs, canonical)
        result = known_dims(op.results[0])
        return [value if known_dims(value) == result else reshape(value, result)]
