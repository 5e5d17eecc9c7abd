""""Did you mean" suggestions (issue 13): a mistyped pass, preset, pass option, target,
driver, element type or command-line flag ends its error with the closest valid name, in
Python exceptions and in the tools' usage errors (exit code 2); a word close to nothing
gets no suggestion. Nothing here compiles.
"""

from __future__ import annotations

import pytest
from iree.compiler import ir

import hlo_mlir
from hlo_mlir import runtime
from hlo_mlir.context import get_context
from hlo_mlir.errors import CompileError, DTypeError, InvalidArgumentError, RuntimeCallError, did_you_mean
from hlo_mlir.shape import Shape
from hlo_mlir.tools import ExitCode, hlo_compile, hlo_opt, hlo_run
from hlo_mlir.tools.value_specs import InputSpecError, parse_value
from hlo_mlir.types import from_dtype, from_mlir_name
from pipelines import registry
from pipelines.pipeline import run_pipeline
from pipelines.pipeline_spec import PipelineSpecError, parse_pipeline

MODULE = """func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = stablehlo.add %x, %x : tensor<4xf32>
  return %0 : tensor<4xf32>
}
"""


def test_the_helper():
    assert did_you_mean("algsmp", ["algsimp", "cse", "dce"]) == "; did you mean 'algsimp'?"
    # case and '_' against '-' do not count
    assert did_you_mean("LLVM_CPU", ["llvm-cpu", "cuda"]) == "; did you mean 'llvm-cpu'?"
    # an alias is matched and suggests the name it stands for
    assert did_you_mean("float32", ["f32", "f64"], {"float32": "f32"}) == "; did you mean 'f32'?"
    assert did_you_mean("qqqq", ["llvm-cpu", "cuda"]) == ""
    assert did_you_mean("cse", ["cse", "dce"]) == ""  # a valid name needs no suggestion
    assert did_you_mean(None, ["cse"]) == ""  # type: ignore[arg-type]


# --- Python ------------------------------------------------------------------------------------
@pytest.mark.parametrize("spec, suggestion", [
    ("algsmp", "algsimp"),  # a pass
    ("cse,dec", "dce"),
    ("iree-legalise", "iree-legalize"),  # a preset
    ("o2", "O2"),
    ("fixed_point(cse)", "fixed-point"),  # the group
    ("algsimp{max-iteratons=3}", "max-iterations"),  # a pass option
    ("fixed-point{max_iterations=2}(cse)", "max-iterations"),
])
def test_pipeline_spec_suggests(spec, suggestion):
    with pytest.raises(PipelineSpecError) as e:
        parse_pipeline(spec)
    assert str(e.value).endswith(f"; did you mean '{suggestion}'?")


def test_run_pipeline_and_registry_suggest_the_pass():
    with get_context():
        module = ir.Module.parse(MODULE)
    with pytest.raises(PipelineSpecError) as e:
        run_pipeline(module, "algsmp")
    message = str(e.value)
    assert "unknown pass 'algsmp'; valid passes: algsimp, " in message
    assert "; presets: O0, O1, O2" in message and message.endswith("; did you mean 'algsimp'?")
    with pytest.raises(InvalidArgumentError) as e:
        registry.get("algsimpp")
    assert str(e.value).endswith("; did you mean 'algsimp'?")


def test_no_close_pass_no_suggestion():
    with pytest.raises(PipelineSpecError) as e:
        parse_pipeline("nosuchpass")
    assert "did you mean" not in str(e.value) and str(e.value).endswith("; group: fixed-point.")


def test_compile_suggests_the_target():
    with pytest.raises(CompileError) as e:
        hlo_mlir.compile(MODULE, target="llvm_cpu")
    assert e.value.message.startswith(
        "compile requires a target in ['cuda', 'llvm-cpu', 'vulkan-spirv']; got 'llvm_cpu'; "
        "did you mean 'llvm-cpu'?")
    with pytest.raises(CompileError) as e:
        hlo_mlir.compile(MODULE, target="tpu")
    assert "got 'tpu'.\n" in e.value.message and "did you mean" not in e.value.message


def test_load_suggests_the_driver():
    with pytest.raises(RuntimeCallError, match=r"got 'local_task'; did you mean 'local-task'\?$"):
        runtime.load(b"not a vmfb", driver="local_task")
    with pytest.raises(RuntimeCallError, match=r"got 'cachng'; did you mean 'caching'\?$"):
        runtime.load(b"not a vmfb", driver="local-task", allocator="cachng")
    with pytest.raises(RuntimeCallError, match=r"got 'tpu'\.$"):
        runtime.load(b"not a vmfb", driver="tpu")


@pytest.mark.parametrize("text, suggestion", [
    ("float32[4]", "f32"),  # numpy's name
    ("i32[2,3]", "s32"),  # MLIR's name
    ("bfloat16[2]", "bf16"),
    ("complex64[]", "c64"),
    ("bool[3]", "pred"),
    ("f31[2]", "f32"),  # a typo
])
def test_shape_parse_suggests_the_xla_name(text, suggestion):
    name = text.split("[")[0]
    with pytest.raises(InvalidArgumentError) as e:
        Shape.parse(text)
    assert str(e.value) == (f"Shape.parse: unknown element type {name!r} in {text!r}; "
                            f"did you mean {suggestion!r}?")


def test_element_type_lookups_suggest():
    with pytest.raises(DTypeError, match=r"^dtype 'flaot32' has no XLA primitive type; "
                                         r"did you mean 'f32'\?$"):
        from_dtype("flaot32")
    with pytest.raises(DTypeError, match=r"^MLIR element type 's32' has no XLA primitive type; "
                                         r"did you mean 'i32'\?$"):
        from_mlir_name("s32")
    with pytest.raises(InputSpecError, match=r"unknown element type 'float32'; .* did you mean 'f32'\?$"):
        parse_value("4xfloat32=1")  # hlo-run --input


def test_no_close_element_type_no_suggestion():
    with pytest.raises(InvalidArgumentError, match=r"unknown element type 'qqq' in 'qqq\[3\]'\.$"):
        Shape.parse("qqq[3]")
    # a real numpy dtype that XLA lacks is no typo: no suggestion
    with pytest.raises(DTypeError, match=r"^dtype 'U3' has no XLA primitive type\.$"):
        from_dtype("U3")


# --- the tools ---------------------------------------------------------------------------------
@pytest.fixture
def folder(tmp_path, monkeypatch):
    (tmp_path / "add.mlir").write_text(MODULE)
    monkeypatch.chdir(tmp_path)
    return tmp_path


TOOLS = {"hlo-opt": hlo_opt.main, "hlo-compile": hlo_compile.main, "hlo-run": hlo_run.main}
CLI_CASES = [
    ("hlo-opt", ["add.mlir", "--mlir-timng"],
     "unrecognized arguments: --mlir-timng; did you mean '--mlir-timing'?"),
    ("hlo-opt", ["add.mlir", "--split-input-files"],
     "unrecognized arguments: --split-input-files; did you mean '--split-input-file'?"),
    ("hlo-opt", ["add.mlir", "-p", "algsmp"], "; did you mean 'algsimp'?"),
    ("hlo-opt", ["add.mlir", "-p", "cse,iree_legalize"], "; did you mean 'iree-legalize'?"),
    ("hlo-compile", ["add.mlir", "--targt=llvm-cpu"],
     "unrecognized arguments: --targt=llvm-cpu; did you mean '--target'?"),
    ("hlo-compile", ["add.mlir", "--target", "llvm_cpu"],
     "argument --target: invalid choice: 'llvm_cpu' (choose from 'llvm-cpu', 'vulkan-spirv', 'cuda'); "
     "did you mean 'llvm-cpu'?"),
    ("hlo-compile", ["add.mlir", "-p", "algsmp", "--no-isolate"], "; did you mean 'algsimp'?"),
    ("hlo-run", ["add.vmfb", "--functon=main"],
     "unrecognized arguments: --functon=main; did you mean '--function'?"),
    ("hlo-run", ["add.vmfb", "--device", "local_task"], "got 'local_task'; did you mean 'local-task'?"),
]


@pytest.mark.parametrize("tool, argv, message", CLI_CASES,
                         ids=[f"{c[0]}-{i}" for i, c in enumerate(CLI_CASES)])
def test_tools_suggest(folder, capsys, tool, argv, message):
    assert TOOLS[tool](argv) == ExitCode.USAGE
    err = capsys.readouterr().err
    last = err.strip().splitlines()[-1]
    assert last.startswith(f"{tool}: error: ") and last.endswith(message), err
    assert "Traceback" not in err


@pytest.mark.parametrize("tool, argv", [
    ("hlo-opt", ["add.mlir", "--bogus"]),
    ("hlo-opt", ["add.mlir", "-p", "nosuchpass"]),
    ("hlo-compile", ["add.mlir", "--target", "tpu"]),
    ("hlo-run", ["add.vmfb", "--qqqqqq"]),
])
def test_tools_without_a_close_name_suggest_nothing(folder, capsys, tool, argv):
    assert TOOLS[tool](argv) == ExitCode.USAGE
    err = capsys.readouterr().err
    assert f"{tool}: error: " in err and "did you mean" not in err, err
