"""StableHLO modules with quantized element types (``!quant.uniform``), for issue 9's
"every pass leaves types it does not handle alone" checks, and numpy's quantization
(spec: Types, quantized element types; ``uniform_quantize``, ``uniform_dequantize``).

``RUNNABLE`` modules quantize f32 inputs, apply one op (or a chain) to the quantized
tensor and dequantize the result; the pinned IREE compiles them on its own (except where a
case says otherwise). ``NOT_COMPILED`` modules use quantized ops the pinned IREE cannot
compile (reduce, reduce_window, sort, scatter, dynamic_update_slice): passes must still
leave them alone, and compiling them must end in IREE's CompileError, not a traceback.
Every module declares one replica and one partition, so ``emulate-replicas`` runs on it too.
"""

from __future__ import annotations

import numpy as np

__all__ = ["Q", "W", "ACC", "RUNNABLE", "NOT_COMPILED", "quantize", "dequantize"]

# (storage type, scale, zero point) of the three types used.
Q = "!quant.uniform<i8:f32, 0.1:-3>"  # operands
W = "!quant.uniform<i8:f32, 0.2>"  # dot/convolution rhs (the spec wants zero point 0 there)
ACC = "!quant.uniform<i32:f32, 0.02>"  # dot/convolution result: lhs scale x rhs scale
_PARAMS = {Q: (np.int8, 0.1, -3), W: (np.int8, 0.2, 0), ACC: (np.int32, 0.02, 0)}


def quantize(x: np.ndarray, qtype: str = Q) -> np.ndarray:
    """``uniform_quantize``: round(x / scale + zero_point) (to nearest, ties to even), clamped
    to the storage type; returns the stored integers."""
    storage, scale, zero_point = _PARAMS[qtype]
    info = np.iinfo(storage)
    q = np.rint(np.asarray(x, np.float64) / scale + zero_point)
    return np.clip(q, info.min, info.max).astype(np.int64)


def dequantize(q: np.ndarray, qtype: str = Q) -> np.ndarray:
    """``uniform_dequantize``: (q - zero_point) * scale, as f32."""
    _, scale, zero_point = _PARAMS[qtype]
    return ((np.asarray(q, np.int64) - zero_point) * scale).astype(np.float32)


def _t(shape: str, qtype: str = Q) -> str:
    return f"tensor<{shape}x{qtype}>" if shape else f"tensor<{qtype}>"


def _module(body: str) -> str:
    return f"module attributes {{mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32}} {{\n{body}\n}}"


RUNNABLE = {
    "tanh": _module(f"""
func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {{
  %q = stablehlo.uniform_quantize %x : (tensor<4xf32>) -> {_t("4")}
  %t = stablehlo.tanh %q : {_t("4")}
  %d = stablehlo.uniform_dequantize %t : ({_t("4")}) -> tensor<4xf32>
  return %d : tensor<4xf32>
}}"""),
    "gather": _module(f"""
func.func @main(%x: tensor<5xf32>, %i: tensor<2x1xi32>) -> tensor<2xf32> {{
  %q = stablehlo.uniform_quantize %x : (tensor<5xf32>) -> {_t("5")}
  %g = "stablehlo.gather"(%q, %i) {{dimension_numbers = #stablehlo.gather<collapsed_slice_dims = [0],
      start_index_map = [0], index_vector_dim = 1>, slice_sizes = array<i64: 1>}}
      : ({_t("5")}, tensor<2x1xi32>) -> {_t("2")}
  %d = stablehlo.uniform_dequantize %g : ({_t("2")}) -> tensor<2xf32>
  return %d : tensor<2xf32>
}}"""),
    "convolution": _module(f"""
func.func @main(%x: tensor<1x7x1xf32>, %w: tensor<3x1x1xf32>) -> tensor<1x2x1xf32> {{
  %q = stablehlo.uniform_quantize %x : (tensor<1x7x1xf32>) -> {_t("1x7x1")}
  %r = stablehlo.uniform_quantize %w : (tensor<3x1x1xf32>) -> {_t("3x1x1", W)}
  %c = stablehlo.convolution(%q, %r) dim_numbers = [b, 0, f]x[0, i, o]->[b, 0, f], window = {{stride = [3]}}
      {{batch_group_count = 1 : i64, feature_group_count = 1 : i64}}
      : ({_t("1x7x1")}, {_t("3x1x1", W)}) -> {_t("1x2x1", ACC)}
  %d = stablehlo.uniform_dequantize %c : ({_t("1x2x1", ACC)}) -> tensor<1x2x1xf32>
  return %d : tensor<1x2x1xf32>
}}"""),
    # One window position in a strided dimension: the pinned IREE alone fails to compile it
    # (single-window-stride's defect); through hlo-mlir it runs.
    "single_window_convolution": _module(f"""
func.func @main(%x: tensor<1x3x1xf32>, %w: tensor<2x1x1xf32>) -> tensor<1x1x1xf32> {{
  %q = stablehlo.uniform_quantize %x : (tensor<1x3x1xf32>) -> {_t("1x3x1")}
  %r = stablehlo.uniform_quantize %w : (tensor<2x1x1xf32>) -> {_t("2x1x1", W)}
  %c = stablehlo.convolution(%q, %r) dim_numbers = [b, 0, f]x[0, i, o]->[b, 0, f], window = {{stride = [2]}}
      {{batch_group_count = 1 : i64, feature_group_count = 1 : i64}}
      : ({_t("1x3x1")}, {_t("2x1x1", W)}) -> {_t("1x1x1", ACC)}
  %d = stablehlo.uniform_dequantize %c : ({_t("1x1x1", ACC)}) -> tensor<1x1x1xf32>
  return %d : tensor<1x1x1xf32>
}}"""),
    "dot_general": _module(f"""
func.func @main(%x: tensor<2x3xf32>, %y: tensor<3x2xf32>) -> tensor<2x2xf32> {{
  %q = stablehlo.uniform_quantize %x : (tensor<2x3xf32>) -> {_t("2x3")}
  %r = stablehlo.uniform_quantize %y : (tensor<3x2xf32>) -> {_t("3x2", W)}
  %t = stablehlo.dot_general %q, %r, contracting_dims = [1] x [0]
      : ({_t("2x3")}, {_t("3x2", W)}) -> {_t("2x2", ACC)}
  %d = stablehlo.uniform_dequantize %t : ({_t("2x2", ACC)}) -> tensor<2x2xf32>
  return %d : tensor<2x2xf32>
}}"""),
    "data_movement": _module(f"""
func.func @main(%x: tensor<8x8xf32>, %i: tensor<i32>)
    -> (tensor<8x8xf32>, tensor<2x8xf32>, tensor<10x8xf32>) {{
  %q = stablehlo.uniform_quantize %x : (tensor<8x8xf32>) -> {_t("8x8")}
  %t = stablehlo.transpose %q, dims = [1, 0] : ({_t("8x8")}) -> {_t("8x8")}
  %r = stablehlo.reshape %t : ({_t("8x8")}) -> {_t("64")}
  %s = stablehlo.slice %r [0:32] : ({_t("64")}) -> {_t("32")}
  %s2 = stablehlo.slice %r [32:64] : ({_t("64")}) -> {_t("32")}
  %c = stablehlo.concatenate %s2, %s, dim = 0 : ({_t("32")}, {_t("32")}) -> {_t("64")}
  %r2 = stablehlo.reshape %c : ({_t("64")}) -> {_t("8x8")}
  %b = stablehlo.broadcast_in_dim %r2, dims = [0, 1] : ({_t("8x8")}) -> {_t("8x8")}
  %ds = stablehlo.dynamic_slice %b, %i, %i, sizes = [2, 8]
      : ({_t("8x8")}, tensor<i32>, tensor<i32>) -> {_t("2x8")}
  %pv0 = stablehlo.slice %q [0:1, 0:1] : ({_t("8x8")}) -> {_t("1x1")}
  %pv = stablehlo.reshape %pv0 : ({_t("1x1")}) -> {_t("")}
  %p = stablehlo.pad %q, %pv, low = [1, 0], high = [1, 0], interior = [0, 0]
      : ({_t("8x8")}, {_t("")}) -> {_t("10x8")}
  %d1 = stablehlo.uniform_dequantize %b : ({_t("8x8")}) -> tensor<8x8xf32>
  %d2 = stablehlo.uniform_dequantize %ds : ({_t("2x8")}) -> tensor<2x8xf32>
  %d3 = stablehlo.uniform_dequantize %p : ({_t("10x8")}) -> tensor<10x8xf32>
  return %d1, %d2, %d3 : tensor<8x8xf32>, tensor<2x8xf32>, tensor<10x8xf32>
}}"""),
    "elementwise": _module(f"""
func.func @main(%x: tensor<8x8xf32>) -> tensor<8x8xf32> {{
  %q = stablehlo.uniform_quantize %x : (tensor<8x8xf32>) -> {_t("8x8")}
  %a = stablehlo.add %q, %q : {_t("8x8")}
  %e = stablehlo.exponential %a : {_t("8x8")}
  %l = stablehlo.log %e : {_t("8x8")}
  %m = stablehlo.maximum %l, %a : {_t("8x8")}
  %n = stablehlo.negate %m : {_t("8x8")}
  %ab = stablehlo.abs %n : {_t("8x8")}
  %mu = stablehlo.multiply %ab, %q : {_t("8x8")}
  %su = stablehlo.subtract %mu, %q : {_t("8x8")}
  %cmp = stablehlo.compare GT, %su, %q : ({_t("8x8")}, {_t("8x8")}) -> tensor<8x8xi1>
  %sel = stablehlo.select %cmp, %su, %q : tensor<8x8xi1>, {_t("8x8")}
  %d = stablehlo.uniform_dequantize %sel : ({_t("8x8")}) -> tensor<8x8xf32>
  return %d : tensor<8x8xf32>
}}"""),
}

NOT_COMPILED = {
    "reductions": _module(f"""
func.func @main(%x: tensor<4x8xf32>) -> (tensor<4xf32>, tensor<4x4xf32>, tensor<f32>) {{
  %q = stablehlo.uniform_quantize %x : (tensor<4x8xf32>) -> {_t("4x8")}
  %z0 = stablehlo.slice %q [0:1, 0:1] : ({_t("4x8")}) -> {_t("1x1")}
  %z = stablehlo.reshape %z0 : ({_t("1x1")}) -> {_t("")}
  %r = stablehlo.reduce(%q init: %z) applies stablehlo.maximum across dimensions = [1]
      : ({_t("4x8")}, {_t("")}) -> {_t("4")}
  %n = stablehlo.reduce(%z init: %z) applies stablehlo.maximum across dimensions = []
      : ({_t("")}, {_t("")}) -> {_t("")}
  %w = "stablehlo.reduce_window"(%q, %z) ({{
    ^bb0(%a: {_t("")}, %b: {_t("")}):
      %m = stablehlo.maximum %a, %b : {_t("")}
      stablehlo.return %m : {_t("")}
  }}) {{window_dimensions = array<i64: 1, 2>, window_strides = array<i64: 1, 2>}}
      : ({_t("4x8")}, {_t("")}) -> {_t("4x4")}
  %d = stablehlo.uniform_dequantize %r : ({_t("4")}) -> tensor<4xf32>
  %e = stablehlo.uniform_dequantize %w : ({_t("4x4")}) -> tensor<4x4xf32>
  %f = stablehlo.uniform_dequantize %n : ({_t("")}) -> tensor<f32>
  return %d, %e, %f : tensor<4xf32>, tensor<4x4xf32>, tensor<f32>
}}"""),
    "scatter_and_update": _module(f"""
func.func @main(%x: tensor<6xf32>, %i: tensor<i32>, %u: tensor<2xf32>, %si: tensor<2x1xi32>)
    -> (tensor<6xf32>, tensor<6xf32>) {{
  %q = stablehlo.uniform_quantize %x : (tensor<6xf32>) -> {_t("6")}
  %qu = stablehlo.uniform_quantize %u : (tensor<2xf32>) -> {_t("2")}
  %dus = stablehlo.dynamic_update_slice %q, %qu, %i : ({_t("6")}, {_t("2")}, tensor<i32>) -> {_t("6")}
  %sc = "stablehlo.scatter"(%q, %si, %qu) ({{
    ^bb0(%a: {_t("")}, %b: {_t("")}):
      stablehlo.return %b : {_t("")}
  }}) {{scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [0],
      scatter_dims_to_operand_dims = [0], index_vector_dim = 1>}}
      : ({_t("6")}, tensor<2x1xi32>, {_t("2")}) -> {_t("6")}
  %d1 = stablehlo.uniform_dequantize %dus : ({_t("6")}) -> tensor<6xf32>
  %d2 = stablehlo.uniform_dequantize %sc : ({_t("6")}) -> tensor<6xf32>
  return %d1, %d2 : tensor<6xf32>, tensor<6xf32>
}}"""),
    "sort": _module(f"""
func.func @main(%x: tensor<5xf32>, %b: tensor<5xbf16>) -> (tensor<5xf32>, tensor<5xbf16>) {{
  %q = stablehlo.uniform_quantize %x : (tensor<5xf32>) -> {_t("5")}
  %s:2 = "stablehlo.sort"(%q, %b) ({{
    ^bb0(%a0: {_t("")}, %b0: {_t("")}, %a1: tensor<bf16>, %b1: tensor<bf16>):
      %lt = stablehlo.compare LT, %a0, %b0 : ({_t("")}, {_t("")}) -> tensor<i1>
      stablehlo.return %lt : tensor<i1>
  }}) {{dimension = 0 : i64, is_stable = true}} : ({_t("5")}, tensor<5xbf16>) -> ({_t("5")}, tensor<5xbf16>)
  %d = stablehlo.uniform_dequantize %s#0 : ({_t("5")}) -> tensor<5xf32>
  return %d, %s#1 : tensor<5xf32>, tensor<5xbf16>
}}"""),
}
