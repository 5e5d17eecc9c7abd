"""hlo-run's results: printed, written to ``--output`` specs and ``--output-dir`` (all files
together at the end, or none), and compared with ``--expected_output`` values within
``--atol``/``--rtol`` (IREE's ``--expected_f32_threshold`` etc. accepted).
"""

from __future__ import annotations

import io
import os

from hlo_mlir.tools import ExitCode
from hlo_mlir.tools.hlo_compile import check_writable
from hlo_mlir.tools.isolation import ToolError
from hlo_mlir.tools.value_specs import (
    Files,
    InputSpecError,
    array_meta,
    format_buffer_view,
    format_element,
    meta_text,
    parse_value,
    spec_error,
    spec_meta,
)

__all__ = ["check_outputs", "emit_outputs", "compare"]

# iree-run-module's default absolute thresholds (--expected_f32_threshold etc.).
_DEFAULT_ATOL = {"float16": 1e-3, "bfloat16": 1e-2, "float32": 1e-4, "float64": 1e-4,
                 "complex64": 1e-4, "complex128": 1e-4}


# --- outputs -----------------------------------------------------------------------------------
def _output_path(i: int, spec: str) -> str | None:
    """The file an ``--output`` spec writes (None for ``-`` and an empty spec)."""
    if spec in ("-", ""):
        return None
    if spec[0] in "@+" and len(spec) > 1:
        return spec[1:]
    raise InputSpecError(f"--output {i} ({spec!r}): expected @file, +file, - or an empty spec.")


def check_outputs(args) -> None:
    """Raises before the run (nothing printed, nothing written) when an ``--output`` spec
    is malformed or names a file that cannot be written, or ``--output-dir`` cannot be a
    folder."""
    for i, spec in enumerate(args.output):
        path = _output_path(i, spec)
        if path is not None:
            try:
                check_writable(path)
            except ToolError as e:
                raise ToolError(f"--output {i}: {e}", e.code) from None
    if args.output_dir:
        _check_folder(args.output_dir)


def _check_folder(path: str) -> None:
    """Raises ToolError unless ``path`` is a writable folder or can be created as one."""
    existing = os.path.abspath(path)
    while not os.path.exists(existing):
        existing = os.path.dirname(existing)
    if not os.path.isdir(existing):
        raise ToolError(f"cannot use --output-dir {path!r}: {existing!r} is a file, not a folder.",
                        ExitCode.INPUT)
    if not os.access(existing, os.W_OK | os.X_OK):
        raise ToolError(f"cannot use --output-dir {path!r}: {existing!r} is not writable.", ExitCode.INPUT)


def emit_outputs(args, results) -> None:
    import numpy as np

    from hlo_mlir import artifacts

    pending: dict[str, bytearray] = {}  # path -> contents, written together at the end
    for i, result in enumerate(results):
        spec = args.output[i] if i < len(args.output) else "-"
        path = _output_path(i, spec)
        if spec == "-":
            print(f"result[{i}]: hal.buffer_view\n{format_buffer_view(result, args.max_elements)}")
        elif path is not None:
            data = pending.setdefault(path, bytearray())
            if spec[0] == "@":
                data.clear()
            elif not data and os.path.exists(path):
                try:
                    with open(path, "rb") as f:
                        data += f.read()
                except OSError as e:
                    raise ToolError(f"--output {i}: could not read {path!r} to append to it: {e.strerror}.",
                                    ExitCode.INPUT) from None
            data += _npy_bytes(result) if path.endswith(".npy") else np.ascontiguousarray(result).tobytes()
    if args.output_dir:
        try:
            os.makedirs(args.output_dir, exist_ok=True)
        except OSError as e:
            raise ToolError(f"could not create --output-dir {args.output_dir!r}: {e.strerror}.",
                            ExitCode.INPUT) from None
        for i, result in enumerate(results):
            pending[os.path.join(args.output_dir, f"result{i}.npy")] = bytearray(_npy_bytes(result))
    try:
        artifacts.write_all_atomic([(path, bytes(data)) for path, data in pending.items()])
    except OSError as e:
        raise ToolError(f"could not write {e.filename!r}: {e.strerror}; no output file written.",
                        ExitCode.INPUT) from None


def _npy_bytes(array) -> bytes:
    import numpy as np

    buf = io.BytesIO()
    np.save(buf, np.asarray(array), allow_pickle=False)
    return buf.getvalue()


def compare(args, results) -> int:
    import numpy as np

    from hlo_mlir.shape import Shape

    if len(args.expected) != len(results):
        print(f"[FAILED] {len(args.expected)} --expected_output value(s) for {len(results)} result(s).")
        return ExitCode.FAILURE
    files, failures = Files(), []
    try:
        for i, (spec, actual) in enumerate(zip(args.expected, results, strict=True)):
            if spec.strip() == "(ignored)":
                continue
            actual = np.asarray(actual)
            try:
                meta = spec_meta(spec)
                if meta is not None and (tuple(meta[0]) != actual.shape or meta[1] != actual.dtype):
                    failures.append(f"[FAILED] result[{i}]: expected {meta_text(*meta)}, "
                                    f"got {array_meta(actual)}.")
                    continue  # not read: it could be any size
                expected = parse_value(spec, Shape.from_numpy(actual), files)
            except InputSpecError as e:
                raise spec_error("--expected_output", i, spec, e) from None
            problem = _difference(args, actual, expected)
            if problem:
                failures.append(f"[FAILED] result[{i}]: {problem}")
    finally:
        files.close()
    for line in failures:
        print(line)
    if failures:
        return ExitCode.FAILURE
    print("[SUCCESS] all function outputs matched their expected values.")
    return ExitCode.OK


def _difference(args, actual, expected) -> str | None:
    """Why ``actual`` does not match ``expected``, or None when it does."""
    import numpy as np

    if actual.shape != expected.shape or actual.dtype != expected.dtype:
        return f"expected {array_meta(expected)}, got {array_meta(actual)}."
    if actual.dtype.kind in "fcV" or actual.dtype.name in _DEFAULT_ATOL:
        atol = _atol(args, actual.dtype)
        a, e = actual.astype(np.complex128 if actual.dtype.kind == "c" else np.float64), \
            expected.astype(np.complex128 if actual.dtype.kind == "c" else np.float64)
        close = np.isclose(a, e, rtol=args.rtol, atol=atol, equal_nan=True)
        tolerance = f" (atol={atol:g}, rtol={args.rtol:g})"
    else:
        close = actual == expected
        tolerance = ""
    if np.all(close):
        return None
    bad = np.argwhere(~np.asarray(close))
    first = tuple(int(i) for i in bad[0])
    kind = actual.dtype.kind
    return (f"{len(bad)} of {actual.size} element(s) differ{tolerance}; first at index {list(first)}: "
            f"expected {format_element(expected[first], kind)}, got {format_element(actual[first], kind)}.")


def _atol(args, dtype) -> float:
    if args.atol is not None:
        return args.atol
    iree = {"float16": args.expected_f16_threshold, "float32": args.expected_f32_threshold,
            "float64": args.expected_f64_threshold}.get(dtype.name)
    return iree if iree is not None else _DEFAULT_ATOL.get(dtype.name, 1e-4)
