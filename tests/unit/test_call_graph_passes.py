"""flatten-call-graph, hlo-module-dce, hlo-subcomputation-unification and map-inliner:
builder programs compiled with and without each pass against numpy (and XLA CPU),
statistics, and hypothesis properties over generated modules of calls, maps and loops
(valid IR, the structure each pass promises, a fixed point, and the same numbers under the
semantics check of ``hlo-opt --verify-semantics``)."""

from __future__ import annotations

import itertools

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from iree.compiler import ir

import hlo_mlir
from hlo_mlir import Call, ConstantR0, GetTupleElement, Map, Tuple, While, ir_access
from hlo_mlir.context import get_context
from hlo_mlir.semantics import SemanticsChecker
from pipelines import registry
from pipelines.matchers import ops_where
from pipelines.pipeline import run_pipeline
from pipelines.simplifiers.flatten_call_graph import call_sites, callee_of
from pipelines.simplifiers.hlo_subcomputation_unification import same_function
from tests.builders import computation
from tests.oracle import assert_close, check, run_iree
from tests.properties import examples

PASSES = ("flatten-call-graph", "hlo-module-dce", "hlo-subcomputation-unification", "map-inliner")
X = np.array([1.5, -2.0, 0.25], np.float32)
Y = np.array([0.5, 3.0, -1.0], np.float32)


def stats(comp, passes: str) -> tuple[dict, ir.Module]:
    """The statistics of ``passes`` run on a copy of ``comp``'s module, and that module."""
    module = hlo_mlir.compiler.as_module(comp)
    result = run_pipeline(module, passes).statistics()
    return {name: dict(counter) for name, counter in result.items()}, module


def private_functions(module: ir.Module) -> list:
    return [f for f in ir_access.functions(module) if not ir_access.is_public(f)]


def most_sites(module: ir.Module) -> int:
    """The most ``func.call`` sites any private function has."""
    sites = call_sites(module)
    return max((len(sites.get(ir_access.symbol_name(f), [])) for f in private_functions(module)), default=0)


# --- builder programs --------------------------------------------------------------------------
def square():
    return computation("square", ["f32[3]"], lambda b, x: x * x)


# main(x, y) = sq(x) + helper(y) + helper(x), helper(x) = sq(x) - x: @square has three
# call sites once @helper has a copy per site (the builder would import a copy per Call).
TWICE_CALLED = """
func.func @main(%x: tensor<3xf32>, %y: tensor<3xf32>) -> tensor<3xf32> {
  %0 = call @square(%x) : (tensor<3xf32>) -> tensor<3xf32>
  %1 = call @helper(%y) : (tensor<3xf32>) -> tensor<3xf32>
  %2 = call @helper(%x) : (tensor<3xf32>) -> tensor<3xf32>
  %3 = stablehlo.add %0, %1 : tensor<3xf32>
  %4 = stablehlo.add %3, %2 : tensor<3xf32>
  return %4 : tensor<3xf32>
}
func.func private @square(%x: tensor<3xf32>) -> tensor<3xf32> {
  %0 = stablehlo.multiply %x, %x : tensor<3xf32>
  return %0 : tensor<3xf32>
}
func.func private @helper(%x: tensor<3xf32>) -> tensor<3xf32> {
  %0 = call @square(%x) : (tensor<3xf32>) -> tensor<3xf32>
  %1 = stablehlo.subtract %0, %x : tensor<3xf32>
  return %1 : tensor<3xf32>
}
"""


def test_flatten_gives_each_site_its_own_function():
    """XLA FlattenCallGraph: three sites of @square (one in main, one per copy of @helper)."""
    comp = TWICE_CALLED
    result, module = stats(comp, "flatten-call-graph")
    assert result == {"flatten-call-graph": {"functions-cloned": 3}}
    assert most_sites(module) == 1 and len(private_functions(module)) == 5
    check(comp, [X, Y], X * X + (Y * Y - Y) + (X * X - X), passes="flatten-call-graph")


def test_unification_undoes_flattening():
    """Unifying the flattened module merges the copies back: the original functions remain."""
    comp = TWICE_CALLED
    result, module = stats(comp, "flatten-call-graph,hlo-subcomputation-unification")
    assert result["hlo-subcomputation-unification"] == {"functions-merged": 3}
    assert len(private_functions(module)) == 2
    assert module.operation.get_asm() == hlo_mlir.compiler.as_module(comp).operation.get_asm()


def test_unification_merges_identical_callees():
    """Two computations built apart, identical but for their names, become one."""
    other = computation("other_square", ["f32[3]"], lambda b, x: x * x)
    comp = computation("two", ["f32[3]"], lambda b, x: Call(b, square(), [x]) - Call(b, other, [x + x]))
    result, module = stats(comp, "hlo-subcomputation-unification")
    assert result == {"hlo-subcomputation-unification": {"functions-merged": 1}}
    assert [ir_access.symbol_name(f) for f in private_functions(module)] == ["square"]
    check(comp, [X], X * X - 4 * X * X, passes="hlo-subcomputation-unification")


def pair_loop(b, x):
    """A loop of three steps carrying (i, x, x * x...): only x + 1 per step is read."""
    cond = computation("cond", ["(s32[], f32[3], f32[3])"],
                       lambda b, t: GetTupleElement(t, 0) < np.int32(3))
    body = computation("body", ["(s32[], f32[3], f32[3])"], lambda b, t: Tuple(b, [
        GetTupleElement(t, 0) + np.int32(1), GetTupleElement(t, 1) + np.float32(1),
        GetTupleElement(t, 2) * GetTupleElement(t, 1)]))
    loop = While(cond, body, Tuple(b, [ConstantR0(b, np.int32(0)), x, x]))
    return GetTupleElement(loop, 1)


def test_module_dce_drops_unread_parameters_and_loop_values():
    """A helper with an unread parameter and a loop value nothing reads: both leave (XLA
    HloModuleDCE), with the loop's multiply."""
    helper = computation("helper", ["f32[3]", "f32[3]", "f32[3]"], lambda b, x, y, unread: x + y)
    comp = computation("dce", ["f32[3]", "f32[3]"],
                       lambda b, x, y: Call(b, helper, [x, y, x]) + pair_loop(b, y))
    passes = "algsimp,dce,hlo-module-dce"  # algsimp folds the builder's tuple plumbing first
    result, module = stats(comp, passes)
    assert result["hlo-module-dce"] == {"unused-parameters": 1, "dead-carried-values": 1}
    (helper_func,) = private_functions(module)
    assert str(ir_access.function_type(helper_func)) == "(tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>"
    assert not ops_where(module, lambda op: op.name == "stablehlo.multiply")
    check(comp, [X, Y], X + Y + Y + 3, passes=passes)


DEAD_CALLS = """
func.func @main(%x: tensor<3xf32>) -> tensor<3xf32> {
  %a = call @pure(%x) : (tensor<3xf32>) -> tensor<3xf32>
  %b = call @effect(%x) : (tensor<3xf32>) -> tensor<3xf32>
  %c = call @pure(%x) : (tensor<3xf32>) -> tensor<3xf32>
  return %c : tensor<3xf32>
}
func.func private @pure(%x: tensor<3xf32>) -> tensor<3xf32> {
  %0 = stablehlo.exponential %x : tensor<3xf32>
  return %0 : tensor<3xf32>
}
func.func private @effect(%x: tensor<3xf32>) -> tensor<3xf32> {
  %0 = stablehlo.custom_call @log(%x) {has_side_effect = true} : (tensor<3xf32>) -> tensor<3xf32>
  return %0 : tensor<3xf32>
}
"""


def test_module_dce_erases_unread_calls_of_effect_free_functions_only():
    """XLA's HloDCE removes a dead kCall of a computation without side effects; a call of
    one with side effects stays, its unread result dropped."""
    module = parse(DEAD_CALLS)
    result = run_pipeline(module, "hlo-module-dce").statistics()["hlo-module-dce"]
    assert dict(result) == {"dead-calls": 1, "unused-results": 1}
    sites = call_sites(module)
    assert len(sites["pure"]) == 1 and len(sites["effect"]) == 1
    assert not sites["effect"][0].results


def test_map_inliner_rules():
    """XLA MapInliner: one element-wise op on the parameters, a parameter, a constant."""
    sub = computation("sub", ["f32[]", "f32[]"], lambda b, x, y: y - x)
    second = computation("second", ["f32[]", "f32[]"], lambda b, x, y: y)
    scaled = computation("scaled", ["f32[]"], lambda b, x: x * np.float32(3))
    four = computation("four", ["f32[]"], lambda b, x: ConstantR0(b, np.float32(4)))
    comp = computation("maps", ["f32[3]", "f32[3]"], lambda b, x, y: Tuple(b, [
        Map(b, [x, y], sub, [0]), Map(b, [x, y], second, [0]), Map(b, [x], scaled, [0]),
        Map(b, [y], four, [0])]))
    result, module = stats(comp, "map-inliner")
    assert result == {"map-inliner": {"elementwise": 2, "parameter": 1, "invariant": 1}}
    assert not ops_where(module, lambda op: op.name == "stablehlo.map")
    expected = (Y - X, Y, 3 * X, np.full(3, 4, np.float32))
    for spec in ("", "map-inliner"):
        assert_close(run_iree(comp, X, Y, passes=spec), expected, what=spec)


def test_map_inliner_compare_and_leftover():
    """A compare keeps its direction and gives PRED; a body of two ops stays a map."""
    ge = computation("ge", ["s32[]", "s32[]"], lambda b, x, y: x >= y)
    two = computation("two", ["s32[]"], lambda b, x: x * x + x)
    comp = computation("maps", ["s32[4]", "s32[4]"], lambda b, x, y: Tuple(b, [
        Map(b, [x, y], ge, [0]), Map(b, [x], two, [0])]))
    result, module = stats(comp, "map-inliner")
    assert result == {"map-inliner": {"elementwise": 1}}
    assert len(ops_where(module, lambda op: op.name == "stablehlo.map")) == 1
    a, c = np.array([1, -2, 3, 0], np.int32), np.array([1, 5, -3, 0], np.int32)
    check(comp, [a, c], (a >= c, a * a + a), passes="map-inliner")


def test_summaries():
    for name in PASSES:
        cls = registry.get(name)
        assert cls.summary() and cls.options() == []


# --- generated modules ---------------------------------------------------------------------------
F32 = "tensor<4xf32>"
UNARY = ("negate", "abs", "tanh", "sine")
BINARY = ("add", "subtract", "multiply", "maximum", "minimum")


class _Program:
    """Writes one generated module: leaf functions (some exact copies of earlier ones under
    other names), middle functions calling leaves, and @main calling both, with maps of
    one-op bodies, loops carrying values nothing reads, unread parameters and unread results
    (and, with ``effects``, side-effecting custom calls whose results may be unread)."""

    def __init__(self, draw, effects: bool):
        self.draw, self.effects = draw, effects
        self.names = itertools.count()
        self.functions: list[tuple[str, int, int]] = []  # (name, parameters, results)
        self.texts: list[str] = []

    def fresh(self) -> str:
        return f"%v{next(self.names)}"

    def ops(self, pool: list[str], lines: list[str]) -> None:
        draw = self.draw
        for _ in range(draw(st.integers(0, 2))):
            name, kind = self.fresh(), draw(st.integers(0, 5 if self.effects else 4))
            a, b = draw(st.sampled_from(pool)), draw(st.sampled_from(pool))
            if kind == 5:
                lines.append(f"  {name} = stablehlo.custom_call @effect({a}) {{has_side_effect = true}}"
                             f" : ({F32}) -> {F32}")
            elif kind == 0:
                lines.append(f"  {name} = stablehlo.{draw(st.sampled_from(UNARY))} {a} : {F32}")
            elif kind == 1:
                lines += self.map(name, a, b)
            elif kind == 2:
                lines += self.loop(name, a, b)
                name = f"{name}#{draw(st.integers(1, 2))}"  # #1 alone leaves %w dead
            else:
                lines.append(f"  {name} = stablehlo.{draw(st.sampled_from(BINARY))} {a}, {b} : {F32}")
            pool.append(name)

    def map(self, name: str, a: str, b: str) -> list[str]:
        body = self.draw(st.sampled_from([
            "%s = stablehlo.subtract %q, %p : tensor<f32>", "%s = stablehlo.maximum %p, %q : tensor<f32>",
            "%c = stablehlo.constant dense<0.5> : tensor<f32>\n"
            "    %s = stablehlo.multiply %p, %c : tensor<f32>",
            "%s = stablehlo.add %q, %q : tensor<f32>", "%t = stablehlo.tanh %p : tensor<f32>\n"
            "    %s = stablehlo.add %t, %q : tensor<f32>", "RETURN_Q"]))
        returned = "%q" if body == "RETURN_Q" else "%s"
        body = "" if body == "RETURN_Q" else f"    {body}\n"
        return [f'  {name} = "stablehlo.map"({a}, {b}) ({{\n  ^bb0(%p: tensor<f32>, %q: tensor<f32>):\n'
                f"{body}    stablehlo.return {returned} : tensor<f32>\n"
                f"  }}) {{dimensions = array<i64: 0>}} : ({F32}, {F32}) -> {F32}"]

    def loop(self, name: str, a: str, b: str) -> list[str]:
        return [f"  {name}:3 = stablehlo.while(%i = %zero, %u = {a}, %w = {b}) : tensor<i32>, {F32}, {F32}",
                "  cond {",
                "    %n = stablehlo.constant dense<3> : tensor<i32>",
                "    %lt = stablehlo.compare LT, %i, %n, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>",
                "    stablehlo.return %lt : tensor<i1>",
                "  } do {",
                "    %one = stablehlo.constant dense<1> : tensor<i32>",
                "    %i1 = stablehlo.add %i, %one : tensor<i32>",
                f"    %u1 = stablehlo.tanh %u : {F32}",
                f"    %w1 = stablehlo.add %w, %u : {F32}",
                f"    stablehlo.return %i1, %u1, %w1 : tensor<i32>, {F32}, {F32}",
                "  }"]

    def calls(self, pool: list[str], lines: list[str], callees: list) -> None:
        for _ in range(self.draw(st.integers(0 if not callees else 1, 3))):
            if not callees:
                return
            name, params, results = self.draw(st.sampled_from(callees))
            args = ", ".join(self.draw(st.sampled_from(pool)) for _ in range(params))
            value = self.fresh()
            types = ", ".join([F32] * results)
            lines.append(f"  {value}:{results} = func.call @{name}({args}) : ({', '.join([F32] * params)})"
                         f" -> ({types})")
            pool += [f"{value}#{i}" for i in range(self.draw(st.integers(1, results)))]  # others unread

    def function(self, name: str, callees: list) -> None:
        draw = self.draw
        if self.texts and draw(st.integers(0, 2)) == 0:
            # An exact copy of an earlier function under another name (it calls leaves only).
            index = draw(st.integers(0, len(self.texts) - 1))
            original, params, results = self.functions[index]
            header = f"func.func private @{original}("
            self.functions.append((name, params, results))
            self.texts.append(self.texts[index].replace(header, f"func.func private @{name}(", 1))
            return
        params, results = draw(st.integers(1, 3)), draw(st.integers(1, 3))
        pool = [f"%a{i}" for i in range(params)]
        lines = ["  %zero = stablehlo.constant dense<0> : tensor<i32>"]
        self.calls(pool, lines, callees)
        self.ops(pool, lines)
        returned = [draw(st.sampled_from(pool)) for _ in range(results)]
        signature = ", ".join(f"%a{i}: {F32}" for i in range(params))
        self.functions.append((name, params, results))
        types = ", ".join([F32] * results)
        self.texts.append(f"func.func private @{name}({signature}) -> ({types}) {{\n" + "\n".join(lines)
                          + f"\n  return {', '.join(returned)} : {types}\n}}")

    def module(self) -> str:
        leaves = self.draw(st.integers(1, 3))
        for i in range(leaves):
            self.function(f"leaf{i}", [])
        for i in range(self.draw(st.integers(0, 2))):
            self.function(f"mid{i}", list(self.functions[:leaves]))
        pool, lines = ["%x", "%y"], ["  %zero = stablehlo.constant dense<0> : tensor<i32>"]
        self.calls(pool, lines, list(self.functions))
        self.ops(pool, lines)
        outputs = self.draw(st.lists(st.sampled_from(pool[2:] or pool), min_size=1, max_size=3))
        types = ", ".join([F32] * len(outputs))
        main = (f"func.func @main(%x: {F32}, %y: {F32}) -> ({types}) {{\n" + "\n".join(lines)
                + f"\n  return {', '.join(outputs)} : {types}\n}}")
        return "\n".join([main, *self.texts]) + "\n"


def programs(effects: bool = False):
    return st.composite(lambda draw: _Program(draw, effects).module())()


def effects_run(module: ir.Module) -> int:
    """How many side-effecting custom calls one run of @main makes, counting a call's callee
    each time it is called (loops and maps run in the generated modules once per op)."""
    functions = {ir_access.symbol_name(f): f for f in ir_access.functions(module)}

    def count(root) -> int:
        effects = ops_where(root, lambda op: op.name == "stablehlo.custom_call")
        calls = ops_where(root, lambda op: op.name == "func.call")
        return len(effects) + sum(count(functions[callee_of(call)]) for call in calls)

    return count(functions["main"])


def parse(text: str) -> ir.Module:
    with get_context():
        return ir.Module.parse(text)


def text_of(module: ir.Module) -> str:
    return module.operation.get_asm()


@settings(max_examples=200, deadline=None)
@given(programs(effects=True))
def test_generated_modules_get_the_promised_structure(text):
    """Each pass on its own, on modules with side effects: valid IR (run_pipeline
    verifies), what it promises, no side effect lost, and a second run changes nothing."""
    for name in PASSES:
        module = parse(text)
        effects = effects_run(module)
        run_pipeline(module, name)
        assert effects_run(module) == effects, (name, text_of(module))
        after = text_of(module)
        assert not run_pipeline(module, name).changed, (name, after)
        if name == "flatten-call-graph":
            assert most_sites(module) <= 1, after
        if name == "hlo-subcomputation-unification":
            funcs = private_functions(module)
            assert not any(same_function(a, b) for a, b in itertools.combinations(funcs, 2)), after
        if name == "map-inliner":
            for op in ops_where(module, lambda op: op.name == "stablehlo.map"):
                assert len(list(op.regions[0].blocks[0].operations)) > 2, after
        if name == "hlo-module-dce":
            sites = call_sites(module)
            for func in private_functions(module):
                calls = sites.get(ir_access.symbol_name(func), [])
                assert calls, after  # an uncalled function is gone
                block = func.regions[0].blocks[0]
                assert all(any(True for _ in a.uses) for a in block.arguments), after
                for i in range(len(ir_access.function_type(func).results)):
                    assert any(any(True for _ in c.results[i].uses) for c in calls), after


@settings(max_examples=examples(12), deadline=None)
@given(programs(), st.integers(0, 3))
def test_generated_modules_keep_their_numbers(text, seed):
    """All four passes under the semantics check (``hlo-opt --verify-semantics``): compiled
    and run before and after each pass on the same random inputs, no difference."""
    module = parse(text)
    run_pipeline(module, ",".join(PASSES), semantics_checker=lambda m: SemanticsChecker(m, seed=seed))
