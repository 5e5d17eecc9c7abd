"""while-invariant-yields: every value a while body yields in place of a carried value is
tied to the carried value it replaces, so IREE can neither drop the carried value from
the loop nor hoist the yield out of it.

The pinned IREE fails to compile a ``while`` once its ``scf.while`` form has a ``before``
region whose arguments differ from the ``after`` region's ("'scf.while' op along control
flow edge from Operation scf.condition to Region #1: region branch point has 4 operands,
but region successor needs 2 inputs"): ``iree-stream-conversion`` converts the ``after``
region's arguments with the ``before`` region's types. IREE rotates loops into do-while
form (``iree-global-opt-loop-invariant-code-motion`` wraps every loop holding a
``tensor.empty`` in a zero-trip check: the ``before`` region becomes body and condition,
the ``after`` region forwards its arguments), and upstream ``scf.while``
canonicalizations then drop a value from one region only when, for carried value k,

- the body does not read carried value k (``(i, n, x) -> (i + 1, n, i)``), or reads it
  only through ops IREE folds away (``shift_right_logical(x, x)`` is 0;
  ``shift_right_logical(x, 59731)`` on ``u16``; ``clamp(1, x, -5)``),
- the yield is the same in every iteration (``Clamp(c, x, c)``, ``Round(Constant)``,
  ``IsFinite(Constant)``, a broadcast of a passed-through bound), or
- the body yields one value for two carried values.

IREE folds more than a pass of ours can predict, so every yield gets the tie except the
carried value itself (a pass-through, which IREE drops from both regions alike), a counter
(the carried value plus or minus a constant without zeros), an array computed from a
gather of the carried value (``_gathered``) and an in-place update (below),
each the first yield of its value::

    %r:3 = stablehlo.while(%i = %c0, %n = %a1, %x = %a0) ... do {
      stablehlo.return %i1, %n, %i
    }

becomes::

    %false = stablehlo.optimization_barrier %cfalse      // scalar false, once per loop
    %r:3 = stablehlo.while(...) ... do {
      %y = stablehlo.select %false, %x, %i                // %i bit for bit
      stablehlo.return %i1, %n, %y
    }

(an array yield selects with ``broadcast_in_dim`` of ``%false``: IREE fuses that
select into the dispatch computing the yield, where a scalar predicate took 1.8x the time
of a 1000-step loop of f32[16] updates at O0; with the broadcast it runs as fast as the
former tie). The predicate is made before the loop: a constant inside it was filled
again in every iteration, a host wait each (1.5x the time of that loop).

The select reads the carried value, so IREE cannot find it unused, and it cannot leave
the loop or be folded away (the predicate is opaque); each yield is a value of its own,
of any element type. The select writes a buffer of its own (a barrier over the yield
itself would alias it, hiding it from IREE's copy-on-write when the loop updates the
carried value in place; see ``inplace-operand-copy``).

The tie has no barrier inside the loop. The former tie ``v + broadcast(barrier(zero,
carried)#0)`` had one: IREE splits a barrier into one ``util.optimization_barrier`` per
operand, so the body held a barrier over each tied carried value, and a loop that also
starts several carried values from one buffer (IREE packs constant initial values, the
counter's 0 and a splat, into one allocation) failed at run time with "INVALID_ARGUMENT;
ref is null" in ``hal.buffer.subspan`` or ``hal.buffer_view.create`` (or "OUT_OF_RANGE;
indirect buffer reference slot 0 is out range of the declared binding capacity"): a body yielding a
loop-invariant value (a captured ``%x``, ``tanh(%y)``), or a loop IREE sees never runs
carrying two values of one init (tests/unit/test_while_passes.py
``test_loops_with_a_loop_invariant_yield_run``; docs/iree-defects.md).

A yield that updates its own carried value in place
(``dynamic_update_slice`` or ``scatter`` into it, possibly chained) is left alone: it reads
the carried value, changes every iteration, and a tie would copy the whole buffer each
iteration; a ``dynamic_update_slice`` whose update covers the whole operand (IREE folds it
to the update) gets the tie. Conditions: a ranked, static tensor yield of an element type
with a numpy dtype (``element_dtype``); ops are left alone otherwise.
"""

from __future__ import annotations

import numpy as np
from iree.compiler import ir

from dialect_ops.constant import constant
from dialect_ops.elementwise import select
from dialect_ops.shape_ops import broadcast_in_dim
from dialect_ops.side_effects import optimization_barrier
from pipelines.matchers import element_dtype, static_dims
from pipelines.pass_base import Pass
from pipelines.registry import register
from pipelines.simplifiers.while_loop_unroller import while_ops

__all__ = ["WhileInvariantYields"]


def _reads_robustly(value: ir.Value, carried: ir.BlockArgument) -> bool:
    """Whether ``value`` reads ``carried`` in a way IREE cannot fold away and changes in
    every iteration: ``carried`` plus or minus a constant without zeros (a counter), or
    ``carried`` updated in place (``_updates_in_place``)."""
    if isinstance(value, ir.BlockArgument):
        return False
    op = value.owner
    if op.name in ("stablehlo.add", "stablehlo.subtract") and op.operands[0] == carried:
        step = op.operands[1]
        return (not isinstance(step, ir.BlockArgument) and step.owner.name == "stablehlo.constant"
                and _no_zeros(step.owner.attributes["value"]))
    return _updates_in_place(value, carried)


def _no_zeros(attr: ir.Attribute) -> bool:
    """Whether a dense elements attribute has only non-zero elements (-0.0 is a zero)."""
    try:
        values = np.asarray(attr)
    except Exception:  # noqa: BLE001 - an attribute numpy cannot read (bf16, complex): no
        return False
    return values.size > 0 and values.dtype.kind in "iuf" and bool(np.all(values != 0))


def _updates_in_place(value: ir.Value, carried: ir.BlockArgument) -> bool:
    """Whether ``value`` is ``carried`` updated in place: a chain of ``dynamic_update_slice``
    (with an update smaller than its operand) and ``scatter`` ops rooted at ``carried``."""
    while not isinstance(value, ir.BlockArgument):
        op = value.owner
        if op.name == "stablehlo.dynamic_update_slice":
            dims, update = static_dims(op.operands[0]), static_dims(op.operands[1])
            if dims is None or update is None or update == dims:
                return False
            value = op.operands[0]
        elif op.name == "stablehlo.scatter":
            value = op.operands[ir.OpResult(value).result_number]
        else:
            return False
    return value == carried


_GATHERS = ("stablehlo.torch_index_select", "stablehlo.gather", "stablehlo.dynamic_slice")


def _gathered(value: ir.Value, carried: ir.BlockArgument) -> bool:
    """Whether ``value`` has more than one element and is computed (within the body's block)
    from a gather of ``carried`` (``torch_index_select``, ``gather``, ``dynamic_slice``): a
    read no fold removes, as in sort-network-expander's loops. A tie there costs a pass over
    the array in every iteration, and on the network's loop IREE's runtime failed with a null
    buffer ("ref is null" in ``hal.buffer.subspan``, with the former barrier tie), so such
    yields are left alone."""
    dims = static_dims(value)
    if dims is None or int(np.prod(dims)) <= 1:
        return False
    block, seen, todo = carried.owner, set(), [value]
    while todo:
        v = todo.pop()
        if isinstance(v, ir.BlockArgument) or v in seen:
            continue
        seen.add(v)
        op = v.owner
        if op.operation.block != block:
            continue
        if op.name in _GATHERS and op.operands[0] == carried:
            return True
        todo.extend(op.operands)
    return False


class _OpaqueFalse:
    """A scalar ``false`` behind a barrier, made once before ``loop`` on first use: a
    constant inside the loop would be filled again in every iteration (a host wait each)."""

    def __init__(self, loop: ir.Operation):
        self.loop = loop
        self.made: ir.Value | None = None

    def __call__(self) -> ir.Value:
        if self.made is None:
            with ir.InsertionPoint(self.loop), self.loop.location:
                self.made = optimization_barrier([constant(np.array(False))])[0]
        return self.made


def _tie(value: ir.Value, carried: ir.BlockArgument, false: _OpaqueFalse) -> ir.Value | None:
    """``select(false, carried, value)``: ``value`` bit for bit, reading ``carried``; the
    predicate broadcast to an array ``value``'s dimensions (fused with the op computing it).
    None for a value of a dynamic shape or of an element type without a numpy dtype."""
    dims = static_dims(value)
    if dims is None or element_dtype(value) is None:
        return None
    pred = broadcast_in_dim(false(), dims, []) if dims else false()
    return select(pred, carried, value)


@register
class WhileInvariantYields(Pass):
    """Ties each while yield to the carried value it replaces (IREE drops or hoists them)."""

    name = "while-invariant-yields"
    legalizes_for_iree = True

    def run(self, module: ir.Module) -> bool:
        changed = False
        with module.context:
            for loop in while_ops(module):
                body = loop.operation.regions[1].blocks[0]
                ret = body.operations[len(body.operations) - 1]
                false = _OpaqueFalse(loop.operation)
                kept = {v for k, v in enumerate(ret.operands) if v == body.arguments[k]}
                for k, value in enumerate(list(ret.operands)):
                    carried = body.arguments[k]
                    if value == carried:
                        continue
                    if value not in kept and (_reads_robustly(value, carried) or _gathered(value, carried)):
                        kept.add(value)
                        continue
                    with ir.InsertionPoint(ret), ret.location:
                        tied = _tie(value, carried, false)
                    if tied is None:
                        continue
                    ret.operands[k] = tied
                    self.record("tie-yield")
                    changed = True
        return changed
