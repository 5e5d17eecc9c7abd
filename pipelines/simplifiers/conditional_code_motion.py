"""Conditional code motion (spec 004: Conditional code motion; XLA ``conditional_code_motion.cc``).

Moves identical ops out of every branch of a ``stablehlo.if``/``stablehlo.case``: when each
branch returns, as result ``i``, the result of an op that is the same in every branch
(name, attributes, operand and result types) and that nothing else in the branch reads,
the branches return that op's operands instead and one copy of the op runs after the
conditional::

    %r = "stablehlo.if"(%p) ({
      %a = stablehlo.add %x, %y : tensor<4xf32>
      %c = stablehlo.convert %a : (tensor<4xf32>) -> tensor<4xbf16>
      stablehlo.return %c : tensor<4xbf16>
    }, {
      %m = stablehlo.multiply %x, %y : tensor<4xf32>
      %c = stablehlo.convert %m : (tensor<4xf32>) -> tensor<4xbf16>
      stablehlo.return %c : tensor<4xbf16>
    }) : (tensor<i1>) -> tensor<4xbf16>

becomes ::

    %0 = "stablehlo.if"(%p) ({ ...; stablehlo.return %a }, { ...; stablehlo.return %m })
    %r = stablehlo.convert %0 : (tensor<4xf32>) -> tensor<4xbf16>

Whichever branch runs, the op computes the same function of that branch's operands, so
hoisting is exact. An operand that is the same outer value in every branch is read
directly, identical constants are copied out, and every other operand becomes a new result
of the conditional (one per distinct list of branch values). Hoisted ops are side-effect
free and region free: element-wise ops, constants, iota and the data-movement ops of
:data:`MOVABLE`. The pass repeats until nothing moves, so chains (``convert(reshape(x))``)
leave whole. Moving ops into branches (XLA's other direction) is not done.

Run ``conditional-simplifier`` after it (results that became duplicates or captured
values) and ``dce``.
"""

from __future__ import annotations

from iree.compiler import ir

from dialect_ops.op_facts import ELEMENTWISE_OPS
from hlo_mlir import _emit
from hlo_mlir.ir_access import attribute_dict
from pipelines.matchers import defining_op, has_uses, op_name
from pipelines.pass_base import Pass, sweep_until_unchanged
from pipelines.registry import register
from pipelines.simplifiers.conditional_simplifier import branch_results, conditional_ops

__all__ = ["ConditionalCodeMotion", "MOVABLE"]

MOVABLE = ELEMENTWISE_OPS | frozenset(f"stablehlo.{name}" for name in """
    constant iota reshape transpose broadcast_in_dim bitcast_convert slice reverse pad concatenate
    """.split())
_MAX_SWEEPS = 64


def _hoistable(op, values: list[ir.Value]) -> list | None:
    """The ops (one per branch) defining ``values``, the values conditional ``op``'s
    branches return for one result, when they can leave the branches; None otherwise."""
    defs = [defining_op(v) for v in values]
    if any(d is None or d.operation.parent is None or d.operation.parent.operation != op.operation
           for d in defs):
        return None  # a captured value (or block argument): nothing to move
    first = defs[0]
    if first.operation.name not in MOVABLE or len(first.results) != 1 or _complex_constant(first.results[0]):
        return None
    types = [o.type for o in first.operands]
    attributes = attribute_dict(first)
    for d in defs:
        if sum(1 for _ in d.results[0].uses) != 1:
            return None  # read by more than the return
        if d.operation.name != first.operation.name or d.results[0].type != first.results[0].type \
                or [o.type for o in d.operands] != types or attribute_dict(d) != attributes:
            return None
    return defs


def _complex_constant(value: ir.Value) -> bool:
    """Whether ``value`` is a complex constant (the bindings cannot read its attribute)."""
    t = value.type
    return op_name(value) == "stablehlo.constant" and isinstance(t, ir.RankedTensorType) \
        and isinstance(t.element_type, ir.ComplexType)


def _same_constants(values: tuple) -> bool:
    defs = [defining_op(v) for v in values]
    if any(d is None or d.operation.name != "stablehlo.constant" or _complex_constant(v)
           for d, v in zip(defs, values, strict=True)):
        return False
    return all(d.attributes["value"] == defs[0].attributes["value"] and v.type == values[0].type
               for d, v in zip(defs, values, strict=True))


def _captured(op, values: tuple) -> bool:
    """Whether every branch gives the same value, defined outside conditional ``op``."""
    value = values[0]
    if any(v != value for v in values):
        return False
    owner = value.owner
    node = owner.owner if isinstance(owner, ir.Block) else owner
    while node is not None:
        if node.operation == op.operation:
            return False
        node = node.operation.parent
    return True


def _rebuild(op, returns: list[list[ir.Value]]):
    """A copy of conditional ``op`` before it whose branch ``b`` returns ``returns[b]``;
    the branches' ops move into it (``op`` is left with its old returns only)."""
    with ir.InsertionPoint(op), op.location:
        new, blocks = _emit.create_with_region(op.name, list(op.operands), [v.type for v in returns[0]],
                                               None, [[] for _ in op.regions])
    for name in list(op.attributes):
        new.attributes[name] = op.attributes[name]
    for region, block, values in zip(op.regions, blocks, returns, strict=True):
        *ops, terminator = list(region.blocks[0].operations)
        ip = ir.InsertionPoint(block)
        for o in ops:
            ip.insert(o.operation.detach_from_parent())
        with ip, terminator.location:
            _emit.region_return(values)
    return new


@register
class ConditionalCodeMotion(Pass):
    """Hoist ops that every branch of an if/case applies to its returned value out of the branches."""

    name = "conditional-code-motion"
    acts_on = frozenset({"stablehlo.if", "stablehlo.case"})

    def run(self, module: ir.Module) -> bool:
        return sweep_until_unchanged(lambda: self._sweep(module), _MAX_SWEEPS)

    def _sweep(self, module: ir.Module) -> bool:
        moved = False
        with module.context:
            for op in conditional_ops(module):
                moved |= self._hoist(op)
        return moved

    def _hoist(self, op) -> bool:
        """Hoists the identical ops that produce conditional ``op``'s results; returns
        whether anything moved."""
        returned = branch_results(op)
        hoisted = {i: defs for i, values in enumerate(returned)
                   if has_uses(op.results[i]) and (defs := _hoistable(op, values)) is not None}
        if not hoisted:
            return False
        kept = [i for i in range(len(op.results)) if i not in hoisted]
        extra: list[tuple] = []  # new results: per result, the value of every branch
        # hoisted result -> per operand: ("result", k), ("outer", value) or ("constant", value)
        plans: dict[int, list] = {}
        for i, defs in hoisted.items():
            plan = []
            for j in range(len(defs[0].operands)):
                values = tuple(d.operands[j] for d in defs)
                if _captured(op, values):
                    plan.append(("outer", values[0]))
                elif _same_constants(values):
                    plan.append(("constant", values[0]))
                else:
                    if values not in extra:
                        extra.append(values)
                    plan.append(("result", extra.index(values)))
            plans[i] = plan
        branches = len(op.regions)
        returns = [[returned[i][b] for i in kept] + [values[b] for values in extra] for b in range(branches)]
        new = _rebuild(op, returns)
        with ir.InsertionPoint(op), op.location:
            for i, plan in plans.items():
                operands = []
                for kind, item in plan:
                    if kind == "result":
                        operands.append(new.results[len(kept) + item])
                    elif kind == "outer":
                        operands.append(item)
                    else:
                        source = defining_op(item)
                        operands.append(_emit.create("stablehlo.constant", [], [item.type],
                                                     {"value": source.attributes["value"]}).result)
                first = hoisted[i][0]
                outside = _emit.create(first.operation.name, operands, [first.results[0].type],
                                       attribute_dict(first)).result
                op.results[i].replace_all_uses_with(outside)
        for k, i in enumerate(kept):
            op.results[i].replace_all_uses_with(new.results[k])
        op.operation.erase()
        for defs in hoisted.values():
            for d in defs:
                d.operation.erase()  # its one use was the old return, erased with ``op``
        self.record("hoisted-ops", len(hoisted))
        if extra:
            self.record("new-results", len(extra))
        return True
