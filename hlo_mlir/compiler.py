"""Compiling StableHLO modules to IREE ``.vmfb`` bytes.

``compile(source, target)`` takes an XlaComputation, an HloModule, an ``ir.Module``,
MLIR text or MLIR bytecode. It copies the module, runs a pass preset (``O2`` by
default), the expanders and legalizations that make XLA's answers come out of IREE
(the ``iree-legalize`` preset), records the program shape
in the function's reflection (so the runtime can rebuild tuples), and compiles with
per-target default flags chosen by measurement. Results are kept in the persistent
compile cache (``hlo_mlir.cache``): compiling the same module twice costs nothing.

IREE itself runs in a compile worker, a child process (``hlo_mlir.compile_worker``):
the pinned compiler segfaults, aborts or exits on some inputs and flags, and there
that becomes a CompileError naming the signal or exit status, the target, the flags
and a reproducer (the module and the exact ``iree-compile`` command, saved under
``$HLO_MLIR_REPRO_DIR`` or the temporary directory); the caller's process lives. It
costs 1-3 ms per compile (benchmarks/compile_time.py). ``compile(..., isolate=False)``
or ``HLO_MLIR_COMPILE_ISOLATION=0`` compiles in this process instead (for a debugger;
then a crash of IREE ends the process). ``timeout=`` or ``HLO_MLIR_COMPILE_TIMEOUT``
(seconds) stops an isolated compile that runs longer.
"""

from __future__ import annotations

import functools
import math
import os
import platform
import re
import shlex
import subprocess
import sys
import tempfile
from typing import Sequence

from iree.compiler import ir
from iree.compiler.tools import binaries

from hlo_mlir import cache as _cache
from hlo_mlir import compile_worker as _worker
from hlo_mlir import context as _context
from hlo_mlir.artifacts import FunctionSignature
from hlo_mlir.context import as_module
from hlo_mlir.errors import CompileError, InvalidArgumentError
from hlo_mlir.ir_access import function_type, functions, is_public, symbol_name, uses_tuples_or_tokens
from hlo_mlir.shape import Shape
from pipelines.analyses.libm_flags import required_flags
from pipelines.pipeline import run_pipeline

__all__ = ["compile", "prepare", "full_flags", "TARGETS", "target_flags", "as_module", "save_reproducer",
           "function_signatures"]

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
    if target == "llvm-cpu":
        _check_cpu_target(flags, target)
    return flags


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

    Unknown target names make the pinned compiler dereference a null target (SIGSEGV).
    """
    return _probe([f"--iree-hal-target-device={_TARGET_FLAG_DEVICE[name]}", f"{name}={value}"])


# LLVM CPU names the pinned IREE accepts for x86 ("List of accepted CPUs" of its x86 backend);
# any other value of --iree-llvmcpu-target-cpu, and any triple whose architecture is not in
# _LLVM_ARCHES, is probed once in a child process: ``nonexistentcpu`` ends the compiler with
# "LLVM ERROR: 64-bit code requested on a subtarget that doesn't support it!" and
# ``--iree-llvmcpu-target-triple=garbage-triple`` segfaults it.
_X86_CPUS = frozenset("""
    nocona core2 penryn bonnell atom silvermont slm goldmont goldmont-plus tremont nehalem corei7 westmere
    sandybridge corei7-avx ivybridge core-avx-i haswell core-avx2 broadwell skylake skylake-avx512 skx
    cascadelake cooperlake cannonlake icelake-client rocketlake icelake-server tigerlake sapphirerapids
    alderlake raptorlake meteorlake arrowlake arrowlake-s lunarlake gracemont pantherlake wildcatlake novalake
    sierraforest grandridge graniterapids graniterapids-d emeraldrapids clearwaterforest diamondrapids knl knm
    k8 athlon64 athlon-fx opteron k8-sse3 athlon64-sse3 opteron-sse3 amdfam10 barcelona btver1 btver2 bdver1
    bdver2 bdver3 bdver4 znver1 znver2 znver3 znver4 znver5 znver6 x86-64 x86-64-v2 x86-64-v3
    x86-64-v4""".split())
# Triple architectures with a code generator in the pinned IREE (--iree-llvmcpu-list-targets).
_LLVM_ARCHES = frozenset({"x86_64", "i386", "i486", "i586", "i686", "aarch64", "aarch64_be", "arm64", "arm",
                          "armv7", "armv7a", "armv8a", "thumb", "thumbv7", "riscv32", "riscv64", "wasm32",
                          "wasm64"})
_X86_ARCHES = frozenset({"x86_64", "i386", "i486", "i586", "i686"})
_CPU_FLAG, _TRIPLE_FLAG = "--iree-llvmcpu-target-cpu", "--iree-llvmcpu-target-triple"
_FEATURES_FLAG = "--iree-llvmcpu-target-cpu-features"


def _check_cpu_target(flags: list[str], target: str) -> None:
    """Raises CompileError unless the llvm-cpu triple and CPU compile a trivial module.

    ``host``, ``generic``, x86 CPU names on an x86 triple and triples of a known
    architecture pass without a probe; anything else is compiled once in a child
    process (a bad value crashes the compiler instead of failing)."""
    values = {name: value for name, _, value in (f.partition("=") for f in flags)}
    cpu, triple = values.get(_CPU_FLAG, ""), values.get(_TRIPLE_FLAG, "")
    features = values.get(_FEATURES_FLAG, "")
    if "host" in (cpu, features) and {cpu, features} - {"host", ""}:
        # IREE: "If either CPU or CPU-features is `host`, the other must be either also `host`
        # or the default value", then SIGSEGV (cpu=generic/znver4, features=host) or LLVM ERROR.
        raise CompileError(f"llvm-cpu requires {_CPU_FLAG} and {_FEATURES_FLAG} to be both host or not "
                           f"host (the default CPU is host: name a CPU to give features); got "
                           f"{_CPU_FLAG}={cpu or '(default)'} and "
                           f"{_FEATURES_FLAG}={features or '(default)'}.", target, flags)
    arch = triple.split("-")[0] if triple else platform.machine()
    known_cpu = cpu in ("", "host", "generic") or (arch in _X86_ARCHES and cpu in _X86_CPUS)
    if arch in _LLVM_ARCHES and known_cpu:
        return
    error = _probe_cpu_target(cpu, triple)
    if error:
        culprit = f"{_CPU_FLAG}={cpu}" if arch in _LLVM_ARCHES else f"{_TRIPLE_FLAG}={triple}"
        if arch not in _LLVM_ARCHES:
            known = f"known architectures: {', '.join(sorted(_LLVM_ARCHES))}"
        elif arch in _X86_ARCHES:
            known = f"known x86 CPUs: host, generic, {', '.join(sorted(_X86_CPUS))}"
        else:
            known = "known: host, generic"
        raise CompileError(f"{culprit} is not a target the pinned IREE can compile for ({error}); {known}.",
                           target, flags)


@functools.cache
def _probe_cpu_target(cpu: str, triple: str) -> str:
    """Compiles a trivial module for llvm-cpu with ``cpu`` and ``triple`` in a child
    process ("" if it works)."""
    extra = ([f"{_CPU_FLAG}={cpu}"] if cpu else []) + ([f"{_TRIPLE_FLAG}={triple}"] if triple else [])
    return _probe(["--iree-hal-target-device=local", "--iree-hal-local-target-device-backends=llvm-cpu",
                   *extra])


def _probe(flags: list[str]) -> str:
    """Compiles a trivial module with ``flags`` in a child ``iree-compile``: "" if it
    works, else the first line of its complaint or the signal that ended it."""
    try:
        proc = _worker.probe_compile(["-o", os.devnull, *flags])
    except (OSError, subprocess.TimeoutExpired) as e:
        return f"the probe compile failed to run: {e}"
    if proc.returncode < 0:
        return f"the compiler crashed with {_worker.signal_text(proc.returncode)}"
    if proc.returncode:
        lines = _crash_lines(proc.stderr.decode("utf-8", "replace"))
        fatal = [ln for ln in lines if ln.startswith("LLVM ERROR")]
        return (fatal or lines or [f"exit status {proc.returncode}"])[0]
    return ""


def _input_type(module: ir.Module) -> str:
    """``stablehlo_xla`` where tuples or tokens appear (plain ``stablehlo`` rejects them)."""
    return "stablehlo_xla" if uses_tuples_or_tokens(module.operation) else "stablehlo"


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
    driver = preferred_driver(module, target)
    with module.context:
        for op in filter(is_public, functions(module)):
            entries = {"hlo_mlir.preferred_driver": ir.StringAttr.get(driver)}
            ftype = function_type(op)
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


def function_signatures(module: ir.Module) -> tuple[FunctionSignature, ...]:
    """The XLA program shape of each public ``func.func`` of an ``ir.Module``, for the
    manifest (``artifacts.make_manifest``).

    Types XLA has no shape for (unbounded dynamic dimensions) are recorded as their
    MLIR type text.
    """
    def text(t) -> str:
        try:
            return str(Shape.from_mlir_type(t))
        except Exception:  # noqa: BLE001 - no XLA shape: keep the MLIR spelling
            return str(t)

    out = []
    with module.context:
        for op in filter(is_public, functions(module)):
            ftype = function_type(op)
            out.append(FunctionSignature(symbol_name(op),
                                         tuple(text(t) for t in ftype.inputs),
                                         tuple(text(t) for t in ftype.results)))
    return tuple(out)


def compile(source, target: str = "llvm-cpu", *, flags: Sequence[str] = (), passes: str = "O2",
            legalize: bool = True, verify: bool = True, isolate: bool | None = None,
            timeout: float | None = None) -> bytes:  # noqa: A001 - the natural name
    """Compiles ``source`` for ``target`` (llvm-cpu, vulkan-spirv, cuda); returns vmfb bytes.

    The module (a copy: ``source`` is never changed) goes through the pass pipeline
    ``passes`` (a preset such as ``O0``/``O1``/``O2`` or a spec like ``"algsimp,cse"``),
    then, with ``legalize``, through the ``iree-legalize`` expanders and the element-wise
    legalizations that make IREE give XLA's answers, then IREE. ``flags`` are extra
    IREE flags (they override the defaults of the same name). Raises CompileError
    naming the target, the flags and IREE's diagnostics.

    IREE runs in a compile worker process unless ``isolate`` is False (default: on,
    ``HLO_MLIR_COMPILE_ISOLATION=0`` turns it off): a crash of IREE, or a compile that
    runs past ``timeout`` seconds (default ``$HLO_MLIR_COMPILE_TIMEOUT``, else none),
    raises CompileError with a saved reproducer instead of ending this process.
    """
    defaults = target_flags(target, flags)  # a bad target or flag fails before any work
    isolate = _isolation_default() if isolate is None else isolate
    timeout = _timeout_default() if timeout is None else timeout
    module = as_module(source)
    key = _cache.compile_key(_context.bytecode(module), target, defaults, passes, legalize)

    def produce() -> bytes:
        if isolate:
            _worker.default_pool().prestart()  # its start-up overlaps our passes
        if verify:
            _verify(module)
        prepare(module, target, passes, legalize)
        return _compile_bytecode(_context.bytecode(module), target, full_flags(module, target, flags),
                                 isolate=isolate, timeout=timeout)

    return _cache.cached(key, produce)  # the persistent compile cache (hlo_mlir.cache)


def _isolation_default() -> bool:
    value = os.environ.get("HLO_MLIR_COMPILE_ISOLATION", "1").strip().lower()
    return value not in ("0", "false", "off", "no")


def _timeout_default() -> float | None:
    value = os.environ.get("HLO_MLIR_COMPILE_TIMEOUT", "").strip()
    if not value:
        return None
    try:
        seconds = float(value)
    except ValueError:
        seconds = -1.0
    if not seconds > 0:
        raise InvalidArgumentError(f"HLO_MLIR_COMPILE_TIMEOUT requires a positive number of seconds; "
                                   f"got {value!r}.")
    return seconds


def prepare(module: ir.Module, target: str = "llvm-cpu", passes: str = "O2", legalize: bool = True) -> None:
    """Runs, in place, what ``compile`` runs before IREE: ``passes``, the IREE
    legalizations, and the reflection the runtime reads (program shape, driver)."""
    if passes:
        run_pipeline(module, passes)
    if legalize:
        run_pipeline(module, "iree-legalize")
    _record_reflection(module, target)


def full_flags(module: ir.Module, target: str, flags: Sequence[str] = ()) -> list[str]:
    """Every IREE flag ``compile`` passes for ``module`` (prepared): the input type, the
    target's defaults, what the module's ops need (``libm_flags.required_flags``, e.g. libm
    linking for f64 transcendentals on llvm-cpu), then ``flags``."""
    needed = required_flags(module, target)
    return [f"--iree-input-type={_input_type(module)}"] + target_flags(target, needed + list(flags))


def _verify(module: ir.Module) -> None:
    _context.verify_module(module, "module failed verification before compile")


def _compile_bytecode(bytecode: bytes, target: str, flags: list[str], *, isolate: bool = True,
                      timeout: float | None = None) -> bytes:
    """IREE compiles ``bytecode`` with ``flags``: in a compile worker (``isolate``), or here."""
    if not isolate:
        outcome = _worker.run_compiler(bytecode, flags)
    else:
        try:
            outcome, stdout, stderr = _worker.default_pool().compile(bytecode, flags, timeout)
        except _worker.WorkerDied as died:
            raise _crash_error(bytecode, target, flags, died) from None
        except OSError as e:  # no child process here (a sandbox, a frozen application)
            raise CompileError(f"could not start the compile worker ({e}); compile(..., isolate=False) "
                               f"or HLO_MLIR_COMPILE_ISOLATION=0 compiles in this process.", target,
                               flags) from None
        if stdout:
            sys.stdout.write(stdout)  # IREE's own prints (warnings, --mlir-timing, ...), as in process
        if stderr:
            sys.stderr.write(stderr)
    if outcome.status == "ok" and outcome.vmfb is not None:
        return outcome.vmfb
    message = {"flags": f"IREE rejected the compile flags: {outcome.detail}",
               "parse": "IREE could not parse the module.",
               "compile": "IREE failed to compile the module.",
               "output": f"IREE could not write the vmfb: {outcome.detail}",
               }.get(outcome.status, f"the compile worker failed: {outcome.detail}")
    raise CompileError(message, target, flags, outcome.diagnostics)


# Lines of a crash's stderr that are stack frames ("#12 0x00007f... symbol") or LLVM's crash
# banner: saved with the reproducer, left out of the error message.
_STACK_FRAME = re.compile(r"^\s*#\d+\s+0x[0-9a-fA-F]+")
_CRASH_BANNER = re.compile(r"^(Stack dump:|\d+\.\s+Program arguments:|Please report issues|PLEASE submit)")


def _crash_lines(stderr: str, most: int = 20) -> list[str]:
    """What a crashed compiler said, for the error message: no stack frames, no banner, each
    line once (IREE repeats a warning per executable), at most ``most`` lines."""
    lines = [ln for ln in stderr.splitlines()
             if ln.strip() and not _STACK_FRAME.match(ln) and not _CRASH_BANNER.match(ln)]
    return list(dict.fromkeys(lines))[:most]


def _crash_error(bytecode: bytes, target: str, flags: list[str], died: _worker.WorkerDied) -> CompileError:
    """The CompileError for a compile worker that crashed, exited or timed out."""
    if died.timed_out:
        what = f"IREE did not finish compiling the module: it {died.reason} and was stopped"
    else:
        what = (f"IREE crashed compiling the module: {died.reason} in the compile worker (a child process; "
                f"this process is unaffected)")
    try:
        script = save_reproducer(bytecode, flags, f"{what}; target {target}", died.stderr)
        where = f"Reproduce with: sh {script} (the module and the exact iree-compile command)."
    except OSError as e:
        where = f"No reproducer saved: {e}."
    return CompileError(f"{what}. {where}", target, flags, _crash_lines(died.stderr))


def save_reproducer(bytecode: bytes, flags: Sequence[str], reason: str, stderr: str = "") -> str:
    """Saves ``bytecode`` and the ``iree-compile`` command that compiles it with ``flags``
    in a new folder under ``$HLO_MLIR_REPRO_DIR`` (else the temporary directory):
    ``module.mlirbc``, ``module.mlir`` (its text, where it parses), ``stderr.txt`` and
    ``reproduce.sh``. Returns the path of ``reproduce.sh``."""
    base = os.environ.get("HLO_MLIR_REPRO_DIR") or tempfile.gettempdir()
    os.makedirs(base, exist_ok=True)
    folder = tempfile.mkdtemp(prefix="hlo-mlir-crash-", dir=base)
    module_path = os.path.join(folder, "module.mlirbc")
    with open(module_path, "wb") as f:
        f.write(bytecode)
    try:
        ctx = _context.get_context()
        with ctx:
            text = ir.Module.parse(bytecode, context=ctx).operation.get_asm(large_elements_limit=64)
        with open(os.path.join(folder, "module.mlir"), "w") as f:
            f.write(text)
    except Exception:  # noqa: BLE001 - the bytecode is what reproduces; its text is a convenience
        pass
    with open(os.path.join(folder, "stderr.txt"), "w") as f:
        f.write(stderr)
    iree_compile = os.path.realpath(binaries.find_tool("iree-compile"))
    command = [iree_compile, module_path, *flags, "-o", os.path.join(folder, "module.vmfb")]
    script = os.path.join(folder, "reproduce.sh")
    with open(script, "w") as f:
        f.write(f"#!/bin/sh\n# hlo-mlir: {reason}\n# what it printed: stderr.txt; the module as text (large "
                f"constants elided): module.mlir\n{shlex.join(command)}\n")
    os.chmod(script, 0o755)
    return script
