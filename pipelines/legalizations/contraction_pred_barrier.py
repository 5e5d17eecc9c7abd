"""contraction-pred-barrier: a contraction whose element-wise consumers read PRED tensors
hands them its result through an optimization barrier (and reads an element-wise operand
that others read too through one).

With data tiling (``--iree-opt-data-tiling``, our llvm-cpu default) the pinned IREE
propagates the packed layout of a ``dot_general``/``dot``/``convolution`` result into
the element-wise ops it fuses after it, packing their other operands as well; a PRED
operand (stored as ``i8``) then fails to compile ("'linalg.pack' op expected
padding_value has 'i8' but got: 'i1'", or with an unsigned result "failed to legalize
unresolved target materialization from ('tensor<8xi8, #iree_encoding.encoding<...
op_type = matmul ...>>')"; fuzzer seed 20261125 programs 1783 and 873)::

    %d = stablehlo.dot_general %a, %v, contracting_dims = [1] x [0]
           : (tensor<4x2xf32>, tensor<2xf32>) -> tensor<4xf32>
    %r = stablehlo.select %p, %d, %x : tensor<4xi1>, tensor<4xf32>

becomes::

    %d = stablehlo.dot_general %a, %v, contracting_dims = [1] x [0]
           : (tensor<4x2xf32>, tensor<2xf32>) -> tensor<4xf32>
    %b = stablehlo.optimization_barrier %d : tensor<4xf32>
    %r = stablehlo.select %p, %b, %x : tensor<4xi1>, tensor<4xf32>

The contraction is then a dispatch of its own and its consumers are not packed. A barrier
changes no value. Conditions: an op fed, directly or through up to 8 element-wise ops
(region-free ops whose result has the contraction's shape), by the contraction's result,
loads a PRED tensor of rank > 0 (an argument, a non-splat constant or another op's
result, read directly or through the ``convert``, data-movement (``broadcast_in_dim``,
``reshape``, ``transpose``, ``slice``, ``dynamic_slice``, ``reverse``) and element-wise
ops IREE fuses into the consumer; ``Select(constant pred[1,1,4], Sin(c), c)`` of a
convolution ``c``, seed 20261129 program 166; ``subtract(dynamic_slice(transpose(
select(constant pred, x + x, x))), dot)``, the loop of an upper ``cholesky`` of a masked
matrix). A PRED computed in the dispatch from
other types (a ``compare`` of floats), a broadcast scalar PRED, a splat PRED constant
and a scalar ``select`` predicate do not count (they compile). Other contractions keep
their fused consumers.

**shared-operand**: with data tiling IREE also fuses an element-wise producer of a
contraction operand into the contraction's dispatch; when others read that producer too,
the dispatch stores it from a ``vector.store`` outside the distributed loop ("'vector.store'
op write affecting operations on global resources are restricted to workgroup distributed
contexts"; ``Tuple(Dot(v, c), ConcatInDim([c, c]))`` with ``c = Convert(x s32)``, seed
20261125 program 606). The contraction then reads such an operand (an element-wise op
with operands and another reader) through a barrier of its own; the other readers read it
as before.
"""

from __future__ import annotations

from iree.compiler import ir

from dialect_ops.side_effects import optimization_barrier
from pipelines.matchers import defining_op, element_dtype, splat_of, static_dims
from pipelines.pass_base import Pass
from pipelines.registry import register

__all__ = ["ContractionPredBarrier"]

_CONTRACTIONS = ("stablehlo.dot_general", "stablehlo.dot", "stablehlo.convolution")
# ops IREE fuses into a consumer's dispatch with their operand's loads (convert and data movement)
_PRED_CARRIERS = ("stablehlo.convert", "stablehlo.broadcast_in_dim", "stablehlo.reshape",
                  "stablehlo.transpose", "stablehlo.slice", "stablehlo.dynamic_slice", "stablehlo.reverse")
_DEPTH = 8


def _is_pred(value: ir.Value) -> bool:
    dtype = element_dtype(value)
    return dtype is not None and dtype.kind == "b"


def _elementwise(op) -> bool:
    """A region-free StableHLO op with one result whose operands have its shape or rank 0
    (not a barrier: IREE fuses nothing through it)."""
    name = op.operation.name
    if (not name.startswith("stablehlo.") or name == "stablehlo.optimization_barrier" or len(op.regions)
            or len(op.results) != 1):
        return False
    dims = static_dims(op.results[0])
    return dims is not None and all(static_dims(v) in (dims, []) for v in op.operands)


def _loads_pred(value: ir.Value, depth: int = 4) -> bool:
    """Whether computing ``value`` in a fused dispatch loads a PRED tensor of rank > 0:
    looking through ``convert``, data movement (``_PRED_CARRIERS``) and element-wise ops
    (which IREE fuses), a PRED tensor that is an argument, a non-splat constant or another
    op's result."""
    op = defining_op(value)
    if op is not None and op.operation.name == "stablehlo.constant":  # a splat becomes a fill
        return _is_pred(value) and bool(static_dims(value)) and splat_of(value) is None
    if op is not None and depth > 0 and (op.operation.name in _PRED_CARRIERS or _elementwise(op)):
        return any(_loads_pred(v, depth - 1) for v in op.operands)
    return _is_pred(value) and bool(static_dims(value))


def _elementwise_like(op, dims: list[int] | None) -> bool:
    return _elementwise(op) and static_dims(op.results[0]) == dims


def _pred_consumer(result: ir.Value) -> bool:
    """Whether an element-wise consumer chain of ``result`` reads a PRED tensor."""
    dims = static_dims(result)
    frontier, seen = [result], {result}
    for _ in range(_DEPTH):
        following = []
        for value in frontier:
            for use in value.uses:
                user = use.owner
                if not _elementwise_like(user, dims):
                    continue
                if any(_loads_pred(v) for v in user.operands if v not in seen):
                    return True
                out = user.results[0]
                if out not in seen:
                    seen.add(out)
                    following.append(out)
        frontier = following
        if not frontier:
            break
    return False


def _shared_elementwise(value: ir.Value, contraction) -> bool:
    """Whether contraction operand ``value`` is computed by an element-wise op with operands
    that another op reads too (IREE fuses it into the contraction and stores it from there)."""
    op = defining_op(value)
    return (op is not None and bool(op.operands) and _elementwise(op)
            and any(use.owner.operation != contraction.operation for use in value.uses))


@register
class ContractionPredBarrier(Pass):
    """Fences contractions from PRED-reading consumers and from shared element-wise operands (IREE fails)."""

    name = "contraction-pred-barrier"
    legalizes_for_iree = True

    def run(self, module: ir.Module) -> bool:
        found, shared = [], []
        changed = False

        def visit(op):
            result = op.results[0] if op.operation.name in _CONTRACTIONS else None
            if result is not None and static_dims(result) and _pred_consumer(result):
                found.append(op)
            if result is not None and any(_shared_elementwise(v, op) for v in op.operands):
                shared.append(op)
            return ir.WalkResult.ADVANCE

        module.operation.walk(visit)
        with module.context:
            for op in shared:
                for k, value in enumerate(op.operands):
                    if _shared_elementwise(value, op):
                        with ir.InsertionPoint(op), op.location:
                            (fenced,) = optimization_barrier([value])
                        op.operation.operands[k] = fenced
                        self.record("shared-operand")
                        changed = True
            for op in found:
                result = op.results[0]
                with ir.InsertionPoint.after(op), op.location:
                    (fenced,) = optimization_barrier([result])
                result.replace_all_uses_except(fenced, fenced.owner.operation)
                self.record(self.name)
        return changed or bool(found)
