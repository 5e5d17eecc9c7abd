"""Pipeline specs, options, fixed-point groups, printing/timing/statistics, and checks after each pass."""

from __future__ import annotations

import dataclasses
import io
import time

import numpy as np
import pytest
from iree.compiler import ir

from hlo_mlir import Neg, Parameter, Shape, XlaBuilder
from hlo_mlir.context import get_context
from hlo_mlir.errors import InvalidArgumentError
from pipelines import registry
from pipelines.pass_base import Pass, PassError
from pipelines.pipeline import (
    FixedPointNode,
    PassNode,
    PassVerificationError,
    PipelineSpecError,
    parse_pipeline,
    run_pipeline,
)
from pipelines.presets import PRESETS, target_preset

DOUBLE_NEGATE = """
func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = stablehlo.negate %x : tensor<4xf32>
  %1 = stablehlo.negate %0 : tensor<4xf32>
  %c = stablehlo.constant dense<1.0> : tensor<4xf32>
  %2 = stablehlo.multiply %1, %c : tensor<4xf32>
  return %2 : tensor<4xf32>
}
"""


def parse(text: str) -> ir.Module:
    with get_context():
        return ir.Module.parse(text)


def ops_of(module: ir.Module) -> list[str]:
    names = []
    module.operation.walk(lambda op: names.append(op.operation.name) or ir.WalkResult.ADVANCE)
    return names


@pytest.fixture
def test_pass():
    """Registers pass classes for one test and removes them afterwards."""
    added = []

    def add(cls):
        registry.register(cls)
        added.append(cls.name)
        return cls

    yield add
    for name in added:
        registry.unregister(name)


# --- spec parsing ------------------------------------------------------------------------
def test_parse_names_and_options():
    nodes = parse_pipeline("algsimp{max-iterations=3},cse, dce")
    assert [n.name for n in nodes] == ["algsimp", "cse", "dce"]
    assert nodes[0].instance.max_iterations == 3
    nodes = parse_pipeline("constant-folding{max-elements=16 max-iterations=2}")
    assert (nodes[0].instance.max_elements, nodes[0].instance.max_iterations) == (16, 2)
    assert parse_pipeline("") == [] and parse_pipeline("O0") == []


def test_presets_expand_in_place():
    nodes = parse_pipeline("cse,O1,dce")
    assert [n.name for n in nodes] == ["cse", "algsimp", "cse", "dce", "dce"]
    o2 = parse_pipeline("O2")
    assert isinstance(o2[-1], FixedPointNode) and o2[-1].max_iterations == 8
    assert [n.name for n in o2[:3]] == ["inline", "map-inliner", "zero-sized-hlo-elimination"]
    assert [n.name for n in o2[-1].children] == [
        "algsimp", "constant-folding", "cse", "dce", "conditional-simplifier", "tuple-simplifier",
        "sort-simplifier", "while-loop-simplifier", "while-loop-constant-sinking",
        "while-loop-invariant-code-motion", "while-loop-unroller", "tree-reduction-rewriter"]
    def names(nodes):
        return [n.name if isinstance(n, PassNode) else names(n.children) for n in nodes]

    cpu, gpu = (names(parse_pipeline(p)) for p in ("cpu", "gpu"))
    o2_names = names(o2)
    assert cpu[:len(o2)] == o2_names and gpu[:len(o2)] == o2_names  # O2 first
    assert "transpose-folding" in cpu and "conditional-to-select" in gpu
    assert [target_preset(t) for t in ("llvm-cpu", "cuda", "vulkan-spirv")] == ["cpu", "gpu", "gpu"]
    for preset in PRESETS.values():
        parse_pipeline(preset.spec)  # every preset is a valid spec
        with pytest.raises(InvalidArgumentError):
            registry.get(preset.name)  # presets never shadow passes


def test_fixed_point_groups_nest():
    (node,) = parse_pipeline("fixed-point{max-iterations=3}(algsimp,fixed-point(cse,dce))")
    assert node.max_iterations == 3
    assert isinstance(node.children[0], PassNode) and isinstance(node.children[1], FixedPointNode)
    assert node.children[1].max_iterations == 8


@pytest.mark.parametrize(
    "spec, message",
    [
        (
            "algsimp,nosuchpass",
            r"unknown pass 'nosuchpass'; valid passes: algsimp, .*cse, .*dce.*presets: O0, O1, O2",
        ),
        ("algsimp{max-iter=3}", r"pass 'algsimp' has no option 'max-iter'; valid options: max-iterations; "
                                r"did you mean 'max-iterations'\?"),
        (
            "algsimp{max-iterations=three}",
            r"option 'max-iterations' of pass 'algsimp' requires an integer; got 'three'",
        ),
        ("algsimp{max-iterations}", r"pass options are key=value; got 'max-iterations'"),
        ("algsimp{max-iterations=3", r"unclosed '\{'"),
        ("algsimp,,cse", r"expected a pass name; got ','"),
        ("algsimp cse", r"expected ',' between passes; got 'cse'"),
        ("fixed-point(algsimp", r"unexpected end of spec"),
        (
            "fixed-point{limit=2}(algsimp)",
            r"fixed-point has no option 'limit'; valid options: max-iterations",
        ),
        ("fixed-point{max-iterations=0}(algsimp)", r"requires a value >= 1; got 0"),
        ("fixed-point,algsimp", r"fixed-point requires a parenthesized group"),
        ("O2{x=1}", r"preset 'O2' takes no options"),
    ],
)
def test_spec_errors_are_clear(spec, message):
    with pytest.raises(PipelineSpecError, match=message):
        parse_pipeline(spec)


def test_option_types(test_pass):
    @test_pass
    @dataclasses.dataclass
    class Typed(Pass):
        """Test pass with typed options."""

        name = "test-typed-options"
        flag: bool = False
        scale: float = 1.0
        label: str = "x"

        def run(self, module):
            return False

    (node,) = parse_pipeline("test-typed-options{flag=true,scale=0.5,label=abc}")
    assert (node.instance.flag, node.instance.scale, node.instance.label) == (True, 0.5, "abc")
    with pytest.raises(
        PipelineSpecError, match=r"option 'flag' .* requires a boolean \(true/false\); got 'yes'"
    ):
        parse_pipeline("test-typed-options{flag=yes}")
    with pytest.raises(PipelineSpecError, match=r"option 'scale' .* requires a number; got 'big'"):
        parse_pipeline("test-typed-options{scale=big}")


# --- running ---------------------------------------------------------------------------------
def test_run_pipeline_mutates_in_place_and_reports_changes():
    module = parse(DOUBLE_NEGATE)
    result = run_pipeline(module, "algsimp,dce")
    assert ops_of(module) == ["func.return", "func.func", "builtin.module"]
    assert result.changed
    assert [r.name for r in result.runs] == ["algsimp", "dce"]
    again = run_pipeline(module, "algsimp,cse,dce")
    assert not again.changed and not any(r.changed for r in again.runs)


def test_builder_module_runs_through_o2():
    b = XlaBuilder("negneg")
    x = Parameter(b, 0, Shape.parse("f32[3]"), "x")
    computation = b.build(Neg(Neg(x)) * 1.0)
    run_pipeline(computation.module, "O2")
    assert "stablehlo.negate" not in str(computation) and "stablehlo.multiply" not in str(computation)
    computation.verify()


def test_fixed_point_stops_when_nothing_changes(test_pass):
    runs = []

    @test_pass
    class Counter(Pass):
        """Test pass that changes the module on its first two runs only."""

        name = "test-changes-twice"

        def run(self, module):
            runs.append(1)
            return len(runs) <= 2

    result = run_pipeline(parse(DOUBLE_NEGATE), "fixed-point{max-iterations=10}(test-changes-twice)")
    assert len(runs) == 3 and not result.warnings


def test_fixed_point_iteration_limit(test_pass):
    @test_pass
    class Always(Pass):
        """Test pass that always claims a change."""

        name = "test-always-changes"

        def run(self, module):
            return True

    result = run_pipeline(parse(DOUBLE_NEGATE), "fixed-point{max-iterations=4}(test-always-changes)")
    assert len(result.runs) == 4
    assert result.warnings == [
        "fixed-point(test-always-changes) still changed the module after max-iterations=4."
    ]


def test_print_ir_before_after_and_after_change():
    out = io.StringIO()
    run_pipeline(parse(DOUBLE_NEGATE), "algsimp,cse", print_ir_after_change=True, out=out)
    text = out.getvalue()
    assert text.count("// -----// IR Dump After algsimp //----- //") == 1
    assert "IR Dump After cse" not in text  # cse changed nothing
    assert "stablehlo.negate" not in text.split("IR Dump After algsimp")[1]

    out = io.StringIO()
    run_pipeline(
        parse(DOUBLE_NEGATE), "algsimp,cse", print_ir_after_all=True, print_ir_before_all=True, out=out
    )
    text = out.getvalue()
    for dump in ("Before algsimp", "After algsimp", "Before cse", "After cse"):
        assert f"// -----// IR Dump {dump} //----- //" in text
    assert text.index("Before algsimp") < text.index("After algsimp") < text.index("Before cse")
    assert "stablehlo.negate" in text.split("IR Dump After algsimp")[0]


def test_timing_and_statistics_reports():
    out = io.StringIO()
    result = run_pipeline(parse(DOUBLE_NEGATE), "algsimp,dce", timing=True, statistics=True, out=out)
    text = out.getvalue()
    assert "Pass execution timing report" in text and "Pass statistics report" in text
    assert set(result.timing()) == {"algsimp", "dce"} and all(s >= 0 for s in result.timing().values())
    stats = result.statistics()
    assert stats["algsimp"]["involution"] == 1 and stats["algsimp"]["identity-operand"] == 1
    assert "(S)      1 involution" in text


def test_statistics_sum_over_fixed_point_iterations():
    result = run_pipeline(parse(DOUBLE_NEGATE), "fixed-point(algsimp,dce)")
    assert result.statistics()["algsimp"]["involution"] == 1
    assert [r.name for r in result.runs] == ["algsimp", "dce", "algsimp", "dce"]


def test_verification_after_each_pass_names_the_pass(test_pass):
    @test_pass
    class Breaker(Pass):
        """Test pass that makes the function return a value of the wrong type."""

        name = "test-breaks-ir"

        def run(self, module):
            from dialect_ops import constant

            func = module.body.operations[0]
            ret = list(func.regions[0].blocks[0].operations)[-1]
            with ir.InsertionPoint(ret), ir.Location.unknown():
                wrong = constant.constant(np.zeros([2], np.int32))
            ret.operands[0] = wrong
            return True

    with pytest.raises(
        PassVerificationError, match=r"pass 'test-breaks-ir' produced IR that fails verification"
    ) as e:
        run_pipeline(parse(DOUBLE_NEGATE), "algsimp,test-breaks-ir,dce")
    assert e.value.pass_name == "test-breaks-ir"
    assert any("type of return operand 0" in d for d in e.value.diagnostics)
    # without verify_each the broken module goes through unchecked
    run_pipeline(parse(DOUBLE_NEGATE), "test-breaks-ir", verify_each=False)


def test_failing_pass_is_named(test_pass):
    @test_pass
    class Crasher(Pass):
        """Test pass that raises."""

        name = "test-crashes"

        def run(self, module):
            raise KeyError("boom")

    with pytest.raises(PassError, match=r"pass 'test-crashes' failed: KeyError: 'boom'"):
        run_pipeline(parse(DOUBLE_NEGATE), "test-crashes")


def test_pass_options_are_dataclass_fields():
    cls = registry.get("constant-folding")
    assert dataclasses.is_dataclass(cls)
    assert {o.name: o.default for o in cls.options()} == {"max-iterations": 10, "max-elements": 65536}


def test_options_need_an_explicit_dataclass():
    """A typed option on a class without ``@dataclasses.dataclass`` would be ignored: refused."""

    class Undeclared(Pass):
        """Test pass whose option is not a dataclass field."""

        name = "test-undeclared-option"
        limit: int = 3

    with pytest.raises(InvalidArgumentError, match=r"options of pass 'test-undeclared-option' to be fields "
                       r"of a @dataclasses.dataclass; got typed attributes \['limit'\]"):
        registry.register(Undeclared)
    assert "__dataclass_fields__" not in vars(registry.get("cse"))  # no options, no decorator


def _chain_module(n: int) -> ir.Module:
    lines = [
        "func.func @main(%x: tensor<4xf32>, %y: tensor<4xi32>) -> (tensor<4xf32>, tensor<4xi32>) {",
        "  %one = stablehlo.constant dense<1.0> : tensor<4xf32>",
        "  %zero = stablehlo.constant dense<0> : tensor<4xi32>",
        "  %f0 = stablehlo.multiply %x, %one : tensor<4xf32>",
        "  %i0 = stablehlo.add %y, %zero : tensor<4xi32>",
    ]
    for i in range(1, n):
        lines.append(f"  %f{i} = stablehlo.negate %f{i - 1} : tensor<4xf32>")
        lines.append(f"  %i{i} = stablehlo.add %zero, %i{i - 1} : tensor<4xi32>")
    lines.append(f"  return %f{n - 1}, %i{n - 1} : tensor<4xf32>, tensor<4xi32>\n}}")
    return parse("\n".join(lines))


def test_o2_is_linear_in_module_size():
    def seconds(n):
        module = _chain_module(n)
        start = time.perf_counter()
        run_pipeline(module, "O2")
        return time.perf_counter() - start, module

    small, _ = seconds(500)
    large, module = seconds(2000)
    # every add of zero is gone, the negations pair up
    assert ops_of(module).count("stablehlo.add") == 0 and ops_of(module).count("stablehlo.negate") == 1
    # 4x the ops: a quadratic pipeline would take ~16x; allow noise on shared cores
    assert large < 10 * small + 0.5, (small, large)


def test_a_pass_without_its_ops_is_skipped_until_a_pass_makes_them(test_pass):
    """``acts_on``: a pass is skipped (not run) on a module that holds none of its ops;
    the census of op names is taken again after a pass changes the module."""
    calls = []

    @test_pass
    class OnWhile(Pass):
        """Test pass that acts on while loops only."""

        name = "test-on-while"
        acts_on = frozenset({"stablehlo.while"})

        def run(self, module):
            calls.append("while")
            return False

    @test_pass
    class OnAbs(Pass):
        """Test pass that acts on abs only."""

        name = "test-on-abs"
        acts_on = frozenset({"stablehlo.abs"})

        def run(self, module):
            calls.append("abs")
            return False

    @test_pass
    class MakesAbs(Pass):
        """Test pass that turns the first negate into an abs."""

        name = "test-makes-abs"

        def run(self, module):
            from dialect_ops import elementwise

            neg = next(op for op in module.body.operations[0].regions[0].blocks[0].operations
                       if op.operation.name == "stablehlo.negate")
            with ir.InsertionPoint(neg), neg.location:
                neg.results[0].replace_all_uses_with(elementwise.unary("Abs", neg.operands[0]))
            neg.operation.erase()
            return True

    spec = "test-on-while,test-on-abs,test-makes-abs,test-on-abs,test-on-while"
    result = run_pipeline(parse(DOUBLE_NEGATE), spec)
    assert calls == ["abs"]  # only after test-makes-abs made one
    assert [(r.name, r.changed) for r in result.runs] == [
        ("test-on-while", False), ("test-on-abs", False), ("test-makes-abs", True), ("test-on-abs", False),
        ("test-on-while", False)]
    # algsimp's patterns have roots: on a module of none of them it does not run either
    assert registry.get("algsimp")().relevant_ops() >= {"stablehlo.add", "stablehlo.negate"}
    assert registry.get("dce")().relevant_ops() is None  # any module may hold dead ops
