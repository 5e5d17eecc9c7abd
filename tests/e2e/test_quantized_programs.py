"""Regressions (issue 9): StableHLO modules with quantized (``!quant.uniform``) tensors
compile through hlo-mlir's passes and legalizations and give plain IREE's answer (and
numpy's, from the spec's quantize / dequantize formulas). The unsigned-dot legalization
raised "has no XLA primitive type" on them; every pass must leave such types alone.

XLA CPU cannot be the reference here: it rejects ``uniform_quantize`` ("can't be
translated to XLA HLO").
"""

from __future__ import annotations

import numpy as np
import pytest

import hlo_mlir

I8 = "!quant.uniform<i8:f32, 0.1:0>"
I8_ZP = "!quant.uniform<i8:f32, 0.1:-2>"
I32 = "!quant.uniform<i32:f32, 0.01:0>"


def _quantize(x, scale: float, zero_point: int) -> np.ndarray:
    """The spec's uniform_quantize to i8: round half to even, then clamp."""
    return np.clip(np.rint(x.astype(np.float64) / scale) + zero_point, -128, 127).astype(np.int64)


def _dequantize(q, scale: float, zero_point: int) -> np.ndarray:
    return ((q - zero_point) * scale).astype(np.float32)


def _grid(shape, seed: int) -> np.ndarray:
    """f32 values a quarter step off multiples of 0.1 (no rounding ties), some beyond i8."""
    rng = np.random.default_rng(seed)
    return ((rng.integers(-140, 140, size=shape) + 0.25) * 0.1).astype(np.float32)


def _conv_valid(x, w):
    """NHWC x HWIO, stride 1, no padding."""
    kh, kw = w.shape[:2]
    out = np.zeros((x.shape[0], x.shape[1] - kh + 1, x.shape[2] - kw + 1, w.shape[3]), np.int64)
    for i in range(out.shape[1]):
        for j in range(out.shape[2]):
            out[:, i, j, :] = np.einsum("bhwi,hwio->bo", x[:, i:i + kh, j:j + kw, :], w)
    return out


DOT = f"""func.func @main(%x: tensor<2x3xf32>, %w: tensor<3x4xf32>) -> tensor<2x4xf32> {{
  %q = stablehlo.uniform_quantize %x : (tensor<2x3xf32>) -> tensor<2x3x{I8}>
  %r = stablehlo.uniform_quantize %w : (tensor<3x4xf32>) -> tensor<3x4x{I8}>
  %d = stablehlo.dot_general %q, %r, contracting_dims = [1] x [0]
      : (tensor<2x3x{I8}>, tensor<3x4x{I8}>) -> tensor<2x4x{I32}>
  %o = stablehlo.uniform_dequantize %d : (tensor<2x4x{I32}>) -> tensor<2x4xf32>
  return %o : tensor<2x4xf32>
}}"""

CONV = f"""func.func @main(%x: tensor<1x6x6x1xf32>, %w: tensor<2x2x1x2xf32>) -> tensor<1x5x5x2xf32> {{
  %q = stablehlo.uniform_quantize %x : (tensor<1x6x6x1xf32>) -> tensor<1x6x6x1x{I8}>
  %r = stablehlo.uniform_quantize %w : (tensor<2x2x1x2xf32>) -> tensor<2x2x1x2x{I8}>
  %c = stablehlo.convolution(%q, %r) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f],
      window = {{stride = [1, 1], pad = [[0, 0], [0, 0]]}}
      {{batch_group_count = 1 : i64, feature_group_count = 1 : i64}}
      : (tensor<1x6x6x1x{I8}>, tensor<2x2x1x2x{I8}>) -> tensor<1x5x5x2x{I32}>
  %o = stablehlo.uniform_dequantize %c : (tensor<1x5x5x2x{I32}>) -> tensor<1x5x5x2xf32>
  return %o : tensor<1x5x5x2xf32>
}}"""

GATHER = f"""func.func @main(%x: tensor<5x3xf32>, %i: tensor<2xi32>) -> tensor<2x3xf32> {{
  %q = stablehlo.uniform_quantize %x : (tensor<5x3xf32>) -> tensor<5x3x{I8_ZP}>
  %g = "stablehlo.gather"(%q, %i) <{{dimension_numbers = #stablehlo.gather<offset_dims = [1],
      collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, indices_are_sorted = false,
      slice_sizes = array<i64: 1, 3>}}> : (tensor<5x3x{I8_ZP}>, tensor<2xi32>) -> tensor<2x3x{I8_ZP}>
  %o = stablehlo.uniform_dequantize %g : (tensor<2x3x{I8_ZP}>) -> tensor<2x3xf32>
  return %o : tensor<2x3xf32>
}}"""

TANH = f"""func.func @main(%x: tensor<8xf32>) -> tensor<8xf32> {{
  %q = stablehlo.uniform_quantize %x : (tensor<8xf32>) -> tensor<8x{I8_ZP}>
  %t = stablehlo.tanh %q : (tensor<8x{I8_ZP}>) -> tensor<8x!quant.uniform<i8:f32, 0.01:0>>
  %o = stablehlo.uniform_dequantize %t : (tensor<8x!quant.uniform<i8:f32, 0.01:0>>) -> tensor<8xf32>
  return %o : tensor<8xf32>
}}"""


def _case(name):
    """(module text, arguments, numpy reference, tolerance) of one quantized program."""
    if name == "dot":
        x, w = _grid((2, 3), 1), _grid((3, 4), 2)
        return DOT, [x, w], (_quantize(x, 0.1, 0) @ _quantize(w, 0.1, 0)) * 0.01, 1e-5
    if name == "convolution":
        x, w = _grid((1, 6, 6, 1), 3), _grid((2, 2, 1, 2), 4)
        return CONV, [x, w], _conv_valid(_quantize(x, 0.1, 0), _quantize(w, 0.1, 0)) * 0.01, 1e-5
    if name == "gather":
        x, i = _grid((5, 3), 5), np.int32([3, 0])
        return GATHER, [x, i], _dequantize(_quantize(x, 0.1, -2)[i], 0.1, -2), 1e-6
    x = _grid((8,), 6) * 0.3
    exact = np.tanh(_dequantize(_quantize(x, 0.1, -2), 0.1, -2))
    return TANH, [x], _dequantize(_quantize(exact, 0.01, 0), 0.01, 0), 0.0101  # one quantum (rounding order)


@pytest.mark.parametrize("name", ["dot", "convolution", "gather", "tanh"])
def test_quantized_programs_match_plain_iree_and_the_spec(name):
    text, args, expected, atol = _case(name)
    ours = hlo_mlir.runtime.load(hlo_mlir.compile(text, "llvm-cpu")).main(*args)
    plain = hlo_mlir.runtime.load(hlo_mlir.compile(text, "llvm-cpu", passes="", legalize=False)).main(*args)
    np.testing.assert_array_equal(ours, plain)
    np.testing.assert_allclose(ours, expected.astype(np.float32), rtol=1e-6, atol=atol)


def test_quantized_dynamic_slice_with_s8_start():
    """A quantized operand sliced at an s8 start of -1 (plain IREE reads it as 255)."""
    text = f"""func.func @main(%x: tensor<5xf32>, %i: tensor<i8>) -> tensor<2xf32> {{
  %q = stablehlo.uniform_quantize %x : (tensor<5xf32>) -> tensor<5x{I8_ZP}>
  %s = stablehlo.dynamic_slice %q, %i, sizes = [2] : (tensor<5x{I8_ZP}>, tensor<i8>) -> tensor<2x{I8_ZP}>
  %o = stablehlo.uniform_dequantize %s : (tensor<2x{I8_ZP}>) -> tensor<2xf32>
  return %o : tensor<2xf32>
}}"""
    x = _grid((5,), 7)
    expected = _dequantize(_quantize(x, 0.1, -2), 0.1, -2)
    module = hlo_mlir.runtime.load(hlo_mlir.compile(text, "llvm-cpu"))
    for start, at in [(-1, 0), (2, 2), (100, 3)]:
        np.testing.assert_allclose(module.main(x, np.int8(start)), expected[at:at + 2], rtol=0, atol=1e-6)
