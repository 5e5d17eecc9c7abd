"""The GPU- and CPU-level graph rewrites of spec 004: reduction-degenerate-dim-remover,
reduction-dimension-grouper, reduction-splitter, reduction-layout-normalizer,
variadic-op-splitter, cublas-pad-for-gemms and convolution-canonicalization.

Each is compiled with and without the pass against numpy (bit for bit against the
original where the pass claims exactness), its statistics and options are checked, and
hypothesis runs it over generated modules: structurally (valid IR, idempotent) and under
the semantics check of ``hlo-opt --verify-semantics``."""

from __future__ import annotations

import ml_dtypes
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from iree.compiler import ir

from hlo_mlir.context import get_context
from hlo_mlir.errors import InvalidArgumentError
from hlo_mlir.semantics import SemanticsChecker
from pipelines import registry
from pipelines.matchers import ops_where
from pipelines.pipeline import run_pipeline
from pipelines.simplifiers.reduction_dimension_grouper import grouped
from pipelines.simplifiers.reduction_splitter import contiguous_reduction
from pipelines.simplifiers.variadic_op_splitter import split_rounds
from tests.oracle import run_iree, run_xla
from tests.properties import examples
from tests.unit.test_dot_passes import grouped_convolutions

REDUCTION_PASSES = ("reduction-degenerate-dim-remover", "reduction-dimension-grouper",
                    "reduction-splitter", "reduction-layout-normalizer")
RNG = np.random.default_rng(7)
ET = {"f32": "f32", "s32": "i32", "f16": "f16", "bf16": "bf16", "s8": "i8"}


def parse(text: str) -> ir.Module:
    with get_context():
        return ir.Module.parse(text)


def tensor(dims, et: str) -> str:
    return f"tensor<{'x'.join(map(str, dims))}{'x' if dims else ''}{ET.get(et, et)}>"


def names(module: ir.Module) -> list[str]:
    """The StableHLO ops of @main's body (not those inside reducers), in order."""
    (main,) = module.body.operations
    return [op.name for op in main.regions[0].blocks[0].operations if op.name.startswith("stablehlo.")]


def statistics(text: str, passes: str) -> tuple[dict, list[str]]:
    """The statistics of ``passes`` on ``text`` and the op names left."""
    module = parse(text)
    result = run_pipeline(module, passes).statistics()
    return {k: dict(v) for k, v in result.items()}, names(module)


def run(text: str, passes: str, *args):
    """``text`` through ``passes`` (nothing else), compiled for llvm-cpu and run."""
    out = run_iree(parse(text), *args, passes=passes)
    return list(out) if isinstance(out, (tuple, list)) else [out]


def same_bits(a, b) -> bool:
    a, b = np.asarray(a), np.asarray(b)
    return a.dtype == b.dtype and a.shape == b.shape and a.tobytes() == b.tobytes()


def exact_and_close(text: str, passes: str, args, expected, rtol=1e-5, atol=1e-5):
    """The module gives the same bits with and without ``passes`` and ``expected`` (numpy)
    within a tolerance (exactly for integers)."""
    before, after = run(text, "", *args), run(text, passes, *args)
    for b, a, e in zip(before, after, expected, strict=True):
        assert same_bits(b, a), (passes, b, a)
        if np.asarray(e).dtype.kind in "biu":
            np.testing.assert_array_equal(a, e)
        else:
            np.testing.assert_allclose(np.asarray(a, np.float64), np.asarray(e, np.float64), rtol, atol)


def settles_with_the_same_numbers(text: str, spec: str, seed: int) -> ir.Module:
    """``spec`` on ``text`` under the semantics check (``hlo-opt --verify-semantics``);
    a second run changes nothing. Returns the module."""
    module = parse(text)
    run_pipeline(module, spec, semantics_checker=lambda m: SemanticsChecker(m, seed=seed))
    assert not run_pipeline(module, spec).changed, module.operation.get_asm()
    return module


def reduce_module(shape, dims, et="f32", op="add", init=None) -> str:
    init = init or ("0.0" if et.startswith(("f", "bf")) else "0")
    result = [s for d, s in enumerate(shape) if d not in dims]
    t, r, s = tensor(shape, et), tensor(result, et), tensor([], et)
    return (f"func.func @main(%x: {t}) -> {r} {{\n  %c = stablehlo.constant dense<{init}> : {s}\n"
            f"  %r = stablehlo.reduce(%x init: %c) applies stablehlo.{op} across dimensions = {list(dims)}"
            f" : ({t}, {s}) -> {r}\n  return %r : {r}\n}}\n")


# --- reduction-degenerate-dim-remover -----------------------------------------------------------
def test_degenerate_dims_go_and_the_float_sum_keeps_its_bits():
    text = reduce_module([1, 40, 33, 1], [0, 2])
    assert statistics(text, "reduction-degenerate-dim-remover") == (
        {"reduction-degenerate-dim-remover": {"drop-unit-dimensions": 1}},
        ["stablehlo.constant", "stablehlo.reshape", "stablehlo.reduce", "stablehlo.reshape"])
    x = (10 * RNG.standard_normal((1, 40, 33, 1))).astype(np.float32)
    exact_and_close(text, "reduction-degenerate-dim-remover", [x], [x.sum(axis=(0, 2))])


def test_all_unit_reduced_dims_keep_the_init():
    """An identity init (-0.0 for add) makes a reshape; max with init 5 keeps one unit
    reduced dimension, so max(5, x) still clamps (XLA's bitcast would return x)."""
    identity = reduce_module([1, 3, 1], [0, 2], init="-0.0")
    ops = statistics(identity, "reduction-degenerate-dim-remover")[1]
    assert ops == ["stablehlo.constant", "stablehlo.reshape"]
    x = np.array([[[-0.0], [2.5], [-1.0]]], np.float32)
    exact_and_close(identity, "reduction-degenerate-dim-remover", [x], [x.reshape(3)])
    clamp = reduce_module([1, 3, 1], [0, 2], "s32", "maximum", "5")
    stats, ops = statistics(clamp, "reduction-degenerate-dim-remover")
    assert stats == {"reduction-degenerate-dim-remover": {"drop-unit-dimensions": 1}}
    assert ops.count("stablehlo.reduce") == 1
    i = np.array([[[3], [7], [-2]]], np.int32)
    exact_and_close(clamp, "reduction-degenerate-dim-remover", [i], [np.array([5, 7, 5], np.int32)])


def test_variadic_argmax_loses_its_unit_dims():
    results = "(tensor<1x1xf32>, tensor<1x1xi32>)"
    text = (
        f"func.func @main(%x: tensor<1x6x1xf32>, %i: tensor<1x6x1xi32>) -> {results} {{\n"
        "  %c = stablehlo.constant dense<0xFF800000> : tensor<f32>\n"
        "  %z = stablehlo.constant dense<0> : tensor<i32>\n"
        "  %r:2 = stablehlo.reduce(%x init: %c), (%i init: %z) across dimensions = [1] : "
        f"(tensor<1x6x1xf32>, tensor<1x6x1xi32>, tensor<f32>, tensor<i32>) -> {results}\n"
        "    reducer(%a: tensor<f32>, %b: tensor<f32>) (%ai: tensor<i32>, %bi: tensor<i32>) {\n"
        "      %ge = stablehlo.compare GE, %a, %b : (tensor<f32>, tensor<f32>) -> tensor<i1>\n"
        "      %m = stablehlo.select %ge, %a, %b : tensor<i1>, tensor<f32>\n"
        "      %mi = stablehlo.select %ge, %ai, %bi : tensor<i1>, tensor<i32>\n"
        "      stablehlo.return %m, %mi : tensor<f32>, tensor<i32>\n"
        "    }\n"
        "  return %r#0, %r#1 : tensor<1x1xf32>, tensor<1x1xi32>\n}\n")
    x = np.array([1.0, 4.0, -2.0, 4.0, 0.5, 3.0], np.float32).reshape(1, 6, 1)
    i = np.arange(6, dtype=np.int32).reshape(1, 6, 1)
    exact_and_close(text, "reduction-degenerate-dim-remover", [x, i],
                    [np.full((1, 1), 4.0, np.float32), np.full((1, 1), 1, np.int32)])


# --- reduction-dimension-grouper -----------------------------------------------------------------
def test_grouper_merges_adjacent_dims_of_an_integer_sum():
    assert grouped([2, 3, 4, 5, 6], [0, 1, 3, 4]) == ([6, 4, 30], [0, 2])
    text = reduce_module([2, 3, 4, 5], [1, 2], "s32")
    stats, ops = statistics(text, "reduction-dimension-grouper")
    assert stats == {"reduction-dimension-grouper": {"group-adjacent-dimensions": 1}}
    x = RNG.integers(-100, 100, (2, 3, 4, 5)).astype(np.int32)
    exact_and_close(text, "reduction-dimension-grouper", [x], [x.sum(axis=(1, 2), dtype=np.int32)])


def test_grouper_float_sum_needs_reassociate():
    text = reduce_module([3, 40, 30], [1, 2])
    assert statistics(text, "reduction-dimension-grouper")[0] == {}
    x = RNG.standard_normal((3, 40, 30)).astype(np.float32)
    (after,) = run(text, "reduction-dimension-grouper{reassociate=true}", x)
    np.testing.assert_allclose(after, x.sum(axis=(1, 2)), rtol=1e-5, atol=1e-4)


# --- reduction-splitter --------------------------------------------------------------------------
def test_splitter_reduces_the_largest_dimension_first():
    assert not contiguous_reduction(4, [0, 2]) and contiguous_reduction(3, [0, 2])
    text = reduce_module([8, 3, 16, 5], [0, 2], "s32")
    stats, ops = statistics(text, "reduction-splitter")
    assert stats == {"reduction-splitter": {"split-reduction": 1}}
    assert ops.count("stablehlo.reduce") == 2
    x = RNG.integers(-1000, 1000, (8, 3, 16, 5)).astype(np.int32)
    exact_and_close(text, "reduction-splitter", [x], [x.sum(axis=(0, 2), dtype=np.int32)])


def test_splitter_float_max_splits_float_sum_needs_reassociate():
    text = reduce_module([4, 3, 5, 2], [0, 2], "f32", "maximum", "0xFF800000")
    x = RNG.standard_normal((4, 3, 5, 2)).astype(np.float32)
    x[1, 2, 3, 1] = np.nan
    expected = np.max(x, axis=(0, 2))
    exact_and_close(text, "reduction-splitter", [x], [expected])
    total = reduce_module([4, 3, 5, 2], [0, 2])
    assert statistics(total, "reduction-splitter")[0] == {}
    assert statistics(total, "reduction-splitter{reassociate=true}")[0] == {
        "reduction-splitter": {"split-reduction": 1}}
    # an init applied once per partial result would count twice: never split
    assert statistics(reduce_module([4, 3, 5, 2], [0, 2], "s32", "add", "7"), "reduction-splitter")[0] == {}


# --- reduction-layout-normalizer -----------------------------------------------------------------
def test_layout_normalizer_makes_a_row_reduction():
    text = reduce_module([4, 3, 5], [0, 2], "s32", "minimum", "2147483647")
    stats, ops = statistics(text, "reduction-layout-normalizer")
    assert stats == {"reduction-layout-normalizer": {"reduced-dimensions-last": 1}}
    assert "stablehlo.transpose" in ops
    x = RNG.integers(-50, 50, (4, 3, 5)).astype(np.int32)
    exact_and_close(text, "reduction-layout-normalizer", [x], [x.min(axis=(0, 2))])
    assert statistics(reduce_module([4, 3], [0]), "reduction-layout-normalizer")[0] == {}


# --- variadic-op-splitter ------------------------------------------------------------------------
def test_split_rounds_follow_xla():
    assert split_rounds(5, 2) == [[2, 2, 1], [2, 1], [2]]
    assert split_rounds(300, 128) == [[128, 128] + [1] * 44, [46]]
    assert split_rounds(3, 4) == [[3]]


def test_variadic_concatenate_becomes_a_tree():
    n = 7
    args = ", ".join(f"%a{k}: {tensor([k + 1, 2], 's32')}" for k in range(n))
    total = sum(range(1, n + 1))
    out = tensor([total, 2], "s32")
    operands = ", ".join(f"%a{k}" for k in range(n))
    types = ", ".join(tensor([k + 1, 2], "s32") for k in range(n))
    text = (f"func.func @main({args}) -> {out} {{\n  %r = stablehlo.concatenate {operands}, dim = 0 : "
            f"({types}) -> {out}\n  return %r : {out}\n}}\n")
    stats, ops = statistics(text, "variadic-op-splitter{max-operands=3}")
    assert stats == {"variadic-op-splitter": {"split-concatenate": 1}}
    assert ops.count("stablehlo.concatenate") == sum(g > 1 for r in split_rounds(n, 3) for g in r) == 3
    xs = [RNG.integers(-9, 9, (k + 1, 2)).astype(np.int32) for k in range(n)]
    exact_and_close(text, "variadic-op-splitter{max-operands=3}", xs, [np.concatenate(xs)])
    assert statistics(text, "variadic-op-splitter")[0] == {}


def test_variadic_op_splitter_option_errors():
    with pytest.raises(InvalidArgumentError, match="requires max-operands >= 2; got 1"):
        registry.get("variadic-op-splitter").from_options({"max-operands": "1"})


# --- cublas-pad-for-gemms ------------------------------------------------------------------------
def dot_module(m, k, n, et, out) -> str:
    a, b, r = tensor([m, k], et), tensor([k, n], et), tensor([m, n], out)
    return (f"func.func @main(%x: {a}, %y: {b}) -> {r} {{\n  %r = stablehlo.dot_general %x, %y, "
            f"contracting_dims = [1] x [0] : ({a}, {b}) -> {r}\n  return %r : {r}\n}}\n")


@pytest.mark.parametrize("et,out,dtype", [("f16", "f16", np.float16), ("bf16", "f32", ml_dtypes.bfloat16)])
def test_gemm_pad_keeps_float_bits(et, out, dtype):
    """Free dimensions 13 and 11 pad to 16 (contracting 37 stays): the same bits."""
    text = dot_module(13, 37, 11, et, out)
    stats, ops = statistics(text, "cublas-gemm-pad-for-tensor-cores")
    assert stats == {"cublas-pad-for-gemms": {f"pad-{np.dtype(dtype).name}": 1}}
    assert ops.count("stablehlo.pad") == 2 and ops[-1] == "stablehlo.slice"
    x, y = RNG.standard_normal((13, 37)).astype(dtype), RNG.standard_normal((37, 11)).astype(dtype)
    expected = (x.astype(np.float64) @ y.astype(np.float64)).astype(np.float16 if out == "f16"
                                                                    else np.float32)
    exact_and_close(text, "cublas-pad-for-gemms", [x, y], [expected], rtol=2e-2, atol=2e-2)


def test_gemm_pad_float_contracting_dimension_only_on_request():
    """By default a float contracting dimension stays (0 * 0 terms would make a -0.0 sum
    +0.0); ``float-contracting=true`` pads it as XLA does: the pinned IREE starts its sums
    at +0.0, so it gives the same bits, -0.0 products included."""
    text = dot_module(8, 3, 8, "f16", "f16")
    assert statistics(text, "cublas-pad-for-gemms")[0] == {}
    padded = "cublas-pad-for-gemms{float-contracting=true}"
    assert statistics(text, padded)[0] == {"cublas-pad-for-gemms": {"pad-float16": 1}}
    x, y = -np.ones((8, 3), np.float16), np.zeros((3, 8), np.float16)
    exact_and_close(text, padded, [x, y], [np.zeros((8, 8), np.float16)])


def test_gemm_pad_s8_pads_the_contracting_dimension_too():
    text = dot_module(5, 6, 3, "s8", "s32")
    stats, ops = statistics(text, "cublas-pad-for-gemms")
    assert stats == {"cublas-pad-for-gemms": {"pad-int8": 1}}
    module = parse(text)
    run_pipeline(module, "cublas-pad-for-gemms")
    (dot,) = ops_where(module, lambda o: o.name == "stablehlo.dot_general")
    assert [list(ir.RankedTensorType(v.type).shape) for v in dot.operands] == [[8, 8], [8, 4]]
    x = RNG.integers(-128, 128, (5, 6)).astype(np.int8)
    y = RNG.integers(-128, 128, (6, 3)).astype(np.int8)
    exact_and_close(text, "cublas-pad-for-gemms", [x, y], [x.astype(np.int32) @ y.astype(np.int32)])
    assert statistics(text, "cublas-pad-for-gemms{int8-multiple=1}")[0] == {}


# --- convolution-canonicalization ----------------------------------------------------------------
def test_nchw_convolution_becomes_nhwc_with_the_same_bits():
    lt, rt, ot = "tensor<2x6x7x7xf32>", "tensor<4x3x3x3xf32>", "tensor<2x4x3x3xf32>"
    text = (f"func.func @main(%x: {lt}, %w: {rt}) -> {ot} {{\n  %r = stablehlo.convolution(%x, %w) "
            "dim_numbers = [b, f, 0, 1]x[o, i, 0, 1]->[b, f, 0, 1], window = {stride = [2, 2], "
            "pad = [[1, 0], [0, 1]]} {batch_group_count = 1 : i64, feature_group_count = 2 : i64} : "
            f"({lt}, {rt}) -> {ot}\n  return %r : {ot}\n}}\n")
    stats, ops = statistics(text, "convolution-canonicalization")
    assert stats == {"convolution-canonicalization": {"canonical-dimensions": 1}}
    assert ops.count("stablehlo.transpose") == 3
    x = RNG.standard_normal((2, 6, 7, 7)).astype(np.float32)
    w = RNG.standard_normal((4, 3, 3, 3)).astype(np.float32)
    exact_and_close(text, "convolution-canonicalization", [x, w], [run_xla(text, x, w, strict=True)])
    module = parse(text)
    run_pipeline(module, "convolution-canonicalization")
    assert not run_pipeline(module, "convolution-canonicalization").changed


# --- convolution-4d-expander ----------------------------------------------------------------------
def conv_module(in_spatial, k_spatial, pads, strides, et="f32", features=(2, 3), batch=1) -> str:
    """A convolution of layout [b, f, spatial...] x [o, i, spatial...] -> [b, f, spatial...]."""
    n = len(in_spatial)
    out_spatial = [(s + lo + hi - k) // st + 1
                   for s, k, (lo, hi), st in zip(in_spatial, k_spatial, pads, strides, strict=True)]
    spatial = ", ".join(map(str, range(n)))
    lt = tensor([batch, features[0], *in_spatial], et)
    rt = tensor([features[1], features[0], *k_spatial], et)
    ot = tensor([batch, features[1], *out_spatial], et)
    window = f"stride = {list(strides)}, pad = {[list(p) for p in pads]}"
    return (f"func.func @main(%x: {lt}, %w: {rt}) -> {ot} {{\n  %r = stablehlo.convolution(%x, %w) "
            f"dim_numbers = [b, f, {spatial}]x[o, i, {spatial}]->[b, f, {spatial}], window = {{{window}}} "
            f"{{batch_group_count = 1 : i64, feature_group_count = 1 : i64}} : ({lt}, {rt}) -> {ot}\n"
            f"  return %r : {ot}\n}}\n")


def test_4d_convolution_loses_its_trivial_dimensions():
    text = conv_module([1, 4, 1, 3], [1, 2, 1, 2], [(0, 0), (1, 0), (0, 0), (0, 1)], [2, 1, 3, 1])
    stats, ops = statistics(text, "convolution-4d-expander")
    assert stats == {"convolution-4d-expander": {"drop-trivial-spatial-dimensions": 1}}
    module = parse(text)
    run_pipeline(module, "convolution-4d-expander")
    (conv,) = ops_where(module, lambda o: o.name == "stablehlo.convolution")
    assert ir.RankedTensorType(conv.operands[0].type).rank == 4
    x = RNG.standard_normal((1, 2, 1, 4, 1, 3)).astype(np.float32)
    w = RNG.standard_normal((3, 2, 1, 2, 1, 2)).astype(np.float32)
    exact_and_close(text, "convolution-4d-expander", [x, w], [run_xla(text, x, w, strict=True)])
    assert statistics(conv_module([1, 3], [1, 2], [(0, 0)] * 2, [1, 1]), "convolution-4d-expander")[0] == {}


# --- gpu-conv-padding-legalization ---------------------------------------------------------------
def padded_conv_module(size, k, pad, lhs_dilation, rhs_dilation, stride, et="f32") -> str:
    """A 1-D [b, 0, f] x [0, i, o] convolution with one batch, two input and three output
    features and the given window."""
    padded = (size - 1) * lhs_dilation + 1 + pad[0] + pad[1]
    out = (padded - ((k - 1) * rhs_dilation + 1)) // stride + 1
    lt, rt, ot = tensor([1, size, 2], et), tensor([k, 2, 3], et), tensor([1, out, 3], et)
    window = (f"stride = [{stride}], pad = [[{pad[0]}, {pad[1]}]], lhs_dilate = [{lhs_dilation}], "
              f"rhs_dilate = [{rhs_dilation}]")
    return (f"func.func @main(%x: {lt}, %w: {rt}) -> {ot} {{\n  %r = stablehlo.convolution(%x, %w) "
            f"dim_numbers = [b, 0, f]x[0, i, o]->[b, 0, f], window = {{{window}}} "
            f"{{batch_group_count = 1 : i64, feature_group_count = 1 : i64}} : ({lt}, {rt}) -> {ot}\n"
            f"  return %r : {ot}\n}}\n")


def test_conv_padding_moves_into_pad_and_slice_with_the_same_bits():
    text = padded_conv_module(6, 3, (2, -1), 2, 1, 1)
    stats, ops = statistics(text, "gpu-conv-padding-legalization")
    assert stats == {"gpu-conv-padding-legalization": {"explicit-input-padding": 1}}
    assert ops == ["stablehlo.constant", "stablehlo.pad", "stablehlo.slice", "stablehlo.convolution"]
    x = RNG.standard_normal((1, 6, 2)).astype(np.float32)
    w = RNG.standard_normal((3, 2, 3)).astype(np.float32)
    x[0, 5, 1] = np.inf  # the negative high padding crops it away, with or without the pass
    exact_and_close(text, "gpu-conv-padding-legalization", [x, w], [run_xla(text, x, w, strict=True)])
    canonical = padded_conv_module(6, 3, (1, 1), 1, 2, 1)
    assert statistics(canonical, "gpu-conv-padding-legalization")[0] == {}


def test_registry_names_and_aliases():
    for name in (*REDUCTION_PASSES, "variadic-op-splitter", "cublas-pad-for-gemms",
                 "convolution-canonicalization", "convolution-4d-expander",
                 "gpu-conv-padding-legalization"):
        assert registry.get(name).name == name and registry.get(name).summary()
    assert registry.get("cublas-gemm-pad-for-tensor-cores").name == "cublas-pad-for-gemms"
    assert [o.name for o in registry.get("reduction-splitter").options()] == ["reassociate"]


# --- generated modules ---------------------------------------------------------------------------
REDUCERS = {  # op -> {element type: init values}
    "add": {"f32": ["0.0", "-0.0", "1.5"], "s32": ["0", "3"]},
    "multiply": {"f32": ["1.0"], "s32": ["1", "2"]},
    "maximum": {"f32": ["0xFF800000", "0.5"], "s32": ["-2147483648", "1"]},
    "minimum": {"f32": ["0x7F800000"], "s32": ["2147483647", "-1"]},
    "xor": {"s32": ["0", "5"]},
}


@st.composite
def reduce_modules(draw) -> str:
    """One single-operand reduce of rank 1-4 (sizes 1-3: unit dimensions included) over a
    random set of dimensions, with a one-op reducer and an identity or other init."""
    op = draw(st.sampled_from(sorted(REDUCERS)))
    et = draw(st.sampled_from(sorted(REDUCERS[op])))
    init = draw(st.sampled_from(REDUCERS[op][et]))
    shape = draw(st.lists(st.integers(1, 3), min_size=1, max_size=4))
    dims = sorted(draw(st.sets(st.integers(0, len(shape) - 1))))
    return reduce_module(shape, dims, et, op, init)


@settings(max_examples=150, deadline=None)
@given(reduce_modules(), st.booleans())
def test_generated_reduces_stay_valid_and_each_pass_is_idempotent(text, reassociate):
    """Each reduction pass on many modules: valid IR (run_pipeline verifies), and a second
    run changes nothing; after grouping and splitting no reduction is left that the
    splitter would split."""
    module = parse(text)
    for name in REDUCTION_PASSES:
        spec = name if name == REDUCTION_PASSES[0] else f"{name}{{reassociate={str(reassociate).lower()}}}"
        run_pipeline(module, spec)
        assert not run_pipeline(module, spec).changed, (spec, module.operation.get_asm())


@settings(max_examples=examples(16), deadline=None)
@given(reduce_modules(), st.integers(0, 3))
def test_generated_reduces_keep_their_numbers(text, seed):
    """The four reduction passes in turn under the semantics check."""
    run_pipeline(parse(text), ",".join(REDUCTION_PASSES),
                 semantics_checker=lambda m: SemanticsChecker(m, seed=seed))


@st.composite
def dot_modules(draw) -> str:
    """A 2-D or batched matmul of f16, bf16 or s8 with sizes 1-9."""
    et = draw(st.sampled_from(["f16", "bf16", "s8"]))
    out = {"f16": draw(st.sampled_from(["f16", "f32"])), "bf16": "f32", "s8": "s32"}[et]
    m, k, n = (draw(st.integers(1, 9)) for _ in range(3))
    batch = [draw(st.integers(1, 2))] if draw(st.booleans()) else []
    a, b, r = tensor(batch + [m, k], et), tensor(batch + [k, n], et), tensor(batch + [m, n], out)
    nb = len(batch)
    dn = ("batching_dims = [0] x [0], " if nb else "") + f"contracting_dims = [{nb + 1}] x [{nb}]"
    return (f"func.func @main(%x: {a}, %y: {b}) -> {r} {{\n  %r = stablehlo.dot_general %x, %y, {dn} : "
            f"({a}, {b}) -> {r}\n  return %r : {r}\n}}\n")


@settings(max_examples=examples(8), deadline=None)
@given(dot_modules(), st.integers(0, 3))
def test_generated_gemms_keep_their_numbers(text, seed):
    settles_with_the_same_numbers(text, "cublas-pad-for-gemms", seed)


@settings(max_examples=examples(8), deadline=None)
@given(grouped_convolutions(), st.integers(0, 3))
def test_generated_convolutions_keep_their_numbers(text, seed):
    """Convolutions of every layout (with groups, strides, padding) under the semantics check."""
    settles_with_the_same_numbers(text, "convolution-canonicalization", seed)


@st.composite
def concat_modules(draw) -> tuple[str, int]:
    n = draw(st.integers(1, 9))
    sizes = [draw(st.integers(1, 2)) for _ in range(n)]
    out = tensor([sum(sizes), 2], "f32")
    args = ", ".join(f"%a{k}: {tensor([s, 2], 'f32')}" for k, s in enumerate(sizes))
    types = ", ".join(tensor([s, 2], "f32") for s in sizes)
    operands = ", ".join(f"%a{k}" for k in range(n))
    text = (f"func.func @main({args}) -> {out} {{\n  %r = stablehlo.concatenate {operands}, dim = 0 : "
            f"({types}) -> {out}\n  return %r : {out}\n}}\n")
    return text, draw(st.integers(2, 4))


@settings(max_examples=examples(8), deadline=None)
@given(concat_modules(), st.integers(0, 3))
def test_generated_concatenates_keep_their_numbers(case, seed):
    text, limit = case
    module = settles_with_the_same_numbers(text, f"variadic-op-splitter{{max-operands={limit}}}", seed)
    concatenates = ops_where(module, lambda o: o.name == "stablehlo.concatenate")
    assert all(len(op.operands) <= limit for op in concatenates)


@st.composite
def trivial_dim_convolutions(draw) -> tuple[str, bool]:
    """A convolution of 2-4 spatial dimensions (sizes 1-3, some padded, strided), f32 or
    s32, and whether to run the expander with ``all-ranks``."""
    n = draw(st.integers(2, 4))
    in_spatial = [draw(st.sampled_from([1, 1, 2, 3])) for _ in range(n)]
    pads = [(draw(st.integers(0, 1)), draw(st.integers(0, 1))) for _ in range(n)]
    k_spatial = [draw(st.integers(1, s + lo + hi)) for s, (lo, hi) in zip(in_spatial, pads, strict=True)]
    strides = [draw(st.integers(1, 2)) for _ in range(n)]
    et = draw(st.sampled_from(["f32", "s32"]))
    return conv_module(in_spatial, k_spatial, pads, strides, et), n < 4 or draw(st.booleans())


@settings(max_examples=examples(8), deadline=None)
@given(trivial_dim_convolutions(), st.integers(0, 3))
def test_generated_trivial_dim_convolutions_keep_their_numbers(case, seed):
    text, all_ranks = case
    spec = f"convolution-4d-expander{{all-ranks={str(all_ranks).lower()}}}"
    settles_with_the_same_numbers(text, spec, seed)


@st.composite
def padded_convolutions(draw) -> str:
    """A 1-D convolution with padding in [-1, 2] on each side, lhs and rhs dilation 1-2 and
    stride 1-2, f32 or s32, whose output is not empty."""
    size, k = draw(st.integers(1, 4)), draw(st.integers(1, 3))
    lhs_dilation, rhs_dilation, stride = (draw(st.integers(1, 2)) for _ in range(3))
    pad = (draw(st.integers(-1, 2)), draw(st.integers(-1, 2)))
    padded = (size - 1) * lhs_dilation + 1 + pad[0] + pad[1]
    if padded < (k - 1) * rhs_dilation + 1:
        pad = (pad[0], pad[1] + (k - 1) * rhs_dilation + 1 - padded)
    return padded_conv_module(size, k, pad, lhs_dilation, rhs_dilation, stride,
                              draw(st.sampled_from(["f32", "s32"])))


@settings(max_examples=examples(8), deadline=None)
@given(padded_convolutions(), st.integers(0, 3))
def test_generated_padded_convolutions_keep_their_numbers(text, seed):
    settles_with_the_same_numbers(text, "gpu-conv-padding-legalization", seed)
