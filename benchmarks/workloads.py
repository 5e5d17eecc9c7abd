"""The benchmark workloads: each builds one program and its inputs.

Most are built with hlo-mlir's builder; the layer norm and the attention block are
JAX programs exported as StableHLO text (``jax.jit(f).lower(...).as_text()``), as a user
bringing a JAX model would compile them. ``make(quick)`` returns a :class:`Built`;
``quick`` gives a tiny version of the same program for smoke tests.

Work counts are the conventional ones: a multiply-add is 2 flops; ``bytes`` is the least
traffic the program must do (inputs read once, outputs written once).
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from typing import Any, Callable

import ml_dtypes
import numpy as np

from hlo_mlir import (
    Abs,
    Add,
    ConstantR0,
    ConvGeneralDilated,
    CreateScalarLtComputation,
    Div,
    Dot,
    DotGeneral,
    Exp,
    Gather,
    GatherDimensionNumbers,
    GetTupleElement,
    Max,
    Min,
    Mul,
    Parameter,
    Reduce,
    Scatter,
    ScatterDimensionNumbers,
    Shape,
    Sort,
    Sub,
    Tuple,
    While,
    XlaBuilder,
)
from hlo_mlir.types import PrimitiveType as T

__all__ = ["Built", "Workload", "WORKLOADS", "by_name", "fma_peak_program", "copy_program"]


@dataclass
class Built:
    """One program: its source (an XlaComputation or StableHLO text), inputs and work."""

    source: Any
    args: list[np.ndarray]
    flops: float = 0.0
    bytes: float = 0.0
    numpy: Callable[..., Any] | None = None  # the same computation in numpy, where natural
    rtol: float = 1e-4
    atol: float = 1e-4


@dataclass(frozen=True)
class Workload:
    name: str
    description: str
    make: Callable[[bool], Built]
    origin: str = "builder"  # or "jax"
    tags: tuple[str, ...] = field(default_factory=tuple)


_RNG_SEED = 0


def _rng():
    return np.random.default_rng(_RNG_SEED)


def _param(b: XlaBuilder, i: int, text: str, name: str | None = None):
    return Parameter(b, i, Shape.parse(text), name or f"p{i}")


def _reducer(kind, type_name: str = "f32"):
    r = XlaBuilder(kind.__name__.lower())
    return r.build(kind(_param(r, 0, f"{type_name}[]"), _param(r, 1, f"{type_name}[]")))


def _bytes(*arrays) -> float:
    return float(sum(np.asarray(a).nbytes for a in arrays))


# --- dense linear algebra ------------------------------------------------------------------------
def matmul(n: int, quick_n: int = 32, dtype: str = "f32"):
    def make(quick: bool) -> Built:
        m = quick_n if quick else n
        b = XlaBuilder(f"matmul_{dtype}_{m}")
        x, y = _param(b, 0, f"{dtype}[{m},{m}]"), _param(b, 1, f"{dtype}[{m},{m}]")
        comp = b.build(Dot(x, y))
        np_dtype = ml_dtypes.bfloat16 if dtype == "bf16" else np.float32
        rng = _rng()
        args = [rng.standard_normal((m, m), np.float32).astype(np_dtype) for _ in range(2)]
        if dtype == "bf16":  # bf16 results: XLA and IREE accumulate at different widths
            return Built(comp, args, 2.0 * m ** 3, _bytes(*args) * 1.5, None, rtol=3e-2, atol=0.5)
        return Built(comp, args, 2.0 * m ** 3, _bytes(*args) * 1.5, np.matmul, rtol=1e-3, atol=1e-3)

    return make


def batched_matmul(quick: bool) -> Built:
    batch, m = (2, 16) if quick else (16, 256)
    b = XlaBuilder("batched_matmul")
    x, y = _param(b, 0, f"f32[{batch},{m},{m}]"), _param(b, 1, f"f32[{batch},{m},{m}]")
    comp = b.build(DotGeneral(x, y, (([2], [1]), ([0], [0]))))
    rng = _rng()
    args = [rng.standard_normal((batch, m, m), np.float32) for _ in range(2)]
    return Built(comp, args, 2.0 * batch * m ** 3, _bytes(*args) * 1.5, np.matmul, rtol=1e-3, atol=1e-3)


def mlp(quick: bool) -> Built:
    batch, sizes = (4, (8, 16, 16, 4)) if quick else (128, (784, 1024, 1024, 10))
    b = XlaBuilder("mlp")
    rng = _rng()
    h = _param(b, 0, f"f32[{batch},{sizes[0]}]", "x")
    args = [rng.standard_normal((batch, sizes[0]), np.float32)]
    flops = 0.0
    for i, (k, n) in enumerate(itertools.pairwise(sizes)):
        w = _param(b, 1 + 2 * i, f"f32[{k},{n}]", f"w{i}")
        bias = _param(b, 2 + 2 * i, f"f32[{n}]", f"b{i}")
        args += [(rng.standard_normal((k, n)) / np.sqrt(k)).astype(np.float32),
                 rng.standard_normal(n, np.float32)]
        h = Add(Dot(h, w), bias, [1])
        flops += 2.0 * batch * k * n
        if i < len(sizes) - 2:
            h = Max(h, ConstantR0(b, np.float32(0)), [])

    def reference(x, *params):
        for i in range(0, len(params), 2):
            x = x @ params[i] + params[i + 1]
            if i < len(params) - 2:
                x = np.maximum(x, 0)
        return x

    return Built(b.build(h), args, flops, _bytes(*args), reference, rtol=1e-3, atol=1e-3)


def conv3x3(quick: bool) -> Built:
    n, hw, c = (1, 8, 4) if quick else (4, 56, 64)
    b = XlaBuilder("conv3x3_nhwc")
    x, w = _param(b, 0, f"f32[{n},{hw},{hw},{c}]"), _param(b, 1, f"f32[3,3,{c},{c}]")
    comp = b.build(ConvGeneralDilated(x, w, [1, 1], "SAME", dimension_numbers=("NHWC", "HWIO", "NHWC")))
    rng = _rng()
    args = [rng.standard_normal((n, hw, hw, c), np.float32),
            rng.standard_normal((3, 3, c, c), np.float32) / 24]
    flops = 2.0 * n * hw * hw * c * c * 9
    return Built(comp, args, flops, _bytes(*args) + args[0].nbytes, None, rtol=1e-3, atol=1e-3)


# --- normalizations and reductions ---------------------------------------------------------------
def softmax(quick: bool) -> Built:
    rows, cols = (4, 16) if quick else (4096, 1024)
    b = XlaBuilder("softmax")
    x = _param(b, 0, f"f32[{rows},{cols}]")
    row_max = Reduce(x, ConstantR0(b, np.float32(-np.inf)), _reducer(Max), [1])
    e = Exp(Sub(x, row_max, [0]))
    total = Reduce(e, ConstantR0(b, np.float32(0)), _reducer(Add), [1])
    comp = b.build(Div(e, total, [0]))
    arg = _rng().standard_normal((rows, cols), np.float32)

    def reference(x):
        e = np.exp(x - x.max(axis=1, keepdims=True))
        return e / e.sum(axis=1, keepdims=True)

    return Built(comp, [arg], 5.0 * rows * cols, 2 * arg.nbytes, reference, rtol=1e-4, atol=1e-6)


def _jax_export(fn, args) -> str:
    import jax

    return jax.jit(fn).lower(*[jax.ShapeDtypeStruct(a.shape, a.dtype) for a in args]).as_text()


def layernorm(quick: bool) -> Built:
    import jax
    import jax.numpy as jnp

    rows, cols = (4, 16) if quick else (4096, 1024)
    rng = _rng()
    args = [rng.standard_normal((rows, cols), np.float32), rng.standard_normal(cols, np.float32),
            rng.standard_normal(cols, np.float32)]

    def ln(x, gamma, beta):
        mean = jnp.mean(x, axis=-1, keepdims=True)
        var = jnp.mean(jnp.square(x - mean), axis=-1, keepdims=True)
        return (x - mean) * jax.lax.rsqrt(var + 1e-5) * gamma + beta

    def reference(x, gamma, beta):
        mean = x.mean(axis=-1, keepdims=True)
        var = np.square(x - mean).mean(axis=-1, keepdims=True)
        return (x - mean) / np.sqrt(var + np.float32(1e-5)) * gamma + beta

    return Built(_jax_export(ln, args), args, 8.0 * rows * cols, 2 * args[0].nbytes, reference,
                 rtol=1e-4, atol=1e-4)


def reduce_sum(quick: bool) -> Built:
    n = 1024 if quick else 1 << 25  # 32M f32 = 128 MB
    b = XlaBuilder("reduce_sum")
    x = _param(b, 0, f"f32[{n}]")
    comp = b.build(Reduce(x, ConstantR0(b, np.float32(0)), _reducer(Add), [0]))
    arg = _rng().random(n, np.float32)
    return Built(comp, [arg], float(n), float(arg.nbytes), lambda x: np.sum(x, dtype=np.float32),
                 rtol=1e-4, atol=1e-3)


def attention(quick: bool) -> Built:
    import jax
    import jax.numpy as jnp

    seq, d_model, heads = (8, 16, 2) if quick else (512, 512, 8)
    head_dim = d_model // heads
    rng = _rng()
    args = [rng.standard_normal((seq, d_model), np.float32),
            (rng.standard_normal((d_model, 3 * d_model)) / np.sqrt(d_model)).astype(np.float32),
            (rng.standard_normal((d_model, d_model)) / np.sqrt(d_model)).astype(np.float32)]

    def block(x, wqkv, wo):
        qkv = x @ wqkv
        q, k, v = (qkv[:, i * d_model:(i + 1) * d_model].reshape(seq, heads, head_dim).transpose(1, 0, 2)
                   for i in range(3))
        scores = jnp.einsum("hqd,hkd->hqk", q, k) / np.float32(np.sqrt(head_dim))
        p = jax.nn.softmax(scores, axis=-1)
        out = jnp.einsum("hqk,hkd->hqd", p, v).transpose(1, 0, 2).reshape(seq, d_model)
        return out @ wo

    def reference(x, wqkv, wo):
        qkv = x @ wqkv
        q, k, v = (qkv[:, i * d_model:(i + 1) * d_model].reshape(seq, heads, head_dim).transpose(1, 0, 2)
                   for i in range(3))
        s = np.einsum("hqd,hkd->hqk", q, k) / np.float32(np.sqrt(head_dim))
        p = np.exp(s - s.max(-1, keepdims=True))
        p /= p.sum(-1, keepdims=True)
        return np.einsum("hqk,hkd->hqd", p, v).transpose(1, 0, 2).reshape(seq, d_model) @ wo

    flops = 2.0 * seq * d_model * 4 * d_model + 4.0 * heads * seq * seq * head_dim
    return Built(_jax_export(block, args), args, flops, _bytes(*args) + args[0].nbytes, reference,
                 rtol=1e-3, atol=1e-3)


# --- memory-bound and control-bound programs -----------------------------------------------------
def elementwise_chain(quick: bool) -> Built:
    """Ten element-wise ops over 16M f32: XLA fuses them into one loop."""
    n = 1024 if quick else 1 << 24
    b = XlaBuilder("elementwise_chain")
    x = _param(b, 0, f"f32[{n}]")

    def c(v):
        return ConstantR0(b, np.float32(v))

    y = Mul(x, c(1.5), [])
    y = Add(y, c(0.25), [])
    y = Max(y, c(-2.0), [])
    y = Sub(y, x)
    y = Mul(y, y)
    y = Abs(y)
    y = Add(y, x)
    y = Min(y, c(4.0), [])
    y = Mul(y, c(0.5), [])
    y = Add(y, c(1.0), [])
    arg = _rng().standard_normal(n, np.float32)

    def reference(x):
        y = np.maximum(x * np.float32(1.5) + np.float32(0.25), np.float32(-2.0)) - x
        y = np.abs(y * y) + x
        return np.minimum(y, np.float32(4.0)) * np.float32(0.5) + np.float32(1.0)

    return Built(b.build(y), [arg], 10.0 * n, 2.0 * arg.nbytes, reference, rtol=1e-5, atol=1e-5)


def while_loop(quick: bool) -> Built:
    """1000 iterations of a tiny update: one dispatch (or more) per iteration in IREE."""
    steps = 10 if quick else 1000
    state = "(s32[], f32[16])"

    cb = XlaBuilder("cond")
    t = _param(cb, 0, state)
    cond = cb.build(GetTupleElement(t, 0) < ConstantR0(cb, np.int32(steps)))
    bb = XlaBuilder("body")
    t = _param(bb, 0, state)
    i, v = GetTupleElement(t, 0), GetTupleElement(t, 1)
    decayed = Add(Mul(v, ConstantR0(bb, np.float32(0.999)), []), ConstantR0(bb, np.float32(0.01)), [])
    body = bb.build(Tuple(bb, [i + ConstantR0(bb, np.int32(1)), decayed]))
    b = XlaBuilder("while_loop")
    x = _param(b, 0, "f32[16]")
    comp = b.build(GetTupleElement(While(cond, body, Tuple(b, [ConstantR0(b, np.int32(0)), x])), 1))
    arg = _rng().standard_normal(16, np.float32)

    def reference(x):
        for _ in range(steps):
            x = x * np.float32(0.999) + np.float32(0.01)
        return x

    return Built(comp, [arg], 2.0 * 16 * steps, 0.0, reference, rtol=1e-4, atol=1e-5)


def sort(n: int, quick_n: int = 64):
    def make(quick: bool) -> Built:
        m = quick_n if quick else n
        b = XlaBuilder(f"sort_{m}")
        x = _param(b, 0, f"f32[{m}]")
        comp = b.build(Sort([x], CreateScalarLtComputation([T.F32], b)))
        arg = _rng().standard_normal(m, np.float32)
        return Built(comp, [arg], 0.0, 2.0 * arg.nbytes, np.sort, rtol=0, atol=0)

    return make


def embedding_gather(quick: bool) -> Built:
    vocab, dim, count = (64, 8, 16) if quick else (32768, 256, 16384)
    b = XlaBuilder("embedding_gather")
    table, ids = _param(b, 0, f"f32[{vocab},{dim}]"), _param(b, 1, f"s32[{count}]")
    dn = GatherDimensionNumbers(offset_dims=[1], collapsed_slice_dims=[0], start_index_map=[0],
                                index_vector_dim=1)
    comp = b.build(Gather(table, ids, dn, [1, dim]))
    rng = _rng()
    args = [rng.standard_normal((vocab, dim), np.float32), rng.integers(0, vocab, count, dtype=np.int32)]
    return Built(comp, args, 0.0, 2.0 * count * dim * 4 + args[1].nbytes, lambda t, i: t[i], rtol=0, atol=0)


def scatter_add(quick: bool) -> Built:
    vocab, dim, count = (64, 8, 16) if quick else (32768, 256, 16384)
    b = XlaBuilder("scatter_add")
    table, ids = _param(b, 0, f"f32[{vocab},{dim}]"), _param(b, 1, f"s32[{count}]")
    updates = _param(b, 2, f"f32[{count},{dim}]")
    dn = ScatterDimensionNumbers(update_window_dims=[1], inserted_window_dims=[0],
                                 scatter_dims_to_operand_dims=[0], index_vector_dim=1)
    comp = b.build(Scatter(table, ids, updates, _reducer(Add), dn))
    rng = _rng()
    args = [rng.standard_normal((vocab, dim), np.float32), rng.integers(0, vocab, count, dtype=np.int32),
            rng.standard_normal((count, dim), np.float32)]

    def reference(t, i, u):
        out = t.copy()
        np.add.at(out, i, u)
        return out

    return Built(comp, args, float(count * dim), 2.0 * args[0].nbytes + args[2].nbytes, reference,
                 rtol=1e-5, atol=1e-5)


def tiny_add(quick: bool) -> Built:
    b = XlaBuilder("tiny_add")
    comp = b.build(Add(_param(b, 0, "f32[4]"), _param(b, 1, "f32[4]")))
    args = [np.arange(4, dtype=np.float32), np.ones(4, np.float32)]
    return Built(comp, args, 4.0, 48.0, np.add, rtol=0, atol=0)


WORKLOADS: list[Workload] = [
    Workload("matmul_f32_512", "f32[512,512] x f32[512,512]", matmul(512), tags=("compute",)),
    Workload("matmul_f32_2048", "f32[2048,2048] x f32[2048,2048]", matmul(2048), tags=("compute",)),
    Workload("matmul_bf16_1024", "bf16[1024,1024] x bf16[1024,1024]", matmul(1024, dtype="bf16"),
             tags=("compute",)),
    Workload("batched_matmul", "16 x (f32[256,256] x f32[256,256])", batched_matmul, tags=("compute",)),
    Workload("mlp_3layer", "batch 128, 784-1024-1024-10, relu", mlp, tags=("compute",)),
    Workload("conv3x3_nhwc", "f32[4,56,56,64] * f32[3,3,64,64], SAME, NHWC/HWIO", conv3x3, tags=("compute",)),
    Workload("attention", "1 block, seq 512, d_model 512, 8 heads (JAX export)", attention, "jax",
             tags=("compute",)),
    Workload("softmax", "f32[4096,1024] along rows", softmax, tags=("memory",)),
    Workload("layernorm", "f32[4096,1024] along rows (JAX export)", layernorm, "jax", tags=("memory",)),
    Workload("reduce_sum", "f32[32M] -> f32[]", reduce_sum, tags=("memory",)),
    Workload("elementwise_chain", "10 element-wise ops over f32[16M]", elementwise_chain, tags=("memory",)),
    Workload("embedding_gather", "rows of f32[32768,256] at s32[16384]", embedding_gather, tags=("memory",)),
    Workload("scatter_add", "f32[16384,256] added into f32[32768,256] rows", scatter_add, tags=("memory",)),
    Workload("sort_16k", "f32[16384] ascending", sort(16384), tags=("sort",)),
    Workload("sort_1m", "f32[1048576] ascending", sort(1 << 20), tags=("sort",)),
    Workload("while_1000", "1000 iterations of f32[16] update", while_loop, tags=("dispatch",)),
    Workload("tiny_add", "f32[4] + f32[4]: dispatch cost", tiny_add, tags=("dispatch",)),
]


def by_name(names) -> list[Workload]:
    known = {w.name: w for w in WORKLOADS}
    unknown = [n for n in names if n not in known]
    if unknown:
        raise SystemExit(f"unknown workload(s) {unknown}; known: {sorted(known)}")
    return [known[n] for n in names]


# --- peak microbenchmarks ------------------------------------------------------------------------
def fma_peak_program(quick: bool) -> Built:
    """8 independent chains of 32 dependent multiply-adds per element: compute-bound,
    enough independent FMAs in flight to fill the pipelines, data resident in cache."""
    n, chains, depth = (256, 2, 4) if quick else (1 << 16, 8, 32)
    b = XlaBuilder("fma_peak")
    x = _param(b, 0, f"f32[{n}]")
    total = None
    for c in range(chains):
        y = x
        for d in range(depth):
            y = Add(Mul(y, ConstantR0(b, np.float32(0.999 - 1e-4 * (c + d))), []),
                    ConstantR0(b, np.float32(1e-3 * (c + 1))), [])
        total = y if total is None else Add(total, y)
    arg = _rng().random(n, np.float32)
    return Built(b.build(total), [arg], 2.0 * n * chains * depth, 2.0 * arg.nbytes, None, rtol=1e-4,
                 atol=1e-4)


def copy_program(quick: bool) -> Built:
    """y = x + 1 over a buffer much larger than the caches: memory bandwidth."""
    n = 1 << 12 if quick else 1 << 25
    b = XlaBuilder("stream_add")
    x = _param(b, 0, f"f32[{n}]")
    arg = _rng().random(n, np.float32)
    return Built(b.build(Add(x, ConstantR0(b, np.float32(1)), [])), [arg], float(n), 2.0 * arg.nbytes, None)
