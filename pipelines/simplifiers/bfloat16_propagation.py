"""BFloat16 propagation (spec 004: BFloat16 propagation; XLA ``bfloat16_propagation.cc``).

An f32 op whose every reader converts its result to bf16 computes in bf16 instead, when
that changes no number: the ops that only move or choose values, for which rounding
first and rounding last give the same bits::

    %t = stablehlo.transpose %x, dims = [1, 0] : (tensor<2x3xf32>) -> tensor<3x2xf32>
    %r = stablehlo.convert %t : (tensor<3x2xf32>) -> tensor<3x2xbf16>

becomes ::

    %xb = stablehlo.convert %x : (tensor<2x3xf32>) -> tensor<2x3xbf16>
    %r = stablehlo.transpose %xb, dims = [1, 0] : (tensor<2x3xbf16>) -> tensor<3x2xbf16>

Ops (``PROPAGATING_OPS``): data movement (``reshape``, ``transpose``,
``broadcast_in_dim``, ``slice``, ``dynamic_slice``, ``concatenate``, ``reverse``,
``pad``), ``select``, and ``maximum``/``minimum``/``clamp``, which commute with rounding
because rounding is monotone (NaN stays NaN, each zero keeps its sign). Every operand of
the result's float type is converted (a pad's padding value, a clamp's bounds); the
predicate and the indices stay. Arithmetic (``add``, ``multiply``, ``dot_general``, ...)
is never changed: XLA's propagation accepts the precision loss there, this pass changes
no number (exactness first).

It sweeps from the results to the arguments, so a chain of such ops becomes bf16 as a
whole; a convert it would create of a bf16 -> f32 convert is its source itself (the
round trip is exact), and so is any ``convert(convert(y: bf16 -> f32) -> bf16)``; a splat
constant operand becomes a bf16 splat constant (rounded to nearest even).

Semantics-preserving. Statistics: the op name per op changed (``transpose``, ...) and
``round-trip`` per convert pair removed. Run ``dce`` after it (old converts stay).
"""

from __future__ import annotations

import dataclasses

import numpy as np
from iree.compiler import ir

from dialect_ops.constant import constant
from dialect_ops.elementwise import convert
from hlo_mlir import types as _types
from pipelines.matchers import ops_where, producer, splat_of
from pipelines.pass_base import Pass
from pipelines.registry import register
from pipelines.simplifiers.hlo_element_type_converter import array_element, float_type

__all__ = ["BFloat16Propagation", "PROPAGATING_OPS"]

PROPAGATING_OPS = frozenset(f"stablehlo.{name}" for name in """
    reshape transpose broadcast_in_dim slice dynamic_slice concatenate reverse pad select
    maximum minimum clamp
    """.split())


_VISITED = PROPAGATING_OPS | {"stablehlo.convert"}


def _bit_width(t: ir.Type) -> int:
    return ir.FloatType(t).width if isinstance(t, ir.FloatType) else 0


@register
@dataclasses.dataclass
class BFloat16Propagation(Pass):
    """Compute in bf16 the f32 ops that move values (reshape, select, max, ...) read only as bf16."""

    name = "bfloat16-propagation"
    low_type: str = dataclasses.field(default="bf16", metadata={"help": "the narrow float type to propagate"})

    def run(self, module: ir.Module) -> bool:
        low_name = _types.mlir_name(float_type(self.low_type, self.name, "low-type"))
        changed = False
        with module.context:
            self._low = ir.Type.parse(low_name)
            # Readers before producers: a rewritten op's new converts make its producers match.
            # Replaced ops are marked dead and erased at the end: a later handle to them
            # must stay valid.
            for op in reversed(ops_where(module, lambda o: o.operation.name in _VISITED)):
                if _dead(op):
                    continue
                if op.operation.name == "stablehlo.convert":
                    changed |= self._round_trip(op)
                elif self._matches(op):
                    self._propagate(op)
                    changed = True
            for op in reversed(ops_where(module, _dead)):  # readers first
                op.erase()
        return changed

    def _narrowing(self, op) -> bool:
        """Whether ``op`` is a convert from a wider float type to the low type."""
        if op.operation.name != "stablehlo.convert" or array_element(op.results[0].type) != self._low:
            return False
        source = array_element(op.operands[0].type)
        return source is not None and _bit_width(source) > _bit_width(self._low)

    def _round_trip(self, op) -> bool:
        """convert(convert(y: low -> wide) -> low) -> y."""
        inner = producer(op.operands[0], "stablehlo.convert")
        if not self._narrowing(op) or inner is None or inner.operands[0].type != op.results[0].type:
            return False
        op.results[0].replace_all_uses_with(inner.operands[0])
        self._erase(op)
        self.record("round-trip")
        return True

    def _matches(self, op) -> bool:
        if len(op.results) != 1 or not isinstance(array_element(op.results[0].type), ir.FloatType):
            return False
        readers = [u.owner for u in op.results[0].uses if not _dead(u.owner)]
        return bool(readers) and all(self._narrowing(r) for r in readers) \
            and _bit_width(array_element(op.results[0].type)) > _bit_width(self._low)

    def _propagate(self, op) -> None:
        """op(x..) read only by converts to low -> op(convert(x)..) in low, read directly."""
        wide = array_element(op.results[0].type)
        low_dtype = _types.from_mlir_name(str(self._low))
        with ir.InsertionPoint(op), op.location:
            operands = [self._narrowed(v, low_dtype) if array_element(v.type) == wide else v
                        for v in op.operands]
            new = op.operation.clone()  # at the insertion point: after the new converts
        for i, v in enumerate(operands):
            new.operands[i] = v
        new.results[0].set_type(_with_element(op.results[0].type, self._low))
        for reader in [u.owner for u in op.results[0].uses if not _dead(u.owner)]:
            reader.results[0].replace_all_uses_with(new.results[0])
            self._erase(reader)
        self.record(op.operation.name.removeprefix("stablehlo."))
        self._erase(op)

    def _narrowed(self, value: ir.Value, low_dtype) -> ir.Value:
        """``value`` rounded to the low type: the source of a low -> wide convert (exact), a
        splat constant of the rounded value (IREE fails to compile a pad whose 16-bit
        padding value is computed from constants), else a convert."""
        source = producer(value, "stablehlo.convert")
        if source is not None and source.operands[0].type == _with_element(value.type, self._low):
            self.record("round-trip")
            return source.operands[0]
        splat = splat_of(value, through_broadcast=False)
        if splat is not None:
            dtype = _types.dtype_of(low_dtype)
            shape = ir.RankedTensorType(value.type).shape
            return constant(np.full(shape, splat, dtype=np.float64).astype(dtype))
        return convert(value, low_dtype)

    @staticmethod
    def _erase(op) -> None:
        """Marks ``op`` dead once nothing live reads it."""
        if all(_dead(u.owner) for u in op.results[0].uses):
            op.operation.attributes[_DEAD] = ir.UnitAttr.get()


_DEAD = "hlo_mlir.dead"


def _dead(op) -> bool:
    return _DEAD in op.operation.attributes


def _with_element(t: ir.Type, element: ir.Type) -> ir.Type:
    return ir.RankedTensorType.get(ir.RankedTensorType(t).shape, element, loc=ir.Location.unknown())
