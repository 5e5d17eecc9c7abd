"""End to end: ReduceWindow (single, variadic, general padding) and SelectAndScatter against
numpy references written as explicit loops over window positions, and XLA CPU.

SelectAndScatter runs through ``select-and-scatter-expander`` (IREE picks the last tied
maximum and rejects padded forms); ties must select the FIRST element of the window, as
XLA does: the reference scans each window in index order and switches to an element only
when ``select(current, element)`` is false.
"""

import itertools
import operator

import numpy as np
import pytest

from hlo_mlir import (
    Add,
    And,
    ConstantR0,
    DTypeError,
    Eq,
    Ge,
    GetTupleElement,
    Gt,
    InvalidArgumentError,
    Lt,
    Max,
    Min,
    Mul,
    Or,
    Padding,
    Parameter,
    ReduceWindow,
    ReduceWindowWithGeneralPadding,
    Select,
    SelectAndScatter,
    SelectAndScatterWithGeneralPadding,
    Shape,
    ShapeError,
    Tuple,
    XlaBuilder,
    compiler,
)
from pipelines import registry
from tests.oracle import assert_close, check, run_iree, run_xla


def scalar_computation(name, fn, type_name="f32", n=2):
    b = XlaBuilder(name)
    fn(*[Parameter(b, i, Shape.parse(f"{type_name}[]")) for i in range(n)])
    return b.build()


# The legalizations of this family, in order; hlo_mlir.compile runs them before IREE once
# it runs every pass marked legalizes_for_iree.
LEGALIZATIONS = ("select-and-scatter-expander", "single-window-stride")


def legalized(computation):
    """``computation``'s module after this family's IREE legalizations."""
    module = compiler.as_module(computation)
    for name in LEGALIZATIONS:
        registry.get(name)().run(module)
    return module


def shape_text(t, shape):
    return f"{t}[{','.join(str(d) for d in shape)}]"


# --- numpy references --------------------------------------------------------------------------
def window_positions(shape, window, strides, padding, base_dilations=None, window_dilations=None):
    """Yields (output index, [operand index or None for padding/holes per window element])."""
    rank = len(shape)
    bd = base_dilations or [1] * rank
    wd = window_dilations or [1] * rank
    padded = [lo + ((s - 1) * d + 1 if s else 0) + hi
              for s, d, (lo, hi) in zip(shape, bd, padding, strict=True)]
    dilated_window = [(w - 1) * d + 1 for w, d in zip(window, wd, strict=True)]
    out = [0 if w > p else (p - w) // s + 1 for p, w, s in zip(padded, dilated_window, strides, strict=True)]
    for o in itertools.product(*[range(n) for n in out]):
        elements = []
        for k in itertools.product(*[range(w) for w in window]):
            index = []
            for d in range(rank):
                p = o[d] * strides[d] + k[d] * wd[d] - padding[d][0]  # position in the dilated base
                index.append(p // bd[d] if p >= 0 and p % bd[d] == 0 and p // bd[d] < shape[d] else None)
            elements.append(None if None in index else tuple(index))
        yield o, elements, out


def reduce_window_shape(shape, window, strides, padding, bd=None, wd=None):
    rank = len(shape)
    bd, wd = bd or [1] * rank, wd or [1] * rank
    padded = [lo + ((s - 1) * d + 1 if s else 0) + hi
              for s, d, (lo, hi) in zip(shape, bd, padding, strict=True)]
    dw = [(w - 1) * d + 1 for w, d in zip(window, wd, strict=True)]
    return [0 if w > p else (p - w) // s + 1 for p, w, s in zip(padded, dw, strides, strict=True)]


def reduce_window_np(x, init, fn, window, strides, padding, bd=None, wd=None):
    out = np.full(reduce_window_shape(x.shape, window, strides, padding, bd, wd), init, x.dtype)
    for o, elements, _ in window_positions(x.shape, window, strides, padding, bd, wd):
        acc = init
        for e in elements:
            acc = fn(acc, init if e is None else x[e])
        out[o] = acc
    return out


def select_and_scatter_np(x, source, init, select, window, strides, padding, scatter=operator.add):
    """XLA's semantics: scan each window in index order (padding is never selected) and switch
    to an element when select(selected, element) is false; scatter the source there."""
    out = np.full(x.shape, init, x.dtype)
    for o, elements, _ in window_positions(x.shape, window, strides, padding):
        selected = None
        for e in elements:
            if e is not None and (selected is None or not select(x[selected], x[e])):
                selected = e
        if selected is not None:
            out[selected] = scatter(out[selected], source[o])
    return out


MAX = scalar_computation("max", Max)
ADD = scalar_computation("add", Add)
GE = scalar_computation("ge", Ge)


# --- ReduceWindow -------------------------------------------------------------------------------------
def test_spec_examples():
    """The spec's examples: max over a 4x6 matrix with 2x3 windows and strides; min with
    window 3 and stride 2 over [10000, 1000, 100, 10, 1], VALID gives [100, 1] and SAME
    (init values in the pads) gives [1000, 10, 1]."""
    b = XlaBuilder("spec_examples")
    m = Parameter(b, 0, Shape.parse("f32[4,6]"))
    v = Parameter(b, 1, Shape.parse("f32[5]"))
    minimum = scalar_computation("min", Min)
    big = ConstantR0(b, np.float32(np.finfo(np.float32).max))
    outs = [ReduceWindow(m, ConstantR0(b, np.float32(-np.inf)), MAX, [2, 3], [2, 3], Padding.VALID),
            ReduceWindow(v, big, minimum, [3], [2], "VALID"),
            ReduceWindow(v, big, minimum, [3], [2], "SAME")]
    comp = b.build(Tuple(b, outs))
    matrix = np.random.default_rng(0).uniform(-5, 5, (4, 6)).astype(np.float32)
    vector = np.array([10000, 1000, 100, 10, 1], np.float32)
    expected = (matrix.reshape(2, 2, 2, 3).max(axis=(1, 3)), np.array([100, 1], np.float32),
                np.array([1000, 10, 1], np.float32))
    check(comp, [matrix, vector], expected)


# (operand shape, window, strides, padding, base dilations, window dilations)
GENERAL = [
    ((5, 6), [2, 3], [1, 2], [(1, 0), (2, 1)], [1, 1], [1, 1]),
    ((4, 5), [2, 2], [2, 1], [(0, 0), (0, 0)], [2, 1], [1, 2]),
    ((6, 4), [3, 2], [2, 2], [(-1, -1), (1, -1)], [1, 1], [1, 1]),   # negative padding
    ((2, 3, 4), [1, 2, 3], [1, 1, 2], [(0, 0), (1, 1), (2, 2)], [1, 2, 1], [1, 1, 2]),
    ((3, 2), [4, 1], [1, 1], [(0, 0), (0, 0)], [1, 1], [1, 1]),     # window larger than the input: empty
]


@pytest.mark.parametrize("type_name,dtype", [("f32", np.float32), ("s32", np.int32)])
def test_general_padding(type_name, dtype):
    """Max and sum with padding (the init value fills pads and base-dilation holes), base and
    window dilations, negative padding and an empty result. The init values are the
    reducers' identities: XLA CPU combines a non-identity init once per window, not once per
    pad as the spec's padding with init values would (implementation-defined)."""
    b = XlaBuilder(f"general_{type_name}")
    maximum = scalar_computation("max", Max, type_name)
    add = scalar_computation("add", Add, type_name)
    low = np.iinfo(dtype).min if dtype == np.int32 else -np.inf
    outs, args, expected = [], [], []
    rng = np.random.default_rng(1)
    for i, (shape, window, strides, padding, bd, wd) in enumerate(GENERAL):
        x = Parameter(b, i, Shape.parse(shape_text(type_name, shape)))
        outs.append(ReduceWindowWithGeneralPadding(x, ConstantR0(b, dtype(low)), maximum, window, strides,
                                                   bd, wd,
                                                   padding))
        outs.append(ReduceWindowWithGeneralPadding(x, ConstantR0(b, dtype(0)), add, window, strides, bd, wd,
                                                   padding))
        args.append(rng.integers(-9, 10, shape).astype(dtype))
        expected.append(reduce_window_np(args[-1], dtype(low), max, window, strides, padding, bd, wd))
        expected.append(reduce_window_np(args[-1], dtype(0), operator.add, window, strides, padding, bd, wd))
    comp = b.build(Tuple(b, outs))
    assert str(comp.program_shape().result.tuple_shapes[-1]) == f"{type_name}[0,2]"
    # GENERAL[2] has one window position in a strided dimension: IREE needs single-window-stride.
    check(legalized(comp), args, tuple(expected))
    assert_close(run_xla(comp, *args), tuple(expected), what="XLA on the module before legalization")


def _argmax_reducer():
    """(value, index) pairs: the larger value, the smaller index on ties."""
    b = XlaBuilder("argmax")
    av, ai, bv, bi = (Parameter(b, 0, Shape.parse("f32[]")), Parameter(b, 1, Shape.parse("s32[]")),
                      Parameter(b, 2, Shape.parse("f32[]")), Parameter(b, 3, Shape.parse("s32[]")))
    take_a = Or(Gt(av, bv), And(Eq(av, bv), Lt(ai, bi)))
    return b.build(Tuple(b, [Select(take_a, av, bv), Select(take_a, ai, bi)]))


def test_variadic():
    """Variadic ReduceWindow over (value, index) with a tuple-returning reducer, SAME padding."""
    b = XlaBuilder("variadic")
    v = Parameter(b, 0, Shape.parse("f32[2,5]"))
    i = Parameter(b, 1, Shape.parse("s32[2,5]"))
    out = ReduceWindow(b, [v, i], [ConstantR0(b, np.float32(-np.inf)), ConstantR0(b, np.int32(-1))],
                       _argmax_reducer(), [1, 3], [1, 2], "SAME")
    assert str(out.shape) == "(f32[2,3], s32[2,3])"
    comp = b.build(Tuple(b, [GetTupleElement(out, 0), GetTupleElement(out, 1)]))
    values = np.array([[1, 3, 3, 0, 2], [5, 5, 5, 4, 9]], np.float32)
    index = np.arange(10, dtype=np.int32).reshape(2, 5)
    # Windows [pad, 1, 3], [3, 3, 0], [0, 2, pad] and [pad, 5, 5], [5, 5, 4], [4, 9, pad].
    check(comp, [values, index], (np.array([[3, 3, 2], [5, 5, 9]], np.float32),
                                  np.array([[1, 1, 4], [5, 6, 9]], np.int32)))


# --- SelectAndScatter -------------------------------------------------------------------------------
# (operand shape, window, strides, padding); the operands are small integers, so windows tie.
SCATTER_CASES = [
    ((6,), [3], [3], "VALID"),
    ((4, 6), [2, 3], [2, 3], "VALID"),
    ((5, 5), [3, 3], [1, 1], "VALID"),                    # overlapping windows scatter-add
    ((5, 6), [2, 3], [2, 2], "SAME"),
    ((4, 5), [3, 2], [2, 1], [(1, 2), (0, 1)]),           # pads are never selected
    ((2, 4, 3), [1, 2, 2], [1, 2, 1], [(0, 0), (1, 0), (1, 1)]),
]


def _pairs(shape, window, strides, padding):
    from hlo_mlir import MakePadding
    return MakePadding(shape, window, strides, padding) if isinstance(padding, str) else padding


def _padded(shape, window, strides, padding):
    return any(p != (0, 0) for p in _pairs(shape, window, strides, padding))


@pytest.mark.parametrize("type_name,dtype", [("f32", np.float32), ("s32", np.int32)])
@pytest.mark.parametrize("padded", [False, True])
def test_select_and_scatter_ties(type_name, dtype, padded):
    """GE picks the first of tied maxima, GT the last (the spec scans each window in index
    order), on every window form, against numpy and, where XLA follows the spec, XLA
    (before and after the expander).

    XLA CPU does not scan padded windows in index order: with padding other than low
    padding of the first dimension it breaks ties differently (e.g. f32[4,5], window
    [3,2], strides [2,1], padding [(1,2),(0,1)]: the 1 at (1,0) instead of the 1 at (0,1)
    of window rows -1..1, columns 0..1). Padded windows are therefore compared with XLA
    on tie-free inputs only (test_select_and_scatter_padded_matches_xla)."""
    cases = [c for c in SCATTER_CASES if _padded(*c) == padded]
    b = XlaBuilder(f"sas_{type_name}")
    ge, gt = scalar_computation("ge", Ge, type_name), scalar_computation("gt", Gt, type_name)
    add = scalar_computation("add", Add, type_name)
    outs, args, expected = [], [], []
    rng = np.random.default_rng(2)
    for i, (shape, window, strides, padding) in enumerate(cases):
        pairs = _pairs(shape, window, strides, padding)
        source_shape = reduce_window_shape(shape, window, strides, pairs)
        x = Parameter(b, 2 * i, Shape.parse(shape_text(type_name, shape)))
        s = Parameter(b, 2 * i + 1, Shape.parse(shape_text(type_name, source_shape)))
        init = ConstantR0(b, dtype(0))
        outs.append(SelectAndScatter(x, ge, window, strides, padding, s, init, add))
        outs.append(SelectAndScatter(x, gt, window, strides, padding, s, init, add))
        args += [rng.integers(0, 3, shape).astype(dtype), rng.integers(1, 9, source_shape).astype(dtype)]
        expected.append(select_and_scatter_np(args[-2], args[-1], dtype(0), operator.ge, window, strides,
                                              pairs))
        expected.append(select_and_scatter_np(args[-2], args[-1], dtype(0), operator.gt, window, strides,
                                              pairs))
    comp = b.build(Tuple(b, outs))
    if not padded:
        assert_close(run_xla(comp, *args), tuple(expected), what="XLA on the builder's module")
    module = legalized(comp)
    assert "select_and_scatter" not in str(module)
    check(module, args, tuple(expected), xla=not padded)


def test_select_and_scatter_padded_matches_xla():
    """Padded windows without ties: hlo-mlir, XLA and numpy agree."""
    b = XlaBuilder("sas_padded")
    outs, args, expected = [], [], []
    rng = np.random.default_rng(4)
    for i, (shape, window, strides, padding) in enumerate(c for c in SCATTER_CASES if _padded(*c)):
        pairs = _pairs(shape, window, strides, padding)
        source_shape = reduce_window_shape(shape, window, strides, pairs)
        x = Parameter(b, 2 * i, Shape.parse(shape_text("f32", shape)))
        s = Parameter(b, 2 * i + 1, Shape.parse(shape_text("f32", source_shape)))
        outs.append(SelectAndScatter(x, GE, window, strides, padding, s, ConstantR0(b, np.float32(0)), ADD))
        args += [rng.permutation(np.prod(shape)).reshape(shape).astype(np.float32) - 5,
                 rng.integers(1, 9, source_shape).astype(np.float32)]
        expected.append(select_and_scatter_np(args[-2], args[-1], np.float32(0), operator.ge, window, strides,
                                              pairs))
    comp = b.build(Tuple(b, outs))
    assert_close(run_xla(comp, *args), tuple(expected), what="XLA on the builder's module")
    check(legalized(comp), args, tuple(expected))


def test_select_and_scatter_spec_tie():
    """The first of two tied maxima gets the source value (IREE alone gives it to the last)."""
    b = XlaBuilder("tie")
    x = Parameter(b, 0, Shape.parse("f32[6]"))
    s = Parameter(b, 1, Shape.parse("f32[2]"))
    comp = b.build(SelectAndScatter(x, GE, [3], [3], "VALID", s, ConstantR0(b, np.float32(0)), ADD))
    args = [np.array([1, 5, 5, 2, 2, 2], np.float32), np.array([10, 20], np.float32)]
    check(legalized(comp), args, np.array([0, 10, 0, 20, 0, 0], np.float32))


def test_select_and_scatter_other_computations():
    """A min selector (LE picks the first minimum) and a multiplying scatter with init 1,
    through the general-padding form."""
    b = XlaBuilder("min_mul")
    x = Parameter(b, 0, Shape.parse("f32[4,4]"))
    s = Parameter(b, 1, Shape.parse("f32[2,3]"))
    le = scalar_computation("le", lambda p, q: Ge(q, p))
    mul = scalar_computation("mul", Mul)
    comp = b.build(SelectAndScatterWithGeneralPadding(x, le, [2, 2], [2, 2], [(0, 0), (1, 1)], s,
                                                      ConstantR0(b, np.float32(1)), mul))
    rng = np.random.default_rng(3)
    args = [rng.integers(0, 3, (4, 4)).astype(np.float32), rng.uniform(1, 2, (2, 3)).astype(np.float32)]
    expected = select_and_scatter_np(args[0], args[1], np.float32(1), operator.le, [2, 2], [2, 2],
                                     [(0, 0), (1, 1)], operator.mul)
    check(legalized(comp), args, expected)


def test_compile_legalizes_select_and_scatter():
    b = XlaBuilder("tie_compile")
    x = Parameter(b, 0, Shape.parse("f32[6]"))
    s = Parameter(b, 1, Shape.parse("f32[2]"))
    comp = b.build(SelectAndScatter(x, GE, [3], [3], "VALID", s, ConstantR0(b, np.float32(0)), ADD))
    result = run_iree(comp, np.array([1, 5, 5, 2, 2, 2], np.float32), np.array([10, 20], np.float32))
    assert_close(result, np.array([0, 10, 0, 20, 0, 0], np.float32))


# --- errors -------------------------------------------------------------------------------------------
def _reduce_window_error(**kwargs):
    b = XlaBuilder("bad")
    x = Parameter(b, 0, Shape.parse("f32[4,6]"))
    args = dict(operand=x, init_value=ConstantR0(b, np.float32(0)), computation=ADD, window_dimensions=[2, 2],
                window_strides=[1, 1], padding="VALID")
    args.update(kwargs)
    if callable(args["init_value"]):
        args["init_value"] = args["init_value"](b)
    ReduceWindow(**args)


@pytest.mark.parametrize("kwargs,error,message", [
    (dict(window_dimensions=[2]), InvalidArgumentError,
     r"ReduceWindow requires one window dimension per operand dimension; got window_dimensions \[2\] "
     r"for operand "
     r"f32\[4,6\]"),
    (dict(window_dimensions=[0, 2]), InvalidArgumentError, r"positive window_dimensions; got \[0, 2\]"),
    (dict(window_strides=[1, -1]), InvalidArgumentError, "positive window_strides"),
    (dict(padding="FULL"), InvalidArgumentError, "padding SAME, VALID or"),
    (dict(padding=[(0, 0)]), InvalidArgumentError,
     r"one \(low, high\) padding pair per window dimension \(2\)"),
    (dict(padding=[(-3, -2), (0, 0)]), ShapeError,
     r"non-negative base area; got padding \(-3, -2\) for operand "
                                                   r"dimension 0 of size 4"),
    (dict(init_value=lambda b: ConstantR0(b, np.int32(0))), DTypeError,
     r"ReduceWindow requires each init_value of its operand's element type; got s32\[\]"),
    (dict(computation=GE), DTypeError, "ReduceWindow requires computation result 0 to be f32"),
    (dict(computation=scalar_computation("three", lambda p, q, r: Add(p, q), n=3)), InvalidArgumentError,
     "ReduceWindow requires a computation of 2 parameters"),
    (dict(computation="add"), InvalidArgumentError,
     "ReduceWindow requires an XlaComputation reducer; got str"),
])
def test_reduce_window_errors(kwargs, error, message):
    with pytest.raises(error, match=message) as info:
        _reduce_window_error(**kwargs)
    assert "test_windows.py" in str(info.value)


def test_general_padding_rejects_padding_names():
    b = XlaBuilder("bad")
    x = Parameter(b, 0, Shape.parse("f32[4]"))
    with pytest.raises(InvalidArgumentError,
                       match=r"ReduceWindowWithGeneralPadding requires \(low, high\) padding "
                                                   r"pairs; got 'SAME' \(use ReduceWindow"):
        ReduceWindowWithGeneralPadding(x, ConstantR0(b, np.float32(0)), ADD, [2], [1], [1], [1], "SAME")
    with pytest.raises(InvalidArgumentError, match="base_dilations"):
        ReduceWindowWithGeneralPadding(x, ConstantR0(b, np.float32(0)), ADD, [2], [1], [0], [1], [(0, 0)])


def _sas_error(select=GE, scatter=ADD, source="f32[2,2]", init=np.float32(0), **kwargs):
    b = XlaBuilder("bad")
    x = Parameter(b, 0, Shape.parse("f32[4,6]"))
    s = Parameter(b, 1, Shape.parse(source))
    args = dict(window_dimensions=[2, 3], window_strides=[2, 3], padding="VALID")
    args.update(kwargs)
    SelectAndScatter(x, select, args["window_dimensions"], args["window_strides"], args["padding"], s,
                     ConstantR0(b, init), scatter)


@pytest.mark.parametrize("kwargs,error,message", [
    (dict(select=ADD), InvalidArgumentError,
     r"SelectAndScatter requires a select computation of shape \(p0: f32\[\], p1: f32\[\]\) -> pred\[\]; "
     r"got \(p0: f32\[\], p1: f32\[\]\) -> f32\[\]"),
    (dict(scatter=GE), InvalidArgumentError,
     r"SelectAndScatter requires a scatter computation of shape \(p0: f32\[\], p1: f32\[\]\) -> f32\[\]"),
    (dict(source="f32[2,3]"), ShapeError,
     r"SelectAndScatter requires a source of the window positions' shape f32\[2,2\]; got f32\[2,3\]"),
    (dict(init=np.int32(0)), ShapeError, "scalar init_value of the operand's element type"),
    (dict(window_dimensions=[2]), InvalidArgumentError, "one window dimension per operand dimension"),
])
def test_select_and_scatter_errors(kwargs, error, message):
    with pytest.raises(error, match=message) as info:
        _sas_error(**kwargs)
    assert "test_windows.py" in str(info.value)
