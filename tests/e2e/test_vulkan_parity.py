"""Vulkan at parity with llvm-cpu (issue 12): the answers Mesa's llvmpipe got wrong, against XLA CPU.

Each module batches many cases (a Vulkan compile and run costs seconds). What each
``vulkan-legalize`` pass fixes (pipelines/presets.py VULKAN_LEGALIZE; docs/iree-defects.md):

- ``vulkan-inf-nan-arithmetic``: ``x - x``, ``x + (-x)``, ``x * 0``, ``0 / x`` of NaN/inf
  gave 0, ``0 - (+0)`` gave -0 (Mesa folds them: IREE declares no float controls);
- ``vulkan-float-rem``: ``fmod(5, inf)`` gave NaN, ``fmod(-0.0, 3)`` +0, f16 remainders 16-bit rounded;
- ``vulkan-signed-zero-min-max``: ``max(+0, -0)`` gave -0, ``min(-0, +0)`` +0;
- ``vulkan-log1p``: log1p was ``log(1 + x)`` (``log1p(3e-7)`` 19% off);
- ``vulkan-narrow-clz``, ``vulkan-bf16-from-integers``, ``vulkan-bf16-reduce``: compile failures;
- ``vulkan-f64-math``: f64 transcendentals fail with a CompileError naming each op.

Float results are compared bit for bit with XLA (strict: no algebraic simplifier), NaN
with NaN, and the sign of zero counted; log1p is compared in ULP with a float64 reference.
"""

from __future__ import annotations

import ml_dtypes
import numpy as np
import pytest

import hlo_mlir
from hlo_mlir import (
    Add,
    Clz,
    CompileError,
    ConstantLiteral,
    ConvertElementType,
    ConvGeneralDilated,
    Div,
    Iota,
    Log,
    Log1p,
    Max,
    Min,
    Mul,
    Neg,
    Parameter,
    PrimitiveType,
    Reduce,
    Rem,
    Shape,
    Sub,
    Tanh,
    Tuple,
    XlaBuilder,
)
from pipelines import registry
from pipelines.presets import VULKAN_LEGALIZE
from tests.e2e.test_convolution import conv_ref, data, shape_text
from tests.oracle import TARGETS, run_iree, run_xla

BF16 = ml_dtypes.bfloat16


def assert_same_floats(actual, expected, what: str) -> None:
    """Equal values with the same sign of zero; NaN where XLA has NaN (its sign is free)."""
    a = np.asarray(actual).astype(np.float64)
    e = np.asarray(expected).astype(np.float64)
    assert a.shape == e.shape, f"{what}: shape {a.shape}, XLA {e.shape}"
    nan = np.isnan(e)
    bad = (np.isnan(a) != nan) | (~nan & ((a != e) | (np.signbit(a) != np.signbit(e))))
    assert not bad.any(), f"{what}: got {a[bad]} where XLA gives {e[bad]} (at {np.flatnonzero(bad)})"


def _binary_module(type_name: str, dtype, n: int):
    """x, y -> every special-value form of the defects above, one output each."""
    b = XlaBuilder(f"specials_{type_name}")
    x = Parameter(b, 0, Shape.parse(f"{type_name}[{n}]"))
    y = Parameter(b, 1, Shape.parse(f"{type_name}[{n}]"))
    zero = ConstantLiteral(b, np.zeros(n, dtype))
    outs = {
        "x*y": Mul(x, y), "x-y": Sub(x, y), "x-x": Sub(x, x), "x+(-x)": Add(x, Neg(x)),
        "(-x)+x": Add(Neg(x), x), "x*0": Mul(x, zero), "0*x": Mul(zero, x), "0/x": Div(zero, x),
        "0-x": Sub(zero, x), "rem(x,y)": Rem(x, y), "max(x,y)": Max(x, y), "min(x,y)": Min(x, y),
    }
    return b.build(Tuple(b, list(outs.values()))), list(outs)


# Pairs of special values: NaN and inf against 0, each other, finite numbers and signed zeros.
_X = [np.nan, np.inf, -np.inf, np.nan, np.inf, 5.0, -5.0, -0.0, 0.0, 0.0, -0.0, 3.0, -3.0, 7.5, -7.5, 1.0]
_Y = [0.0, 0.0, -0.0, np.nan, np.inf, np.inf, -np.inf, 3.0, -0.0, 0.0, -0.0, 0.0, -0.0, 2.0, 2.0, np.nan]


@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize("type_name", ["f32", "f16"])
def test_special_value_arithmetic(target, type_name):
    """nan*0, inf-inf, x-x of NaN, 0/0, fmod(5, inf) = 5, fmod(-0, 3) = -0, max(+0, -0) = +0,
    min(-0, +0) = -0, 0 - (+0) = +0, -3 * 0 = -0: XLA's answers on every target."""
    dtype = np.float32 if type_name == "f32" else np.float16
    comp, names = _binary_module(type_name, dtype, len(_X))
    x, y = np.array(_X, dtype), np.array(_Y, dtype)
    expected = run_xla(comp, x, y, strict=True)
    got = run_iree(comp, x, y, target=target)
    for name, g, e in zip(names, got, expected, strict=True):
        assert_same_floats(g, e, f"{type_name} {name} on {target}")


@pytest.mark.vulkan
def test_special_values_fail_without_the_legalization():
    """The plain pipeline on Vulkan (legalize=False) still folds x - x of NaN to 0 and gives
    NaN for fmod(5, inf): the defects are IREE's and Mesa's, not gone."""
    b = XlaBuilder("plain")
    x = Parameter(b, 0, Shape.parse("f32[2]"))
    y = Parameter(b, 1, Shape.parse("f32[2]"))
    comp = b.build(Tuple(b, [Sub(x, x), Rem(x, y)]))
    args = np.array([np.nan, 5.0], np.float32), np.array([1.0, np.inf], np.float32)
    cancelled, rem = run_iree(comp, *args, target="vulkan-spirv", legalize=False)
    assert cancelled[0] == 0.0 and np.isnan(rem[1])
    cancelled, rem = run_iree(comp, *args, target="vulkan-spirv")
    assert np.isnan(cancelled[0]) and rem[1] == 5.0


def _rem_operands(rng, dtype, n: int) -> tuple[np.ndarray, np.ndarray]:
    """Dividends and divisors over the type's normal range (quotients up to 2^250 in f32),
    signed zeros, inf and NaN. No subnormal operand or result: XLA CPU flushes them to zero."""
    info = ml_dtypes.finfo(dtype)
    lo, hi = np.log2(float(info.smallest_normal)), np.log2(float(info.max))
    x = 2.0 ** rng.uniform(lo, hi, n) * rng.choice([-1, 1], n)
    y = 2.0 ** rng.uniform(lo + info.nmant + 1, hi, n) * rng.choice([-1, 1], n)  # results: k ulp(y)
    moderate = [rng.uniform(-100, 100, n), rng.uniform(0.01, 10, n) * rng.choice([-1, 1], n)]
    special = np.array([0.0, -0.0, np.inf, -np.inf, np.nan, 1.0, 3.0, float(info.max)])
    x = np.concatenate([[-9121.092], x, moderate[0], np.repeat(special, special.size)])
    y = np.concatenate([[0.051045936], y, moderate[1], np.tile(special, special.size)])
    return x.astype(dtype), y.astype(dtype)


@pytest.mark.parametrize("target", TARGETS)
def test_remainder_is_exact(target):
    """f32, f16 and bf16 remainder bit for bit as XLA (fmod is exact) over the whole range;
    the first case, fmod(-9121.092, 0.051045936) = -0.050885882, was -0 on Vulkan (its
    x - y * trunc(x / y) rounds away every digit)."""
    rng = np.random.default_rng(7)
    types = {"f32": np.float32, "f16": np.float16, "bf16": BF16}
    b = XlaBuilder("rem")
    outs, args = [], []
    for i, (name, dtype) in enumerate(types.items()):
        x, y = _rem_operands(rng, dtype, 1500)
        args += [x, y]
        outs.append(Rem(Parameter(b, 2 * i, Shape.parse(f"{name}[{x.size}]")),
                        Parameter(b, 2 * i + 1, Shape.parse(f"{name}[{x.size}]"))))
    comp = b.build(Tuple(b, outs))
    with np.errstate(invalid="ignore", over="ignore"):
        got = run_iree(comp, *args, target=target)
        expected = run_xla(comp, *args, strict=True)
    for name, g, e in zip(types, got, expected, strict=True):
        assert_same_floats(g, e, f"{name} remainder on {target}")


def _ulps(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """ULP distance between f32 arrays (NaN pairs count 0)."""
    both_nan = np.isnan(a) & np.isnan(b)
    ia = np.where(both_nan, 0, a).view(np.int32).astype(np.int64)
    ib = np.where(both_nan, 0, b).view(np.int32).astype(np.int64)
    ia = np.where(ia < 0, -(ia & 0x7FFFFFFF), ia)
    ib = np.where(ib < 0, -(ib & 0x7FFFFFFF), ib)
    return np.abs(ia - ib)


@pytest.mark.parametrize("target", TARGETS)
def test_log1p_accuracy(target):
    """f32 log1p within 2 ULP of the correctly rounded value (XLA CPU: 2 as well) over
    [-0.999, 5], tiny |x| down to 1e-30 and large x; f16 and bf16 equal to XLA's."""
    rng = np.random.default_rng(12)
    tiny = 10.0 ** rng.uniform(-30, 0, 2000) * rng.choice([-1, 1], 2000)
    x32 = np.concatenate([np.linspace(-0.999, 5, 6000), tiny, 10.0 ** rng.uniform(0, 38, 1000),
                          [0.0, -0.0, -1.0, -2.0, np.inf, np.nan]]).astype(np.float32)
    x16 = np.concatenate([np.linspace(-0.99, 3, 500), 10.0 ** rng.uniform(-7, 0, 300), [0, -0.0, 6e-8]])
    b = XlaBuilder("log1p")
    outs = [Log1p(Parameter(b, 0, Shape.parse(f"f32[{x32.size}]"))),
            Log1p(Parameter(b, 1, Shape.parse(f"f16[{x16.size}]"))),
            Log1p(Parameter(b, 2, Shape.parse(f"bf16[{x16.size}]")))]
    comp = b.build(Tuple(b, outs))
    args = [x32, x16.astype(np.float16), x16.astype(BF16)]
    got = run_iree(comp, *args, target=target)
    expected = run_xla(comp, *args, strict=True)
    with np.errstate(invalid="ignore", divide="ignore"):
        reference = np.log1p(x32.astype(np.float64)).astype(np.float32)
    ulps = _ulps(got[0], reference)
    assert ulps.max() <= 2, f"log1p({x32[ulps.argmax()]}) = {got[0][ulps.argmax()]}: {ulps.max()} ULP off"
    assert_same_floats(got[1], expected[1], f"f16 log1p on {target}")
    assert_same_floats(got[2], expected[2], f"bf16 log1p on {target}")


@pytest.mark.parametrize("target", TARGETS)
def test_narrow_clz_and_bf16_sources(target):
    """Clz of s8/u8/s16/u16, bf16 iota, int-to-bf16 converts (direct and through f32, rounding
    as XLA: via f32) and bf16 add/multiply reductions (XLA accumulates in f32) compile and
    match XLA."""
    b = XlaBuilder("narrow")
    ints = {"s8": np.int8, "u8": np.uint8, "s16": np.int16, "u16": np.uint16}
    values = [0, 1, 5, 100, -1, 127, -128, 3]
    args = [np.array(values).astype(dt) for dt in ints.values()]
    outs = [Clz(Parameter(b, i, Shape.parse(f"{t}[8]"))) for i, t in enumerate(ints)]
    big = Parameter(b, 4, Shape.parse("s32[6]"))
    args.append(np.array([0, 7, -300, 2**24 + 2**16 + 1, 2**24 + 3 * 2**16, 2**31 - 1], np.int32))
    outs += [Iota(b, Shape.parse("bf16[3,300]"), 1), ConvertElementType(big, PrimitiveType.BF16),
             ConvertElementType(ConvertElementType(big, PrimitiveType.F32), PrimitiveType.BF16)]
    s = XlaBuilder("add")
    add = s.build(Add(Parameter(s, 0, Shape.parse("bf16[]")), Parameter(s, 1, Shape.parse("bf16[]"))))
    m = XlaBuilder("mul")
    mul = m.build(Mul(Parameter(m, 0, Shape.parse("bf16[]")), Parameter(m, 1, Shape.parse("bf16[]"))))
    table = Parameter(b, 5, Shape.parse("bf16[8,300]"))
    args.append(np.random.default_rng(3).integers(-4, 5, (8, 300)).astype(BF16))
    outs += [Reduce(b, [table], [ConstantLiteral(b, np.array(0, BF16))], add, [1]),
             Reduce(b, [table], [ConstantLiteral(b, np.array(1, BF16))], mul, [0])]
    comp = b.build(Tuple(b, outs))
    got = run_iree(comp, *args, target=target)
    expected = run_xla(comp, *args, strict=True)
    for i, (g, e) in enumerate(zip(got, expected, strict=True)):
        assert g.dtype == e.dtype, f"output {i}: {g.dtype}, XLA {e.dtype}"
        assert_same_floats(g, e, f"output {i} on {target}")


@pytest.mark.parametrize("target", TARGETS)
def test_grouped_convolutions(target):
    """feature_group_count=2 with 3 input channels per group, batch_group_count=2, NHWC
    feature groups and lhs-dilated feature groups: one module, against numpy and XLA."""
    nhwc = ("NHWC", "HWIO", "NHWC")
    cases = [((2, 6, 5, 4), (4, 3, 2, 2), [(0, 0), (1, 1)], dict(fgc=2)),
             ((4, 3, 5, 4), (6, 3, 2, 2), [(0, 0), (0, 0)], dict(bgc=2)),
             ((2, 5, 4, 6), (2, 2, 3, 4), [(0, 0), (0, 0)], dict(fgc=2, specs=nhwc)),
             ((1, 4, 3, 3), (4, 2, 2, 2), [(1, 1), (1, 1)], dict(fgc=2, lhs_dilation=[2, 2]))]
    b = XlaBuilder("grouped")
    outs, args, expected = [], [], []
    for i, (lshape, rshape, padding, ref) in enumerate(cases):
        lhs = Parameter(b, 2 * i, Shape.parse(shape_text("f32", lshape)))
        rhs = Parameter(b, 2 * i + 1, Shape.parse(shape_text("f32", rshape)))
        outs.append(ConvGeneralDilated(lhs, rhs, [1, 1], padding, lhs_dilation=ref.get("lhs_dilation"),
                                       dimension_numbers=ref.get("specs"),
                                       feature_group_count=ref.get("fgc", 1),
                                       batch_group_count=ref.get("bgc", 1)))
        args += [data(np.float32, lshape, 2 * i), data(np.float32, rshape, 2 * i + 1)]
        expected.append(conv_ref(args[-2], args[-1], [1, 1], padding, **ref))
    comp = b.build(Tuple(b, outs))
    got = run_iree(comp, *args, target=target)
    xla = run_xla(comp, *args)
    for i, (g, x, e) in enumerate(zip(got, xla, expected, strict=True)):
        np.testing.assert_allclose(g, e, rtol=1e-5, atol=1e-5, err_msg=f"case {i} on {target}")
        np.testing.assert_allclose(x, e, rtol=1e-5, atol=1e-5, err_msg=f"XLA, case {i}")


def test_f64_transcendentals_fail_clearly_on_vulkan():
    """An f64 log or tanh on vulkan-spirv is a CompileError naming each op and its line,
    raised before IREE runs; f64 arithmetic is not reported, and llvm-cpu is unaffected."""
    b = XlaBuilder("f64_math")
    x = Parameter(b, 0, Shape.parse("f64[4]"))
    comp = b.build(Tuple(b, [Log(x), Tanh(Mul(x, x)), Add(x, x)]))
    with pytest.raises(CompileError) as e:
        hlo_mlir.compile(comp, target="vulkan-spirv")
    text = str(e.value)
    assert "the module cannot run on vulkan-spirv" in text
    assert "stablehlo.log requires f16 or f32 elements on vulkan-spirv; got tensor<4xf64>" in text
    assert "stablehlo.tanh requires f16 or f32 elements on vulkan-spirv; got tensor<4xf64>" in text
    assert "test_vulkan_parity.py:" in text and "add" not in text.split("got tensor")[-1]
    module = hlo_mlir.compiler.as_module(comp)
    hlo_mlir.compiler.prepare(module, "llvm-cpu")  # no vulkan-legalize: nothing raised


def test_vulkan_legalize_lists_every_vulkan_pass_and_runs_only_for_vulkan():
    """``vulkan-legalize`` holds exactly the passes marked for vulkan-spirv, once each, and
    ``prepare`` runs them for vulkan-spirv only (a float remainder stays one op on llvm-cpu)."""
    marked = {name for name, cls in registry.all_passes().items()
              if getattr(cls, "legalizes_for_target", None) == "vulkan-spirv"}
    assert sorted(VULKAN_LEGALIZE) == sorted(marked) and len(set(VULKAN_LEGALIZE)) == len(VULKAN_LEGALIZE)
    assert VULKAN_LEGALIZE[-1] == "vulkan-f64-math"
    b = XlaBuilder("rem")
    comp = b.build(Rem(Parameter(b, 0, Shape.parse("f32[4]")), Parameter(b, 1, Shape.parse("f32[4]"))))

    def ops_after(target):
        module = hlo_mlir.compiler.as_module(comp)
        hlo_mlir.compiler.prepare(module, target)
        return module.operation.get_asm().count("stablehlo.")

    assert ops_after("llvm-cpu") < ops_after("vulkan-spirv")
