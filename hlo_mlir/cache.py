"""A persistent cache of compiled ``.vmfb`` bytes, shared by every process of a user.

``hlo_mlir.compile`` asks it before doing any work: the key is a SHA-256 over
everything that decides the output, so a hit skips our passes *and* IREE:

- the input module, as MLIR bytecode of the module ``compile`` received (locations
  included: the same program built from other source lines is a different entry), and
  what its custom-call targets are registered as (an expansion's text, a HostFunction);
- the target, the pass spec, whether the IREE legalizations run, and the full IREE
  flag list (the target's defaults merged with the caller's flags);
- the versions of ``iree-base-compiler`` and ``iree-base-runtime`` and a digest of the
  hlo-mlir sources (``hlo_mlir``, ``dialect_ops``, ``pipelines``), so a changed pass or
  a new IREE never serves an old binary;
- for llvm-cpu code built for the host (``--iree-llvmcpu-target-cpu=host`` or
  ``-features=host``, or no triple), the host CPU itself (``host_cpu``): a cache shared
  between machines never serves code another CPU cannot run.

Entries live in ``$HLO_MLIR_CACHE_DIR``, else ``$XDG_CACHE_HOME/hlo-mlir``, else
``~/.cache/hlo-mlir``; ``HLO_MLIR_CACHE=0`` turns the cache off. Each entry is a small
header (magic, payload length, payload SHA-256, its own key) and the vmfb, written to a
temporary file in the same directory and renamed into place (``os.replace`` is atomic),
so a concurrent reader sees a whole entry or none. A truncated or corrupt entry fails
its checksum, and an entry whose recorded key is not the key asked for (a file copied or
renamed under another program's name) is not that program's: either is deleted and the
program recompiled, never loaded. When the directory grows past
``HLO_MLIR_CACHE_MAX_BYTES`` (a byte count, or with a ``K``/``M``/``G``/``T`` suffix in
powers of 1024, e.g. ``500M``; default 2 GiB) the least recently used entries are
removed; any other value is an error naming the variable (InvalidArgumentError), as a
limit the user set but mistyped should not be replaced by a guess.
"""

from __future__ import annotations

import functools
import hashlib
import importlib.metadata
import os
import platform
import re
import subprocess
import tempfile
from pathlib import Path
from typing import Callable, Sequence

from hlo_mlir import compile_worker
from hlo_mlir.errors import InvalidArgumentError

__all__ = ["CompileCache", "compile_key", "default_cache", "cached", "cache_dir", "versions", "host_cpu",
           "max_bytes_from_env"]

_MAGIC = b"hlo-mlir-vmfb-cache/2\n"
_SUFFIX = ".vmfb-entry"
_DEFAULT_MAX_BYTES = 2 << 30
_SOURCE_PACKAGES = ("hlo_mlir", "dialect_ops", "pipelines")


def cache_dir() -> Path:
    """Where entries live: ``$HLO_MLIR_CACHE_DIR``, ``$XDG_CACHE_HOME/hlo-mlir`` or
    ``~/.cache/hlo-mlir``."""
    explicit = os.environ.get("HLO_MLIR_CACHE_DIR")
    if explicit:
        return Path(explicit)
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "hlo-mlir"


def _enabled() -> bool:
    return os.environ.get("HLO_MLIR_CACHE", "1").strip().lower() not in ("0", "false", "off", "no")


@functools.cache
def versions() -> tuple[tuple[str, str], ...]:
    """What the key records about the software: IREE's versions and a digest of our sources."""
    found = []
    for dist in ("iree-base-compiler", "iree-base-runtime"):
        try:
            found.append((dist, importlib.metadata.version(dist)))
        except importlib.metadata.PackageNotFoundError:
            found.append((dist, "unknown"))
    root = Path(__file__).resolve().parent.parent
    digest = hashlib.sha256()
    for package in _SOURCE_PACKAGES:
        for path in sorted((root / package).rglob("*.py")):
            digest.update(str(path.relative_to(root)).encode() + b"\0" + path.read_bytes() + b"\0")
    found.append(("hlo-mlir-sources", digest.hexdigest()))
    return tuple(found)


# What of /proc/cpuinfo's first processor names the CPU: LLVM's host detection reads the
# same facts from cpuid (vendor, family, model, stepping for the name; the feature bits);
# x86 spells them vendor_id .. flags, Arm CPU implementer .. Features, RISC-V isa/uarch.
_CPUINFO_FIELDS = ("vendor_id", "cpu family", "model", "model name", "stepping", "flags", "CPU implementer",
                   "CPU architecture", "CPU variant", "CPU part", "CPU revision", "Features", "isa", "uarch",
                   "mmu")


@functools.cache
def host_cpu() -> str:
    """This machine's CPU as IREE's ``host`` sees it: the architecture, and the CPU
    identity and feature flags from ``/proc/cpuinfo`` (0.2 ms, once per process). Where
    there is no ``/proc/cpuinfo``, IREE's own answer: the ``cpu`` and ``cpu_features`` it
    resolves ``host`` to (a child ``iree-compile``, 30-100 ms)."""
    try:
        with open("/proc/cpuinfo", encoding="utf-8", errors="replace") as f:
            first = f.read().split("\n\n", 1)[0]
    except OSError:
        first = ""
    facts = {}
    for line in first.splitlines():
        name, sep, value = line.partition(":")
        name = name.strip()
        if sep and name in _CPUINFO_FIELDS:
            facts[name] = " ".join(sorted(value.split())) if name in ("flags", "Features") else value.strip()
    identity = ";".join(f"{k}={facts[k]}" for k in _CPUINFO_FIELDS if k in facts) or _iree_host_cpu()
    return f"{platform.system()};{platform.machine()};{identity}"


def _iree_host_cpu() -> str:
    """The ``cpu``/``cpu_features`` IREE resolves ``host`` to ("" if it cannot say)."""
    try:
        text = compile_worker.probe_compile(
            ["--compile-to=preprocessing", "--iree-hal-target-device=local",
             "--iree-hal-local-target-device-backends=llvm-cpu", "--iree-llvmcpu-target-cpu=host"],
            timeout=120).stdout.decode("utf-8", "replace")
    except (OSError, subprocess.SubprocessError):
        return ""
    found = re.search(r'cpu = "([^"]*)", cpu_features = "([^"]*)"', text)
    return f"cpu={found.group(1)};features={found.group(2)}" if found else ""


_HOST_FLAGS = ("--iree-llvmcpu-target-cpu", "--iree-llvmcpu-target-cpu-features")


def _built_for_host(target: str, flags: Sequence[str]) -> bool:
    """Whether llvm-cpu code from ``flags`` depends on the machine that compiles it."""
    if target != "llvm-cpu":
        return False
    values = {name: value for name, _, value in (f.partition("=") for f in flags)}
    triple_given = "--iree-llvmcpu-target-triple" in values  # else the host's triple
    return any(values.get(name) == "host" for name in _HOST_FLAGS) or not triple_given


def compile_key(module_bytes: bytes, target: str, flags: Sequence[str], passes: str, legalize: bool,
                registrations: str = "") -> str:
    """The SHA-256 (hex) naming the vmfb that ``compile`` makes from these inputs;
    ``registrations``: what the module's custom-call targets are registered as."""
    h = hashlib.sha256()

    def field(name: str, value: bytes) -> None:  # length-prefixed: no two inputs collide
        h.update(f"{name}:{len(value)}:".encode() + value)

    for name, version in versions():
        field(name, version.encode())
    field("target", target.encode())
    field("flags", "\0".join(flags).encode())
    if _built_for_host(target, flags):
        field("host-cpu", host_cpu().encode())
    field("passes", passes.encode())
    field("legalize", b"1" if legalize else b"0")
    field("module", bytes(module_bytes))
    if registrations:  # (absent without custom calls: those keys stay as they were)
        field("custom-call-registrations", registrations.encode())
    return h.hexdigest()


class CompileCache:
    """A directory of vmfb entries keyed by :func:`compile_key`."""

    def __init__(self, directory: str | os.PathLike | None = None, max_bytes: int | None = None):
        self.directory = Path(directory) if directory is not None else cache_dir()
        self.max_bytes = max_bytes_from_env() if max_bytes is None else max_bytes

    def path(self, key: str) -> Path:
        return self.directory / key[:2] / (key + _SUFFIX)

    def get(self, key: str) -> bytes | None:
        """The cached vmfb for ``key``, or None (missing, unreadable, or corrupt: then removed)."""
        path = self.path(key)
        try:
            data = path.read_bytes()
        except OSError:
            return None
        payload = _unpack(data, key)
        if payload is None:
            _remove(path)  # corrupt, truncated or another program's: never load it, recompile instead
            return None
        try:
            os.utime(path)  # recently used: pruning keeps it
        except OSError:
            pass
        return payload

    def put(self, key: str, vmfb: bytes) -> None:
        """Stores ``vmfb`` under ``key`` atomically; a cache that cannot be written is skipped."""
        path = self.path(key)
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            fd, tmp = tempfile.mkstemp(prefix=".tmp-", dir=path.parent)
        except OSError:
            return
        try:
            with os.fdopen(fd, "wb") as f:
                f.write(_pack(vmfb, key))
            os.replace(tmp, path)
        except OSError:
            _remove(Path(tmp))
            return
        self.prune()

    def entries(self) -> list[Path]:
        return list(self.directory.glob("*/*" + _SUFFIX))

    def prune(self) -> None:
        """Removes least recently used entries until the cache fits in ``max_bytes``."""
        sized = []
        for p in self.entries():
            try:
                st = p.stat()
            except OSError:
                continue  # removed by another process meanwhile
            sized.append((st.st_mtime, st.st_size, p))
        total = sum(size for _, size, _ in sized)
        for _, size, p in sorted(sized, key=lambda e: e[0]):
            if total <= self.max_bytes:
                break
            _remove(p)
            total -= size

    def clear(self) -> None:
        for p in self.entries():
            _remove(p)


def default_cache() -> CompileCache | None:
    """The user's cache, or None when ``HLO_MLIR_CACHE=0``."""
    return CompileCache() if _enabled() else None


def cached(key: str, produce: Callable[[], bytes]) -> bytes:
    """The vmfb for ``key`` from the default cache, else ``produce()`` (then stored)."""
    cache = default_cache()
    if cache is None:
        return produce()
    hit = cache.get(key)
    if hit is not None:
        return hit
    vmfb = produce()
    cache.put(key, vmfb)
    return vmfb


def _pack(payload: bytes, key: str) -> bytes:
    return _MAGIC + f"{len(payload)} {hashlib.sha256(payload).hexdigest()} {key}\n".encode() + payload


def _unpack(data: bytes, key: str) -> bytes | None:
    """The payload of an entry stored under ``key``: None if the entry is damaged or
    records another key."""
    if not data.startswith(_MAGIC):
        return None
    header, sep, payload = data[len(_MAGIC):].partition(b"\n")
    if not sep:
        return None
    try:
        size_text, digest, stored_key = header.decode("ascii").split(" ")
        size = int(size_text)
    except (UnicodeDecodeError, ValueError):
        return None
    if stored_key != key or len(payload) != size or hashlib.sha256(payload).hexdigest() != digest:
        return None
    return payload


_SIZE = re.compile(r"(\d+)\s*([KMGT]?)(?:I?B)?", re.IGNORECASE)
_UNITS = {"": 1, "K": 1 << 10, "M": 1 << 20, "G": 1 << 30, "T": 1 << 40}


def max_bytes_from_env() -> int:
    """``$HLO_MLIR_CACHE_MAX_BYTES`` in bytes (default 2 GiB): digits with an optional
    ``K``/``M``/``G``/``T`` (powers of 1024, ``B``/``iB`` allowed after them)."""
    value = os.environ.get("HLO_MLIR_CACHE_MAX_BYTES")
    if value is None or not value.strip():
        return _DEFAULT_MAX_BYTES
    found = _SIZE.fullmatch(value.strip())
    if not found:
        raise InvalidArgumentError(f"HLO_MLIR_CACHE_MAX_BYTES requires a size in bytes such as 2147483648, "
                                   f"500M or 2G; got {value!r}.")
    return int(found.group(1)) * _UNITS[found.group(2).upper()]


def _remove(path: Path) -> None:
    try:
        path.unlink()
    except OSError:
        pass
