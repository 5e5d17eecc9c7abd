"""Coverage samples of the rng family, and numpy references of XLA's bit generators.

Random ops have no single right answer, so the RngUniform/RngNormal/RngBernoulli
samples compute PRED checks of their own summary statistics (range, mean, variance
within 6 standard errors) and expect all true. RngBitGenerator is a deterministic
function of its state: its reference is :func:`threefry_bits` / :func:`philox_bits`,
numpy implementations of the published algorithms (Salmon et al., SC 2011) laid out
as XLA's prng.cc lays them out (checked bit for bit against XLA CPU in
tests/e2e/test_rng.py).
"""

from __future__ import annotations

import numpy as np

from hlo_mlir import (
    Abs,
    Add,
    ConstantR0,
    ConvertElementType,
    Div,
    Ge,
    Lt,
    Max,
    Min,
    Mul,
    Parameter,
    RandomAlgorithm,
    Reduce,
    RngBernoulli,
    RngBitGenerator,
    RngNormal,
    RngUniform,
    Shape,
    Sub,
    Tuple,
    XlaBuilder,
)
from tests.op_samples import Sample

_M32 = (1 << 32) - 1
_M64 = (1 << 64) - 1


# --- numpy references of the bit generators ---------------------------------------------------
def _rotl32(v: np.ndarray, d: int) -> np.ndarray:
    return (v << np.uint32(d)) | (v >> np.uint32(32 - d))


def threefry2x32(x0, x1, k0: int, k1: int) -> tuple[np.ndarray, np.ndarray]:
    """Threefry-2x32 with 20 rounds on counters (x0, x1) under key (k0, k1)."""
    x0, x1 = np.array(x0, np.uint32), np.array(x1, np.uint32)
    ks = [np.uint32(k0), np.uint32(k1), np.uint32(0x1BD11BDA ^ k0 ^ k1)]
    rotations = ((13, 15, 26, 6), (17, 29, 16, 24))
    with np.errstate(over="ignore"):
        x0, x1 = x0 + ks[0], x1 + ks[1]
        for i in range(5):
            for r in rotations[i % 2]:
                x0 = x0 + x1
                x1 = x0 ^ _rotl32(x1, r)
            x0 = x0 + ks[(i + 1) % 3]
            x1 = x1 + ks[(i + 2) % 3] + np.uint32(i + 1)
    return x0, x1


def _split_dimension(dims: tuple[int, ...]) -> int:
    """XLA's SplitShapeIntoHalves: the first even dimension, else the first largest one."""
    for i, d in enumerate(dims):
        if d % 2 == 0:
            return i
    return int(np.argmax(dims))


def _bits_as(values: np.ndarray, dims, dtype) -> np.ndarray:
    """Unsigned bits truncated to ``dtype``'s width and reinterpreted as ``dtype``."""
    dtype = np.dtype(dtype)
    return values.reshape(dims).astype(np.dtype(f"u{dtype.itemsize}")).view(dtype)


def threefry_bits(state, dims, dtype) -> tuple[np.ndarray, np.ndarray]:
    """``(new_state, bits)`` of XLA's RngBitGenerator THREE_FRY on a u64[2] (key, counter).

    64-bit outputs: one Threefry block per element, counter + linear index, low word
    first. Narrower outputs: the shape is split in halves along one dimension; block j
    gives elements 2j and 2j+1 of that dimension (8/16-bit outputs keep the low bits).
    """
    key, counter = int(state[0]), int(state[1])
    dims, dtype = tuple(int(d) for d in dims), np.dtype(dtype)
    k0, k1 = key & _M32, key >> 32
    if dtype.itemsize == 8:
        n = int(np.prod(dims, dtype=np.int64))
        c = (np.uint64(counter) + np.arange(n, dtype=np.uint64)) if n else np.zeros(0, np.uint64)
        y0, y1 = threefry2x32((c & np.uint64(_M32)).astype(np.uint32), (c >> np.uint64(32)).astype(np.uint32),
                              k0, k1)
        values = y0.astype(np.uint64) | (y1.astype(np.uint64) << np.uint64(32))
        return np.array([key, (counter + n) & _M64], np.uint64), _bits_as(values, dims, dtype)
    split = _split_dimension(dims) if dims else None
    half = (1,) if split is None else dims[:split] + ((dims[split] + 1) // 2,) + dims[split + 1:]
    n = int(np.prod(half, dtype=np.int64))
    with np.errstate(over="ignore"):
        c = np.uint64(counter) + np.arange(n, dtype=np.uint64)
    y0, y1 = threefry2x32((c & np.uint64(_M32)).astype(np.uint32), (c >> np.uint64(32)).astype(np.uint32),
                          k0, k1)
    if split is None:
        values = y0[:1]
    else:
        pairs = np.stack([y0.reshape(half), y1.reshape(half)], axis=split + 1)
        full = list(dims)
        full[split] = 2 * half[split]
        values = pairs.reshape(full)[tuple(slice(0, d) for d in dims)]
    return np.array([key, (counter + n) & _M64], np.uint64), _bits_as(values, dims, dtype)


def philox4x32(words, k0: int, k1: int) -> list[np.ndarray]:
    """Philox-4x32 with 10 rounds on four counter words under key (k0, k1)."""
    x = [np.asarray(w, np.uint64) for w in words]
    for _ in range(10):
        p0, p1 = x[0] * np.uint64(0xD2511F53), x[2] * np.uint64(0xCD9E8D57)
        x = [((p1 >> np.uint64(32)) ^ x[1] ^ np.uint64(k0)) & np.uint64(_M32), p1 & np.uint64(_M32),
             ((p0 >> np.uint64(32)) ^ x[3] ^ np.uint64(k1)) & np.uint64(_M32), p0 & np.uint64(_M32)]
        k0, k1 = (k0 + 0x9E3779B9) & _M32, (k1 + 0xBB67AE85) & _M32
    return [w.astype(np.uint32) for w in x]


def philox_bits(state, dims, dtype) -> tuple[np.ndarray, np.ndarray]:
    """``(new_state, bits)`` of XLA's RngBitGenerator PHILOX (XLA CPU's DEFAULT).

    The state is (key, counter low, counter high), or (key, counter) whose counter's high
    word is the key (and whose new state drops the high word). Block i uses the 128-bit
    counter + i; its four words are elements 4i..4i+3 (32-bit) or, paired low word first,
    2i and 2i+1 (64-bit); 8/16-bit outputs keep the low bits of 32-bit ones.
    """
    words = [int(v) for v in state]
    dims, dtype = tuple(int(d) for d in dims), np.dtype(dtype)
    key = words[0]
    counter = (words[2] << 64 | words[1]) if len(words) == 3 else (words[0] << 64 | words[1])
    n = int(np.prod(dims, dtype=np.int64))
    wide = dtype.itemsize == 8
    blocks = -(-(2 * n if wide else n) // 4)
    counters = [(counter + i) & ((1 << 128) - 1) for i in range(blocks)]
    b = philox4x32([np.array([(c >> (32 * j)) & _M32 for c in counters], np.uint64) for j in range(4)],
                   key & _M32, key >> 32)
    if wide:
        pairs = [b[0].astype(np.uint64) | (b[1].astype(np.uint64) << np.uint64(32)),
                 b[2].astype(np.uint64) | (b[3].astype(np.uint64) << np.uint64(32))]
        values = np.stack(pairs, axis=1).reshape(-1)[:n]
    else:
        values = np.stack(b, axis=1).reshape(-1)[:n]
    new = (counter + blocks) & ((1 << 128) - 1)
    new_state = [key, new & _M64, new >> 64] if len(words) == 3 else [key, new & _M64]
    return np.array(new_state, np.uint64), _bits_as(values, dims, dtype)


# --- statistics as PRED checks ------------------------------------------------------------------
def _scalar_computation(name, fn, t="f32"):
    b = XlaBuilder(name)
    fn(Parameter(b, 0, Shape.parse(f"{t}[]")), Parameter(b, 1, Shape.parse(f"{t}[]")))
    return b.build()


def _within(value, target, tolerance):
    return Lt(Abs(Sub(value, ConstantR0(value.builder, np.float32(target)))),
              ConstantR0(value.builder, np.float32(tolerance)))


def statistics_checks(x, mean: float, variance: float, lo: float | None = None, hi: float | None = None):
    """PRED[k]: mean and variance of the f32 array ``x`` within 6 standard errors of
    ``mean`` and ``variance`` (the variance of the sample variance estimated with a
    normal's kurtosis bound 3 sigma^4, generous for bounded ones), and, given ``lo``/``hi``,
    min >= lo and max < hi."""
    b = x.builder
    n = x.shape.element_count()
    f32 = lambda v: ConstantR0(b, np.float32(v))  # noqa: E731
    total = Reduce(x, f32(0), _scalar_computation("add", Add), [0])
    m = Div(total, f32(n))
    centered = Sub(x, m)
    var = Div(Reduce(Mul(centered, centered), f32(0), _scalar_computation("add", Add), [0]), f32(n))
    checks = [_within(m, mean, 6 * np.sqrt(variance / n)),
              _within(var, variance, 6 * np.sqrt(3 * variance ** 2 / n))]
    if lo is not None:
        checks.append(Ge(Reduce(x, f32(np.inf), _scalar_computation("min", Min), [0]), f32(lo)))
    if hi is not None:
        checks.append(Lt(Reduce(x, f32(-np.inf), _scalar_computation("max", Max), [0]), f32(hi)))
    return Tuple(b, checks)


# --- samples ------------------------------------------------------------------------------------
_N = 20000


def _rng_uniform() -> Sample:
    """20000 f32 draws from [2, 5): in range, mean 3.5 and variance 9/12 within 6 standard errors."""
    b = XlaBuilder("RngUniform")
    x = RngUniform(ConstantR0(b, np.float32(2)), ConstantR0(b, np.float32(5)), Shape.parse(f"f32[{_N}]"))
    return Sample(b.build(statistics_checks(x, 3.5, 0.75, 2, 5)), (), (np.True_,) * 4)


def _rng_normal() -> Sample:
    """20000 f32 draws from N(1, 2): mean 1 and variance 4 within 6 standard errors."""
    b = XlaBuilder("RngNormal")
    x = RngNormal(ConstantR0(b, np.float32(1)), ConstantR0(b, np.float32(2)), Shape.parse(f"f32[{_N}]"))
    return Sample(b.build(statistics_checks(x, 1.0, 4.0)), (), (np.True_,) * 2)


def _rng_bernoulli() -> Sample:
    """20000 U32 draws with mean 0.3: values in {0, 1}, mean 0.3 within 6 standard errors."""
    b = XlaBuilder("RngBernoulli")
    x = ConvertElementType(RngBernoulli(ConstantR0(b, np.float32(0.3)), Shape.parse(f"u32[{_N}]")), "f32")
    return Sample(b.build(statistics_checks(x, 0.3, 0.21, 0, 2)), (), (np.True_,) * 4)


def _rng_bit_generator() -> Sample:
    """THREE_FRY bits u32[3,5] from state (key, counter): bit-exact with the numpy reference."""
    state = np.array([0x0123456789ABCDEF, 41], np.uint64)
    b = XlaBuilder("RngBitGenerator")
    p = Parameter(b, 0, Shape.parse("u64[2]"), "state")
    comp = b.build(RngBitGenerator(RandomAlgorithm.RNG_THREE_FRY, p, Shape.parse("u32[3,5]")))
    return Sample(comp, (state,), threefry_bits(state, (3, 5), np.uint32))


SAMPLES = {"RngUniform": _rng_uniform, "RngNormal": _rng_normal, "RngBernoulli": _rng_bernoulli,
           "RngBitGenerator": _rng_bit_generator}
