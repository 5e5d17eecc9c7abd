"""vulkan-f64-math: fails with a CompileError naming each f64 transcendental Vulkan cannot compute.

SPIR-V's GLSL.std.450 instructions (Log, Exp, Sin, Tanh, Atan2, Pow, ...) take only 16-
and 32-bit floats, and the pinned IREE lowers f64 transcendentals to them, so on
vulkan-spirv such a module fails deep in IREE ("'spirv.GL.Log' op operand #0 must be
16/32-bit float ..., but got 'f64'"). hlo-mlir does not emulate them; this check names
the op, its shape and where it was built, and says what to do instead. f64 add, multiply,
divide, sqrt and rsqrt compile (the device has Float64) and are not reported. Runs last
in the ``vulkan-legalize`` preset, after ``iree-legalize`` (whose expansions emit such
ops: ``f64-log1p`` emits a log). It changes nothing.
"""

from __future__ import annotations

from iree.compiler import ir

from hlo_mlir.context import location_text
from hlo_mlir.errors import CompileError
from hlo_mlir.ir_access import element_type_name
from pipelines.pass_base import Pass, PassError
from pipelines.registry import register

__all__ = ["VulkanF64Math", "VulkanDeviceLimitError", "F64_TRANSCENDENTALS"]

# The ops whose f64 (and complex<f64>) forms IREE lowers to GLSL.std.450 instructions.
F64_TRANSCENDENTALS = frozenset(
    [f"stablehlo.{n}" for n in ("log", "log_plus_one", "exponential", "exponential_minus_one", "tanh",
                                "sine", "cosine", "tan", "atan2", "power", "cbrt", "logistic")]
    + [f"chlo.{n}" for n in ("erf", "erfc", "erf_inv", "lgamma", "digamma", "polygamma", "zeta", "asin",
                             "acos", "atan", "asinh", "acosh", "atanh", "sinh", "cosh", "tan",
                             "bessel_i1e")])


class VulkanDeviceLimitError(PassError, CompileError):
    """The module computes what the Vulkan device cannot (a CompileError raised by a pass)."""

    def __init__(self, message: str, pass_name: str = ""):
        CompileError.__init__(self, message, "vulkan-spirv")
        self.pass_name = pass_name


def _f64_result(op) -> str | None:
    for result in op.results:
        name = element_type_name(result) if isinstance(result.type, ir.ShapedType) else str(result.type)
        if name in ("f64", "complex<f64>"):
            return str(result.type)
    return None


@register
class VulkanF64Math(Pass):
    """Fails with a CompileError naming each f64 transcendental (log, exp, tanh, ...) Vulkan lacks."""

    name = "vulkan-f64-math"
    legalizes_for_target = "vulkan-spirv"

    def run(self, module: ir.Module) -> bool:
        problems: list[str] = []

        def visit(op):
            if op.operation.name in F64_TRANSCENDENTALS and (found := _f64_result(op)) is not None:
                where = location_text(op.location) or str(op.location)
                problems.append(f"{where}: {op.operation.name} requires f16 or f32 elements on vulkan-spirv; "
                                f"got {found}")
            return ir.WalkResult.ADVANCE

        module.operation.walk(visit)
        if problems:
            raise VulkanDeviceLimitError(
                "the module cannot run on vulkan-spirv: SPIR-V's GLSL.std.450 math instructions take only "
                "16- and 32-bit floats and hlo-mlir does not emulate f64 transcendentals; compute them in "
                "f32 or compile for llvm-cpu or cuda:\n  " + "\n  ".join(problems), self.name)
        return False
