"""The precision and type passes of spec 004: hlo-element-type-converter,
bfloat16-mixed-precision-removal, bfloat16-normalization, bfloat16-conversion-folding and
bfloat16-propagation.

The type-changing passes (converter, removal, normalization) change numbers on purpose:
they are checked against numpy computing in the new type and, over generated modules,
against a reference module the generator writes in the new type (never against the
module before the pass). The semantics-preserving ones (folding, propagation) give the
same numbers before and after: unit tests against numpy, and generated modules under the
semantics check of ``hlo-opt --verify-semantics``.
"""

from __future__ import annotations

import itertools

import ml_dtypes
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from iree.compiler import ir

from hlo_mlir.context import get_context
from hlo_mlir.errors import InvalidArgumentError
from hlo_mlir.semantics import SemanticsChecker, first_difference
from pipelines import registry
from pipelines.matchers import ops_where
from pipelines.pipeline import run_pipeline
from tests.oracle import assert_close, run_iree
from tests.properties import examples

BF16 = ml_dtypes.bfloat16
RNG = np.random.default_rng(7)


def parse(text: str) -> ir.Module:
    with get_context():
        return ir.Module.parse(text)


def rewrite(text: str, passes: str) -> tuple[str, dict]:
    """``text`` after ``passes`` and their statistics."""
    module = parse(text)
    stats = run_pipeline(module, passes).statistics()
    return module.operation.get_asm(), {name: dict(c) for name, c in stats.items()}


def bf16(shape, scale=2.0) -> np.ndarray:
    return (scale * RNG.standard_normal(shape)).astype(BF16)


def element_types(text: str) -> set[str]:
    """The element types of the values that the ops of ``text`` make."""
    module = parse(text)
    return {str(ir.RankedTensorType(r.type).element_type) for op in ops_where(module, lambda o: True)
            for r in op.results if isinstance(r.type, ir.RankedTensorType)}


def op_names(text: str) -> list[str]:
    module = parse(text)
    return [op.name for op in ops_where(module, lambda o: True)]


# --- hlo-element-type-converter and bfloat16-mixed-precision-removal ------------------------
CHAIN = """func.func @main(%x: tensor<64xbf16>, %y: tensor<64xbf16>) -> tensor<f32> {
  %m = stablehlo.multiply %x, %y : tensor<64xbf16>
  %e = stablehlo.exponential %m : tensor<64xbf16>
  %z = stablehlo.constant dense<0.0> : tensor<bf16>
  %s = stablehlo.reduce(%e init: %z) applies stablehlo.add across dimensions = [0]
      : (tensor<64xbf16>, tensor<bf16>) -> tensor<bf16>
  %r = stablehlo.convert %s : (tensor<bf16>) -> tensor<f32>
  return %r : tensor<f32>
}"""


def test_converter_computes_in_f32():
    """The bf16 chain computes in f32: numpy in f32 is the reference; the bf16 program
    itself is far from it (it rounds after every op and sums in bf16)."""
    x, y = bf16(64, 1.0), bf16(64, 1.0)
    expected = np.sum(np.exp(x.astype(np.float32) * y.astype(np.float32)), dtype=np.float32)
    text, stats = rewrite(CHAIN, "hlo-element-type-converter{from-type=bf16 to-type=f32}")
    assert stats["hlo-element-type-converter"] == {
        "boundary-convert": 2, "fixed-op": 1, "removed-convert": 1, "retyped-op": 4}
    assert_close(run_iree(text, x, y), expected, rtol=1e-5, what="converted")
    assert abs(float(run_iree(CHAIN, x, y)) - expected) > 1e-4 * abs(expected)  # bf16 rounding


def test_mixed_precision_removal_is_the_converter_to_f32():
    expected, _ = rewrite(CHAIN, "hlo-element-type-converter{from-type=bf16 to-type=f32}")
    text, stats = rewrite(CHAIN, "bfloat16-mixed-precision-removal")
    assert text == expected
    assert stats["bfloat16-mixed-precision-removal"]["boundary-convert"] == 2
    assert registry.get("bfloat16-mixed-precision-removal").options() == []


def test_converter_keeps_fixed_types():
    """bitcast_convert and rng_bit_generator keep bf16 with converts around them (XLA's
    converter skips them too); the numbers are the f32 program's."""
    text = """func.func @main(%x: tensor<4xbf16>, %s: tensor<2xui64>) -> (tensor<4xi16>, tensor<4xbf16>) {
      %a = stablehlo.add %x, %x : tensor<4xbf16>
      %b = stablehlo.bitcast_convert %a : (tensor<4xbf16>) -> tensor<4xi16>
      %n, %r = stablehlo.rng_bit_generator %s, algorithm = THREE_FRY
          : (tensor<2xui64>) -> (tensor<2xui64>, tensor<4xbf16>)
      %m = stablehlo.maximum %r, %a : tensor<4xbf16>
      return %b, %m : tensor<4xi16>, tensor<4xbf16>
    }"""
    out, stats = rewrite(text, "hlo-element-type-converter")
    assert stats["hlo-element-type-converter"]["fixed-op"] == 2
    x, state = bf16(4), np.array([1, 2], np.uint64)
    bits, top = run_iree(out, x, state)
    twice = (x.astype(np.float32) * 2).astype(BF16)
    np.testing.assert_array_equal(bits, twice.view(np.int16))
    _, reference_top = run_iree(text, x, state)  # max is exact: the same bits either way
    np.testing.assert_array_equal(top.astype(np.float32), reference_top.astype(np.float32))


def test_converter_narrowing_f32_to_f16():
    """to-type may be narrower: the program then computes in f16 (numpy f16 reference; one
    op, as IREE and XLA CPU both skip the f16 rounding between fused element-wise ops)."""
    text = """func.func @main(%x: tensor<8xf32>) -> tensor<8xf32> {
      %m = stablehlo.multiply %x, %x : tensor<8xf32>
      return %m : tensor<8xf32>
    }"""
    out, _ = rewrite(text, "hlo-element-type-converter{from-type=f32 to-type=f16}")
    assert "f16" in element_types(out)
    x = RNG.standard_normal(8).astype(np.float32)
    h = x.astype(np.float16)
    assert_close(run_iree(out, x), (h * h).astype(np.float32), rtol=0, atol=0)


def test_converter_tuples_at_the_boundary():
    text = """func.func @main(%t: tuple<tensor<2xbf16>, tensor<2xi32>>)
        -> tuple<tensor<2xbf16>, tensor<2xi32>> {
      %x = stablehlo.get_tuple_element %t[0] : (tuple<tensor<2xbf16>, tensor<2xi32>>) -> tensor<2xbf16>
      %i = stablehlo.get_tuple_element %t[1] : (tuple<tensor<2xbf16>, tensor<2xi32>>) -> tensor<2xi32>
      %n = stablehlo.negate %x : tensor<2xbf16>
      %r = stablehlo.tuple %n, %i : tuple<tensor<2xbf16>, tensor<2xi32>>
      return %r : tuple<tensor<2xbf16>, tensor<2xi32>>
    }"""
    out, stats = rewrite(text, "hlo-element-type-converter")
    assert stats["hlo-element-type-converter"]["boundary-convert"] == 2
    assert "f32" in element_types(out)
    x, i = bf16(2), np.array([3, 4], np.int32)
    got = run_iree(out, (x, i))
    np.testing.assert_array_equal(got[0].astype(np.float32), -x.astype(np.float32))
    np.testing.assert_array_equal(got[1], i)


def test_converter_options_and_errors():
    cls = registry.get("hlo-element-type-converter")
    assert [o.name for o in cls.options()] == ["from-type", "to-type"]
    assert cls.from_options({"from-type": "f16", "to-type": "f64"}).to_type == "f64"
    text, stats = rewrite(CHAIN, "hlo-element-type-converter{from-type=bf16 to-type=bf16}")
    assert stats.get("hlo-element-type-converter", {}) == {} and text == parse(CHAIN).operation.get_asm()
    with pytest.raises(Exception, match="requires from-type to name a floating-point type"):
        rewrite(CHAIN, "hlo-element-type-converter{from-type=s32 to-type=f32}")
    with pytest.raises(Exception, match="requires to-type to name a floating-point type"):
        rewrite(CHAIN, "hlo-element-type-converter{from-type=bf16 to-type=nope}")


# --- bfloat16-normalization ----------------------------------------------------------------
DOT = """func.func @main(%a: tensor<4x64xbf16>, %b: tensor<64x4xbf16>) -> tensor<4x4xbf16> {
  %d = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0]
      : (tensor<4x64xbf16>, tensor<64x4xbf16>) -> tensor<4x4xbf16>
  return %d : tensor<4x4xbf16>
}"""


def test_normalization_dot_accumulates_in_f32():
    """A bf16 dot computes in f32 and rounds once: numpy's f32 dot rounded to bf16, within
    one bf16 rounding (accumulation order)."""
    a, b = bf16((4, 64), 1.0), bf16((64, 4), 1.0)
    expected = (a.astype(np.float32) @ b.astype(np.float32)).astype(BF16).astype(np.float32)
    text, stats = rewrite(DOT, "bfloat16-normalization")
    assert stats["bfloat16-normalization"] == {"dot_general": 1}
    got = run_iree(text, a, b).astype(np.float32)
    assert np.all(np.abs(got - expected) <= np.abs(expected) * 2.0 ** -7 + 1e-6)


def test_normalization_mixed_dot_rounds_once():
    """f32 operands and a bf16 result mix precisions: the dot computes in f32 and its result
    rounds once. IREE's own rounds the operands to bf16 first and is further off."""
    text = """func.func @main(%a: tensor<4x64xf32>, %b: tensor<64x4xf32>) -> tensor<4x4xbf16> {
      %d = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0]
          : (tensor<4x64xf32>, tensor<64x4xf32>) -> tensor<4x4xbf16>
      return %d : tensor<4x4xbf16>
    }"""
    out, stats = rewrite(text, "bfloat16-normalization{unsupported-ops=reduce}")
    assert stats["bfloat16-normalization"] == {"mixed-precision": 1}
    a, b = RNG.standard_normal((4, 64)).astype(np.float32), RNG.standard_normal((64, 4)).astype(np.float32)
    expected = (a @ b).astype(BF16).astype(np.float32)
    got = run_iree(out, a, b).astype(np.float32)
    assert np.all(np.abs(got - expected) <= np.abs(expected) * 2.0 ** -7 + 1e-6)
    assert np.abs(run_iree(text, a, b).astype(np.float32) - expected).max() > np.abs(got - expected).max()


def test_normalization_options():
    cls = registry.get("bfloat16-normalization")
    assert [o.name for o in cls.options()] == ["unsupported-ops", "mixed-precision"]
    text, stats = rewrite(DOT, "bfloat16-normalization{unsupported-ops=add+stablehlo.reduce}")
    assert stats.get("bfloat16-normalization", {}) == {} and "f32" not in element_types(text)
    with pytest.raises(Exception, match="requires unsupported-ops to name ops whose element types"):
        rewrite(DOT, "bfloat16-normalization{unsupported-ops=custom_call}")


# --- bfloat16-conversion-folding ----------------------------------------------------------
def test_folding_dot_and_convolution_same_numbers():
    """The folded dot and convolution read bf16 and give the f32 program's exact bits."""
    text = """func.func @main(%a: tensor<4x8xbf16>, %b: tensor<8x4xbf16>, %i: tensor<1x5x5x2xbf16>,
                          %k: tensor<2x2x2x3xbf16>) -> (tensor<4x4xf32>, tensor<1x4x4x3xf32>) {
      %x = stablehlo.convert %a : (tensor<4x8xbf16>) -> tensor<4x8xf32>
      %y = stablehlo.convert %b : (tensor<8x4xbf16>) -> tensor<8x4xf32>
      %d = stablehlo.dot_general %x, %y, contracting_dims = [1] x [0]
          : (tensor<4x8xf32>, tensor<8x4xf32>) -> tensor<4x4xf32>
      %ix = stablehlo.convert %i : (tensor<1x5x5x2xbf16>) -> tensor<1x5x5x2xf32>
      %kx = stablehlo.convert %k : (tensor<2x2x2x3xbf16>) -> tensor<2x2x2x3xf32>
      %c = stablehlo.convolution(%ix, %kx) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {}
          {batch_group_count = 1 : i64, feature_group_count = 1 : i64}
          : (tensor<1x5x5x2xf32>, tensor<2x2x2x3xf32>) -> tensor<1x4x4x3xf32>
      return %d, %c : tensor<4x4xf32>, tensor<1x4x4x3xf32>
    }"""
    out, stats = rewrite(text, "bfloat16-conversion-folding,dce")
    assert stats["bfloat16-conversion-folding"] == {"dot_general": 1, "convolution": 1}
    assert "stablehlo.convert" not in op_names(out)
    args = bf16((4, 8)), bf16((8, 4)), bf16((1, 5, 5, 2)), bf16((2, 2, 2, 3))
    before, after = run_iree(text, *args), run_iree(out, *args)
    for b, a in zip(before, after, strict=True):
        np.testing.assert_array_equal(a, b)
    f = [v.astype(np.float32) for v in args]
    assert_close(after[0], f[0] @ f[1], rtol=1e-5)
    conv = sum(f[2][:, di:di + 4, dj:dj + 4, :] @ f[3][di, dj] for di in range(2) for dj in range(2))
    assert_close(after[1], conv.astype(np.float32), rtol=1e-5)


def test_folding_compare_same_answers():
    """compare(convert(a), convert(b)) folds to compare(a, b): NaN, zeros and infinities included."""
    text = """func.func @main(%a: tensor<6xbf16>, %b: tensor<6xbf16>) -> (tensor<6xi1>, tensor<6xi1>) {
      %x = stablehlo.convert %a : (tensor<6xbf16>) -> tensor<6xf32>
      %y = stablehlo.convert %b : (tensor<6xbf16>) -> tensor<6xf32>
      %l = stablehlo.compare LT, %x, %y : (tensor<6xf32>, tensor<6xf32>) -> tensor<6xi1>
      %e = stablehlo.compare EQ, %x, %y : (tensor<6xf32>, tensor<6xf32>) -> tensor<6xi1>
      return %l, %e : tensor<6xi1>, tensor<6xi1>
    }"""
    out, stats = rewrite(text, "bfloat16-conversion-folding")
    assert stats["bfloat16-conversion-folding"] == {"compare": 2}
    a = np.array([1, np.nan, -0.0, np.inf, -3, 2.5], BF16)
    b = np.array([2, 1, 0.0, np.inf, -np.inf, 2.5], BF16)
    fa, fb = a.astype(np.float32), b.astype(np.float32)
    got = run_iree(out, a, b)
    np.testing.assert_array_equal(got[0], fa < fb)
    np.testing.assert_array_equal(got[1], fa == fb)


def test_folding_options():
    cls = registry.get("bfloat16-conversion-folding")
    assert [o.name for o in cls.options()] == ["low-type"]
    with pytest.raises(Exception, match="requires low-type narrower than f32"):
        rewrite(DOT, "bfloat16-conversion-folding{low-type=f64}")


# --- bfloat16-propagation --------------------------------------------------------------------
def test_propagation_same_numbers():
    """Data movement, select and max/min in bf16 give the bits of rounding the f32 result,
    NaN, signed zeros and values at rounding ties included."""
    text = """func.func @main(%x: tensor<2x4xf32>, %y: tensor<2x4xf32>, %p: tensor<4x2xi1>, %v: tensor<f32>)
        -> tensor<4x3xbf16> {
      %m = stablehlo.maximum %x, %y : tensor<2x4xf32>
      %n = stablehlo.minimum %m, %y : tensor<2x4xf32>
      %t = stablehlo.transpose %m, dims = [1, 0] : (tensor<2x4xf32>) -> tensor<4x2xf32>
      %u = stablehlo.transpose %n, dims = [1, 0] : (tensor<2x4xf32>) -> tensor<4x2xf32>
      %s = stablehlo.select %p, %t, %u : tensor<4x2xi1>, tensor<4x2xf32>
      %q = stablehlo.pad %s, %v, low = [0, 1], high = [0, 0], interior = [0, 0]
          : (tensor<4x2xf32>, tensor<f32>) -> tensor<4x3xf32>
      %r = stablehlo.convert %q : (tensor<4x3xf32>) -> tensor<4x3xbf16>
      return %r : tensor<4x3xbf16>
    }"""
    out, stats = rewrite(text, "bfloat16-propagation,dce")
    assert stats["bfloat16-propagation"] == {
        "maximum": 1, "minimum": 1, "transpose": 2, "select": 1, "pad": 1}
    module = parse(out)  # every op but the converts of the arguments computes in bf16
    assert not any(o.name != "stablehlo.convert" and "f32" in str(o.results[0].type)
                   for o in ops_where(module, lambda o: o.name.startswith("stablehlo.")))
    tie = 1 + 2.0 ** -8  # exactly between two bf16 values
    x = np.array([[tie, np.nan, -0.0, 3.0e38], [1.00390625, -2.5, 7.1, -1e-30]], np.float32)
    y = np.array([[1.0, 2.0, 0.0, -np.inf], [tie, -2.5000002, np.nan, 1e-30]], np.float32)
    p = RNG.random((4, 2)) < 0.5
    v = np.float32(1.0 + 2.0 ** -9)
    before, after = run_iree(text, x, y, p, v), run_iree(out, x, y, p, v)
    np.testing.assert_array_equal(after.view(np.uint16), before.view(np.uint16))
    m = np.maximum(x, y)  # numpy propagates NaN like StableHLO
    s = np.where(p, m.T, np.minimum(m, y).T)
    expected = np.concatenate([np.full((4, 1), v), s], axis=1).astype(BF16)
    np.testing.assert_array_equal(after.astype(np.float32), expected.astype(np.float32))


def test_propagation_leaves_arithmetic_and_f32_readers():
    text = """func.func @main(%x: tensor<4xf32>) -> (tensor<4xbf16>, tensor<4xbf16>, tensor<4xf32>) {
      %a = stablehlo.add %x, %x : tensor<4xf32>
      %c = stablehlo.convert %a : (tensor<4xf32>) -> tensor<4xbf16>
      %r = stablehlo.reverse %x, dims = [0] : tensor<4xf32>
      %d = stablehlo.convert %r : (tensor<4xf32>) -> tensor<4xbf16>
      return %c, %d, %r : tensor<4xbf16>, tensor<4xbf16>, tensor<4xf32>
    }"""
    out, stats = rewrite(text, "bfloat16-propagation")
    assert stats.get("bfloat16-propagation", {}) == {}
    assert out == parse(text).operation.get_asm()


# --- generated modules -------------------------------------------------------------------------
UNARY = ("negate", "abs", "tanh", "exponential")
BINARY = ("add", "subtract", "multiply", "maximum", "minimum")


def t4(t: str) -> str:
    return f"tensor<4x4x{t}>"


class _Program:
    """One generated module over 4x4 values, written twice: ``main``, every value bf16
    (bf16 arguments, results converted to f32), and ``reference``, the same program as the
    pass under test should compute it, written here independently of the pass:
    ``mode="f32"`` computes in f32 (arguments converted in; constants and bitcasts keep
    bf16 between converts), ``mode="normalized"`` computes only dot_general and reduce in
    f32, between converts."""

    def __init__(self, draw, mode: str):
        self.draw, self.wide = draw, mode == "f32"
        self.count = itertools.count()
        self.main: list[str] = []
        self.ref: list[str] = []
        self.renamed: dict[str, str] = {}  # main value -> its reference value, where they differ

    def fresh(self) -> str:
        return f"%v{next(self.count)}"

    def r(self, v: str) -> str:
        return self.renamed.get(v, v)

    @property
    def rt(self) -> str:
        return "f32" if self.wide else "bf16"

    def same(self, line) -> None:
        """``line(type, name)`` in bf16 for main and in the reference's type."""
        self.main.append(line("bf16", lambda v: v))
        self.ref.append(line(self.rt, self.r))

    def op(self, pool: list[str]) -> str:
        draw, v = self.draw, self.fresh()
        kind = draw(st.sampled_from(("unary", "binary", "binary", "transpose", "select", "dot",
                                     "reduce", "constant", "bitcast")))
        a, b = draw(st.sampled_from(pool)), draw(st.sampled_from(pool))
        if kind == "unary":
            f = draw(st.sampled_from(UNARY))
            self.same(lambda t, n: f"  {v} = stablehlo.{f} {n(a)} : {t4(t)}")
        elif kind == "binary":
            f = draw(st.sampled_from(BINARY))
            self.same(lambda t, n: f"  {v} = stablehlo.{f} {n(a)}, {n(b)} : {t4(t)}")
        elif kind == "transpose":
            self.same(lambda t, n: f"  {v} = stablehlo.transpose {n(a)}, dims = [1, 0]"
                                   f" : ({t4(t)}) -> {t4(t)}")
        elif kind == "select":
            self.same(lambda t, n: f"  {v} = stablehlo.select %p, {n(a)}, {n(b)} : tensor<4x4xi1>, {t4(t)}")
        elif kind == "constant":  # a constant keeps its type: the reference converts after it
            c, value = self.fresh(), draw(st.sampled_from(("0.5", "-3.0", "1.0e+01")))
            for lines in (self.main, self.ref):
                lines.append(f"  {c} = stablehlo.constant dense<{value}> : {t4('bf16')}")
            if self.wide:
                self.ref.append(f"  {c}w = stablehlo.convert {c} : ({t4('bf16')}) -> {t4('f32')}")
                self.renamed[c] = f"{c}w"
            self.same(lambda t, n: f"  {v} = stablehlo.add {n(c)}, {n(a)} : {t4(t)}")
        elif kind == "bitcast":  # fixed types: bf16 -> i16 -> bf16 (the reference narrows first)
            i = self.fresh()
            source = a
            if self.wide:
                source = f"{i}n"
                self.ref.append(f"  {source} = stablehlo.convert {self.r(a)} : ({t4('f32')}) -> {t4('bf16')}")
            self.main.append(f"  {i} = stablehlo.bitcast_convert {a} : ({t4('bf16')}) -> tensor<4x4xi16>")
            self.ref.append(f"  {i} = stablehlo.bitcast_convert {source} : ({t4('bf16')}) -> tensor<4x4xi16>")
            self.main.append(f"  {v} = stablehlo.bitcast_convert {i} : (tensor<4x4xi16>) -> {t4('bf16')}")
            self.ref.append(f"  {v}b = stablehlo.bitcast_convert {i} : (tensor<4x4xi16>) -> {t4('bf16')}")
            self.ref.append(f"  {v} = stablehlo.convert {v}b : ({t4('bf16')}) -> {t4(self.rt)}")
        elif kind == "dot":
            def dot(t, x, y, name=v):
                return (f"  {name} = stablehlo.dot_general {x}, {y}, contracting_dims = [1] x [0]"
                        f" : ({t4(t)}, {t4(t)}) -> {t4(t)}")
            self.main.append(dot("bf16", a, b))
            if self.wide:
                self.ref.append(dot("f32", self.r(a), self.r(b)))
            else:
                self.ref.append(f"  {v}a = stablehlo.convert {a} : ({t4('bf16')}) -> {t4('f32')}")
                self.ref.append(f"  {v}b = stablehlo.convert {b} : ({t4('bf16')}) -> {t4('f32')}")
                self.ref.append(dot("f32", f"{v}a", f"{v}b", f"{v}f"))
                self.ref.append(f"  {v} = stablehlo.convert {v}f : ({t4('f32')}) -> {t4('bf16')}")
        else:  # reduce over dimension 1, broadcast back
            z, s = self.fresh(), self.fresh()

            def reduce(t, x, init, name=s):
                return (f"  {name} = stablehlo.reduce({x} init: {init}) applies stablehlo.add across "
                        f"dimensions = [1] : ({t4(t)}, tensor<{t}>) -> tensor<4x{t}>")
            for lines in (self.main, self.ref):
                lines.append(f"  {z} = stablehlo.constant dense<0.0> : tensor<bf16>")
            self.ref.append(f"  {z}w = stablehlo.convert {z} : (tensor<bf16>) -> tensor<f32>")
            self.main.append(reduce("bf16", a, z))
            if self.wide:
                self.ref.append(reduce("f32", self.r(a), f"{z}w"))
            else:
                self.ref.append(f"  {s}a = stablehlo.convert {a} : ({t4('bf16')}) -> {t4('f32')}")
                self.ref.append(reduce("f32", f"{s}a", f"{z}w", f"{s}f"))
                self.ref.append(f"  {s} = stablehlo.convert {s}f : (tensor<4xf32>) -> tensor<4xbf16>")
            self.same(lambda t, n: f"  {v} = stablehlo.broadcast_in_dim {s}, dims = [0]"
                                   f" : (tensor<4x{t}>) -> {t4(t)}")
        return v

    def module(self) -> tuple[str, str]:
        pool = ["%x0", "%x1"]
        if self.wide:
            for v in pool:
                self.ref.append(f"  {v}w = stablehlo.convert {v} : ({t4('bf16')}) -> {t4('f32')}")
                self.renamed[v] = f"{v}w"
        for _ in range(self.draw(st.integers(1, 6))):
            pool.append(self.op(pool))
        outs = self.draw(st.lists(st.sampled_from(pool), min_size=1, max_size=3))
        main_out, ref_out = [], []
        for i, v in enumerate(outs):
            self.main.append(f"  %out{i} = stablehlo.convert {v} : ({t4('bf16')}) -> {t4('f32')}")
            main_out.append(f"%out{i}")
            if self.wide:
                ref_out.append(self.r(v))
            else:
                self.ref.append(f"  %out{i} = stablehlo.convert {v} : ({t4('bf16')}) -> {t4('f32')}")
                ref_out.append(f"%out{i}")
        results = ", ".join([t4("f32")] * len(outs))
        head = (f"func.func @main(%x0: {t4('bf16')}, %x1: {t4('bf16')}, %p: tensor<4x4xi1>)"
                f" -> ({results}) {{\n")

        def text(lines, returned):
            return head + "\n".join(lines) + f"\n  return {', '.join(returned)} : {results}\n}}\n"
        return text(self.main, main_out), text(self.ref, ref_out)


def programs(mode: str):
    return st.composite(lambda draw: _Program(draw, mode).module())()


@settings(max_examples=150, deadline=None)
@given(programs("f32"))
def test_generated_modules_converter_structure(texts):
    """The converter and normalization on generated modules: valid IR (run_pipeline
    verifies), the signature kept, a second run changes nothing, and after the converter
    only ops of fixed types (and their converts) make bf16."""
    main, reference = texts
    parse(reference)  # the reference is valid too
    for passes in ("hlo-element-type-converter", "bfloat16-normalization"):
        module = parse(main)
        run_pipeline(module, passes)
        assert not run_pipeline(module, passes).changed, module.operation.get_asm()
        func = ops_where(module, lambda o: o.name == "func.func")[0]
        original = parse(main)  # kept alive while its ops are read
        signature = original.body.operations[0].attributes["function_type"]
        assert str(func.attributes["function_type"]) == str(signature)
        if passes == "hlo-element-type-converter":
            makers = {o.name for o in ops_where(module, lambda o: any(
                "bf16" in str(r.type) for r in o.results))}
            assert makers <= {"stablehlo.convert", "stablehlo.constant", "stablehlo.bitcast_convert"}, makers


def outputs(text: str, args) -> list[np.ndarray]:
    out = run_iree(text, *args)
    return list(out) if isinstance(out, tuple) else [out]


def args_for(seed: int):
    rng = np.random.default_rng(seed)
    def value():
        return (rng.standard_normal((4, 4)) * 1.5).astype(BF16)
    return value(), value(), rng.random((4, 4)) < 0.5


def same_as_reference(main: str, reference: str, passes: str, seed: int) -> None:
    """``passes`` on ``main`` give the reference's numbers (f32 results, f32 tolerance)."""
    module = parse(main)
    run_pipeline(module, passes)
    args = args_for(seed)
    for i, (got, want) in enumerate(zip(outputs(module.operation.get_asm(), args), outputs(reference, args),
                                        strict=True)):
        diff = first_difference(want, got)
        assert diff is None, \
            f"{passes}: output {i} differs at {diff}\n{module.operation.get_asm()}\n{reference}"


@settings(max_examples=examples(12), deadline=None)
@given(programs("f32"), st.integers(0, 3))
def test_generated_modules_converter_numbers(texts, seed):
    """hlo-element-type-converter (and the removal) compute what the f32 reference does."""
    main, reference = texts
    same_as_reference(main, reference, "hlo-element-type-converter", seed)
    same_as_reference(main, reference, "bfloat16-mixed-precision-removal", seed)


@settings(max_examples=examples(12), deadline=None)
@given(programs("normalized"), st.integers(0, 3))
def test_generated_modules_normalization_numbers(texts, seed):
    """bfloat16-normalization computes what the reference with f32 dots and reduces does."""
    main, reference = texts
    same_as_reference(main, reference, "bfloat16-normalization", seed)


# Semantics-preserving passes: f32 programs over bf16 arguments, results converted to bf16.
MOVERS = ("transpose", "reverse", "select", "maximum", "minimum", "pad_slice", "concat_slice",
          "broadcast", "add", "dot")


class _F32Program:
    def __init__(self, draw):
        self.draw = draw
        self.names = itertools.count()
        self.lines = [f"  %{n}w = stablehlo.convert %{n} : (tensor<4x4xbf16>) -> tensor<4x4xf32>"
                      for n in "ab"]

    def fresh(self) -> str:
        return f"%v{next(self.names)}"

    def op(self, pool: list[str]) -> str:
        draw, v = self.draw, self.fresh()
        a, b = draw(st.sampled_from(pool)), draw(st.sampled_from(pool))
        f = "tensor<4x4xf32>"
        kind = draw(st.sampled_from(MOVERS))
        if kind == "transpose":
            self.lines.append(f"  {v} = stablehlo.transpose {a}, dims = [1, 0] : ({f}) -> {f}")
        elif kind == "reverse":
            self.lines.append(f"  {v} = stablehlo.reverse {a}, dims = [0] : {f}")
        elif kind == "select":
            self.lines.append(f"  {v} = stablehlo.select %p, {a}, {b} : tensor<4x4xi1>, {f}")
        elif kind in ("maximum", "minimum", "add"):
            self.lines.append(f"  {v} = stablehlo.{kind} {a}, {b} : {f}")
        elif kind == "pad_slice":
            s = self.fresh()
            self.lines.append(f"  {s} = stablehlo.slice {a} [1:4, 0:4] : ({f}) -> tensor<3x4xf32>")
            self.lines.append(f"  {v} = stablehlo.pad {s}, %half, low = [1, 0], high = [0, 0],"
                              " interior = [0, 0]"
                              f" : (tensor<3x4xf32>, tensor<f32>) -> {f}")
        elif kind == "concat_slice":
            s, t = self.fresh(), self.fresh()
            self.lines.append(f"  {s} = stablehlo.slice {a} [0:2, 0:4] : ({f}) -> tensor<2x4xf32>")
            self.lines.append(f"  {t} = stablehlo.slice {b} [2:4, 0:4] : ({f}) -> tensor<2x4xf32>")
            self.lines.append(f"  {v} = stablehlo.concatenate {t}, {s}, dim = 0 : (tensor<2x4xf32>, "
                              f"tensor<2x4xf32>) -> {f}")
        elif kind == "broadcast":
            s = self.fresh()
            self.lines.append(f"  {s} = stablehlo.slice {a} [0:1, 0:4] : ({f}) -> tensor<1x4xf32>")
            self.lines.append(f"  {v} = stablehlo.broadcast_in_dim {s}, dims = [0, 1]"
                              f" : (tensor<1x4xf32>) -> {f}")
        else:
            self.lines.append(f"  {v} = stablehlo.dot_general {a}, {b}, contracting_dims = [1] x [0]"
                              f" : ({f}, {f}) -> {f}")
        return v

    def module(self) -> str:
        pool = ["%aw", "%bw", "%x"]
        for _ in range(self.draw(st.integers(1, 7))):
            pool.append(self.op(pool))
        outs = self.draw(st.lists(st.sampled_from(pool[3:] or pool), min_size=1, max_size=3))
        types = []
        rets = []
        for i, v in enumerate(outs):
            if self.draw(st.integers(0, 3)):
                self.lines.append(f"  %out{i} = stablehlo.convert {v}"
                                  " : (tensor<4x4xf32>) -> tensor<4x4xbf16>")
                rets.append(f"%out{i}")
                types.append("tensor<4x4xbf16>")
            else:
                rets.append(v)
                types.append("tensor<4x4xf32>")
        return ("func.func @main(%a: tensor<4x4xbf16>, %b: tensor<4x4xbf16>, %x: tensor<4x4xf32>,"
                f" %p: tensor<4x4xi1>) -> ({', '.join(types)}) {{\n"
                "  %half = stablehlo.constant dense<0.5> : tensor<f32>\n" + "\n".join(self.lines)
                + f"\n  return {', '.join(rets)} : {', '.join(types)}\n}}\n")


def f32_programs():
    return st.composite(lambda draw: _F32Program(draw).module())()


SEMANTIC = "dce,bfloat16-conversion-folding,bfloat16-propagation,dce"


@settings(max_examples=200, deadline=None)
@given(f32_programs())
def test_generated_modules_folding_propagation_structure(text):
    """Folding and propagation: valid IR, a fixed point after one run of each."""
    module = parse(text)
    run_pipeline(module, SEMANTIC)
    assert not run_pipeline(module, "bfloat16-conversion-folding,bfloat16-propagation").changed, \
        module.operation.get_asm()


@settings(max_examples=examples(12), deadline=None)
@given(f32_programs(), st.integers(0, 3))
def test_generated_modules_folding_propagation_numbers(text, seed):
    """Folding and propagation under the semantics check: no difference."""
    module = parse(text)
    run_pipeline(module, SEMANTIC, semantics_checker=lambda m: SemanticsChecker(m, seed=seed))


def test_errors_are_invalid_argument_errors():
    with pytest.raises(InvalidArgumentError):
        registry.get("hlo-element-type-converter")(from_type="i8").run(parse(CHAIN))


# --- IREE defect found here (docs/iree-defects.md: "Pad of a computed 16-bit padding value") ---
PAD_OF_COMPUTED_VALUE = """func.func @main(%x: tensor<3xbf16>) -> tensor<4xbf16> {
  %c = stablehlo.constant dense<0.5> : tensor<f32>
  %n = stablehlo.negate %c : tensor<f32>
  %v = stablehlo.convert %n : (tensor<f32>) -> tensor<bf16>
  %p = stablehlo.pad %x, %v, low = [1], high = [0], interior = [0]
      : (tensor<3xbf16>, tensor<bf16>) -> tensor<4xbf16>
  return %p : tensor<4xbf16>
}"""


def test_pad_of_computed_bf16_padding_value_compiles():
    """Without our optimization passes (constant folding would fold the value) IREE failed
    to compile it ('failed to legalize operation util.initializer'); half-scalar-barrier
    fences the padding value. XLA's answer is [-0.5, x]."""
    x = np.array([1, 2, 3], BF16)
    got = run_iree(PAD_OF_COMPUTED_VALUE, x, passes="")
    np.testing.assert_array_equal(got.astype(np.float32), [-0.5, 1, 2, 3])
