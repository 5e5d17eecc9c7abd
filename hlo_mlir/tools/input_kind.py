"""What kind of file a tool was given, from its first bytes (and its name), and which
tool takes it.

    kind = sniff_file("model.vmfb")           # InputKind.VMFB
    message = wrong_kind("hlo-opt", "model.vmfb", kind)
    # "model.vmfb is an IREE module (vmfb); run it with hlo-run."

Kinds: MLIR text, MLIR bytecode (magic ``ML\\xefR``), an IREE module (a FlatBuffer with
the file identifier ``IREE``, bare or inside the ZIP archive IREE writes), Python source
(a ``.py`` name, a python ``#!`` line, or a first statement that only Python starts
with), a numpy ``.npy`` array (magic ``\\x93NUMPY``), or unknown (not UTF-8 text, nor
one of the binary kinds). Sniffing reads the first few KiB only and imports nothing
heavy: a tool refuses a wrong input before it loads the compiler or the runtime.
"""

from __future__ import annotations

import enum
import os
import re
import struct

__all__ = ["InputKind", "HEAD_BYTES", "sniff", "sniff_file", "wrong_kind", "file_refusal", "ACCEPTS"]

HEAD_BYTES = 4096  # enough for every magic number, and for the first lines of a text file

_MLIR_BYTECODE_MAGIC = b"ML\xefR"
_NPY_MAGIC = b"\x93NUMPY"
_ZIP_MAGIC = b"PK\x03\x04"
_FLATBUFFER_ID = b"IREE"  # iree_vm_BytecodeModuleDef's file_identifier
# A first statement that starts Python and no MLIR file (MLIR starts with module, func.func,
# "#map = ...", "%x = ...", "//" comments or a generic "op"(...) form).
_PYTHON_START = re.compile(
    r"^(?:import [\w.]+|from [\w.]+ import\b|def \w+\s*\(|class \w+\s*[(:]|if __name__\b|@\w[\w.]*)"
)


class InputKind(enum.Enum):
    """A kind of input file; the value is how a one-line message names it."""

    MLIR_TEXT = "MLIR text"
    MLIR_BYTECODE = "MLIR bytecode"
    VMFB = "an IREE module (vmfb)"
    PYTHON = "Python source"
    NUMPY = "a numpy array (.npy)"
    UNKNOWN = "unknown"


# The kinds each tool reads.
ACCEPTS: dict[str, frozenset[InputKind]] = {
    "hlo-opt": frozenset({InputKind.MLIR_TEXT, InputKind.MLIR_BYTECODE}),
    "hlo-compile": frozenset({InputKind.MLIR_TEXT, InputKind.MLIR_BYTECODE, InputKind.PYTHON}),
    "hlo-run": frozenset({InputKind.MLIR_TEXT, InputKind.MLIR_BYTECODE, InputKind.VMFB}),
}


def _is_vmfb(head: bytes) -> bool:
    """A FlatBuffer with the ``IREE`` identifier (after the root offset, or after a size
    prefix and the root offset), bare or as the first member of a stored ZIP archive."""
    if head.startswith(_ZIP_MAGIC) and len(head) >= 30:
        # ZIP local file header: 30 bytes, then the file name and the extra field.
        name_length, extra_length = struct.unpack_from("<HH", head, 26)
        head = head[30 + name_length + extra_length:]
    return head[4:8] == _FLATBUFFER_ID or head[8:12] == _FLATBUFFER_ID


def _looks_like_python(text: str) -> bool:
    lines = text.splitlines()
    if lines and lines[0].startswith("#!") and "python" in lines[0]:
        return True
    for line in lines:
        stripped = line.strip()
        if not stripped or stripped.startswith("#"):
            continue  # blank lines, Python comments (and MLIR's "#map = ..." aliases)
        if stripped.startswith(('"""', "'''")):
            return True  # a module docstring
        return bool(_PYTHON_START.match(stripped))
    return False


def sniff(head: bytes, name: str = "") -> InputKind:
    """The kind of a file whose first bytes are ``head`` (at least HEAD_BYTES of them when
    the file is that long) and whose name is ``name`` ("" or "-" for stdin)."""
    if head.startswith(_MLIR_BYTECODE_MAGIC):
        return InputKind.MLIR_BYTECODE
    if head.startswith(_NPY_MAGIC):
        return InputKind.NUMPY
    if _is_vmfb(head):
        return InputKind.VMFB
    try:
        text = head.decode("utf-8")
    except UnicodeDecodeError as e:
        if e.start < len(head) - 3 or len(head) < HEAD_BYTES:  # not a character cut at the end
            return InputKind.UNKNOWN
        text = head[: e.start].decode("utf-8")
    if "\x00" in text:
        return InputKind.UNKNOWN  # binary data that happens to be valid UTF-8
    extension = os.path.splitext(name)[1].lower()
    if extension in (".py", ".pyw"):
        return InputKind.PYTHON
    if extension not in (".mlir", ".mlirbc") and _looks_like_python(text):
        return InputKind.PYTHON
    return InputKind.MLIR_TEXT


def sniff_file(path: str) -> InputKind:
    """The kind of the file at ``path`` (raises OSError when it cannot be read)."""
    with open(path, "rb") as f:
        return sniff(f.read(HEAD_BYTES), path)


# What each tool reads, as its one-line message says it.
_READS = {
    "hlo-opt": "hlo-opt reads MLIR text or bytecode",
    "hlo-compile": "hlo-compile reads MLIR text or bytecode, or a Python build script",
    "hlo-run": "hlo-run runs a vmfb, or MLIR text or bytecode (compiled first)",
}


def _advice(kind: InputKind, name: str, tool: str) -> str:
    """Which tool takes a file of ``kind``, and how."""
    if kind is InputKind.VMFB:
        return "run it with hlo-run"
    if kind is InputKind.PYTHON:
        return "hlo-compile takes it (calling its build function, or the one --entry names)"
    if kind is InputKind.NUMPY:
        return f"it is a value: hlo-run MODULE --input=@{_quote(name)}"
    return _READS[tool]


def _quote(name: str) -> str:
    return name if re.fullmatch(r"[\w./+@-]+", name) else repr(name)


def _what(kind: InputKind, head: bytes) -> str:
    if kind is not InputKind.UNKNOWN:
        return kind.value
    try:
        head.decode("utf-8")
    except UnicodeDecodeError as e:
        return f"not UTF-8 text (byte {e.start}), nor MLIR bytecode, an IREE module (vmfb) or a numpy array"
    return "binary data of an unknown kind (not MLIR text or bytecode, an IREE module or a numpy array)"


def wrong_kind(tool: str, name: str, kind: InputKind, head: bytes = b"") -> str | None:
    """None when ``tool`` reads files of ``kind``; else the one line that says what the
    file ``name`` is and which tool takes it, e.g. ``"model.vmfb is an IREE module (vmfb);
    run it with hlo-run."``. ``head`` (the file's first bytes) lets the line name the first
    byte that is not UTF-8."""
    if kind in ACCEPTS[tool]:
        return None
    shown = "<stdin>" if name in ("", "-") else name
    return f"{shown} is {_what(kind, head)}; {_advice(kind, shown, tool)}."


def file_refusal(tool: str, path: str) -> str | None:
    """:func:`wrong_kind` for the file at ``path``, from its first bytes (None also when it
    cannot be read: the tool's own read reports that)."""
    try:
        with open(path, "rb") as f:
            head = f.read(HEAD_BYTES)
    except OSError:
        return None
    return wrong_kind(tool, path, sniff(head, path), head)
