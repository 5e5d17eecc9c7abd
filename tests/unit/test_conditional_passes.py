"""conditional-simplifier and conditional-to-select: builder programs compiled with and
without each pass against numpy (and XLA CPU), options, idempotence, and hypothesis
properties over generated modules of conditionals (no crash, valid IR, and the same
numbers under the semantics check of ``hlo-opt --verify-semantics``)."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from iree.compiler import ir

import hlo_mlir
from hlo_mlir import Conditional, ConstantR0, GetTupleElement, Tuple
from hlo_mlir.context import get_context
from hlo_mlir.semantics import SemanticsChecker
from pipelines import registry
from pipelines.matchers import has_side_effects
from pipelines.pipeline import run_pipeline
from pipelines.simplifiers.conditional_simplifier import conditional_ops, taken_branch
from tests.builders import computation
from tests.oracle import assert_close, check, run_iree
from tests.properties import examples

BOTH = "conditional-simplifier,conditional-to-select"


def stats(comp, passes: str) -> dict:
    """The statistics of ``passes`` run on a copy of ``comp``'s module, and how many
    conditionals are left."""
    module = hlo_mlir.compiler.as_module(comp)
    result = run_pipeline(module, passes).statistics()
    return {**{name: dict(counter) for name, counter in result.items()}, "left": len(conditional_ops(module))}


def same_with_and_without(comp, passes: str, cases) -> None:
    """``comp`` gives each case's numpy answer compiled without any pass and with ``passes``."""
    for args, expected in cases:
        for spec in ("", passes):
            assert_close(run_iree(comp, *args, passes=spec), expected, what=f"passes={spec!r}, args={args}")


# --- builder programs --------------------------------------------------------------------------
def add_one(name="add_one", shape="f32[3]"):
    return computation(name, [shape], lambda b, x: x + np.float32(1))


def square(name="square", shape="f32[3]"):
    return computation(name, [shape], lambda b, x: x * x)


X = np.array([1.5, -2.0, 0.25], np.float32)


@pytest.mark.parametrize("value", [True, False])
def test_constant_predicate_runs_its_branch(value):
    """XLA ConditionalGetsInlined: pred true runs the first computation, false the second."""
    comp = computation("constant_pred", ["f32[3]"], lambda b, x: Conditional(
        ConstantR0(b, np.bool_(value)), x, add_one(), x, square()))
    assert stats(comp, "conditional-simplifier") == {
        "conditional-simplifier": {"constant-predicate": 1}, "left": 0}
    check(comp, [X], X + 1 if value else X * X, passes="conditional-simplifier")


@pytest.mark.parametrize("index", [0, 1, 2, 3, 7, -1])
def test_constant_index_runs_its_branch_or_the_last(index):
    """An index outside [0, 3) runs branch 2, as XLA and StableHLO define."""
    branches = [add_one(), square(), computation("neg", ["f32[3]"], lambda b, x: -x)]
    comp = computation("constant_index", ["f32[3]"], lambda b, x: Conditional(
        ConstantR0(b, np.int32(index)), branches, [x, x, x]))
    assert stats(comp, "conditional-simplifier")["left"] == 0
    expected = {0: X + 1, 1: X * X}.get(index, -X)
    check(comp, [X], expected, passes="conditional-simplifier")


def test_single_branch_case_is_inlined():
    comp = computation("one_branch", ["s32[]", "f32[3]"], lambda b, i, x: Conditional(
        branch_index=i, branch_computations=[square()], branch_operands=[x]))
    assert stats(comp, "conditional-simplifier") == {
        "conditional-simplifier": {"single-branch": 1}, "left": 0}
    same_with_and_without(comp, "conditional-simplifier", [((np.int32(i), X), X * X) for i in (0, 5, -2)])


def pairs(name):
    """(x, y) -> (x + y, x, x * y, x + y): results 1 (the operand itself, captured) and 3
    (a duplicate of 0) are what the simplifier rewrites."""
    def fn(b, t):
        x, y = GetTupleElement(t, 0), GetTupleElement(t, 1)
        s = x + y if name == "sum" else x - y
        return Tuple(b, [s, x, x * y, s])
    return computation(name, ["(f32[3], f32[3])"], fn)


def test_unused_captured_and_duplicate_results():
    """Of four results, one is unused, one is the same captured value in both branches and
    one duplicates another; the conditional keeps one result. (algsimp folds the builder's
    get_tuple_element(tuple) first: the tuple would read every result.)"""
    def fn(b, p, x, y):
        t = Tuple(b, [x, y])
        r = Conditional(p, t, pairs("sum"), t, pairs("difference"))
        return Tuple(b, [GetTupleElement(r, 0), GetTupleElement(r, 1), GetTupleElement(r, 3)])

    comp = computation("results", ["pred[]", "f32[3]", "f32[3]"], fn)
    module = hlo_mlir.compiler.as_module(comp)
    passes = "algsimp,dce,conditional-simplifier"
    result = run_pipeline(module, passes).statistics()
    assert result["conditional-simplifier"] == {
        "captured-result": 1, "duplicate-result": 1, "unused-result": 3}
    (op,) = conditional_ops(module)
    assert len(op.results) == 1
    y = np.array([3.0, 0.5, -1.0], np.float32)
    cases = [((np.bool_(p), X, y), (s, X, s)) for p, s in ((True, X + y), (False, X - y))]
    same_with_and_without(comp, passes, cases)


def test_unused_conditional_is_removed():
    def fn(b, p, x):
        Conditional(p, x, add_one(), x, square())
        return x * np.float32(2)

    comp = computation("unused", ["pred[]", "f32[3]"], fn)
    assert stats(comp, "conditional-simplifier") == {
        "conditional-simplifier": {"unused-conditional": 1}, "left": 0}
    same_with_and_without(comp, "conditional-simplifier", [((np.bool_(True), X), X * 2)])


@pytest.mark.parametrize("value", [True, False])
def test_to_select_predicate(value):
    """Both branches run and a broadcast predicate selects (XLA MapConditionalNonScalar)."""
    comp = computation("to_select", ["pred[]", "f32[3]"], lambda b, p, x: Conditional(
        p, x, add_one(), x, square()))
    assert stats(comp, "conditional-to-select") == {"conditional-to-select": {"if": 1}, "left": 0}
    check(comp, [np.bool_(value), X], X + 1 if value else X * X, passes="conditional-to-select")


def test_to_select_two_way_case():
    """A case of two branches selects on index == 0: every other index runs branch 1."""
    branches = [computation("n", ["s32[2]"], lambda b, v: -v),
                computation("d", ["s32[2]"], lambda b, v: v + v)]
    comp = computation("case2", ["s32[]", "s32[2]"], lambda b, i, v: Conditional(i, branches, [v, v]))
    assert stats(comp, "conditional-to-select") == {"conditional-to-select": {"case": 1}, "left": 0}
    v = np.array([3, -4], np.int32)
    same_with_and_without(comp, "conditional-to-select",
                          [((np.int32(i), v), -v if i == 0 else v + v) for i in (0, 1, 2, -1)])


def test_to_select_leaves_big_branches():
    comp = computation("big", ["pred[]", "f32[3]"], lambda b, p, x: Conditional(p, x, add_one(), x, square()))
    assert stats(comp, "conditional-to-select{max-branch-ops=0}") == {"left": 1}


def test_options_and_summaries():
    cls = registry.get("conditional-to-select")
    assert cls.from_options({"max-branch-ops": "3"}).max_branch_ops == 3
    assert [o.name for o in cls.options()] == ["max-branch-ops"]
    assert registry.get("conditional-simplifier").options() == []
    assert "constant predicate" in registry.get("conditional-simplifier").summary()


# --- generated modules ---------------------------------------------------------------------------
F32 = "tensor<4xf32>"
UNARY = ("negate", "abs", "tanh", "sine")
BINARY = ("add", "subtract", "multiply", "maximum", "minimum")
PREDICATES = ("%p", "%q", "%true", "%false")
INDICES = ("%k", "%k", "%k", "%k", "%cm1", "%c0", "%c1", "%c2", "%c5")  # a run-time index half the time
HEADER = """func.func @main(%p: tensor<i1>, %q: tensor<i1>, %k: tensor<i32>,
                 %x: tensor<4xf32>, %y: tensor<4xf32>) -> (RESULT_TYPES) {
  %true = stablehlo.constant dense<true> : tensor<i1>
  %false = stablehlo.constant dense<false> : tensor<i1>
  %cm1 = stablehlo.constant dense<-1> : tensor<i32>
  %c0 = stablehlo.constant dense<0> : tensor<i32>
  %c1 = stablehlo.constant dense<1> : tensor<i32>
  %c2 = stablehlo.constant dense<2> : tensor<i32>
  %c5 = stablehlo.constant dense<5> : tensor<i32>
"""


class _Program:
    """Writes one generated module: top-level conditionals over %x and %y whose branches
    compute element-wise ops, return captured values (sometimes the same one in every
    branch), hold nested conditionals, and (with ``effects``) side-effecting custom calls."""

    def __init__(self, draw, effects: bool):
        self.draw, self.effects = draw, effects
        self.names = itertools.count()
        self.lines: list[str] = []

    def fresh(self) -> str:
        return f"%v{next(self.names)}"

    def ops(self, pool: list[str], indent: str) -> None:
        """Appends a few element-wise ops of ``pool`` values to ``pool``."""
        for _ in range(self.draw(st.integers(0, 3))):
            name = self.fresh()
            if self.draw(st.booleans()):
                op, a = self.draw(st.sampled_from(UNARY)), self.draw(st.sampled_from(pool))
                self.lines.append(f"{indent}{name} = stablehlo.{op} {a} : {F32}")
            else:
                op = self.draw(st.sampled_from(BINARY))
                a, b = self.draw(st.sampled_from(pool)), self.draw(st.sampled_from(pool))
                self.lines.append(f"{indent}{name} = stablehlo.{op} {a}, {b} : {F32}")
            pool.append(name)

    def conditional(self, pool: list[str], indent: str, depth: int) -> list[str]:
        """Appends a conditional reading ``pool``; returns its results."""
        draw = self.draw
        if draw(st.booleans()):
            kind, index, branches = "if", draw(st.sampled_from(PREDICATES)), 2
        else:
            kind, index, branches = "case", draw(st.sampled_from(INDICES)), draw(st.integers(1, 3))
        count = draw(st.integers(1, 3))
        shared = {i: draw(st.sampled_from(pool)) for i in range(count) if draw(st.integers(0, 2)) == 0}
        name = self.fresh()
        index_type = "tensor<i1>" if kind == "if" else "tensor<i32>"
        self.lines.append(f'{indent}{name}:{count} = "stablehlo.{kind}"({index}) ({{')
        for branch in range(branches):
            local = list(pool)
            self.ops(local, indent + "  ")
            if depth < 1 and draw(st.integers(0, 3)) == 0:
                local += self.conditional(local, indent + "  ", depth + 1)
                self.ops(local, indent + "  ")
            if self.effects and draw(st.integers(0, 4)) == 0:
                effect = self.fresh()
                read = draw(st.sampled_from(local))
                self.lines.append(f"{indent}  {effect} = stablehlo.custom_call @effect({read})"
                                  f" {{has_side_effect = true}} : ({F32}) -> {F32}")
                local.append(effect)
            returned = [shared.get(i) or draw(st.sampled_from(local)) for i in range(count)]
            types = ", ".join([F32] * count)
            self.lines.append(f"{indent}  stablehlo.return {', '.join(returned)} : {types}")
            self.lines.append(f"{indent}}}{', {' if branch + 1 < branches else ')'}")
        self.lines[-1] += f" : ({index_type}) -> ({', '.join([F32] * count)})"
        return [f"{name}#{i}" for i in range(count)]

    def module(self) -> str:
        pool = ["%x", "%y"]
        top = []
        for _ in range(self.draw(st.integers(1, 4))):
            results = self.conditional(pool, "  ", 0)
            top += results
            pool += results
            self.ops(pool, "  ")
        outputs = self.draw(st.lists(st.sampled_from(top), min_size=1, max_size=6))
        self.lines.append(f"  return {', '.join(outputs)} : {', '.join([F32] * len(outputs))}")
        types = ", ".join([F32] * len(outputs))
        return HEADER.replace("RESULT_TYPES", types) + "\n".join(self.lines) + "\n}\n"


def programs(effects: bool = False):
    return st.composite(lambda draw: _Program(draw, effects).module())()


def parse(text: str) -> ir.Module:
    with get_context():
        return ir.Module.parse(text)


@settings(max_examples=300, deadline=None)
@given(programs(effects=True))
def test_generated_modules_stay_valid_and_reach_a_fixed_point(text):
    """Both passes on modules with side effects: valid IR after each (run_pipeline verifies),
    a second run changes nothing, and no effect-free conditional with a constant predicate
    is left."""
    module = parse(text)
    run_pipeline(module, BOTH)
    after = module.operation.get_asm()
    assert not run_pipeline(module, BOTH).changed, after
    for op in conditional_ops(module):
        effects = any(has_side_effects(region.blocks[0].operations) for region in op.regions)
        assert effects or taken_branch(op) is None, after


def three_way(op) -> bool:
    """Whether conditional ``op`` is a case of three branches or holds one."""
    return any(len(o.regions) == 3 for o in conditional_ops(op))


@settings(max_examples=examples(20), deadline=None)
@given(programs(), st.integers(0, 3))
def test_generated_modules_keep_their_numbers(text, seed):
    """Both passes under the semantics check (``hlo-opt --verify-semantics``): compiled and
    run before and after each pass on the same random inputs, no difference."""
    module = parse(text)
    run_pipeline(module, BOTH, semantics_checker=lambda m: SemanticsChecker(m, seed=seed))
    # Free of effects and small, every conditional but a three-way case with a run-time
    # index (or one holding such a case) is gone.
    assert all(three_way(op) for op in conditional_ops(module)), module.operation.get_asm()
