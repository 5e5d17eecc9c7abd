"""inplace-operand-copy: sort, dynamic_update_slice and scatter update a buffer of their
own, and a sort's dispatch stores nothing but its results.

The pinned IREE updates in place the operands it ties to results: every operand of
``stablehlo.sort``, the operand of ``dynamic_update_slice`` and the inputs of
``scatter``. Its dispatch of the in-place op loads each such operand from a read-write
binding and stores the result back to it; IREE's copy-on-write clones the operand
first when others read it. Five things break that (docs/iree-defects.md, "In-place
update through an optimization barrier" and the fuzzer rows), each fixed here:

1. **private-copy**: the operand is a value copy-on-write cannot see or cannot write.
   ``util.optimization_barrier`` hides the aliasing (its result is a new value whose only
   reader is the in-place op, yet it is the barrier operand's buffer: the other readers
   of a parameter saw it sorted); an expression of constants and iotas is a read-only
   global after IREE's compile-time evaluation (``TopK(Constant)``, ``TopK(Map(c, c))``:
   "'linalg.generic' op write affecting operations on global resources are restricted to
   workgroup distributed contexts"); a ``dynamic_slice`` is a view of its operand (a
   constant, a parameter). A sort operand that a branch of another operand's conditional
   returns is the conditional's buffer too (``Sort([If(p, g, ...), g])``).
2. **sorted-view**: IREE's sort dispatch needs each operand whole, from a buffer of its
   own: an argument or the result of a dispatch that computes it (an element-wise op, a
   contraction, a reduction, a sort, a scatter, a map, a transpose, ...). Any other
   producer is fused or folded into the sort's dispatch as a copy into a stack buffer
   that is not distributed, and fails with the message above: a slice that is not the
   identity (TopK's indices), a pad, the slice ending ``rng_bit_generator``'s expansion,
   and those seen through the ops IREE folds away (a reduce over no dimensions, a map
   returning an argument, same-type converts, reshapes, transposes that move only unit dimensions). Such
   operand is sorted as a private copy read through a barrier of its own.
3. **padded-splat**: a pad whose padding value is computed at run time (a parameter, or
   a complex constant, which ``complex-source-barriers`` builds later from fenced real
   parts) is a splat the padded operand is written into, and IREE merges equal splats:
   a scatter into such a pad, whose result was padded again with the same value, failed
   ("'stream.yield' op used resource not listed in explicit captures (or produced
   internally)"). A scatter or dynamic_update_slice updates a fenced private copy of such
   a pad (a sort, by rule 2, of any pad).
4. **sort-result-fence**: a sort result that an op pads (``pad``, ``reduce_window`` or a
   convolution with padding) was stored by the sort's dispatch straight into the padded
   buffer, so the sort's operand became read-only in that dispatch and needed the same
   undistributed copy. A sort whose results are read by anything but barriers and
   ``return`` gets all its results through one barrier, so its dispatch stores them
   where it loaded them (a barrier costs nothing at run time).
5. **shared-source**: a dynamic_update_slice or scatter of a concatenate or of an
   ``rng_bit_generator`` output that another op reads too (directly or through the views
   above) was updated in place, and the other reader saw the update: a concatenate when
   another concatenate of the module started with a constant
   (``Tuple(Concat([c, q, q]), DUS(Concat([x, c, c]), u, i), Neg(Concat([x, c, c])))``:
   seed 20261127 program 6950), an rng output always (``Tuple(DUS(r, u, i), Clz(r))``:
   program 9679). The update gets a private copy: the clone IREE's copy-on-write should
   have made, so such a source with other readers costs no more.

The private copy::

    %b = stablehlo.optimization_barrier %x
    %z = stablehlo.optimization_barrier %minus_zero   // scalar -0.0 (0, false)
    %c = stablehlo.add %b, broadcast(%z)              // a new buffer, only the sort's
    %s = "stablehlo.sort"(%c) ...

``x + (-0.0)`` is ``x`` bit for bit (``-0 + -0 = -0``, NaN stays NaN); integers add 0,
PRED is or-ed with false, complex adds ``(-0, -0)``. The barrier over the scalar keeps
IREE from folding the add away, so the add is one element-wise dispatch that writes a
fresh buffer: the copy IREE's copy-on-write should have made. Every barrier result is
copied, those of rule 4 and ``sort-barriers`` too: a sort result fenced by a barrier,
read by a ``Neg`` and updated by a ``dynamic_update_slice``, gave the ``Neg`` the
updated values when the update was made in place.

Conditions: the operand is statically shaped, of an XLA element type (not quantized).
Operands that are arguments or computed values are left alone for dynamic_update_slice
and scatter (IREE copies them right; a concatenate others read is rule 5), and for a sort
when computed by a dispatch of their own: programs that sort or update computed values or
parameters (the benchmark workloads) compile as before. Run it after the passes that make
barriers and in-place ops (``sort-barriers``, ``select-and-scatter-expander``, ``scatter-bounds``,
``dynamic-slice-indices``) and before ``result-barrier`` (whose barriers only ``return``
reads).
"""

from __future__ import annotations

import numpy as np
from iree.compiler import ir

from dialect_ops.constant import constant
from dialect_ops.elementwise import binary
from dialect_ops.op_facts import ELEMENTWISE_OPS
from dialect_ops.side_effects import optimization_barrier
from pipelines.matchers import defining_op, element_dtype, ops_where, producer, static_dims
from pipelines.operand_fences import fence_results
from pipelines.pass_base import Pass
from pipelines.registry import register

__all__ = ["InplaceOperandCopy", "neutral_element", "run_time_value", "through_views"]

# Ops whose result is a whole buffer of their own dispatch, which a sort may update: IREE
# computes each element-wise op into a buffer of its own (it fuses no producer but slices,
# pads and constants into a sort's dispatch), and these others too.
# A conditional's result stays too: copying it compiled but failed at run time ("transient
# buffer has not been committed"); a branch value sorted beside it is copied instead.
_OWN_BUFFER = ELEMENTWISE_OPS | {f"stablehlo.{name}" for name in (
    "dot dot_general convolution sort scatter select_and_scatter reduce reduce_window map "
    "transpose reverse if case").split()}


# Producers whose buffer IREE updated in place while another op still read it (rule 5).
_SHARED_SOURCES = ("stablehlo.concatenate", "stablehlo.rng_bit_generator")


def _inplace_operands(op) -> list[int]:
    """Indices of the operands IREE updates in place for ``op`` (none for other ops)."""
    name = op.operation.name
    if name == "stablehlo.sort":
        return list(range(len(op.operands)))
    if name == "stablehlo.dynamic_update_slice":
        return [0]
    if name == "stablehlo.scatter":
        return list(range(len(op.results)))
    return []


def _int_list(op, name: str) -> list[int]:
    return list(ir.DenseI64ArrayAttr(op.attributes[name])) if name in op.attributes else []


def _view_source(op, value: ir.Value, conditionals: bool = True) -> ir.Value | None:
    """The operand whose buffer IREE reads as ``op``'s result ``value`` (a view of it, or
    the value itself, folded away), or None when ``op`` computes a buffer (a conditional
    too, without ``conditionals``)."""
    name = op.operation.name
    if not op.operands:
        return None
    if name == "stablehlo.reshape":
        return op.operands[0]
    same = op.operands[0].type == value.type
    if name in ("stablehlo.convert", "stablehlo.bitcast_convert", "stablehlo.slice"):
        return op.operands[0] if same else None  # the same type, or a full slice
    if name == "stablehlo.pad":
        padding = [_int_list(op, a) for a in ("edge_padding_low", "edge_padding_high", "interior_padding")]
        return op.operands[0] if not any(any(p) for p in padding) else None
    if name == "stablehlo.transpose":
        # a transpose that moves only unit dimensions is a reshape to IREE (a view)
        shape = ir.RankedTensorType(op.operands[0].type).shape
        moved = [d for d in _int_list(op, "permutation") if shape[d] != 1]
        return op.operands[0] if moved == sorted(moved) else None
    if name == "stablehlo.broadcast_in_dim":
        dims = _int_list(op, "broadcast_dimensions")
        return op.operands[0] if same and dims == sorted(dims) else None
    if name == "stablehlo.reverse":
        return op.operands[0] if not _int_list(op, "dimensions") else None
    if name == "stablehlo.reduce" and len(op.results) == 1 and not _int_list(op, "dimensions"):
        return op.operands[0]  # a reduce over no dimensions: IREE copies the input
    if name in ("stablehlo.if", "stablehlo.case") and conditionals:
        # every branch returning one outer value: IREE folds the conditional to that value
        # (Sort(If(p, Pad(x), Pad(x))): seed 20261127 program 3014)
        k = list(op.results).index(value)
        returned = {list(region.blocks[0].operations)[-1].operands[k] for region in op.regions}
        return returned.pop() if len(returned) == 1 else None
    if name == "stablehlo.map":
        # a map returning one of its arguments is that operand (TopK(Map(c, c), ...))
        terminator = list(op.regions[0].blocks[0].operations)[-1]
        returned = terminator.operands[0]
        for k, argument in enumerate(op.regions[0].blocks[0].arguments):
            if returned == argument:
                return op.operands[k]
    return None


def through_views(value: ir.Value, conditionals: bool = True) -> ir.Value:
    """``value``, looking through the ops IREE turns into views of their operand (and the
    conditionals it folds, with ``conditionals``)."""
    for _ in range(64):  # a bounded walk up a chain of views
        op = defining_op(value)
        up = _view_source(op, value, conditionals) if op is not None else None
        if up is None:
            return value
        value = up
    return value


def _constant_derived(value: ir.Value, budget: int = 256) -> bool:
    """Whether ``value`` is computed from constants and iotas alone: IREE evaluates such an
    expression at compile time into a read-only global (a constant, ``TopK(Map(c, c))``)."""
    seen: set = set()
    stack = [value]
    while stack:
        v = stack.pop()
        op = defining_op(v)
        if op is None:
            return False
        name = op.operation.name
        if name in ("stablehlo.constant", "stablehlo.iota"):
            continue
        if (not op.operands or name in ("stablehlo.optimization_barrier", "stablehlo.if",
                                        "stablehlo.case", "stablehlo.while")):
            return False  # a barrier stops the hoisting; regions may read outer values
        key = op.operation
        if key in seen:
            continue
        seen.add(key)
        if len(seen) > budget:
            return False
        stack.extend(op.operands)
    return True


def run_time_value(value: ir.Value) -> bool:
    """Whether IREE computes ``value`` at run time: not from constants alone, or complex
    (``complex-source-barriers``, after this pass, builds complex constants from fenced
    real parts)."""
    dtype = element_dtype(value)
    return not _constant_derived(value) or (dtype is not None and dtype.kind == "c")


def _copy_reason(op, value: ir.Value) -> str | None:
    """Why in-place ``op`` must update a private copy of operand ``value``, or None."""
    source = through_views(value)
    if any(through_views(v) == source for v in op.operands if v != value):
        # a conditional IREE folds to another operand's value: that operand is copied (rule
        # 1, or its own reason), this one stays (two copies of one value would be merged)
        source = through_views(value, conditionals=False)
    inner = defining_op(source)
    if inner is None:
        return None  # an argument: IREE copies it when others read it
    name = inner.operation.name
    if name in ("stablehlo.optimization_barrier", "stablehlo.dynamic_slice") or _constant_derived(source):
        return "private-copy"
    if op.operation.name == "stablehlo.sort" and name not in _OWN_BUFFER:
        return "sorted-view"
    if name == "stablehlo.pad" and run_time_value(inner.operands[1]):
        return "padded-splat"
    if name in _SHARED_SOURCES and _read_elsewhere(op, value, source):
        return "shared-source"
    return None


def _read_elsewhere(op, value: ir.Value, source: ir.Value) -> bool:
    """Whether an op other than ``op`` reads its operand ``value`` or the views between it
    and ``source`` (through_views' chain)."""
    reader = op.operation
    for _ in range(64):  # through_views' bounded walk
        if any(use.owner.operation != reader for use in value.uses) or len(list(value.uses)) > 1:
            return True
        view = defining_op(value)
        if value == source or view is None:
            return False
        up = _view_source(view, value)
        if up is None:
            return False
        reader, value = view.operation, up
    return True


def _passed_through(op, value: ir.Value) -> bool:
    """Whether another operand of sort ``op`` is ``value``'s buffer when a branch of the
    conditional defining another operand returns ``value`` itself (then IREE sorts one
    buffer as two operands: ``Sort([If(p, g, ...), g])``)."""
    if op.operation.name != "stablehlo.sort":
        return False
    for other in op.operands:
        conditional = producer(other, "stablehlo.if", "stablehlo.case")
        if conditional is None or other == value:
            continue
        k = list(conditional.results).index(other)
        for region in conditional.regions:
            terminator = list(region.blocks[0].operations)[-1]
            if terminator.operands[k] == value:
                return True
    return False


def neutral_element(dtype: np.dtype) -> tuple[str, np.ndarray] | None:
    """The op and scalar that leave every ``dtype`` value's bits as they are."""
    if dtype == np.bool_:
        return "Or", np.array(False)
    if dtype.kind in "iu":
        return "Add", np.zeros((), dtype)
    if dtype.kind == "c":
        return "Add", np.array(complex(-0.0, -0.0), dtype)
    if dtype.kind == "f" or dtype.name in ("bfloat16",) or dtype.name.startswith("float8"):
        return "Add", np.array(-0.0, dtype)
    return None


def _private_copy(value: ir.Value, fence: bool = False) -> ir.Value | None:
    """``value`` (through a barrier of its own with ``fence``) through an element-wise
    identity IREE cannot fold: a buffer of its own."""
    dtype = element_dtype(value)
    if dtype is None or static_dims(value) is None:
        return None
    neutral = neutral_element(dtype)
    if neutral is None:
        return None
    op_name, scalar = neutral
    return binary(op_name, optimization_barrier([value])[0] if fence else value,
                  optimization_barrier([constant(scalar)])[0])


def _fused_readers(op) -> bool:
    """Whether a result of sort ``op`` is read by an op other than a barrier or return
    (which IREE might fuse into the sort's dispatch as the store of a pad)."""
    return any(use.owner.operation.name not in ("stablehlo.optimization_barrier", "func.return")
               for result in op.results for use in result.uses)


@register
class InplaceOperandCopy(Pass):
    """Gives sort, dynamic_update_slice and scatter a buffer of their own and fences sort results."""

    name = "inplace-operand-copy"
    legalizes_for_iree = True

    def run(self, module: ir.Module) -> bool:
        ops = ops_where(module, _inplace_operands)
        changed = False
        with module.context:
            # fences first: an in-place op reading a fenced result then copies it
            for op in ops:
                if op.operation.name == "stablehlo.sort" and _fused_readers(op):
                    fence_results(op)
                    self.record("sort-result-fence")
                    changed = True
            for op in ops:
                for k in _inplace_operands(op):
                    value = op.operands[k]
                    reason = _copy_reason(op, value)
                    if reason is None and _passed_through(op, value):
                        reason = "private-copy"
                    if reason is None:
                        continue
                    with ir.InsertionPoint(op), op.location:
                        copy = _private_copy(value, fence=reason in ("sorted-view", "padded-splat"))
                    if copy is None:
                        continue
                    op.operation.operands[k] = copy
                    self.record(reason)
                    changed = True
        return changed
