"""iree-run-module's value specs, read and printed: ``2x2xf32=1,2,3,4``, ``f32[2,2]=...``,
``@x.npy``, ``4xf32=@x.bin`` (the forms ``hlo-run --help`` lists: ``hlo_run._EPILOG``),
and IREE's buffer view text for results.

numpy and hlo_mlir's types load when a value is read, so ``hlo-run --help`` stays fast.
"""

from __future__ import annotations

import io
import math
import os
import re

from hlo_mlir.tools import ExitCode
from hlo_mlir.tools.isolation import ToolError

__all__ = ["InputSpecError", "Files", "parse_value", "spec_meta", "spec_error", "format_buffer_view",
           "format_element", "array_meta", "meta_text"]

_FORMS = ("2x2xf32=1,2,3,4 | 2x2xf32=[1 2][3 4] | f32=5 | 2x3xf32=0 (splat) | 5 (typed by the "
          "function) | @x.npy | +x.npy | 4xf32=@x.bin")


class InputSpecError(ToolError, ValueError):
    """A value spec does not follow the syntax (exit code 2) or names an unreadable file (3)."""

    def __init__(self, message: str, code: ExitCode = ExitCode.USAGE):
        super().__init__(message, code)


# --- value specs -------------------------------------------------------------------------------
_SHAPE_TYPE = re.compile(r"^((?:\d+x)*)([a-zA-Z][\w<>]*)$")
_XLA_SHAPE = re.compile(r"^[a-z][a-z0-9]*\[[\d,\s]*\]$")
_SEPARATORS = re.compile(r"[\s,\[\]]+")


def _element_dtype(name: str):
    from hlo_mlir import types

    alias = re.fullmatch(r"si(\d+)", name)
    try:
        return types.dtype_of(types.from_mlir_name(f"i{alias.group(1)}" if alias else name))
    except Exception:  # noqa: BLE001 - DTypeError, KeyError: report the spelling
        known = "i1, i8, i16, i32, i64, ui8..ui64, f16, bf16, f32, f64, complex<f32>, complex<f64>"
        raise InputSpecError(f"unknown element type {name!r}; known: {known}"
                             f"{types.did_you_mean_type(name, mlir=True) or '.'}") from None


def _parse_meta(meta: str):
    """``2x2xf32`` or ``f32[2,2]`` -> (dims tuple, numpy dtype)."""
    from hlo_mlir import types
    from hlo_mlir.shape import Shape

    meta = meta.strip()
    if _XLA_SHAPE.match(meta):
        try:
            shape = Shape.parse(meta)
        except Exception as e:  # noqa: BLE001
            raise InputSpecError(f"bad XLA shape {meta!r}: {e}") from None
        return tuple(shape.dimensions), types.dtype_of(shape.element_type)
    m = _SHAPE_TYPE.match(meta)
    if not m:
        raise InputSpecError(f"expected <dims>x<type> like 2x2xf32 before '='; got {meta!r}.")
    dims = tuple(int(d) for d in m.group(1).split("x") if d)
    return dims, _element_dtype(m.group(2))


def _kind(dtype) -> str:
    """numpy's kind letter of ``dtype``; ml_dtypes' int2/int4 are ``i`` and uint2/uint4 ``u``."""
    import numpy as np

    from hlo_mlir import types
    from hlo_mlir.errors import DTypeError

    dtype = np.dtype(dtype)
    if dtype.kind != "V":
        return dtype.kind
    try:
        t = types.from_dtype(dtype)
    except DTypeError:
        return dtype.kind
    return "i" if t.is_signed_integer else "u" if t.is_unsigned_integer else dtype.kind


def _parse_element(token: str, dtype):
    import ml_dtypes
    import numpy as np

    kind = _kind(dtype)
    try:
        if kind == "b":
            low = token.lower()
            if low in ("1", "true"):
                return True
            if low in ("0", "false"):
                return False
            raise ValueError(token)
        if kind in "iu":
            value = int(token, 0)
            info = ml_dtypes.iinfo(dtype)
            if not info.min <= value <= info.max:
                raise InputSpecError(f"value {token} is out of range for {np.dtype(dtype).name} "
                                     f"[{info.min}, {info.max}].")
            return value
        if kind == "c":
            return complex(token)
        return float(token)
    except InputSpecError:
        raise
    except ValueError:
        raise InputSpecError(f"{token!r} is not a valid {np.dtype(dtype).name} value.") from None


def _parse_text_values(text: str, dims: tuple[int, ...], dtype):
    import numpy as np

    tokens = [t for t in _SEPARATORS.split(text) if t]
    count = math.prod(dims)
    if not tokens:
        return _allocated(lambda: np.zeros(dims, dtype), dims, dtype)
    values = [_parse_element(t, dtype) for t in tokens]
    if len(values) == 1:
        return _allocated(lambda: np.full(dims, values[0], dtype=dtype), dims, dtype)  # splat
    if len(values) != count:
        shape = meta_text(dims, dtype)
        raise InputSpecError(f"{len(values)} values for {shape}, which has {count} elements; give {count} "
                             f"values, one value (splat), or none (zeros).")
    return np.array(values, dtype=dtype).reshape(dims)


def _allocated(make, dims: tuple[int, ...], dtype):
    """``make()``, an array of ``dims``; too large to allocate is an InputSpecError."""
    try:
        return make()
    except (MemoryError, ValueError):  # numpy: "array is too big" is a ValueError
        raise InputSpecError(f"{meta_text(dims, dtype)} is too large to allocate.") from None


class Files:
    """Open ``@``/``+`` files: ``+path`` continues where the previous use of ``path`` stopped."""

    def __init__(self) -> None:
        self._streams: dict[str, io.BufferedReader] = {}

    def stream(self, marker: str, path: str):
        key = os.path.abspath(path)
        if marker == "@" or key not in self._streams:
            if key in self._streams:
                self._streams[key].close()
            try:
                self._streams[key] = open(path, "rb")
            except OSError as e:
                raise InputSpecError(f"could not read {path!r}: {e.strerror}.", ExitCode.INPUT) from None
        return self._streams[key]

    def close(self):
        for s in self._streams.values():
            s.close()


def _load_npy(stream, path: str):
    import numpy as np

    try:
        return np.load(stream, allow_pickle=False)
    except (ValueError, OSError, EOFError) as e:
        raise InputSpecError(f"could not read an array from {path!r}: {e}", ExitCode.INPUT) from None


def spec_meta(spec: str):
    """``(dims, dtype)`` that a value spec states (``2x2xf32=...``), or None when it states
    none (a bare value, an ``@``/``+`` .npy file): read without parsing or allocating the
    values, to check a spec against a signature first."""
    text = spec.strip()
    if text[:1] in ("@", "+") or "=" not in text:
        return None
    return _parse_meta(text.partition("=")[0])


def parse_value(spec: str, like=None, files: Files | None = None):
    """A numpy array from one iree-run-module value spec (see the module docstring).

    ``like`` (a :class:`hlo_mlir.shape.Shape`) types a bare value. Raises InputSpecError.
    """
    import numpy as np

    files = files or Files()
    text = spec.strip()
    if text[:1] in ("@", "+"):
        if len(text) == 1:
            raise InputSpecError("expected a file name after '@' or '+'.")
        return _load_npy(files.stream(text[0], text[1:]), text[1:])
    if "=" not in text:
        if like is None:
            raise InputSpecError("a bare value needs the function's signature to give it a type; "
                                 "write it as <dims>x<type>=<values>.")
        if like.is_tuple or like.is_token:
            raise InputSpecError(f"a bare value cannot fill a {like} parameter.")
        return _parse_text_values(text, tuple(like.dimensions), like.dtype)
    meta, _, body = text.partition("=")
    dims, dtype = _parse_meta(meta)
    body = body.strip()
    if body[:1] in ("@", "+"):
        path = body[1:]
        stream = files.stream(body[0], path)
        if path.endswith(".npy"):
            array = _load_npy(stream, path)
            if array.shape != dims or array.dtype != dtype:
                raise InputSpecError(f"{path!r} holds {array.dtype.name}{list(array.shape)}, not "
                                     f"{np.dtype(dtype).name}{list(dims)} as {meta!r} says.", ExitCode.INPUT)
            return array
        count = math.prod(dims)
        raw = stream.read(count * np.dtype(dtype).itemsize)
        if len(raw) != count * np.dtype(dtype).itemsize:
            raise InputSpecError(f"{path!r} ends after {len(raw)} bytes; {meta} needs "
                                 f"{count * np.dtype(dtype).itemsize}.", ExitCode.INPUT)
        return np.frombuffer(raw, dtype=np.dtype(dtype).newbyteorder("<")).astype(dtype).reshape(dims)
    return _parse_text_values(body, dims, dtype)


def spec_error(flag: str, index: int, spec: str, e: InputSpecError) -> InputSpecError:
    hint = f"\n  accepted forms: {_FORMS}" if e.code == ExitCode.USAGE else ""
    return InputSpecError(f"{flag} {index} ({spec!r}): {e}{hint}", e.code)


# --- printing ----------------------------------------------------------------------------------
def _type_name(dtype) -> str:
    from hlo_mlir import types

    return types.mlir_name(types.from_dtype(dtype))


def format_element(x, kind: str) -> str:
    if kind == "b":
        return "1" if x else "0"
    if kind in "iu":
        return str(int(x))
    if kind == "c":
        return f"{complex(x).real:G}{complex(x).imag:+G}j"
    return f"{float(x):G}"  # C's %G, as IREE prints


def format_buffer_view(array, max_elements: int = 1024) -> str:
    """``2x2xf32=[1 2][3 4]``: IREE's buffer view text (``...`` after ``max_elements``)."""
    import numpy as np

    array = np.asarray(array)
    kind = _kind(array.dtype)
    budget = [max_elements]

    def rows(a) -> str:
        if a.ndim <= 1:
            flat = a.reshape(-1)
            n = min(len(flat), budget[0])
            budget[0] -= n
            text = " ".join(format_element(x, kind) for x in flat[:n])
            return text + ("..." if n < len(flat) else "")
        return "".join(f"[{rows(sub)}]" for sub in a)

    return f"{array_meta(array)}={rows(array)}"


def array_meta(array) -> str:
    """IREE's shape-and-type text: ``2x2xf32``."""
    return meta_text(array.shape, array.dtype)


def meta_text(dims, dtype) -> str:
    return "".join(f"{d}x" for d in dims) + _type_name(dtype)
