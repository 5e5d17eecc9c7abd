"""Issue 9's pass-level defects, one regression test each (the reproducers are in the issue):

- trivial-collectives removed an all_reduce whose channel handle makes its groups span
  partitions (the e2e comparison with XLA is tests/e2e/test_collective_partitions.py);
- tree-reduction-rewriter raised on a reduction over no dimension;
- passes raised DTypeError on quantized element types (every registered pass is run on
  quantized modules here; numbers in tests/e2e/test_quantized.py);
- attributes of unregistered dialects (``#mhlo.original_value<...>``) did not parse;
- the pass registry was not thread-safe on first use.
"""

from __future__ import annotations

import functools
import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest
from iree.compiler import ir

import hlo_mlir
from hlo_mlir import Add, ConstantR0, Parameter, Reduce, Shape, Tanh, XlaBuilder
from hlo_mlir.compiler import as_module
from hlo_mlir.errors import VerificationError
from pipelines import registry
from pipelines.pipeline import run_pipeline
from tests.oracle import assert_close, run_iree, run_xla
from tests.quantized_modules import NOT_COMPILED, RUNNABLE

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def _op_names(module: ir.Module) -> list[str]:
    names: list[str] = []

    def visit(op):
        names.append(op.name)
        return ir.WalkResult.ADVANCE

    module.operation.walk(visit)
    return names


# --- trivial-collectives and channel handles ------------------------------------------------------
ISSUE_ALL_REDUCE = """module attributes {mhlo.num_partitions = 2 : i32, mhlo.num_replicas = 1 : i32} {
  func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
    %s = "stablehlo.all_reduce"(%x) ({
      ^bb0(%a: tensor<f32>, %b: tensor<f32>):
        %0 = stablehlo.add %a, %b : tensor<f32>
        stablehlo.return %0 : tensor<f32>
    }) {replica_groups = dense<[[0]]> : tensor<1x1xi64>,
        channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>EXTRA}
      : (tensor<4xf32>) -> tensor<4xf32>
    return %s : tensor<4xf32>
  }
}"""


@pytest.mark.parametrize("extra,partitions,kept", [
    ("", 2, True),  # the issue: cross_replica_and_partition, a group of 2 processes
    ("", 1, False),  # one partition: the group is one process
    (", use_global_device_ids", 2, False),  # flattened ids: [[0]] is one process
])
def test_trivial_collectives_respects_channel_handles(extra, partitions, kept):
    text = ISSUE_ALL_REDUCE.replace("EXTRA", extra)
    text = text.replace("mhlo.num_partitions = 2", f"mhlo.num_partitions = {partitions}")
    module = as_module(text)
    run_pipeline(module, "trivial-collectives")
    assert ("stablehlo.all_reduce" in _op_names(module)) == kept


# --- tree-reduction-rewriter ------------------------------------------------------------------------
def _reduce_over_no_dimension():
    adder = XlaBuilder("add")
    Add(Parameter(adder, 0, Shape.parse("f32[]"), "a"), Parameter(adder, 1, Shape.parse("f32[]"), "b"))
    b = XlaBuilder("reduce_no_dims")
    x = Parameter(b, 0, Shape.parse("f32[5]"), "x")
    return b.build(Reduce(x, ConstantR0(b, np.float32(0)), adder.build(), []))


def test_reduce_over_no_dimension_compiles_and_returns_x():
    """Each result is its one element combined with the init (+0 here): x, as XLA gives."""
    computation = _reduce_over_no_dimension()
    x = np.float32([1.5, -2.0, 0.0, 3.25, -7.0])
    run_pipeline(as_module(computation), "tree-reduction-rewriter")  # raised ValueError: max() of nothing
    assert_close(run_iree(computation, x), x, 0, 0, "hlo-mlir vs numpy")
    assert_close(run_xla(computation, x, strict=True), x, 0, 0, "XLA vs numpy")


# --- quantized element types -------------------------------------------------------------------------
_QUANTIZED = {**RUNNABLE, **NOT_COMPILED}


@functools.cache
def _prepared(name: str) -> bytes:
    """The quantized module after O2 and iree-legalize (gathers marked in bounds, ...), as
    bytecode: what the passes later in hlo_mlir.compile's pipeline see."""
    module = as_module(_QUANTIZED[name])
    run_pipeline(module, "O2,iree-legalize")
    return hlo_mlir.context.bytecode(module)


@pytest.mark.parametrize("pass_name", sorted(registry.all_passes()))
def test_every_pass_leaves_quantized_types_alone(pass_name):
    """A pass that cannot build its rewrite for an element type without an XLA dtype
    (``!quant.uniform``) leaves the op alone: no DTypeError, and the module still verifies
    (run_pipeline checks it), on the input modules and on their prepared forms."""
    for name, text in _QUANTIZED.items():
        for source in (text, _prepared(name)):
            run_pipeline(as_module(source), pass_name)


@pytest.mark.parametrize("name", sorted(NOT_COMPILED))
def test_quantized_ops_iree_cannot_compile_fail_cleanly(name):
    """Through the whole pipeline the only failure left is IREE's own, as a CompileError."""
    with pytest.raises(hlo_mlir.CompileError, match="IREE failed to compile the module"):
        hlo_mlir.compile(NOT_COMPILED[name])


# --- attributes of unregistered dialects (XLA's and JAX's mhlo attributes) ----------------------------
ORIGINAL_VALUE = '#mhlo.original_value<false, [<[], <"t", []>>]>'
MHLO_ATTRIBUTES = f"""module @jit_f attributes {{mhlo.cross_program_prefetches = [],
    mhlo.frontend_attributes = {{xla.sdy.meshes = "{{}}"}}, mhlo.input_output_alias = [],
    mhlo.is_dynamic = false, mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32,
    mhlo.use_auto_spmd_partitioning = false}} {{
  func.func public @main(%arg0: tensor<4xf32> {{mhlo.sharding = "{{replicated}}",
      mhlo.layout_mode = "default", mhlo.original_value = #mhlo.original_value<false, [<[], <"x", []>>]>}})
      -> (tensor<4xf32> {{jax.result_info = "result", mhlo.sharding = "{{replicated}}"}}) {{
    %0 = stablehlo.tanh %arg0 {{mhlo.original_value = {ORIGINAL_VALUE},
        mhlo.frontend_attributes = {{_xla_compute_type = "host"}}}} : tensor<4xf32>
    %1 = stablehlo.add %0, %arg0 {{mhlo.original_value = #mhlo.original_value<false, [<[], <"a", []>>]>}}
        : tensor<4xf32>
    return %1 : tensor<4xf32>
  }}
}}"""


def test_mhlo_attributes_parse_survive_o2_and_compile(tmp_path):
    module = as_module(MHLO_ATTRIBUTES)
    run_pipeline(module, "O2")
    text = module.operation.get_asm()
    assert f"stablehlo.tanh %arg0 {{mhlo.frontend_attributes = {{_xla_compute_type = \"host\"}}, " \
           f"mhlo.original_value = {ORIGINAL_VALUE}}}" in text
    assert 'mhlo.original_value = #mhlo.original_value<false, [<[], <"x", []>>]>' in text
    # hlo-opt, the CLI: parses and keeps them through O2.
    from hlo_mlir.tools import hlo_opt

    source, out = tmp_path / "in.mlir", tmp_path / "out.mlir"
    source.write_text(MHLO_ATTRIBUTES)
    assert hlo_opt.main([str(source), "-p", "O2", "-o", str(out)]) == 0
    assert ORIGINAL_VALUE in out.read_text()
    # Compiled and run: XLA's answer (XLA parses these attributes itself).
    x = np.float32([-1.5, 0.0, 0.25, 2.0])
    assert_close(run_iree(MHLO_ATTRIBUTES, x), np.tanh(x) + x, 1e-6, 1e-6, "hlo-mlir vs numpy")
    assert_close(run_xla(MHLO_ATTRIBUTES, x, strict=True), np.tanh(x) + x, 1e-6, 1e-6, "XLA vs numpy")


def test_unregistered_operations_are_still_refused(tmp_path):
    """The context accepts unknown dialects for their attributes only: an op of one is a
    clean verification error, in hlo_mlir.compile and in hlo-opt."""
    text = ('func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {\n'
            '  %0 = "foo.bar"(%x) : (tensor<4xf32>) -> tensor<4xf32>\n  return %0 : tensor<4xf32>\n}')
    with pytest.raises(VerificationError, match=r"'foo.bar' is an operation of an unregistered dialect"):
        hlo_mlir.compile(text)
    from hlo_mlir.tools import hlo_opt

    source = tmp_path / "bad.mlir"
    source.write_text(text)
    assert hlo_opt.main([str(source), "-p", "O2", "-o", os.devnull]) == 4


def test_builder_modules_keep_no_unregistered_ops():
    b = XlaBuilder("tanh")
    computation = b.build(Tanh(Parameter(b, 0, Shape.parse("f32[2]"), "x")))
    assert hlo_mlir.context.unregistered_ops(computation.module) == []


# --- first use from several threads -------------------------------------------------------------------
THREADS_SCRIPT = textwrap.dedent("""
    import threading
    import numpy as np
    import hlo_mlir
    from hlo_mlir import ConstantR0, Mul, Add, Parameter, Shape, XlaBuilder

    errors, done = [], []

    def work(t):
        for k in range(2):
            b = XlaBuilder(f"m{t}_{k}")
            x = Parameter(b, 0, Shape.parse("f32[4]"), "x")
            c = b.build(Add(Mul(x, ConstantR0(b, np.float32(t + 2))), ConstantR0(b, np.float32(k))))
            try:
                out = hlo_mlir.runtime.load(hlo_mlir.compile(c)).main(np.arange(4, dtype=np.float32))
                assert np.array_equal(out, np.arange(4) * (t + 2) + k), out
                done.append(1)
            except Exception as e:  # noqa: BLE001 - reported to the parent
                errors.append(f"{type(e).__name__}: {e}")

    threads = [threading.Thread(target=work, args=(t,)) for t in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    print(len(done), "ok;", len(errors), "failed")
    print("\\n".join(errors[:3]))
""")


def test_first_compiles_from_four_threads_in_a_fresh_process(tmp_path):
    """4 threads compiling at once in a new process (the registry loads on first use): every
    call succeeds (18 of 24 failed with "unknown pass 'inline'")."""
    env = dict(os.environ, PYTHONPATH=ROOT, HLO_MLIR_CACHE_DIR=str(tmp_path))
    proc = subprocess.run([sys.executable, "-c", THREADS_SCRIPT], cwd=ROOT, env=env, capture_output=True,
                          text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert proc.stdout.startswith("8 ok; 0 failed"), proc.stdout
