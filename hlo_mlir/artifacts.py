"""Deployment artifacts: a ``.vmfb`` plus the manifest that describes it.

A compiled module ships as two files side by side::

    model.vmfb                  the IREE module
    model.vmfb.manifest.json    what it is and how it was made

The manifest (JSON, ``format: "hlo-mlir.manifest"``, ``format_version: 1``) holds the
SHA-256 and size of the vmfb, the target and the full IREE flag list, the XLA program
shape of every public function, the versions of hlo-mlir, the IREE compiler and
runtime and Python, the source it was compiled from (file and pass pipeline) and the
creation time (UTC, ISO 8601). ``hlo_mlir.runtime.load(path)`` calls
:func:`check_manifest`, so a vmfb that does not match its manifest is refused.

Files are written atomically (:func:`write_atomic`): to a temporary file in the target
folder, then ``os.replace``; an interrupted write leaves no partial file. A vmfb and its
manifest are written together (:func:`write_all_atomic`): both files or neither.
"""

from __future__ import annotations

import contextlib
import datetime as _dt
import errno
import hashlib
import importlib.metadata
import json
import os
import platform
import shutil
import signal
import tempfile
import tomllib
from dataclasses import dataclass, field
from typing import Any, Iterable

from hlo_mlir.errors import RuntimeCallError
from hlo_mlir.shape import Shape

__all__ = [
    "FORMAT", "FORMAT_VERSION", "MANIFEST_SUFFIX",
    "ManifestError", "FunctionSignature", "Manifest",
    "manifest_path", "sha256_hex", "versions", "make_manifest",
    "write_atomic", "write_all_atomic", "save", "read_manifest", "check_manifest",
]

FORMAT = "hlo-mlir.manifest"
FORMAT_VERSION = 1
MANIFEST_SUFFIX = ".manifest.json"


class ManifestError(RuntimeCallError):
    """A manifest is unreadable, malformed, or does not match its vmfb."""


@dataclass(frozen=True)
class FunctionSignature:
    """A public function of the vmfb: its name and XLA parameter/result shapes as text
    (``"f32[4,8]"``, tuples as ``"(f32[2], s32[])"``)."""

    name: str
    parameters: tuple[str, ...]
    results: tuple[str, ...]

    def __str__(self) -> str:
        return f"{self.name}: ({', '.join(self.parameters)}) -> ({', '.join(self.results)})"

    def parameter_shapes(self):
        """The parameters as :class:`hlo_mlir.shape.Shape` objects."""
        return tuple(Shape.parse(p) for p in self.parameters)

    def result_shapes(self):
        """The results as :class:`hlo_mlir.shape.Shape` objects."""
        return tuple(Shape.parse(r) for r in self.results)


@dataclass(frozen=True)
class Manifest:
    """What a vmfb is and how it was made (see the module docstring for the file format)."""

    vmfb: str  # file name of the vmfb, relative to the manifest's folder
    sha256: str
    size: int
    target: str
    flags: tuple[str, ...]
    functions: tuple[FunctionSignature, ...]
    versions: dict[str, str]
    created: str
    source: dict[str, Any] = field(default_factory=dict)
    format_version: int = FORMAT_VERSION

    def signature(self, name: str = "main") -> FunctionSignature:
        for f in self.functions:
            if f.name == name:
                return f
        raise ManifestError(f"the manifest has no function {name!r}; it has "
                            f"{sorted(f.name for f in self.functions)}.")

    def to_json(self) -> dict[str, Any]:
        return {
            "format": FORMAT,
            "format_version": self.format_version,
            "vmfb": self.vmfb,
            "sha256": self.sha256,
            "size": self.size,
            "target": self.target,
            "flags": list(self.flags),
            "functions": [{"name": f.name, "parameters": list(f.parameters), "results": list(f.results)}
                          for f in self.functions],
            "versions": dict(self.versions),
            "created": self.created,
            "source": dict(self.source),
        }

    @staticmethod
    def from_json(data: Any, where: str = "manifest") -> "Manifest":
        """Validates and converts parsed JSON; raises ManifestError naming the bad field."""

        def need(obj, key, kind, ctx=where):
            if not isinstance(obj, dict) or key not in obj:
                raise ManifestError(f"malformed manifest {ctx}: missing field {key!r}.")
            value = obj[key]
            if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
                raise ManifestError(f"malformed manifest {ctx}: field {key!r} must be "
                                    f"{_kind_name(kind)}; got {value!r}.")
            return value

        if not isinstance(data, dict):
            raise ManifestError(f"malformed manifest {where}: expected a JSON object; "
                                f"got {type(data).__name__}.")
        if data.get("format") != FORMAT:
            raise ManifestError(f"malformed manifest {where}: field 'format' must be {FORMAT!r}; "
                                f"got {data.get('format')!r}.")
        version = need(data, "format_version", int)
        if version > FORMAT_VERSION:
            raise ManifestError(f"manifest {where} has format_version {version}; this hlo-mlir reads "
                                f"up to {FORMAT_VERSION}.")
        sha = need(data, "sha256", str)
        if len(sha) != 64 or any(c not in "0123456789abcdef" for c in sha):
            raise ManifestError(f"malformed manifest {where}: field 'sha256' must be 64 lowercase hex "
                                f"digits; got {sha!r}.")
        functions = []
        for i, f in enumerate(need(data, "functions", list)):
            ctx = f"{where} (functions[{i}])"
            params, results = need(f, "parameters", list, ctx), need(f, "results", list, ctx)
            if not all(isinstance(s, str) for s in params + results):
                raise ManifestError(f"malformed manifest {ctx}: shapes must be strings.")
            functions.append(FunctionSignature(need(f, "name", str, ctx), tuple(params), tuple(results)))
        flags = need(data, "flags", list)
        if not all(isinstance(s, str) for s in flags):
            raise ManifestError(f"malformed manifest {where}: field 'flags' must be a list of strings.")
        versions = need(data, "versions", dict)
        if not all(isinstance(v, str) for v in versions.values()):
            raise ManifestError(f"malformed manifest {where}: field 'versions' must map names to strings.")
        return Manifest(vmfb=need(data, "vmfb", str), sha256=sha, size=need(data, "size", int),
                        target=need(data, "target", str), flags=tuple(flags), functions=tuple(functions),
                        versions=dict(versions), created=need(data, "created", str),
                        source=dict(need(data, "source", dict)) if "source" in data else {},
                        format_version=version)


def _kind_name(kind) -> str:
    return {str: "a string", int: "an integer", list: "a list", dict: "an object"}.get(kind, kind.__name__)


def manifest_path(vmfb_path: str | os.PathLike) -> str:
    """The manifest file of a vmfb: ``model.vmfb`` -> ``model.vmfb.manifest.json``."""
    return os.fspath(vmfb_path) + MANIFEST_SUFFIX


def sha256_hex(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _package_version(name: str) -> str:
    try:
        return importlib.metadata.version(name)
    except importlib.metadata.PackageNotFoundError:
        return "unknown"


def _hlo_mlir_version() -> str:
    """The installed version, else the one in the source tree's pyproject.toml."""
    version = _package_version("hlo-mlir")
    if version != "unknown":
        return version
    pyproject = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "pyproject.toml")
    try:
        with open(pyproject, "rb") as f:
            return tomllib.load(f)["project"]["version"] + "+source"
    except (OSError, KeyError, ValueError):
        return "unknown"


def versions() -> dict[str, str]:
    """Versions recorded in a manifest: hlo-mlir, IREE compiler and runtime, Python."""
    return {
        "hlo-mlir": _hlo_mlir_version(),
        "iree-base-compiler": _package_version("iree-base-compiler"),
        "iree-base-runtime": _package_version("iree-base-runtime"),
        "python": platform.python_version(),
    }


def make_manifest(vmfb: bytes, vmfb_name: str, *, target: str, flags: Iterable[str],
                  functions: Iterable[FunctionSignature], source: dict[str, Any] | None = None) -> Manifest:
    """A manifest for ``vmfb`` (to be saved as ``vmfb_name``), stamped now."""
    created = _dt.datetime.now(_dt.timezone.utc).replace(microsecond=0).isoformat().replace("+00:00", "Z")
    return Manifest(vmfb=os.path.basename(vmfb_name), sha256=sha256_hex(vmfb), size=len(vmfb), target=target,
                    flags=tuple(flags), functions=tuple(functions), versions=versions(), created=created,
                    source=dict(source or {}))


def _temp_beside(path: str) -> tuple[int, str]:
    folder = os.path.dirname(os.path.abspath(path))
    fd, tmp = tempfile.mkstemp(prefix="." + os.path.basename(path) + ".", suffix=".tmp", dir=folder)
    if hasattr(os, "fchmod"):  # mkstemp makes 0600 files; give the usual 0666 & ~umask
        umask = os.umask(0)
        os.umask(umask)
        os.fchmod(fd, 0o666 & ~umask)
    return fd, tmp


def write_atomic(path: str | os.PathLike, data: bytes) -> None:
    """Writes ``data`` to ``path`` through a temporary file in the same folder and
    ``os.replace``: readers see the old file or the whole new one, never a part, and an
    error or KeyboardInterrupt leaves no file behind."""
    write_all_atomic([(path, data)])


def write_all_atomic(items: Iterable[tuple[str | os.PathLike, bytes]]) -> None:
    """Writes each ``(path, data)`` as :func:`write_atomic` does, all or none: every file
    is written to a temporary first, and when a rename fails (a path that is a folder, a
    full disk) the files already renamed are put back as they were. An OSError names the
    path that could not be written (``e.filename``). A path that is a device, a pipe or a
    socket (``-o /dev/null``) is written in place after the others: renaming a file over
    it would replace the device node itself."""
    files: list[tuple[str, bytes]] = [(os.fspath(p), d) for p, d in items]
    special = [(p, d) for p, d in files if os.path.exists(p) and not (os.path.isfile(p) or os.path.isdir(p))]
    _write_all_atomic([(p, d) for p, d in files if (p, d) not in special])
    for path, data in special:
        try:
            with open(path, "wb") as f:
                f.write(data)
        except OSError as e:
            raise type(e)(e.errno, e.strerror, path) from None


def _write_all_atomic(files: list[tuple[str, bytes]]) -> None:
    temps: list[tuple[str, str]] = []
    done: list[tuple[str, str | None]] = []  # (path, backup of the file it replaced, if any)
    try:
        for path, data in files:
            if os.path.isdir(path):
                raise IsADirectoryError(errno.EISDIR, os.strerror(errno.EISDIR), path)
            try:
                fd, tmp = _temp_beside(path)
            except OSError as e:
                raise type(e)(e.errno, e.strerror, path) from None
            temps.append((tmp, path))
            with os.fdopen(fd, "wb") as f:
                f.write(data)
                f.flush()
                os.fsync(f.fileno())
        # The renames run with SIGINT blocked, so Ctrl-C cannot split a vmfb from its manifest.
        with _sigint_blocked():
            try:
                for tmp, path in temps:
                    done.append((path, _backup(path)))
                    try:
                        os.replace(tmp, path)
                    except OSError as e:
                        raise type(e)(e.errno, e.strerror, path) from None
            except BaseException:
                _restore(done)
                raise
            for _, backup in done:
                _unlink(backup)
            temps = []
    finally:
        for tmp, _ in temps:
            _unlink(tmp)


def _backup(path: str) -> str | None:
    """A hard link to the file at ``path`` (None when there is none), to restore it from."""
    if not os.path.isfile(path):
        return None
    backup = os.path.join(os.path.dirname(os.path.abspath(path)),
                          f".{os.path.basename(path)}.{os.getpid()}.backup.tmp")
    _unlink(backup)
    try:
        os.link(path, backup)
    except OSError:
        shutil.copy2(path, backup)  # file systems without hard links
    return backup


def _restore(done: list[tuple[str, str | None]]) -> None:
    """Puts back what ``write_all_atomic`` replaced: old files from their backups, and new
    files that replaced nothing removed."""
    for path, backup in reversed(done):
        try:
            if backup is None:
                _unlink(path)
            elif os.path.exists(path) and os.path.samefile(backup, path):
                _unlink(backup)  # never replaced (rename of a hard link onto itself does nothing)
            else:
                os.replace(backup, path)
        except OSError:
            pass


def _unlink(path: str | None) -> None:
    if path is None:
        return
    try:
        os.unlink(path)
    except OSError:
        pass


@contextlib.contextmanager
def _sigint_blocked():
    if not hasattr(signal, "pthread_sigmask"):  # Windows: no signal masks
        yield
        return
    old = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, old)


def save(path: str | os.PathLike, vmfb: bytes, manifest: Manifest | None) -> None:
    """Writes ``vmfb`` to ``path`` and, when given, ``manifest`` beside it, atomically.

    Without a manifest, a stale manifest from an earlier build is removed (it would no
    longer match).
    """
    path = os.fspath(path)
    if manifest is None:
        write_atomic(path, vmfb)
        try:
            os.unlink(manifest_path(path))
        except FileNotFoundError:
            pass
        return
    if manifest.sha256 != sha256_hex(vmfb):
        raise ManifestError("save requires a manifest made for this vmfb; the SHA-256 values differ.")
    text = json.dumps(manifest.to_json(), indent=2) + "\n"
    write_all_atomic([(path, vmfb), (manifest_path(path), text.encode())])


def read_manifest(path: str | os.PathLike) -> Manifest:
    """Reads a manifest, given its own path or its vmfb's path.

    Raises ManifestError for a missing, unreadable or malformed manifest.
    """
    path = os.fspath(path)
    if not path.endswith(MANIFEST_SUFFIX):
        path = manifest_path(path)
    try:
        with open(path, "rb") as f:
            raw = f.read()
    except OSError as e:
        raise ManifestError(f"could not read manifest {path!r}: {e.strerror}.") from None
    try:
        data = json.loads(raw)
    except (ValueError, UnicodeDecodeError) as e:
        raise ManifestError(f"malformed manifest {path!r}: not valid JSON ({e}).") from None
    return Manifest.from_json(data, repr(path))


def check_manifest(path: str | os.PathLike, vmfb: bytes) -> Manifest | None:
    """Verifies ``vmfb`` (read from ``path``) against the manifest beside it.

    Returns the manifest, or None when there is none. Raises ManifestError (a
    RuntimeCallError) when the manifest is malformed or its SHA-256 differs.
    """
    path = os.fspath(path)
    if not os.path.exists(manifest_path(path)):
        return None
    manifest = read_manifest(path)
    actual = sha256_hex(bytes(vmfb))
    if actual != manifest.sha256:
        raise ManifestError(
            f"vmfb {path!r} does not match its manifest {manifest_path(path)!r}: SHA-256 of the file is "
            f"{actual}, the manifest records {manifest.sha256}. The file was changed or corrupted after "
            f"it was compiled; recompile it or restore the original.")
    return manifest
