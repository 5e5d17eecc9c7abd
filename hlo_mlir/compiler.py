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

import contextlib
import math
import os
import shlex
import sys
import tempfile
import warnings
from typing import Sequence

from iree.compiler import ir
from iree.compiler.tools import binaries

from hlo_mlir import cache as _cache
from hlo_mlir import compile_worker as _worker
from hlo_mlir import context as _context
from hlo_mlir import timing
from hlo_mlir.artifacts import FunctionSignature
from hlo_mlir.context import as_module
from hlo_mlir.errors import CompileError, CompileWarning, InvalidArgumentError
from hlo_mlir.ir_access import function_type, functions, is_public, symbol_name, uses_tuples_or_tokens
from hlo_mlir.shape import Shape
from hlo_mlir.targets import TARGETS, crash_lines, target_flags
from pipelines.analyses.libm_flags import required_flags
from pipelines.expanders.custom_call_expander import registrations_key
from pipelines.pipeline import PipelineResult, run_pipeline
from pipelines.presets import target_legalize, target_preset

__all__ = ["compile", "prepare", "run_passes", "full_flags", "TARGETS", "target_flags", "as_module",
           "save_reproducer", "function_signatures"]


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
            if "hlo_mlir.program_shape" in op.attributes:  # the shape before widen-sub-byte-integers
                entries["hlo_mlir.program_shape"] = op.attributes["hlo_mlir.program_shape"]
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


def compile(source, target: str = "llvm-cpu", *, flags: Sequence[str] = (), passes: str | None = None,
            legalize: bool = True, verify: bool = True, isolate: bool | None = None,
            timeout: float | None = None, verbose: bool = False) -> bytes:  # noqa: A001 - the natural name
    """Compiles ``source`` for ``target`` (llvm-cpu, vulkan-spirv, cuda); returns vmfb bytes.

    The module (a copy: ``source`` is never changed) goes through the pass pipeline
    ``passes`` (a preset such as ``O0``/``O1``/``O2`` or a spec like ``"algsimp,cse"``;
    default: the target's preset, ``cpu`` for llvm-cpu and ``gpu`` for the GPU targets),
    then, with ``legalize``, through the ``iree-legalize`` expanders and the element-wise
    legalizations that make IREE give XLA's answers, then IREE. ``flags`` are extra
    IREE flags (they override the defaults of the same name). Raises CompileError
    naming the target, the flags and IREE's diagnostics.

    IREE runs in a compile worker process unless ``isolate`` is False (default: on,
    ``HLO_MLIR_COMPILE_ISOLATION=0`` turns it off): a crash of IREE, or a compile that
    runs past ``timeout`` seconds (default ``$HLO_MLIR_COMPILE_TIMEOUT``, else none),
    raises CompileError with a saved reproducer instead of ending this process.

    ``verbose`` writes a line to stderr as each stage (parse, verification, each pass
    pipeline, IREE) starts and ends, then MLIR's ``--mlir-timing`` report
    (``hlo_mlir.timing``). Without it nothing is printed, except to a timer the caller
    made active with ``timing.reporting()``, which collects these stages too.
    """
    defaults = target_flags(target, flags)  # a bad target or flag fails before any work
    isolate = _isolation_default() if isolate is None else isolate
    timeout = _timeout_default() if timeout is None else timeout
    with timing.reporting() if verbose else contextlib.nullcontext():
        parsed = isinstance(source, (str, bytes, bytearray, memoryview))
        with timing.stage("Parser" if parsed else "Copy input"):
            module = as_module(source)
        passes = target_preset(target) if passes is None else passes
        with timing.stage("Cache key"):
            key = _cache.compile_key(_context.bytecode(module), target, defaults, passes, legalize,
                                     registrations_key(module))
        produced = False

        def produce() -> bytes:
            nonlocal produced
            produced = True
            if isolate:
                _worker.default_pool().prestart()  # its start-up overlaps our passes
            if verify:
                with timing.stage("Verifier"):
                    _verify(module)
            prepare(module, target, passes, legalize)
            with timing.stage(f"IREE compile ({target})"):
                return _compile_with_fallback(_context.bytecode(module), target,
                                              full_flags(module, target, flags), flags,
                                              isolate=isolate, timeout=timeout)

        vmfb = _cache.cached(key, produce)  # the persistent compile cache (hlo_mlir.cache)
        if not produced:
            timing.note(f"served from the compile cache ({_cache.cache_dir()})")
        return vmfb


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


def prepare(module: ir.Module, target: str = "llvm-cpu", passes: str | None = None,
            legalize: bool = True) -> None:
    """Runs, in place, what ``compile`` runs before IREE: ``passes`` (default: the
    target's preset), the IREE legalizations (then the target's own: ``vulkan-legalize``
    for vulkan-spirv), and the reflection the runtime reads
    (program shape, driver)."""
    passes = target_preset(target) if passes is None else passes
    if passes:
        run_passes(module, passes)
    if legalize:
        run_passes(module, "iree-legalize")
        if target_legalize(target):
            run_passes(module, target_legalize(target))
    _record_reflection(module, target)


def run_passes(module: ir.Module, spec: str, **options) -> PipelineResult:
    """``run_pipeline(module, spec, **options)`` as one timing stage (``'<spec>' Pipeline``, its
    passes' times and the verifier's nested in it; ``hlo_mlir.timing``)."""
    label = spec if len(spec) <= 48 else spec[:45] + "..."
    with timing.stage(f"'{label}' Pipeline") as record:
        result = run_pipeline(module, spec, **options)
        if record is not None:
            for name, seconds in result.timing().items():
                record.add(name, seconds)
            if result.verifier_seconds:
                record.add("(verifier)", result.verifier_seconds)
    return result


def full_flags(module: ir.Module, target: str, flags: Sequence[str] = ()) -> list[str]:
    """Every IREE flag ``compile`` passes for ``module`` (prepared): the input type, the
    target's defaults, what the module's ops need (``libm_flags.required_flags``, e.g. libm
    linking for f64 transcendentals on llvm-cpu), then ``flags``."""
    needed = required_flags(module, target)
    return [f"--iree-input-type={_input_type(module)}"] + target_flags(target, needed + list(flags))


def _verify(module: ir.Module) -> None:
    _context.verify_module(module, "module failed verification before compile")


# IREE codegen failures that its O2/O3 pipelines hit and O1 does not (IREE 3.13, llvm-cpu: a
# softmax whose scores also feed a second max-reduction result; tests/e2e/test_jax_export.py).
_LEVEL_DEFECTS = ("write affecting operations on global resources are restricted to workgroup distributed",
                  "failed on workgroup distribution verification")
_FALLBACK_LEVEL = "--iree-opt-level=O1"


def _compile_with_fallback(bytecode: bytes, target: str, flags: list[str], user_flags: Sequence[str], *,
                           isolate: bool, timeout: float | None) -> bytes:
    """``_compile_bytecode``; when IREE fails with one of the codegen defects of its O2/O3
    pipelines (``_LEVEL_DEFECTS``) at a default level of O2 or O3 (the caller named no
    ``--iree-opt-level``), the module is compiled again at O1 with a CompileWarning. If that
    fails too, the first error is raised."""
    try:
        return _compile_bytecode(bytecode, target, flags, isolate=isolate, timeout=timeout)
    except CompileError as first:
        levels = [f.split("=", 1)[1] for f in flags if f.startswith("--iree-opt-level=")]
        explicit = any(f.startswith("--iree-opt-level=") for f in user_flags)
        if explicit or not _defect_line(first) or not levels or levels[-1] not in ("O2", "O3"):
            raise
        try:
            vmfb = _compile_bytecode(bytecode, target, [*flags, _FALLBACK_LEVEL], isolate=isolate,
                                     timeout=timeout)
        except CompileError:
            raise first from None
        warnings.warn(f"IREE failed to compile the module at {levels[-1]} (a known IREE 3.13 "
                      f"codegen defect: {_defect_line(first)}); compiled it at O1 instead. Pass "
                      f"flags=['--iree-opt-level=...'] to choose the level yourself.", CompileWarning,
                      stacklevel=4)
        return vmfb


def _defect_line(error: CompileError) -> str:
    """The first diagnostic line of ``error`` that names one of ``_LEVEL_DEFECTS``."""
    lines = (line.strip() for diagnostic in error.diagnostics for line in diagnostic.splitlines())
    return next((line for line in lines if any(d in line for d in _LEVEL_DEFECTS)), "")


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
    return CompileError(f"{what}. {where}", target, flags, crash_lines(died.stderr))


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
