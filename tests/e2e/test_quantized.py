"""Quantized element types end to end (issue 9): ``uniform_quantize`` -> an op on the
quantized tensor -> ``uniform_dequantize``, compiled by ``hlo_mlir.compile`` (O2 and the
IREE legalizations) and run. The answers equal what the pinned IREE gives on the module
alone (``passes="", legalize=False``), where it gives the spec's answer, and a numpy
reference (tests/quantized_modules.py: quantize = round to nearest even of x / scale +
zero point). XLA CPU cannot be the reference here: the pinned jaxlib refuses the module
("'stablehlo.uniform_quantize' op can't be translated to XLA HLO"). The passes these
modules go through are gather-clamp, single-window-stride and
materialize-shared-transcendentals (which raised DTypeError on them); the unsigned-dot
legalization's own cases are in tests/e2e/test_quantized_programs.py.
"""

from __future__ import annotations

import numpy as np
import pytest

import hlo_mlir
from tests.oracle import assert_close, run_iree
from tests.quantized_modules import ACC, RUNNABLE, W, dequantize, quantize

RNG = np.random.default_rng(9)


def _uniform(*shape) -> np.ndarray:
    return RNG.uniform(-1.2, 1.2, shape).astype(np.float32)


def _plain(name, *args):
    """The pinned IREE on its own."""
    return run_iree(RUNNABLE[name], *args, passes="", legalize=False)


def test_tanh():
    x = np.float32([-1.0, -0.3, 0.2, 0.9])
    want = dequantize(quantize(np.tanh(dequantize(quantize(x)))))
    ours = run_iree(RUNNABLE["tanh"], x)
    assert_close(ours, want, 0, 1e-6, "hlo-mlir vs numpy")
    assert_close(ours, _plain("tanh", x), 0, 0, "hlo-mlir vs IREE alone")


def test_gather_in_bounds():
    x, i = np.float32([0.1, -0.2, 0.3, 0.5, -0.7]), np.int32([[4], [1]])
    ours = run_iree(RUNNABLE["gather"], x, i)
    assert_close(ours, dequantize(quantize(x))[[4, 1]], 0, 1e-6, "hlo-mlir vs numpy")
    assert_close(ours, _plain("gather", x, i), 0, 0, "hlo-mlir vs IREE alone")


def test_gather_out_of_bounds_clamps():
    """Start indices are clamped into the operand (spec: gather); the pinned IREE alone reads
    out of bounds here, so only numpy is the reference."""
    x, i = np.float32([0.1, -0.2, 0.3, 0.5, -0.7]), np.int32([[7], [-2]])
    assert_close(run_iree(RUNNABLE["gather"], x, i), dequantize(quantize(x))[[4, 0]], 0, 1e-6)


def _conv1d(x: np.ndarray, w: np.ndarray, stride: int) -> np.ndarray:
    """[b, 0, f] x [0, i, o] -> [b, 0, f] with one feature, in exact integers."""
    qx, qw = quantize(x)[0, :, 0] + 3, quantize(w, W)[:, 0, 0]  # x's zero point is -3
    n = (len(qx) - len(qw)) // stride + 1
    acc = np.array([np.dot(qx[k * stride:k * stride + len(qw)], qw) for k in range(n)])
    return dequantize(acc, ACC).reshape(1, n, 1)


def test_convolution():
    x, w = _uniform(1, 7, 1), _uniform(3, 1, 1)
    ours = run_iree(RUNNABLE["convolution"], x, w)
    assert_close(ours, _conv1d(x, w, 3), 1e-6, 1e-6, "hlo-mlir vs numpy")
    assert_close(ours, _plain("convolution", x, w), 0, 0, "hlo-mlir vs IREE alone")


def test_single_window_convolution():
    """One window position in a strided dimension: single-window-stride rewrites it (the
    quantized op is copied, not rebuilt); the pinned IREE alone cannot compile it."""
    x, w = _uniform(1, 3, 1), _uniform(2, 1, 1)
    assert_close(run_iree(RUNNABLE["single_window_convolution"], x, w), _conv1d(x, w, 2), 1e-6, 1e-6)
    with pytest.raises(hlo_mlir.CompileError):
        _plain("single_window_convolution", x, w)


def test_dot_general():
    x, y = _uniform(2, 3), _uniform(3, 2)
    acc = (quantize(x) + 3) @ quantize(y, W)
    ours = run_iree(RUNNABLE["dot_general"], x, y)
    assert_close(ours, dequantize(acc, ACC), 1e-6, 1e-6, "hlo-mlir vs numpy")
    assert_close(ours, _plain("dot_general", x, y), 0, 0, "hlo-mlir vs IREE alone")


def test_data_movement():
    x, i = _uniform(8, 8), np.int32(7)
    q = dequantize(quantize(x))
    flat = q.T.ravel()
    moved = np.concatenate([flat[32:], flat[:32]]).reshape(8, 8)
    want = (moved, moved[6:8], np.concatenate([q[:1, :1].repeat(8, 1), q, q[:1, :1].repeat(8, 1)]))
    ours = run_iree(RUNNABLE["data_movement"], x, i)
    assert_close(ours, want, 0, 1e-6, "hlo-mlir vs numpy")
    assert_close(ours, _plain("data_movement", x, i), 0, 0, "hlo-mlir vs IREE alone")


def test_elementwise_chain():
    """Every op rounds to the quantized type; IREE alone is the reference of that rounding."""
    x = _uniform(8, 8)
    ours = run_iree(RUNNABLE["elementwise"], x)
    assert_close(ours, _plain("elementwise", x), 0, 0, "hlo-mlir vs IREE alone")
