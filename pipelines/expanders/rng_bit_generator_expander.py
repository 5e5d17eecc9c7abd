"""rng-bit-generator-expander: ``stablehlo.rng_bit_generator`` as the counter-based
algorithm in plain integer ops, as XLA's RngBitGeneratorExpander builds it (its
generators are xla/hlo/builder/lib/prng.cc).

The state is ``u64[2]`` (key, counter) or, for PHILOX, ``u64[3]`` (key, counter low,
counter high). The key's two 32-bit halves key a block cipher over counters::

    %s2, %bits = stablehlo.rng_bit_generator %s, algorithm = THREE_FRY
        : (tensor<2xui64>) -> (tensor<2xui64>, tensor<5x3xui32>)

becomes (THREE_FRY, 32-bit output; ``c = s[1] + iota``)::

    (y0, y1) = threefry2x32(lo32(c), hi32(c); lo32(s[0]), hi32(s[0]))   // 20 rounds, over [3, 3]
    %bits = slice(reshape(concat(y0, y1 along a new axis after dim 0), [6, 3]), [5, 3])
    %s2 = [s[0], s[1] + 9]

- THREE_FRY: the output shape is split in halves along its first even dimension (else
  the first largest one); counter ``s[1] + i`` of half-shape element ``i`` gives the two
  words of elements ``2j`` and ``2j + 1`` of that dimension. 64-bit outputs use one block
  per element, low word first. The counter advances by the number of blocks.
- PHILOX: Philox-4x32 (10 rounds) over the 128-bit counters ``c + i``, each block giving
  four consecutive 32-bit elements (two 64-bit ones, low word first); the 128-bit counter
  is ``(s[1], s[2])``, or with a 2-word state ``(s[1], s[0])`` (XLA reverses the state:
  the key is the high word) whose new state keeps the low word only.
- 8- and 16-bit outputs keep the low bits of 32-bit ones; signed and float outputs are
  the unsigned bits bitcast. ``DEFAULT`` is ``default-algorithm`` (XLA CPU: PHILOX).

Bit-exact with XLA CPU for both algorithms and both state sizes (the pinned IREE's own
lowering ignores ``s[2]`` of a PHILOX state and does not carry the counter: see
tests/e2e/test_rng.py). Conditions: a static output shape of an integer or floating-point
type of 8, 16, 32 or 64 bits, and a state size the algorithm defines. Run cse afterwards.
"""

from __future__ import annotations

import dataclasses
import math
from typing import Sequence

import numpy as np
from iree.compiler import ir

from dialect_ops.elementwise import bitcast_convert
from dialect_ops.shape_ops import broadcast_in_dim, iota, reshape
from dialect_ops.slicing import concatenate, slice_
from hlo_mlir import _emit
from hlo_mlir.errors import InvalidArgumentError
from hlo_mlir.ir_access import rng_algorithm
from hlo_mlir.shape import Shape
from hlo_mlir.types import PrimitiveType as T
from pipelines.matchers import static_dims
from pipelines.pass_base import ExpanderPass
from pipelines.registry import register
from pipelines.values import Expr, scalar, where

__all__ = ["RngBitGeneratorExpander"]

_UNSIGNED = {8: T.U8, 16: T.U16, 32: T.U32, 64: T.U64}
_STATE_WORDS = {"THREE_FRY": (2,), "PHILOX": (2, 3)}
_THREEFRY_ROTATIONS = ((13, 15, 26, 6), (17, 29, 16, 24))
_PHILOX_W32 = (0x9E3779B9, 0xBB67AE85)
_PHILOX_M4X32 = (0xD2511F53, 0xCD9E8D57)


@register
@dataclasses.dataclass
class RngBitGeneratorExpander(ExpanderPass):
    """Expands rng_bit_generator (THREE_FRY, PHILOX) into integer ops, bit-exact with XLA."""

    name = "rng-bit-generator-expander"
    default_algorithm: str = dataclasses.field(
        default="PHILOX", metadata={"help": "the algorithm of DEFAULT: PHILOX (XLA CPU's) or THREE_FRY"})
    only: str = dataclasses.field(
        default="", metadata={"help": "expand only this algorithm (PHILOX or THREE_FRY, DEFAULT counting as "
                                      "default-algorithm); empty: both"})
    # iree-legalize runs it with only=PHILOX: the pinned IREE's PHILOX ignores state[2] of a
    # u64[3] state and does not carry the counter's low word into the high one.
    legalizes_for_iree = True

    def __post_init__(self) -> None:
        self.default_algorithm = self._checked("default-algorithm", self.default_algorithm)
        self.only = self.only and self._checked("only", self.only)

    @staticmethod
    def _checked(option: str, value: str) -> str:
        algorithm = value.upper().removeprefix("RNG_")
        if algorithm not in _STATE_WORDS:
            raise InvalidArgumentError(f"rng-bit-generator-expander requires {option} PHILOX or "
                                       f"THREE_FRY; got {value!r}.")
        return algorithm

    def _algorithm(self, op) -> str:
        algorithm = rng_algorithm(op)
        return self.default_algorithm if algorithm == "DEFAULT" else algorithm

    def matches(self, op) -> bool:
        if op.operation.name != "stablehlo.rng_bit_generator" or self.only not in ("", self._algorithm(op)):
            return False
        state, bits = static_dims(op.operands[0]), static_dims(op.results[1])
        if state is None or bits is None or len(state) != 1:
            return False
        if _emit.shape_of(op.operands[0]).element_type is not T.U64:
            return False
        t = _emit.shape_of(op.results[1]).element_type
        wide_enough = (t.is_integer or t.is_floating_point) and t.bit_width in _UNSIGNED
        return wide_enough and state[0] in _STATE_WORDS.get(self._algorithm(op), ())

    def rule(self, op) -> str:
        return self._algorithm(op).lower().replace("_", "-")

    def expand(self, op) -> Sequence[ir.Value]:
        state = op.operands[0]
        shape = _emit.shape_of(op.results[1])
        if shape.element_count() == 0:  # no block is drawn: the state stays
            return [state, _emit.constant(np.zeros(shape.dimensions, shape.dtype), shape)]
        words = _emit.shape_of(state).dimensions[0]
        key = _word(state, 0)
        width = shape.element_type.bit_width
        if self._algorithm(op) == "THREE_FRY":
            bits, counter = _three_fry(key, _word(state, 1), shape.dimensions, width)
            new_state = [key, counter]
        else:
            low, high = _word(state, 1), _word(state, 2 if words == 3 else 0)
            bits, (low, high) = _philox(key, (low, high), shape.element_count(), width)
            bits = reshape(bits, shape.dimensions)
            new_state = [key, low, high][:words]
        if width < 32:  # the low bits of 32-bit numbers
            bits = _low_bits(Expr(bits), width).value
        if shape.element_type is not _UNSIGNED[width]:
            bits = bitcast_convert(bits, shape.element_type)
        return [concatenate([reshape(w.value, [1]) for w in new_state], 0), bits]


# --- words ------------------------------------------------------------------------------------
def _word(state: ir.Value, i: int) -> Expr:
    """``state[i]`` as a scalar."""
    return Expr(reshape(slice_(state, [i], [i + 1]), []))


def _low_bits(x: Expr, width: int) -> Expr:
    """The low ``width`` bits of unsigned ``x`` as a ``width``-bit unsigned integer (masked
    first: the conversion is then exact)."""
    return (x & ((1 << width) - 1)).convert(_UNSIGNED[width])


def _halves(x: Expr) -> tuple[Expr, Expr]:
    """A u64 as its (low, high) 32-bit words."""
    return _low_bits(x, 32), _low_bits(x >> 32, 32)


def _join(low: Expr, high: Expr) -> Expr:
    """Two u32 words as one u64 (low word first)."""
    return low.convert(T.U64) | (high.convert(T.U64) << 32)


def _splat(x: Expr, dims: Sequence[int]) -> Expr:
    return Expr(broadcast_in_dim(x.value, list(dims), []))


def _counters(start: Expr, dims: Sequence[int]) -> Expr:
    """``start + i`` (u64, wrapping) for each element ``i`` (row-major) of ``dims``."""
    n = math.prod(dims)
    linear = Expr(reshape(iota(Shape.array_shape(T.U64, [n]), 0), list(dims)))
    return _splat(start, dims) + linear


# --- THREE_FRY ----------------------------------------------------------------------------------
def _three_fry_2x32(x: tuple[Expr, Expr], key: Expr) -> tuple[Expr, Expr]:
    """Threefry-2x32, 20 rounds (Salmon et al., SC 2011) on counter words ``x``."""
    dims = x[0].shape.dimensions
    k0, k1 = _halves(key)
    ks = [_splat(k, dims) for k in (k0, k1, k0 ^ k1 ^ 0x1BD11BDA)]
    x0, x1 = x[0] + ks[0], x[1] + ks[1]
    for i in range(5):
        for r in _THREEFRY_ROTATIONS[i % 2]:
            x0 = x0 + x1
            x1 = x0 ^ ((x1 << r) | (x1 >> (32 - r)))
        x0 = x0 + ks[(i + 1) % 3]
        x1 = x1 + ks[(i + 2) % 3] + (i + 1)
    return x0, x1


def _split_dimension(dims: Sequence[int]) -> int:
    """XLA's SplitShapeIntoHalves: the first even dimension, else the first largest one."""
    even = [d for d, n in enumerate(dims) if n % 2 == 0]
    return even[0] if even else max(range(len(dims)), key=lambda d: (dims[d], -d))


def _three_fry(key: Expr, counter: Expr, dims: Sequence[int], width: int) -> tuple[ir.Value, Expr]:
    """(bits of ``dims``, unsigned of ``max(width, 32)`` bits; the new counter)."""
    dims = list(dims)
    if width == 64:
        y0, y1 = _three_fry_2x32(_halves(_counters(counter, dims)), key)
        return _join(y0, y1).value, counter + math.prod(dims)
    if not dims:  # a scalar: the first word of one block
        y0, _ = _three_fry_2x32(_halves(_counters(counter, [1])), key)
        return reshape(y0.value, []), counter + 1
    split = _split_dimension(dims)
    half = dims[:split] + [-(-dims[split] // 2), 1] + dims[split + 1:]  # a unit axis to pair along
    y0, y1 = _three_fry_2x32(_halves(_counters(counter, half)), key)
    pairs = concatenate([y0.value, y1.value], split + 1)
    even = dims[:split] + [2 * half[split]] + dims[split + 1:]
    bits = reshape(pairs, even)
    if even != dims:
        bits = slice_(bits, [0] * len(dims), dims)
    return bits, counter + math.prod(half)


# --- PHILOX ---------------------------------------------------------------------------------------
def _philox_4x32(x: list[Expr], key: Expr) -> list[Expr]:
    """Philox-4x32, 10 rounds (Salmon et al., SC 2011) on counter words ``x``."""
    dims = x[0].shape.dimensions
    k0, k1 = _halves(key)
    for _ in range(10):
        p0 = x[0].convert(T.U64) * _PHILOX_M4X32[0]
        p1 = x[2].convert(T.U64) * _PHILOX_M4X32[1]
        (lo0, hi0), (lo1, hi1) = _halves(p0), _halves(p1)
        x = [hi1 ^ x[1] ^ _splat(k0, dims), lo1, hi0 ^ x[3] ^ _splat(k1, dims), lo0]
        k0, k1 = k0 + _PHILOX_W32[0], k1 + _PHILOX_W32[1]
    return x


def _add_128(counter: tuple[Expr, Expr], n: Expr) -> tuple[Expr, Expr]:
    """The 128-bit (low, high) ``counter`` plus u64 ``n`` (``n``'s shape; the carry goes high)."""
    dims = n.shape.dimensions
    low, high = _splat(counter[0], dims), _splat(counter[1], dims)
    new_low = low + n
    return new_low, where(new_low < low, high + 1, high)


def _philox(key: Expr, counter: tuple[Expr, Expr], n: int, width: int) -> tuple[ir.Value, tuple[Expr, Expr]]:
    """(``n`` numbers as a flat array, u32 or u64 for ``width`` 64; the new 128-bit counter)."""
    per_block = 2 if width == 64 else 4
    blocks = -(-n // per_block)
    low, high = _add_128(counter, Expr(iota(Shape.array_shape(T.U64, [blocks]), 0)))
    y = _philox_4x32([*_halves(low), *_halves(high)], key)
    if width == 64:
        y = [_join(y[0], y[1]), _join(y[2], y[3])]
    columns = concatenate([reshape(w.value, [blocks, 1]) for w in y], 1)
    bits = reshape(columns, [blocks * per_block])
    if blocks * per_block != n:
        bits = slice_(bits, [0], [n])
    return bits, _add_128(counter, Expr(scalar(blocks, T.U64)))
