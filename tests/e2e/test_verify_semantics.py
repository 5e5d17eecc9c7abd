"""verify_semantics: a wrong pass is caught by name; the real O2 pipeline keeps results exact."""

from __future__ import annotations

import numpy as np
import pytest

from hlo_mlir import (
    Add,
    ConcatInDim,
    Constant,
    ConstantR1,
    ConvertElementType,
    Div,
    Eq,
    Max,
    Mul,
    Neg,
    Parameter,
    Reshape,
    Select,
    Shape,
    Sub,
    Transpose,
    Tuple,
    XlaBuilder,
)
from hlo_mlir.semantics import SemanticsChecker, SemanticsError, first_difference, tolerance
from pipelines import registry
from pipelines.pass_base import PatternPass, pattern
from pipelines.pipeline import run_pipeline


@pattern("stablehlo.add")
def add_to_subtract(op):
    """x + y -> x - y (deliberately wrong)."""
    from dialect_ops import elementwise

    return [elementwise.binary("Sub", *op.operands)]


@pytest.fixture
def wrong_pass():
    class WrongAdd(PatternPass):
        """Test-only pass that rewrites add into subtract (wrong on purpose)."""

        name = "test-wrong-add"
        patterns = (add_to_subtract,)

    registry.register(WrongAdd)
    yield WrongAdd.name
    registry.unregister(WrongAdd.name)


def polynomial():
    """Identities that algsimp removes, a constant subexpression, common subexpressions."""
    b = XlaBuilder("polynomial")
    x = Parameter(b, 0, Shape.parse("f32[3,4]"), "x")
    y = Parameter(b, 1, Shape.parse("f32[3,4]"), "y")
    two = Add(Constant(b, np.float32(1.0)), Constant(b, np.float32(1.0)))
    t = Mul(Neg(Neg(x)), Constant(b, np.float32(1.0)))
    u = Sub(t, Neg(y)) * two
    v = Sub(t, Neg(y)) * two
    return b.build(Max(Div(u, Add(v, Constant(b, np.float32(-0.0)))), Mul(x, y)))


def integer_ops():
    """Integer division/remainder semantics, x - x, compare on itself, select."""
    b = XlaBuilder("integers")
    i = Parameter(b, 0, Shape.parse("s32[6]"), "i")
    j = Parameter(b, 1, Shape.parse("s32[6]"), "j")
    c = ConstantR1(b, np.array([7, -7, 5, 0, -(2**31), 3], np.int32))
    d = ConstantR1(b, np.array([2, 2, 0, 4, -1, -3], np.int32))
    folded = Div(c, d) + (c - Mul(Div(c, d), d))
    same = Eq(i, i)
    picked = Select(same, Sub(i, i) + j, Neg(j))
    return b.build(Tuple(b, [Add(folded, picked), Mul(i, Constant(b, np.int32(0))) + i]))


def shapes():
    """Reshape of reshape, transpose of transpose, a single-operand concatenate, converts."""
    b = XlaBuilder("shapes")
    x = Parameter(b, 0, Shape.parse("f32[2,3,4]"), "x")
    r = Reshape(Reshape(x, [6, 4]), [24])
    t = Transpose(Transpose(x, [1, 2, 0]), [1, 2, 0])
    c = ConcatInDim(b, [Reshape(t, [24])], 0)
    w = ConvertElementType(ConvertElementType(r, np.float32), np.float64)
    return b.build(Tuple(b, [Add(c, r), w]))


def test_wrong_pass_is_caught_with_its_name(wrong_pass):
    computation = polynomial()
    with pytest.raises(
        SemanticsError,
        match=r"pass 'test-wrong-add' changed the results of @main: "
        r"output 0 at index \[\d+, \d+\]: before .*, after .*"
        r"\(float32, rtol=1e-05, atol=1e-06\)",
    ) as e:
        run_pipeline(computation.module, f"algsimp,{wrong_pass},dce", semantics_checker=SemanticsChecker)
    assert e.value.pass_name == wrong_pass


def test_wrong_pass_on_integers_is_caught_exactly(wrong_pass):
    with pytest.raises(
        SemanticsError, match=r"pass 'test-wrong-add' .* output \d at index \[\d\]: .*\(int32, exact\)"
    ):
        run_pipeline(integer_ops().module, wrong_pass, semantics_checker=SemanticsChecker)


@pytest.mark.parametrize("build", [polynomial, integer_ops, shapes], ids=lambda f: f.__name__)
def test_o2_preserves_semantics(build):
    computation = build()
    before = str(computation)
    result = run_pipeline(computation.module, "O2", semantics_checker=SemanticsChecker)
    assert result.changed and str(computation) != before
    assert result.semantics_seconds > 0
    text = str(computation)
    assert "stablehlo.negate %arg0" not in text or build is integer_ops
    computation.verify()


def test_tolerance_and_first_difference():
    assert tolerance(np.int32) == (0, 0) and tolerance(np.bool_) == (0, 0)
    assert tolerance(np.float16)[0] > tolerance(np.float32)[0] > tolerance(np.float64)[0]
    assert tolerance(np.complex64) == tolerance(np.float32)
    a = np.array([1.0, np.nan, np.inf, 2.0], np.float32)
    assert first_difference(a, a.copy()) is None
    assert first_difference(a, a + np.float32(1e-7) * np.array([1, 0, 0, 1], np.float32)) is None
    index, b, c = first_difference(a, np.array([1.0, 0.0, np.inf, 2.0], np.float32))
    assert index == (1,) and np.isnan(b) and c == 0.0
    assert first_difference(a, np.array([1.0, np.nan, -np.inf, 2.0], np.float32))[0] == (2,)
    assert first_difference(np.array([3, 4], np.int64), np.array([3, 5], np.int64))[0] == (1,)
