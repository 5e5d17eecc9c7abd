"""While loop unrolling (spec 004: While loop unroller; XLA ``while_loop_unroller.cc``).

A ``stablehlo.while`` costs the pinned IREE one dispatch and one host readback of the
condition per iteration (ARCHITECTURE.md: a 1000-iteration loop of a tiny update takes
milliseconds where XLA takes microseconds). A loop with a static trip count and a small
body runs faster unrolled: fully, as straight-line code, or partially, as a loop running
``f`` iterations' worth of body per trip.

The trip count comes from an induction variable: a scalar integer loop-carried value with
a constant init, updated in the body as ``add(i, step)`` (a nonzero constant step, either
operand order), with a condition that is exactly ``compare(i, bound)`` (or
``compare(bound, i)``) against a constant, LT/LE/GT/GE/NE/EQ in the integer's signedness.
The count is exact: 0 if the condition fails on entry; refused when the counter would wrap
around before the condition fails (overflow, or a step that never meets an NE bound)::

    %r:2 = stablehlo.while(%i = %c0, %v = %x)                  // %c0 = 0
      cond { %p = stablehlo.compare LT, %i, %c1000 ... }
      do   { %i1 = stablehlo.add %i, %c1 ...; %v1 = f(%i, %v) ...; return %i1, %v1 }

has trip count 1000. With ``s`` the number of non-constant ops in the body:

- full unroll when ``trip_count * s <= max-unrolled-ops``: the loop becomes
  ``trip_count`` copies of its body, copy ``k`` reading the constant ``init + k * step``
  for the counter (as XLA does, so that constant folding can specialize each copy);
- otherwise partial unroll by a factor ``f`` with ``2 <= f <= max-factor``,
  ``f * s <= max-unrolled-ops`` and ``f <= trip_count / 2``: the largest divisor of the
  trip count that is more than half of the largest possible factor, else the largest
  possible factor, peeling ``trip_count % f`` iterations as straight-line copies before
  the loop. The body becomes ``f`` copies, copy ``k`` reading ``i + k * step``, and
  returns ``i + f * step``; the condition is unchanged: it is checked only at counter
  values the original loop checked, and the last of them is the original exit value::

    %r:2 = stablehlo.while(%i = %c0, %v = %x) attributes {hlo_mlir.unroll_factor = 250}
      cond { ...LT, %i, %c1000... }
      do   { %v1 = f(%i, %v); %v2 = f(%i + 1, %v1); ...; return %i + 250, %v250 }

  The unrolled loop carries ``hlo_mlir.unroll_factor`` (like LLVM's
  ``llvm.loop.unroll.disable``): later runs of this pass leave it alone, so the pass is
  idempotent, also inside a fixed-point group.

Refused: bodies with side effects (custom_call with ``has_side_effect``, collectives,
infeed/outfeed/send/recv, ``rng``, calls), bodies that are not small: any tensor with
more than ``max-body-elements`` elements (dispatch overhead does not matter there and
unrolling only costs compile time), and bodies with complex values (the pinned IREE
miscompiles unrolled complex<f64> Cholesky and triangular-solve loops). Nested regions are
copied with the body.

The copies leave dead counter updates and duplicated constants: run ``algsimp``,
``constant-folding``, ``cse`` and ``dce`` after this pass (the O2 preset does).
:mod:`pipelines.simplifiers.while_loop_simplifier` reads the same trip counts.
"""

from __future__ import annotations

import dataclasses
import operator
from typing import Sequence

import numpy as np
from iree.compiler import ir

from dialect_ops.constant import constant
from dialect_ops.elementwise import binary
from hlo_mlir import _emit
from hlo_mlir.ir_access import comparison_direction, comparison_type
from hlo_mlir.views import KNOWN_TRIP_COUNT_ATTR
from pipelines.matchers import element_dtype, has_side_effects, nested_ops, ops_where, producer, splat_of
from pipelines.pass_base import Pass
from pipelines.regions import clone_ops
from pipelines.registry import register

__all__ = ["WhileLoopUnroller", "InductionVariable", "TripCount", "trip_count", "unroll_fully",
           "unroll_factor", "while_ops", "has_side_effects", "UNROLL_FACTOR_ATTR"]

UNROLL_FACTOR_ATTR = "hlo_mlir.unroll_factor"

_FLIPPED = {"LT": "GT", "LE": "GE", "GT": "LT", "GE": "LE", "EQ": "EQ", "NE": "NE"}
_HOLDS = {"LT": operator.lt, "LE": operator.le, "GT": operator.gt, "GE": operator.ge, "EQ": operator.eq,
          "NE": operator.ne}


# --- trip count analysis --------------------------------------------------------------------
@dataclasses.dataclass(frozen=True)
class InductionVariable:
    """Loop-carried value ``index`` of a loop: ``init``, ``init + step``, ... (no wrap-around
    up to and including the exit value)."""

    index: int
    init: int
    step: int
    dtype: np.dtype

    def value_at(self, k: int) -> ir.Value:
        """A constant holding the counter at the start of iteration ``k``."""
        return _int_constant(self.init + k * self.step, self.dtype)

    def advanced(self, counter: ir.Value, k: int) -> ir.Value:
        """``counter + k * step``: the counter k iterations later (wrapping like the adds)."""
        return binary("Add", counter, _int_constant(k * self.step, self.dtype))


@dataclasses.dataclass(frozen=True)
class TripCount:
    """How often a loop's body runs; ``induction`` is None only for a count of 0 found
    without one (a constant false condition)."""

    count: int
    induction: InductionVariable | None


def trip_count(op) -> TripCount | None:
    """The exact trip count of ``stablehlo.while`` ``op``, or None when it is not static."""
    condition = _condition(op)
    if condition is False:
        return TripCount(0, None)
    if condition is None or condition is True:
        return None
    index, direction, bound = condition
    init = _scalar_int(op.operands[index])
    dtype = element_dtype(op.operands[index])
    if init is None or dtype is None:
        return None
    if not _HOLDS[direction](init, bound):
        return TripCount(0, InductionVariable(index, init, 0, dtype))
    step = _step(op, index)
    modulus = 1 << (8 * dtype.itemsize)
    if step is None or step % modulus == 0:
        return None  # not a counter, or one that never moves
    info = np.iinfo(dtype)
    # Both representatives of the step modulo 2^bits describe the same wrapped sequence; at
    # most one of them keeps the values in range up to the exit value.
    for s in (step % modulus, step % modulus - modulus):
        count = _count(init, s, bound, direction, int(info.min), int(info.max))
        if count is not None:
            return TripCount(count, InductionVariable(index, init, s, dtype))
    return None


def _count(init: int, step: int, bound: int, direction: str, lo: int, hi: int) -> int | None:
    """How many of ``init, init + step, ...`` satisfy ``x <direction> bound`` before the first
    that fails (``init`` satisfies it), or None when the sequence leaves [lo, hi] first."""
    if direction == "EQ":
        return 1  # init + step differs from bound modulo 2^bits: the step is nonzero
    if direction == "NE":
        distance = bound - init
        if distance % step or distance // step <= 0:
            return None  # never meets the bound without wrapping around
        return distance // step  # every value lies between init and bound
    if direction in ("LT", "LE"):
        if step < 0:
            return None
        limit = bound if direction == "LT" else bound + 1  # x < limit
        count = -((init - limit) // step)  # ceil((limit - init) / step)
    else:
        if step > 0:
            return None
        limit = bound if direction == "GT" else bound - 1  # x > limit
        count = -((limit - init) // -step)  # ceil((init - limit) / -step)
    return count if lo <= init + count * step <= hi else None


def _condition(op) -> tuple[int, str, int] | bool | None:
    """(index, direction, bound) for a condition ``compare(arg_index, bound)`` (normalized to
    the argument on the left), a bool for a constant condition, else None."""
    block = op.regions[0].blocks[0]
    ops = list(block.operations)
    (predicate,) = ops[-1].operands
    rest = [o for o in ops[:-1] if o.operation.name != "stablehlo.constant"]
    if not rest:
        splat = splat_of(predicate)
        return None if splat is None else bool(splat)
    compare = rest[0]
    if len(rest) != 1 or compare.operation.name != "stablehlo.compare" or compare.results[0] != predicate:
        return None
    arguments = {a: i for i, a in enumerate(block.arguments)}
    direction = comparison_direction(compare)
    lhs, rhs = compare.operands
    if lhs in arguments:
        index, other = arguments[lhs], rhs
    elif rhs in arguments:
        index, other, direction = arguments[rhs], lhs, _FLIPPED[direction]
    else:
        return None
    bound = _scalar_int(other)
    dtype = element_dtype(lhs)
    if bound is None or dtype is None or dtype.kind not in "iu":
        return None
    if comparison_type(compare) not in (None, "SIGNED" if dtype.kind == "i" else "UNSIGNED"):
        return None
    return index, direction, bound


def _step(op, index: int) -> int | None:
    """The constant ``c`` of a body returning ``add(arg_index, c)`` (either order) at ``index``."""
    body = op.regions[1].blocks[0]
    update = producer(list(body.operations)[-1].operands[index], "stablehlo.add")
    if update is None:
        return None
    counter = body.arguments[index]
    lhs, rhs = update.operands
    if lhs == counter:
        return _scalar_int(rhs)
    return _scalar_int(lhs) if rhs == counter else None


def _scalar_int(value: ir.Value) -> int | None:
    """The value of a rank-0 integer constant (not PRED), else None."""
    dtype = element_dtype(value)
    if dtype is None or dtype.kind not in "iu" or ir.RankedTensorType(value.type).rank != 0:
        return None
    splat = splat_of(value)
    return None if splat is None else int(splat)


def _int_constant(value: int, dtype: np.dtype) -> ir.Value:
    """A rank-0 constant of ``dtype`` holding ``value`` modulo 2^bits (two's complement)."""
    bits = 8 * dtype.itemsize
    return constant(np.array(value & ((1 << bits) - 1), dtype=np.dtype(f"u{dtype.itemsize}")).view(dtype))


# --- loop structure -------------------------------------------------------------------------
def while_ops(module: ir.Module) -> list:
    """Every ``stablehlo.while`` of ``module``, inner loops before the loops holding them."""
    return [op.opview for op in ops_where(module, lambda op: op.name == "stablehlo.while")]


def _body_size(block: ir.Block) -> int:
    """Non-constant ops of a body (nested ones included; terminators not counted)."""
    return sum(o.name not in ("stablehlo.constant", "stablehlo.return") for o in nested_ops(block.operations))


def _elements(t: ir.Type) -> float:
    if isinstance(t, ir.RankedTensorType):
        return float("inf") if not t.has_static_shape else float(np.prod(t.shape, dtype=np.float64))
    if isinstance(t, ir.TupleType):
        return max((_elements(t.get_type(i)) for i in range(t.num_types)), default=0.0)
    return 0.0  # tokens


def _is_small(block: ir.Block, max_elements: int) -> bool:
    return all(_elements(v.type) <= max_elements
               for o in nested_ops(block.operations) for v in [*o.operands, *o.results])


def _is_complex(t: ir.Type) -> bool:
    return isinstance(t, ir.RankedTensorType) and isinstance(t.element_type, ir.ComplexType)


def _computes_complex(block: ir.Block) -> bool:
    """Whether the body has complex values. The pinned IREE miscompiles the unrolled
    Cholesky and triangular-solve loops of complex<f64> (NaN results, where XLA computes
    the same unrolled module right; docs/iree-defects.md), so complex bodies stay loops."""
    return any(_is_complex(v.type) for o in nested_ops(block.operations) for v in [*o.operands, *o.results])


# --- copying bodies -------------------------------------------------------------------------
def _copy(ops: Sequence, params: Sequence[ir.Value], args: Sequence[ir.Value],
          results: Sequence[ir.Value], shared: dict) -> list[ir.Value]:
    """Copies ``ops`` (a body without its terminator and constants, which ``shared`` maps or
    which stay where they are) at the current insertion point with ``params`` bound to
    ``args``; returns what ``results`` become."""
    mapping = clone_ops(ops, {**shared, **dict(zip(params, args, strict=True))})
    return [mapping.get(v, v) for v in results]


def _body_parts(op) -> tuple[ir.Block, list, list, list[ir.Value]]:
    """(body, its non-constant ops, its constant ops, the values it returns)."""
    body = op.regions[1].blocks[0]
    ops = list(body.operations)
    constants = [o for o in ops[:-1] if o.operation.name == "stablehlo.constant"]
    others = [o for o in ops[:-1] if o.operation.name != "stablehlo.constant"]
    return body, others, constants, list(ops[-1].operands)


def _run_iterations(op, count: int, values: list[ir.Value],
                    induction: InductionVariable | None) -> list[ir.Value]:
    """``count`` copies of ``op``'s body at the current insertion point, from the loop's initial
    state ``values``; the counter of copy k is the constant of iteration k."""
    if count == 0:
        return values
    body, ops, constants, results = _body_parts(op)
    shared = {c.results[0]: c.operation.clone().results[0] for c in constants}
    for k in range(count):
        if induction is not None:
            values[induction.index] = induction.value_at(k)
        values = _copy(ops, list(body.arguments), values, results, shared)
    if induction is not None:
        values[induction.index] = induction.value_at(count)
    return values


def unroll_fully(op, trips: TripCount) -> None:
    """Replaces ``stablehlo.while`` ``op`` by ``trips.count`` copies of its body."""
    with ir.InsertionPoint(op), op.location:
        values = _run_iterations(op, trips.count, list(op.operands), trips.induction)
    for old, new in zip(op.results, values, strict=True):
        old.replace_all_uses_with(new)
    op.operation.erase()


def _unroll_partially(op, induction: InductionVariable, factor: int, peel: int) -> None:
    """Peels ``peel`` iterations before ``op`` and makes its body ``factor`` iterations."""
    with ir.InsertionPoint(op), op.location:
        state = _run_iterations(op, peel, list(op.operands), induction)
    for i, v in enumerate(state):
        op.operands[i] = v
    body, ops, _, results = _body_parts(op)
    params = list(body.arguments)
    terminator = list(body.operations)[-1]
    counter = params[induction.index]
    with ir.InsertionPoint(terminator), op.location:
        values = list(results)
        for k in range(1, factor):
            values[induction.index] = induction.advanced(counter, k)
            values = _copy(ops, params, values, results, {})
        values[induction.index] = induction.advanced(counter, factor)
    for i, v in enumerate(values):
        terminator.operands[i] = v
    op.attributes[UNROLL_FACTOR_ATTR] = _emit.i64_attr(factor)
    if KNOWN_TRIP_COUNT_ATTR in op.attributes:  # the loop runs fewer times now
        del op.attributes[KNOWN_TRIP_COUNT_ATTR]


def unroll_factor(count: int, body_size: int, max_ops: int, max_factor: int) -> tuple[int, int] | None:
    """(factor, iterations to peel) of a partial unroll, or None when no factor >= 2 fits."""
    largest = min(max_factor, max_ops // body_size, count // 2)
    if largest < 2:
        return None
    divisor = next((d for d in range(largest, 1, -1) if count % d == 0), None)
    if divisor is not None and 2 * divisor > largest:
        return divisor, 0
    return largest, count % largest


@register
@dataclasses.dataclass
class WhileLoopUnroller(Pass):
    """Unroll while loops with a static trip count and a small body, fully or partially."""

    name = "while-loop-unroller"
    acts_on = frozenset({"stablehlo.while"})
    max_unrolled_ops: int = dataclasses.field(
        default=1024, metadata={"help": "most non-constant body ops after unrolling (full: all copies)"})
    max_factor: int = dataclasses.field(default=256, metadata={"help": "largest partial unroll factor"})
    max_body_elements: int = dataclasses.field(
        default=65536, metadata={"help": "only bodies whose tensors have at most this many elements"})

    def run(self, module: ir.Module) -> bool:
        changed = False
        for op in while_ops(module):
            changed |= self._unroll(op)
        return changed

    def _unroll(self, op) -> bool:
        if UNROLL_FACTOR_ATTR in op.attributes:
            return False  # unrolled before
        body = op.regions[1].blocks[0]
        if (has_side_effects(body.operations) or not _is_small(body, self.max_body_elements)
                or _computes_complex(body)):
            return False
        trips = trip_count(op)
        if trips is None:
            return False
        size = _body_size(body)
        if trips.count * size <= self.max_unrolled_ops:
            unroll_fully(op, trips)
            self.record("full-unroll")
            return True
        choice = unroll_factor(trips.count, size, self.max_unrolled_ops, self.max_factor)
        if choice is None or trips.induction is None:
            return False
        factor, peel = choice
        _unroll_partially(op, trips.induction, factor, peel)
        self.record("partial-unroll")
        if peel:
            self.record("peeled-iterations", peel)
        return True
