"""zero-sized-hlo-elimination, sort-simplifier, tuple-simplifier, logistic-expander and
slice-sinker: builder programs compiled with and without each pass against numpy and XLA
CPU, options, and hypothesis properties over generated modules (no crash, valid IR, and
the same numbers under the semantics check of ``hlo-opt --verify-semantics``)."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from iree.compiler import ir

import hlo_mlir
from hlo_mlir import (
    ConcatInDim,
    CreateScalarLtComputation,
    Dot,
    Exp,
    GetTupleElement,
    Logistic,
    Select,
    Slice,
    Sort,
    Tuple,
)
from hlo_mlir.context import get_context
from hlo_mlir.errors import InvalidArgumentError
from hlo_mlir.semantics import SemanticsChecker
from pipelines import registry
from pipelines.matchers import ops_where, producer
from pipelines.pipeline import run_pipeline
from pipelines.simplifiers.sort_simplifier import used_operands
from pipelines.simplifiers.zero_sized_hlo_elimination import is_zero_sized
from tests.builders import computation
from tests.oracle import assert_close, check, run_iree
from tests.properties import examples

RNG = np.random.default_rng(11)


def stats(comp, passes: str) -> tuple[dict, ir.Module]:
    """The statistics of ``passes`` run on a copy of ``comp``'s module, and that module."""
    module = hlo_mlir.compiler.as_module(comp)
    result = run_pipeline(module, passes).statistics()
    return {name: dict(counter) for name, counter in result.items()}, module


def count(module: ir.Module, name: str) -> int:
    return len(ops_where(module, lambda op: op.name == name))


def same_with_and_without(comp, passes: str, args, expected) -> None:
    """``comp`` gives numpy's ``expected`` compiled without any pass and with ``passes``, and
    XLA CPU gives it too."""
    for spec in ("", passes):
        assert_close(run_iree(comp, *args, passes=spec), expected, what=f"passes={spec!r}")
    check(comp, list(args), expected, passes=passes)


# --- zero-sized-hlo-elimination ------------------------------------------------------------------
def test_zero_sized_chain_and_dot_become_constants():
    """exp(slice(x)[2:2]) + slice and a dot with an empty result are constants; the concatenates
    that read them give the other operand's numbers (XLA ZeroSizedHloElimination tests)."""
    def fn(b, x, a, m):
        empty = Slice(x, [2], [2], [1])
        row = ConcatInDim(b, [Exp(empty) + empty, x], 0)
        d = Dot(a, m)  # f32[3, 0]
        return Tuple(b, [row, ConcatInDim(b, [d, a], 1)])

    comp = computation("zero_sized", ["f32[4]", "f32[3,4]", "f32[4,0]"], fn)
    result, module = stats(comp, "zero-sized-hlo-elimination")
    assert result["zero-sized-hlo-elimination"]["erased-op"] == 4  # slice, exp, add, dot
    for name in ("stablehlo.slice", "stablehlo.exponential", "stablehlo.dot_general", "stablehlo.dot"):
        assert count(module, name) == 0, name
    x = RNG.standard_normal(4).astype(np.float32)
    a = RNG.standard_normal((3, 4)).astype(np.float32)
    same_with_and_without(comp, "zero-sized-hlo-elimination", (x, a, np.zeros((4, 0), np.float32)), (x, a))


def test_zero_sized_leaves_nonempty_programs_alone():
    comp = computation("nonempty", ["f32[4]"], lambda b, x: Exp(Slice(x, [1], [3], [1])))
    result, _ = stats(comp, "zero-sized-hlo-elimination")
    assert result == {}


# --- sort-simplifier ---------------------------------------------------------------------------------
def sort3(b, k, v, w):
    return Sort([k, v, w], CreateScalarLtComputation([np.float32, np.int32, np.uint32]), dimension=1)


def test_sort_drops_the_unused_value():
    """Of keys, values and more values, the middle result is unused (XLA
    RemoveUnusedSortOperandTuple); tuple-simplifier first folds the builder's tuple, which
    reads every result."""
    def fn(b, k, v, w):
        r = sort3(b, k, v, w)
        return Tuple(b, [GetTupleElement(r, 0), GetTupleElement(r, 2)])

    comp = computation("sort3", ["f32[3,5]", "s32[3,5]", "u32[3,5]"], fn)
    passes = "tuple-simplifier,sort-simplifier"
    result, module = stats(comp, passes)
    assert result["sort-simplifier"] == {"unused-operand": 1}
    assert [len(op.operands) for op in ops_where(module, lambda op: op.name == "stablehlo.sort")] == [2]
    k = RNG.permutation(15).reshape(3, 5).astype(np.float32)
    v = np.arange(15, dtype=np.int32).reshape(3, 5)
    w = (np.arange(15, dtype=np.uint32) * 7).reshape(3, 5)
    order = np.argsort(k, axis=1)
    expected = (np.take_along_axis(k, order, 1), np.take_along_axis(w, order, 1))
    same_with_and_without(comp, passes, (k, v, w), expected)


def test_sort_drops_an_unused_key_the_comparator_does_not_read():
    """XLA RemoveUnusedFirstOperand: the comparator reads only operand 1."""
    less = hlo_mlir.CreateScalarComparisonComputation(
        "by_values", [np.float32, np.int32], [None, lambda lhs, rhs: hlo_mlir.Lt(lhs, rhs)])
    comp = computation("sort_by_values", ["f32[6]", "s32[6]"], lambda b, k, v: GetTupleElement(
        Sort([k, v], less, is_stable=True), 1))
    result, module = stats(comp, "tuple-simplifier,sort-simplifier")
    assert result["sort-simplifier"] == {"unused-operand": 1}
    (op,) = ops_where(module, lambda op: op.name == "stablehlo.sort")
    assert len(op.operands) == 1
    v = np.array([5, -2, 7, 0, 3, -9], np.int32)
    k = RNG.standard_normal(6).astype(np.float32)
    same_with_and_without(comp, "tuple-simplifier,sort-simplifier", (k, v), np.sort(v))


def test_sort_keeps_an_unused_key_the_comparator_reads():
    """XLA DontRemoveUnusedSortKey."""
    comp = computation("sort_key", ["f32[6]", "s32[6]"], lambda b, k, v: GetTupleElement(
        Sort([k, v], CreateScalarLtComputation([np.float32, np.int32])), 1))
    result, _ = stats(comp, "tuple-simplifier,sort-simplifier")
    assert "sort-simplifier" not in result


# --- tuple-simplifier -------------------------------------------------------------------------------
def test_tuple_simplifier_folds_elements_and_whole_tuples():
    """get_tuple_element(tuple(...)) through two levels, and a tuple of a tuple parameter's
    elements in order (XLA GteOfTuple, GteOfTupleChain, RemoveWholeTuple)."""
    def fn(b, t, y):
        inner = Tuple(b, [y, GetTupleElement(t, 0)])
        outer = Tuple(b, [inner, y])
        picked = GetTupleElement(GetTupleElement(outer, 0), 1)
        whole = Tuple(b, [GetTupleElement(t, 0), GetTupleElement(t, 1)])
        return Tuple(b, [picked * y, whole])

    comp = computation("tuples", ["(f32[3], s32[])", "f32[3]"], fn)
    result, module = stats(comp, "tuple-simplifier")
    assert result["tuple-simplifier"]["tuple-element-of-tuple"] >= 2
    assert result["tuple-simplifier"]["whole-tuple"] == 1
    x, y = RNG.standard_normal(3).astype(np.float32), RNG.standard_normal(3).astype(np.float32)
    n = np.int32(7)
    for spec in ("", "tuple-simplifier"):
        assert_close(run_iree(comp, (x, n), y, passes=spec), (x * y, x, n), what=spec)


def test_tuple_simplifier_is_algsimps_rule_plus_whole_tuple():
    from pipelines.simplifiers.algsimp import tuple_element_of_tuple

    patterns = registry.get("tuple-simplifier").patterns
    assert [p.name for p in patterns] == ["tuple-element-of-tuple", "whole-tuple"]
    assert patterns[0] is tuple_element_of_tuple


# --- logistic-expander -------------------------------------------------------------------------------
def expit(x: np.ndarray) -> np.ndarray:
    wide = x.astype(np.complex128 if x.dtype.kind == "c" else np.float64)
    return (1 / (1 + np.exp(-wide))).astype(x.dtype)


@pytest.mark.parametrize("expansion", ["exp", "tanh"])
@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.complex64])
def test_logistic_expansion_matches_numpy_and_xla(expansion, dtype):
    shape = "f32[9]" if dtype == np.float32 else "f64[9]" if dtype == np.float64 else "c64[9]"
    comp = computation("logistic", [shape], lambda b, x: Logistic(x))
    passes = f"logistic-expander{{expansion={expansion}}}"
    result, module = stats(comp, passes)
    assert result == {"logistic-expander": {expansion: 1}} and count(module, "stablehlo.logistic") == 0
    x = np.array([-100.0, -20.0, -3.5, -1.0, -0.0, 0.25, 2.0, 15.0, 90.0]).astype(dtype)
    if dtype == np.complex64:
        x = x / 10 + 1j * np.linspace(-1, 1, 9).astype(np.float32)
    same_with_and_without(comp, passes, (x,), expit(x))


def test_logistic_expander_options():
    cls = registry.get("logistic-expander")
    assert [o.name for o in cls.options()] == ["expansion"]
    assert cls.from_options({"expansion": "tanh"}).expansion == "tanh"
    with pytest.raises(InvalidArgumentError, match="logistic-expander requires expansion in"):
        cls.from_options({"expansion": "erf"})
    for name in ("zero-sized-hlo-elimination", "sort-simplifier", "slice-sinker"):
        assert registry.get(name).options() == []


# --- slice-sinker ----------------------------------------------------------------------------------
def test_slice_sinker_merges_adjacent_slices():
    """XLA TernaryOperation and OverlappingPartialSlicesBeneficial: selects on rows [0:2]
    and [2:8] of three sources, and adds on overlapping windows, each become one op."""
    def fn(b, p, x, y):
        def rows(v, lo, hi):
            return Slice(v, [lo, 0], [hi, 9], [1, 1])

        sel = [Select(rows(p, lo, hi), rows(x, lo, hi), rows(y, lo, hi)) for lo, hi in ((0, 2), (2, 8))]
        adds = [Slice(x, [lo, c], [hi, 9], [1, 1]) + Slice(y, [lo, c], [hi, 9], [1, 1])
                for lo, hi, c in ((0, 2, 0), (3, 8, 0), (0, 8, 5))]
        return Tuple(b, sel + adds)

    comp = computation("sinker", ["pred[8,9]", "f32[8,9]", "f32[8,9]"], fn)
    result, module = stats(comp, "slice-sinker")
    assert result == {"slice-sinker": {"sunk-ops": 5}}
    assert [op.results[0].type.shape for op in ops_where(module, lambda op: op.name == "stablehlo.add")] \
        == [[8, 9]]
    p = RNG.random((8, 9)) < 0.5
    x, y = RNG.standard_normal((8, 9)).astype(np.float32), RNG.standard_normal((8, 9)).astype(np.float32)
    s = x + y
    expected = (np.where(p, x, y)[0:2], np.where(p, x, y)[2:8], s[0:2], s[3:8], s[0:8, 5:9])
    same_with_and_without(comp, "slice-sinker", (p, x, y), expected)


def test_slice_sinker_refuses_when_it_would_do_more_work():
    """XLA DisjointedPartialSlices: rows [0:2] and [2:7] of 8 are fewer elements than a source."""
    comp = computation("disjoint", ["f32[8,9]", "f32[8,9]"], lambda b, x, y: Tuple(b, [
        Slice(x, [lo, 0], [hi, 9], [1, 1]) * Slice(y, [lo, 0], [hi, 9], [1, 1])
        for lo, hi in ((0, 2), (2, 7))]))
    result, _ = stats(comp, "slice-sinker")
    assert result == {}


# --- generated modules ------------------------------------------------------------------------------
def parse(text: str) -> ir.Module:
    with get_context():
        return ir.Module.parse(text)


def run_checked(text: str, passes: str, seed: int) -> ir.Module:
    """``passes`` on the module ``text`` under the semantics check; a second run changes nothing."""
    module = parse(text)
    run_pipeline(module, passes, semantics_checker=lambda m: SemanticsChecker(m, seed=seed))
    assert not run_pipeline(module, passes).changed, module.operation.get_asm()
    return module


class _Lines:
    """A function body being written: fresh names and the lines so far."""

    def __init__(self, draw):
        self.draw = draw
        self.names = itertools.count()
        self.lines: list[str] = []

    def emit(self, text: str) -> str:
        name = f"%v{next(self.names)}"
        self.lines.append(f"  {name} = {text}")
        return name

    def pick(self, pool: list[str]) -> str:
        return self.draw(st.sampled_from(pool))

    def unary(self, pool: list[str], t: str) -> str:
        """A random element-wise unary op of a ``pool`` value of type ``t``."""
        return self.emit(f"stablehlo.{self.pick(list(UNARY))} {self.pick(pool)} : {t}")

    def binary(self, pool: list[str], t: str, ops: tuple[str, ...] = ()) -> str:
        """A random element-wise binary op (of ``ops``, else of BINARY) of two ``pool`` values of
        type ``t``."""
        op = self.pick(list(ops or BINARY))
        return self.emit(f"stablehlo.{op} {self.pick(pool)}, {self.pick(pool)} : {t}")

    def function(self, params: str, outputs: list[tuple[str, str]]) -> str:
        values, types = ", ".join(v for v, _ in outputs), ", ".join(t for _, t in outputs)
        return (f"func.func @main({params}) -> ({types}) {{\n" + "\n".join(self.lines)
                + f"\n  return {values} : {types}\n}}\n")


E, F = "tensor<0x4xf32>", "tensor<3x4xf32>"
UNARY = ("negate", "exponential", "tanh", "abs")
BINARY = ("add", "multiply", "maximum", "subtract")


@st.composite
def zero_sized_programs(draw):
    """Element-wise chains over empty slices of %y and over %y itself; empty values join
    full ones through concatenate and reduce."""
    w = _Lines(draw)
    empty, full = [w.emit(f"stablehlo.slice %y [1:1, 0:4] : ({F}) -> {E}")], ["%y"]
    zero = w.emit("stablehlo.constant dense<0.0> : tensor<f32>")
    for _ in range(draw(st.integers(2, 8))):
        kind = draw(st.integers(0, 5))
        pool, t = (empty, E) if draw(st.booleans()) else (full, F)
        if kind <= 1:
            pool.append(w.unary(pool, t) if kind == 0 else w.binary(pool, t))
        elif kind == 2:
            k = draw(st.integers(0, 3))
            empty.append(w.emit(f"stablehlo.slice {w.pick(full)} [{k}:{k}, 0:4] : ({F}) -> {E}"))
        elif kind == 3:
            joined = f"{w.pick(empty)}, {w.pick(full)}"
            full.append(w.emit(f"stablehlo.concatenate {joined}, dim = 0 : ({E}, {F}) -> {F}"))
        elif kind == 4:
            r = w.emit(f"stablehlo.reduce({w.pick(empty)} init: {zero}) applies stablehlo.add across "
                       f"dimensions = [0] : ({E}, tensor<f32>) -> tensor<4xf32>")
            full.append(w.emit(f"stablehlo.broadcast_in_dim {r}, dims = [1] : (tensor<4xf32>) -> {F}"))
        else:
            empty.append(w.emit(f"stablehlo.iota dim = 1 : {E}"))
    outputs = [(v, F) for v in draw(st.lists(st.sampled_from(full), min_size=1, max_size=3))]
    outputs.append((w.pick(empty), E))
    return w.function(f"%y: {F}", outputs)


@settings(max_examples=examples(15), deadline=None)
@given(zero_sized_programs(), st.integers(0, 3))
def test_generated_zero_sized_modules_keep_their_numbers(text, seed):
    module = run_checked(text, "zero-sized-hlo-elimination", seed)
    left = ops_where(module, lambda op: op.name != "stablehlo.constant"
                     and any(is_zero_sized(r) for r in op.results))
    assert not left, module.operation.get_asm()


S = "tensor<2x6x{}>"
SORT_PARAMS = {"%k": "f32", "%v": "i32", "%w": "f32", "%u": "ui32"}


@st.composite
def sort_programs(draw):
    """Sorts of 1 to 4 of the parameters, a comparator reading one or two of them (a
    lexicographic order), some results used."""
    w = _Lines(draw)
    outputs = []
    for _ in range(draw(st.integers(1, 2))):
        operands = draw(st.lists(st.sampled_from(sorted(SORT_PARAMS)), min_size=1, max_size=4))
        n = len(operands)
        keys = [i for i, o in enumerate(operands) if SORT_PARAMS[o] == "f32"]
        if not keys:
            operands.append("%k")
            keys, n = [n], n + 1
        read = draw(st.lists(st.sampled_from(keys), min_size=1, max_size=2, unique=True))
        types = [SORT_PARAMS[o] for o in operands]
        args = ", ".join(f"%a{i}{s}: tensor<{t}>" for i, t in enumerate(types) for s in "lr")
        name = w.emit(f'"stablehlo.sort"({", ".join(operands)}) ({{')
        w.lines[-1] = w.lines[-1].replace(" = ", f":{n} = " if n > 1 else " = ")
        w.lines.append(f"  ^bb0({args}):")
        less = [f"%lt{j}" for j in read]
        for j in read:
            w.lines.append(f"    %lt{j} = stablehlo.compare LT, %a{j}l, %a{j}r, TOTALORDER : "
                           f"(tensor<f32>, tensor<f32>) -> tensor<i1>")
        if len(read) == 2:
            j = read[0]
            w.lines.append(f"    %eq = stablehlo.compare EQ, %a{j}l, %a{j}r, TOTALORDER : "
                           f"(tensor<f32>, tensor<f32>) -> tensor<i1>")
            w.lines.append(f"    %sel = stablehlo.select %eq, {less[1]}, {less[0]} : tensor<i1>, tensor<i1>")
            less = ["%sel"]
        w.lines.append(f"    stablehlo.return {less[0]} : tensor<i1>")
        stable = "true" if draw(st.booleans()) else "false"
        result_types = ", ".join(S.format(t) for t in types)
        w.lines.append(f"  }}) {{dimension = 1 : i64, is_stable = {stable}}} : "
                       f"({result_types}) -> ({result_types})")
        results = [f"{name}#{i}" if n > 1 else name for i in range(n)]
        used = draw(st.lists(st.integers(0, n - 1), min_size=1, max_size=n, unique=True))
        outputs += [(results[i], S.format(types[i])) for i in used]
    params = ", ".join(f"{p}: {S.format(t)}" for p, t in sorted(SORT_PARAMS.items()))
    return w.function(params, outputs)


@settings(max_examples=examples(20), deadline=None)
@given(sort_programs(), st.integers(0, 3))
def test_generated_sort_modules_keep_their_numbers(text, seed):
    module = run_checked(text, "sort-simplifier", seed)
    for op in ops_where(module, lambda op: op.name == "stablehlo.sort"):
        assert len(used_operands(op.opview)) == len(op.operands), module.operation.get_asm()


A, T2 = "tensor<3xf32>", "tuple<tensor<3xf32>, tensor<3xf32>>"


@st.composite
def tuple_programs(draw):
    """Tuples of arrays, nested tuples, their elements, and tuples of a tuple's elements."""
    w = _Lines(draw)
    arrays, pairs, nested = ["%x", "%y"], ["%t"], []
    for _ in range(draw(st.integers(2, 10))):
        kind = draw(st.integers(0, 5))
        if kind == 0:
            pairs.append(w.emit(f"stablehlo.tuple {w.pick(arrays)}, {w.pick(arrays)} : {T2}"))
        elif kind == 1:
            i = draw(st.integers(0, 1))
            arrays.append(w.emit(f"stablehlo.get_tuple_element {w.pick(pairs)}[{i}] : ({T2}) -> {A}"))
        elif kind == 2:
            t = w.pick(pairs)
            first = w.emit(f"stablehlo.get_tuple_element {t}[0] : ({T2}) -> {A}")
            second = w.emit(f"stablehlo.get_tuple_element {t}[1] : ({T2}) -> {A}")
            pairs.append(w.emit(f"stablehlo.tuple {first}, {second} : {T2}"))
        elif kind == 3:
            nested.append(w.emit(f"stablehlo.tuple {w.pick(pairs)}, {w.pick(arrays)} : tuple<{T2}, {A}>"))
        elif kind == 4 and nested:
            inner = w.emit(f"stablehlo.get_tuple_element {w.pick(nested)}[0] : (tuple<{T2}, {A}>) -> {T2}")
            pairs.append(inner)
        else:
            arrays.append(w.binary(arrays, A))
    outputs = [(v, A) for v in draw(st.lists(st.sampled_from(arrays), min_size=1, max_size=3))]
    return w.function(f"%x: {A}, %y: {A}, %t: {T2}", outputs)


@settings(max_examples=examples(15), deadline=None)
@given(tuple_programs(), st.integers(0, 3))
def test_generated_tuple_modules_keep_their_numbers(text, seed):
    module = run_checked(text, "tuple-simplifier", seed)
    folded = ops_where(module, lambda op: op.name == "stablehlo.get_tuple_element"
                       and producer(op.operands[0], "stablehlo.tuple") is not None)
    assert not folded, module.operation.get_asm()


LOGISTIC_TYPES = {"%x": "tensor<5xf32>", "%z": "tensor<3xcomplex<f32>>", "%h": "tensor<4xf16>"}


@st.composite
def logistic_programs(draw):
    """Logistics of the parameters, of element-wise ops on them and of each other."""
    w = _Lines(draw)
    pools = {p: [p] for p in LOGISTIC_TYPES}
    for _ in range(draw(st.integers(1, 6))):
        p = draw(st.sampled_from(sorted(LOGISTIC_TYPES)))
        t = LOGISTIC_TYPES[p]
        if draw(st.integers(0, 2)):
            pools[p].append(w.emit(f"stablehlo.logistic {w.pick(pools[p])} : {t}"))
        else:
            pools[p].append(w.binary(pools[p], t, ("add", "multiply", "subtract")))
    outputs = [(pools[p][-1], LOGISTIC_TYPES[p]) for p in sorted(LOGISTIC_TYPES) if len(pools[p]) > 1]
    params = ", ".join(f"{p}: {t}" for p, t in sorted(LOGISTIC_TYPES.items()))
    return w.function(params, outputs or [("%x", LOGISTIC_TYPES["%x"])])


@settings(max_examples=examples(15), deadline=None)
@given(logistic_programs(), st.sampled_from(["exp", "tanh"]), st.integers(0, 3))
def test_generated_logistic_modules_keep_their_numbers(text, expansion, seed):
    module = run_checked(text, f"logistic-expander{{expansion={expansion}}}", seed)
    assert count(module, "stablehlo.logistic") == 0


P = "tensor<6x4xf32>"
WINDOWS = ("[0:2, 0:4]", "[2:6, 0:4]", "[0:6:2, 0:4]", "[1:5, 0:4]", "[0:6, 1:3]", "[3:6, 0:4]")


def _window_type(window: str) -> str:
    dims = []
    for part in window.strip("[]").split(", "):
        lo, hi, *step = (int(v) for v in part.split(":"))
        dims.append(-(-(hi - lo) // (step[0] if step else 1)))
    return f"tensor<{dims[0]}x{dims[1]}xf32>"


@st.composite
def slice_programs(draw):
    """Element-wise ops on same-window slices of %p and %q (either order), and some on a
    slice and another value."""
    w = _Lines(draw)
    outputs = []
    for _ in range(draw(st.integers(2, 8))):
        window = draw(st.sampled_from(WINDOWS))
        t = _window_type(window)
        a, b = draw(st.sampled_from([("%p", "%q"), ("%q", "%p"), ("%p", "%p")]))
        sa = w.emit(f"stablehlo.slice {a} {window} : ({P}) -> {t}")
        sb = w.emit(f"stablehlo.slice {b} {window} : ({P}) -> {t}")
        kind = draw(st.integers(0, 3))
        if kind == 0:
            value = w.unary([sa], t)
        elif kind == 1:
            direction = draw(st.sampled_from(("LT", "GT")))
            tp = t.replace("f32", "i1")
            pred = w.emit(f"stablehlo.compare {direction}, {sa}, {sb} : ({t}, {t}) -> {tp}")
            value = w.emit(f"stablehlo.select {pred}, {sa}, {sb} : {tp}, {t}")
        else:
            value = w.emit(f"stablehlo.{w.pick(BINARY)} {sa}, {sb} : {t}")
        outputs.append((value, t))
    return w.function(f"%p: {P}, %q: {P}", outputs)


@settings(max_examples=examples(20), deadline=None)
@given(slice_programs(), st.integers(0, 3))
def test_generated_slice_modules_keep_their_numbers(text, seed):
    run_checked(text, "slice-sinker", seed)
