"""tree-reduction-rewriter: which reductions it splits, and their numbers against numpy and
XLA CPU (the split reductions compiled by hlo-mlir, the original module on XLA)."""

from __future__ import annotations

import numpy as np
import pytest

from hlo_mlir import (
    Add,
    And,
    ConstantR0,
    Max,
    Min,
    Mul,
    Parameter,
    Reduce,
    Shape,
    Tuple,
    XlaBuilder,
    compiler,
)
from pipelines.pipeline import run_pipeline
from tests.e2e.test_reduction import binary_reducer
from tests.oracle import check


def _reducer(op, type_name="f32"):
    return binary_reducer(op, type_name, f"reducer_{op.__name__}")


def _program():
    """Sums with padding (300001 is not a multiple of the window), a column sum, an s32 max,
    an f32 min from +inf and a PRED and; each reduces a dimension of at least 65536."""
    b = XlaBuilder("reductions")
    x = Parameter(b, 0, Shape.parse("f32[300001]"), "x")
    cols = Parameter(b, 1, Shape.parse("f32[100000,3]"), "cols")
    rows = Parameter(b, 2, Shape.parse("s32[4,262144]"), "rows")
    flags = Parameter(b, 3, Shape.parse("pred[70000]"), "flags")
    zero = ConstantR0(b, np.float32(0))
    out = [
        Reduce(x, zero, _reducer(Add), [0]),
        Reduce(cols, zero, _reducer(Add), [0]),
        Reduce(rows, ConstantR0(b, np.int32(np.iinfo(np.int32).min)), _reducer(Max, "s32"), [1]),
        Reduce(x, ConstantR0(b, np.float32(np.inf)), _reducer(Min), [0]),
        Reduce(flags, ConstantR0(b, np.bool_(True)), _reducer(And, "pred"), [0]),
        Reduce(cols, ConstantR0(b, np.float32(-5)), _reducer(Max), [0, 1]),  # idempotent: any init
    ]
    return b.build(Tuple(b, out))


def _args(rng):
    return [rng.standard_normal(300001).astype(np.float32),
            rng.standard_normal((100000, 3)).astype(np.float32),
            rng.integers(-2**31, 2**31 - 1, (4, 262144), dtype=np.int32), rng.random(70000) > 1e-6]


def test_splits_every_eligible_reduction():
    module = compiler.as_module(_program())
    stats = run_pipeline(module, "tree-reduction-rewriter").statistics()
    assert stats["tree-reduction-rewriter"] == {"tree-reduction-rewriter": 6}
    # Idempotent: the partial reductions have too many results or too short a dimension.
    assert not run_pipeline(module, "tree-reduction-rewriter").changed


def test_split_reductions_match_numpy_and_xla():
    rng = np.random.default_rng(0)
    x, cols, rows, flags = _args(rng)
    expected = (np.sum(x, dtype=np.float64).astype(np.float32),
                cols.sum(0, dtype=np.float64).astype(np.float32),
                rows.max(1), x.min(), np.bool_(flags.all()), np.float32(max(cols.max(), -5)))
    check(_program(), [x, cols, rows, flags], expected, rtol=1e-4, atol=1e-2)


@pytest.mark.parametrize("n, make", [
    # an init of 1.0 for an add would be counted once per partial sum
    (300000, lambda b, x: Reduce(x, ConstantR0(b, np.float32(1)), _reducer(Add), [0])),
    # a reducer that is not one element-wise op of its two arguments
    (300000, lambda b, x: Reduce(x, ConstantR0(b, np.float32(0)),
                                 _reducer(lambda p, q: Add(Mul(p, p), q)), [0])),
    # a dimension shorter than min-size
    (60000, lambda b, x: Reduce(x, ConstantR0(b, np.float32(0)), _reducer(Add), [0])),
], ids=["non-identity-init", "compound-reducer", "short"])
def test_refusals(n, make):
    b = XlaBuilder("refused")
    x = Parameter(b, 0, Shape.parse(f"f32[{n}]"), "x")
    module = compiler.as_module(b.build(make(b, x)))
    assert not run_pipeline(module, "tree-reduction-rewriter").changed
