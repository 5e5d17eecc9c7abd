"""BFloat16 normalization (spec 004: BFloat16Normalization; XLA ``float_normalization.cc``
with a bf16 ``FloatSupport``).

An op the backend does not run in bf16 computes in f32 with converts around it; the rest
of the program stays bf16::

    %r = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0]
        : (tensor<2x3xbf16>, tensor<3x2xbf16>) -> tensor<2x2xbf16>

becomes ::

    %a32 = stablehlo.convert %a : (tensor<2x3xbf16>) -> tensor<2x3xf32>
    %b32 = stablehlo.convert %b : (tensor<3x2xbf16>) -> tensor<3x2xf32>
    %r32 = stablehlo.dot_general %a32, %b32, contracting_dims = [1] x [0]
        : (tensor<2x3xf32>, tensor<3x2xf32>) -> tensor<2x2xf32>
    %r = stablehlo.convert %r32 : (tensor<2x2xf32>) -> tensor<2x2xbf16>

- ``unsupported-ops`` (StableHLO op names joined by ``+``, as a pipeline spec splits options
  at commas) lists the ops the backend does not run in bf16. The default,
  ``dot_general+convolution+reduce+reduce_window``, are the
  accumulating ops: IREE accumulates them in their result type, so a bf16 sum loses a bit
  of precision per term. An op of the list with a bf16 operand, result or region value
  computes in f32 (its regions too: a ``reduce`` adds in f32).
- ``mixed-precision=false`` (XLA's ``SupportsMixedPrecisions``): a ``dot_general`` or
  ``convolution`` that mixes bf16 with another float type (bf16 operands and an f32
  result, or a bf16 and an f32 operand) computes in f32 the same way. For a bf16 operand
  of an f32 result this is exact (IREE extends both operands to the result type; the
  products of bf16 values are exact in f32).

NOT semantics-preserving in general: an op of the list rounds its result to bf16 once
instead of after every accumulation step (that is the point). Ops whose types are fixed
(``bitcast_convert``, ``custom_call``, ...) and ``convert`` are never touched. Run
``algsimp`` and ``cse`` after it (a convert pair of two normalized neighbours stays).

Statistics: the op's name (``dot_general``, ``reduce``, ...) per op computed in f32 as
unsupported, and ``mixed-precision`` per op normalized for mixing types.
"""

from __future__ import annotations

import dataclasses
import re

from iree.compiler import ir

from hlo_mlir.errors import InvalidArgumentError
from pipelines.matchers import ops_where
from pipelines.pass_base import Pass
from pipelines.registry import register
from pipelines.simplifiers.hlo_element_type_converter import RETYPABLE_OPS, TypeChange, array_element

__all__ = ["BFloat16Normalization"]

_MIXABLE = ("stablehlo.dot_general", "stablehlo.convolution")


def _float_types(op) -> set[ir.Type]:
    """The floating-point element types of ``op``'s array operands and results."""
    out = set()
    for v in (*op.operands, *op.results):
        t = array_element(v.type)
        if t is not None and isinstance(t, ir.FloatType):
            out.add(t)
    return out


@register
@dataclasses.dataclass
class BFloat16Normalization(Pass):
    """Compute in f32, with converts around, the bf16 ops a backend does not support in bf16."""

    name = "bfloat16-normalization"
    unsupported_ops: str = dataclasses.field(
        default="dot_general+convolution+reduce+reduce_window",
        metadata={"help": "the ops (joined by +) the backend does not run in bf16"})
    mixed_precision: bool = dataclasses.field(
        default=False, metadata={"help": "the backend runs dot_general/convolution mixing bf16 and f32"})

    def _unsupported(self) -> frozenset[str]:
        names = {n.strip() for n in re.split(r"[+,]", self.unsupported_ops) if n.strip()}
        full = {n if n.startswith("stablehlo.") else f"stablehlo.{n}" for n in names}
        bad = sorted(n for n in full if n not in RETYPABLE_OPS)
        if bad:
            raise InvalidArgumentError(
                f"{self.name} requires unsupported-ops to name ops whose element types can change "
                f"(dot_general, reduce, add, ...); got {', '.join(bad)}.")
        return frozenset(full)

    def run(self, module: ir.Module) -> bool:
        unsupported = self._unsupported()
        before = sum(self.statistics.values())
        with module.context:
            bf16, f32 = ir.BF16Type.get(), ir.F32Type.get()
            change = TypeChange(bf16, f32, lambda rule, n: None)

            def rule(op) -> str | None:
                if op.operation.name in unsupported and _touches_bf16(change, op):
                    return op.operation.name.removeprefix("stablehlo.")
                types = _float_types(op)
                mixed = bf16 in types and len(types) > 1
                if not self.mixed_precision and op.operation.name in _MIXABLE and mixed:
                    return "mixed-precision"
                return None

            # Outer ops first: widening a reduce widens what its body computes (an op inside
            # then has no bf16 left).
            candidates = unsupported | frozenset(_MIXABLE)
            for op in reversed(ops_where(module, lambda o: o.operation.name in candidates)):
                name = rule(op) if change.retypable(op) else None
                if name is not None:
                    change.widen(op)
                    self.record(name)
            change.finish(module)
        return sum(self.statistics.values()) > before


def _touches_bf16(change: TypeChange, op) -> bool:
    """Whether ``op`` or an op it holds reads or makes a bf16 value."""
    return bool(ops_where(op, change.touches)) or any(
        change.mapped(a.type) != a.type
        for region in op.regions for block in region.blocks for a in block.arguments)
