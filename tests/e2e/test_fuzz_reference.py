"""The fuzzer's reference and comparison where XLA CPU's answer and ours differ for a reason
that is not a defect of hlo-mlir (issue 9; fuzzer seeds 20261125 and 20261126):

- XLA CPU's f32 convolution is wrong with a negative low padding (docs/iree-defects.md,
  'XLA CPU: convolution with a negative low padding'): the reference runs without
  ``convolution-canonicalization`` (``runner.XLA_DISABLED``);
- XLA CPU evaluates a TOTALORDER compare of two compile-time NaNs as unordered (NaN EQ NaN
  false, NE true; seed 20261127 programs 8 and 151), where the spec and XLA's own run-time
  code order them: the fuzzer asks XLA again with every constant behind an optimization
  barrier (``oracle.run_xla(..., opaque_constants=True)``);
- a float sum's order is implementation-defined: reordering ``3.4e38 - 3.4e38 - 1.26``
  gives 0 or -1.26, and a product that holds 3.4e38 may overflow in one order and not in
  another; a remainder by an inexact divisor, and tan of a reordered sum, carry the error
  of the divisor (sum) times ``x / y`` (``1 + tan^2``): ``Leaf.floor``, ``Leaf.overflow``
  and ``Leaf.tan`` (docs/fuzzing.md);
- sin, cos and tan of a float Dot or convolution carry its accumulation error, bounded by
  its sums of |terms| (``Val.terms``; seed 20261127 program 450: a bf16 convolution of
  395.24 is 396 on XLA and 394 here);
- a complex product's order decides the parts of a non-finite value: C's product spreads an
  infinite part to the other (``(3.3e38 + inf j)(1 + 0j)`` is ``NaN + inf j``), and XLA skips a
  window's padding where the spec (and IREE) multiplies it in (seed 20261127 program 2077).
"""

from __future__ import annotations

import ml_dtypes
import numpy as np
import pytest

import hlo_mlir
from hlo_mlir import (
    Add,
    Compare,
    ConstantR0,
    ConstantR1,
    ConvGeneralDilated,
    ConvolutionDimensionNumbers,
    Mul,
    Parameter,
    ReduceWindowWithGeneralPadding,
    Shape,
    Tuple,
    XlaBuilder,
)
from hlo_mlir.runtime import load
from tests import oracle
from tests.fuzz import compare, generator, runner


def _negative_low_padding_conv():
    """Seed 20261126 program 5435, shrunk: lhs [s0, b, s1, f], kernel [o, i, s0, s1],
    padding (0, -1) and (-1, 1)."""
    b = XlaBuilder("conv_negative_low_padding")
    x = Parameter(b, 0, Shape.parse("f32[3,2,5,2]"), "x")
    w = Parameter(b, 1, Shape.parse("f32[2,2,2,3]"), "w")
    dn = ConvolutionDimensionNumbers(input_batch_dimension=1, input_feature_dimension=3,
                                     input_spatial_dimensions=(0, 2), kernel_input_feature_dimension=1,
                                     kernel_output_feature_dimension=0, kernel_spatial_dimensions=(2, 3),
                                     output_batch_dimension=0, output_feature_dimension=1,
                                     output_spatial_dimensions=(2, 3))
    return b.build(ConvGeneralDilated(x, w, [1, 1], [(0, -1), (-1, 1)], [1, 1], [1, 1], dn, 1, 1))


def _numpy_conv(x: np.ndarray, w: np.ndarray) -> np.ndarray:
    """The convolution above in float64: pad (crop) explicitly, then a valid window sum."""
    lhs = x.astype(np.float64).transpose(1, 3, 0, 2)[:, :, 0:2, 1:]  # [b, f, s0, s1], low/high crops
    lhs = np.concatenate([lhs, np.zeros(lhs.shape[:3] + (1,))], axis=3)  # s1 high padding 1
    out = np.zeros((2, 2, 1, 3))
    for j in range(3):
        out[:, :, 0, j] = np.einsum("bfst,ofst->bo", lhs[:, :, 0:2, j:j + 3], w.astype(np.float64))
    return out


def test_xla_reference_convolution_with_negative_low_padding():
    rng = np.random.default_rng(5435)
    x = rng.normal(0, 1, (3, 2, 5, 2)).astype(np.float32)
    w = (rng.normal(0, 1, (2, 2, 2, 3)) * 100).astype(np.float32)
    comp, want = _negative_low_padding_conv(), _numpy_conv(x, w).astype(np.float32)
    oracle.assert_close(oracle.run_iree(comp, x, w), want, 1e-5, 1e-3, "hlo-mlir vs numpy")
    reference = oracle.run_xla(comp, x, w, strict=True, disable=runner.XLA_DISABLED)
    oracle.assert_close(reference, want, 1e-5, 1e-3, "the fuzzer's XLA reference vs numpy")


def _leaf(seed: int, index: int, result: int) -> generator.Leaf:
    return generator.generate(seed, index).leaves[result]


# (seed, program, result, XLA's value, ours): each a legitimate difference the leaf accounts for
CASES = {
    "cancelling sum": (20261125, 1765, 3, np.float32(-1.2554507), np.float32(0.0)),
    "overflowing product": (20261126, 8024, 2, np.float32(1.7625452e24), np.float32(np.inf)),
    "remainder by erf": (20261126, 2473, 0, -0.7542538947569776, -0.7542538947569373),
    "tan of a sum": (20261125, 2131, 0, 1.8167087458985829, 1.8167087458993165),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_order_and_divisor_errors_are_judged_by_their_condition(case):
    """The generator marks the leaf (Reduce of drawn data, Rem by an inexact divisor, Tan of
    such a sum); with the mark the difference is none, without it (or with another value
    far off) it is one."""
    seed, index, result, xla, ours = CASES[case]
    leaf = _leaf(seed, index, result)
    assert leaf.floor or leaf.overflow, leaf
    e, a = np.array([xla]), np.array([ours])
    assert compare.compare([e], [a], [leaf]) == []
    plain = generator.Leaf(leaf.dtype, leaf.exact, leaf.err, leaf.eps, leaf.reassoc)
    assert compare.compare([e], [a], [plain])
    if np.isfinite(ours) and not leaf.overflow:  # the floor is a bound, not a blank cheque
        assert compare.compare([e], [np.array([xla + 1e-6 * leaf.floor * (1 + xla ** 2)])], [leaf])


def test_a_product_without_huge_factors_may_not_overflow():
    """A product reduction of drawn data whose factors past 1 multiply to a finite value is
    not marked: one side's inf against a finite value stays a difference."""
    b = generator.Generator(1, 1)
    x = generator.Val("x", Shape.parse("f32[2,3]"))
    x.data = np.float32([[2.0, 0.5, -3.0], [1e3, 1e-3, 4.0]])
    v = generator.Val("v", Shape.parse("f32[]"))
    b._order_bounds(v, x, "Mul", [0, 1])
    assert not v.overflow and v.floor == 0.0
    b._order_bounds(v, x, "Add", [0, 1])
    assert v.floor == pytest.approx(1009.501) and not v.overflow
    x.data = np.float32([[3.4e38, 0.5, -3.0], [1e3, 1e-3, 4.0]])
    b._order_bounds(v, x, "Mul", [0, 1])
    assert v.overflow


def _padded_complex_product():
    """Seed 20261127 program 2077, shrunk: a c64 product over windows [2, 1, 2] with one
    padding element (the init, 1 + 0j) on the last dimension."""
    mb = XlaBuilder("mul")
    scalar = Shape.parse("c64[]")
    mul = mb.build(Mul(Parameter(mb, 0, scalar, "a"), Parameter(mb, 1, scalar, "b")))
    b = XlaBuilder("padded_complex_product")
    x = Parameter(b, 0, Shape.parse("c64[2,1,1]"), "x")
    return b.build(ReduceWindowWithGeneralPadding(x, ConstantR0(b, np.complex64(1)), mul, [2, 1, 2],
                                                  [2, 1, 1], [1, 1, 1], [1, 1, 1], [(0, 0), (0, 0), (0, 1)]))


def test_a_non_finite_complex_product_is_judged_as_a_whole():
    """The window holds x0, 1, x1, 1 (padding) in the spec's order, reduced by an
    implementation-defined tree: ((x0 * 1) * x1) * 1 is NaN + inf j (numpy's C product; IREE),
    (x0 * 1) * (x1 * 1) is 3.3e38 + inf j (XLA, which skips padding). Both are the spec's; the
    comparison accepts either for a reordered complex leaf, and no other difference."""
    xs = np.complex64([[[0.97257549 + 7.1234946j]], [[3.4028235e38 - 8.6407051j]]])
    one = np.complex64(1)
    with np.errstate(invalid="ignore", over="ignore"):
        x0, x1 = xs[0, 0, 0], xs[1, 0, 0]
        sequential, pairs = ((x0 * one) * x1) * one, (x0 * one) * (x1 * one)
    assert np.isnan(sequential.real) and np.isinf(sequential.imag) and np.isfinite(pairs.real)
    comp = _padded_complex_product()
    ours = oracle.run_iree(comp, xs)
    reference = oracle.run_xla(comp, xs, strict=True, disable=runner.XLA_DISABLED)
    assert np.isinf(ours[0, 0, 0].imag) and np.isinf(reference[0, 0, 0].imag)
    leaf = _leaf(20261127, 2077, 0)
    assert leaf.dtype == "c64" and leaf.reassoc and not leaf.exact, leaf
    for e, a in ((pairs, sequential), (np.complex64(-8.297998e37 - np.inf * 1j), np.complex64(np.nan))):
        assert compare.compare([np.array([e])], [np.array([a])], [leaf]) == []
        plain = generator.Leaf(leaf.dtype, leaf.exact, leaf.err, leaf.eps, False)
        assert compare.compare([np.array([e])], [np.array([a])], [plain])
    # a finite value against a non-finite one, and finite parts, are still compared
    assert compare.compare([np.array([pairs])], [np.array([np.complex64(3.3e38 + 1e38j)])], [leaf])
    assert compare.compare([np.array([np.complex64(1 + 2j)])], [np.array([np.complex64(1 + 3j)])], [leaf])


def test_cos_of_a_contraction_is_judged_by_its_accumulation_error():
    """Seed 20261127 program 450: Cos of a bf16 convolution whose values reach the hundreds.
    The convolution is 395.24 exactly, 396 on XLA (summed in f32, rounded once) and 394 here
    (both within bf16's accumulation error, sum|terms| = 396.6), whose cosines are 0.99 and
    -0.27: the generator bounds the convolution's sums of |terms| (``Val.terms``) and Cos keeps
    it as its floor. In f32 the same bound stays tight."""
    leaf = _leaf(20261127, 450, 1)
    assert leaf.dtype == "bf16" and leaf.floor >= 396.6, leaf
    e = np.array([0.98828125], ml_dtypes.bfloat16)
    a = np.array([-0.267578125], ml_dtypes.bfloat16)
    assert compare.compare([e], [a], [leaf]) == []
    plain = generator.Leaf(leaf.dtype, leaf.exact, leaf.err, leaf.eps, leaf.reassoc)
    assert compare.compare([e], [a], [plain])
    g = generator.Generator(1, 1)
    lhs, rhs = generator.Val("l", Shape.parse("f32[2]")), generator.Val("r", Shape.parse("f32[2]"))
    lhs.mag, rhs.mag = 3.0, 4.0
    v = generator.Val("v", Shape.parse("f32[]"), exact=False)
    g._contraction_bound(v, lhs, rhs, 2)
    assert v.terms == 24.0
    exact = generator.Val("w", Shape.parse("s32[]"))
    g._contraction_bound(exact, lhs, rhs, 2)
    assert exact.terms == 0.0
    cos = generator.Leaf("f32", False, 5, 0.0, True, floor=v.terms)  # Cos(Dot): 3 + 2 steps
    x = np.float32([0.5])
    assert compare.compare([x], [x + np.float32(1e-4)], [cos]) == []
    assert compare.compare([x], [x + np.float32(1e-3)], [cos])

def _totalorder_of_constants(direction: str):
    """Seed 20261127 program 8, shrunk: a TOTALORDER compare of a NaN constant with itself
    (and of a value the same constants compute, which XLA also evaluates at compile time)."""
    b = XlaBuilder("totalorder_constants")
    values = np.float32([np.nan, -np.nan, -0.0, 0.0, np.inf, 1.0])
    c = ConstantR1(b, values)
    same = Compare(c, c, direction=direction, compare_type="TOTALORDER")
    derived = Compare(c, Add(c, ConstantR0(b, np.float32(-0.0))), direction=direction,
                      compare_type="TOTALORDER")
    return b.build(Tuple(b, [same, derived]))


@pytest.mark.parametrize("direction,expected", [("EQ", True), ("NE", False), ("LE", True), ("GE", True)])
def test_xla_reference_totalorder_of_constant_nans(direction, expected):
    comp = _totalorder_of_constants(direction)
    ours = load(hlo_mlir.compile(comp)).main()
    for result in ours:  # the spec: totalOrder orders every value, each NaN equal to itself
        np.testing.assert_array_equal(result, np.full(6, expected))
    folded = oracle.run_xla(comp, strict=True, disable=runner.XLA_DISABLED)
    assert [list(r[:2]) for r in folded] == [[not expected] * 2] * 2  # jaxlib 0.10.2's defect
    run_time = oracle.run_xla(comp, strict=True, disable=runner.XLA_DISABLED, opaque_constants=True)
    for ours_result, reference in zip(ours, run_time, strict=True):
        np.testing.assert_array_equal(ours_result, reference)



# Seed 20261127 program 5470: Tan(Pow(c, p)) with c a constant f32[1,1,5], p a parameter f32[3,2,5]
_POW_BASES = np.array([-1.8031870126724243, 0.34730038046836853, 0.17187100648880005,
                       -0.4562309682369232, 0.4954790771007538], np.float32)


def _pow_then_tan():
    b = XlaBuilder("pow_then_tan")
    p = Parameter(b, 0, Shape.parse("f32[3,2,5]"), "p")
    base = hlo_mlir.Constant(b, _POW_BASES.reshape(1, 1, 5))
    return b.build(hlo_mlir.Tan(hlo_mlir.Pow(base, p)))


def test_tan_of_a_pow_is_judged_by_the_pows_magnitude():
    """``0.171871^-6.900317`` is 189384.53; XLA rounds it correctly, IREE's f32 pow
    (``exp(y log x)``) is 2.9 ulp off, within the 48 ulp the comparison allows a Pow, and one ulp
    of 189384 (1/64) moves its tan by 0.016: tan is -0.099 on XLA, -0.057 here. The generator
    bounds the Pow's magnitude from its drawn operands (``generator._pow_magnitude``) and Tan
    takes it as floor, times ``1 + tan^2``."""
    import mpmath

    p = np.full((3, 2, 5), -6.900317, np.float32)  # the finding's p[0, 1, 2]
    exact = float(mpmath.power(mpmath.mpf(float(_POW_BASES[2])), mpmath.mpf(float(p[0, 1, 2]))))
    comp = _pow_then_tan()
    ours = oracle.run_iree(comp, p)[0, 0, 2]
    theirs = oracle.run_xla(comp, p, strict=True, disable=runner.XLA_DISABLED)[0, 0, 2]
    ulp = float(np.spacing(np.float32(exact)))
    for value in (ours, theirs):  # each side's tan reads a pow within a few ulp of the exact one
        argument = float(mpmath.atan(float(value))) % float(mpmath.pi)
        off = min(abs(argument - exact % float(mpmath.pi) + k * float(mpmath.pi)) for k in (-1, 0, 1))
        assert off <= 8 * ulp, (value, off / ulp)
    leaf = _leaf(20261127, 5470, 2)
    assert leaf.tan and leaf.floor == pytest.approx(exact, rel=1e-6), leaf
    e = np.float32([-0.09900797, 3.3845952, 2.7696416])
    a = np.float32([-0.057143535, 3.3891618, 2.8231871])  # the finding's values
    assert compare.compare([e], [a], [leaf]) == []
    plain = generator.Leaf(leaf.dtype, leaf.exact, leaf.err, leaf.eps, leaf.reassoc)
    assert compare.compare([e], [a], [plain])
    assert compare.compare([e], [e + np.float32(100.0)], [leaf])  # the floor is a bound
    lhs, rhs = generator.Val("c", Shape.parse("f32[5]")), generator.Val("p", Shape.parse("f32[2,5]"))
    lhs.data, rhs.data = _POW_BASES, np.float32([[1.0, 2.0, -6.900317, 0.5, 3.0], [0.0, 1.0, 1.0, 1.0, 40.0]])
    assert generator._pow_magnitude(lhs, rhs, [1]) == pytest.approx(exact, rel=1e-6)  # 0.4955^40 is small
    rhs.data = None
    assert generator._pow_magnitude(lhs, rhs, [1]) is None


def _pow_in_loop(trips: int):
    """Seed 20261127 program 7674, shrunk: ``x = Pow(x, c)`` for s32 ``x`` ``trips`` times."""
    b = XlaBuilder("pow_in_loop")
    x = Parameter(b, 0, Shape.parse("s32[4]"), "x")
    state = Shape.parse("(s32[], s32[4])")
    cb = XlaBuilder("cond")
    cp = Parameter(cb, 0, state, "p")
    cond = cb.build(hlo_mlir.Lt(hlo_mlir.GetTupleElement(cp, 0), ConstantR0(cb, np.int32(trips))))
    bb = XlaBuilder("body")
    bp = Parameter(bb, 0, state, "p")
    power = hlo_mlir.Pow(hlo_mlir.GetTupleElement(bp, 1), ConstantR1(bb, np.int32([-3, -2, -3, 3])))
    body = bb.build(Tuple(bb, [Add(hlo_mlir.GetTupleElement(bp, 0), ConstantR0(bb, np.int32(1))), power]))
    loop = hlo_mlir.While(cond, body, Tuple(b, [ConstantR0(b, np.int32(0)), x]))
    return b.build(hlo_mlir.GetTupleElement(loop, 1))


def test_xla_reference_integer_pow_of_minus_one_in_a_loop():
    """XLA CPU computes s32 ``pow(-1, -3)`` as -1 in the entry (the spec: a base of +-1 keeps
    its magnitude for a negative exponent; ours) and as 0 inside a while body of two trips or
    more (its rule there: 1 for a base of 1, else 0; also ``pow(1, -2)`` of a base that was -1),
    so the generator keeps -1 from signed integer ``Pow`` bases in nested computations."""
    x = np.int32([-1, -1, 1, -1])
    spec = np.int32([-1, 1, 1, -1])  # (-1)^-3, then (-1)^-3 again; (-1)^-2 = 1, 1^-2 = 1; ...
    for trips in (1, 2, 4):
        comp = _pow_in_loop(trips)
        np.testing.assert_array_equal(oracle.run_iree(comp, x), spec)
        xla = oracle.run_xla(comp, x, strict=True, disable=runner.XLA_DISABLED)
        np.testing.assert_array_equal(xla, spec if trips == 1 else np.int32([0, 0, 1, -1]))  # jaxlib 0.10.2
    program = generator.generate(20261127, 7674)
    assert "Select(" in program.source() and "Pow(" in program.source()
    guarded = [line for line in program.code if "Pow(" in line]
    assert guarded and all("Select" not in line for line in guarded)  # the base is a Select's name
    pow_bases = {line.split("Pow(")[1].split(",")[0] for line in guarded}
    assert all(any(line.startswith(f"{base} = Select(") for line in program.code) for base in pow_bases)


def test_an_ill_conditioned_pow_is_judged_by_its_condition():
    """Seed 20261127 program 8077: bf16 ``Map(Pow(Tanh(x), -3.39e38))``. tanh(-4.59375) is
    -0.99979, -1.0 in bf16: XLA's pow reads -1.0 and gives 1, ours reads the f32 tanh (excess
    precision, which both compilers may keep between bf16 ops) and gives inf. With an exponent
    that large any error of the base decides between 0, 1 and inf: the leaf is ``ill`` (its
    condition ``|y| * dx/x`` reaches 1) and only NaN places count; a well-conditioned pow of
    the same inexact base is compared as before."""
    import mpmath

    assert float(mpmath.tanh(-4.59375)) == pytest.approx(-0.9997954)
    leaf = _leaf(20261127, 8077, 3)
    assert leaf.ill and leaf.dtype == "bf16", leaf
    bf16 = ml_dtypes.bfloat16
    e, a = np.array([1.0, np.inf, np.nan], bf16), np.array([np.inf, np.inf, np.nan], bf16)
    assert compare.compare([e], [a], [leaf]) == []
    assert compare.compare([e], [np.array([1.0, np.inf, 1.0], bf16)], [leaf])  # NaN places count
    plain = generator.Leaf(leaf.dtype, leaf.exact, leaf.err, leaf.eps, leaf.reassoc)
    assert compare.compare([e], [a], [plain])
    base = generator.Val("t", Shape.parse("bf16[2,2]"), exact=False, err=2)
    for exponent, ill in ((-3.3895314e38, True), (2.0, False), (-1.5, False)):
        y = generator.Val("c", Shape.parse("bf16[]"))
        y.data = np.array(exponent, bf16)
        assert generator._pow_ill_conditioned(base, y) is ill
    y.data = None  # a computed exponent: not known, not marked
    assert not generator._pow_ill_conditioned(base, y)


class _Pipe:
    """The worker's connection to the coordinator: what it sends is dropped."""

    def send(self, message) -> None:
        pass


@pytest.mark.parametrize("error,outcome", [("clean", "xla-rejected"), ("python", "traceback")])
def test_our_error_on_a_program_xla_refuses_is_judged_alone(monkeypatch, error, outcome):
    """Seed 20261127 program 4722: XLA refuses a ``Map`` of f16 and bf16 into f32 ("mixed
    precision is disallowed"; the spec allows it), and IREE failed on ours at 593fba3 ("maximum
    iteration count exceeded in fixed point pipeline", a clean CompileError). The fuzzer compiled
    ours inside the handler of XLA's exception, so the CompileError carried it as context and
    ``classify_exception`` called it a traceback. A clean error on a program XLA refuses is no
    finding (the program may be invalid); an exception of ours still is."""
    def failing_compile(*args, **kwargs):
        if error == "clean":
            raise hlo_mlir.CompileError("IREE failed to compile the module.", "llvm-cpu", [],
                                        ["error: maximum iteration count exceeded in fixed point pipeline"])
        raise ValueError("max() arg is an empty sequence")

    monkeypatch.setattr(hlo_mlir, "compile", failing_compile)
    worker = runner._Worker(_Pipe(), runner.Config(seed=20261127))
    _, expected, _, result = worker.front(4722)
    assert expected is None and result.outcome == outcome, result.message
    assert "mixed precision is disallowed" in result.message


def test_a_moved_sum_keeps_its_order_scale():
    """Seed 20261127 program 9911: ``Sin(DynamicUpdateSlice(sum, Transpose(sum), []))`` of a
    3-term f32 sum near -860.687; the two summation orders give -860.68713 and -860.6871 (one
    ulp apart, numpy), whose sines differ by 6e-5. Data movement (Transpose, Rev, pads,
    DynamicUpdateSlice) keeps the sum's scale, so that difference is none; one of 0.1 stays."""
    leaf = _leaf(20261127, 9911, 4)
    assert leaf.floor == pytest.approx(860.687, rel=1e-4)
    xla, ours = np.array([np.float32(0.10903608)]), np.array([np.float32(0.10909674)])
    assert compare.compare([xla], [ours], [leaf]) == []
    plain = generator.Leaf(leaf.dtype, leaf.exact, leaf.err, leaf.eps, leaf.reassoc)
    assert compare.compare([xla], [ours], [plain])
    assert compare.compare([xla], [xla + np.float32(0.1)], [leaf])
