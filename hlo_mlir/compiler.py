"""Compiling StableHLO modules to IREE ``.vmfb`` bytes, in process.

``compile(source, target)`` takes an XlaComputation, an HloModule, an ``ir.Module``,
MLIR text or MLIR bytecode. It copies the module, runs a pass preset (``O2`` by
default), the expanders and legalizations that make XLA's answers come out of IREE
(the ``iree-legalize`` preset and ``pipelines.legalize``), records the program shape
in the function's reflection (so the runtime can rebuild tuples), and compiles with
per-target default flags chosen by measurement. Results are kept in the persistent
compile cache (``hlo_mlir.cache``): compiling the same module twice costs nothing.
"""

from __future__ import annotations

import ctypes
import functools
import math
import os
import subprocess
from typing import Sequence

from iree.compiler import ir
import iree.compiler.api as _capi
from iree.compiler.api import ctypes_dl as _cdl

from hlo_mlir import context as _context
from hlo_mlir.errors import CompileError, ParseError

__all__ = ["compile", "prepare", "full_flags", "TARGETS", "target_flags", "as_module"]

# Flags every target gets: keep f64 as f64 (IREE demotes it by default).
_COMMON = ["--iree-input-demote-f64-to-f32=false"]

# Default flags per target.
#
# llvm-cpu: O3 + data tiling + ukernels was the best general combination measured
# against XLA CPU on these machines (ARCHITECTURE.md, performance facts); host CPU
# features are worth 3-14x; reassociating fp reductions keeps large f32 sums accurate
# (a sequential sum saturates at 2^24). Re-measured with benchmarks/flag_choice.py on
# the 2-core CI machine (median us per call through runtime.load(...).main, local-task;
# the machine was shared, so ratios moved +-30% between runs):
#     workload                 these flags   IREE defaults
#     matmul f32 1024x1024        124 ms        362 ms     (2.9x, stable across runs)
#     matmul f32 512x512         13-19 ms      14-26 ms    (0.8x-1.4x: noise)
#     MLP 32x256-512-512-10      1.6-2.9 ms    1.7-2.4 ms  (0.8x-1.0x: noise)
#     tiny add f32[4]             55-77 us      72-105 us  (dispatch-bound)
# Ukernels for mmt4d only, not "all": IREE's unpack ukernel (the matmul result back to
# its row-major layout) is slower than the generated code. Single-thread CPU time,
# interleaved, all -> mmt4d: batched matmul 16x256^3 7.71 -> 6.18 ms (0.80x), attention
# 24.9 -> 21.9 ms (0.88x), bf16 matmul 1024 0.95x, the rest equal within noise, same
# compile time. "none" is as fast for f32 but computes bf16 matmuls wrongly.
#
# vulkan-spirv: ``--iree-vulkan-target`` names the SPIR-V capabilities to assume. The
# default is Mesa's software device ``llvmpipe`` (what CI has); on a real GPU pass its
# architecture, e.g. ``--iree-vulkan-target=ampere`` or ``=rdna3``. ``host`` (IREE's own
# default) and every unknown name crash the pinned compiler (SIGSEGV), see
# ``_check_device_target``.
TARGETS: dict[str, list[str]] = {
    "llvm-cpu": [
        "--iree-hal-target-device=local",
        "--iree-hal-local-target-device-backends=llvm-cpu",
        "--iree-llvmcpu-target-cpu=host",
        "--iree-opt-level=O3",
        "--iree-opt-data-tiling",
        "--iree-llvmcpu-enable-ukernels=mmt4d",
        "--iree-llvmcpu-reassociate-fp-reductions",
        # The default 32 KiB limit rejects real programs: a scatter-add of f32[16384,256]
        # rows puts its 16384 indices on the stack ("exceeded stack allocation limit").
        "--iree-llvmcpu-stack-allocation-limit=131072",
    ],
    "vulkan-spirv": [
        "--iree-hal-target-device=vulkan",
        "--iree-vulkan-target=llvmpipe",
    ],
    "cuda": [
        "--iree-hal-target-device=cuda",
        # sm_90/sm_90a/sm_100 fail and hopper/h100 crash in the pinned IREE; sm_80 PTX is
        # JIT-compiled forward by the driver on newer GPUs.
        "--iree-cuda-target=sm_80",
    ],
}

# Device-target flag values that crash or break the pinned compiler, mapped to the
# nearest value that compiles (H100/H200-class requests get Ampere code).
_TARGET_VALUE_MAP: dict[str, dict[str, str]] = {
    "--iree-cuda-target": {"sm_90": "sm_80", "sm_90a": "sm_80", "sm_100": "sm_80", "sm_100a": "sm_80",
                           "hopper": "sm_80", "h100": "sm_80", "h200": "sm_80", "blackwell": "sm_80"},
    "--iree-vulkan-target": {"sm_90": "ampere", "sm_90a": "ampere", "sm_100": "ampere",
                             "hopper": "ampere", "h100": "ampere", "h200": "ampere"},
}

# Values verified to compile with the pinned IREE (any other value is probed once, in a
# child process, because an unknown one kills the compiler instead of failing).
_KNOWN_TARGET_VALUES: dict[str, frozenset[str]] = {
    "--iree-cuda-target": frozenset({"sm_60", "sm_70", "sm_75", "sm_80", "sm_86", "sm_89", "ampere", "a100",
                                     "rtx4090"}),
    "--iree-vulkan-target": frozenset({
        "llvmpipe", "sm_80", "sm_86", "sm_89", "ampere", "turing", "volta", "pascal", "a100", "rtx4090",
        "rtx3090", "gfx942", "gfx1100", "rdna2", "rdna3", "cdna3", "mi300x", "rx7900xtx", "valhall",
        "valhall4", "mali-g715", "adreno", "adreno-740", "vp_android_baseline_2022"}),
}
_TARGET_FLAG_DEVICE = {"--iree-cuda-target": "cuda", "--iree-vulkan-target": "vulkan"}


def target_flags(target: str, extra_flags: Sequence[str] = ()) -> list[str]:
    """The full IREE flag list for ``target`` plus ``extra_flags`` (later flags win).

    Device-target values known to crash the pinned compiler are mapped to working
    ones (``--iree-cuda-target=sm_90`` becomes ``sm_80``); unknown values are checked
    in a child process and rejected with a CompileError instead of a crash.
    """
    if target not in TARGETS:
        raise CompileError(f"compile requires a target in {sorted(TARGETS)}; got {target!r}.", target)
    flags = TARGETS[target] + _COMMON
    for flag in extra_flags:
        if not isinstance(flag, str) or not flag.startswith("--"):
            raise CompileError(f"compile requires flags of the form --name[=value]; got {flag!r}.",
                               target, list(extra_flags))
        name, _, value = flag.partition("=")
        if value in _TARGET_VALUE_MAP.get(name, {}):
            flag = f"{name}={_TARGET_VALUE_MAP[name][value]}"  # never pass a crashing value
        flags = [f for f in flags if f.partition("=")[0] != name] + [flag]
    for flag in flags:
        name, _, value = flag.partition("=")
        if name in _TARGET_FLAG_DEVICE:
            _check_device_target(name, value, target, flags)
    return flags


_PROBE_MODULE = """func.func @main(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = stablehlo.add %a, %a : tensor<4xf32>
  return %0 : tensor<4xf32>
}"""


def _check_device_target(name: str, value: str, target: str, flags: list[str]) -> None:
    """Raises CompileError unless ``name=value`` compiles a trivial module."""
    if value in _KNOWN_TARGET_VALUES[name]:
        return
    error = _probe_device_target(name, value)
    if error:
        known = ", ".join(sorted(_KNOWN_TARGET_VALUES[name]))
        raise CompileError(f"{name}={value} is not a target the pinned IREE can compile for ({error}); "
                           f"known to work: {known}.", target, flags)


@functools.cache
def _probe_device_target(name: str, value: str) -> str:
    """Compiles a trivial module with ``name=value`` in a child process ("" if it works).

    Unknown target names make the pinned compiler dereference a null target (SIGSEGV),
    which in process would kill the caller.
    """
    from iree.compiler.tools import binaries

    cmd = [binaries.find_tool("iree-compile"), "-", "--iree-input-type=stablehlo", "-o", os.devnull,
           f"--iree-hal-target-device={_TARGET_FLAG_DEVICE[name]}", f"{name}={value}"]
    try:
        proc = subprocess.run(cmd, input=_PROBE_MODULE.encode(), capture_output=True, timeout=300)
    except (OSError, subprocess.TimeoutExpired) as e:
        return f"the probe compile failed to run: {e}"
    if proc.returncode < 0:
        return f"the compiler crashed with signal {-proc.returncode}"
    if proc.returncode:
        lines = proc.stderr.decode("utf-8", "replace").strip().splitlines()
        return lines[0] if lines else f"exit status {proc.returncode}"
    return ""


def as_module(source) -> ir.Module:
    """A fresh ``ir.Module`` (in hlo-mlir's context) copied from any accepted source."""
    from hlo_mlir.builder import XlaComputation

    ctx = _context.get_context()
    if isinstance(source, XlaComputation):
        source = source.module
    elif hasattr(source, "module") and isinstance(getattr(source, "module"), ir.Module):
        source = source.module  # HloModule
    if isinstance(source, ir.Module):
        _verify(source)  # an invalid module would fail to parse back without its diagnostics
        with ctx:
            return ir.Module.parse(_bytecode(source), context=ctx)
    if isinstance(source, (str, bytes, bytearray, memoryview)):
        with ctx, _context.diagnostics_to_errors(ctx) as diags:
            try:
                return ir.Module.parse(bytes(source) if not isinstance(source, str) else source, context=ctx)
            except ir.MLIRError as e:
                messages = diags.messages or [str(e)]
                raise ParseError("could not parse MLIR input:\n  " + "\n  ".join(messages)) from None
    raise CompileError(f"compile requires an XlaComputation, HloModule, ir.Module, MLIR text or bytecode; "
                       f"got {type(source).__name__}.")


def _bytecode(module: ir.Module) -> bytes:
    import io

    buf = io.BytesIO()
    module.operation.write_bytecode(buf)
    return buf.getvalue()


def _input_type(module: ir.Module) -> str:
    """``stablehlo_xla`` where tuples or tokens appear (plain ``stablehlo`` rejects them)."""
    text = module.operation.get_asm(large_elements_limit=1)
    return "stablehlo_xla" if ("tuple<" in text or "!stablehlo.token" in text) else "stablehlo"


# The driver a compiled program prefers (recorded in its reflection for
# ``runtime.load(vmfb)``): the device the target runs on, and for llvm-cpu local-sync
# when no op does more than SMALL_KERNEL_WORK element operations (then waking the worker
# threads costs more than it saves: a 1000-step while loop over f32[16] takes 0.3x the
# time, a 16k-element sort 0.3x), local-task otherwise (docs/performance.md).
SMALL_KERNEL_WORK = 1 << 17
_TARGET_DRIVER = {"vulkan-spirv": "vulkan", "cuda": "cuda"}


def preferred_driver(module: ir.Module, target: str) -> str:
    """``runtime.load``'s driver for ``module`` compiled for ``target``."""
    if target in _TARGET_DRIVER:
        return _TARGET_DRIVER[target]
    return "local-sync" if _largest_op_work(module.operation) < SMALL_KERNEL_WORK else "local-task"


def _elements(value: ir.Value) -> int:
    t = value.type
    if not isinstance(t, ir.RankedTensorType):
        return 0
    return math.prod(d if d >= 0 else 1 for d in t.shape)


def _largest_op_work(root: ir.Operation) -> int:
    """The most element operations any single op does: the largest tensor it reads or
    writes; for dots and convolutions sqrt(lhs * rhs * result elements), the number of
    multiply-adds of a matrix product."""
    largest = 0
    for region in root.regions:
        for block in region.blocks:
            for op in block.operations:
                values = list(op.operands) + list(op.results)
                work = max((_elements(v) for v in values), default=0)
                name = op.operation.name
                if name in ("stablehlo.dot_general", "stablehlo.dot", "stablehlo.convolution") and op.results:
                    lhs, rhs, out = (_elements(v) for v in (op.operands[0], op.operands[1], op.results[0]))
                    work = max(work, math.isqrt(lhs * rhs * out)) if out else work
                largest = max(largest, work, _largest_op_work(op.operation))
    return largest


def _record_reflection(module: ir.Module, target: str) -> None:
    """Stores, in each public function's IREE reflection, its XLA program shape (where
    its types have one) and the preferred runtime driver."""
    from hlo_mlir.shape import Shape

    driver = preferred_driver(module, target)
    with module.context:
        for op in module.body.operations:
            if op.operation.name != "func.func" or "sym_visibility" in op.attributes:
                continue
            entries = {"hlo_mlir.preferred_driver": ir.StringAttr.get(driver)}
            ftype = ir.FunctionType(ir.TypeAttr(op.attributes["function_type"]).value)
            try:
                params = [str(Shape.from_mlir_type(t)) for t in ftype.inputs]
                results = [str(Shape.from_mlir_type(t)) for t in ftype.results]
                entries["hlo_mlir.program_shape"] = ir.StringAttr.get(
                    f"({', '.join(params)}) -> ({', '.join(results)})")
            except Exception:  # noqa: BLE001 - types XLA has no shape for: no program shape
                pass
            if "iree.reflection" in op.attributes:
                old = ir.DictAttr(op.attributes["iree.reflection"])
                entries.update({old[i].name: old[i].attr for i in range(len(old))})
            op.attributes["iree.reflection"] = ir.DictAttr.get(entries)


_DIAG_CALLBACK = ctypes.CFUNCTYPE(None, ctypes.c_int, ctypes.POINTER(ctypes.c_char), ctypes.c_size_t,
                                  ctypes.c_void_p)
_SEVERITY = {0: "note", 1: "warning", 2: "error", 3: "remark"}


def compile(source, target: str = "llvm-cpu", *, flags: Sequence[str] = (), passes: str = "O2",
            legalize: bool = True, verify: bool = True) -> bytes:  # noqa: A001 - the natural name
    """Compiles ``source`` for ``target`` (llvm-cpu, vulkan-spirv, cuda); returns vmfb bytes.

    The module (a copy: ``source`` is never changed) goes through the pass pipeline
    ``passes`` (a preset such as ``O0``/``O1``/``O2`` or a spec like ``"algsimp,cse"``),
    then, with ``legalize``, through the ``iree-legalize`` expanders and the element-wise
    legalizations that make IREE give XLA's answers, then IREE. ``flags`` are extra
    IREE flags (they override the defaults of the same name). Raises CompileError
    naming the target, the flags and IREE's diagnostics.
    """
    from hlo_mlir import cache as _cache

    defaults = target_flags(target, flags)  # a bad target or flag fails before any work
    module = as_module(source)
    key = _cache.compile_key(_bytecode(module), target, defaults, passes, legalize)

    def produce() -> bytes:
        if verify:
            _verify(module)
        prepare(module, target, passes, legalize)
        return _compile_bytecode(_bytecode(module), target, full_flags(module, target, flags))

    return _cache.cached(key, produce)  # the persistent compile cache (hlo_mlir.cache)


def prepare(module: ir.Module, target: str = "llvm-cpu", passes: str = "O2", legalize: bool = True) -> None:
    """Runs, in place, what ``compile`` runs before IREE: ``passes``, the IREE
    legalizations, and the reflection the runtime reads (program shape, driver)."""
    from pipelines.pipeline import run_pipeline

    if passes:
        run_pipeline(module, passes)
    if legalize:
        from pipelines import legalize as _legalize

        run_pipeline(module, "iree-legalize")
        _legalize.legalize_for_iree(module, target)
    _record_reflection(module, target)


def full_flags(module: ir.Module, target: str, flags: Sequence[str] = ()) -> list[str]:
    """Every IREE flag ``compile`` passes for ``module`` (prepared): the input type, the
    target's defaults, what the module's ops need (``legalize.required_flags``, e.g. libm
    linking for f64 transcendentals on llvm-cpu), then ``flags``."""
    from pipelines import legalize as _legalize

    needed = _legalize.required_flags(module, target)
    return [f"--iree-input-type={_input_type(module)}"] + target_flags(target, needed + list(flags))


def _verify(module: ir.Module) -> None:
    _context.verify_module(module, "module failed verification before compile")


def _compile_bytecode(bytecode: bytes, target: str, flags: list[str]) -> bytes:
    diagnostics: list[str] = []

    @_DIAG_CALLBACK
    def on_diagnostic(severity, message, size, _user):
        diagnostics.append(f"{_SEVERITY.get(severity, 'error')}: " + ctypes.string_at(message, size).decode(
            "utf-8", "replace"))

    session = _capi.Session()
    try:
        try:
            session.set_flags(*flags)
        except ValueError as e:
            raise CompileError(f"IREE rejected the compile flags: {e}", target, flags) from None
        inv = session.invocation()
        enable = _cdl._dylib.ireeCompilerInvocationEnableCallbackDiagnostics
        enable.restype, enable.argtypes = None, [ctypes.c_void_p, ctypes.c_int, _DIAG_CALLBACK, ctypes.c_void_p]
        enable(inv._inv_p, 0, on_diagnostic, None)
        source = _capi.Source.wrap_buffer(session, bytecode)
        if not inv.parse_source(source):
            raise CompileError("IREE could not parse the module.", target, flags, diagnostics)
        if not inv.execute():
            raise CompileError("IREE failed to compile the module.", target, flags, diagnostics)
        out = _capi.Output.open_membuffer()
        try:
            inv.output_vm_bytecode(out)
            return bytes(out.map_memory())
        except ValueError as e:
            raise CompileError(f"IREE could not write the vmfb: {e}", target, flags, diagnostics) from None
        finally:
            out.close()
    finally:
        session.close()
