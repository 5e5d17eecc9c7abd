"""half-scalar-barrier: a bf16/f16 scalar computed from constants reaches the ops that read
it as a scalar (a reduce's init value, a pad's padding value, a clamp's scalar bounds)
through an optimization barrier.

The pinned IREE hoists a computation over constants into a global (const-expr hoisting,
``--iree-opt-const-expr-hoisting``; ``--iree-opt-const-eval=false`` does not help). When
the computed value is a rank-0 bf16 or f16 tensor that a dispatch reads as a scalar
(``tensor.extract``: the init of a ``reduce``, the padding value of a ``pad``, the rank-0
bounds of a ``clamp`` of a larger operand), the global becomes a scalar one that the host
loads with ``hal.buffer.load -> bf16``, which the VM cannot lower: "failed to legalize
operation 'util.initializer' that was explicitly marked illegal". The value needs a
computation IREE does not fold itself: ``convert(negate(constant f32)) -> bf16``, a
``reduce`` of constants, or the integer rounding ``bf16-scalar-rounding`` makes of
``convert(constant f32) -> bf16`` (the argmax and reduce modules of the spine tests at
``passes="O0"``)::

    %c = stablehlo.constant dense<5.000000e-01> : tensor<f32>
    %n = stablehlo.negate %c : tensor<f32>
    %v = stablehlo.convert %n : (tensor<f32>) -> tensor<bf16>
    %s = stablehlo.reduce(%x init: %v) applies stablehlo.add across dimensions = [0]

becomes::

    %b = stablehlo.optimization_barrier %v : tensor<bf16>
    %s = stablehlo.reduce(%x init: %b) applies stablehlo.add across dimensions = [0]

The value is then computed at run time in a dispatch of its own (one scalar; IREE does
not hoist through a barrier), and the reader reads a buffer. A barrier changes no value.
Conditions: an operand of element type bf16 or f16 and rank 0, read as a scalar (reduce
init values; the pad value; clamp bounds when the clamped operand has rank > 0), computed
only from constants (no block argument flows into it, also through the values a region op
on the way captures; no side effect), and not itself a constant or a barrier. f32, f64,
integer and f8 scalars, and the same values read by a broadcast, a select or a
``reduce_window``, compile. ``O2``'s constant folding usually folds such values first;
what reaches IREE at ``O0`` is fenced here. Run it last: ``bf16-scalar-rounding`` makes
such values.
"""

from __future__ import annotations

from iree.compiler import ir

from hlo_mlir.ir_access import element_type_name
from pipelines.matchers import computed_from_constants, defining_op, static_dims
from pipelines.operand_fences import OperandFencePass
from pipelines.registry import register

__all__ = ["HalfScalarBarrier"]

_HALF = ("bf16", "f16")
_LEAVES = ("stablehlo.constant", "stablehlo.optimization_barrier")


def _read_as_scalar(op, index: int) -> bool:
    """Whether IREE's lowering of ``op`` reads operand ``index`` with a ``tensor.extract``."""
    name = op.operation.name
    if name == "stablehlo.reduce":
        return index >= len(op.operands) // 2
    if name == "stablehlo.pad":
        return index == 1
    # clamp(min, x, max): a rank-0 bound of a larger x is read as a scalar.
    return index != 1 and static_dims(op.operands[1]) != []


@register
class HalfScalarBarrier(OperandFencePass):
    """Reads bf16/f16 scalars computed from constants through a barrier where IREE reads them as scalars."""

    name = "half-scalar-barrier"
    legalizes_for_iree = True

    op_names = ("stablehlo.reduce", "stablehlo.pad", "stablehlo.clamp")
    acts_on = frozenset(op_names)
    rule_name = "fence-half-scalar"

    def fences(self, op, index: int, value: ir.Value) -> bool:
        """reduce(x, f(constants) : bf16) -> reduce(x, optimization_barrier(f(constants)))."""
        if static_dims(value) != [] or element_type_name(value) not in _HALF:
            return False
        if not _read_as_scalar(op, index):
            return False
        source = defining_op(value)
        return source is not None and source.operation.name not in _LEAVES and computed_from_constants(value)
