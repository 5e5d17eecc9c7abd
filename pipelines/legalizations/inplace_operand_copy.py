"""inplace-operand-copy: sort, dynamic_update_slice and scatter update a private copy of
an operand that IREE would update where others still read it.

The pinned IREE updates in place the operands it ties to results: every operand of
``stablehlo.sort``, the operand of ``dynamic_update_slice`` and the inputs of
``scatter``. Its copy-on-write clones such an operand when the value has other readers,
but ``util.optimization_barrier`` hides the aliasing: the barrier's result is a new
value whose only reader is the in-place op, so no clone is made, yet it is the barrier
operand's buffer. Whoever else reads that buffer (a parameter, an intermediate result)
sees the updated values, and a hoisted constant behind a barrier (the iota of a stable
sort) is updated in the program's constant pool (docs/iree-defects.md, "In-place update
through an optimization barrier")::

    %b = stablehlo.optimization_barrier %x            // %x: a parameter
    %s = "stablehlo.sort"(%b) ...                     // sorts %x's buffer
    %n = stablehlo.negate %x                          // reads the sorted %x

becomes::

    %b = stablehlo.optimization_barrier %x
    %z = stablehlo.optimization_barrier %minus_zero   // scalar -0.0 (0, false)
    %c = stablehlo.add %b, broadcast(%z)              // a new buffer, only the sort's
    %s = "stablehlo.sort"(%c) ...

``x + (-0.0)`` is ``x`` bit for bit (``-0 + -0 = -0``, NaN stays NaN); integers add 0,
PRED is or-ed with false, complex adds ``(-0, -0)``. The barrier over the scalar keeps
IREE from folding the add away, so the add is one element-wise dispatch that writes a
fresh buffer: the copy IREE's copy-on-write should have made.

A constant (or an iota, which IREE hoists into a constant) sorted directly fails to
compile on llvm-cpu ("'linalg.generic' op write affecting operations on global
resources are restricted to workgroup distributed contexts": ``TopK`` of a constant)
and gets the same private copy.

A sort of a slice that is not the identity (``sort(x[:, 0:5])`` of an ``f32[2,6]``,
``Sort`` of ``TopK`` indices) or of a pad fails to compile on llvm-cpu with the same
message: IREE fuses the slice (pad) into the sort's dispatch, copying it into a stack
buffer whose copy back is not distributed. The slice is read through a barrier (its
own dispatch) and the same copy. A conditional's result is copied too: it is the buffer
of whatever its branch returns (``Sort([If(p, g, ...), g])``).

Barriers before in-place ops come from users (``OptimizationBarrier``) and from our
passes (``sort-barriers``: private iotas, repeated operands, and its dead-result barrier
after a sort whose result then feeds a ``dynamic_update_slice``). Conditions: the
in-place operand is, through ops IREE turns into views of their operand (reshape, an
identity slice or transpose, a same-type convert), the result of an
``optimization_barrier``, a ``constant``, an ``iota`` or an ``if``/``case``, or a sort
operand is a non-identity ``slice`` or a ``pad``; statically shaped, of an XLA
element type (not quantized). Other operands are left alone (IREE copies them right):
programs that sort or update computed values or parameters (the benchmark workloads)
compile as before. Run it after the passes that make barriers and in-place ops
(``sort-barriers``, ``select-and-scatter-expander``, ``scatter-bounds``,
``dynamic-slice-indices``) and before ``result-barrier`` (whose barriers only
``return`` reads).
"""

from __future__ import annotations

import numpy as np
from iree.compiler import ir

from dialect_ops.constant import constant
from dialect_ops.elementwise import binary
from dialect_ops.side_effects import optimization_barrier
from pipelines.matchers import defining_op, element_dtype, producer, static_dims
from pipelines.pass_base import Pass
from pipelines.registry import register

__all__ = ["InplaceOperandCopy", "neutral_element"]


# Values IREE does not copy before an in-place update: a barrier's result (it aliases the
# barrier operand), constants and iotas (hoisted into read-only globals).
_ALIASED = ("stablehlo.optimization_barrier", "stablehlo.constant", "stablehlo.iota")


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


def _is_view(op) -> bool:
    """Whether IREE turns ``op`` into a view of its (first) operand's buffer."""
    name = op.operation.name
    if name in ("stablehlo.reshape", "stablehlo.dynamic_slice"):
        # a dynamic_slice of contiguous rows is a view of a constant global: a sort of
        # DynamicSlice(constant s32[6,5], i, j, [2, 5]) wrote into it ("write affecting
        # operations on global resources"); copying any dynamic_slice is always right
        return True
    if name not in ("stablehlo.convert", "stablehlo.slice", "stablehlo.transpose"):
        return False
    same = op.operands[0].type == op.results[0].type
    if name == "stablehlo.convert":
        return same
    if name == "stablehlo.slice":
        return same  # a full slice
    if name == "stablehlo.transpose":
        permutation = list(ir.DenseI64ArrayAttr(op.attributes["permutation"]))
        return permutation == sorted(permutation)
    return False


def _needs_copy(value: ir.Value) -> bool:
    """Whether ``value`` is an optimization barrier's result, a constant or an iota,
    looking through views."""
    for _ in range(64):  # a bounded walk up a chain of views
        op = defining_op(value)
        if op is None:
            return False
        if op.operation.name in _ALIASED or op.operation.name == "stablehlo.dynamic_slice":
            # a dynamic_slice is a view IREE cannot copy before an in-place op, also of a
            # parameter: Sort(DynamicSlice(DynamicSlice(p))) failed like a sort of a constant
            # (fuzzer seed 20261125 program 1840)
            return True
        if not _is_view(op):
            return False
        value = op.operands[0]
    return False


def _fused_slice(op, value: ir.Value) -> bool:
    """Whether sort ``op`` reads ``value`` straight from a slice that is not the identity
    or from a pad (IREE fuses either into the sort's dispatch and fails to compile it)."""
    producer = defining_op(value)
    if op.operation.name != "stablehlo.sort" or producer is None:
        return False
    name = producer.operation.name
    return name == "stablehlo.pad" or (name == "stablehlo.slice" and producer.operands[0].type != value.type)


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


@register
class InplaceOperandCopy(Pass):
    """Gives sort, dynamic_update_slice and scatter a private copy of a barrier's result or a constant."""

    name = "inplace-operand-copy"
    legalizes_for_iree = True

    def run(self, module: ir.Module) -> bool:
        ops = []

        def visit(op):
            if _inplace_operands(op):
                ops.append(op)
            return ir.WalkResult.ADVANCE

        module.operation.walk(visit)
        changed = False
        with module.context:
            for op in ops:
                for k in _inplace_operands(op):
                    value = op.operands[k]
                    sliced = _fused_slice(op, value)
                    if not (sliced or _needs_copy(value) or _passed_through(op, value)):
                        continue
                    with ir.InsertionPoint(op), op.location:
                        copy = _private_copy(value, fence=sliced)
                    if copy is None:
                        continue
                    op.operation.operands[k] = copy
                    self.record("sorted-slice" if sliced else "private-copy")
                    changed = True
        return changed
