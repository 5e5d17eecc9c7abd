"""Logistic expansion (spec 004: Logistic Expander; XLA ``logistic_expander.cc``).

``logistic(x) = 1 / (1 + exp(-x))`` (spec: Logistic) becomes exactly that, as XLA builds
it::

    %r = stablehlo.logistic %x : tensor<4xf32>

becomes ::

    %n = stablehlo.negate %x
    %e = stablehlo.exponential %n
    %d = stablehlo.add %one, %e           // %one: broadcast_in_dim of a rank-0 1.0
    %r = stablehlo.divide %one, %d

for every floating-point and complex element type. ``expansion=tanh`` builds XLA's older
alternative ``0.5 + 0.5 * tanh(0.5 * x)`` instead. The exp form saturates where exp(-x)
overflows (``x < -88`` in f32, ``x < -11`` in f16: 0 where the true value is a small
positive number), as XLA's does. Run ``cse`` after it (the constants repeat per op).
"""

from __future__ import annotations

import dataclasses
from typing import Sequence

from iree.compiler import ir

from hlo_mlir.errors import InvalidArgumentError
from pipelines.matchers import static_dims, xla_arrays
from pipelines.pass_base import ExpanderPass
from pipelines.registry import register
from pipelines.values import Expr

__all__ = ["LogisticExpander", "EXPANSIONS"]

EXPANSIONS = ("exp", "tanh")


@register
@dataclasses.dataclass
class LogisticExpander(ExpanderPass):
    """Expand logistic into 1 / (1 + exp(-x)) as XLA does (or 0.5 + 0.5 * tanh(0.5 * x))."""

    name = "logistic-expander"
    expansion: str = dataclasses.field(
        default="exp", metadata={"help": "exp: 1 / (1 + exp(-x)); tanh: 0.5 + 0.5 * tanh(0.5 * x)"})

    def __post_init__(self) -> None:
        if self.expansion not in EXPANSIONS:
            raise InvalidArgumentError(
                f"logistic-expander requires expansion in {EXPANSIONS}; got {self.expansion!r}.")

    def matches(self, op) -> bool:
        return (op.name == "stablehlo.logistic" and xla_arrays(op.results)
                and static_dims(op.results[0]) is not None)

    def expand(self, op) -> Sequence[ir.Value]:
        x = Expr(op.operands[0])
        if self.expansion == "tanh":
            half = x.lift(0.5)
            return [(half + half * (half * x).unary("Tanh")).value]
        one = x.lift(1.0)
        return [(one / (one + (-x).unary("Exp"))).value]

    def rule(self, op) -> str:
        return self.expansion
