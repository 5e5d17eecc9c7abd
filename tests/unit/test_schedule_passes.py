"""hlo-trivial-scheduler, hlo-memory-scheduler, hlo-descheduler, despecializer,
hlo-rematerialization and hlo-verifier (with ``hlo-opt --verify-each``): the stored
schedule read back by HloModule after text and bytecode round trips, peaks before/after,
numbers against numpy, each verifier rule, and hypothesis properties over generated
modules (valid schedules, side effects in order, peaks that never grow, no difference
under the semantics check of ``--verify-semantics``)."""

from __future__ import annotations

import ml_dtypes
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from iree.compiler import ir

import hlo_mlir
from hlo_mlir import HloModule
from hlo_mlir.context import get_context
from hlo_mlir.errors import VerificationError
from hlo_mlir.semantics import SemanticsChecker
from pipelines import registry
from pipelines.analyses.hlo_verifier import HloVerifierError, hlo_problems
from pipelines.expanders.custom_call_expander import call_target
from pipelines.pipeline import PassVerificationError, run_pipeline
from pipelines.simplifiers.hlo_memory_scheduler import module_peak, value_bytes
from tests.builders import computation
from tests.oracle import check
from tests.properties import examples


def parse(text: str) -> ir.Module:
    with get_context():
        return ir.Module.parse(text)


def stats(module: ir.Module, spec: str) -> dict:
    return {name: dict(c) for name, c in run_pipeline(module, spec).statistics().items()}


TWO_CHAINS = """func.func @main(%x: tensor<1024xf32>) -> (tensor<f32>, tensor<f32>) {
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  %a = stablehlo.exponential %x : tensor<1024xf32>
  %b = stablehlo.tanh %x : tensor<1024xf32>
  %s = stablehlo.reduce(%a init: %z) applies stablehlo.add across dimensions = [0]
       : (tensor<1024xf32>, tensor<f32>) -> tensor<f32>
  %t = stablehlo.reduce(%b init: %z) applies stablehlo.add across dimensions = [0]
       : (tensor<1024xf32>, tensor<f32>) -> tensor<f32>
  return %s, %t : tensor<f32>, tensor<f32>
}"""


# --- schedulers and the HloModule API ------------------------------------------------------------
def test_memory_scheduler_lowers_the_peak_and_the_schedule_survives_round_trips():
    module = parse(TWO_CHAINS)
    assert stats(module, "hlo-memory-scheduler") == {"hlo-memory-scheduler": {
        "peak-bytes-before": 12300, "peak-bytes-after": 8208, "blocks-reordered": 1}}
    order = ["constant", "exponential", "reduce", "tanh", "reduce.1"]
    assert module_peak(module) == 8208
    hlo = HloModule(module)
    assert hlo.schedule() == {"main": order}
    hlo.verify_schedule()
    for source in (hlo.to_text(), hlo.to_bytecode()):
        again = HloModule.parse(source)
        assert again.schedule() == {"main": order}
        again.verify_schedule()
        assert [i.name for i in again.entry_computation.instructions()] == order
    assert not run_pipeline(module, "hlo-memory-scheduler").changed  # already best, already stored


def test_trivial_scheduler_stores_program_order_and_descheduler_removes_it():
    module = parse(TWO_CHAINS)
    assert stats(module, "hlo-trivial-scheduler") == {"hlo-trivial-scheduler": {"functions-scheduled": 1}}
    hlo = HloModule(module)
    assert hlo.schedule() == {"main": ["constant", "exponential", "tanh", "reduce", "reduce.1"]}
    assert HloModule.parse(hlo.to_text()).schedule() == hlo.schedule()
    assert not run_pipeline(module, "hlo-trivial-scheduler").changed
    assert stats(module, "hlo-descheduler") == {"hlo-descheduler": {"schedules-removed": 1}}
    assert not hlo.has_schedule()
    assert not run_pipeline(module, "hlo-descheduler").changed


def test_schedulers_and_rematerialization_keep_the_numbers():
    x = np.linspace(-1, 1, 8, dtype=np.float32)
    comp = computation("chains", ["f32[8]"], lambda b, x: hlo_mlir.Tuple(
        b, [hlo_mlir.Exp(x) * x, hlo_mlir.Tanh(x) + x]))
    expected = (np.exp(x) * x, np.tanh(x) + x)
    for passes in ("hlo-memory-scheduler", "hlo-trivial-scheduler,hlo-descheduler",
                   "hlo-rematerialization{memory-limit-bytes=64}"):
        check(comp, [x], expected, passes=passes, xla=False)


CONTROL = """func.func @main(%x: tensor<8xf32>) -> (tensor<8xf32>, tensor<f32>) {
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  %a = stablehlo.exponential %x : tensor<8xf32>
  %b = func.call @square(%x) : (tensor<8xf32>) -> tensor<8xf32>
  %i0 = stablehlo.constant dense<0> : tensor<i32>
  %w:2 = stablehlo.while(%i = %i0, %v = %b) : tensor<i32>, tensor<8xf32>
    cond {
      %three = stablehlo.constant dense<3> : tensor<i32>
      %c = stablehlo.compare LT, %i, %three : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %c : tensor<i1>
    } do {
      %one = stablehlo.constant dense<1> : tensor<i32>
      %half = stablehlo.constant dense<0.5> : tensor<8xf32>
      %n = stablehlo.add %i, %one : tensor<i32>
      %h = stablehlo.multiply %v, %half : tensor<8xf32>
      stablehlo.return %n, %h : tensor<i32>, tensor<8xf32>
    }
  %s = stablehlo.reduce(%a init: %z) applies stablehlo.add across dimensions = [0]
       : (tensor<8xf32>, tensor<f32>) -> tensor<f32>
  return %w#1, %s : tensor<8xf32>, tensor<f32>
}
func.func private @square(%x: tensor<8xf32>) -> tensor<8xf32> {
  %m = stablehlo.multiply %x, %x : tensor<8xf32>
  return %m : tensor<8xf32>
}"""


def test_memory_scheduler_with_calls_and_loops_keeps_the_numbers():
    """The exponential moves next to its reduce (after the loop); calls and loops keep their
    order as side effects and scopes; the numbers stay numpy's."""
    module = parse(CONTROL)
    statistics = stats(module, "hlo-memory-scheduler")["hlo-memory-scheduler"]
    assert statistics["peak-bytes-after"] < statistics["peak-bytes-before"]
    order = HloModule(module).schedule()
    assert order["main"].index("exponential") > order["main"].index("while")
    assert set(order) == {"main", "square"}
    x = np.linspace(-1, 1, 8, dtype=np.float32)
    check(HloModule(module).to_computation(), [x], (x * x * np.float32(0.125), np.exp(x).sum()),
          xla=False)


def test_value_bytes():
    with get_context():
        sizes = [value_bytes(ir.Type.parse(t)) for t in (
            "tensor<4xf32>", "tensor<4xi1>", "tensor<2xcomplex<f64>>", "tensor<3xi4>", "tensor<2x?xbf16>",
            "tuple<tensor<4xf32>, tensor<i8>>", "!stablehlo.token")]
    assert sizes == [16, 4, 32, 3, 4, 17, 0]


# --- rematerialization -----------------------------------------------------------------------------
REMAT = """func.func @main(%x: tensor<256xf32>, %y: tensor<f32>) -> tensor<256xf32> {
  %c = stablehlo.constant dense<2.0> : tensor<256xf32>
  %b = stablehlo.broadcast_in_dim %y, dims = [] : (tensor<f32>) -> tensor<256xf32>
  %u = stablehlo.add %x, %c : tensor<256xf32>
  %w = stablehlo.multiply %u, %b : tensor<256xf32>
  %e = stablehlo.exponential %w : tensor<256xf32>
  %t = stablehlo.tanh %e : tensor<256xf32>
  %s = stablehlo.sine %t : tensor<256xf32>
  %v = stablehlo.multiply %s, %c : tensor<256xf32>
  %r = stablehlo.add %v, %b : tensor<256xf32>
  return %r : tensor<256xf32>
}"""


@pytest.mark.parametrize("limit, expected", [
    (0, {"peak-bytes-before": 5124, "peak-bytes-after": 5124, "ops-rematerialized": 0}),
    (4100, {"peak-bytes-before": 5124, "peak-bytes-after": 4100, "ops-rematerialized": 2}),
    (3100, {"peak-bytes-before": 5124, "peak-bytes-after": 4100, "ops-rematerialized": 3,
            "ops-over-budget": 3}),
])
def test_rematerialization_budget(limit, expected):
    module = parse(REMAT)
    assert stats(module, f"hlo-rematerialization{{memory-limit-bytes={limit}}}") == {
        "hlo-rematerialization": expected}
    assert module_peak(module) == expected["peak-bytes-after"]


def test_rematerialization_numbers_against_numpy():
    module = parse(REMAT)
    run_pipeline(module, "hlo-rematerialization{memory-limit-bytes=4100}")
    x = np.linspace(-2, 2, 256, dtype=np.float32)
    y = np.float32(0.75)
    expected = (np.sin(np.tanh(np.exp((x + 2) * y))) * 2 + y).astype(np.float32)
    check(HloModule(module).to_computation(), [x, y], expected, xla=False)


def test_despecializer_removes_the_schedule_and_computes_bf16_in_f32():
    module = parse("""module attributes {hlo.schedule = {main = ["m", "c"]}} {
      func.func @main(%x: tensor<8xbf16>) -> tensor<8xbf16> {
        %m = stablehlo.multiply %x, %x {hlo.name = "m"} : tensor<8xbf16>
        %c = stablehlo.multiply %m, %x {hlo.name = "c"} : tensor<8xbf16>
        return %c : tensor<8xbf16>
      }
    }""")
    statistics = stats(module, "despecializer")["despecializer"]
    assert statistics["hlo-descheduler.schedules-removed"] == 1
    assert not HloModule(module).has_schedule()
    x = np.array([1.0078125, 1.5, -2.25, 3.0, 0.1, -0.7, 7.5, 1.0], ml_dtypes.bfloat16)
    wide = x.astype(np.float32)
    # one rounding to bf16 at the end, not one per op
    check(HloModule(module).to_computation(), [x], (wide * wide * wide).astype(ml_dtypes.bfloat16),
          rtol=0, atol=0, xla=False)


def test_options_and_summaries():
    cls = registry.get("hlo-rematerialization")
    assert [o.name for o in cls.options()] == ["memory-limit-bytes"]
    assert cls.from_options({"memory-limit-bytes": "1024"}).memory_limit_bytes == 1024
    for name in ("hlo-trivial-scheduler", "hlo-memory-scheduler", "hlo-descheduler", "hlo-verifier",
                 "despecializer"):
        assert registry.get(name).options() == [] and registry.get(name).summary()


# --- the verifier ------------------------------------------------------------------------------------
REDUCER = """func.func @main(%x: tensor<4xf32>, %y: tensor<f32>) -> tensor<f32> {
  %i = stablehlo.constant dense<0.0> : tensor<f32>
  %r = stablehlo.reduce(%x init: %i) across dimensions = [0] : (tensor<4xf32>, tensor<f32>) -> tensor<f32>
   reducer(%a: tensor<f32>, %b: tensor<f32>) {
    %s = stablehlo.add %a, READ : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }
  return %r : tensor<f32>
}"""
GROUPS = """module attributes {mhlo.num_replicas = 4 : i32} {
func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  %r = "stablehlo.all_reduce"(%x) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) {replica_groups = dense<GROUPS> : tensor<SHAPExi64>} : (tensor<4xf32>) -> tensor<4xf32>
  return %r : tensor<4xf32>
}}"""


GATHER = """func.func @main(%x: tensor<4xf32>) -> tensor<SIZExf32> {
  %r = "stablehlo.all_gather"(%x) {all_gather_dim = 0 : i64,
                                   replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>}
      : (tensor<4xf32>) -> tensor<SIZExf32>
  return %r : tensor<SIZExf32>
}"""


@pytest.mark.parametrize("text, problem", [
    (GATHER.replace("SIZE", "8"), None),
    (GATHER.replace("SIZE", "12"), "collective-shapes"),
    (REDUCER.replace("READ", "%b"), None),
    (REDUCER.replace("READ", "%y"), "closed-computations"),
    (GROUPS.replace("GROUPS", "[[0, 1], [2, 3]]").replace("SHAPE", "2x2"), None),
    (GROUPS.replace("GROUPS", "[[0, 1], [2, -1]]").replace("SHAPE", "2x2"), "replica 3 missing"),
    (GROUPS.replace("GROUPS", "[[0, 1, 2, 3, 4]]").replace("SHAPE", "1x5"), "replica 4 out of range"),
])
def test_verifier_rules(text, problem):
    module = parse(text)
    problems = hlo_problems(module)
    if problem is None:
        assert problems == []
        assert not run_pipeline(module, "hlo-verifier").changed
    else:
        assert len(problems) == 1 and problem in problems[0], problems
        with pytest.raises(HloVerifierError, match=problem):
            run_pipeline(module, "hlo-verifier")


def test_verify_each_names_the_pass_that_broke_an_invariant():
    module = parse(TWO_CHAINS)
    run_pipeline(module, "hlo-trivial-scheduler", verify_hlo=True)
    module.body.operations[0].regions[0].blocks[0].operations[0].attributes["hlo.name"] = \
        ir.StringAttr.get("exponential", module.context)  # a duplicate name, as a faulty pass would leave
    with pytest.raises(VerificationError, match="the input module breaks XLA's invariants") as info:
        run_pipeline(module, "dce", verify_hlo=True)
    assert "unique-names" in info.value.diagnostics[0]
    module = parse(TWO_CHAINS.replace("%b = stablehlo.tanh", "%dead = stablehlo.sine %x : tensor<1024xf32>\n"
                                      "  %b = stablehlo.tanh"))
    run_pipeline(module, "hlo-trivial-scheduler")
    broken = "pass 'dce' produced IR that breaks XLA's invariants"
    with pytest.raises(PassVerificationError, match=broken) as info:
        run_pipeline(module, "dce", verify_hlo=True)
    assert info.value.pass_name == "dce" and "'sine'" in info.value.diagnostics[0]
    run_pipeline(module, "hlo-trivial-scheduler,dce", verify_hlo=False)  # the flag is what checks


# --- generated modules ---------------------------------------------------------------------------------
SHAPES = {"v": "tensor<4xf32>", "m": "tensor<4x4xf32>"}
UNARY = ("negate", "abs", "tanh", "sine")
BINARY = ("add", "subtract", "multiply", "maximum")


@st.composite
def programs(draw, effects: bool = False) -> str:
    """An entry of element-wise ops over f32[4] and f32[4,4] values: broadcasts, reductions,
    iotas and constants, several results; with ``effects``, side-effecting custom calls
    ``@effect0``, ``@effect1``, ... in this order."""
    pools = {"v": ["%x"], "m": ["%w"]}
    lines = []
    count = 0
    for i in range(draw(st.integers(1, 14))):
        kind = draw(st.sampled_from(["v", "m"]))
        t, name = SHAPES[kind], f"%v{i}"
        choice = draw(st.integers(0, 10 if effects else 9))
        if choice == 10:
            operand = draw(st.sampled_from(pools[kind]))
            lines.append(f"  {name} = stablehlo.custom_call @effect{count}({operand}) "
                         f"{{has_side_effect = true}} : ({t}) -> {t}")
            count += 1
        elif choice < 3:
            lines.append(f"  {name} = stablehlo.{draw(st.sampled_from(UNARY))} "
                         f"{draw(st.sampled_from(pools[kind]))} : {t}")
        elif choice < 6:
            a, b = draw(st.sampled_from(pools[kind])), draw(st.sampled_from(pools[kind]))
            lines.append(f"  {name} = stablehlo.{draw(st.sampled_from(BINARY))} {a}, {b} : {t}")
        elif choice == 6:
            lines.append(f"  {name} = stablehlo.constant dense<{draw(st.integers(-3, 3))}.5> : {t}")
        elif choice == 7:
            lines.append(f"  {name} = stablehlo.iota dim = 0 : {t}")
        elif kind == "m":
            lines.append(f"  {name} = stablehlo.broadcast_in_dim {draw(st.sampled_from(pools['v']))}, "
                         f"dims = [1] : ({SHAPES['v']}) -> {t}")
        else:
            lines.append(f"  {name} = stablehlo.reduce({draw(st.sampled_from(pools['m']))} init: %zero) "
                         f"applies stablehlo.add across dimensions = [0]\n"
                         f"      : ({SHAPES['m']}, tensor<f32>) -> {t}")
        pools[kind].append(name)
    results = draw(st.lists(st.sampled_from(pools["v"] + pools["m"]), min_size=1, max_size=3))
    types = [SHAPES["m"] if r in pools["m"] else SHAPES["v"] for r in results]
    return (f"func.func @main(%x: {SHAPES['v']}, %w: {SHAPES['m']}) -> ({', '.join(types)}) {{\n"
            "  %zero = stablehlo.constant dense<0.0> : tensor<f32>\n" + "\n".join(lines) +
            f"\n  return {', '.join(results)} : {', '.join(types)}\n}}\n")


def effect_order(module: ir.Module) -> list[str]:
    """The targets of the entry's custom calls, in IR order."""
    return [call_target(op) for op in module.body.operations[0].regions[0].blocks[0].operations
            if op.operation.name == "stablehlo.custom_call"]


@settings(max_examples=200, deadline=None)
@given(programs(effects=True), st.floats(0.3, 1.0))
def test_generated_modules_get_valid_schedules_and_never_worse_peaks(text, fraction):
    """Structural: valid IR after each pass (run_pipeline verifies, hlo-verifier too), side
    effects in their order, a stored schedule that HloModule reads back after a text round
    trip, peaks that never grow, and a budget met whenever the pass reports no op over it."""
    module = parse(text)
    peak = module_peak(module)
    limit = max(1, int(peak * fraction))
    spec = f"hlo-memory-scheduler,hlo-rematerialization{{memory-limit-bytes={limit}}}"
    result = run_pipeline(module, spec, verify_hlo=True).statistics()
    scheduled = result["hlo-memory-scheduler"]
    assert scheduled["peak-bytes-before"] == peak >= scheduled["peak-bytes-after"]
    remat = result["hlo-rematerialization"]
    assert remat["peak-bytes-before"] == scheduled["peak-bytes-after"] >= remat["peak-bytes-after"]
    if not remat.get("ops-over-budget"):
        assert remat["peak-bytes-after"] <= limit
    effects = effect_order(module)
    assert effects == sorted(effects, key=lambda name: int(name.removeprefix("effect")))
    hlo = HloModule.parse(HloModule(module).to_text())
    hlo.verify_schedule()
    assert hlo_problems(hlo.module) == []


@settings(max_examples=examples(12), deadline=None)
@given(programs(), st.floats(0.3, 1.0), st.integers(0, 3))
def test_generated_modules_keep_their_numbers(text, fraction, seed):
    """The schedulers and rematerialization under the semantics check (``hlo-opt
    --verify-semantics``): compiled and run before and after each pass, no difference."""
    module = parse(text)
    limit = max(1, int(module_peak(module) * fraction))
    run_pipeline(module, f"hlo-memory-scheduler,hlo-rematerialization{{memory-limit-bytes={limit}}},"
                         "despecializer", semantics_checker=lambda m: SemanticsChecker(m, seed=seed))
