"""Regressions found while fixing issue 9, end to end against numpy (and XLA CPU in strict
mode where the builder made the program):

- a sort given one value for two operands (``sort(k, p, p)``) crashed IREE's SPIR-V
  compiler (SIGSEGV); ``sort-barriers`` gives the repeated operand a copy of its own;
- a rank-0 DynamicSlice/DynamicUpdateSlice is the identity (the builder emits none:
  the printed form of a rank-0 ``dynamic_slice`` does not parse back);
- ``#mhlo.type_extensions<bounds = [...]>`` encodings (older XLA/JAX bounded dynamic
  dimensions) were rejected; ``type-extensions-to-bounds`` rewrites them to
  ``#stablehlo.bounds``.
"""

from __future__ import annotations

import numpy as np
import pytest

from hlo_mlir import (
    CreateScalarComparisonComputation,
    CreateScalarLtComputation,
    DynamicSlice,
    DynamicUpdateSlice,
    GetTupleElement,
    Lt,
    Parameter,
    Shape,
    Sort,
    Tuple,
    XlaBuilder,
)
from tests import oracle
from tests.oracle import TARGETS

# --- a sort of one value twice -------------------------------------------------------------
KEYS = np.array([5, 3, 7, 1, 0, 6, 2, 4, 3, 5], np.int32)
PAYLOAD = np.array([10, 11, 12, 13, 14, 15, 16, 17, 18, 19], np.int32)[::-1].copy()


def _sort_one_value_twice(comparator: str, stable: bool):
    """``Sort([k, p, p])``: by ``k`` alone, or by ``k`` then the second ``p`` (the issue's
    E.mlir: the comparator reads the repeated operand)."""
    b = XlaBuilder(f"sort_k_p_p_{comparator}")
    k = Parameter(b, 0, Shape.from_numpy(KEYS), "k")
    p = Parameter(b, 1, Shape.from_numpy(PAYLOAD), "p")
    types = [np.int32] * 3
    cmp = (CreateScalarLtComputation(types, b) if comparator == "first"
           else CreateScalarComparisonComputation("k_then_p", types, [Lt, None, Lt], b))
    s = Sort([k, p, p], cmp, 0, stable)
    return b.build(Tuple(b, [GetTupleElement(s, i) for i in range(3)]))


@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize("comparator, stable", [("first", True), ("first", False), ("lexicographic", False)])
def test_sort_one_value_as_two_operands(comparator, stable, target):
    """Keys with ties: the stable sort and the lexicographic comparator fix the order of
    tied keys; the unstable sort by keys alone is checked on the sorted keys and on the
    payloads being a permutation within each run of equal keys."""
    comp = _sort_one_value_twice(comparator, stable)
    order = np.lexsort((PAYLOAD, KEYS)) if comparator == "lexicographic" else np.argsort(KEYS, kind="stable")
    expected = (KEYS[order], PAYLOAD[order], PAYLOAD[order])
    got = oracle.run_iree(comp, KEYS, PAYLOAD, target=target)
    if comparator == "first" and not stable:  # ties may come out in any order
        oracle.assert_close(got[0], expected[0], 0, 0, f"hlo-mlir on {target}")
        np.testing.assert_array_equal(got[1], got[2])
        for key in np.unique(KEYS):
            assert sorted(got[1][got[0] == key]) == sorted(PAYLOAD[KEYS == key])
    else:
        oracle.assert_close(got, expected, 0, 0, f"hlo-mlir on {target}")
        oracle.assert_close(oracle.run_xla(comp, KEYS, PAYLOAD, strict=True), expected, 0, 0, "XLA")


E_MLIR = """
func.func @main(%k: tensor<10xi32>, %p: tensor<10xi32>) -> (tensor<10xi32>, tensor<10xi32>, tensor<10xi32>) {
  %s:3 = "stablehlo.sort"(%k, %p, %p) <{dimension = 0 : i64, is_stable = false}> ({
  ^bb0(%a: tensor<i32>, %b: tensor<i32>, %c: tensor<i32>, %d: tensor<i32>, %e: tensor<i32>, %f: tensor<i32>):
    %lt = stablehlo.compare LT, %a, %b, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %gt = stablehlo.compare LT, %b, %a, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %ng = stablehlo.not %gt : tensor<i1>
    %pos = stablehlo.compare LT, %e, %f, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %tie = stablehlo.and %ng, %pos : tensor<i1>
    %r = stablehlo.or %lt, %tie : tensor<i1>
    stablehlo.return %r : tensor<i1>
  }) : (tensor<10xi32>, tensor<10xi32>, tensor<10xi32>) -> (tensor<10xi32>, tensor<10xi32>, tensor<10xi32>)
  return %s#0, %s#1, %s#2 : tensor<10xi32>, tensor<10xi32>, tensor<10xi32>
}
"""


@pytest.mark.parametrize("target", TARGETS)
def test_sort_one_value_twice_from_text(target):
    """The reproducer as StableHLO text (no builder): ties of ``k`` broken by ``p``."""
    order = np.lexsort((PAYLOAD, KEYS))
    expected = (KEYS[order], PAYLOAD[order], PAYLOAD[order])
    got = oracle.run_iree(E_MLIR, KEYS, PAYLOAD, target=target)
    oracle.assert_close(got, expected, 0, 0, f"hlo-mlir on {target}")


# --- rank-0 dynamic slices -----------------------------------------------------------------
def test_rank0_dynamic_slice_and_update_are_the_identity():
    b = XlaBuilder("rank0_dynamic")
    x = Parameter(b, 0, Shape.parse("f32[]"), "x")
    u = Parameter(b, 1, Shape.parse("f32[]"), "u")
    comp = b.build(Tuple(b, [DynamicSlice(x, [], []), DynamicUpdateSlice(x, u, [])]))
    x0, u0 = np.float32(2.5), np.float32(-4.0)
    expected = (np.asarray(x0), np.asarray(u0))
    oracle.assert_close(oracle.run_iree(comp, x0, u0), expected, 0, 0, "hlo-mlir")
    oracle.assert_close(oracle.run_xla(comp, x0, u0, strict=True), expected, 0, 0, "XLA")


# --- #mhlo.type_extensions bounds ----------------------------------------------------------
BOUNDED = """
func.func @main(%x: tensor<4x3xf32>, %n: tensor<i32>) -> (tensor<3xf32>, tensor<i32>) {
  %d = stablehlo.set_dimension_size %x, %n, dim = 0 : (tensor<4x3xf32>, tensor<i32>) -> {t}
  %e = stablehlo.exponential %d : {t}
  %c = stablehlo.constant dense<0.0> : tensor<f32>
  %r = stablehlo.reduce(%e init: %c) applies stablehlo.add across dimensions = [0]
      : ({t}, tensor<f32>) -> tensor<3xf32>
  %g = stablehlo.get_dimension_size %e, dim = 0 : ({t}) -> tensor<i32>
  return %r, %g : tensor<3xf32>, tensor<i32>
}
""".replace("{t}", "tensor<?x3xf32, #mhlo.type_extensions<bounds = [4, ?]>>")


@pytest.mark.parametrize("size", [0, 2, 4])
def test_mhlo_type_extensions_bounds_compile_and_run(size):
    x = (np.arange(12, dtype=np.float32).reshape(4, 3) - 5) / 4
    expected = (np.exp(x[:size]).sum(axis=0).astype(np.float32), np.asarray(np.int32(size)))
    got = oracle.run_iree(BOUNDED, x, np.int32(size))
    oracle.assert_close(got, expected, 1e-6, 1e-6, "hlo-mlir")
