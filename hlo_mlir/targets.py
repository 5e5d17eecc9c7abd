"""Per-target IREE compile flags (``TARGETS``, chosen by measurement) and their checks.

``target_flags(target, extra)`` merges a target's defaults with the caller's flags and
checks, before IREE sees them, the values that would crash the pinned compiler instead
of failing: device targets (``--iree-cuda-target``, ``--iree-vulkan-target``) and the
llvm-cpu CPU and triple. Unknown values are probed once in a child ``iree-compile``.
"""

from __future__ import annotations

import functools
import os
import platform
import re
import subprocess
from typing import Sequence

from hlo_mlir import compile_worker as _worker
from hlo_mlir.errors import CompileError, did_you_mean

__all__ = ["TARGETS", "target_flags", "crash_lines"]

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
        raise CompileError(f"compile requires a target in {sorted(TARGETS)}; got {target!r}"
                           f"{did_you_mean(target, TARGETS) or '.'}", target)
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
        lines = crash_lines(proc.stderr.decode("utf-8", "replace"))
        fatal = [ln for ln in lines if ln.startswith("LLVM ERROR")]
        return (fatal or lines or [f"exit status {proc.returncode}"])[0]
    return ""


# Lines of a crash's stderr that are stack frames ("#12 0x00007f... symbol") or LLVM's crash
# banner: saved with the reproducer, left out of the error message.
_STACK_FRAME = re.compile(r"^\s*#\d+\s+0x[0-9a-fA-F]+")
_CRASH_BANNER = re.compile(r"^(Stack dump:|\d+\.\s+Program arguments:|Please report issues|PLEASE submit)")


def crash_lines(stderr: str, most: int = 20) -> list[str]:
    """What a crashed compiler said, for the error message: no stack frames, no banner, each
    line once (IREE repeats a warning per executable), at most ``most`` lines."""
    lines = [ln for ln in stderr.splitlines()
             if ln.strip() and not _STACK_FRAME.match(ln) and not _CRASH_BANNER.match(ln)]
    return list(dict.fromkeys(lines))[:most]
