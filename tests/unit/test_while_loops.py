"""while-loop-simplifier and while-loop-unroller: exact trip counts (checked against a
simulation of the wrapping counter), the partial-unroll factor, idempotence in fixed points
and in O2, and end-to-end numbers of unrolled loops against numpy and XLA CPU."""

from __future__ import annotations

import time

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from iree.compiler import ir

import hlo_mlir
from benchmarks.workloads import while_loop
from hlo_mlir import (
    Compare,
    ConstantR0,
    ConvertElementType,
    DynamicSlice,
    GetTupleElement,
    PrimitiveType,
    Reshape,
    Tuple,
    While,
)
from hlo_mlir.context import get_context
from pipelines.pipeline import parse_pipeline, run_pipeline
from pipelines.simplifiers.while_loop_unroller import UNROLL_FACTOR_ATTR, trip_count, unroll_factor, while_ops
from tests.builders import computation
from tests.oracle import assert_close, check, run_xla

_MLIR = {np.int8: "i8", np.uint8: "ui8", np.int32: "i32", np.uint32: "ui32", np.int64: "i64"}
_HOLDS = {"LT": np.less, "LE": np.less_equal, "GT": np.greater, "GE": np.greater_equal, "EQ": np.equal,
          "NE": np.not_equal}
_FLIP = {"LT": "GT", "LE": "GE", "GT": "LT", "GE": "LE", "EQ": "EQ", "NE": "NE"}


def parse(text: str) -> ir.Module:
    with get_context():
        return ir.Module.parse(text)


def counter_loop(dtype, init, step, direction, bound, bound_first=False, step_first=False) -> ir.Module:
    """A module whose loop carries a counter: init, add(i, step), compare(i, bound)."""
    t = f"tensor<{_MLIR[dtype]}>"
    kind = "UNSIGNED" if np.dtype(dtype).kind == "u" else "SIGNED"
    operands = ("%n, %i", _FLIP[direction]) if bound_first else ("%i, %n", direction)
    add = "%s, %i" if step_first else "%i, %s"
    return parse(f"""
func.func @main(%x: tensor<2xf32>) -> ({t}, tensor<2xf32>) {{
  %c = stablehlo.constant dense<{init}> : {t}
  %r:2 = stablehlo.while(%i = %c, %v = %x) : {t}, tensor<2xf32>
  cond {{
    %n = stablehlo.constant dense<{bound}> : {t}
    %p = stablehlo.compare {operands[1]}, {operands[0]}, {kind} : ({t}, {t}) -> tensor<i1>
    stablehlo.return %p : tensor<i1>
  }} do {{
    %s = stablehlo.constant dense<{step}> : {t}
    %i1 = stablehlo.add {add} : {t}
    %v1 = stablehlo.multiply %v, %v : tensor<2xf32>
    stablehlo.return %i1, %v1 : {t}, tensor<2xf32>
  }}
  return %r#0, %r#1 : {t}, tensor<2xf32>
}}""")


def simulate(dtype, init, step, direction, bound, limit=1000):
    """(trips, wrapped): the loop run with wrapping integer adds; trips None past ``limit``;
    ``wrapped`` tells whether a value up to the exit left the type's range (with the step
    taken as its signed representative)."""
    info = np.iinfo(dtype)
    bits = 8 * np.dtype(dtype).itemsize
    signed_step = (step + (1 << (bits - 1))) % (1 << bits) - (1 << (bits - 1))
    x, exact, wrapped = int(init), int(init), False
    for k in range(limit):
        if not _HOLDS[direction](x, bound):
            return k, wrapped
        x = (x + step - int(info.min)) % (1 << bits) + int(info.min)
        exact += signed_step
        wrapped |= not info.min <= exact <= info.max
    return None, True


def _int_in(dtype):
    info = np.iinfo(dtype)
    return st.integers(int(info.min), int(info.max))


@settings(max_examples=400, deadline=None)
@given(st.sampled_from([np.int8, np.uint8]).flatmap(lambda d: st.tuples(
    st.just(d), _int_in(d), _int_in(d), st.sampled_from(sorted(_HOLDS)), _int_in(d), st.booleans(),
    st.booleans())))
def test_trip_count_matches_a_simulation(case):
    """Sound (a count is the wrapping loop's count) and complete (every loop that exits
    before its counter wraps gets a count)."""
    dtype, init, step, direction, bound, bound_first, step_first = case
    module = counter_loop(dtype, init, step, direction, bound, bound_first, step_first)
    got = trip_count(while_ops(module)[0])
    trips, wrapped = simulate(dtype, init, step, direction, bound)
    if got is not None:
        assert got.count == trips, case
    if trips is not None and not wrapped:
        assert got is not None and got.count == trips, case


@pytest.mark.parametrize("dtype, init, step, direction, bound, expected", [
    (np.int32, 0, 1, "LT", 1000, 1000),
    (np.int32, 0, 1, "LT", 0, 0),
    (np.int32, 5, 3, "LE", 11, 3),          # 5, 8, 11
    (np.int32, 10, -3, "GT", 0, 4),         # 10, 7, 4, 1
    (np.int64, 3, -1, "GE", 0, 4),
    (np.int32, 0, 2, "NE", 6, 3),
    (np.int32, 0, 2, "NE", 5, None),        # never meets the bound
    (np.int32, 0, -1, "LT", 10, None),      # runs until the counter wraps
    (np.int32, 2**31 - 2, 1, "LE", 2**31 - 1, None),  # the exit value overflows
    (np.uint32, 3, 2**32 - 1, "GT", 0, 3),  # an unsigned count-down
    (np.int32, 4, 1, "EQ", 4, 1),
    (np.int32, 0, 0, "LT", 4, None),        # a zero step never exits
])
def test_trip_count_cases(dtype, init, step, direction, bound, expected):
    module = counter_loop(dtype, init, step, direction, bound)  # the ops live as long as their module
    got = trip_count(while_ops(module)[0])
    assert (got.count if got is not None else None) == expected


@pytest.mark.parametrize("count, size, max_ops, max_factor, expected", [
    (1000, 3, 1024, 256, (250, 0)),   # the largest divisor that fits
    (1000, 5, 1024, 256, (200, 0)),
    (12, 2, 8, 256, (4, 0)),
    (7, 2, 8, 256, (3, 1)),           # prime: the largest factor, one peeled iteration
    (10, 3, 12, 256, (4, 2)),         # divisor 2 is under half of 4: peel instead
    (1000, 1, 1024, 8, (8, 0)),       # max-factor caps it
    (5, 1, 1024, 256, (2, 1)),        # at most half the trip count: the loop runs twice
    (100, 600, 1024, 256, None),      # two copies do not fit
])
def test_unroll_factor(count, size, max_ops, max_factor, expected):
    assert unroll_factor(count, size, max_ops, max_factor) == expected


# --- builder programs ----------------------------------------------------------------------------
def counted(b, dtype, init, step, direction, bound, shapes, update, values):
    """``While`` over (counter, *values): ``values = update(builder, counter, values)`` while
    ``compare(counter, bound, direction)``; the counter advances by ``step``."""
    name = np.dtype(dtype).name.replace("uint", "u").replace("int", "s")
    state = f"({name}[], {', '.join(shapes)})"
    cond = computation("cond", [state], lambda cb, t: Compare(
        GetTupleElement(t, 0), ConstantR0(cb, dtype(bound)), direction=direction))

    def body(bb, t):
        i = GetTupleElement(t, 0)
        new = update(bb, i, [GetTupleElement(t, k + 1) for k in range(len(shapes))])
        return Tuple(bb, [i + ConstantR0(bb, dtype(step)), *new])

    loop = computation("body", [state], body)
    return While(cond, loop, Tuple(b, [ConstantR0(b, dtype(init)), *values]))


# (dtype, init, step, direction, bound) and the counter values the body sees
LOOPS = [
    (np.int32, 0, 1, "LT", 7),        # prime trip count
    (np.int64, 9, -2, "GE", 0),       # 9, 7, 5, 3, 1
    (np.uint32, 2**32 - 10, 3, "LT", 2**32 - 1),  # unsigned above 2^31: 3 trips
    (np.int8, -3, 3, "NE", 12),       # -3, 0, 3, 6, 9
    (np.int32, 2, 2, "LE", 20),       # 2 .. 20: 10 trips
]


def counter_values(dtype, init, step, direction, bound):
    out, x = [], int(init)
    while _HOLDS[direction](x, bound):
        out.append(x)
        x = int(np.array(x + step).astype(np.int64).astype(dtype))
    return out


def _row(b, x, index):
    """Row ``index`` of the f32[8,4] ``x`` as f32[4]."""
    return Reshape(DynamicSlice(x, [index, ConstantR0(b, np.int32(0))], [1, 4]), [4])


def rows_program(loops=LOOPS):
    """acc = acc * 0.5 + x[i mod 8] * (i + 1) for every counter value i of each loop in ``loops``
    (x carried along); the dynamic slice reads the counter, so each unrolled copy must see
    its own."""
    def update(bb, i, values):
        acc, x = values
        i32 = ConvertElementType(i, PrimitiveType.S32)
        weight = ConvertElementType(i32 + ConstantR0(bb, np.int32(1)), PrimitiveType.F32)
        row = _row(bb, x, i32 & ConstantR0(bb, np.int32(7)))
        return [acc * ConstantR0(bb, np.float32(0.5)) + row * weight, x]

    def fn(b, x):
        first = _row(b, x, ConstantR0(b, np.int32(0)))
        results = []
        for loop in loops:
            out = counted(b, *loop, ["f32[4]", "f32[8,4]"], update, [first, x])
            results += [GetTupleElement(out, 1), GetTupleElement(out, 0)]
        return Tuple(b, results)

    return computation("rows", ["f32[8,4]"], fn)


def rows_reference(x, loops=LOOPS):
    out = []
    for dtype, init, step, direction, bound in loops:
        acc = x[0].copy()
        values = counter_values(dtype, init, step, direction, bound)
        for i in np.array(values, np.int64).astype(np.int32):  # the body converts the counter to s32
            acc = (acc * np.float32(0.5) + x[i & 7] * np.float32(i + 1)).astype(np.float32)
        exit_value = np.array(values[-1] + step).astype(np.int64).astype(dtype)
        out += [acc, exit_value]
    return tuple(out)


CLEANUP = "fixed-point(algsimp,constant-folding,cse,dce)"


@pytest.mark.parametrize("passes, unrolled", [
    ("O2", {"full-unroll": 5}),
    # bodies of 9-11 ops: factors 3, 2, 2 and 4 (10 trips: divisor 2 is under half of 4),
    # peeling 1, 1, 1 and 2 iterations; the 3-trip loop fits whole
    (f"inline,{CLEANUP},while-loop-unroller{{max-unrolled-ops=40}},{CLEANUP}",
     {"partial-unroll": 4, "peeled-iterations": 5, "full-unroll": 1}),
])
def test_unrolled_loops_match_numpy_and_xla(passes, unrolled):
    """Full unrolling (O2's default budget) and partial unrolling with peeling (a small
    budget) of loops in five counter forms give the loops' numbers."""
    comp = rows_program()
    module = hlo_mlir.compiler.as_module(comp)
    assert run_pipeline(module, passes).statistics()["while-loop-unroller"] == unrolled
    x = np.random.default_rng(0).standard_normal((8, 4)).astype(np.float32)
    check(comp, [x], rows_reference(x), rtol=1e-5, atol=1e-5, passes=passes)


COUNT_DOWN = (np.uint32, 6, 2**32 - 1, "GT", 0)  # a u32 counter stepping by 2^32 - 1, that is -1


def test_unsigned_count_down_end_to_end():
    """The counter runs 6, 5, ..., 1 and ends at 0: 6 trips, fully unrolled."""
    comp = computation("count_down", ["f32[3]"], lambda b, x: counted(
        b, *COUNT_DOWN, ["f32[3]"], lambda bb, i, v: [v[0] * ConvertElementType(i, PrimitiveType.F32)], [x]))
    module = hlo_mlir.compiler.as_module(comp)
    assert run_pipeline(module, "O2").statistics()["while-loop-unroller"] == {"full-unroll": 1}
    x = np.array([1.0, -2.0, 0.5], np.float32)
    check(comp, [x], (np.uint32(0), x * np.float32(720)))


def test_unsigned_count_down_reading_rows_end_to_end():
    """The same counter indexing rows. Not checked against XLA: XLA CPU (jaxlib 0.10.2)
    annotates this loop with known_trip_count 1 and returns 5 for the counter (its body
    still runs 6 times: the accumulated rows are right)."""
    comp = rows_program([COUNT_DOWN])
    x = np.random.default_rng(1).standard_normal((8, 4)).astype(np.float32)
    check(comp, [x], rows_reference(x, [COUNT_DOWN]), rtol=1e-5, atol=1e-5, xla=False)


def test_simplifier_trip_counts_0_and_1_end_to_end():
    """Loops running 0 and 1 times, compiled after the simplifier alone."""
    def fn(b, x):
        never = counted(b, np.int32, 5, 1, "LT", 5, ["f32[3]"], lambda bb, i, v: [v[0] * v[0]], [x])
        once = counted(b, np.int32, 5, 3, "LE", 7, ["f32[3]"], lambda bb, i, v: [v[0] + v[0]], [x])
        return Tuple(b, [GetTupleElement(never, 1), GetTupleElement(once, 0), GetTupleElement(once, 1)])

    comp = computation("simplified", ["f32[3]"], fn)
    passes = f"inline,{CLEANUP},while-loop-simplifier"
    module = hlo_mlir.compiler.as_module(comp)
    assert run_pipeline(module, passes).statistics()["while-loop-simplifier"] == {"trip-count-0": 1,
                                                                                  "trip-count-1": 1}
    assert not while_ops(module)
    x = np.array([1.0, -2.0, 0.25], np.float32)
    check(comp, [x], (x, np.int32(8), x + x), passes=passes)


DEAD_VALUES = """
func.func @main(%x: tensor<4xf32>, %n: tensor<i32>) -> (tensor<4xf32>, tensor<i32>) {
  %c0 = stablehlo.constant dense<0> : tensor<i32>
  %r:4 = stablehlo.while(%i = %c0, %v = %x, %a = %x, %b = %x)
      : tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
  cond {
    %p = stablehlo.compare LT, %i, %n, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %p : tensor<i1>
  } do {
    %one = stablehlo.constant dense<1> : tensor<i32>
    %half = stablehlo.constant dense<0.5> : tensor<4xf32>
    %i1 = stablehlo.add %i, %one : tensor<i32>
    %v1 = stablehlo.add %v, %half : tensor<4xf32>
    %a1 = stablehlo.subtract %b, %v : tensor<4xf32>
    %b1 = stablehlo.divide %a, %v1 : tensor<4xf32>
    stablehlo.return %i1, %v1, %a1, %b1 : tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
  }
  return %r#1, %r#0 : tensor<4xf32>, tensor<i32>
}"""


def test_simplifier_dead_carried_values_end_to_end():
    """Two loop-carried values that only read each other are dropped; the loop (an unknown
    trip count) gives the same numbers for several counts."""
    module = parse(DEAD_VALUES)
    assert run_pipeline(module, "while-loop-simplifier").statistics() == {
        "while-loop-simplifier": {"dead-carried-values": 2}}
    (loop,) = while_ops(module)
    assert len(loop.operands) == 2
    run = hlo_mlir.runtime.load(hlo_mlir.compile(DEAD_VALUES, passes="while-loop-simplifier")).main
    x = np.array([1.0, -2.0, 0.25, 3.0], np.float32)
    for n in (0, 1, 5):
        expected = (x + np.float32(0.5 * n), np.int32(n))
        assert_close(run(x, np.int32(n)), expected, what=f"hlo-mlir, n={n}")
        assert_close(run_xla(DEAD_VALUES, x, np.int32(n)), expected, what=f"XLA, n={n}")


# --- O2 and fixed points ------------------------------------------------------------------------
def _asm(module):
    return module.operation.get_asm()


def test_o2_unrolls_the_benchmark_loop_once_and_is_idempotent():
    module = hlo_mlir.compiler.as_module(while_loop(False).source)
    result = run_pipeline(module, "O2")
    assert result.statistics()["while-loop-unroller"] == {"partial-unroll": 1}
    (loop,) = while_ops(module)
    assert ir.IntegerAttr(loop.attributes[UNROLL_FACTOR_ATTR]).value == 250
    text = _asm(module)
    assert text.count("stablehlo.multiply") == 250
    again = run_pipeline(module, "O2")
    assert not again.changed and _asm(module) == text


def test_partial_unroll_is_not_repeated_inside_a_fixed_point():
    """max-factor caps the factor while the budget would allow more: without the mark, a
    rerun would unroll the unrolled loop again."""
    module = counter_loop(np.int32, 0, 1, "LT", 1000, False)
    spec = "fixed-point(while-loop-unroller{max-factor=4},algsimp,constant-folding,cse,dce)"
    result = run_pipeline(module, spec)
    assert not result.warnings
    assert result.statistics()["while-loop-unroller"] == {"partial-unroll": 1}
    assert _asm(module).count("stablehlo.multiply") == 4


def test_options_parse():
    (node,) = parse_pipeline("while-loop-unroller{max-unrolled-ops=64 max-factor=8 max-body-elements=16}")
    unroller = node.instance
    assert (unroller.max_unrolled_ops, unroller.max_factor, unroller.max_body_elements) == (64, 8, 16)


def _median_seconds(fn, args, n):
    fn(*args)
    times = []
    for _ in range(n):
        start = time.perf_counter()
        fn(*args)
        times.append(time.perf_counter() - start)
    return float(np.median(times))


def test_benchmark_loop_numbers_and_speed():
    """The 1000-iteration f32[16] loop of benchmarks/workloads.py: the same numbers as numpy
    and XLA, and much faster than the loop left alone (O2 without the loop passes)."""
    built = while_loop(False)
    x = built.args[0]
    expected = built.numpy(x)
    fast = hlo_mlir.runtime.load(hlo_mlir.compile(built.source), driver="local-sync").main
    slow = hlo_mlir.runtime.load(hlo_mlir.compile(built.source, passes=f"inline,{CLEANUP}"),
                                 driver="local-sync").main
    assert_close(fast(x), expected, 1e-4, 1e-5, "unrolled vs numpy")
    assert_close(run_xla(built.source, x), expected, 1e-4, 1e-5, "XLA vs numpy")
    # measured here: ~2.7 ms left alone, ~0.03 ms unrolled; ask for 5x to stay clear of noise
    assert _median_seconds(fast, [x], 50) * 5 < _median_seconds(slow, [x], 50)
