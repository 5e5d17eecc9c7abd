"""hlo_mlir.compile: sources, per-target flags, and errors that say how to reproduce them.

CUDA is compile-only here (no GPU in CI); Vulkan compiles need no driver.
"""

from __future__ import annotations

import numpy as np
import pytest
from iree.compiler import ir

import hlo_mlir
from hlo_mlir import (
    Add,
    CompileError,
    Dot,
    Max,
    Parameter,
    ParseError,
    ScalarLike,
    Shape,
    VerificationError,
    XlaBuilder,
)
from hlo_mlir.compiler import TARGETS, target_flags
from hlo_mlir.runtime import load

# An op IREE rejects, at a user's source location.
_CUSTOM_CALL = """
func.func @main(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = stablehlo.custom_call @my_kernel(%a) : (tensor<4xf32>) -> tensor<4xf32> loc("user_model.py":12:3)
  return %0 : tensor<4xf32>
}
"""


def _mlp():
    b = XlaBuilder("mlp")
    x = Parameter(b, 0, Shape.parse("f32[2,8]"), "x")
    w = Parameter(b, 1, Shape.parse("f32[8,4]"), "w")
    bias = Parameter(b, 2, Shape.parse("f32[4]"), "bias")
    return b.build(Max(Add(Dot(x, w), bias, [1]), ScalarLike(x, 0.0)))


def test_compile_error_names_target_flags_and_diagnostics():
    # Without the legalizations (which reject an unregistered custom call themselves),
    # IREE itself fails on the custom call: its diagnostics must come through.
    with pytest.raises(CompileError) as info:
        hlo_mlir.compile(_CUSTOM_CALL, "llvm-cpu", flags=["--iree-opt-level=O2"], legalize=False)
    e = info.value
    assert e.target == "llvm-cpu"
    assert "--iree-input-type=stablehlo" in e.flags and "--iree-opt-level=O2" in e.flags
    assert "--iree-opt-level=O3" not in e.flags  # the caller's flag replaced the default
    assert any("failed to legalize operation 'stablehlo.custom_call'" in d and "user_model.py:12" in d
               for d in e.diagnostics), e.diagnostics
    text = str(e)
    assert text.startswith("IREE failed to compile the module.")
    assert "\n  target: llvm-cpu\n  flags: --iree-input-type=stablehlo " in text
    assert "diagnostics:\n    error: user_model.py:12:3: failed to legalize" in text


def test_unknown_target_lists_valid_ones():
    with pytest.raises(CompileError, match=r"compile requires a target in \['cuda', 'llvm-cpu', "
                                           r"'vulkan-spirv'\]; got 'tpu'\."):
        hlo_mlir.compile(_mlp(), "tpu")


def test_flag_errors():
    with pytest.raises(CompileError,
                       match=r"compile requires flags of the form --name\[=value\]; got 'fast'\."):
        hlo_mlir.compile(_mlp(), flags=["fast"])
    with pytest.raises(CompileError, match=r"(?s)IREE rejected the compile flags: .*option not found: "
                                           r"iree-not-a-flag.*flags: .*--iree-not-a-flag=1"):
        hlo_mlir.compile(_mlp(), flags=["--iree-not-a-flag=1"])


def test_later_flags_replace_defaults_of_the_same_name():
    flags = target_flags("llvm-cpu", ["--iree-opt-level=O1", "--iree-opt-level=O2"])
    assert [f for f in flags if f.startswith("--iree-opt-level")] == ["--iree-opt-level=O2"]
    assert flags[: len(TARGETS["llvm-cpu"]) - 1] == [f for f in TARGETS["llvm-cpu"] if "opt-level" not in f]


def test_verification_failure_before_compile():
    comp = _mlp()
    entry = comp.entry_function()
    with comp.module.context:
        # The signature no longer matches the entry block: the verifier must say so
        # before IREE ever sees the module.
        entry.attributes["function_type"] = ir.TypeAttr.get(ir.FunctionType.get([], []))
    for source in (comp, comp.module):
        with pytest.raises(VerificationError,
                           match=r"(?s)failed verification.*entry block must have 0 arguments to match "
                                 r"function signature"):
            hlo_mlir.compile(source)


def test_source_errors():
    with pytest.raises(ParseError, match=r"could not parse MLIR input"):
        hlo_mlir.compile("func.func @main( {")
    with pytest.raises(CompileError, match=r"compile requires an XlaComputation, HloModule, ir.Module, "
                                           r"MLIR text or bytecode; got int\."):
        hlo_mlir.compile(42)


def test_every_source_form_compiles_to_the_same_program():
    comp = _mlp()
    before = comp.as_text(debug_info=True)
    rng = np.random.default_rng(1)
    args = [rng.standard_normal(s).astype(np.float32) for s in ((2, 8), (8, 4), (4,))]
    expected = np.maximum(args[0] @ args[1] + args[2], 0)
    for source in (comp, comp.module, comp.as_text(), comp.as_bytecode()):
        out = load(hlo_mlir.compile(source)).main(*args)
        np.testing.assert_allclose(out, expected, rtol=1e-5, atol=1e-6)
    assert comp.as_text(debug_info=True) == before  # compile works on a copy


def test_f64_stays_f64():
    b = XlaBuilder("f64")
    x = Parameter(b, 0, Shape.parse("f64[2]"))
    out = load(hlo_mlir.compile(b.build(x + 1e-12))).main(np.array([1.0, -3.0]))
    assert out.dtype == np.float64
    np.testing.assert_array_equal(out, np.array([1.0, -3.0]) + 1e-12)  # f32 would round 1e-12 away


# --- CUDA: compile only ----------------------------------------------------------------------
def test_cuda_compiles_and_h100_class_targets_are_mapped():
    vmfb = hlo_mlir.compile(_mlp(), "cuda")
    assert len(vmfb) > 1000 and b"cuda" in vmfb
    for value in ("sm_90", "sm_90a", "sm_100", "hopper", "h100"):
        flags = target_flags("cuda", [f"--iree-cuda-target={value}"])
        assert [f for f in flags if f.startswith("--iree-cuda-target")] == ["--iree-cuda-target=sm_80"]
    # Compiling with the request itself (crashed or failed in the pinned IREE unmapped).
    assert b"cuda" in hlo_mlir.compile(_mlp(), "cuda", flags=["--iree-cuda-target=sm_90"])


def test_unknown_device_targets_are_errors_not_crashes():
    # Unknown names make the pinned compiler segfault; they are probed in a child process.
    with pytest.raises(CompileError, match=r"(?s)--iree-cuda-target=not_a_gpu is not a target the pinned "
                                           r"IREE can compile for .*known to work: .*sm_80.*target: cuda"):
        hlo_mlir.compile(_mlp(), "cuda", flags=["--iree-cuda-target=not_a_gpu"])
    with pytest.raises(CompileError, match=r"--iree-vulkan-target=host is not a target .*llvmpipe"):
        target_flags("vulkan-spirv", ["--iree-vulkan-target=host"])


def test_vulkan_targets():
    assert "--iree-vulkan-target=llvmpipe" in target_flags("vulkan-spirv")
    flags = target_flags("vulkan-spirv", ["--iree-vulkan-target=sm_90"])
    assert flags[-1] == "--iree-vulkan-target=ampere"
    assert len(hlo_mlir.compile(_mlp(), "vulkan-spirv", flags=["--iree-vulkan-target=rdna3"])) > 1000
