"""sort-barriers: the optimization barriers the pinned IREE's in-place sort needs.

IREE sorts in place: every operand of ``stablehlo.sort`` is a read-write buffer of its
dispatch. Three defects follow, each fixed by an ``optimization_barrier``:

1. **dead-result**: a multi-operand sort whose comparator reads an operand whose sorted
   result nobody uses crashes the SPIR-V (vulkan-spirv) compiler (SIGSEGV in
   ``GPUDistributeSharedMemoryCopy``: the operand becomes a workgroup-memory scratch
   copy, distributed with empty tile sizes) when the sort dimension is not a multiple of
   4 (5, 6, 7, 9, 10, ...; f32[8,5] along 0). ``stable-sort-expander`` makes exactly this
   form: its position operand breaks ties and its result is dropped. A barrier over all
   results keeps them alive (the result is stored, no scratch copy)::

       %s:2 = "stablehlo.sort"(%x, %i) ({ ... reads %i's arguments ... })
       use(%s#0)                                  // %s#1 unused
     ->
       %s:2 = "stablehlo.sort"(%x, %i) ({ ... })
       %b:2 = stablehlo.optimization_barrier %s#0, %s#1
       use(%b#0)

2. **shared-iota**: two sorts reading the same ``iota`` (IREE merges equal iotas, so two
   stable sorts of one shape share one) whose results are live: the first sorts the iota
   buffer in place and the second reads the sorted one (its positions came back as
   ``[0, 0, ...]`` or the first sort's). Each sort reads the iota through a barrier of
   its own, which IREE copies before the in-place dispatch::

       %i = stablehlo.iota dim = 0
       "stablehlo.sort"(%x, %i)       ->   "stablehlo.sort"(%x, optimization_barrier(%i))

3. **shared-operand**: one value given for two operands (``Sort([k, p, p])``, or equal
   operands merged by CSE) crashes the SPIR-V compiler (SIGSEGV; llvm-cpu sorts it
   right): one buffer would be two read-write operands of the in-place sort. Each repeat
   after the first is read through a barrier of its own (an iota operand already is, by
   shared-iota)::

       "stablehlo.sort"(%k, %p, %p)   ->   "stablehlo.sort"(%k, %p, optimization_barrier(%p))

Run it after the passes that create sorts (``top-k-expander``, ``stable-sort-expander``,
``sort-bf16-as-bits``).
"""

from __future__ import annotations

from iree.compiler import ir

from dialect_ops.side_effects import optimization_barrier
from pipelines.matchers import has_uses, ops_where, producer
from pipelines.operand_fences import fence_results
from pipelines.pass_base import Pass
from pipelines.registry import register
from pipelines.sort_regions import comparator_block

__all__ = ["SortBarriers"]


def _dead_results_read(op) -> bool:
    """Whether some result of sort ``op`` is unused while the comparator reads its operand
    and another result is used (a wholly dead sort is DCE's business)."""
    args = list(comparator_block(op).arguments)
    results = list(op.results)
    dead_read = any(not has_uses(r) and (has_uses(args[2 * k]) or has_uses(args[2 * k + 1]))
                    for k, r in enumerate(results))
    return dead_read and any(has_uses(r) for r in results)


@register
class SortBarriers(Pass):
    """Keeps a sort's comparator-read results alive and gives it private iotas and repeated operands."""

    name = "sort-barriers"
    legalizes_for_iree = True

    def run(self, module: ir.Module) -> bool:
        sorts = ops_where(module, lambda op: op.name == "stablehlo.sort")
        fired_before = sum(self.statistics.values())
        with module.context:
            for op in sorts:
                self._private_iotas(op)
                self._private_repeats(op)
                if _dead_results_read(op):
                    self._keep_results(op)
        return sum(self.statistics.values()) > fired_before

    def _private_iotas(self, op) -> None:
        """shared-iota: each iota operand read through a barrier of this sort's own."""
        for k, value in enumerate(list(op.operands)):
            if producer(value, "stablehlo.iota") is None:
                continue
            with ir.InsertionPoint(op), op.location:
                (private,) = optimization_barrier([value])
            op.operation.operands[k] = private
            self.record("shared-iota")

    def _private_repeats(self, op) -> None:
        """shared-operand: every repeat of an operand read through a barrier of its own."""
        seen: set[ir.Value] = set()
        for k, value in enumerate(list(op.operands)):
            if value not in seen:
                seen.add(value)
                continue
            with ir.InsertionPoint(op), op.location:
                (private,) = optimization_barrier([value])
            op.operation.operands[k] = private
            self.record("shared-operand")

    def _keep_results(self, op) -> None:
        """dead-result: all results through one barrier, the uses reading the barrier."""
        fence_results(op)
        self.record("dead-result")
