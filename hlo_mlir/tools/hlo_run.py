"""hlo-run: runs a function of a ``.vmfb`` (or of an ``.mlir``, compiled first) with
iree-run-module's input syntax.

    hlo-run model.vmfb --function=main --input=2x2xf32=1,2,3,4 --input=@x.npy
    hlo-run model.mlir --input=f32=5 --expected_output=f32=10 --atol=1e-6

Values (``--input``, ``--expected_output``), one per flat argument/result, in order:

    2x2xf32=1,2,3,4        shape and element type, values separated by spaces, commas
    2x2xf32=[1 2][3 4]     or brackets (brackets are separators, as in IREE)
    2x3xf32=0              a single value fills the whole tensor (splat)
    2x3xf32=               no values: zeros
    f32=5                  a rank-0 tensor
    4xi1=1,0,1,1           booleans as 1/0 or true/false
    f32[2,2]=1,2,3,4       XLA shape syntax works too
    5                      a bare value: shape and type from the function's parameter
    @x.npy                 the first array of x.npy; +x.npy: the next array of the same file
    2x2xf32=@x.bin         raw little-endian data at the start of x.bin; =+x.bin: what follows

Element types: i1, i8/si8, i16, i32, i64, ui8..ui64, f16, bf16, f32, f64, complex<f32>,
complex<f64> and the f8 types (MLIR spellings). Tuple parameters take their leaves in order.

Results print as iree-run-module does (``result[0]: hal.buffer_view`` then
``2x2xf32=[1 2][3 4]``), or go to ``--output`` specs in order (``@out.npy`` writes,
``+out.npy`` appends, ``-`` prints, an empty spec skips) and/or ``--output-dir``
(``result0.npy``, ...). With ``--expected_output`` each result is compared (floats within
``--atol``/``--rtol``; IREE's ``--expected_f32_threshold`` etc. are accepted) and a
mismatch exits with code 1.

Each ``--input`` is checked against the function's signature (count, element type,
shape) before any value is read or allocated; a mismatch is a usage error, exit code 2.
Output files and ``--output-dir`` are checked before the run and written together at
the end, all or none.

A vmfb with a manifest beside it is checked against the manifest's SHA-256 first. By
default the run happens in a child process (``--no-isolate`` turns that off), so a vmfb
that crashes the runtime (corrupted, or built for another CPU) is an error, exit code 6;
a crash while an ``.mlir`` input compiles is a compiler crash, exit code 5.
"""

from __future__ import annotations

import argparse
import io
import math
import os
import re
import sys
from typing import Sequence

from hlo_mlir.tools import EXIT_CODES_HELP, ExitCode
from hlo_mlir.tools.hlo_compile import check_writable, positive_seconds
from hlo_mlir.tools.isolation import Phase, ToolError, enter_phase, run_isolated, run_reporting

__all__ = ["parse_args", "main", "parse_value", "spec_meta", "format_buffer_view", "InputSpecError"]

_DRIVER_TARGET = {"local-task": "llvm-cpu", "local-sync": "llvm-cpu", "vulkan": "vulkan-spirv",
                  "cuda": "cuda"}
# iree-run-module's default absolute thresholds (--expected_f32_threshold etc.).
_DEFAULT_ATOL = {"float16": 1e-3, "bfloat16": 1e-2, "float32": 1e-4, "float64": 1e-4,
                 "complex64": 1e-4, "complex128": 1e-4}
_FORMS = ("2x2xf32=1,2,3,4 | 2x2xf32=[1 2][3 4] | f32=5 | 2x3xf32=0 (splat) | 5 (typed by the "
          "function) | @x.npy | +x.npy | 4xf32=@x.bin")


class InputSpecError(ToolError, ValueError):
    """A value spec does not follow the syntax (exit code 2) or names an unreadable file (3)."""

    def __init__(self, message: str, code: ExitCode = ExitCode.USAGE):
        super().__init__(message, code)


def _parser() -> argparse.ArgumentParser:
    doc = __doc__.split("\n\n")
    p = argparse.ArgumentParser(
        prog="hlo-run", description=doc[0].split(": ", 1)[1] + "\n\n" + "\n\n".join(doc[2:4]),
        epilog=EXIT_CODES_HELP, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("module", nargs="?", help="a .vmfb, or an .mlir file (compiled first)")
    p.add_argument("--module", dest="module_flag", metavar="PATH", help="same as the positional argument")
    p.add_argument("--function", default="main", help="the function to call (default: main)")
    p.add_argument("--device", "--driver", dest="device", default=None, choices=sorted(_DRIVER_TARGET),
                   help="runtime driver (default: the one the vmfb was compiled to prefer; local-task or "
                        "local-sync for llvm-cpu)")
    p.add_argument("--input", action="append", default=[], metavar="VALUE", help="an argument (repeatable)")
    p.add_argument("--output", action="append", default=[], metavar="SPEC",
                   help="where result i goes: @out.npy, +out.npy (append), - (print), '' (skip)")
    p.add_argument("--output-dir", metavar="DIR", help="also save result<i>.npy files in DIR")
    p.add_argument("--expected_output", "--expected-output", dest="expected", action="append", default=[],
                   metavar="VALUE", help="expected result i, same syntax as --input; '(ignored)' skips one")
    p.add_argument("--atol", type=float, help="absolute tolerance for floats (default: 1e-4 for f32/f64, "
                                              "1e-3 for f16, 1e-2 for bf16)")
    p.add_argument("--rtol", type=float, default=0.0, help="relative tolerance for floats (default: 0)")
    for dt in ("f16", "f32", "f64"):
        p.add_argument(f"--expected_{dt}_threshold", type=_iree_float, metavar="ATOL",
                       help=f"iree-run-module's absolute tolerance for {dt} results")
    p.add_argument("--print_max_element_count", "--print-max-element-count", dest="max_elements", type=_count,
                   default=1024, metavar="N", help="print at most N elements per result (default: 1024)")
    p.add_argument("--target", choices=sorted(set(_DRIVER_TARGET.values())),
                   help="for an .mlir input: compile target (default: the driver's)")
    p.add_argument("-X", "--iree-flag", dest="iree_flags", action="append", default=[], metavar="FLAG",
                   help="for an .mlir input: extra IREE compiler flag (repeatable)")
    p.add_argument("--isolate", dest="isolate", action="store_true", default=True,
                   help="run in a child process, so a runtime crash is an error (default)")
    p.add_argument("--no-isolate", dest="isolate", action="store_false", help="run in this process")
    p.add_argument("--timeout", type=positive_seconds, metavar="SECONDS",
                   help="with --isolate: stop a run that takes longer")
    return p


def _count(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        value = -1
    if value < 0:
        raise argparse.ArgumentTypeError(f"expected a count of 0 or more; got {text!r}")
    return value


def _iree_float(text: str) -> float:
    return float(text.rstrip("fF"))  # IREE's flags accept "0.15f"


def parse_args(argv: Sequence[str] | None = None) -> argparse.Namespace:
    argv = list(sys.argv[1:] if argv is None else argv)
    joined, it = [], iter(argv)
    for a in it:
        joined.append(f"{a}={next(it, '')}" if a in ("-X", "--iree-flag") else a)
    parser = _parser()
    args = parser.parse_args(joined)
    if (args.module is None) == (args.module_flag is None):
        parser.error("give the module once: as the positional argument or as --module")
    args.module = args.module or args.module_flag
    return args


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    try:
        args = parse_args(argv)
    except SystemExit as e:
        return int(e.code or 0)
    if args.isolate:
        phases = {
            "compile": Phase(f"the IREE compiler (compiling {args.module!r} for {_target(args)})",
                             ExitCode.COMPILE, "This is an IREE defect; try other -X flags, or rerun with "
                             "--no-isolate under a debugger."),
            "run": Phase(f"the IREE runtime (running {args.module!r})", ExitCode.RUNTIME,
                         "The vmfb may be corrupted (a manifest beside it would detect that) or compiled "
                         "for another CPU (llvm-cpu defaults to --iree-llvmcpu-target-cpu=host)."),
        }
        first = "compile" if _is_mlir(args.module) else "run"
        return run_isolated("hlo-run", "hlo_mlir.tools.hlo_run", argv, args.timeout, phases, first)
    return run_reporting("hlo-run", lambda: _run(args))


def _is_mlir(path: str) -> bool:
    return path.endswith((".mlir", ".mlirbc"))


def _target(args) -> str:
    return args.target or _DRIVER_TARGET.get(args.device, "llvm-cpu")


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
        raise InputSpecError(f"unknown element type {name!r}; known: {known}.") from None


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


def _parse_element(token: str, dtype):
    import numpy as np

    kind = np.dtype(dtype).kind
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
            info = np.iinfo(dtype)
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
        shape = _meta_text(dims, dtype)
        raise InputSpecError(f"{len(values)} values for {shape}, which has {count} elements; give {count} "
                             f"values, one value (splat), or none (zeros).")
    return np.array(values, dtype=dtype).reshape(dims)


def _allocated(make, dims: tuple[int, ...], dtype):
    """``make()``, an array of ``dims``; too large to allocate is an InputSpecError."""
    try:
        return make()
    except (MemoryError, ValueError):  # numpy: "array is too big" is a ValueError
        raise InputSpecError(f"{_meta_text(dims, dtype)} is too large to allocate.") from None


class _Files:
    """Open ``@``/``+`` files: ``+path`` continues where the previous use of ``path`` stopped."""

    def __init__(self):
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


def parse_value(spec: str, like=None, files: _Files | None = None):
    """A numpy array from one iree-run-module value spec (see the module docstring).

    ``like`` (a :class:`hlo_mlir.shape.Shape`) types a bare value. Raises InputSpecError.
    """
    import numpy as np

    files = files or _Files()
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


def _spec_error(flag: str, index: int, spec: str, e: InputSpecError) -> InputSpecError:
    hint = f"\n  accepted forms: {_FORMS}" if e.code == ExitCode.USAGE else ""
    return InputSpecError(f"{flag} {index} ({spec!r}): {e}{hint}", e.code)


# --- printing ----------------------------------------------------------------------------------
def _type_name(dtype) -> str:
    from hlo_mlir import types

    return types.mlir_name(types.from_dtype(dtype))


def _format_element(x, kind: str) -> str:
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
    kind = array.dtype.kind
    budget = [max_elements]

    def rows(a) -> str:
        if a.ndim <= 1:
            flat = a.reshape(-1)
            n = min(len(flat), budget[0])
            budget[0] -= n
            text = " ".join(_format_element(x, kind) for x in flat[:n])
            return text + ("..." if n < len(flat) else "")
        return "".join(f"[{rows(sub)}]" for sub in a)

    return f"{_meta(array)}={rows(array)}"


def _meta(array) -> str:
    """IREE's shape-and-type text: ``2x2xf32``."""
    return _meta_text(array.shape, array.dtype)


def _meta_text(dims, dtype) -> str:
    return "".join(f"{d}x" for d in dims) + _type_name(dtype)


# --- the run -----------------------------------------------------------------------------------
def _load(args):
    """LoadedModule for ``args.module``: a vmfb (manifest-checked) or an .mlir compiled first.
    A vmfb needs the runtime only: a deployment without the compiler runs it."""
    from hlo_mlir import runtime

    path = args.module
    if not os.path.isfile(path):
        what = "is a folder" if os.path.isdir(path) else "No such file or directory"
        raise ToolError(f"could not read {path!r}: {what}.", ExitCode.INPUT)
    if _is_mlir(path):
        from hlo_mlir import compiler
        from hlo_mlir.errors import CompileError, HloMlirError
        from hlo_mlir.tools.hlo_compile import _rename_source, load_source, require_functions

        enter_phase("compile")
        module = load_source(path)
        require_functions(module, path)
        try:
            compiler.target_flags(_target(args), args.iree_flags)
            source = compiler.compile(module, _target(args), flags=args.iree_flags)
        except CompileError as e:
            # As hlo-compile: flags IREE or hlo-mlir reject are a usage error.
            usage = e.message.startswith(("IREE rejected the compile flags", "compile requires flags"))
            code = ExitCode.USAGE if usage else ExitCode.COMPILE
            raise ToolError(_rename_source(str(e), path), code) from None
        except HloMlirError as e:
            raise ToolError(_rename_source(str(e), path), ExitCode.COMPILE) from None
    else:
        source = path
    enter_phase("run")
    try:
        return runtime.load(source, args.device)
    except Exception as e:  # noqa: BLE001 - the runtime raises several types for a bad vmfb
        raise ToolError(f"could not load {path!r}: {e}", ExitCode.INPUT) from None


def _leaf_names(signature) -> list[str]:
    """``argument 0``, ``argument 1[0]``, ...: the runtime's names of the flat parameters."""
    def names(what, shape):
        if not shape.is_tuple:
            return [what]
        return [n for j, s in enumerate(shape.tuple_shapes) for n in names(f"{what}[{j}]", s)]

    return [n for i, p in enumerate(signature.parameters) for n in names(f"argument {i}", p)]


def _check_against_signature(args, function, leaves) -> None:
    """Raises ToolError (usage, exit code 2) for an ``--input`` whose count, element type or
    shape does not fit the signature, before any value is read or allocated."""
    from hlo_mlir import runtime
    from hlo_mlir.shape import Shape

    signature = function.signature
    if len(args.input) != len(leaves):
        raise ToolError(f"{args.function} takes {len(leaves)} input(s) {signature}; got {len(args.input)} "
                        f"--input flag(s).", ExitCode.USAGE)
    for i, (spec, leaf, name) in enumerate(zip(args.input, leaves, _leaf_names(signature), strict=True)):
        try:
            meta = spec_meta(spec)
        except InputSpecError as e:
            raise _spec_error("--input", i, spec, e) from None
        if meta is not None and (meta[1] != leaf.dtype or not runtime.fits(meta[0], leaf)):
            raise ToolError(f"--input {i} ({spec!r}): {args.function}: {name}: expected {leaf}; got "
                            f"{Shape.array_shape(meta[1], meta[0])}.", ExitCode.USAGE)


def _arguments(args, function) -> list:
    """The call arguments: flat specs parsed, regrouped into tuples by the signature."""
    signature = function.signature
    leaves = [leaf for p in signature.parameters for leaf in p.leaves()] if signature else []
    if signature is not None:
        _check_against_signature(args, function, leaves)
    files = _Files()
    try:
        flat = []
        for i, spec in enumerate(args.input):
            try:
                flat.append(parse_value(spec, leaves[i] if leaves else None, files))
            except InputSpecError as e:
                raise _spec_error("--input", i, spec, e) from None
    finally:
        files.close()
    if signature is None:
        return flat
    it = iter(flat)

    def group(shape):
        return tuple(group(s) for s in shape.tuple_shapes) if shape.is_tuple else next(it)

    return [group(p) for p in signature.parameters]


def _run(args) -> int:
    from hlo_mlir.errors import CallArgumentError, RuntimeCallError

    _check_outputs(args)
    loaded = _load(args)
    try:
        function = loaded[args.function]
    except RuntimeCallError as e:
        raise ToolError(str(e), ExitCode.INPUT) from None
    call_args = _arguments(args, function)
    try:
        raw = function(*call_args)
    except RuntimeCallError as e:
        # Argument checks fail before the call (a usage error); anything else is the runtime's.
        code = ExitCode.USAGE if isinstance(e, CallArgumentError) else ExitCode.RUNTIME
        raise ToolError(str(e), code) from None
    except Exception as e:  # noqa: BLE001 - anything else from the runtime is a runtime error
        raise ToolError(f"{args.function}: the IREE runtime failed: {type(e).__name__}: {e}",
                        ExitCode.RUNTIME) from None
    results = list(raw) if isinstance(raw, tuple) else [raw]
    if len(args.output) > len(results):
        raise InputSpecError(f"{len(args.output)} --output flag(s) for {len(results)} result(s).")
    print(f"EXEC @{args.function}")
    _emit_outputs(args, results)
    if args.expected:
        return _compare(args, results)
    return ExitCode.OK


# --- outputs -----------------------------------------------------------------------------------
def _output_path(i: int, spec: str) -> str | None:
    """The file an ``--output`` spec writes (None for ``-`` and an empty spec)."""
    if spec in ("-", ""):
        return None
    if spec[0] in "@+" and len(spec) > 1:
        return spec[1:]
    raise InputSpecError(f"--output {i} ({spec!r}): expected @file, +file, - or an empty spec.")


def _check_outputs(args) -> None:
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


def _emit_outputs(args, results) -> None:
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


def _compare(args, results) -> int:
    import numpy as np

    from hlo_mlir.shape import Shape

    if len(args.expected) != len(results):
        print(f"[FAILED] {len(args.expected)} --expected_output value(s) for {len(results)} result(s).")
        return ExitCode.FAILURE
    files, failures = _Files(), []
    try:
        for i, (spec, actual) in enumerate(zip(args.expected, results, strict=True)):
            if spec.strip() == "(ignored)":
                continue
            actual = np.asarray(actual)
            try:
                meta = spec_meta(spec)
                if meta is not None and (tuple(meta[0]) != actual.shape or meta[1] != actual.dtype):
                    failures.append(f"[FAILED] result[{i}]: expected {_meta_text(*meta)}, "
                                    f"got {_meta(actual)}.")
                    continue  # not read: it could be any size
                expected = parse_value(spec, Shape.from_numpy(actual), files)
            except InputSpecError as e:
                raise _spec_error("--expected_output", i, spec, e) from None
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
        return f"expected {_meta(expected)}, got {_meta(actual)}."
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
            f"expected {_format_element(expected[first], kind)}, got {_format_element(actual[first], kind)}.")


def _atol(args, dtype) -> float:
    if args.atol is not None:
        return args.atol
    iree = {"float16": args.expected_f16_threshold, "float32": args.expected_f32_threshold,
            "float64": args.expected_f64_threshold}.get(dtype.name)
    return iree if iree is not None else _DEFAULT_ATOL.get(dtype.name, 1e-4)


if __name__ == "__main__":
    sys.exit(main())
