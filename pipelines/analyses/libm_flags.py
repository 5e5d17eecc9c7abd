"""The IREE flags a module's ops need beyond the target defaults (an analysis; it rewrites
nothing). ``hlo_mlir.compile`` passes them (``compiler.full_flags``).

f64 and complex<f64> transcendentals lower to libm calls that the embedded ELF linker of
IREE's llvm-cpu backend cannot resolve ("undefined symbol: cos"), so such modules are
linked as a system library (``--iree-llvmcpu-link-embedded=false``), whose libm calls
resolve in the loading process. (f64 exp, log, ... IREE expands itself.) IREE's
compile-time constant evaluator JIT-links the same calls without libm, so a module
whose such op reads only constants (``tanh(constant f64[2])``) failed to compile
("undefined symbol: tanh") at every optimization level; such modules are compiled with
the constant evaluator off (``--iree-opt-const-eval=false``): the op then runs, like
every other, through the loading process's libm.
"""

from __future__ import annotations

from iree.compiler import ir

from hlo_mlir.ir_access import element_type_name

__all__ = ["required_flags"]

# Ops whose f64 / complex<f64> forms IREE's llvm-cpu backend lowers to libm calls.
_LIBM_F64_OPS = frozenset({
    "stablehlo.sine", "stablehlo.cosine", "stablehlo.tan", "stablehlo.tanh", "stablehlo.atan2",
    "stablehlo.remainder"})
_LIBM_C128_OPS = _LIBM_F64_OPS | frozenset({
    "stablehlo.exponential", "stablehlo.exponential_minus_one", "stablehlo.log",
    "stablehlo.log_plus_one", "stablehlo.logistic", "stablehlo.sqrt", "stablehlo.rsqrt",
    "stablehlo.power"})
_SYSTEM_LINK = "--iree-llvmcpu-link-embedded=false"
_NO_CONST_EVAL = "--iree-opt-const-eval=false"


def _needs_libm(op) -> bool:
    name = op.operation.name
    if name not in _LIBM_C128_OPS or not len(op.results):
        return False
    types = {element_type_name(v) for v in list(op.operands) + list(op.results)}
    return ("f64" in types and name in _LIBM_F64_OPS) or "complex<f64>" in types


def required_flags(module: ir.Module, target: str = "llvm-cpu") -> list[str]:
    """IREE flags ``module`` needs on ``target`` beyond the defaults.

    llvm-cpu: ``--iree-llvmcpu-link-embedded=false`` and ``--iree-opt-const-eval=false``
    when an f64 sin/cos/tan/tanh/atan2/remainder or a complex<f64> transcendental is
    present (their libm calls link neither into the embedded ELF nor into the constant
    evaluator's JIT: "undefined symbol: cos"). Other targets: none.
    """
    if target != "llvm-cpu":
        return []
    found = []

    def visit(op):
        if _needs_libm(op):
            found.append(op)
            return ir.WalkResult.INTERRUPT
        return ir.WalkResult.ADVANCE

    module.operation.walk(visit)
    return [_SYSTEM_LINK, _NO_CONST_EVAL] if found else []
