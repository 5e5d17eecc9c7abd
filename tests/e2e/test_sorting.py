"""End to end: Sort (single and multi-operand, any dimension, stable or not), the comparator
builders and TopK against numpy and XLA CPU, bit for bit.

The numpy reference sorts by XLA's total order for floats (``-NaN < -Inf < ... < -0 < +0
< ... < +Inf < +NaN``: a float's bits read as sign-magnitude integers), with
``np.argsort(kind="stable")`` or ``np.lexsort``. hlo-mlir runs the module after the sort
expanders (IREE's own sort is not stable on ties, its chlo.top_k orders NaN, -0.0 and
ties unlike XLA, and its sort is O(n^2)); XLA runs both the original module and the
expanded one. Sorting only permutes elements, so every comparison is exact (on bits).
"""

import ml_dtypes
import numpy as np
import pytest

import hlo_mlir
from hlo_mlir import (
    ConstantR0,
    CreateScalarComparisonComputation,
    CreateScalarGtComputation,
    CreateScalarLtComputation,
    DTypeError,
    GetTupleElement,
    Gt,
    InvalidArgumentError,
    Lt,
    Parameter,
    PrimitiveType,
    Shape,
    ShapeError,
    ShiftRightLogical,
    Sort,
    TopK,
    Tuple,
    XlaBuilder,
    compiler,
)
from pipelines import registry
from tests.builders import params
from tests.oracle import run_iree, run_xla

T = PrimitiveType
# The order hlo_mlir.compile should run them in (sort-network-expander makes sorts stable itself).
EXPANDERS = ("top-k-expander", "sort-network-expander", "stable-sort-expander", "sort-bf16-as-bits")


# --- references and checks ---------------------------------------------------------------------
def total_order_key(x: np.ndarray) -> np.ndarray:
    """int64 keys whose order is XLA's total order of ``x`` (identity for integers)."""
    x = np.asarray(x)
    if x.dtype.kind in "biu":
        return x.astype(np.int64)
    bits = x.view({2: np.int16, 4: np.int32, 8: np.int64}[x.dtype.itemsize]).astype(np.int64)
    magnitude = (1 << (8 * x.dtype.itemsize - 1)) - 1
    return np.where(bits < 0, -(bits & magnitude) - 1, bits)


def stable_order(keys: np.ndarray, axis: int, descending: bool = False) -> np.ndarray:
    key = total_order_key(keys)
    return np.argsort(-key if descending else key, axis=axis, kind="stable")


def take(arrays, order, axis):
    return tuple(np.take_along_axis(a, order, axis) for a in arrays)


def bits(x):
    x = np.asarray(x)
    return x.view(np.uint8) if x.dtype.kind == "b" else x.view(f"u{x.dtype.itemsize}") if x.size else x


def assert_exact(actual, expected, what):
    actual = actual if isinstance(actual, tuple) else (actual,)
    expected = expected if isinstance(expected, tuple) else (expected,)
    assert len(actual) == len(expected), f"{what}: {len(actual)} results, expected {len(expected)}"
    for i, (a, e) in enumerate(zip(actual, expected, strict=True)):
        a, e = np.asarray(a), np.asarray(e)
        assert (a.shape, a.dtype) == (e.shape, e.dtype), \
            f"{what}[{i}]: {a.dtype}{a.shape} != {e.dtype}{e.shape}"
        np.testing.assert_array_equal(bits(a), bits(e), err_msg=f"{what}[{i}]: {a} != {e}")


def legalized(computation, passes=EXPANDERS):
    module = compiler.as_module(computation)
    for name in passes:
        registry.get(name)().run(module)
    return module


def check_sort(computation, args, expected, passes=EXPANDERS):
    """hlo-mlir (after ``passes``) and XLA (before and after) must all give ``expected`` exactly."""
    module = legalized(computation, passes)
    assert_exact(run_iree(module, *args), expected, "hlo-mlir vs numpy")
    assert_exact(run_xla(computation, *args), expected, "XLA vs numpy")
    assert_exact(run_xla(module, *args), expected, "XLA on the expanded module vs numpy")


rng = np.random.default_rng(7)

# --- single operand, several dtypes --------------------------------------------------------------
SAMPLES = {
    "f32": rng.normal(size=(3, 17)).astype(np.float32),
    "s32": rng.integers(-50, 50, (3, 17)).astype(np.int32),
    "u8": rng.integers(0, 256, (3, 17)).astype(np.uint8),
    "bf16": rng.normal(size=(3, 17)).astype(ml_dtypes.bfloat16),
    "f16": rng.normal(size=(3, 17)).astype(np.float16),
    "pred": rng.integers(0, 2, (3, 17)).astype(bool),
    "s64": rng.integers(-2**40, 2**40, (3, 17)).astype(np.int64),
}


def test_sort_single_operand_dtypes():
    """Ascending along the last dimension and descending along the first, for every dtype in
    one module."""
    b = XlaBuilder("sort_dtypes")
    arrays = list(SAMPLES.values())
    results = []
    expected = []
    for p, a in zip(params(b, *arrays), arrays, strict=True):
        t = p.shape.element_type
        results.append(Sort([p], CreateScalarLtComputation([t], b)))
        results.append(Sort([p], CreateScalarGtComputation([t], b), dimension=0))
        expected += [take([a], stable_order(a, 1), 1)[0], take([a], stable_order(a, 0, True), 0)[0]]
    check_sort(b.build(Tuple(b, results)), arrays, tuple(expected))


def test_sort_returns_array_for_one_operand_and_tuple_for_several():
    b = XlaBuilder("shapes")
    k, v = Parameter(b, 0, Shape.parse("f32[4]")), Parameter(b, 1, Shape.parse("s32[4]"))
    assert Sort([k], CreateScalarLtComputation([T.F32], b)).shape == Shape.parse("f32[4]")
    assert Sort(k, CreateScalarLtComputation([T.F32], b)).shape == Shape.parse("f32[4]")
    pair = Sort([k, v], CreateScalarLtComputation([T.F32, T.S32], b))
    assert pair.shape == Shape.parse("(f32[4], s32[4])")
    assert GetTupleElement(pair, 1).shape == Shape.parse("s32[4]")


# --- keys and values, ties, stability --------------------------------------------------------------
def test_stable_sort_keys_values_with_ties():
    """Keys from {0, 1, 2} (many ties): values keep their input order among equal keys,
    ascending and descending, along minor and non-minor dimensions (one module)."""
    cases = [((64,), 0), ((5, 40), 1), ((40, 5), 0), ((3, 30, 4), -2)]
    b = XlaBuilder("stable")
    args, results, expected = [], [], []
    for shape, dimension in cases:
        keys = rng.integers(0, 3, shape).astype(np.int32)
        values = rng.permutation(np.arange(np.prod(shape), dtype=np.float32)).reshape(shape)
        k, v = (Parameter(b, len(args) + i, Shape.from_numpy(a)) for i, a in enumerate((keys, values)))
        args += [keys, values]
        axis = dimension % len(shape)
        for comparator, descending in ((CreateScalarLtComputation, False), (CreateScalarGtComputation, True)):
            pair = Sort([k, v], comparator([T.S32, T.F32], b), dimension, is_stable=True)
            results += [GetTupleElement(pair, 0), GetTupleElement(pair, 1)]
            expected += take([keys, values], stable_order(keys, axis, descending), axis)
    check_sort(b.build(Tuple(b, results)), args, tuple(expected))


def test_stable_sort_single_operand_by_a_coarser_comparator():
    """A comparator on x >> 4 calls distinct values equal: stability keeps their input order."""
    x = rng.integers(0, 64, 200).astype(np.uint32)
    r = XlaBuilder("high_bits_lt")
    a, c = Parameter(r, 0, Shape.parse("u32[]")), Parameter(r, 1, Shape.parse("u32[]"))
    four = ConstantR0(r, np.uint32(4))
    comparator = r.build(Lt(ShiftRightLogical(a, four), ShiftRightLogical(c, four)))
    b = XlaBuilder("coarse")
    (p,) = params(b, x)
    comp = b.build(Sort([p], comparator, is_stable=True))
    check_sort(comp, [x], x[np.argsort(x >> 4, kind="stable")])


def test_stable_sort_without_expander_is_unstable_on_iree():
    """The defect stable-sort-expander exists for: IREE alone mixes up ties (if this starts
    failing, IREE became stable and the expander can go)."""
    keys = rng.integers(0, 3, 64).astype(np.int32)
    values = np.arange(64, dtype=np.int32)
    b = XlaBuilder("raw_stable")
    k, v = params(b, keys, values)
    comp = b.build(Sort([k, v], CreateScalarLtComputation([T.S32, T.S32], b), is_stable=True))
    raw = hlo_mlir.runtime.load(hlo_mlir.compile(comp, legalize=False)).main(keys, values)
    expected = take([keys, values], stable_order(keys, 0), 0)
    np.testing.assert_array_equal(raw[0], expected[0])
    assert not np.array_equal(raw[1], expected[1])
    check_sort(comp, [keys, values], expected, ["stable-sort-expander"])


def test_stable_sort_through_hlo_mlir_compile():
    keys = rng.integers(0, 3, 64).astype(np.int32)
    values = np.arange(64, dtype=np.int32)
    b = XlaBuilder("compile_stable")
    k, v = params(b, keys, values)
    comp = b.build(Sort([k, v], CreateScalarLtComputation([T.S32, T.S32], b), is_stable=True))
    assert_exact(run_iree(comp, keys, values), take([keys, values], stable_order(keys, 0), 0), "compile")


def test_lexicographic_multi_operand_comparator():
    """CreateScalarComparisonComputation: first key ascending, ties by the second descending
    (plain IEEE Gt: -0.0 ties +0.0), a third operand carried along; the reference is np.lexsort."""
    k1 = rng.integers(0, 4, 50).astype(np.int32)
    k2 = rng.normal(size=50).round(0).astype(np.float32)
    v = np.arange(50, dtype=np.int16)
    b = XlaBuilder("lex")
    p1, p2, p3 = params(b, k1, k2, v)
    comparator = CreateScalarComparisonComputation("lex", [T.S32, T.F32, T.S16], [Lt, Gt, None], b)
    comp = b.build(Sort([p1, p2, p3], comparator, is_stable=True))
    order = np.lexsort((v, -k2, k1))  # the last key is primary; v keeps the input order
    check_sort(comp, [k1, k2, v], (k1[order], k2[order], v[order]))


def test_spec_example_three_operands():
    """The spec's example: operand0 = [3, 1] sorted with less-than carries the others."""
    b = XlaBuilder("spec")
    a = [np.array([3, 1], np.int32), np.array([42, 50], np.int32), np.array([3.0, 1.1], np.float32)]
    ps = params(b, *a)
    comp = b.build(Sort(ps, CreateScalarLtComputation([T.S32, T.S32, T.F32], b)))
    check_sort(comp, a, (np.array([1, 3], np.int32), np.array([50, 42], np.int32),
                         np.array([1.1, 3.0], np.float32)))


# --- floats: NaN, -0.0, infinities -------------------------------------------------------------------
def special_floats(dtype, n):
    specials = np.array([np.nan, -np.nan, np.inf, -np.inf, -0.0, 0.0, 1.0, -1.0], np.float32)
    x = np.concatenate([specials, specials, rng.normal(size=n - 16).round(1).astype(np.float32)])
    return rng.permutation(x).astype(dtype)


def test_sort_nan_and_signed_zero_by_total_order():
    """-NaN first, +NaN last, -0.0 before +0.0, stable among equal bit patterns; f32, f16
    and bf16 (whose -NaN IREE's sort turns into +NaN without sort-bf16-as-bits)."""
    b = XlaBuilder("total_order")
    args, results, expected = [], [], []
    for dtype in (np.float32, np.float16, ml_dtypes.bfloat16):
        keys, values = special_floats(dtype, 40), np.arange(40, dtype=np.int32)
        k, v = (Parameter(b, len(args) + i, Shape.from_numpy(a)) for i, a in enumerate((keys, values)))
        args += [keys, values]
        for comparator, descending in ((CreateScalarLtComputation, False), (CreateScalarGtComputation, True)):
            pair = Sort([k, v], comparator([k.shape.element_type, T.S32], b), is_stable=True)
            results += [GetTupleElement(pair, 0), GetTupleElement(pair, 1)]
            expected += take([keys, values], stable_order(keys, 0, descending), 0)
        ascending = expected[-4].astype(np.float32)
        assert np.isnan(ascending[[0, 1, -2, -1]]).all() and np.signbit(ascending[:2]).all()
    check_sort(b.build(Tuple(b, results)), args, tuple(expected))


# --- empty and trivial dimensions -----------------------------------------------------------------
def test_sort_empty_and_size_one_dimensions():
    b = XlaBuilder("empty")
    a = [np.zeros((0,), np.float32), np.zeros((3, 0), np.int32), np.array([[5], [2]], np.float32)]
    ps = params(b, *a)
    comp = b.build(Tuple(b, [Sort([ps[0]], CreateScalarLtComputation([T.F32], b)),
                             Sort([ps[1]], CreateScalarLtComputation([T.S32], b), 1, is_stable=True),
                             Sort([ps[1]], CreateScalarLtComputation([T.S32], b), 0),
                             Sort([ps[2]], CreateScalarLtComputation([T.F32], b), 1, is_stable=True)]))
    check_sort(comp, a, (a[0], a[1], a[1], a[2]))


# --- TopK ----------------------------------------------------------------------------------------------
def top_k_reference(x, k, largest):
    order = stable_order(x, x.ndim - 1, descending=largest)[..., :k]
    return np.take_along_axis(x, order, -1), order.astype(np.int32)


@pytest.mark.parametrize("largest", [True, False], ids=["largest", "smallest"])
def test_top_k(largest):
    """Total order on floats (NaN ranks highest, -0.0 below +0.0), ties by lower index; ints
    with many ties; k = 0, 1 and the whole dimension."""
    f = special_floats(np.float32, 48).reshape(2, 24)
    i = rng.integers(0, 4, (3, 10)).astype(np.int32)
    u = rng.integers(0, 3, (10,)).astype(np.uint8)
    b = XlaBuilder("top_k")
    pf, pi, pu = params(b, f, i, u)
    cases = [(pf, f, 5), (pf, f, 24), (pi, i, 4), (pi, i, 0), (pu, u, 1), (pu, u, 10)]
    results, expected = [], []
    for p, x, k in cases:
        t = TopK(p, k, largest)
        results += [GetTupleElement(t, 0), GetTupleElement(t, 1)]
        expected += list(top_k_reference(x, k, largest))
    check_sort(b.build(Tuple(b, results)), [f, i, u], tuple(expected))


def test_top_k_shape_and_form():
    b = XlaBuilder("top_k_form")
    p = Parameter(b, 0, Shape.parse("bf16[2,3,7]"))
    assert TopK(p, 3).shape == Shape.parse("(bf16[2,3,3], s32[2,3,3])")
    text = str(b.build())
    assert "chlo.top_k" in text and "stablehlo.sort" not in text


# --- long sorts: the sorting network ---------------------------------------------------------------------
def test_long_sorts_use_the_network_and_stay_exact():
    """Dimensions past the network's threshold, not powers of two, with NaNs, -0.0 and ties;
    stable and unstable (the network is stable either way); along a non-minor dimension;
    and a TopK over a long row."""
    keys = special_floats(np.float32, 3000)
    values = np.arange(3000, dtype=np.int32)
    cube = rng.integers(0, 20, (2, 700, 3)).astype(np.int16)
    b = XlaBuilder("long")
    k, v, c = params(b, keys, values, cube)
    stable = Sort([k, v], CreateScalarLtComputation([T.F32, T.S32], b), is_stable=True)
    down = Sort([v, k], CreateScalarGtComputation([T.S32, T.F32], b))
    along_1 = Sort([c], CreateScalarLtComputation([T.S16], b), dimension=1, is_stable=True)
    top = TopK(k, 7)
    comp = b.build(Tuple(b, [GetTupleElement(stable, 0), GetTupleElement(stable, 1), GetTupleElement(down, 0),
                             along_1, GetTupleElement(top, 0), GetTupleElement(top, 1)]))
    module = legalized(comp)
    assert "stablehlo.while" in str(module)
    check_sort(comp, [keys, values, cube],
               take([keys, values], stable_order(keys, 0), 0) + (values[::-1].copy(), np.sort(cube, axis=1))
               + top_k_reference(keys, 7, True))


# --- passes: what they match -------------------------------------------------------------------------
def count(module, name):
    return str(module).count(f'"{name}"') + str(module).count(f"{name}(")


def test_expanders_match_only_their_sorts():
    """stable-sort-expander takes stable sorts only, sort-network-expander long ones only
    (``min-size``), top-k-expander chlo.top_k only."""
    b = XlaBuilder("matches")
    long, short = Parameter(b, 0, Shape.parse("f32[4,600]")), Parameter(b, 1, Shape.parse("f32[8]"))
    Sort([long], CreateScalarLtComputation([T.F32], b))
    Sort([short], CreateScalarLtComputation([T.F32], b))
    comp = b.build(Sort([short], CreateScalarLtComputation([T.F32], b), is_stable=True))
    module = compiler.as_module(comp)
    assert not registry.get("top-k-expander")().run(module)
    assert not registry.get("sort-network-expander")(min_size=601).run(module)
    assert registry.get("stable-sort-expander")().run(module)
    assert str(module).count("stablehlo.iota") == 1 and "is_stable = true" not in str(module)
    assert registry.get("sort-network-expander")().run(module)
    assert str(module).count("stablehlo.while") == 1 and str(module).count('"stablehlo.sort"') == 2


# --- errors --------------------------------------------------------------------------------------------
def comparator_of(types, result=lambda ps: Lt(ps[0], ps[1])):
    r = XlaBuilder("cmp")
    ps = [Parameter(r, i, Shape.parse(t)) for i, t in enumerate(types)]
    return r.build(result(ps))


def test_sort_errors():
    b = XlaBuilder("errors")
    x = Parameter(b, 0, Shape.parse("f32[3,4]"))
    y = Parameter(b, 1, Shape.parse("s32[3,5]"))
    s = Parameter(b, 2, Shape.parse("f32[]"))
    lt = CreateScalarLtComputation([T.F32], b)
    with pytest.raises(InvalidArgumentError, match=r"Sort requires at least one operand; got none"):
        Sort([], lt)
    with pytest.raises(ShapeError, match=r"Sort requires operands of the same dimensions; "
                                         r"got f32\[3,4\], s32\[3,5\]"):
        Sort([x, y], CreateScalarLtComputation([T.F32, T.S32], b))
    with pytest.raises(ShapeError, match=r"Sort requires operands of rank >= 1; got f32\[\]"):
        Sort([s], lt)
    for bad in (2, -3):
        with pytest.raises(InvalidArgumentError,
                           match=rf"Sort requires dimension in \[-2, 2\); got {bad} for operand f32\[3,4\]"):
            Sort([x], lt, bad)
    with pytest.raises(InvalidArgumentError,
                       match=r"Sort requires a comparator of 2 parameters for 1 operand\(s\), of shape "
                             r"\(p0: f32\[\], p1: f32\[\]\) -> pred\[\]; got 4 parameters"):
        Sort([x], CreateScalarLtComputation([T.F32, T.F32], b))
    with pytest.raises(DTypeError, match=r"Sort requires comparator parameter 1 \(the rhs of operand 0\) "
                                        r"to be "
                                        r"f32\[\]; got s32\[\]"):
        Sort([x], comparator_of(["f32[]", "s32[]"], lambda ps: Lt(ps[0], ps[0])))
    with pytest.raises(ShapeError,
                       match=r"Sort requires scalar comparator parameters.*got f32\[2\] for parameter 0"):
        Sort([x], comparator_of(["f32[2]", "f32[]"], lambda ps: Lt(ps[1], ps[1])))
    with pytest.raises(DTypeError, match=r"Sort requires a comparator returning a PRED scalar.*-> f32\[\]"):
        Sort([x], comparator_of(["f32[]", "f32[]"], lambda ps: ps[0] + ps[1]))
    with pytest.raises(InvalidArgumentError,
                       match=r"Sort requires an XlaComputation comparator; got function"):
        Sort([x], lambda a, c: a < c)
    with pytest.raises(InvalidArgumentError,
                       match=r"Sort requires XlaOp operands; got ndarray for operand 0"):
        Sort([np.zeros(3)], lt)


def test_top_k_and_comparator_builder_errors():
    b = XlaBuilder("top_k_errors")
    x = Parameter(b, 0, Shape.parse("f32[3,4]"))
    with pytest.raises(InvalidArgumentError,
                       match=r"TopK requires 0 <= k <= 4 \(the last dimension\); got k=5 "
                                                  r"for operand f32\[3,4\]"):
        TopK(x, 5)
    with pytest.raises(InvalidArgumentError, match=r"TopK requires 0 <= k <= 4.*got k=-1"):
        TopK(x, -1, largest=False)
    with pytest.raises(ShapeError, match=r"TopK requires an array operand of rank >= 1; got f32\[\]"):
        TopK(Parameter(b, 1, Shape.parse("f32[]")), 0)
    with pytest.raises(DTypeError,
                       match=r"TopK requires an integer or floating-point operand; got pred\[3\]"):
        TopK(Parameter(b, 2, Shape.parse("pred[3]")), 1)
    with pytest.raises(InvalidArgumentError, match=r"compare-less-than requires at least one operand type"):
        CreateScalarLtComputation([], b)
    with pytest.raises(InvalidArgumentError,
                       match=r"lex requires one generator \(or None\) per operand type"):
        CreateScalarComparisonComputation("lex", [T.F32, T.S32], [Lt], b)
