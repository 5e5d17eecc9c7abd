"""Reshape moving (spec 004: Reshape mover; XLA ``reshape_mover.cc``).

Moves reshapes and transposes ("rearranges") outputward across element-wise ops, so that
the op runs on the values before the rearrange and one rearrange follows it; later passes
(algsimp) then combine that rearrange with the next one::

    %a = stablehlo.reshape %x : (tensor<1x8x1x7xf32>) -> tensor<8x7xf32>
    %b = stablehlo.reshape %y : (tensor<1x8x1x7xf32>) -> tensor<8x7xf32>
    %s = stablehlo.add %a, %b : tensor<8x7xf32>

becomes ::

    %0 = stablehlo.add %x, %y : tensor<1x8x1x7xf32>
    %s = stablehlo.reshape %0 : (tensor<1x8x1x7xf32>) -> tensor<8x7xf32>

An element-wise op computes each element from the operands' elements at its own index, and
a rearrange only moves elements, so ``f(r(x), r(y)) == r(f(x, y))`` exactly.

Conditions (XLA's): the op is element-wise (op_facts.ELEMENTWISE_OPS) of static shape; one
operand is a rearrange that is not trivial (below); every operand is either a rearrange
equivalent to it (transposes of one permutation, or reshapes between the same dimensions,
element types aside) or is trivially rearrangeable: a constant (the inverse rearrange of a
splat is a splat; of other constants a reshape/transpose of the constant, for constant
folding), a ``broadcast_in_dim`` of a scalar (for a reshape) or with sorted dimensions that
a transpose keeps sorted (it becomes a broadcast to the other shape), or a rank-0
predicate/bound of ``select``/``clamp`` (StableHLO's implicit scalar broadcast). A rearrange
of a constant or of such a broadcast is itself trivial and never moved (XLA
DontSinkReshapesOfConstants). And every user of each moved rearrange must be moved too
(the rearrange then disappears; otherwise it would be computed twice): candidates are
pruned until that holds (XLA ReshapeWithUsersOutsideCandidatesNotSink).

The pass sweeps until nothing moves (XLA runs it under a fixed-point pipeline). Run
``algsimp`` after it (rearrange chains, transposes of transposes) and ``dce``.
"""

from __future__ import annotations

from iree.compiler import ir

from dialect_ops.op_facts import ELEMENTWISE_OPS
from dialect_ops.shape_ops import broadcast_in_dim, reshape, transpose
from hlo_mlir import _emit
from hlo_mlir.ir_access import attribute_dict, int_array
from pipelines.matchers import defining_op, has_uses, known_dims, ops_where, static_dims, xla_arrays
from pipelines.pass_base import Pass, sweep_until_unchanged
from pipelines.registry import register

__all__ = ["ReshapeMover", "REARRANGES"]

REARRANGES = ("stablehlo.reshape", "stablehlo.transpose")
# Ops whose rank-0 operands StableHLO broadcasts itself: select's predicate, clamp's bounds.
_IMPLICIT_SCALARS = ("stablehlo.select", "stablehlo.clamp")
# Each sweep moves every rearrange at least one op outputward; a chain of N element-wise
# ops after a rearrange takes N sweeps.
_MAX_SWEEPS = 256


def _rearrange(value: ir.Value):
    op = defining_op(value)
    return op if op is not None and op.operation.name in REARRANGES else None


def _permutation(op) -> list[int]:
    return int_array(op, "permutation")


def _inverse(permutation: list[int]) -> list[int]:
    inverse = [0] * len(permutation)
    for i, p in enumerate(permutation):
        inverse[p] = i
    return inverse


def _is_nop(rearrange) -> bool:
    """A reshape to its operand's shape or a transpose by the identity: algsimp removes
    it, and it is never the one moved."""
    if rearrange.operation.name == "stablehlo.transpose":
        permutation = _permutation(rearrange)
        return permutation == sorted(permutation)
    return static_dims(rearrange.results[0]) == static_dims(rearrange.operands[0])


def _equivalent(a, b) -> bool:
    """Whether rearranges ``a`` and ``b`` move elements alike (XLA AreEquivalentRearranges)."""
    if a.operation.name != b.operation.name or static_dims(a.results[0]) != static_dims(b.results[0]):
        return False
    if a.operation.name == "stablehlo.transpose":
        return _permutation(a) == _permutation(b)
    return static_dims(a.operands[0]) == static_dims(b.operands[0])


def _implicit_scalar(op, value: ir.Value) -> bool:
    """Whether ``value`` is a rank-0 operand that ``op`` broadcasts itself."""
    return op.name in _IMPLICIT_SCALARS and static_dims(value) == [] and static_dims(op.results[0]) != []


def _trivially_rearrangeable(value: ir.Value, rearrange) -> bool:
    """Whether the inverse of ``rearrange`` applied to ``value`` (not a rearrange) costs
    nothing: a constant, or a broadcast that becomes another broadcast; anything, when
    ``rearrange`` moves nothing (XLA CanTriviallyRearrange)."""
    if _is_nop(rearrange):
        return True
    op = defining_op(value)
    if op is None:
        return False
    name = op.operation.name
    if name == "stablehlo.constant":
        return True
    if name != "stablehlo.broadcast_in_dim":
        return False
    dims = int_array(op, "broadcast_dimensions")
    if dims != sorted(dims):
        return False  # a broadcast that transposes is a transpose: XLA refuses it too
    if rearrange.operation.name == "stablehlo.reshape":
        return static_dims(op.operands[0]) == []
    permutation = _permutation(rearrange)
    moved = [permutation[d] for d in dims]
    return moved == sorted(moved)


def _nontrivial(rearrange) -> bool:
    return not _trivially_rearrangeable(rearrange.operands[0], rearrange)


def _plan(op):
    """The rearrange that ``op``'s operands share when ``op`` is a candidate, else None
    (XLA IsReshapeMoveCandidate)."""
    if op.name not in ELEMENTWISE_OPS or len(op.results) != 1 or not xla_arrays([*op.operands, *op.results]):
        return None
    if static_dims(op.results[0]) is None:
        return None
    chosen = next((r for r in map(_rearrange, op.operands) if r is not None and _nontrivial(r)), None)
    if chosen is None or static_dims(chosen.operands[0]) is None \
            or static_dims(chosen.results[0]) != static_dims(op.results[0]):
        return None  # (a rank-0 select predicate is not the shape the op has)
    for value in op.operands:
        r = _rearrange(value)
        fits = _equivalent(r, chosen) if r is not None else (
            _implicit_scalar(op, value) or _trivially_rearrangeable(value, chosen))
        if not fits:
            return None
    return chosen


def _key(op) -> ir.Operation:
    return op.operation


def _prune(candidates: dict) -> None:
    """Drops candidates until every user of every rearrange operand of a candidate is a
    candidate (XLA TryReshapeMoveOnCandidates)."""
    removed = True
    while candidates and removed:
        removed = False
        rearranges = {_key(r): r for op, _ in candidates.values() for r in map(_rearrange, op.operands)
                      if r is not None}
        for r in rearranges.values():
            users = [use.owner for use in r.results[0].uses]
            if any(_key(u) not in candidates for u in users):
                for u in users:
                    removed |= candidates.pop(_key(u), None) is not None


def _inverse_of(value: ir.Value, op, chosen) -> ir.Value:
    """``value`` (an operand of ``op``) as it reads before ``chosen``: the source of an
    equivalent rearrange, a rank-0 operand as it is, a constant or broadcast of the other
    shape (XLA ApplyInverseRearrange)."""
    if _implicit_scalar(op, value):
        return value
    r = _rearrange(value)
    if r is not None:
        return r.operands[0]
    dims = known_dims(chosen.operands[0])
    element_type = ir.RankedTensorType(value.type).element_type
    source = defining_op(value)
    if source.operation.name == "stablehlo.broadcast_in_dim":
        bdims = int_array(source, "broadcast_dimensions")
        if chosen.operation.name == "stablehlo.transpose":
            permutation = _permutation(chosen)
            bdims = [permutation[d] for d in bdims]
        return broadcast_in_dim(source.operands[0], dims, bdims)
    # (the bindings cannot read a complex constant's attribute: it gets the rearrange op)
    attr = None if isinstance(element_type, ir.ComplexType) else source.attributes["value"]
    if isinstance(attr, ir.DenseElementsAttr) and ir.DenseElementsAttr(attr).is_splat:
        t = ir.RankedTensorType.get(dims, element_type)
        splat = ir.DenseElementsAttr(attr).get_splat_value()
        return _emit.create("stablehlo.constant", [], [t],
                            {"value": ir.DenseElementsAttr.get_splat(t, splat)}).result
    if chosen.operation.name == "stablehlo.transpose":
        return transpose(value, _inverse(_permutation(chosen)))
    return reshape(value, dims)


def _move(op, chosen) -> None:
    """Emits ``op`` on the operands before ``chosen`` and ``chosen``'s rearrange of it in
    place of ``op``; erases ``op`` and the rearranges left unused (XLA
    SinkRearrangeOperands)."""
    rearranges = [r for r in map(_rearrange, op.operands) if r is not None]
    with ir.InsertionPoint(op), op.location:
        operands = [_inverse_of(v, op, chosen) for v in op.operands]
        element_type = ir.RankedTensorType(op.results[0].type).element_type
        moved_type = ir.RankedTensorType.get(static_dims(chosen.operands[0]), element_type)
        moved = _emit.create(op.name, operands, [moved_type], attribute_dict(op)).result
        if chosen.operation.name == "stablehlo.transpose":
            result = transpose(moved, _permutation(chosen))
        else:
            result = reshape(moved, known_dims(op.results[0]))
    op.results[0].replace_all_uses_with(result)
    op.operation.erase()
    for r in {_key(r): r for r in rearranges}.values():
        if not has_uses(r.results[0]):
            r.operation.erase()


@register
class ReshapeMover(Pass):
    """Move reshapes/transposes below element-wise ops whose operands are all equivalent ones."""

    name = "reshape-mover"
    acts_on = frozenset({"stablehlo.reshape", "stablehlo.transpose"})

    def run(self, module: ir.Module) -> bool:
        return sweep_until_unchanged(lambda: self._sweep(module), _MAX_SWEEPS)

    def _sweep(self, module: ir.Module) -> bool:
        candidates: dict = {}
        for op in ops_where(module, lambda o: o.name in ELEMENTWISE_OPS):
            chosen = _plan(op.opview)
            if chosen is not None:
                candidates[_key(op)] = (op.opview, chosen)
        _prune(candidates)
        with module.context:
            for op, chosen in candidates.values():
                self.record("moved-transpose" if chosen.operation.name == "stablehlo.transpose"
                            else "moved-reshape")
                _move(op, chosen)
        return bool(candidates)
