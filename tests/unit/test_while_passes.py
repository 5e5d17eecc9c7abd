"""while-loop-constant-sinking, while-loop-invariant-code-motion and
while-loop-trip-count-annotator: builder programs compiled with and without each pass
against numpy (and XLA CPU), the annotation read back through the HloModule API, options,
idempotence, and hypothesis properties over generated modules of while loops (valid IR,
a fixed point, and the same numbers under the semantics check of
``hlo-opt --verify-semantics``)."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from iree.compiler import ir

import hlo_mlir
from hlo_mlir import Compare, ConstantR0, GetTupleElement, HloModule, Tuple, While
from hlo_mlir.context import get_context
from hlo_mlir.semantics import SemanticsChecker
from hlo_mlir.views import KNOWN_TRIP_COUNT_ATTR
from pipelines import registry
from pipelines.matchers import is_constant
from pipelines.pipeline import run_pipeline
from pipelines.simplifiers.while_loop_constant_sinking import passed_through
from pipelines.simplifiers.while_loop_unroller import trip_count, while_ops
from tests.builders import computation
from tests.oracle import assert_close, check, run_iree
from tests.properties import examples

SINK, LICM, ANNOTATE = ("while-loop-constant-sinking", "while-loop-invariant-code-motion",
                        "while-loop-trip-count-annotator")
ALL = f"{SINK},{LICM},{ANNOTATE}"
X = np.array([1.5, -2.0, 0.25], np.float32)
Y = np.array([0.5, 3.0, -1.0], np.float32)


def stats(comp, passes: str) -> dict:
    """The statistics of ``passes`` run on a copy of ``comp``'s module."""
    module = hlo_mlir.compiler.as_module(comp)
    return {name: dict(counter) for name, counter in run_pipeline(module, passes).statistics().items()}


def same_with_and_without(comp, passes: str, cases) -> None:
    """``comp`` gives each case's numpy answer compiled without any pass and with ``passes``."""
    for args, expected in cases:
        for spec in ("", passes):
            assert_close(run_iree(comp, *args, passes=spec), expected, what=f"passes={spec!r}, args={args}")


def counted(b, state: str, bound, update, init):
    """``While`` over the tuple ``state`` = (s32[] counter, ...): ``update(builder, values)``
    gives the next values of elements 1.. while ``counter < bound(builder, values)``."""
    def cond(cb, t):
        values = [GetTupleElement(t, k) for k in range(len(init))]
        return Compare(values[0], bound(cb, values), direction="LT")

    def body(bb, t):
        values = [GetTupleElement(t, k) for k in range(len(init))]
        return Tuple(bb, [values[0] + ConstantR0(bb, np.int32(1)), *update(bb, values)])

    loop = While(computation("cond", [state], cond), computation("body", [state], body), Tuple(b, init))
    return [GetTupleElement(loop, k) for k in range(len(init))]


# --- while-loop-constant-sinking ---------------------------------------------------------------
def constant_bound_program():
    """acc += x * c for i in 0..n: the bound n = 6 and c = 0.5 are constants the loop carries
    unchanged, x is a parameter it carries unchanged."""
    def fn(b, x):
        state = "(s32[], s32[], f32[], f32[3], f32[3])"
        out = counted(b, state, lambda cb, v: v[1],
                      lambda bb, v: [v[1], v[2], v[3], v[4] + v[3] * v[2]],
                      [ConstantR0(b, np.int32(0)), ConstantR0(b, np.int32(6)), ConstantR0(b, np.float32(0.5)),
                       x, x - x])
        return Tuple(b, [out[4], out[0]])
    return computation("constant_bound", ["f32[3]"], fn)


def test_sinking_into_body_and_condition():
    """XLA ConditionalSinkConstant and SinkOneConstant: the bound becomes a constant of the
    condition and c one of the body; x is no constant and stays carried."""
    comp = constant_bound_program()
    assert stats(comp, SINK) == {SINK: {"sunk-into-condition": 1, "sunk-into-body": 1}}
    check(comp, [X], (X * 3, np.int32(6)), passes=SINK)


def test_sinking_gives_the_trip_count_to_the_annotator():
    """Before sinking, the bound is a carried value and the count is unknown; after it, the
    condition compares with a constant and the annotation is readable from HloModule."""
    module = HloModule.from_computation(constant_bound_program())
    run_pipeline(module.module, ANNOTATE)
    (loop,) = [i for i in module.entry_computation.instructions() if i.opcode == "stablehlo.while"]
    assert loop.known_trip_count is None
    run_pipeline(module.module, f"{SINK},{ANNOTATE}")
    assert loop.known_trip_count == 6


def test_sinking_broadcast_of_constant_only_when_asked():
    def fn(b, x):
        state = "(s32[], f32[3], f32[3])"
        out = counted(b, state, lambda cb, v: ConstantR0(cb, np.int32(4)),
                      lambda bb, v: [v[1], v[2] * v[1]],
                      [ConstantR0(b, np.int32(0)), hlo_mlir.Broadcast(ConstantR0(b, np.float32(2)), [3]), x])
        return out[2]

    comp = computation("broadcast", ["f32[3]"], fn)
    assert stats(comp, SINK) == {}
    option = f"{SINK}{{sink-broadcast-of-constants=true}}"
    assert stats(comp, option) == {SINK: {"sunk-into-body": 1}}
    check(comp, [X], X * 16, passes=option)


def test_sinking_leaves_an_updated_constant():
    """c starts as a constant but the body doubles it: nothing is sunk."""
    def fn(b, x):
        out = counted(b, "(s32[], f32[], f32[3])", lambda cb, v: ConstantR0(cb, np.int32(3)),
                      lambda bb, v: [v[1] + v[1], v[2] * v[1]],
                      [ConstantR0(b, np.int32(0)), ConstantR0(b, np.float32(2)), x])
        return out[2]

    comp = computation("updated", ["f32[3]"], fn)
    assert stats(comp, SINK) == {}
    check(comp, [X], X * 64, passes=SINK)


# --- while-loop-invariant-code-motion --------------------------------------------------------------
def invariant_program():
    """acc += sin(x) * y + i for i in 0..n, n a parameter (the loop may run zero times): the
    product reads only carried-unchanged values and leaves the loop; the rest stays."""
    def fn(b, n, x, y):
        state = "(s32[], s32[], f32[3], f32[3], f32[3])"
        out = counted(
            b, state, lambda cb, v: v[1],
            lambda bb, v: [v[1], v[2], v[3],
                           v[4] + hlo_mlir.Sin(v[2]) * v[3]
                           + hlo_mlir.ConvertElementType(v[0], hlo_mlir.PrimitiveType.F32)],
            [ConstantR0(b, np.int32(0)), n, x, y, x - x])
        return out[4]
    return computation("invariant", ["s32[]", "f32[3]", "f32[3]"], fn)


def invariant_expected(n: int) -> np.ndarray:
    acc = np.zeros(3, np.float32)
    for i in range(max(n, 0)):
        acc = (acc + np.sin(X) * Y + np.float32(i)).astype(np.float32)
    return acc


def test_licm_hoists_an_invariant_tree():
    comp = invariant_program()
    assert stats(comp, LICM) == {LICM: {"hoisted": 2}}  # sine and multiply; the add reads acc
    same_with_and_without(comp, LICM, [((np.int32(n), X, Y), invariant_expected(n)) for n in (0, 1, 5)])
    check(comp, [np.int32(4), X, Y], invariant_expected(4), passes=LICM)


def test_licm_from_a_loop_that_runs_zero_times_does_not_trap():
    """x / y and x % y with y = 0 (and INT_MIN / -1) leave a loop that never runs: StableHLO
    division does not trap (XLA: x / 0 = -1, x % 0 = x), so the program's answer is the
    same and nothing crashes."""
    def fn(b, n, x, y):
        out = counted(b, "(s32[], s32[], s32[3], s32[3], s32[3])", lambda cb, v: v[1],
                      lambda bb, v: [v[1], v[2], v[3], v[4] + v[2] / v[3] + v[2] % v[3]],
                      [ConstantR0(b, np.int32(0)), n, x, y, x - x])
        return out[4]

    comp = computation("no_trap", ["s32[]", "s32[3]", "s32[3]"], fn)
    assert stats(comp, LICM) == {LICM: {"hoisted": 2}}
    x = np.array([7, -5, np.iinfo(np.int32).min], np.int32)
    y = np.array([0, 0, -1], np.int32)
    quotient = np.array([-1, -1, np.iinfo(np.int32).min], np.int32)
    remainder = np.array([7, -5, 0], np.int32)
    cases = [((np.int32(0), x, y), np.zeros(3, np.int32)), ((np.int32(2), x, y), 2 * (quotient + remainder))]
    same_with_and_without(comp, LICM, cases)


def test_licm_leaves_a_loop_of_one_trip():
    comp = computation("one_trip", ["f32[3]", "f32[3]"], lambda b, x, y: counted(
        b, "(s32[], f32[3], f32[3], f32[3])", lambda cb, v: ConstantR0(cb, np.int32(1)),
        lambda bb, v: [v[1], v[2], v[1] * v[2]], [ConstantR0(b, np.int32(0)), x, y, x])[3])
    assert stats(comp, LICM) == {}
    check(comp, [X, Y], X * Y, passes=LICM)


def test_licm_options_and_summaries():
    cls = registry.get(LICM)
    pass_ = cls.from_options({"hoist-constants": "true", "hoist-size-inflation-ratio": "2.5"})
    assert (pass_.hoist_constants, pass_.hoist_size_inflation_ratio, pass_.hoist_other) == (True, 2.5, True)
    assert [o.name for o in cls.options()] == [
        "hoist-constants", "hoist-reshapes", "hoist-other", "hoist-size-inflation-ratio"]
    assert [o.name for o in registry.get(SINK).options()] == ["sink-broadcast-of-constants"]
    assert registry.get(ANNOTATE).options() == []
    assert "invariant" in cls.summary() and "trip count" in registry.get(ANNOTATE).summary()


def test_licm_hoist_other_false_hoists_only_reshapes():
    def fn(b, x):
        out = counted(b, "(s32[], f32[3], f32[3])", lambda cb, v: ConstantR0(cb, np.int32(3)),
                      lambda bb, v: [v[1], v[2] + hlo_mlir.Reshape(
                          hlo_mlir.Reshape(v[1], [3, 1]) * np.float32(2), [3])],
                      [ConstantR0(b, np.int32(0)), x, x - x])
        return out[2]

    comp = computation("reshapes", ["f32[3]"], fn)
    assert stats(comp, f"{LICM}{{hoist-other=false}}") == {}  # reshapes are not worth it alone
    spec = f"{LICM}{{hoist-other=false hoist-reshapes=true}}"
    assert stats(comp, spec) == {LICM: {"hoisted": 1}}  # the first reshape; the multiply stays
    check(comp, [X], X * 6, passes=spec)


# --- while-loop-trip-count-annotator -------------------------------------------------------------
def test_annotator_through_the_hlo_module_api_and_a_text_round_trip():
    def fn(b, x):
        first = counted(b, "(s32[], f32[3])", lambda cb, v: ConstantR0(cb, np.int32(7)),
                        lambda bb, v: [v[1] * np.float32(2)], [ConstantR0(b, np.int32(0)), x])[1]
        return counted(b, "(s32[], s32[], f32[3])", lambda cb, v: v[1],
                       lambda bb, v: [v[1], v[2] + np.float32(1)],
                       [ConstantR0(b, np.int32(0)), ConstantR0(b, np.int32(2)) * 2, first])[2]

    comp = computation("annotated", ["f32[3]"], fn)
    module = HloModule.from_computation(comp)
    result = run_pipeline(module.module, ANNOTATE)
    assert result.statistics() == {ANNOTATE: {"annotated": 1}}
    loops = [i for i in module.entry_computation.instructions() if i.opcode == "stablehlo.while"]
    assert [loop.known_trip_count for loop in loops] == [7, None]  # the second bound is no constant
    assert module.entry_computation.root_instruction().known_trip_count is None  # not a loop
    again = HloModule.parse(module.to_text())
    assert [i.known_trip_count for i in again.entry_computation.instructions()
            if i.opcode == "stablehlo.while"] == [7, None]
    assert not run_pipeline(module.module, ANNOTATE).changed
    expected = X * 128 + 4
    assert_close(hlo_mlir.runtime.load(hlo_mlir.compile(module, passes="")).main(X), expected)
    check(comp, [X], expected, passes=ANNOTATE)


# --- loops IREE ran wrong once while-invariant-yields tied their yields through a barrier ---------
F32 = "tensor<4xf32>"


def loop_text(params: str, prelude: list[str], carried: list[tuple[str, str, str]], bound: str,
              body: list[str], yields: list[str]) -> str:
    """A module whose @main runs one loop and returns its results: counter ``%i`` from 0
    while ``%i < bound``, then ``carried`` values (name, init, type) whose next values are
    ``yields``, computed by the ``body`` lines (``%one`` is 1); ``prelude`` lines define the
    inits after ``%c0``."""
    names = [("%i", "%c0", "tensor<i32>"), *carried]
    types = ", ".join(t for _, _, t in names)
    lines = [f"func.func @main({params}) -> ({types}) {{",
             "  %c0 = stablehlo.constant dense<0> : tensor<i32>", *(f"  {line}" for line in prelude),
             f"  %r:{len(names)} = stablehlo.while({', '.join(f'{n} = {i}' for n, i, _ in names)}) : {types}",
             "  cond {",
             f"    %p = stablehlo.compare LT, %i, {bound}, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>",
             "    stablehlo.return %p : tensor<i1>", "  } do {",
             "    %one = stablehlo.constant dense<1> : tensor<i32>",
             "    %i1 = stablehlo.add %i, %one : tensor<i32>",
             *(f"    {line}" for line in body),
             f"    stablehlo.return %i1, {', '.join(yields)} : {types}", "  }",
             f"  return {', '.join(f'%r#{k}' for k in range(len(names)))} : {types}", "}"]
    return "\n".join(lines) + "\n"


THREE_FLOATS = loop_text(
    f"%x: {F32}, %n: tensor<i32>", [f"%k = stablehlo.constant dense<1.5> : {F32}"],
    [("%a", "%k", F32), ("%b", "%k", F32), ("%c", "%x", F32)], "%n",
    [f"%a1 = stablehlo.tanh %a : {F32}", f"%b1 = stablehlo.tanh %b : {F32}"], ["%a1", "%b1", "%x"])
ZERO_TRIPS = loop_text(
    f"%x: {F32}, %y: {F32}, %n: tensor<i32>", [],
    [("%b", "%c0", "tensor<i32>"), ("%a", "%x", F32), ("%c", "%x", F32)], "%n",
    [f"%a1 = stablehlo.tanh %y : {F32}", f"%c1 = stablehlo.tanh %c : {F32}"], ["%b", "%a1", "%c1"])
NEVER_RUNS = loop_text(
    f"%x: {F32}", ["%ks = stablehlo.constant dense<1.5> : tensor<f32>",
                   f"%kb = stablehlo.broadcast_in_dim %ks, dims = [] : (tensor<f32>) -> {F32}"],
    [("%b", "%c0", "tensor<i32>"), ("%a", "%kb", F32), ("%c", "%kb", F32)], "%b",
    [f"%a1 = stablehlo.tanh %a : {F32}", f"%c1 = stablehlo.tanh %c : {F32}"], ["%b", "%a1", "%c1"])
_X4 = np.array([0.25, -0.26, 1.28, 0.2], np.float32)
_TANH2 = np.tanh(np.tanh(np.full(4, 1.5, np.float32)))


@pytest.mark.parametrize("text, args, expected", [
    (THREE_FLOATS, [_X4, np.int32(2)], (np.int32(2), _TANH2, _TANH2, _X4)),
    (ZERO_TRIPS, [_X4, _X4 + 1, np.int32(0)], (np.int32(0), np.int32(0), _X4, _X4)),
    (NEVER_RUNS, [_X4], (np.int32(0), np.int32(0), np.full(4, 1.5, np.float32), np.full(4, 1.5, np.float32))),
], ids=["three-floats", "zero-trips", "never-runs"])
def test_loops_with_a_loop_invariant_yield_run(text, args, expected):
    """A body yielding a loop-invariant value (as LICM leaves a hoisted yield), or a loop that
    never runs carrying two values of one init: IREE failed at run time ("ref is null" in
    hal.buffer.subspan / hal.buffer_view.create) while while-invariant-yields tied yields
    through a barrier (docs/iree-defects.md 'Tied yields of loops IREE mishandles')."""
    check(hlo_mlir.XlaComputation(parse(text)), args, expected, passes="")


# --- generated modules ---------------------------------------------------------------------------
UNARY = ("negate", "abs", "tanh", "sine", "cosine")
BINARY = ("add", "subtract", "multiply", "maximum", "minimum")
HEADER = """func.func @main(%x: tensor<4xf32>, %y: tensor<4xf32>, %s: tensor<f32>, %n: tensor<i32>)
    -> (RESULT_TYPES) {
  %c0 = stablehlo.constant dense<0> : tensor<i32>
  %c3 = stablehlo.constant dense<3> : tensor<i32>
  %k = stablehlo.constant dense<[0.5, -1.0, 2.0, 0.25]> : tensor<4xf32>
  %ks = stablehlo.constant dense<1.5> : tensor<f32>
  %kb = stablehlo.broadcast_in_dim %ks, dims = [] : (tensor<f32>) -> tensor<4xf32>
"""


class _Program:
    """Writes one generated module: a counted loop (bound: a carried constant or parameter,
    a constant of the condition, or a captured parameter) carrying f32[4] values and an f32
    scalar that it passes through or updates; its body computes element-wise ops,
    broadcasts, reverses and (sometimes) a nested counted loop over values of the
    body, and with ``effects`` side-effecting custom calls."""

    def __init__(self, draw, effects: bool):
        self.draw, self.effects = draw, effects
        self.names = itertools.count()
        self.lines: list[str] = []

    def fresh(self) -> str:
        return f"%v{next(self.names)}"

    def emit(self, indent: str, text: str) -> str:
        name = self.fresh()
        self.lines.append(f"{indent}{name} = {text}")
        return name

    def ops(self, pool: list[str], scalars: list[str], indent: str, count: int) -> None:
        """Appends ``count`` ops over ``pool`` (f32[4]) and ``scalars`` (f32) to ``pool``."""
        draw = self.draw
        for _ in range(count):
            kind = draw(st.sampled_from(("unary", "binary", "binary", "broadcast", "reverse")))
            if kind == "unary":
                op, a = draw(st.sampled_from(UNARY)), draw(st.sampled_from(pool))
                pool.append(self.emit(indent, f"stablehlo.{op} {a} : {F32}"))
            elif kind == "binary":
                op, a, b = (draw(st.sampled_from(s)) for s in (BINARY, pool, pool))
                pool.append(self.emit(indent, f"stablehlo.{op} {a}, {b} : {F32}"))
            elif kind == "broadcast":
                a = draw(st.sampled_from(scalars))
                pool.append(self.emit(indent, f"stablehlo.broadcast_in_dim {a}, dims = [] : (tensor<f32>)"
                                              f" -> {F32}"))
            else:
                a = draw(st.sampled_from(pool))
                pool.append(self.emit(indent, f"stablehlo.reverse {a}, dims = [0] : {F32}"))

    def inner_loop(self, pool: list[str], scalars: list[str], indent: str) -> str:
        """A loop of two trips in the body: u = tanh(u op v), v a captured body value."""
        name, j, u = self.fresh(), self.fresh(), self.fresh()
        start, v = self.draw(st.sampled_from(pool)), self.draw(st.sampled_from(pool))
        op = self.draw(st.sampled_from(BINARY))
        i2 = indent + "  "
        self.lines += [
            f"{indent}{name}:2 = stablehlo.while({j} = %c0, {u} = {start}) : tensor<i32>, {F32}",
            f"{indent}cond {{",
            f"{i2}%two = stablehlo.constant dense<2> : tensor<i32>",
            f"{i2}%lt = stablehlo.compare LT, {j}, %two, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>",
            f"{i2}stablehlo.return %lt : tensor<i1>",
            f"{indent}}} do {{",
            f"{i2}%one = stablehlo.constant dense<1> : tensor<i32>",
            f"{i2}%j1 = stablehlo.add {j}, %one : tensor<i32>",
            f"{i2}%w = stablehlo.{op} {u}, {v} : {F32}",
            f"{i2}%u1 = stablehlo.tanh %w : {F32}",
            f"{i2}stablehlo.return %j1, %u1 : tensor<i32>, {F32}",
            f"{indent}}}",
        ]
        return f"{name}#1"

    def module(self) -> str:
        draw = self.draw
        inits = draw(st.lists(st.sampled_from(("%x", "%y", "%k", "%kb")), min_size=1, max_size=3))
        scalar = draw(st.sampled_from(("%s", "%ks", None)))
        bound_init = draw(st.sampled_from(("%c3", "%n", "%c0")))
        condition = draw(st.sampled_from(("carried", "constant", "captured")))
        args = [f"%a{k}" for k in range(len(inits))]
        head = [("%i", "%c0", "tensor<i32>"), ("%b", bound_init, "tensor<i32>")]
        if scalar is not None:
            head.append(("%sc", scalar, "tensor<f32>"))
        carried = head + [(a, init, F32) for a, init in zip(args, inits, strict=True)]
        types = ", ".join(t for _, _, t in carried)
        bound = {"carried": "%b", "constant": "%cb", "captured": "%n"}[condition]
        pairs = ", ".join(f"{name} = {init}" for name, init, _ in carried)
        self.lines += [f"  %r:{len(carried)} = stablehlo.while({pairs}) : {types}", "  cond {"]
        if condition == "constant":
            self.lines.append(f"    %cb = stablehlo.constant dense<{draw(st.integers(0, 4))}> : tensor<i32>")
        self.lines += [
            f"    %p = stablehlo.compare LT, %i, {bound}, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>",
            "    stablehlo.return %p : tensor<i1>", "  } do {",
            "    %c1 = stablehlo.constant dense<1> : tensor<i32>",
            "    %i1 = stablehlo.add %i, %c1 : tensor<i32>"]
        pool = args + ["%x", "%y"]
        scalars = ["%s"] + (["%sc"] if scalar is not None else [])
        self.ops(pool, scalars, "    ", draw(st.integers(0, 4)))
        if draw(st.integers(0, 3)) == 0:
            pool.append(self.inner_loop(pool, scalars, "    "))
            self.ops(pool, scalars, "    ", draw(st.integers(0, 2)))
        if self.effects and draw(st.booleans()):
            read = draw(st.sampled_from(pool))
            pool.append(self.emit("    ", f"stablehlo.custom_call @effect({read}) {{has_side_effect = true}}"
                                           f" : ({F32}) -> {F32}"))
        returned = ["%i1", "%b"]
        if scalar is not None:
            sine = "stablehlo.sine %sc : tensor<f32>"
            returned.append("%sc" if draw(st.booleans()) else self.emit("    ", sine))
        for a in args:  # passed through, or squashed so that values stay small
            if draw(st.booleans()):
                returned.append(a)
                continue
            value = draw(st.sampled_from(pool))  # loop-invariant when it reads no carried value
            returned.append(self.emit("    ", f"stablehlo.tanh {value} : {F32}"))
        self.lines.append(f"    stablehlo.return {', '.join(returned)} : {types}")
        self.lines.append("  }")
        self.lines.append(f"  return {', '.join(f'%r#{k}' for k in range(len(carried)))} : {types}")
        return HEADER.replace("RESULT_TYPES", types) + "\n".join(self.lines) + "\n}\n"


def programs(effects: bool = False):
    """Generated modules: yields may be loop invariant (read no carried value) and carried
    values may share an init (test_loops_with_a_loop_invariant_yield_run)."""
    return st.composite(lambda draw: _Program(draw, effects).module())()


def parse(text: str) -> ir.Module:
    with get_context():
        return ir.Module.parse(text)


def _reads_besides_return(op, index: int) -> bool:
    body = op.regions[1].blocks[0]
    terminator = list(body.operations)[-1]
    return any(use.owner != terminator.operation or use.operand_number != index
               for use in body.arguments[index].uses)


@settings(max_examples=200, deadline=None)
@given(programs(effects=True))
def test_generated_modules_stay_valid_and_reach_a_fixed_point(text):
    """The three passes on modules with side effects: valid IR after each (run_pipeline
    verifies), a second run changes nothing, no body reads a passed-through constant other
    than to return it, and every loop of a static trip count carries it."""
    module = parse(text)
    run_pipeline(module, ALL)
    after = module.operation.get_asm()
    assert not run_pipeline(module, ALL).changed, after
    for op in while_ops(module):
        for i in passed_through(op):
            assert not (is_constant(op.operands[i]) and _reads_besides_return(op, i)), after
        trips = trip_count(op)
        if trips is not None:
            assert ir.IntegerAttr(op.attributes[KNOWN_TRIP_COUNT_ATTR]).value == trips.count, after


@settings(max_examples=examples(6), deadline=None)
@given(programs(), st.integers(0, 3))
def test_generated_modules_keep_their_numbers(text, seed):
    """The three passes under the semantics check (``hlo-opt --verify-semantics``): compiled
    and run before and after each pass on the same random inputs, no difference."""
    module = parse(text)
    run_pipeline(module, ALL, semantics_checker=lambda m: SemanticsChecker(m, seed=seed))


@pytest.mark.parametrize("bound", ["%c3", "%n"])
def test_a_generated_shape_of_module_keeps_its_numbers(bound):
    """One fixed module of the generator's shape, so that every run checks a loop whose body
    has something to sink and to hoist (the random ones may have neither)."""
    text = loop_text(
        f"%x: {F32}, %y: {F32}, %s: tensor<f32>, %n: tensor<i32>",
        ["%c3 = stablehlo.constant dense<3> : tensor<i32>"],
        [("%b", bound, "tensor<i32>"), ("%a", "%x", F32)], "%b",
        [f"%e = stablehlo.broadcast_in_dim %s, dims = [] : (tensor<f32>) -> {F32}",
         f"%m = stablehlo.multiply %e, %y : {F32}", f"%t = stablehlo.sine %m : {F32}",
         f"%u = stablehlo.add %a, %t : {F32}", f"%v = stablehlo.tanh %u : {F32}"], ["%b", "%v"])
    module = parse(text)
    result = run_pipeline(module, ALL, semantics_checker=lambda m: SemanticsChecker(m, seed=1))
    statistics = {name: dict(counter) for name, counter in result.statistics().items()}
    assert statistics[LICM] == {"hoisted": 2, "copied-with-reader": 1}
    if bound == "%c3":
        assert statistics[SINK] == {"sunk-into-condition": 1}
        assert statistics[ANNOTATE] == {"annotated": 1}
    else:
        assert SINK not in statistics and ANNOTATE not in statistics
