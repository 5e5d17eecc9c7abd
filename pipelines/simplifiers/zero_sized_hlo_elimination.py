"""Zero-sized HLO elimination (spec 004: Zero sized HLO elimination; XLA
``zero_sized_hlo_elimination.cc``).

An array with no elements has exactly one value, so the op that computes it can be an
empty constant of its type::

    %s = stablehlo.slice %x [2:2] : (tensor<4xf32>) -> tensor<0xf32>
    %e = stablehlo.exponential %s : tensor<0xf32>

becomes ::

    %e = stablehlo.constant dense<> : tensor<0xf32>

Conditions (XLA's): the op is not a constant and has no side effects (nor do the ops in
its regions: ``custom_call`` with ``has_side_effect``, infeed/outfeed/send/recv,
collectives, ``rng``, calls); the result is an array of static shape with a zero
dimension. Block arguments (XLA's parameters) are not ops and stay. XLA skips tuple-shaped
instructions; an op of several results here (``sort``, ``while``, a variadic ``reduce``)
has each zero-sized result replaced, and is erased once none of its results is read.
Results of element types numpy cannot hold (quantized) are left alone.

Run ``dce`` after it (operands that only fed the erased ops), and ``algsimp`` and
``constant-folding`` to fold the ops that now read empty constants.
"""

from __future__ import annotations

import numpy as np
from iree.compiler import ir

from hlo_mlir import _emit
from pipelines.matchers import element_dtype, has_side_effects, has_uses, ops_where, static_dims
from pipelines.pass_base import Pass
from pipelines.registry import register

__all__ = ["ZeroSizedHloElimination", "is_zero_sized"]


def is_zero_sized(value: ir.Value) -> bool:
    """Whether ``value`` is an array of static shape with no elements and an XLA element type."""
    dims = static_dims(value)
    return dims is not None and 0 in dims and element_dtype(value) is not None


@register
class ZeroSizedHloElimination(Pass):
    """Replace side-effect-free ops whose array results have no elements with empty constants."""

    name = "zero-sized-hlo-elimination"

    def run(self, module: ir.Module) -> bool:
        changed = False
        for op in ops_where(module, _candidate):
            with module.context, op.location:
                changed |= self._eliminate(op)
        return changed

    def _eliminate(self, op) -> bool:
        """Replaces the uses of ``op``'s zero-sized results with empty constants; erases ``op``
        when all its results are zero-sized or none is read any more."""
        replaced = 0
        for result in op.results:
            if is_zero_sized(result) and has_uses(result):
                with ir.InsertionPoint(op):
                    empty = _emit.constant(_empty_array(result), _emit.shape_of(result))
                result.replace_all_uses_with(empty)
                replaced += 1
        if replaced:
            self.record("zero-sized-result", replaced)
        if all(is_zero_sized(r) or not has_uses(r) for r in op.results) \
                and any(is_zero_sized(r) for r in op.results):
            op.erase()
            self.record("erased-op")
            return True
        return bool(replaced)


def _candidate(op) -> bool:
    """An op with a zero-sized result that may be replaced: no constant, no side effects."""
    if op.name == "stablehlo.constant" or not any(is_zero_sized(r) for r in op.results):
        return False
    return not has_side_effects([op])


def _empty_array(value: ir.Value) -> np.ndarray:
    dims, dtype = static_dims(value), element_dtype(value)
    assert dims is not None and dtype is not None  # is_zero_sized(value) held
    return np.zeros(dims, dtype)
