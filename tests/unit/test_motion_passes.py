"""reshape-mover, conditional-code-motion and root-instruction-sinker: builder programs
compiled with and without each pass against numpy and XLA CPU, XLA's own unit-test cases,
and hypothesis properties over generated modules (no crash, valid IR, a second run changes
nothing, and the same numbers under the semantics check of ``hlo-opt --verify-semantics``)."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from iree.compiler import ir

from hlo_mlir import (
    Abs,
    Broadcast,
    Conditional,
    ConvertElementType,
    Exp,
    GetTupleElement,
    Neg,
    Reshape,
    Select,
    Transpose,
    Tuple,
)
from hlo_mlir.module import HloModule
from hlo_mlir.semantics import SemanticsChecker
from pipelines import registry
from pipelines.matchers import ops_where
from pipelines.pipeline import run_pipeline
from pipelines.simplifiers.conditional_simplifier import conditional_ops
from tests.builders import computation
from tests.oracle import check
from tests.properties import examples
from tests.unit.test_simplifier_passes import parse, same_with_and_without, stats

RNG = np.random.default_rng(7)


def names(module: ir.Module) -> list[str]:
    return [op.name for op in ops_where(module, lambda op: op.name.startswith("stablehlo."))]


# --- reshape-mover -------------------------------------------------------------------------------
def test_reshape_mover_moves_transposes_and_reshapes_down_a_chain():
    """transpose(x) * broadcast(s) and a select of reshapes (predicate included) run before
    their rearranges (XLA SinkTransposeAcrossBroadcastScalar, SinkReshapeBelowSelect)."""
    def fn(b, x, s, p, u, v):
        t = Exp(Transpose(x, [1, 0]) * Broadcast(s, [4, 3]))
        r = Select(Reshape(p, [2, 3]), Reshape(u, [2, 3]), Reshape(v, [2, 3]))
        return Tuple(b, [t, Abs(r)])

    comp = computation("mover", ["f32[3,4]", "f32[]", "pred[6]", "f32[6]", "f32[6]"], fn)
    result, module = stats(comp, "reshape-mover")
    assert result == {"reshape-mover": {"moved-transpose": 2, "moved-reshape": 2}}
    rearranged = [op.operands[0].owner.name for op in ops_where(
        module, lambda op: op.name in ("stablehlo.transpose", "stablehlo.reshape"))]
    assert rearranged == ["stablehlo.exponential", "stablehlo.abs"]
    x = RNG.standard_normal((3, 4)).astype(np.float32)
    s = np.float32(0.5)
    p = RNG.random(6) < 0.5
    u, v = RNG.standard_normal(6).astype(np.float32), RNG.standard_normal(6).astype(np.float32)
    expected = (np.exp(x.T * s), np.abs(np.where(p, u, v)).reshape(2, 3))
    same_with_and_without(comp, "reshape-mover", (x, s, p, u, v), expected)


XLA_CASES = {
    # XLA ReshapeMoverTest cases: (module text, moves expected)
    "ReshapesWithDifferentInputShapesNotMoved": ("""
      func.func @main(%x: tensor<1x8x1x7xf32>, %y: tensor<1x8x7x1xf32>) -> tensor<8x7xf32> {
        %a = stablehlo.reshape %x : (tensor<1x8x1x7xf32>) -> tensor<8x7xf32>
        %b = stablehlo.reshape %y : (tensor<1x8x7x1xf32>) -> tensor<8x7xf32>
        %s = stablehlo.add %a, %b : tensor<8x7xf32>
        return %s : tensor<8x7xf32>
      }""", 0),
    "MultipleReshapes": ("""
      func.func @main(%x: tensor<1x8x1x7xf32>, %y: tensor<1x8x1x7xf32>,
                      %z: tensor<8x7x1xf32>) -> tensor<8x7xf32> {
        %a = stablehlo.reshape %x : (tensor<1x8x1x7xf32>) -> tensor<8x7x1xf32>
        %b = stablehlo.reshape %y : (tensor<1x8x1x7xf32>) -> tensor<8x7x1xf32>
        %s = stablehlo.add %a, %b : tensor<8x7x1xf32>
        %c = stablehlo.reshape %s : (tensor<8x7x1xf32>) -> tensor<8x7xf32>
        %d = stablehlo.reshape %z : (tensor<8x7x1xf32>) -> tensor<8x7xf32>
        %t = stablehlo.add %c, %d : tensor<8x7xf32>
        return %t : tensor<8x7xf32>
      }""", 2),
    "ReshapeNoUsersOutsideCandidatesSink2": ("""
      func.func @main(%x: tensor<20x8xf32>) -> tensor<8x20xf32> {
        %a = stablehlo.reshape %x : (tensor<20x8xf32>) -> tensor<8x20xf32>
        %s = stablehlo.add %a, %a : tensor<8x20xf32>
        return %s : tensor<8x20xf32>
      }""", 1),
    "ReshapeOfRank2BroadcastIsNotTrivial": ("""
      func.func @main(%x: tensor<2x3xf32>, %y: tensor<2x3x5x7xf32>) -> tensor<2x3x35xf32> {
        %a = stablehlo.broadcast_in_dim %x, dims = [0, 1] : (tensor<2x3xf32>) -> tensor<2x3x35xf32>
        %b = stablehlo.reshape %y : (tensor<2x3x5x7xf32>) -> tensor<2x3x35xf32>
        %s = stablehlo.add %a, %b : tensor<2x3x35xf32>
        return %s : tensor<2x3x35xf32>
      }""", 0),
}


@pytest.mark.parametrize("case", sorted(XLA_CASES))
def test_reshape_mover_xla_cases(case):
    """XLA's cases by name; MultipleReshapes ends as reshape(add(reshape(add(x, y)), z)).
    (Rank-2 broadcasts move in XLA only with reshape_of_1d_broadcast_is_cheap, not offered.)"""
    text, moves = XLA_CASES[case]
    result, module = stats(text, "reshape-mover")
    assert sum(result.get("reshape-mover", {}).values()) == moves
    if case == "MultipleReshapes":
        assert names(module) == ["stablehlo.add", "stablehlo.reshape", "stablehlo.add", "stablehlo.reshape"]


# --- conditional-code-motion -------------------------------------------------------------------------
def branch(name: str, body):
    """A branch computation of (f32[4], f32[4]) -> (convert(reshape(body(x, y))), x - y)."""
    def fn(b, t):
        x, y = GetTupleElement(t, 0), GetTupleElement(t, 1)
        return Tuple(b, [ConvertElementType(Reshape(body(x, y), [2, 2]), np.int32), x - y])
    return computation(name, ["(f32[4], f32[4])"], fn)


def test_conditional_code_motion_hoists_a_shared_tail():
    """Both branches end with convert(reshape(.)) and x - y: all three ops run once after the
    conditional (XLA MoveConvertOut); x - y reads the outer x and y, a new result each for the
    others. (algsimp folds the builder's tuples first.)"""
    def fn(b, p, x, y):
        t = Tuple(b, [x, y])
        r = Conditional(p, t, branch("sum", lambda x, y: x + y), t, branch("neg", lambda x, y: Neg(x)))
        return Tuple(b, [GetTupleElement(r, 0), GetTupleElement(r, 1)])

    comp = computation("ccm", ["pred[]", "f32[4]", "f32[4]"], fn)
    passes = "algsimp,dce,conditional-code-motion"
    result, module = stats(comp, passes)
    assert result["conditional-code-motion"] == {"hoisted-ops": 3, "new-results": 2}
    (op,) = conditional_ops(module)
    inside = [o.name for o in ops_where(op, lambda o: o.name != "stablehlo.return")][:-1]
    assert sorted(inside) == ["stablehlo.add", "stablehlo.negate"]
    x = np.array([1.5, -2.25, 3.0, 0.5], np.float32)
    y = np.array([0.5, 0.75, -4.0, 2.0], np.float32)
    for p, v in ((True, x + y), (False, -x)):
        expected = (v.reshape(2, 2).astype(np.int32), x - y)
        same_with_and_without(comp, passes, (np.bool_(p), x, y), expected)


def test_conditional_code_motion_leaves_different_branches():
    comp = computation("ccm_no", ["pred[]", "f32[4]"], lambda b, p, x: Conditional(
        p, x, computation("e", ["f32[4]"], lambda b, v: Exp(v)), x,
        computation("a", ["f32[4]"], lambda b, v: Abs(v))))
    result, module = stats(comp, "conditional-code-motion")
    assert result == {} and len(conditional_ops(module)) == 1


def test_options_and_summaries():
    for name in ("reshape-mover", "conditional-code-motion", "root-instruction-sinker"):
        cls = registry.get(name)
        assert cls.options() == [] and cls.summary()
    assert "reshape" in registry.get("reshape-mover").summary()


# --- root-instruction-sinker ------------------------------------------------------------------------
def scheduled(comp) -> HloModule:
    """``comp`` as an HloModule scheduled in block order."""
    module = HloModule.from_computation(comp)
    module.set_schedule({c.name: [i.name for i in c.instructions()] for c in module.computations()})
    return module


def root_is_last(module: HloModule) -> bool:
    entry = module.entry_computation
    return module.schedule()[entry.name][-1] == entry.root_instruction().name


@pytest.mark.parametrize("tuple_root", [False, True])
def test_root_instruction_sinker_appends_a_forwarding_root(tuple_root):
    """XLA Nontuple and Tuple: an op scheduled after the root (here one nothing reads) gets a
    bitcast (or a tuple of get_tuple_elements) of the root after it; the schedule stays
    valid and the numbers stay."""
    def fn(b, x, y):
        root = x + y if not tuple_root else Tuple(b, [x + y, Neg(y)])
        Exp(x)  # scheduled after the root
        return root

    module = scheduled(computation("sink", ["f32[4]", "f32[4]"], fn))
    assert not root_is_last(module)
    result = run_pipeline(module.module, "root-instruction-sinker").statistics()
    assert dict(result["root-instruction-sinker"]) == {"tuple-roots" if tuple_root else "array-roots": 1}
    module.verify_schedule()
    assert root_is_last(module)
    assert not run_pipeline(module.module, "root-instruction-sinker").changed
    x, y = RNG.standard_normal(4).astype(np.float32), RNG.standard_normal(4).astype(np.float32)
    check(module, [x, y], (x + y, -y) if tuple_root else x + y)


def test_root_instruction_sinker_leaves_a_last_root_and_unscheduled_modules():
    """XLA NontupleNoChange; and a module without a schedule (XLA requires one)."""
    comp = computation("last", ["f32[4]"], lambda b, x: Neg(x) * Exp(x))
    module = scheduled(comp)
    before = module.module.operation.get_asm()
    assert not run_pipeline(module.module, "root-instruction-sinker").changed
    assert module.module.operation.get_asm() == before
    unscheduled = computation("unscheduled", ["f32[4]"], lambda b, x: Neg(x))
    assert stats(unscheduled, "root-instruction-sinker")[0] == {}


# --- generated modules ---------------------------------------------------------------------------
def run_twice(text: str, passes: str, seed: int | None = None) -> ir.Module:
    """``passes`` on module ``text`` (under the semantics check when ``seed`` is given); a
    second run changes nothing."""
    module = parse(text)
    checker = None if seed is None else (lambda m: SemanticsChecker(m, seed=seed))
    run_pipeline(module, passes, semantics_checker=checker)
    assert not run_pipeline(module, passes).changed, module.operation.get_asm()
    return module


class _Body:
    """A function body being written: fresh names, the lines so far, and values by type."""

    def __init__(self, draw, pools: dict[str, list[str]]):
        self.draw, self.pools = draw, pools
        self.names = itertools.count()
        self.lines: list[str] = []

    def emit(self, text: str, t: str, indent: str = "  ") -> str:
        name = f"%v{next(self.names)}"
        self.lines.append(f"{indent}{name} = {text}")
        self.pools.setdefault(t, []).append(name)
        return name

    def pick(self, t: str) -> str:
        return self.draw(st.sampled_from(self.pools[t]))


A, T, R = "tensor<2x6xf32>", "tensor<6x2xf32>", "tensor<3x4xf32>"
UNARY = ("negate", "abs", "tanh", "exponential")
RANK1_BROADCASTS = (("tensor<2xf32>", "%u", "[0]"), ("tensor<6xf32>", "%v", "[1]"))  # to 2x6
BINARY = ("add", "subtract", "multiply", "maximum")


def _values(t: str) -> str:
    """A non-splat constant of rank-2 type ``t``."""
    rows, cols = (int(d) for d in t[len("tensor<"):-len("xf32>")].split("x"))
    return "[" + ", ".join("[" + ", ".join(f"{r * cols + c - 5}.5" for c in range(cols)) + "]"
                           for r in range(rows)) + "]"


@st.composite
def rearrange_programs(draw):
    """Element-wise ops on transposes and reshapes of 2x6 values, beside scalar broadcasts,
    splat and other constants, rank-1 broadcasts, selects with rank-0 and tensor predicates."""
    w = _Body(draw, {A: ["%x", "%y"], T: ["%z"], R: []})
    for _ in range(draw(st.integers(2, 10))):
        kind = draw(st.sampled_from([0, 0, 1, 1, 2, 3, 3, 4, 5, 6, 7, 8]))  # rearranges twice as often
        t = draw(st.sampled_from([A, T, R] if w.pools[R] else [A, T]))
        if kind == 0:
            src, dst = draw(st.sampled_from([(A, T), (T, A)]))
            w.emit(f"stablehlo.transpose {w.pick(src)}, dims = [1, 0] : ({src}) -> {dst}", dst)
        elif kind == 1:
            src, dst = draw(st.sampled_from([(A, R), (T, R), (A, A)] + ([(R, A)] if w.pools[R] else [])))
            w.emit(f"stablehlo.reshape {w.pick(src)} : ({src}) -> {dst}", dst)
        elif kind == 2:
            w.emit(f"stablehlo.{draw(st.sampled_from(UNARY))} {w.pick(t)} : {t}", t)
        elif kind == 3:
            w.emit(f"stablehlo.{draw(st.sampled_from(BINARY))} {w.pick(t)}, {w.pick(t)} : {t}", t)
        elif kind == 4:
            w.emit(f"stablehlo.broadcast_in_dim %s, dims = [] : (tensor<f32>) -> {t}", t)
        elif kind == 5:
            value = draw(st.sampled_from(["1.5", _values(t)]))
            w.emit(f"stablehlo.constant dense<{value}> : {t}", t)
        elif kind == 6:
            src, arg, dims = draw(st.sampled_from(RANK1_BROADCASTS))
            w.emit(f"stablehlo.broadcast_in_dim {arg}, dims = {dims} : ({src}) -> {A}", A)
        elif kind == 7:
            tp = t.replace("f32", "i1")
            pred = w.emit(f"stablehlo.compare LT, {w.pick(t)}, {w.pick(t)} : ({t}, {t}) -> {tp}", tp)
            w.emit(f"stablehlo.select {pred}, {w.pick(t)}, {w.pick(t)} : {tp}, {t}", t)
        else:
            w.emit(f"stablehlo.select %q, {w.pick(t)}, {w.pick(t)} : tensor<i1>, {t}", t)
    outputs = draw(st.lists(st.sampled_from([(v, t) for t in (A, T, R) for v in w.pools[t][-3:]]),
                            min_size=1, max_size=3))
    header = (f"func.func @main(%x: {A}, %y: {A}, %z: {T}, %s: tensor<f32>, %q: tensor<i1>, "
              f"%u: tensor<2xf32>, %v: tensor<6xf32>) -> ({', '.join(t for _, t in outputs)}) {{\n")
    ret = f"  return {', '.join(v for v, _ in outputs)} : {', '.join(t for _, t in outputs)}\n}}\n"
    return header + "\n".join(w.lines) + "\n" + ret


@settings(max_examples=300, deadline=None)
@given(rearrange_programs())
def test_generated_rearranges_stay_valid_and_reach_a_fixed_point(text):
    """reshape-mover on many generated modules: valid IR (run_pipeline verifies) and a second
    run changes nothing; no compile."""
    run_twice(text, "reshape-mover")


@settings(max_examples=examples(12), deadline=None)
@given(rearrange_programs(), st.integers(0, 3))
def test_generated_rearranges_keep_their_numbers(text, seed):
    run_twice(text, "reshape-mover", seed)


F4 = "tensor<4xf32>"
# Tails by result type: what a branch may apply to its value before returning it.
TAILS = {
    F4: ("stablehlo.negate {v} : {F4}", "stablehlo.abs {v} : {F4}", "stablehlo.add {v}, %x : {F4}",
         "stablehlo.multiply {v}, {two} : {F4}", "stablehlo.multiply {v}, {three} : {F4}",
         "stablehlo.add {v}, {w} : {F4}", "stablehlo.constant dense<[1.0, 2.0, 3.0, 4.0]> : {F4}"),
    "tensor<2x2xf32>": ("stablehlo.reshape {v} : ({F4}) -> tensor<2x2xf32>",),
    "tensor<4xi1>": ("stablehlo.compare LT, {v}, %y : ({F4}, {F4}) -> tensor<4xi1>",
                     "stablehlo.compare GT, {v}, %y : ({F4}, {F4}) -> tensor<4xi1>"),
    "tensor<4xi32>": ("stablehlo.convert {v} : ({F4}) -> tensor<4xi32>",),
}


@st.composite
def conditional_programs(draw, effects: bool = False):
    """Conditionals over %x and %y whose branches compute a few element-wise ops and return,
    per result, a tail op that is often the same in every branch (sometimes another of
    the same type, or a value read elsewhere in the branch)."""
    w = _Body(draw, {F4: ["%x", "%y"]})
    outputs: list[tuple[str, str]] = []
    for _ in range(draw(st.integers(1, 3))):
        kind = draw(st.sampled_from(["if", "case"]))
        count = 2 if kind == "if" else draw(st.integers(1, 3))
        index = ("%p", "tensor<i1>") if kind == "if" else ("%k", "tensor<i32>")
        types = draw(st.lists(st.sampled_from(sorted(TAILS)), min_size=1, max_size=3))
        same = [draw(st.integers(0, 3)) > 0 for _ in types]
        first = [draw(st.sampled_from(TAILS[t])) for t in types]
        name = f"%c{next(w.names)}"
        w.lines.append(f'  {name}:{len(types)} = "stablehlo.{kind}"({index[0]}) ({{')
        for b in range(count):
            local = _Body(draw, {F4: list(w.pools[F4])})
            local.names = w.names
            for _ in range(draw(st.integers(0, 2))):
                local.emit(f"stablehlo.{draw(st.sampled_from(UNARY))} {local.pick(F4)} : {F4}", F4, "    ")
            two = local.emit(f"stablehlo.constant dense<2.0> : {F4}", F4, "    ")
            three = local.emit(f"stablehlo.constant dense<3.0> : {F4}", F4, "    ")
            if effects and draw(st.booleans()):
                local.emit(f"stablehlo.custom_call @effect({local.pick(F4)}) {{has_side_effect = true}}"
                           f" : ({F4}) -> {F4}", F4, "    ")
            returned = []
            for t, tail, fixed in zip(types, first, same, strict=True):
                tail = tail if fixed else draw(st.sampled_from(TAILS[t]))
                unary = draw(st.sampled_from(UNARY))
                v = local.emit(f"stablehlo.{unary} {local.pick(F4)} : {F4}", F4, "    ")
                text = tail.format(v=v, w=local.pick(F4), two=two, three=three, F4=F4)
                returned.append(local.emit(text, t, "    "))
            w.lines += local.lines
            w.lines.append(f"    stablehlo.return {', '.join(returned)} : {', '.join(types)}")
            w.lines.append("  }" + (", {" if b + 1 < count else ")"))
        w.lines[-1] += f" : ({index[1]}) -> ({', '.join(types)})"
        for i, t in enumerate(types):
            outputs.append((f"{name}#{i}", t))
            if t == F4:
                w.pools[F4].append(f"{name}#{i}")
    outputs = draw(st.lists(st.sampled_from(outputs), min_size=1, max_size=4))
    header = (f"func.func @main(%p: tensor<i1>, %k: tensor<i32>, %x: {F4}, %y: {F4}) -> "
              f"({', '.join(t for _, t in outputs)}) {{\n")
    ret = f"  return {', '.join(v for v, _ in outputs)} : {', '.join(t for _, t in outputs)}\n}}\n"
    return header + "\n".join(w.lines) + "\n" + ret


@settings(max_examples=300, deadline=None)
@given(conditional_programs(effects=True))
def test_generated_conditionals_stay_valid_and_reach_a_fixed_point(text):
    """conditional-code-motion on many generated modules with side effects: valid IR, a
    second run changes nothing, and no conditional is lost; no compile."""
    module = run_twice(text, "conditional-code-motion")
    assert len(conditional_ops(module)) == text.count('"stablehlo.')


@settings(max_examples=examples(12), deadline=None)
@given(conditional_programs(), st.integers(0, 3))
def test_generated_conditionals_keep_their_numbers(text, seed):
    run_twice(text, "conditional-code-motion", seed)


@st.composite
def scheduled_programs(draw):
    """A function of element-wise ops on %x and %y (some unused), returning one value or a
    tuple of two made somewhere among them, with a schedule in block order: the root is
    often not last."""
    w = _Body(draw, {F4: ["%x", "%y"]})
    count = draw(st.integers(1, 6))
    tuple_at = draw(st.one_of(st.none(), st.integers(0, count)))
    t, root = F4, None
    for i in range(count + 1):
        if i == tuple_at:
            t = f"tuple<{F4}, {F4}>"
            root = w.emit(f"stablehlo.tuple {w.pick(F4)}, {w.pick(F4)} : {t}", t)
        if i == count:
            break
        if draw(st.booleans()):
            w.emit(f"stablehlo.{draw(st.sampled_from(UNARY))} {w.pick(F4)} : {F4}", F4)
        else:
            w.emit(f"stablehlo.{draw(st.sampled_from(BINARY))} {w.pick(F4)}, {w.pick(F4)} : {F4}", F4)
    if root is None:
        root = draw(st.sampled_from(w.pools[F4][2:]))
    names = [f"op{i}" for i in range(len(w.lines))]
    body = "\n".join(line.replace(" : ", f' {{hlo.name = "{n}"}} : ', 1)
                     for line, n in zip(w.lines, names, strict=True))
    schedule = ", ".join(f'"{n}"' for n in names)
    return (f"module attributes {{hlo.schedule = {{main = [{schedule}]}}}} {{\n"
            f"func.func @main(%x: {F4}, %y: {F4}) -> {t} {{\n{body}\n  return {root} : {t}\n}}\n}}\n")


def sinker_checks(text: str, seed: int | None = None) -> None:
    module = run_twice(text, "root-instruction-sinker", seed)
    hlo = HloModule(module)
    hlo.verify_schedule()
    entry = hlo.entry_computation
    if entry.root_instruction() is not None:
        assert hlo.schedule()[entry.name][-1] == entry.root_instruction().name, module.operation.get_asm()


@settings(max_examples=200, deadline=None)
@given(scheduled_programs())
def test_generated_schedules_end_with_the_root(text):
    """root-instruction-sinker on generated scheduled modules: valid IR and schedule, the
    root last, a second run changes nothing; no compile."""
    sinker_checks(text)


@settings(max_examples=examples(8), deadline=None)
@given(scheduled_programs(), st.integers(0, 3))
def test_generated_schedules_keep_their_numbers(text, seed):
    sinker_checks(text, seed)
