"""hlo-run's results: printed, written to ``--output`` specs and ``--output-dir`` (all files
together at the end, or none), and compared with ``--expected_output`` values as
iree-run-module compares them (``--expected_<type>_threshold``, ``--expected_rtol``,
``--equality_mode``; hlo-run's ``--atol`` for every float type).
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

__all__ = ["check_outputs", "check_result_count", "emit_outputs", "compare"]

# The --expected_<type>_threshold flag for each float dtype; complex numbers take their
# parts' (iree-run-module has no complex thresholds).
_THRESHOLD_FLAG = {"float16": "f16", "bfloat16": "bf16", "float32": "f32", "float64": "f64",
                   "complex64": "f32", "complex128": "f64"}
_OTHER_FLOAT_ATOL = 1e-4  # the f8 types and any other float: f32's default


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


def check_result_count(args, count: int) -> None:
    """Raises ToolError (usage, exit code 2) for more ``--output`` flags than results or an
    ``--expected_output`` count other than the results'; before the run when the signature
    is known, else before any result is printed or written."""
    if len(args.output) > count:
        raise ToolError(f"{len(args.output)} --output flag(s) for {count} result(s).", ExitCode.USAGE)
    if args.expected and len(args.expected) != count:
        raise ToolError(f"{len(args.expected)} --expected_output value(s) for {count} result(s).",
                        ExitCode.USAGE)


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
    rest = "" if args.expected else "-"  # as iree-run-module: a comparison prints no results
    for i, result in enumerate(results):
        spec = args.output[i] if i < len(args.output) else rest
        path = _output_path(i, spec)
        if spec == "-":  # as iree-run-module: "result[i]: " only where no --output asked for it
            label = "" if i < len(args.output) else f"result[{i}]: "
            print(f"{label}hal.buffer_view\n{format_buffer_view(result, args.max_elements)}")
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
                failures.append(f"[FAILED] result[{i}]: {problem}\n"
                                f"  expected:\n{format_buffer_view(expected, args.max_elements)}\n"
                                f"  actual:\n{format_buffer_view(actual, args.max_elements)}")
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
    if args.equality_mode == "exact":  # iree-run-module: byte equality, no tolerances
        close = np.all(_element_bytes(actual) == _element_bytes(expected), axis=-1)
        tolerance = " (exact)"
    elif actual.dtype.kind in "fcV" or actual.dtype.name in _THRESHOLD_FLAG:
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


def _element_bytes(array):
    """``array``'s bytes, one row of ``itemsize`` bytes per element."""
    import numpy as np

    return np.ascontiguousarray(array).view(np.uint8).reshape(*array.shape, array.dtype.itemsize)


def _atol(args, dtype) -> float:
    if args.atol is not None:
        return args.atol
    flag = _THRESHOLD_FLAG.get(dtype.name)
    return getattr(args, f"expected_{flag}_threshold") if flag else _OTHER_FLOAT_ATOL
