"""topk-rewriter: a descending sort followed by slices of its first k becomes ``chlo.top_k``
(spec 004: TopK rewriter; XLA ``topk_rewriter.cc``), the inverse of ``top-k-expander``.

XLA pattern-matches the sort that ``lax.top_k``-style code writes (sort of the values,
or of the values and an s32 iota, by a greater-than comparator) whose every user is a
slice of the first k along the sort dimension, and replaces the slices by a TopK::

    %s:2 = "stablehlo.sort"(%x, iota(dim 1)) ({
      ^bb0(%a, %b, %i, %j): return compare GT, %a, %b, TOTALORDER
    }) {dimension = 1, is_stable = true} : tensor<3x8xf32>, tensor<3x8xi32>
    %v = slice %s#0 [0:3, 0:2]
    %i = slice %s#1 [0:3, 0:2]

becomes::

    %v, %i = chlo.top_k(%x, k = 2) : tensor<3x8xf32> -> (tensor<3x2xf32>, tensor<3x2xi32>)

Exactness: ``chlo.top_k`` here means XLA's TopK: values by the total order ``-NaN < -Inf
< ... < -0 < +0 < ... < +Inf < +NaN``, equal values lowest index first (what
``top-k-expander`` builds, ARCHITECTURE.md: IREE's own top_k breaks ties otherwise). So the
sort must order exactly so:

- its comparator is ``compare GT`` of its first pair (``a > b``, or ``b < a``) and
  nothing else, TOTALORDER for floats (IEEE ``>`` has no order on NaN and ties -0 with
  +0), signed/unsigned as the integer type for integers;
- the iota (when the indices are read) counts along the sort dimension in s32, and the
  sort is stable (equal values keep their index order); a sort whose indices nobody reads
  may be unstable: equal keys are then equal bits;
- the sort dimension is the last one (``chlo.top_k``'s), every user of a result is a
  slice from 0 with stride 1 that keeps all other dimensions, and all take the same k > 0.

XLA also accepts IEEE ``>`` on floats and unstable sorts with indices (its TopK then
decides ties and NaNs); those are left alone here. Statistics: ``values``,
``values-and-indices``. Run ``dce`` afterwards (the iota stays) and ``top-k-expander``
before handing the module to IREE.
"""

from __future__ import annotations

from iree.compiler import ir

from dialect_ops.sorting import top_k
from hlo_mlir import _emit
from hlo_mlir.ir_access import bool_attr, comparison_direction, comparison_type, int_array
from hlo_mlir.types import PrimitiveType
from pipelines.matchers import defining_op, ops_where, xla_arrays
from pipelines.pass_base import Pass
from pipelines.registry import register
from pipelines.sort_regions import comparator_block, sort_dimension

__all__ = ["TopkRewriter"]


@register
class TopkRewriter(Pass):
    """Rewrites a descending sort and slices of its first k into chlo.top_k (XLA's TopkRewriter)."""

    name = "topk-rewriter"
    acts_on = frozenset({"stablehlo.sort"})

    def run(self, module: ir.Module) -> bool:
        changed = False
        for op in ops_where(module, lambda o: o.name == "stablehlo.sort"):
            k = _top_k_of(op.opview)
            if k is None:
                continue
            with module.context, op.location, ir.InsertionPoint(op):
                values, indices = top_k(op.operands[0], k)
            for result, new in zip(op.results, (values, indices)[:len(op.results)], strict=True):
                for use in list(result.uses):
                    use.owner.results[0].replace_all_uses_with(new)
                    use.owner.erase()
            self.record("values-and-indices" if len(op.results) == 2 else "values")
            op.erase()
            changed = True
        return changed


def _top_k_of(op) -> int | None:
    """The k of sort ``op`` when it and its users are a top-k that ``chlo.top_k`` computes
    exactly (see the module docstring); None otherwise."""
    if len(op.results) not in (1, 2) or not xla_arrays([*op.operands, *op.results]):
        return None  # quantized sorts are left alone
    dims = _emit.shape_of(op.operands[0]).dimensions
    if not dims or sort_dimension(op) != len(dims) - 1:
        return None
    if not _descending_total_order(op):
        return None
    stable = "is_stable" in op.attributes and bool_attr(op, "is_stable")
    if len(op.results) == 2 and not (_is_position_iota(op.operands[1], len(dims) - 1)
                                     and (stable or not _read(op.results[1]))):
        return None
    ks = set()
    for result in op.results:
        for use in result.uses:
            slice_k = _first_k(use.owner, dims)
            if slice_k is None:
                return None
            ks.add(slice_k)
    return ks.pop() if len(ks) == 1 and 0 not in ks else None


def _read(value: ir.Value) -> bool:
    return any(True for _ in value.uses)


def _descending_total_order(op) -> bool:
    """Whether the comparator is ``a > b`` on its first pair under the total order of the
    key's element type (and reads nothing else)."""
    block = comparator_block(op)
    body = list(block.operations)
    if len(body) != 2 or body[0].operation.name != "stablehlo.compare":
        return False
    compare, ret = body
    if list(ret.operands) != [compare.results[0]]:
        return False
    a, b = block.arguments[0], block.arguments[1]
    direction = comparison_direction(compare)
    if (direction, list(compare.operands)) not in (("GT", [a, b]), ("LT", [b, a])):
        return False
    t = _emit.shape_of(op.operands[0]).element_type
    wanted = {"TOTALORDER"} if t.is_floating_point else \
        {None, "SIGNED"} if t.is_signed_integer else {None, "UNSIGNED"} if t.is_unsigned_integer else set()
    return comparison_type(compare) in wanted


def _is_position_iota(value: ir.Value, dimension: int) -> bool:
    """Whether ``value`` is an s32 iota counting along ``dimension`` (XLA's HasIota: an iota
    of the full shape, or a broadcast of a 1-D one)."""
    shape = _emit.shape_of(value)
    if shape.element_type is not PrimitiveType.S32:
        return False
    source = defining_op(value)
    if source is None:
        return False
    if source.operation.name == "stablehlo.iota":
        return _iota_dimension(source) == dimension
    if source.operation.name == "stablehlo.broadcast_in_dim":
        inner = defining_op(source.operands[0])
        return (inner is not None and inner.operation.name == "stablehlo.iota"
                and int_array(source, "broadcast_dimensions") == [dimension])
    return False


def _iota_dimension(op) -> int:
    return ir.IntegerAttr(op.attributes["iota_dimension"]).value


def _first_k(user, dims) -> int | None:
    """The k of ``user`` when it is a slice of the first k along the last dimension that
    keeps every other dimension whole."""
    if user.operation.name != "stablehlo.slice":
        return None
    starts, limits = int_array(user, "start_indices"), int_array(user, "limit_indices")
    strides = int_array(user, "strides")
    if any(starts) or any(s != 1 for s in strides) or list(limits[:-1]) != list(dims[:-1]):
        return None
    return limits[-1]
