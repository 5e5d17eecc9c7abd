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
import os
import sys
from typing import Sequence

from hlo_mlir.tools import EXIT_CODES_HELP, ExitCode
from hlo_mlir.tools.hlo_compile import positive_seconds
from hlo_mlir.tools.isolation import Phase, ToolError, enter_phase, run_isolated, run_reporting
from hlo_mlir.tools.run_results import check_outputs, compare, emit_outputs
from hlo_mlir.tools.value_specs import (
    Files,
    InputSpecError,
    format_buffer_view,
    parse_value,
    spec_error,
    spec_meta,
)

__all__ = ["parse_args", "main", "parse_value", "spec_meta", "format_buffer_view", "InputSpecError"]

_DRIVER_TARGET = {"local-task": "llvm-cpu", "local-sync": "llvm-cpu", "vulkan": "vulkan-spirv",
                  "cuda": "cuda"}


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
            raise spec_error("--input", i, spec, e) from None
        if meta is not None and (meta[1] != leaf.dtype or not runtime.fits(meta[0], leaf)):
            raise ToolError(f"--input {i} ({spec!r}): {args.function}: {name}: expected {leaf}; got "
                            f"{Shape.array_shape(meta[1], meta[0])}.", ExitCode.USAGE)


def _arguments(args, function) -> list:
    """The call arguments: flat specs parsed, regrouped into tuples by the signature."""
    signature = function.signature
    leaves = [leaf for p in signature.parameters for leaf in p.leaves()] if signature else []
    if signature is not None:
        _check_against_signature(args, function, leaves)
    files = Files()
    try:
        flat = []
        for i, spec in enumerate(args.input):
            try:
                flat.append(parse_value(spec, leaves[i] if leaves else None, files))
            except InputSpecError as e:
                raise spec_error("--input", i, spec, e) from None
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

    check_outputs(args)
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
    emit_outputs(args, results)
    if args.expected:
        return compare(args, results)
    return ExitCode.OK


if __name__ == "__main__":
    sys.exit(main())
