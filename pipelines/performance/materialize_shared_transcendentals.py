"""materialize-shared-transcendentals: an expensive element-wise result read by a reduction
and by other ops is computed once, not once per consumer.

The pinned IREE fuses cheap producers into each consumer's dispatch and recomputes them
there; for a transcendental that is expensive. Softmax reads ``exp(x - max)`` twice, in
the row sum and in the division: IREE computes every ``exp`` twice (one dispatch, a 16-wide
polynomial per use) and takes 3.65 ms for f32[4096,1024], where computing it once into
memory and reading it twice takes 2.52 ms (XLA: 1.82 ms, same run)::

    %e = stablehlo.exponential %d : tensor<4096x1024xf32>
    %s = stablehlo.reduce(%e init: %c0) applies stablehlo.add across dimensions = [1]
    %r = stablehlo.divide %e, broadcast(%s)

becomes::

    %e0 = stablehlo.exponential %d
    %e = stablehlo.optimization_barrier %e0      // a value IREE cannot clone into consumers
    ...

Conditions: one of the ops below with a static result of an XLA element type (quantized
ones are left alone), at least ``min-elements`` result elements, and at least two users of
which one is a ``stablehlo.reduce``. The values are unchanged.
"""

from __future__ import annotations

import dataclasses
import math
from typing import Sequence

from iree.compiler import ir

from dialect_ops.side_effects import optimization_barrier
from pipelines.matchers import element_dtype, static_dims
from pipelines.pass_base import ExpanderPass
from pipelines.registry import register

__all__ = ["MaterializeSharedTranscendentals"]

_TRANSCENDENTALS = frozenset(f"stablehlo.{name}" for name in (
    "exponential", "exponential_minus_one", "log", "log_plus_one", "logistic", "tanh", "power",
    "sine", "cosine", "tan", "atan2", "cbrt"))


@register
@dataclasses.dataclass
class MaterializeSharedTranscendentals(ExpanderPass):
    """Compute a transcendental read by a reduction and other ops once (IREE recomputes it per consumer)."""

    name = "materialize-shared-transcendentals"
    legalizes_for_iree = True
    min_elements: int = dataclasses.field(
        default=1 << 16, metadata={"help": "only results with at least this many elements"})

    def matches(self, op) -> bool:
        if op.operation.name not in _TRANSCENDENTALS:
            return False
        dims = static_dims(op.results[0])
        if dims is None or element_dtype(op.results[0]) is None or math.prod(dims) < self.min_elements:
            return False
        users = {use.owner for use in op.results[0].uses}
        return len(users) >= 2 and any(u.name == "stablehlo.reduce" for u in users)

    def expand(self, op) -> Sequence[ir.Value]:
        clone = op.operation.clone()
        return optimization_barrier([clone.results[0]])
