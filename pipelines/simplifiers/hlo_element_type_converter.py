"""HLO element type converter (spec 004: HLO element type converter; XLA
``hlo_element_type_converter.cc``).

Every value of element type ``from-type`` inside a function becomes ``to-type``, so every
op that computed in ``from-type`` computes in ``to-type``; the function keeps its
signature through converts at its boundary (arguments converted in, results converted
back)::

    func.func @f(%x: tensor<4xbf16>) -> tensor<4xbf16> {
      %e = stablehlo.exponential %x : tensor<4xbf16>
      %s = stablehlo.add %e, %x : tensor<4xbf16>
      return %s : tensor<4xbf16>
    }

becomes, with ``{from-type=bf16 to-type=f32}`` ::

    func.func @f(%x: tensor<4xbf16>) -> tensor<4xbf16> {
      %x32 = stablehlo.convert %x : (tensor<4xbf16>) -> tensor<4xf32>
      %e = stablehlo.exponential %x32 : tensor<4xf32>
      %s = stablehlo.add %e, %x32 : tensor<4xf32>
      %r = stablehlo.convert %s : (tensor<4xf32>) -> tensor<4xbf16>
      return %r : tensor<4xbf16>
    }

NOT semantics-preserving: the values are rounded to ``to-type`` instead of
``from-type`` after each op (that is the point: a backend without ``from-type``
arithmetic, or the despecializer's "all in f32"). XLA inserts a convert pair around each
op instead, which rounds back to ``from-type`` after every op; here values stay in
``to-type`` between ops, as spec 004 describes the pass ("ops computing in bf16 compute
in f32"), and only the boundary rounds.

Ops whose types are fixed keep ``from-type`` with converts around them: constants (a
convert after; constant folding folds it), ``bitcast_convert``, ``rng_bit_generator``,
``custom_call``, calls (each callee converts at its own boundary), ``real``/``imag``/
``complex``/``fft``, tokens and any op not known to be type-polymorphic. A ``convert``
that becomes ``to-type -> to-type`` is removed. Ops with regions (``reduce``, ``sort``,
``while``, ``if``, ...) change with their regions' block arguments. Both types must be
floating point (an integer conversion would change wrap-around, not precision).

Statistics: ``retyped-op`` (ops now computing in ``to-type``), ``boundary-convert``
(converts at function arguments and results), ``fixed-op`` (ops left in ``from-type``
with converts around), ``removed-convert`` (converts that became identities).
Run ``algsimp``, ``constant-folding`` and ``cse`` after it.
"""

from __future__ import annotations

import dataclasses
from typing import Callable, Iterable

from iree.compiler import ir

from dialect_ops.elementwise import convert
from dialect_ops.op_facts import ELEMENTWISE_OPS
from dialect_ops.tuple_ops import get_tuple_element, tuple_
from hlo_mlir import ir_access
from hlo_mlir import types as _types
from hlo_mlir.errors import InvalidArgumentError
from pipelines.matchers import has_uses, ops_where, producer
from pipelines.pass_base import Pass
from pipelines.registry import register

__all__ = ["HloElementTypeConverter", "TypeChange", "RETYPABLE_OPS", "float_type", "array_element"]

# Ops whose operand and result element types may all change together (XLA: every op but
# parameters, constants, converts, bitcast converts, custom calls and feeds).
_NOT_RETYPABLE = {f"stablehlo.{n}" for n in ("complex", "real", "imag", "convert")}
RETYPABLE_OPS = (ELEMENTWISE_OPS - _NOT_RETYPABLE) | frozenset(
    f"stablehlo.{name}" for name in """
    broadcast broadcast_in_dim reshape transpose slice dynamic_slice dynamic_update_slice concatenate
    pad reverse iota gather scatter select_and_scatter reduce reduce_window sort while if case map
    return tuple get_tuple_element optimization_barrier dot dot_general convolution
    batch_norm_training batch_norm_inference batch_norm_grad cholesky triangular_solve all_reduce
    all_gather reduce_scatter all_to_all collective_permute collective_broadcast rng
    dynamic_broadcast_in_dim dynamic_reshape dynamic_iota dynamic_pad get_dimension_size
    """.split())


def float_type(name: str, pass_name: str, option: str) -> _types.PrimitiveType:
    """The floating-point PrimitiveType an option names (``"bf16"``)."""
    try:
        t = _types.from_dtype(name)
    except Exception:  # noqa: BLE001 - DTypeError: reworded for the option
        t = None
    if t is None or not t.is_floating_point:
        raise InvalidArgumentError(
            f"{pass_name} requires {option} to name a floating-point type (bf16, f16, f32, f64, ...); "
            f"got {name!r}.")
    return t


def array_element(t: ir.Type) -> ir.Type | None:
    """The element type of a ranked tensor type, else None (tuples, tokens)."""
    return ir.RankedTensorType(t).element_type if isinstance(t, ir.RankedTensorType) else None


@dataclasses.dataclass
class TypeChange:
    """Rewrites values of element type ``old`` to ``new`` (mlir element types) inside a
    scope, leaving fixed ops in ``old`` with converts around them. ``record`` counts rules."""

    old: ir.Type
    new: ir.Type
    record: Callable[[str, int], None]
    changed: bool = False  # whether converts may have become identities

    # --- types --------------------------------------------------------------------------
    def mapped(self, t: ir.Type) -> ir.Type:
        """``t`` with each ``old`` element type (in tensors and tuples) replaced by ``new``."""
        if isinstance(t, ir.RankedTensorType) and t.element_type == self.old:
            return ir.RankedTensorType.get(t.shape, self.new, t.encoding, loc=ir.Location.unknown())
        if ir_access.is_tuple(t):
            tt = ir.TupleType(t)
            return ir.TupleType.get_tuple([self.mapped(tt.get_type(i)) for i in range(tt.num_types)])
        return t

    def touches(self, op) -> bool:
        """Whether ``op`` reads or produces a value whose type changes."""
        return any(self.mapped(v.type) != v.type for v in (*op.operands, *op.results))

    def retypable(self, op) -> bool:
        if op.operation.name not in RETYPABLE_OPS:
            return False
        for v in (*op.operands, *op.results):  # complex<old> has no complex<new> counterpart here
            t = v.type
            if isinstance(t, ir.RankedTensorType) and isinstance(t.element_type, ir.ComplexType) \
                    and ir.ComplexType(t.element_type).element_type == self.old:
                return False
        return True

    # --- casts --------------------------------------------------------------------------
    def _cast(self, value: ir.Value, target: ir.Type, created: list) -> ir.Value:
        """``value`` as ``target`` (same shapes; ``old`` and ``new`` element types differ, or
        will once ``value`` changes type): a convert per array that involves ``old``."""
        if ir_access.is_tuple(target):
            tt = ir.TupleType(target)
            parts = []
            for i in range(tt.num_types):
                part = get_tuple_element(value, i)
                created.append(part.owner)
                parts.append(self._cast(part, tt.get_type(i), created))
            out = tuple_(parts)
        elif self.mapped(target) == target and value.type == target:
            return value  # an array the change leaves alone
        else:
            out = convert(value, _types.from_mlir_name(str(ir.RankedTensorType(target).element_type)))
            self.changed = True
        created.append(out.owner)
        return out

    def _cast_back(self, value: ir.Value, ip: ir.InsertionPoint, location: ir.Location) -> ir.Value:
        """A cast of ``value`` to its current type that keeps that type when ``value``
        changes (its converts and tuples are frozen)."""
        created: list = []
        with ip, location:
            out = self._cast(value, value.type, created)
        freeze(o for o in created if o.operation.name != "stablehlo.get_tuple_element")
        return out

    def stays(self, value: ir.Value) -> bool:
        """Whether ``value`` keeps its type: a function argument, or made by a frozen op or
        an op of fixed types."""
        owner = value.owner
        if isinstance(owner, ir.Block):
            return owner.owner.operation.name == "func.func"
        return frozen(owner) or (owner.operation.name != "stablehlo.convert" and not self.retypable(owner))

    def bridge_in(self, op, index: int) -> bool:
        """Operand ``index`` of ``op`` keeps its current type although its value changes;
        whether that took a new op (a convert read only here is the bridge itself)."""
        value = op.operands[index]
        if self.stays(value):
            return False
        source = producer(value, "stablehlo.convert")
        if source is not None and len(list(value.uses)) == 1:
            freeze([source])
            return False
        op.operands[index] = self._cast_back(value, ir.InsertionPoint(op), op.location)
        return True

    def widen(self, op) -> None:
        """``op`` alone (its regions included) computes in ``new``: its operands are cast in
        and its results cast back for their readers."""
        for i, v in enumerate(op.operands):
            if self.mapped(v.type) != v.type:
                with ir.InsertionPoint(op), op.location:
                    op.operands[i] = self._cast(v, self.mapped(v.type), [])
        for r in op.results:
            if self.mapped(r.type) != r.type and has_uses(r):
                uses = [(u.owner, u.operand_number) for u in r.uses]
                out = self._cast_back(r, ir.InsertionPoint.after(op), op.location)
                for owner, i in uses:
                    owner.operands[i] = out
        self.prepare(_inner_ops(op))
        self.retype_results(op)
        self.retype(op)

    def bridge_out(self, value: ir.Value, ip: ir.InsertionPoint, location: ir.Location) -> bool:
        """``value`` keeps its type; its readers that change type read a cast of it (a
        convert, a frozen op and an op of fixed types read it as it is). Whether that took
        a new op."""
        uses = [(u.owner, u.operand_number) for u in value.uses
                if u.owner.operation.name != "stablehlo.convert" and not frozen(u.owner)
                and self.retypable(u.owner)]
        if not uses:
            return False
        created: list = []
        with ip, location:
            out = self._cast(value, value.type, created)
        freeze(o for o in created if o.operation.name == "stablehlo.get_tuple_element")
        for owner, i in uses:
            owner.operands[i] = out
        return True

    # --- the rewrite --------------------------------------------------------------------
    def prepare(self, ops: Iterable) -> None:
        """Phase 1: converts around each fixed op among ``ops`` and the ops they hold
        (whose regions then stay as they are) that reads or makes ``old``."""
        for op in list(ops):
            if frozen(op):
                continue
            if op.operation.name == "stablehlo.convert":
                self.changed |= self.touches(op)  # it may become an identity
                continue
            if self.retypable(op) or not self.touches(op):
                self.prepare(_inner_ops(op))
                continue
            bridged = False
            for i, v in enumerate(op.operands):
                if self.mapped(v.type) != v.type:
                    bridged |= self.bridge_in(op, i)
            for r in op.results:
                if self.mapped(r.type) != r.type:
                    bridged |= self.bridge_out(r, ir.InsertionPoint.after(op), op.location)
            freeze([op])
            if bridged:
                self.record("fixed-op", 1)

    def retype(self, op) -> None:
        """Phase 2: the values in ``op``'s regions (frozen ops and what they hold excepted)
        take their mapped types."""
        for region in op.regions:
            for block in region.blocks:
                for arg in block.arguments:
                    arg.set_type(self.mapped(arg.type))
                for inner in block.operations:
                    if frozen(inner):
                        continue
                    self.retype_results(inner)
                    self.retype(inner)

    def retype_results(self, op) -> None:
        changed = False
        for r in op.results:
            t = self.mapped(r.type)
            if t != r.type:
                r.set_type(t)
                changed = True
        if changed and op.operation.name not in _PLUMBING and op.operation.name != "stablehlo.convert":
            self.record("retyped-op", 1)

    def finish(self, scope) -> None:
        """Phase 3: converts in ``scope`` whose operand and result types are now equal are
        removed, and the freeze marks with them."""
        identities = ops_where(scope, lambda o: o.operation.name == "stablehlo.convert" and self.changed
                               and o.operands[0].type == o.results[0].type)
        for op in ops_where(scope, frozen):
            del op.attributes[_FROZEN]
        for op in identities:
            op.results[0].replace_all_uses_with(op.operands[0])
            op.erase()
            self.record("removed-convert", 1)
        self.changed = False


# A discardable attribute marks the ops whose types stay while a TypeChange runs (a set of
# handles would not do: the bindings may hand out another handle for the same op).
_FROZEN = "hlo_mlir.keep_element_types"


def freeze(ops) -> None:
    for op in ops:
        op.operation.attributes[_FROZEN] = ir.UnitAttr.get()


def frozen(op) -> bool:
    return _FROZEN in op.operation.attributes


def _inner_ops(op) -> list:
    """The ops of the blocks of ``op``'s regions (not nested deeper)."""
    return [inner for region in op.regions for block in region.blocks for inner in block.operations]


_PLUMBING = frozenset({"stablehlo.return", "stablehlo.tuple", "stablehlo.get_tuple_element"})


@register
@dataclasses.dataclass
class HloElementTypeConverter(Pass):
    """Compute in to-type every op that computes in from-type (converts at function boundaries)."""

    name = "hlo-element-type-converter"
    from_type: str = dataclasses.field(default="bf16", metadata={"help": "the element type to eliminate"})
    to_type: str = dataclasses.field(default="f32", metadata={"help": "the element type computing instead"})

    def run(self, module: ir.Module) -> bool:
        old = float_type(self.from_type, self.name, "from-type")
        new = float_type(self.to_type, self.name, "to-type")
        if old == new:
            return False
        before = sum(self.statistics.values())
        with module.context:
            change = TypeChange(ir.Type.parse(_types.mlir_name(old)), ir.Type.parse(_types.mlir_name(new)),
                                self.record)
            for func in ir_access.functions(module):
                if len(func.regions[0].blocks):
                    self._convert_function(func, change)
        return sum(self.statistics.values()) > before

    def _convert_function(self, func, change: TypeChange) -> None:
        """Converts in at the entry block, back at each ``return``, then everything between."""
        entry = func.regions[0].blocks[0]
        for arg in entry.arguments:
            if change.mapped(arg.type) != arg.type and change.bridge_out(
                    arg, ir.InsertionPoint.at_block_begin(entry), func.location):
                self.record("boundary-convert", 1)
        for block in func.regions[0].blocks:
            ret = block.operations[len(block.operations) - 1]
            for i, v in enumerate(ret.operands):
                if change.mapped(v.type) != v.type and change.bridge_in(ret, i):
                    self.record("boundary-convert", 1)
            freeze([ret])
        change.prepare(op for block in func.regions[0].blocks for op in block.operations)
        for block in func.regions[0].blocks:
            for op in block.operations:
                if not frozen(op):
                    change.retype_results(op)
                    change.retype(op)
        change.finish(func)
