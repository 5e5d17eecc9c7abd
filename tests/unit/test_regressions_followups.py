"""Regressions found while fixing issue 9 (no compile needed):

- a rank-0 ``dynamic_slice`` printed as ``%x, , sizes = []``, which neither our parser nor
  XLA's reads back: the builder now returns the operand (the update for
  DynamicUpdateSlice), and ``algsimp`` removes the ops in modules from elsewhere;
- ``BitcastConvertType(c64[3], F64)`` passed the shape rule and failed in the C++
  verifier: complex <-> non-complex is refused with the project's error grammar;
- ``hlo-opt`` without ``-p`` printed a module holding an op of an unregistered dialect
  and exited 0 (with ``-p`` it exits 4).
"""

from __future__ import annotations

import numpy as np
import pytest
from iree.compiler import ir

from hlo_mlir import (
    BitcastConvertType,
    DTypeError,
    DynamicSlice,
    DynamicUpdateSlice,
    Parameter,
    PrimitiveType,
    Shape,
    Tuple,
    XlaBuilder,
)
from hlo_mlir.context import get_context
from hlo_mlir.tools import ExitCode, hlo_opt
from tests import oracle


# --- rank-0 dynamic slices round trip --------------------------------------------------------
def _rank0_computation():
    b = XlaBuilder("rank0_dynamic")
    x = Parameter(b, 0, Shape.parse("f32[]"), "x")
    u = Parameter(b, 1, Shape.parse("f32[]"), "u")
    i = Parameter(b, 2, Shape.parse("s32[]"), "i")
    # rank 1 as well: those keep their ops
    v = Parameter(b, 3, Shape.parse("f32[3]"), "v")
    outs = [DynamicSlice(x, [], []), DynamicUpdateSlice(x, u, []), DynamicSlice(v, [i], [2])]
    return b.build(Tuple(b, outs))


def test_rank0_dynamic_slice_prints_text_that_parses_back():
    comp = _rank0_computation()
    text = str(comp)
    assert ", ," not in text
    assert text.count("stablehlo.dynamic_slice") == 1 and "stablehlo.dynamic_update_slice" not in text
    with get_context():
        again = ir.Module.parse(text)
    assert str(again) == text
    x, u, v = np.float32(1.5), np.float32(-2.0), np.float32([1, 2, 3])
    expected = (np.asarray(x), np.asarray(u), np.float32([2, 3]))
    oracle.assert_close(oracle.run_xla(comp, x, u, np.int32(1), v, strict=True), expected, 0, 0, "XLA")


RANK0_GENERIC = """func.func @main(%x: tensor<f32>, %u: tensor<i32>) -> (tensor<f32>, tensor<i32>) {
  %0 = "stablehlo.dynamic_slice"(%x) <{slice_sizes = array<i64>}> : (tensor<f32>) -> tensor<f32>
  %1 = "stablehlo.dynamic_update_slice"(%u, %u) : (tensor<i32>, tensor<i32>) -> tensor<i32>
  return %0, %1 : tensor<f32>, tensor<i32>
}
"""


def test_hlo_opt_algsimp_output_of_rank0_dynamic_slice_parses_back(tmp_path, capsys):
    """A module from elsewhere in generic form: algsimp removes the rank-0 ops."""
    (tmp_path / "in.mlir").write_text(RANK0_GENERIC)
    assert hlo_opt.main([str(tmp_path / "in.mlir"), "-p", "algsimp", "-o", str(tmp_path / "out.mlir")]) == 0
    out = (tmp_path / "out.mlir").read_text()
    assert "dynamic" not in out and "return %arg0, %arg1" in out
    assert hlo_opt.main([str(tmp_path / "out.mlir")]) == 0
    assert capsys.readouterr().out == out


# --- BitcastConvertType and complex types ------------------------------------------------------
@pytest.mark.parametrize("source, target", [("c64[3]", PrimitiveType.F64), ("f64[3]", PrimitiveType.C64),
                                            ("c128[3]", PrimitiveType.S64), ("s32[3,2]", PrimitiveType.C64)])
def test_bitcast_convert_between_complex_and_real_is_refused(source, target):
    b = XlaBuilder("bitcast_complex")
    x = Parameter(b, 0, Shape.parse(source), "x")
    with pytest.raises(DTypeError) as e:
        BitcastConvertType(x, target)
    where, _, message = str(e.value).partition(": ")
    assert where.startswith(__file__)  # the user's line
    assert message == (f"BitcastConvertType requires complex operand and result element types together "
                       f"(or neither); got {source} to {target.value}.")


@pytest.mark.parametrize("source, target, result", [("c64[3]", PrimitiveType.C64, "c64[3]"),
                                                    ("f32[3]", PrimitiveType.S32, "s32[3]")])
def test_bitcast_convert_within_a_kind_is_kept(source, target, result):
    b = XlaBuilder("bitcast_same_kind")
    x = Parameter(b, 0, Shape.parse(source), "x")
    assert str(BitcastConvertType(x, target).shape) == result


# --- hlo-opt and operations of unregistered dialects -------------------------------------------
UNREGISTERED = """func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = "foo.bar"(%x) : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
"""


@pytest.mark.parametrize("extra", [[], ["-p", "cse"], ["--pass-pipeline=builtin.module(cse)"]])
def test_hlo_opt_refuses_unregistered_ops_with_or_without_passes(extra, tmp_path, capsys):
    (tmp_path / "in.mlir").write_text(UNREGISTERED)
    assert hlo_opt.main([str(tmp_path / "in.mlir"), *extra]) == ExitCode.VERIFY == 4
    captured = capsys.readouterr()
    assert captured.out == ""
    assert "the input module fails verification" in captured.err
    assert "'foo.bar' is an operation of an unregistered dialect" in captured.err


def test_call_graph_of_a_computation_with_a_complex_constant_does_not_abort():
    """A Map whose computation holds a complex constant aborted the process while the call
    graph walked the constant's attributes (the bindings abort wrapping a complex elements
    attribute; fuzzer finding). Run in a child so an abort fails the test, not the run."""
    import subprocess
    import sys

    script = (
        "import numpy as np\n"
        "from hlo_mlir import *\n"
        "b = XlaBuilder('m'); sub = XlaBuilder('c')\n"
        "x = Parameter(sub, 0, Shape.parse('f32[]'), 'x')\n"
        "c = Constant(sub, np.array(complex(-0.5, -1e-38), dtype=np.complex64))\n"
        "comp = sub.build(Add(Real(c), x))\n"
        "p = Parameter(b, 0, Shape.parse('f32[4]'), 'p')\n"
        "m = b.build(Map(b, [p], comp, [0])).get_hlo_module()\n"
        "print(m.instruction_count())\n"
    )
    proc = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert int(proc.stdout.strip()) > 0
