"""``python -m hlo_mlir``: what this installation is and what it can do on this machine.

Prints hlo-mlir's version and where it is imported from, the IREE compiler and runtime
installed beside the versions the package pins, the targets ``hlo_mlir.compile`` knows
(whether this IREE compiler has each, and which driver here runs its code), the IREE
runtime drivers with their devices on this machine (a Vulkan device by name, e.g. Mesa's
``llvmpipe``), and the compile cache (where, on or off, how full).

It answers in well under a second and never fails: the IREE compiler's target list and
the runtime's driver probe run in child processes, side by side (a driver that crashes
or hangs becomes a line saying so), and whatever cannot be found is reported as such.
"""

from __future__ import annotations

import argparse
import importlib.metadata
import json
import os
import platform
import re
import subprocess
import sys
from dataclasses import dataclass, field
from typing import IO, Sequence

__all__ = ["main", "Report", "collect", "render", "probe_drivers", "RUNS_ON"]

_COMPILER, _RUNTIME = "iree-base-compiler", "iree-base-runtime"

# The runtime drivers that run the code of each hlo_mlir.compile target.
RUNS_ON: dict[str, tuple[str, ...]] = {
    "llvm-cpu": ("local-sync", "local-task"),
    "vulkan-spirv": ("vulkan",),
    "cuda": ("cuda",),
}

# Run in a child process: one JSON line per driver, flushed, so a driver that crashes the
# probe loses only its own line ("probing" says which one it was).
_DRIVER_PROBE = r"""
import json, sys
def say(**fields):
    print(json.dumps(fields), flush=True)
import iree.runtime as rt
for name in rt.query_available_drivers():
    say(probing=name)
    try:
        devices = rt.get_driver(name).query_available_devices()
        say(driver=name, devices=[str(d.get("name", "")) for d in devices])
    except Exception as e:
        say(driver=name, error=str(e))
"""

_PROBE_TIMEOUT = 30.0


@dataclass
class Driver:
    name: str
    devices: list[str] = field(default_factory=list)
    error: str = ""


@dataclass
class Report:
    """What ``python -m hlo_mlir`` prints, as data (every field a text or a list of them)."""

    version: str
    location: str
    python: str
    compiler: str
    runtime: str
    targets: list[tuple[str, str]]  # (target, what compiles and runs it here)
    drivers: list[Driver]
    drivers_note: str  # why the driver list is empty or incomplete, if it is
    cache: str


def _version(dist: str) -> str | None:
    try:
        return importlib.metadata.version(dist)
    except importlib.metadata.PackageNotFoundError:
        return None


def _pins() -> dict[str, str]:
    """The version specifiers hlo-mlir requires: the source tree's pyproject.toml when
    running from one (current even before a reinstall), else the installed metadata."""
    requirements: list[str] = []
    pyproject = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "pyproject.toml")
    try:
        import tomllib

        with open(pyproject, "rb") as f:
            requirements = list(tomllib.load(f)["project"]["dependencies"])
    except (OSError, KeyError, ValueError):
        requirements = [r for r in (importlib.metadata.requires("hlo-mlir") or []) if "extra ==" not in r] \
            if _version("hlo-mlir") else []
    pins = {}
    for requirement in requirements:
        found = re.match(r"\s*([A-Za-z0-9_.-]+)\s*(.*)", requirement)
        if found:
            pins[found.group(1).lower()] = found.group(2).strip()
    return pins


def _package_line(dist: str, pins: dict[str, str]) -> str:
    installed = _version(dist)
    pin = pins.get(dist, "")
    if installed is None:
        return f"{dist} not installed" + (f" (hlo-mlir requires {pin})" if pin else "")
    text = f"{dist} {installed}"
    if pin:
        text += f" (pinned {pin})"
        if pin.startswith("==") and pin[2:] != installed:
            text += f"; MISMATCH: install {dist}{pin}"
    return text


def _short_error(message: str) -> str:
    """IREE's status text without its source location and status code, first line only."""
    line = message.strip().splitlines()[0] if message.strip() else "unavailable"
    line = re.sub(r"^Error creating driver: ", "", line)
    line = re.sub(r"^\S+\.c:\d+: [A-Z_]+; ", "", line)
    line = re.split(r"[;:] please ", line)[0]  # "...; please ensure installed and in ..."
    return line if len(line) <= 110 else line[:107] + "..."


def _start(args: Sequence[str]) -> subprocess.Popen | str:
    try:
        return subprocess.Popen(list(args), stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, text=True)
    except OSError as e:
        return f"could not start {os.path.basename(args[0])}: {e.strerror or e}"


def _finish(proc: subprocess.Popen | str, timeout: float) -> tuple[str, str]:
    """(stdout, why it is incomplete: "" when the child exited cleanly)."""
    if isinstance(proc, str):
        return "", proc
    try:
        out, err = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        proc.kill()
        out, err = proc.communicate()
        return out, f"did not answer within {timeout:g} s"
    if proc.returncode != 0:
        from hlo_mlir.compile_worker import signal_text

        last = err.strip().splitlines()[-1] if err.strip() else ""
        return out, f"ended with {signal_text(proc.returncode)}" + (f": {last}" if last else "")
    return out, ""


def probe_drivers(proc: subprocess.Popen | str | None = None,
                  timeout: float = _PROBE_TIMEOUT) -> tuple[list[Driver], str]:
    """The runtime's drivers and their devices, probed in a child process; and a note when
    the probe did not finish (which driver crashed or hung it)."""
    if proc is None:
        proc = _start([sys.executable, "-c", _DRIVER_PROBE])
    out, problem = _finish(proc, timeout)
    drivers: list[Driver] = []
    probing = None
    for line in out.splitlines():
        try:
            record = json.loads(line)
        except ValueError:
            continue
        if "probing" in record:
            probing = record["probing"]
        elif "driver" in record:
            drivers.append(Driver(record["driver"], list(record.get("devices", [])),
                                  _short_error(record["error"]) if "error" in record else ""))
            probing = None
    if problem and probing is not None:
        drivers.append(Driver(probing, [], f"the probe {problem} while asking this driver for its devices"))
        problem = ""
    elif problem:
        problem = f"the driver probe {problem}"
    return drivers, problem


def _compiler_targets(proc: subprocess.Popen | str | None) -> tuple[set[str] | None, str]:
    """The target backends of the installed IREE compiler (None: unknown, with why)."""
    if proc is None:
        return None, "the IREE compiler is not installed (a runtime-only install runs vmfbs, compiles none)"
    out, problem = _finish(proc, _PROBE_TIMEOUT)
    names = {line.strip() for line in out.splitlines() if line.strip() and " " not in line.strip()}
    if problem or not names:
        return None, f"iree-compile --iree-hal-list-target-backends {problem or 'listed nothing'}"
    return names, ""


def _target_lines(backends: set[str] | None, why: str, drivers: list[Driver]) -> list[tuple[str, str]]:
    usable = {d.name for d in drivers if d.devices and not d.error}
    lines = []
    for target, runs_on in RUNS_ON.items():
        if backends is None:
            compiles = f"compiler unknown ({why})"
        else:
            compiles = "compiles" if target in backends else "NOT in this IREE compiler"
        here = [d for d in runs_on if d in usable]
        runs = f"runs on {', '.join(here)}" if here else f"no {' or '.join(runs_on)} device here"
        lines.append((target, f"{compiles}; {runs}"))
    return lines


def _cache_line() -> str:
    from hlo_mlir import cache

    where = cache.cache_dir()
    if cache.default_cache() is None:
        return f"{where} (off: HLO_MLIR_CACHE=0)"
    try:
        limit = f"{cache.max_bytes_from_env() / 2**30:.1f} GiB"
    except Exception as e:  # noqa: BLE001 - a bad HLO_MLIR_CACHE_MAX_BYTES: say so, go on
        limit = f"an invalid limit ({e})"
    if not where.is_dir():
        return f"{where} (on; empty, not created yet; limit {limit})"
    entries = cache.CompileCache(where).entries()
    size = 0
    for path in entries:
        try:
            size += path.stat().st_size
        except OSError:
            pass
    return f"{where} (on; {len(entries)} entries, {size / 2**20:.1f} MiB; limit {limit})"


def _guard(what: str, fn, default):
    try:
        return fn()
    except Exception as e:  # noqa: BLE001 - this report never fails: it says what it could not find
        return default(f"{what}: could not be determined ({type(e).__name__}: {e})")


def collect() -> Report:
    """Everything ``python -m hlo_mlir`` prints (the two probes run concurrently)."""
    driver_proc = _start([sys.executable, "-c", _DRIVER_PROBE])
    compiler_proc: subprocess.Popen | str | None = None
    try:
        from iree.compiler.tools import binaries

        compiler_proc = _start([binaries.find_tool("iree-compile"), "--iree-hal-list-target-backends"])
    except Exception:  # noqa: BLE001 - no compiler package (a runtime-only install)
        compiler_proc = None
    pins = _guard("pins", _pins, lambda _: {})
    drivers, drivers_note = probe_drivers(driver_proc)
    backends, why = _compiler_targets(compiler_proc)
    package = os.path.dirname(os.path.abspath(__file__))
    return Report(
        version=_version("hlo-mlir") or "(not installed: imported from its source tree)",
        location=package,
        python=f"{platform.python_version()} ({sys.executable})",
        compiler=_package_line(_COMPILER, pins),
        runtime=_package_line(_RUNTIME, pins),
        targets=_target_lines(backends, why, drivers),
        drivers=drivers,
        drivers_note=drivers_note,
        cache=_guard("compile cache", _cache_line, str),
    )


def render(report: Report, out: IO[str]) -> None:
    cpu = f"host CPU ({os.cpu_count() or '?'} cores)"
    print(f"hlo-mlir {report.version} ({report.location})", file=out)
    print(f"Python {report.python}", file=out)
    print(f"IREE compiler: {report.compiler}", file=out)
    print(f"IREE runtime:  {report.runtime}", file=out)
    print("\ntargets (hlo_mlir.compile, hlo-compile --target):", file=out)
    for target, text in report.targets:
        print(f"  {target:<14} {text}", file=out)
    print("\ndrivers (hlo_mlir.runtime.load, hlo-run --device):", file=out)
    for d in report.drivers:
        if d.error:
            text = f"unavailable: {d.error}"
        elif not d.devices:
            text = "no device"
        elif d.name.startswith("local-"):
            text = cpu
        else:
            text = "; ".join(d.devices)
        print(f"  {d.name:<14} {text}", file=out)
    if report.drivers_note or not report.drivers:
        print(f"  ({report.drivers_note or 'the IREE runtime lists no driver'})", file=out)
    print(f"\ncompile cache: {report.cache}", file=out)


def main(argv: Sequence[str] | None = None) -> int:
    description = "Prints what this hlo-mlir installation is and what it can do on this machine."
    argparse.ArgumentParser(prog="python -m hlo_mlir", description=description).parse_args(argv)
    render(collect(), sys.stdout)
    return 0


if __name__ == "__main__":
    sys.exit(main())
