"""The algebraic simplifier's reduction and contraction rules (XLA
``algebraic_simplifier.cc``: HandleReduce, HandleDot, HandleConvolution).

StableHLO leaves open how often a reduction applies its init value and in which order it
combines elements; these rules change neither where that could change a result:

- a reduction of no elements is its init value (spec: Reduce);
- dropping reduced dimensions of size 1 keeps the elements and their order;
- merging two reductions applies the init value a different number of times and
  reassociates, so it needs an init that is the reducer's identity (or an idempotent
  reducer) and a reducer that is exactly associative for the type: every integer and PRED
  reducer, and float max/min (never a float add or multiply);
- a dot or convolution that contracts over no elements is zero.

``algsimp`` applies them (``PATTERNS``).
"""

from __future__ import annotations

import numpy as np

from dialect_ops import op_facts, shape_ops
from dialect_ops.reduction import reduce
from hlo_mlir.ir_access import convolution_dimension_numbers, dot_dimension_numbers, int_array
from pipelines.matchers import element_dtype, producer, static_dims
from pipelines.pass_base import pattern
from pipelines.reductions import init_is_identity, reassociation_exact, simple_reducer
from pipelines.regions import copy_of
from pipelines.simplifiers._algsimp_shapes import same_scalar, splat_constant, xla_typed

__all__ = ["PATTERNS", "MERGE_LIMIT"]

# reduce-of-reduce merges only reductions of fewer elements per result than this: the
# tree-reduction-rewriter (O2, default min-size 65536) splits longer ones into exactly
# such a pair, which merging would undo.
MERGE_LIMIT = 1 << 16


# --- reduce ------------------------------------------------------------------------------------
@pattern("stablehlo.reduce")
@xla_typed
def reduce_of_empty(op):
    """reduce(x, init) -> broadcast_in_dim(init) when x has no elements (spec: Reduce)."""
    n = len(op.results)
    dims = static_dims(op.operands[0])
    out = static_dims(op.results[0])
    if dims is None or out is None or 0 not in dims:
        return None
    return [shape_ops.broadcast_in_dim(init, out, []) for init in list(op.operands)[n:]]


@pattern("stablehlo.reduce")
@xla_typed
def reduce_degenerate_dims(op):
    """reduce(x, dims) -> reduce(reshape(x), dims without the size-1 ones); when every reduced
    dimension has size 1 (or none is reduced) and the init is the reducer's identity: reshape(x)
    (each result is its one element, combined with nothing else)."""
    n = len(op.results)
    xs, inits = list(op.operands)[:n], list(op.operands)[n:]
    dims = static_dims(xs[0])
    reduced = int_array(op, "dimensions")
    if dims is None or (reduced and not any(dims[d] == 1 for d in reduced)):
        return None
    kept = [i for i, size in enumerate(dims) if not (size == 1 and i in reduced)]
    sizes = [dims[i] for i in kept]
    remaining = [kept.index(d) for d in reduced if dims[d] != 1]
    if remaining:
        reshaped = [shape_ops.reshape(x, sizes) for x in xs]
        return reduce(reshaped, inits, remaining, copy_of(op.regions[0].blocks[0]))
    if not init_is_identity(op):
        return None
    return [xs[0] if sizes == dims else shape_ops.reshape(xs[0], sizes)]


@pattern("stablehlo.reduce")
@xla_typed
def reduce_of_reduce(op):
    """reduce(reduce(x, d1, i), d2, i) -> reduce(x, d1 + d2 mapped to x's dimensions), for one
    reducer op that reassociates exactly (integers, PRED; float max/min) and an init that is
    its identity or any value of an idempotent op; fewer than MERGE_LIMIT elements per result."""
    inner = producer(op.operands[0], "stablehlo.reduce")
    name = simple_reducer(op)
    if inner is None or name is None or simple_reducer(inner) != name or not same_scalar(op.operands[1],
                                                                                          inner.operands[1]):
        return None
    if len(list(inner.results[0].uses)) != 1:
        return None  # the inner reduction stays for its other reader: nothing saved
    dtype = element_dtype(op.operands[1])
    if dtype is None or op_facts.type_class(dtype) == op_facts.COMPLEX or not reassociation_exact(op):
        return None
    if not (op_facts.facts_of(name).idempotent or init_is_identity(op)):
        return None
    if static_dims(inner.operands[0]) is None:
        return None
    d1 = int_array(inner, "dimensions")
    kept = [i for i in range(len(static_dims(inner.operands[0]))) if i not in d1]
    dims = sorted(d1 + [kept[d] for d in int_array(op, "dimensions")])
    if int(np.prod([static_dims(inner.operands[0])[d] for d in dims])) >= MERGE_LIMIT:
        return None
    return reduce([inner.operands[0]], [inner.operands[1]], dims, copy_of(inner.regions[0].blocks[0]))


# --- dot, convolution ----------------------------------------------------------------------------
def _contracted_sizes(op) -> list[int] | None:
    """The sizes of the dimensions a dot_general or convolution sums over (for a convolution:
    the kernel's input features), or None when a shape is dynamic."""
    rhs = static_dims(op.operands[1])
    if rhs is None:
        return None
    if op.operation.name == "stablehlo.dot_general":
        return [rhs[d] for d in dot_dimension_numbers(op).rhs_contracting_dimensions]
    return [rhs[convolution_dimension_numbers(op).kernel_input_feature_dimension]]


@pattern("stablehlo.dot_general", "stablehlo.convolution")
@xla_typed
def contraction_over_nothing(op):
    """dot_general(a, b) and convolution(a, b) -> zeros when they sum over no elements (a
    contracting dimension, or the kernel's input features, of size 0): an empty sum is 0."""
    result = op.results[0]
    sizes = _contracted_sizes(op)
    dtype = element_dtype(result)
    if sizes is None or 0 not in sizes or static_dims(result) is None or dtype is None \
            or op_facts.type_class(dtype) == op_facts.COMPLEX:
        return None
    return [splat_constant(np.array(0), result)]


PATTERNS = (
    reduce_of_empty,
    reduce_degenerate_dims,
    reduce_of_reduce,
    contraction_over_nothing,
)
