"""The element-wise IREE legalizations (pred-arithmetic, complex-constant-parts,
c99-pow-atan2-cbrt, f64-log1p, complex-log, complex-division, unsigned-dot-zero-extension,
reverse-signless):
each gives XLA CPU's answer where the pinned IREE does not, and rewrites only what it must;
and the libm flags f64 transcendentals need."""

from __future__ import annotations

import numpy as np
import pytest

from dialect_ops import elementwise
from hlo_mlir import (
    Add,
    Atan2,
    Cbrt,
    Constant,
    Max,
    Min,
    Mul,
    Parameter,
    Pow,
    Shape,
    Sin,
    Tuple,
    XlaBuilder,
    compiler,
)
from hlo_mlir.types import dtype_of, from_dtype
from pipelines import registry
from pipelines.analyses.libm_flags import required_flags
from pipelines.pipeline import run_pipeline
from pipelines.presets import IREE_LEGALIZE
from tests import oracle

FLOATS = ["f16", "bf16", "f32", "f64"]
RTOL = {"f16": 2e-3, "bf16": 1.6e-2, "f32": 2e-6, "f64": 1e-14}
ELEMENTWISE = ("pred-arithmetic", "complex-constant-parts", "c99-pow-atan2-cbrt", "complex-log",
               "complex-pow", "complex-exp", "complex-sin-cos", "complex-expm1",
               "complex-abs", "complex-sqrt-sign", "f64-log1p", "complex-division",
               "trig-range-reduction",
               "unsigned-dot-zero-extension", "reverse-signless")


def _binary_module(name, op, dtype, x0, y0):
    b = XlaBuilder(name)
    x = Parameter(b, 0, Shape.from_numpy(x0))
    y = Parameter(b, 1, Shape.from_numpy(y0))
    return b.build(op(x, y))


def _assert_same_signs(got, expected):
    """Signed zeros and infinities match (the sign of a NaN means nothing)."""
    got, expected = got.astype(np.float64), expected.astype(np.float64)
    keep = ~np.isnan(expected)
    np.testing.assert_array_equal(np.signbit(got[keep]), np.signbit(expected[keep]))


def _legalized_text(comp) -> str:
    module = compiler.as_module(comp)
    run_pipeline(module, ",".join(ELEMENTWISE))
    return module.operation.get_asm()


@pytest.mark.parametrize("name", ELEMENTWISE)
def test_each_legalization_states_its_algebra_and_runs_last(name):
    """``expand``'s docstring states the rewrite (``add(p, q) -> or(p, q)``); they run in
    this order after the structural passes of iree-legalize (result-barrier last of them;
    materialize-shared-transcendentals keys on their ops)."""
    cls = registry.get(name)
    assert "->" in (cls.expand.__doc__ or ""), name
    tail = IREE_LEGALIZE[IREE_LEGALIZE.index("result-barrier") + 1:]
    assert [p for p in tail if p in ELEMENTWISE] == list(ELEMENTWISE)
    assert IREE_LEGALIZE.index("materialize-shared-transcendentals") < IREE_LEGALIZE.index(name)


def test_pred_add_and_mul_are_or_and():
    """add on PRED is OR (1 + 1 = true, not 0), multiply is AND."""
    p0 = np.array([False, False, True, True])
    q0 = np.array([False, True, False, True])
    b = XlaBuilder("pred_arith")
    p, q = Parameter(b, 0, Shape.from_numpy(p0)), Parameter(b, 1, Shape.from_numpy(q0))
    comp = b.build(Tuple(b, [Add(p, q), Mul(p, q)]))
    text = _legalized_text(comp)
    assert "stablehlo.or" in text and "stablehlo.and" in text and "stablehlo.add" not in text
    oracle.check(comp, [p0, q0], (p0 | q0, p0 & q0))


@pytest.mark.parametrize("dtype", FLOATS)
def test_pow_c99_special_cases(dtype):
    """Negative bases with integer exponents, 0^0, inf^0, (-0)^odd, (-inf)^inf, (-1)^inf, NaN."""
    inf, nan = np.inf, np.nan
    pairs = [(-2, 3), (-2, 2), (-0.5, -3), (-2, 0.5), (0, 0), (-0.0, 0), (inf, 0), (nan, 0), (1, nan),
             (-1, inf), (-1, -inf), (-0.0, 3), (-0.0, -3), (-0.0, -2), (0, -1), (-inf, inf), (-inf, 3),
             (-inf, -3), (-inf, 2), (inf, -2), (0.5, inf), (2, -inf), (nan, 1), (-8, 1 / 3), (3, 2.5)]
    dt = dtype_of(from_dtype(dtype))
    x0 = np.array([p[0] for p in pairs]).astype(dt)
    y0 = np.array([p[1] for p in pairs]).astype(dt)
    with np.errstate(all="ignore"):
        expected = np.power(x0.astype(np.float64), y0.astype(np.float64)).astype(dt)
    got = oracle.check(_binary_module("pow", Pow, dtype, x0, y0), [x0, y0], expected, rtol=RTOL[dtype],
                       atol=0)
    _assert_same_signs(got, expected)


@pytest.mark.parametrize("dtype", FLOATS)
def test_atan2_signed_zeros_and_infinities(dtype):
    inf, nan = np.inf, np.nan
    pairs = [(0, 0), (-0.0, 0), (0, -0.0), (-0.0, -0.0), (0, -1), (-0.0, -1), (-0.0, 2), (inf, inf),
             (-inf, inf), (inf, -inf), (-inf, -inf), (0, nan), (nan, 0), (1, 0), (-1, -0.0), (3, -4),
             (inf, 1), (1, -inf)]
    dt = dtype_of(from_dtype(dtype))
    y0 = np.array([p[0] for p in pairs]).astype(dt)
    x0 = np.array([p[1] for p in pairs]).astype(dt)
    expected = np.arctan2(y0.astype(np.float64), x0.astype(np.float64)).astype(dt)
    got = oracle.check(_binary_module("atan2", Atan2, dtype, y0, x0), [y0, x0], expected,
                       rtol=RTOL[dtype], atol=0)
    _assert_same_signs(got, expected)


@pytest.mark.parametrize("dtype", FLOATS)
def test_cbrt_infinities_and_accuracy(dtype):
    """IREE's cbrt gave NaN for +-inf, ~13 ULP in f32, and did not compile for f64."""
    dt = dtype_of(from_dtype(dtype))
    x0 = np.concatenate([[np.inf, -np.inf, 0.0, -0.0, np.nan, 27, -8, 1e-30, 3e30],
                         np.linspace(-50, 50, 41)]).astype(dt)
    b = XlaBuilder("cbrt")
    comp = b.build(Cbrt(Parameter(b, 0, Shape.from_numpy(x0))))
    expected = np.cbrt(x0.astype(np.float64)).astype(dt)
    oracle.check(comp, [x0], expected, rtol=RTOL[dtype], atol=0)


@pytest.mark.parametrize("values", [
    np.array([1 + 2j, np.inf - 1j, np.nan + 0j, -0.0 + 0.1j, 1e-310 - 3e300j]),
    np.full((2, 3), 0.1 - 0.2j, np.complex64),
    (np.arange(300) * (1.5 - 0.25j)).astype(np.complex64),  # printed as a hex blob
    np.complex128(-1j),
], ids=["text", "splat", "hex", "scalar"])
def test_complex_constant_values_are_kept(values):
    """complex constant -> complex(real constant, imag constant), bit for bit."""
    b = XlaBuilder("complex_constant")
    comp = b.build(Constant(b, values))
    text = _legalized_text(comp)
    assert "stablehlo.complex" in text and "complex<" in text
    got = np.asarray(oracle.run_iree(comp)).reshape(-1)
    part = np.float64 if got.dtype == np.complex128 else np.float32
    np.testing.assert_array_equal(got.view(part), np.asarray(values).reshape(-1).view(part))


def test_required_flags_for_f64_transcendentals():
    """f64 sin/cos/... and complex<f64> transcendentals need libm: link as a system library."""
    def flags(shape, op):
        b = XlaBuilder("flags")
        module = compiler.as_module(b.build(op(Parameter(b, 0, Shape.parse(shape)))))
        return required_flags(module, "llvm-cpu")
    libm = ["--iree-llvmcpu-link-embedded=false", "--iree-opt-const-eval=false"]
    assert flags("f64[2]", Sin) == libm
    assert flags("c128[2]", elementwise.Exp) == libm
    assert flags("f32[2]", Sin) == []
    assert flags("f64[2]", elementwise.Exp) == []  # IREE expands f64 exp itself
    b = XlaBuilder("vk")
    module = compiler.as_module(b.build(Sin(Parameter(b, 0, Shape.parse("f64[2]")))))
    assert required_flags(module, "vulkan-spirv") == []


def test_f64_and_c128_transcendentals_run():
    """sin/cos/tan/tanh/atan2/rem in f64 and exp/log/sqrt/pow in c128 compile and match."""
    x0 = np.array([0.5, -1.25, 3.0, 100.0])
    z0 = x0 + 1j * x0[::-1]
    b = XlaBuilder("f64_libm")
    x = Parameter(b, 0, Shape.from_numpy(x0))
    z = Parameter(b, 1, Shape.from_numpy(z0))
    e = elementwise
    outs = [e.Sin(x), e.Cos(x), e.Tan(x), e.Tanh(x), e.Atan2(x, x * 0.3), e.Rem(x, x * 0.3),
            e.Exp(z), e.Log(z), e.Sqrt(z), e.Pow(z, z * 0.1)]
    with np.errstate(all="ignore"):
        expected = (np.sin(x0), np.cos(x0), np.tan(x0), np.tanh(x0), np.arctan2(x0, x0 * 0.3),
                    np.fmod(x0, x0 * 0.3), np.exp(z0), np.log(z0), np.sqrt(z0), np.power(z0, z0 * 0.1))
    oracle.check(b.build(Tuple(b, outs)), [x0, z0], expected, rtol=1e-13, atol=1e-13)


def test_complex_max_min_follow_xla():
    """IREE and XLA CPU agree on complex max/min (no rewrite needed); checked against XLA."""
    x0 = np.array([1 + 5j, 2 + 0j, 1 + 1j, 1 + 2j, 3 + 0j, 3 + 1j], np.complex64)
    y0 = np.array([2 + 0j, 1 + 9j, 1 + 2j, 1 + 1j, 3 + 1j, 3 + 0j], np.complex64)
    b = XlaBuilder("complex_max_min")
    x, y = Parameter(b, 0, Shape.from_numpy(x0)), Parameter(b, 1, Shape.from_numpy(y0))
    comp = b.build(Tuple(b, [Max(x, y), Min(x, y)]))
    oracle.assert_close(oracle.run_iree(comp, x0, y0), oracle.run_xla(comp, x0, y0), 0, 0, "max/min vs XLA")


@pytest.mark.parametrize("dtype, exponent_bits, mantissa_bits",
                         [("f32", 5, 10), ("f64", 8, 7), ("f32", 2, 1)])
def test_reduce_precision_overflow_is_inf(dtype, exponent_bits, mantissa_bits):
    """Values beyond the reduced range become +-inf (not NaN), as in XLA."""
    from hlo_mlir import ReducePrecision

    dt = dtype_of(from_dtype(dtype))
    x0 = np.array([1e5, -1e5, 65504, 65520, 1e30, -np.inf, np.nan, 1.0, 3.9]).astype(dt)
    b = XlaBuilder("reduce_precision")
    comp = b.build(ReducePrecision(Parameter(b, 0, Shape.from_numpy(x0)), exponent_bits, mantissa_bits))
    ours, theirs = oracle.run_iree(comp, x0), oracle.run_xla(comp, x0)
    oracle.assert_close(ours, theirs, 0, 0, "reduce_precision vs XLA")
    assert not np.isnan(ours[np.isfinite(x0)]).any()


def test_quantized_tensors_are_left_alone():
    """Every row's op on ``!quant.uniform`` tensors (the unsigned-dot predicate raised
    "has no XLA primitive type"): nothing is rewritten, nothing raises."""
    q8 = "tensor<2x2x!quant.uniform<ui8:f32, 0.5:0>>"
    q32 = "tensor<2x2x!quant.uniform<i32:f32, 0.25:0>>"
    text = f"""func.func @main(%x: tensor<2x2xf32>) -> ({q8}, {q8}, {q32}, {q8}) {{
  %q = stablehlo.uniform_quantize %x : (tensor<2x2xf32>) -> {q8}
  %a = stablehlo.add %q, %q : {q8}
  %m = stablehlo.multiply %q, %q : {q8}
  %d = stablehlo.dot_general %q, %q, contracting_dims = [1] x [0] : ({q8}, {q8}) -> {q32}
  %r = stablehlo.reverse %q, dims = [] : {q8}
  return %a, %m, %d, %r : {q8}, {q8}, {q32}, {q8}
}}"""
    module = compiler.as_module(text)
    before = module.operation.get_asm()
    assert run_pipeline(module, ",".join(ELEMENTWISE)).statistics() == {}
    assert module.operation.get_asm() == before
    assert required_flags(module, "llvm-cpu") == []
