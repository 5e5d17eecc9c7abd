"""rng-expander: lowers the stateful ``stablehlo.rng`` to ``rng_bit_generator`` on a
module-level state, as XLA's RngExpander lowers ``kRng``.

Why: the pinned IREE lowers ``stablehlo.rng`` UNIFORM to a fixed hash of the element
index: every call and every op of the same shape return the same numbers
(ARCHITECTURE.md, defects). ``rng_bit_generator`` THREE_FRY is bit-exact with XLA, so
the expansion draws its bits from it::

    %r = stablehlo.rng %a, %b, %shape, distribution = UNIFORM : (...) -> tensor<4xf32>

becomes::

    ml_program.global private mutable @hlo_mlir_rng_state(dense<[key, 0]>) : tensor<2xui64>
    ...
    %s = ml_program.global_load @hlo_mlir_rng_state : tensor<2xui64>
    %s2, %bits = stablehlo.rng_bit_generator %s, algorithm = THREE_FRY -> tensor<4xui32>
    ml_program.global_store @hlo_mlir_rng_state = %s2
    %u = convert(%bits >> 9) * 2^-23                      // [0, 1), 23 random bits
    %r = min(%u * (%b - %a) + %a, next_after(%b, -inf))   // [a, b)

Where the state comes from: XLA keeps a process-global counter that every ``kRng``
execution advances, and derives the key from the module. Here the state is one mutable
IREE global per module (``ml_program.global``, which IREE turns into ``util.global``):
each rng op loads it, THREE_FRY advances its counter by the number of blocks it used and
the op stores it back. So two rng ops of one module, the iterations of a loop around one
op, and successive calls of a loaded module all draw disjoint counter ranges, i.e.
different numbers. Limits: the global lives in the loaded module instance, so every
fresh load of the same ``.vmfb`` replays the same sequence (as XLA does with a fixed
seed); pick another ``seed`` option to get another one. The state is not visible to the
caller and cannot be reseeded at run time.

Distributions (XLA's client library, prng.cc), computed in f32 (f64 for f64 results,
f16/bf16 are rounded from f32 as XLA's RngExpander does):
  - float UNIFORM: the top 23 (52) bits as an integer times 2^-23 (2^-52) give [0, 1),
    scaled to ``u * (b - a) + a``; rounding can reach ``b`` (XLA returns it then), so the
    result is capped at the largest value below ``b`` to keep the spec's [a, b).
  - integer and PRED UNIFORM: ``a + (bits mod (b - a))`` in 64-bit arithmetic (64
    random bits, so the modulo bias is below 2^-32 for 32-bit types; ``b - a`` wraps
    like XLA's unsigned range; ``b == a`` gives ``a``).
  - NORMAL: Box-Muller on pairs (u1, u2): ``sqrt(-2 log(1 - u1)) * (sin, cos)(2 pi u2)``,
    then ``mu + sigma * z``. ``1 - u1`` lies in (0, 1], so no clamp is needed (XLA clamps
    u1 at 1e-7); the largest |z| is 5.6 in f32, 8.5 in f64.

Refused (left alone): results of dynamic shape and element types other than PRED, 8- to
64-bit integers, f16, bf16, f32 and f64. Run cse/dce afterwards to share constants.
"""

from __future__ import annotations

import dataclasses
import math
from typing import Sequence

import numpy as np
from iree.compiler import ir

from dialect_ops.elementwise import binary, bitcast_convert, compare, convert, select, unary
from dialect_ops.rng import RandomAlgorithm, rng_bit_generator
from dialect_ops.shape_ops import broadcast_in_dim, reshape
from dialect_ops.slicing import concatenate, slice_
from hlo_mlir import _emit
from hlo_mlir.ir_access import rng_distribution, symbol_name
from hlo_mlir.shape import Shape
from hlo_mlir.types import PrimitiveType as T
from pipelines.pass_base import ExpanderPass
from pipelines.registry import register
from pipelines.values import scalar

__all__ = ["RngExpander", "STATE_NAME"]

STATE_NAME = "hlo_mlir_rng_state"
_STATE = Shape.parse("u64[2]")
_SUPPORTED = frozenset({T.PRED, T.S8, T.S16, T.S32, T.S64, T.U8, T.U16, T.U32, T.U64,
                        T.F16, T.BF16, T.F32, T.F64})
_MANTISSA_BITS = {T.F32: 23, T.F64: 52}


def _splitmix64(x: int) -> int:
    """One step of SplitMix64: spreads a small seed over all 64 bits of the key."""
    m = (1 << 64) - 1
    x = (x + 0x9E3779B97F4A7C15) & m
    x = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & m
    x = ((x ^ (x >> 27)) * 0x94D049BB133111EB) & m
    return x ^ (x >> 31)


def _to(x: ir.Value, t: T) -> ir.Value:
    """``x`` converted to element type ``t`` (itself when it already has it)."""
    return x if _emit.shape_of(x).element_type is t else convert(x, t)


@register
@dataclasses.dataclass
class RngExpander(ExpanderPass):
    """Lowers stablehlo.rng to THREE_FRY bits on a module-level state (IREE's rng repeats itself)."""

    name = "rng-expander"
    legalizes_for_iree = True
    seed: int = dataclasses.field(
        default=0, metadata={"help": "seeds the module's initial rng state (key = SplitMix64(seed))"})

    def run(self, module: ir.Module) -> bool:
        self._module = module
        return super().run(module)

    def matches(self, op) -> bool:
        if op.operation.name != "stablehlo.rng":
            return False
        t = op.results[0].type
        if not (isinstance(t, ir.RankedTensorType) and t.has_static_shape):
            return False
        return _emit.shape_of(op.results[0]).element_type in _SUPPORTED

    def expand(self, op) -> Sequence[ir.Value]:
        a, b = op.operands[0], op.operands[1]
        shape = _emit.shape_of(op.results[0])
        if shape.element_count() == 0:
            return [broadcast_in_dim(a, shape.dimensions, [])]
        t = shape.element_type
        if rng_distribution(op) == "NORMAL":
            return [self._normal(a, b, shape)]
        if t.is_floating_point:
            return [self._uniform_float(a, b, shape)]
        return [self._uniform_int(a, b, shape)]

    # --- the state ------------------------------------------------------------------------
    def _bits(self, bits_type: T, dims: Sequence[int]) -> ir.Value:
        """Fresh THREE_FRY bits: load the module state, generate, store the advanced state."""
        self._ensure_state()
        symbol = ir.FlatSymbolRefAttr.get(STATE_NAME)
        state = _emit.create("ml_program.global_load", [], [_emit.type_of(_STATE)], {"global": symbol}).result
        new_state, bits = rng_bit_generator(RandomAlgorithm.RNG_THREE_FRY, state,
                                            Shape.array_shape(bits_type, dims))
        _emit.create("ml_program.global_store", [new_state], [], {"global": symbol})
        return bits

    def _ensure_state(self) -> None:
        body = self._module.body
        for existing in body.operations:
            if existing.operation.name == "ml_program.global" and \
                    symbol_name(existing) == STATE_NAME:
                return
        key = _splitmix64(self.seed & ((1 << 64) - 1))
        with ir.InsertionPoint.at_block_begin(body), ir.Location.unknown():
            _emit.create("ml_program.global", [], [], {
                "sym_name": _emit.str_attr(STATE_NAME),
                "sym_visibility": _emit.str_attr("private"),
                "type": ir.TypeAttr.get(_emit.type_of(_STATE)),
                "is_mutable": ir.UnitAttr.get(),
                "value": _emit.parse_attr(f"dense<[{key}, 0]> : tensor<2xui64>"),
            })

    # --- distributions ------------------------------------------------------------------------
    def _unit(self, wide: T, dims: Sequence[int]) -> ir.Value:
        """Floats of type ``wide`` (F32/F64) uniform in [0, 1): the top mantissa-many bits of
        fresh random bits, as an integer, times 2^-mantissa (XLA's construction)."""
        bits_type = T.U64 if wide is T.F64 else T.U32
        m = _MANTISSA_BITS[wide]
        bits = self._bits(bits_type, dims)
        top = binary("ShiftRightLogical", bits, scalar(bits_type.bit_width - m, bits_type))
        return binary("Mul", convert(top, wide), scalar(2.0 ** -m, wide))

    def _uniform_float(self, a: ir.Value, b: ir.Value, shape: Shape) -> ir.Value:
        """u * (b - a) + a, capped below b; f16/bf16 computed in f32 and rounded."""
        t = shape.element_type
        wide = T.F64 if t is T.F64 else T.F32
        u = self._unit(wide, shape.dimensions)
        aw, bw = _to(a, wide), _to(b, wide)
        r = binary("Add", binary("Mul", u, binary("Sub", bw, aw)), aw)
        r = _to(r, t)
        below_b = _emit.create("chlo.next_after", [b, scalar(-np.inf, t)], [b.type]).result
        return binary("Min", r, below_b)

    def _uniform_int(self, a: ir.Value, b: ir.Value, shape: Shape) -> ir.Value:
        """a + (bits mod (b - a)) in 64 bits; b == a gives a."""
        t = shape.element_type
        wide = T.S64 if t.is_signed_integer else T.U64
        aw, bw = _to(a, wide), _to(b, wide)
        span = binary("Sub", bitcast_convert(bw, T.U64), bitcast_convert(aw, T.U64))
        zero = compare(span, scalar(0, T.U64), "EQ")
        span = select(zero, scalar(1, T.U64), span)
        offset = binary("Rem", self._bits(T.U64, shape.dimensions), span)
        r = binary("Add", aw, bitcast_convert(offset, wide))
        return _to(r, t)

    def _normal(self, mu: ir.Value, sigma: ir.Value, shape: Shape) -> ir.Value:
        """Box-Muller: pairs (u1, u2) -> sqrt(-2 log(1 - u1)) * (sin, cos)(2 pi u2)."""
        t = shape.element_type
        wide = T.F64 if t is T.F64 else T.F32
        n = shape.element_count()
        half = -(-n // 2)
        u = self._unit(wide, [2, half])
        u1 = binary("Sub", scalar(1.0, wide), slice_(u, [0, 0], [1, half]))
        u2 = slice_(u, [1, 0], [2, half])
        radius = unary("Sqrt", binary("Mul", scalar(-2.0, wide), unary("Log", u1)))
        angle = binary("Mul", scalar(2.0 * math.pi, wide), u2)
        z = concatenate([binary("Mul", radius, unary("Sin", angle)),
                         binary("Mul", radius, unary("Cos", angle))], 0)
        z = reshape(slice_(reshape(z, [2 * half]), [0], [n]), shape.dimensions)
        return _to(binary("Add", _to(mu, wide), binary("Mul", _to(sigma, wide), z)), t)
