"""result-barrier: every result of a public function leaves through an optimization barrier,
so IREE never updates a returned parameter in place.

The pinned IREE updates an argument buffer in place for sort, dynamic_update_slice,
scatter and the other ops it ties a result to an operand for, when that op looks like the
argument's last user. A returned parameter is not counted as a user: IREE exports it
straight from the imported buffer (``hal.tensor.export(hal.tensor.import %arg)`` folds to
``%arg``, and a reshape or any op IREE folds to its operand is exported from the import
too), while the in-place op reads a ``stream.async.cast`` of the import whose only user
it is. So its copy-on-write pass inserts no clone, and the returned parameter comes back
holding the updated values (iree-org/iree#16168; docs/iree-defects.md)::

    func.func @main(%x: tensor<5xf32>) -> (tensor<5xf32>, tensor<5xf32>) {
      %0 = "stablehlo.sort"(%x) ...          // sorted in %x's buffer
      return %0, %x                          // %x returned sorted
    }

becomes::

    %0 = "stablehlo.sort"(%x) ...
    %1 = stablehlo.optimization_barrier %x
    return %0, %1

The barrier survives to IREE's stream dialect, where it reads the same cast as the
sort: two users, so the sort gets a clone of the argument and the export reads the
original. Whatever IREE folds a result to (a parameter, a reshape of one, ``x * 1``), the
barrier is that value's user. A barrier costs nothing at run time: it is dropped after
stream scheduling, and the only copy it causes is the one the program needs.

Conditions: public ``func.func`` only (the ABI IREE exports); every returned tensor, and
every tensor element of a returned tuple (rebuilt around its fenced elements); results
that are constants, already an optimization barrier's results, or dynamically shaped
(IREE cannot resolve a barrier's dynamic dimensions) are left alone, so the
pass is idempotent. Run it last, after the passes that might fold barriers' operands.
"""

from __future__ import annotations

from iree.compiler import ir

from dialect_ops.tuple_ops import get_tuple_element, tuple_
from hlo_mlir import _emit
from hlo_mlir.ir_access import functions, is_public
from pipelines.matchers import op_name
from pipelines.pass_base import Pass
from pipelines.registry import register

__all__ = ["ResultBarrier"]

_LEAVE_ALONE = ("stablehlo.constant", "stablehlo.optimization_barrier")


def _fenced(value: ir.Value) -> ir.Value:
    """``value`` through an optimization barrier (tuples element by element)."""
    if isinstance(value.type, ir.TupleType):
        if op_name(value) == "stablehlo.tuple":
            elements = list(value.owner.operands)
        else:
            elements = [get_tuple_element(value, i) for i in range(ir.TupleType(value.type).num_types)]
        fenced = [_fenced(e) for e in elements]
        return value if all(f == e for f, e in zip(fenced, elements, strict=True)) else tuple_(fenced)
    if not isinstance(value.type, ir.ShapedType) or op_name(value) in _LEAVE_ALONE:
        return value  # tokens, constants, values already behind a barrier
    if not ir.ShapedType(value.type).has_static_shape:
        # IREE cannot resolve a barrier's dynamic dimensions ("'tensor.dim' op unexpected
        # during shape cleanup"): bounded dynamic results are left as they are.
        return value
    # The barrier's type is its operand's: no shape rule to apply (and quantized element
    # types, which have no XLA shape, pass through as they are).
    return _emit.create("stablehlo.optimization_barrier", [value], [value.type]).result


@register
class ResultBarrier(Pass):
    """Returns public functions' results through optimization barriers (no in-place update of a result)."""

    name = "result-barrier"
    legalizes_for_iree = True

    def run(self, module: ir.Module) -> bool:
        changed = False
        with module.context:
            for func in functions(module):
                if not is_public(func) or not func.regions[0].blocks:
                    continue
                ret = func.regions[0].blocks[0].operations[-1]  # func.func bodies are one block
                with ir.InsertionPoint(ret), ret.location:
                    for i, value in enumerate(list(ret.operands)):
                        fenced = _fenced(value)
                        if fenced != value:
                            ret.operands[i] = fenced
                            self.record("fence-result")
                            changed = True
        return changed
