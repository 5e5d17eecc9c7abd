"""While loop trip count annotator (spec 004: While loop trip count annotator; XLA
``while_loop_trip_count_annotator.cc``).

Stores the exact trip count of every ``stablehlo.while`` whose count is static on the op,
as XLA stores it in the loop's ``WhileLoopBackendConfig.known_trip_count``. Here it is the
discardable attribute ``hlo_mlir.known_trip_count`` (an i64; ``hlo_mlir.views.
KNOWN_TRIP_COUNT_ATTR``), which prints and parses with the module and which the HloModule
API reads back as ``HloInstruction.known_trip_count``::

    %r:2 = stablehlo.while(%i = %c0, %v = %x) : tensor<i32>, tensor<4xf32>
        attributes {hlo_mlir.known_trip_count = 10 : i64}
      cond { %p = stablehlo.compare LT, %i, %c10 ... }
      do   { %i1 = stablehlo.add %i, %c1 ...; return %i1, %v1 }

The count is :func:`pipelines.simplifiers.while_loop_unroller.trip_count`'s: an integer
induction variable with a constant init and step compared with a constant bound, or a
constant condition (a count of 0), with no wrap-around. A loop whose count is not static
keeps what it has (an annotation from the frontend stays); a loop already annotated with
the count found is unchanged, so the pass reaches a fixed point. Run it last, or again
after passes that change a loop's count: a partial unroll makes each trip do several of
the old iterations, and the count found then differs.
"""

from __future__ import annotations

from iree.compiler import ir

from hlo_mlir import _emit
from hlo_mlir.ir_access import optional_int_attr
from hlo_mlir.views import KNOWN_TRIP_COUNT_ATTR
from pipelines.pass_base import Pass
from pipelines.registry import register
from pipelines.simplifiers.while_loop_unroller import trip_count, while_ops

__all__ = ["WhileLoopTripCountAnnotator"]


@register
class WhileLoopTripCountAnnotator(Pass):
    """Store the static trip count of each while loop on it (hlo_mlir.known_trip_count)."""

    name = "while-loop-trip-count-annotator"
    acts_on = frozenset({"stablehlo.while"})

    def run(self, module: ir.Module) -> bool:
        changed = False
        for op in while_ops(module):
            trips = trip_count(op)
            if trips is None or optional_int_attr(op, KNOWN_TRIP_COUNT_ATTR) == trips.count:
                continue
            with module.context:
                op.attributes[KNOWN_TRIP_COUNT_ATTR] = _emit.i64_attr(trips.count)
            self.record("annotated")
            changed = True
        return changed
