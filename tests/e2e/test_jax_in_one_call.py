"""JAX in one call (issue 13): ``hlo_mlir.from_jax`` gives a JAX function's StableHLO as an
XlaComputation, ``hlo_mlir.jit`` compiles it through our passes and IREE once per input
signature; both match ``jax.jit`` on XLA CPU, on an MLP (parameters as a pytree) and an
attention block ``softmax(q k^T / sqrt(d)) v``.

Compiles are few (about a second each): the MLP twice (two batch sizes), the attention
block once through ``jit`` and once through ``from_jax`` + ``hlo_mlir.compile``.
"""

from __future__ import annotations

import os
import subprocess
import sys

os.environ.setdefault("JAX_PLATFORMS", "cpu")

import numpy as np
import pytest

jax = pytest.importorskip("jax")
import jax.numpy as jnp  # noqa: E402

import hlo_mlir  # noqa: E402
from hlo_mlir import compiler as _compiler  # noqa: E402
from hlo_mlir.errors import InvalidArgumentError  # noqa: E402
from hlo_mlir.module import XlaComputation  # noqa: E402

RTOL = ATOL = 2e-5


def mlp(params, x):
    """Two dense layers (GELU between) and a softmax; ``params`` is a dict pytree."""
    h = jax.nn.gelu(x @ params["w1"] + params["b1"])
    return jax.nn.softmax(h @ params["w2"] + params["b2"], axis=-1)


def attention(q, k, v):
    """``softmax(q k^T / sqrt(d)) v``, and the attention weights, as a dict."""
    weights = jax.nn.softmax(q @ k.T / np.float32(np.sqrt(q.shape[-1])), axis=-1)
    return {"out": weights @ v, "weights": weights}


def _mlp_inputs(batch: int, seed: int = 0):
    rng = np.random.default_rng(seed)
    params = {"w1": rng.standard_normal((16, 32)) / 4, "b1": rng.standard_normal(32) / 4,
              "w2": rng.standard_normal((32, 10)) / 4, "b2": rng.standard_normal(10) / 4}
    params = {k: v.astype(np.float32) for k, v in params.items()}
    return params, rng.standard_normal((batch, 16)).astype(np.float32)


def _attention_inputs():
    rng = np.random.default_rng(1)
    return tuple(rng.standard_normal((8, 16)).astype(np.float32) for _ in range(3))


@pytest.fixture(autouse=True)
def x64_off():
    """JAX's default (64-bit types off): tests/oracle.py turns x64 on for XLA as an oracle,
    and a worker may have run it before this file."""
    before = jax.config.jax_enable_x64
    jax.config.update("jax_enable_x64", False)
    yield
    jax.config.update("jax_enable_x64", before)


@pytest.fixture
def compiles(monkeypatch):
    """The calls of ``hlo_mlir.compile`` made while the test runs (their targets)."""
    calls: list[str] = []
    real = _compiler.compile

    def counting(source, target="llvm-cpu", **options):
        calls.append(target)
        return real(source, target, **options)

    monkeypatch.setattr(_compiler, "compile", counting)
    return calls


def _assert_tree_close(ours, expected):
    assert jax.tree_util.tree_structure(ours) == jax.tree_util.tree_structure(expected)
    for a, e in zip(jax.tree_util.tree_leaves(ours), jax.tree_util.tree_leaves(expected), strict=True):
        assert isinstance(a, np.ndarray) and a.dtype == e.dtype and a.shape == e.shape
        np.testing.assert_allclose(a, np.asarray(e), rtol=RTOL, atol=ATOL)


def test_jit_mlp_matches_jax_and_compiles_once_per_signature(compiles):
    fast = hlo_mlir.jit(mlp)
    params, x = _mlp_inputs(8)
    _assert_tree_close(fast(params, x), jax.jit(mlp)(params, x))
    assert compiles == ["llvm-cpu"] and fast.cache_size() == 1

    # Same signature, new values (x as float64: JAX without x64 computes it in float32, so
    # the signature is the same): served from memory, no compile.
    params, x = _mlp_inputs(8, seed=5)
    _assert_tree_close(fast(params, x.astype(np.float64)), jax.jit(mlp)(params, x))
    assert len(compiles) == 1 and fast.cache_size() == 1

    # A new batch size is a new signature: it compiles again.
    params, x = _mlp_inputs(3)
    _assert_tree_close(fast(params, x), jax.jit(mlp)(params, x))
    assert len(compiles) == 2 and fast.cache_size() == 2
    params, x = _mlp_inputs(8, seed=6)
    _assert_tree_close(fast(params, x), jax.jit(mlp)(params, x))
    assert len(compiles) == 2


def test_jit_attention_returns_the_output_pytree(compiles):
    q, k, v = _attention_inputs()
    fast = hlo_mlir.jit(attention)
    ours = fast(q, k, v)
    assert sorted(ours) == ["out", "weights"]
    _assert_tree_close(ours, jax.jit(attention)(q, k, v))
    _assert_tree_close(fast(2 * q, k, v), jax.jit(attention)(2 * q, k, v))  # from memory
    assert compiles == ["llvm-cpu"]


def test_from_jax_attention_compiles_and_runs_like_jax():
    q, k, v = _attention_inputs()
    computation = hlo_mlir.from_jax(attention, q, k, v)
    assert isinstance(computation, XlaComputation)
    assert str(computation.program_shape()) == "(p0: f32[8,16], p1: f32[8,16], p2: f32[8,16]) -> " \
                                               "(f32[8,16], f32[8,8])"
    # Locations name the JAX function's source lines (and not hlo-mlir's own frames).
    text = computation.as_text(debug_info=True)
    assert f"{os.path.basename(__file__)}\":" in text and "jax_interop.py" not in text
    # Results are the output leaves in jax.tree_util order ("out", then "weights").
    out, weights = hlo_mlir.runtime.load(hlo_mlir.compile(computation)).main(q, k, v)
    expected = jax.jit(attention)(q, k, v)
    np.testing.assert_allclose(out, expected["out"], rtol=RTOL, atol=ATOL)
    np.testing.assert_allclose(weights, expected["weights"], rtol=RTOL, atol=ATOL)


def test_from_jax_flattens_pytrees_and_keeps_unused_parameters():
    params, x = _mlp_inputs(4)
    spec = jax.ShapeDtypeStruct(x.shape, x.dtype)  # shapes and dtypes are all it reads
    computation = hlo_mlir.from_jax(lambda p, x, unused: mlp(p, x), params, spec, np.zeros(3, np.int32))
    # dict leaves in sorted key order (b1, b2, w1, w2), then x, then the unused argument.
    assert str(computation.program_shape()) == (
        "(p0: f32[32], p1: f32[10], p2: f32[16,32], p3: f32[32,10], p4: f32[4,16], p5: s32[3]) -> f32[4,10]")
    computation.verify()


def test_jit_static_arguments_are_part_of_the_signature(compiles):
    def scale(x, times):
        return x * times

    fast = hlo_mlir.jit(scale, static_argnums=1)
    x = np.arange(4, dtype=np.float32)
    np.testing.assert_array_equal(fast(x, 3), x * 3)
    np.testing.assert_array_equal(fast(x + 1, 3), (x + 1) * 3)
    assert len(compiles) == 1
    with pytest.raises(InvalidArgumentError, match="jit requires hashable static arguments; got"):
        fast(x, [3])
    # A static parameter is static however it is passed, as in jax.jit.
    np.testing.assert_array_equal(fast(x, times=3), x * 3)
    by_name = hlo_mlir.jit(scale, static_argnames="times")
    np.testing.assert_array_equal(by_name(x, 3), x * 3)
    # Two new signatures: times passed by keyword (jax.jit also traces again), and a new function.
    assert len(compiles) == 3


def test_jit_keeps_each_leaf_dtype():
    import ml_dtypes

    def mixed(x, n):
        return {"scaled": x * n.astype(x.dtype), "positive": n > 0, "count": n.sum()}

    x = np.linspace(-2, 2, 6).astype(ml_dtypes.bfloat16)
    n = np.array([-1, 0, 1, 2, 3, 4], np.int32)
    ours, expected = hlo_mlir.jit(mixed)(x, n), jax.jit(mixed)(x, n)
    assert {k: v.dtype for k, v in ours.items()} == {
        "scaled": np.dtype(ml_dtypes.bfloat16), "positive": np.dtype(bool), "count": np.dtype(np.int32)}
    for k in ours:
        np.testing.assert_array_equal(ours[k], np.asarray(expected[k]))


def test_python_scalars_are_weakly_typed_as_in_jax():
    def scale(x, s):
        return x * s

    fast, x = hlo_mlir.jit(scale), np.ones(3, np.float16)
    # 2.0 takes x's type (weak); np.float64(2.0), a float subclass, is a float32 (x64 off).
    for s, dtype in ((2.0, np.float16), (np.float64(2.0), np.float32), (3.0, np.float16)):
        ours = fast(x, s)
        assert ours.dtype == dtype == jax.jit(scale)(x, s).dtype
        np.testing.assert_array_equal(ours, x * s)
    assert fast.cache_size() == 2


def test_side_effects_are_refused_before_compiling(compiles):
    def noisy(x):
        jax.debug.print("x = {}", x)
        return x + 1

    with pytest.raises(InvalidArgumentError, match="from_jax requires a function without side effects"):
        hlo_mlir.from_jax(noisy, np.zeros(2, np.float32))
    with pytest.raises(InvalidArgumentError, match="from_jax requires a function without side effects"):
        hlo_mlir.jit(noisy)(np.zeros(2, np.float32))
    assert compiles == []


def test_bad_options_fail_when_jit_is_called_not_at_the_first_call():
    with pytest.raises(hlo_mlir.CompileError, match="compile requires a target in"):
        hlo_mlir.jit(mlp, target="llvm_cpu")
    with pytest.raises(InvalidArgumentError, match=r"jit requires a driver in \['local-sync'"):
        hlo_mlir.jit(mlp, driver="local_task")
    with pytest.raises(InvalidArgumentError, match="jit requires a callable; got int."):
        hlo_mlir.jit(3)


def test_missing_jax_says_what_to_install(monkeypatch):
    monkeypatch.setitem(sys.modules, "jax", None)  # `import jax` now raises ImportError
    message = r"require jax, which is not installed .*pip install 'hlo-mlir\[jax\]'.*jax==0\.10\.2"
    with pytest.raises(ModuleNotFoundError, match=message) as info:
        hlo_mlir.from_jax(lambda x: x, np.zeros(2, np.float32))
    assert info.value.name == "jax"
    fast = hlo_mlir.jit(lambda x: x)  # jit itself needs no jax: its first call does
    with pytest.raises(ModuleNotFoundError, match=message):
        fast(np.zeros(2, np.float32))


def test_jax_loads_only_when_called():
    script = ("import sys, hlo_mlir; hlo_mlir.jit, hlo_mlir.from_jax; hlo_mlir.jit(len); "
              "print('jax' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["False"]


def test_jit_decorator_forms_and_repr():
    @hlo_mlir.jit(target="llvm-cpu")
    def double(x):
        """Twice x."""
        return x * 2

    assert isinstance(double, hlo_mlir.jax_interop.JitFunction)
    assert double.__doc__ == "Twice x." and double.__name__ == "double"
    assert repr(double).startswith("hlo_mlir.jit(") and "target='llvm-cpu'" in repr(double)
    assert hlo_mlir.jit(jnp.sin).target == "llvm-cpu"
