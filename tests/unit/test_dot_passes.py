"""transpose-folding, dot-decomposer, batch-dot-simplification and
convolution-group-converter: builder programs compiled with and without each pass
against numpy (and XLA CPU), what each pass leaves in the IR, options, and hypothesis
properties over generated dot and convolution modules (valid IR, and the same numbers
under the semantics check of ``hlo-opt --verify-semantics``)."""

from __future__ import annotations

import string

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from iree.compiler import ir

import hlo_mlir
from hlo_mlir import (
    ConvGeneralDilated,
    DotDimensionNumbers,
    DotGeneral,
    PrecisionConfig,
    Shape,
    Transpose,
    ir_access,
)
from hlo_mlir.context import get_context
from hlo_mlir.semantics import SemanticsChecker, random_inputs, tolerance
from pipelines import registry
from pipelines.contractions import dot_dims, free_dims
from pipelines.expanders.dot_decomposer import is_canonical
from pipelines.matchers import ops_where
from pipelines.pipeline import run_pipeline
from pipelines.simplifiers.transpose_folding import dot_foldable
from tests.builders import computation
from tests.oracle import assert_close, check, run_iree, run_xla
from tests.properties import examples

DOT_PASSES = "transpose-folding,batch-dot-simplification,dot-decomposer"
RNG = np.random.default_rng(11)


def names(module: ir.Module) -> list[str]:
    """The op names of ``module``'s functions, in order."""
    return [op.name for op in ops_where(module, lambda o: o.name.startswith("stablehlo."))]


def statistics(comp, passes: str) -> tuple[dict, list[str]]:
    """The statistics of ``passes`` on a copy of ``comp``'s module and the ops left."""
    module = hlo_mlir.compiler.as_module(comp)
    result = run_pipeline(module, passes).statistics()
    return {name: dict(counter) for name, counter in result.items()}, names(module)


def dot_general_reference(x, y, dnums: DotDimensionNumbers, dtype) -> np.ndarray:
    """DotGeneral in numpy (einsum, wide accumulation): batch, lhs free, rhs free."""
    letters = iter(string.ascii_letters)
    lhs = [next(letters) for _ in range(x.ndim)]
    rhs = [next(letters) for _ in range(y.ndim)]
    for ld, rd in zip(dnums.lhs_contracting_dimensions + dnums.lhs_batch_dimensions,
                      dnums.rhs_contracting_dimensions + dnums.rhs_batch_dimensions, strict=True):
        rhs[rd] = lhs[ld]
    batch = [lhs[d] for d in dnums.lhs_batch_dimensions]
    lfree = [lhs[d] for d in free_dims(x.ndim, dnums.lhs_contracting_dimensions, dnums.lhs_batch_dimensions)]
    rfree = [rhs[d] for d in free_dims(y.ndim, dnums.rhs_contracting_dimensions, dnums.rhs_batch_dimensions)]
    wide = {"c": np.complex128, "f": np.float64}.get(np.dtype(dtype).kind, np.int64)
    out = np.einsum(f"{''.join(lhs)},{''.join(rhs)}->{''.join(batch + lfree + rfree)}",
                    x.astype(wide), y.astype(wide))
    return np.asarray(out).astype(dtype)


def sample(shape, dtype) -> np.ndarray:
    dtype = np.dtype(dtype)
    if dtype.kind in "iu":
        return RNG.integers(-4, 5, shape).astype(dtype)
    if dtype.kind == "c":
        return (RNG.standard_normal(shape) + 1j * RNG.standard_normal(shape)).astype(dtype)
    return RNG.standard_normal(shape).astype(dtype)


def same_with_and_without(comp, passes: str, args, expected, iree: bool = True, **tolerance) -> None:
    """``comp`` gives ``expected`` compiled without any pass and with ``passes`` (IREE), and
    so does its module before and after ``passes`` on XLA CPU (strict). ``iree=False`` for
    c64 dots, which the pinned IREE cannot compile (docs/iree-defects.md, "complex dot")."""
    if iree:
        for spec in ("", passes):
            assert_close(run_iree(comp, *args, passes=spec), expected, what=f"passes={spec!r}", **tolerance)
    module = hlo_mlir.compiler.as_module(comp)
    assert_close(run_xla(module, *args, strict=True), expected, what="XLA before", **tolerance)
    run_pipeline(module, passes)
    assert_close(run_xla(module, *args, strict=True), expected, what=f"XLA after {passes}", **tolerance)


class XlaSemantics:
    """The semantics check of ``SemanticsChecker`` with XLA CPU (strict) running the module:
    for c64 dots, which the pinned IREE cannot compile."""

    def __init__(self, module: ir.Module, seed: int):
        self.module = module
        entry = ir_access.entry_function(module)
        shapes = [Shape.from_mlir_type(t) for t in ir_access.function_type(entry).inputs]
        self.inputs = random_inputs(shapes, seed)
        self.outputs = run_xla(module, *self.inputs, strict=True)

    def check(self, pass_name: str) -> None:
        after = run_xla(self.module, *self.inputs, strict=True)
        rtol, atol = tolerance(self.outputs.dtype)
        assert_close(after, self.outputs, rtol, atol, what=f"after {pass_name}")


def transposed_dot(shapes, dtype, perms, dnums, preferred=None, precision=None):
    """DotGeneral(Transpose(x, perms[0]), Transpose(y, perms[1])) (None: no transpose)."""
    def fn(b, x, y):
        operands = [v if p is None else Transpose(v, p) for v, p in zip((x, y), perms, strict=True)]
        return DotGeneral(*operands, dnums, precision, preferred)
    return computation("dot", [f"{dtype}{list(s)}".replace(" ", "") for s in shapes], fn)


# --- transpose-folding ---------------------------------------------------------------------------
def test_fold_transposed_lhs():
    """XLA FoldDotTranspose: dot(transpose(x), y) contracts x's dimension 0; precision kept."""
    x, y = sample((4, 3), np.float32), sample((4, 5), np.float32)
    dnums = DotDimensionNumbers((1,), (0,))
    comp = transposed_dot([(4, 3), (4, 5)], "f32", ([1, 0], None), dnums,
                          precision=PrecisionConfig(("HIGHEST", "HIGHEST")))
    stats, ops = statistics(comp, "transpose-folding")
    assert stats == {"transpose-folding": {"dot-lhs": 1}}
    assert "stablehlo.transpose" not in ops
    check(comp, [x, y], x.T @ y, passes="transpose-folding", rtol=1e-5, atol=1e-5)


def test_fold_both_operands_of_an_integer_batch_dot():
    """Both transposes fold, batch dimensions with them; s32 x s32 -> s64 stays s64."""
    x, y = sample((3, 2, 4), np.int32), sample((5, 4, 2), np.int32)
    dnums = DotDimensionNumbers((2,), (1,), (0,), (0,))
    comp = transposed_dot([(3, 2, 4), (5, 4, 2)], "s32", ([1, 0, 2], [2, 1, 0]), dnums, preferred=np.int64)
    stats, ops = statistics(comp, "transpose-folding")
    assert stats == {"transpose-folding": {"dot-lhs-rhs": 1}}
    assert ops == ["stablehlo.dot_general"]
    expected = dot_general_reference(x.transpose(1, 0, 2), y.transpose(2, 1, 0), dnums, np.int64)
    same_with_and_without(comp, "transpose-folding", [x, y], expected)


def test_free_dimension_reorder_does_not_fold():
    """A transpose swapping two free dimensions stays (the result order would change)."""
    dnums = DotDimensionNumbers((2,), (0,))
    comp = transposed_dot([(3, 2, 4), (4, 5)], "c64", ([1, 0, 2], None), dnums)
    stats, ops = statistics(comp, "transpose-folding")
    assert stats == {} and ops.count("stablehlo.transpose") == 1
    x, y = sample((3, 2, 4), np.complex64), sample((4, 5), np.complex64)
    expected = dot_general_reference(x.transpose(1, 0, 2), y, dnums, np.complex64)
    same_with_and_without(comp, "transpose-folding", [x, y], expected, iree=False, rtol=1e-5, atol=1e-5)


def test_row_column_only_follows_xla():
    """XLA DontFoldTransposeOfBatchDimByDefault and DontFoldTransposeOfRank1Dot: refused
    with ``row-column-only``, folded (exactly) by default."""
    x, y = sample((2, 3), np.float32), sample((3, 2), np.float32)
    batch = DotDimensionNumbers((1,), (1,), (0,), (0,))
    comp = transposed_dot([(2, 3), (3, 2)], "f32", (None, [1, 0]), batch)
    assert statistics(comp, "transpose-folding{row-column-only=true}")[0] == {}
    assert statistics(comp, "transpose-folding")[0] == {"transpose-folding": {"dot-rhs": 1}}
    expected = np.einsum("bk,kb->b", x, y)
    same_with_and_without(comp, "transpose-folding", [x, y], expected, rtol=1e-5, atol=1e-5)
    v = sample((3,), np.float32)
    rank1 = transposed_dot([(3,), (3, 2)], "f32", (None, [1, 0]), DotDimensionNumbers((0,), (1,)))
    assert statistics(rank1, "transpose-folding{row-column-only=true}")[0] == {}
    same_with_and_without(rank1, "transpose-folding", [v, y], v @ y, rtol=1e-5, atol=1e-5)


def test_dot_foldable():
    """XLA's IsRowColumnTransposeDotOperand: batch dims in place, one contracting dimension."""
    assert dot_foldable([1, 0], [1], [])
    assert dot_foldable([0, 2, 1], [2], [0], row_column_only=True)
    assert not dot_foldable([1, 0, 2], [2], [0], row_column_only=True)  # moves the batch dimension
    assert dot_foldable([1, 0, 2], [2], [0])
    assert not dot_foldable([2, 1, 0], [0], [])  # free dimensions 1, 2 -> 1, 0


def test_fold_convolution_input_and_kernel():
    """conv(transpose(x), transpose(w)) with groups and strides reads x and w directly."""
    x, w = sample((1, 7, 4), np.float32), sample((3, 2, 6), np.float32)

    def fn(b, x, w):
        return ConvGeneralDilated(Transpose(x, [0, 2, 1]), Transpose(w, [2, 1, 0]), [2], [(1, 0)],
                                  feature_group_count=2)
    comp = computation("conv", ["f32[1,7,4]", "f32[3,2,6]"], fn)
    stats, ops = statistics(comp, "transpose-folding")
    assert stats == {"transpose-folding": {"convolution": 1}}
    assert "stablehlo.transpose" not in ops
    expected = run_xla(comp, x, w, strict=True)
    same_with_and_without(comp, "transpose-folding", [x, w], expected, rtol=1e-5, atol=1e-5)
    assert statistics(comp, "transpose-folding{fold-convolutions=false}")[0] == {}


# --- dot-decomposer ------------------------------------------------------------------------------
@pytest.mark.parametrize("dtype", [np.float32, np.int32, np.complex64])
def test_decompose_general_dot(dtype):
    """Two contracting dimensions, a batch dimension in the middle, two free ones: one
    canonical batch matmul between transposes/reshapes."""
    x, y = sample((2, 4, 5, 3), dtype), sample((5, 3, 2, 6, 2), dtype)
    dnums = DotDimensionNumbers((0, 3), (2, 1), (2,), (0,))
    et = {np.float32: "f32", np.int32: "s32", np.complex64: "c64"}[dtype]
    comp = transposed_dot([(2, 4, 5, 3), (5, 3, 2, 6, 2)], et, (None, None), dnums)
    stats, ops = statistics(comp, "dot-decomposer")
    assert stats == {"dot-decomposer": {"dot-decomposer": 1}}
    assert ops.count("stablehlo.dot_general") == 1 and ops[-1] == "stablehlo.reshape"
    expected = dot_general_reference(x, y, dnums, dtype)
    same_with_and_without(comp, "dot-decomposer", [x, y], expected, iree=dtype != np.complex64,
                          rtol=1e-5, atol=1e-5)


def test_decomposer_leaves_canonical_dots_and_reaches_its_form():
    batch_matmul = DotDimensionNumbers((2,), (1,), (0,), (0,))
    comp = transposed_dot([(2, 3, 4), (2, 4, 5)], "f32", (None, None), batch_matmul)
    assert statistics(comp, "dot-decomposer") == ({}, ["stablehlo.dot_general"])
    batch_last = DotDimensionNumbers((0,), (2,), (2,), (0,))
    comp = transposed_dot([(4, 3, 2), (2, 5, 4)], "f32", (None, None), batch_last)
    module = hlo_mlir.compiler.as_module(comp)
    run_pipeline(module, "dot-decomposer")
    (dot,) = ops_where(module, lambda o: o.name == "stablehlo.dot_general")
    lhs, rhs = (ir.RankedTensorType(v.type).rank for v in dot.operands)
    assert is_canonical(dot_dims(dot), lhs, rhs)
    assert not run_pipeline(module, "dot-decomposer").changed


# --- batch-dot-simplification --------------------------------------------------------------------
def test_unit_batch_dimensions_go():
    """XLA ElideMultipleDegenerateBatchDotDims: of batch sizes (1, 2, 1) two go."""
    x, y = sample((1, 2, 1, 3, 4), np.float32), sample((1, 2, 1, 4, 5), np.float32)
    dnums = DotDimensionNumbers((4,), (3,), (0, 1, 2), (0, 1, 2))
    comp = transposed_dot([(1, 2, 1, 3, 4), (1, 2, 1, 4, 5)], "f32", (None, None), dnums)
    stats, _ = statistics(comp, "batch-dot-simplification")
    assert stats == {"batch-dot-simplification": {"batch-dot-simplification": 1}}
    module = hlo_mlir.compiler.as_module(comp)
    run_pipeline(module, "batch-dot-simplification")
    (dot,) = ops_where(module, lambda o: o.name == "stablehlo.dot_general")
    assert dot_dims(dot).lhs_batch_dimensions == (0,)
    same_with_and_without(comp, "batch-dot-simplification", [x, y], x @ y, rtol=1e-5, atol=1e-5)


def test_unit_batch_anywhere_and_xla_conditions():
    """A unit batch pair at lhs dimension 2 / rhs dimension 0 goes by default; XLA's
    conditions (batch dimensions 0..n-1) refuse it."""
    x, y = sample((3, 4, 1), np.int32), sample((1, 4, 5), np.int32)
    dnums = DotDimensionNumbers((1,), (1,), (2,), (0,))
    comp = transposed_dot([(3, 4, 1), (1, 4, 5)], "s32", (None, None), dnums)
    assert statistics(comp, "batch-dot-simplification")[0] == {
        "batch-dot-simplification": {"batch-dot-simplification": 1}}
    assert statistics(comp, "batch-dot-simplification{xla-conditions=true}")[0] == {}
    expected = dot_general_reference(x, y, dnums, np.int32)
    same_with_and_without(comp, "batch-dot-simplification", [x, y], expected)


# --- convolution-group-converter -----------------------------------------------------------------
@pytest.mark.parametrize("groups", [("feature", 2), ("feature", 3), ("batch", 2)])
def test_grouped_convolutions_become_one_group_each(groups):
    """feature_group_count / batch_group_count G: G convolutions and a concatenate, the
    numbers of XLA's grouped convolution (NHWC input, HWIO kernel)."""
    kind, g = groups
    batch, features = (2 * g, 3) if kind == "batch" else (2, 2 * g)
    kernel_in = features // g if kind == "feature" else features
    x, w = sample((batch, 5, 6, features), np.float32), sample((2, 3, kernel_in, 2 * g), np.float32)

    def fn(b, x, w):
        return ConvGeneralDilated(x, w, [1, 2], [(1, 0), (0, 1)], None, [1, 2], ("NHWC", "HWIO", "NHWC"),
                                  feature_group_count=g if kind == "feature" else 1,
                                  batch_group_count=g if kind == "batch" else 1)
    comp = computation("grouped", [f"f32[{batch},5,6,{features}]", f"f32[2,3,{kernel_in},{2 * g}]"], fn)
    stats, ops = statistics(comp, "convolution-group-converter")
    assert stats == {"convolution-group-converter": {f"{kind}-groups": 1}}
    assert ops.count("stablehlo.convolution") == g and ops[-1] == "stablehlo.concatenate"
    expected = run_xla(comp, x, w, strict=True)
    same_with_and_without(comp, "convolution-group-converter", [x, w], expected, rtol=1e-5, atol=1e-5)
    assert statistics(comp, f"convolution-group-converter{{max-groups={g - 1}}}")[0] == {}


def test_options_and_summaries():
    assert [o.name for o in registry.get("transpose-folding").options()] == [
        "fold-convolutions", "row-column-only"]
    assert registry.get("dot-decomposer").options() == []
    assert registry.get("batch-dot-simplification").from_options({"xla-conditions": "true"}).xla_conditions
    assert registry.get("convolution-group-converter").from_options({"max-groups": "4"}).max_groups == 4
    assert "transpose" in registry.get("transpose-folding").summary()


# --- generated modules ---------------------------------------------------------------------------
TYPES = {"f32": "f32", "s32": "i32", "c64": "complex<f32>"}


def _tensor(dims, et: str) -> str:
    return f"tensor<{'x'.join(map(str, dims))}{'x' if dims else ''}{et}>"


@st.composite
def dot_modules(draw, types=("f32", "s32", "c64")) -> str:
    """A module of one dot_general with random batch/contracting/free dimensions (sizes
    0-3: unit and empty dimensions included), operands in a random order of
    dimensions, each sometimes given as a transpose of another layout, of ``types``."""
    et = TYPES[draw(st.sampled_from(types))]
    nb, nc = draw(st.integers(0, 2)), draw(st.integers(0, 2))
    nl, nr = draw(st.integers(0, 2)), draw(st.integers(0, 2))
    size = st.integers(0, 3)
    batch = [draw(size) for _ in range(nb)]
    contracting = [draw(size) for _ in range(nc)]
    shared = [("b", i) for i in range(nb)] + [("c", i) for i in range(nc)]
    roles_l = shared + [("f", draw(size)) for _ in range(nl)]
    roles_r = shared + [("f", draw(size)) for _ in range(nr)]
    roles_l, roles_r = draw(st.permutations(roles_l)), draw(st.permutations(roles_r))

    def dims(roles):
        return [batch[i] if r == "b" else contracting[i] if r == "c" else i for r, i in roles]

    def where(roles, kind):
        return sorted(((i, d) for d, (r, i) in enumerate(roles) if r == kind))

    lb, rb = ([d for _, d in where(roles, "b")] for roles in (roles_l, roles_r))
    lc, rc = ([d for _, d in where(roles, "c")] for roles in (roles_l, roles_r))
    ldims, rdims = dims(roles_l), dims(roles_r)
    result = (batch + [ldims[d] for d in range(len(ldims)) if d not in lb + lc]
              + [rdims[d] for d in range(len(rdims)) if d not in rb + rc])
    lines, args = [], []
    operands = []
    for k, shape in enumerate((ldims, rdims)):
        perm = draw(st.permutations(range(len(shape)))) if draw(st.booleans()) else None
        if perm is None:
            args.append(_tensor(shape, et))
            operands.append(f"%arg{k}")
            continue
        # the argument is laid out so that transpose(arg, perm) has ``shape``
        source = [0] * len(shape)
        for d, p in enumerate(perm):
            source[p] = shape[d]
        args.append(_tensor(source, et))
        lines.append(f"  %t{k} = stablehlo.transpose %arg{k}, dims = {list(perm)} : "
                     f"({_tensor(source, et)}) -> {_tensor(shape, et)}")
        operands.append(f"%t{k}")
    wide = {"i32": "i64", "f32": "f32", "complex<f32>": "complex<f32>"}[et] if draw(st.booleans()) else et
    precision = draw(st.sampled_from(["", ", precision = [HIGHEST, DEFAULT]"]))
    out = _tensor(result, wide)
    lines.append(f"  %r = stablehlo.dot_general {operands[0]}, {operands[1]}, batching_dims = {lb} x {rb}, "
                 f"contracting_dims = {lc} x {rc}{precision} : "
                 f"({_tensor(ldims, et)}, {_tensor(rdims, et)}) -> {out}")
    signature = ", ".join(f"%arg{k}: {t}" for k, t in enumerate(args))
    return f"func.func @main({signature}) -> {out} {{\n" + "\n".join(lines) + f"\n  return %r : {out}\n}}\n"


def parse(text: str) -> ir.Module:
    with get_context():
        return ir.Module.parse(text)


@settings(max_examples=200, deadline=None)
@given(dot_modules())
def test_generated_dots_stay_valid_and_each_pass_is_idempotent(text):
    """The three dot passes in turn on many modules: valid IR (run_pipeline verifies), a
    second run of each changes nothing, and the dot left is canonical without unit batch
    dimensions."""
    module = parse(text)
    for name in DOT_PASSES.split(","):
        run_pipeline(module, name)
        assert not run_pipeline(module, name).changed, (name, module.operation.get_asm())
    after = module.operation.get_asm()
    (dot,) = ops_where(module, lambda o: o.name == "stablehlo.dot_general")
    lhs, rhs = (ir.RankedTensorType(v.type) for v in dot.operands)
    dnums = dot_dims(dot)
    assert is_canonical(dnums, lhs.rank, rhs.rank), after
    assert all(lhs.shape[d] != 1 for d in dnums.lhs_batch_dimensions), after


@settings(max_examples=examples(10), deadline=None)
@given(dot_modules(types=("f32", "s32")), st.integers(0, 3))
def test_generated_dots_keep_their_numbers(text, seed):
    """The three dot passes under the semantics check (``hlo-opt --verify-semantics``):
    compiled and run before and after each pass on the same random inputs, no difference."""
    run_pipeline(parse(text), DOT_PASSES, semantics_checker=lambda m: SemanticsChecker(m, seed=seed))


@settings(max_examples=40, deadline=None)
@given(dot_modules(types=("c64", "f32", "s32")), st.integers(0, 3))
def test_generated_dots_keep_their_numbers_on_xla(text, seed):
    """The same check with XLA CPU running the module before and after each pass: c64
    dots included, which the pinned IREE cannot compile."""
    run_pipeline(parse(text), DOT_PASSES, semantics_checker=lambda m: XlaSemantics(m, seed))


@st.composite
def grouped_convolutions(draw) -> str:
    """A 1-D convolution with feature or batch groups (2 or 3), a random layout, stride and
    padding, its input sometimes given as a transpose, in f32 or s32."""
    et = TYPES[draw(st.sampled_from(["f32", "s32"]))]
    g = draw(st.integers(2, 3))
    feature = draw(st.booleans())
    if feature:
        n, c = draw(st.integers(1, 2)), g * draw(st.integers(1, 2))
    else:
        n, c = g, draw(st.integers(1, 2))
    width, k = draw(st.integers(2, 5)), draw(st.integers(1, 2))
    out_features = g * draw(st.integers(1, 2))
    lhs_layout = draw(st.permutations("bf0"))
    rhs_layout = draw(st.permutations("oi0"))
    out_layout = draw(st.permutations("bf0"))
    stride, low, high = draw(st.integers(1, 2)), draw(st.integers(0, 1)), draw(st.integers(0, 1))
    spatial = (width + low + high - k) // stride + 1
    sizes_l = {"b": n, "f": c, "0": width}
    sizes_r = {"o": out_features, "i": c // g if feature else c, "0": k}
    sizes_o = {"b": n if feature else n // g, "f": out_features, "0": spatial}
    ltype = _tensor([sizes_l[a] for a in lhs_layout], et)
    rtype = _tensor([sizes_r[a] for a in rhs_layout], et)
    otype = _tensor([sizes_o[a] for a in out_layout], et)
    lines, lhs, arg0 = [], "%arg0", ltype
    if draw(st.booleans()):
        perm = draw(st.permutations(range(3)).filter(lambda p: list(p) != [0, 1, 2]))
        source = [0] * 3
        for d, p in enumerate(perm):
            source[p] = [sizes_l[a] for a in lhs_layout][d]
        arg0 = _tensor(source, et)
        lines.append(f"  %t = stablehlo.transpose %arg0, dims = {list(perm)} : ({arg0}) -> {ltype}")
        lhs = "%t"
    counts = (g, 1) if feature else (1, g)
    lines.append(
        f"  %r = stablehlo.convolution({lhs}, %arg1) dim_numbers = [{', '.join(lhs_layout)}]x"
        f"[{', '.join(rhs_layout)}]->[{', '.join(out_layout)}], window = {{stride = [{stride}], "
        f"pad = [[{low}, {high}]]}} "
        f"{{feature_group_count = {counts[0]} : i64, batch_group_count = {counts[1]} : i64}}"
        f" : ({ltype}, {rtype}) -> {otype}")
    return (f"func.func @main(%arg0: {arg0}, %arg1: {rtype}) -> {otype} {{\n" + "\n".join(lines)
            + f"\n  return %r : {otype}\n}}\n")


@settings(max_examples=examples(8), deadline=None)
@given(grouped_convolutions(), st.integers(0, 3))
def test_generated_grouped_convolutions_keep_their_numbers(text, seed):
    """transpose-folding and convolution-group-converter under the semantics check: no
    grouped convolution and no transpose left, and the same numbers."""
    module = parse(text)
    run_pipeline(module, "transpose-folding,convolution-group-converter",
                 semantics_checker=lambda m: SemanticsChecker(m, seed=seed))
    ops = names(module)
    assert "stablehlo.transpose" not in ops, module.operation.get_asm()
    assert ops.count("stablehlo.convolution") >= 2, module.operation.get_asm()
