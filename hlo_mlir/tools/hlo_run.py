"""hlo-run: runs a function of a vmfb, or of an ``.mlir`` file compiled first, with the flags
of iree-run-module (IREE 3.13): same spellings, value syntax and printed results.

``hlo-run --help`` is the user documentation: the plain-text ``_DESCRIPTION`` and ``_EPILOG``
below. The flags in the parser's ``IREE_GROUP`` are those iree-run-module has too (a test
checks each against the pinned ``iree-run-module --help``); the rest are hlo-run's own.
"""

from __future__ import annotations

import argparse
import os
import re
import sys
from typing import Sequence

from hlo_mlir.errors import did_you_mean
from hlo_mlir.tools import ExitCode, ToolParser, exit_codes_help
from hlo_mlir.tools.hlo_compile import positive_seconds
from hlo_mlir.tools.input_kind import InputKind, file_refusal, sniff_file
from hlo_mlir.tools.isolation import Phase, ToolError, enter_phase, run_isolated, run_reporting
from hlo_mlir.tools.run_results import check_outputs, check_result_count, compare, emit_outputs
from hlo_mlir.tools.value_specs import (
    Files,
    InputSpecError,
    format_buffer_view,
    parse_value,
    spec_error,
    spec_meta,
)

__all__ = ["parse_args", "main", "parse_value", "spec_meta", "format_buffer_view", "InputSpecError",
           "IREE_GROUP"]

_DRIVER_TARGET = {"local-task": "llvm-cpu", "local-sync": "llvm-cpu", "vulkan": "vulkan-spirv",
                  "cuda": "cuda"}

IREE_GROUP = "flags of iree-run-module (same spelling and meaning)"

# iree-run-module's default absolute tolerances (its --expected_<type>_threshold flags).
_THRESHOLDS = {"f16": 1e-3, "bf16": 1e-2, "f32": 1e-4, "f64": 1e-4}

_DESCRIPTION = """\
Runs a function of a .vmfb, or of an .mlir file (compiled first), with the flags of
iree-run-module (IREE 3.13): the same spellings, value syntax and printed results.

  hlo-run model.vmfb --function=main --input=2x2xf32=1,2,3,4 --input=@x.npy
  hlo-run --module=model.vmfb --input=@x.npy --output=@y.npy
  hlo-run model.mlir --input=f32=5 --expected_output=f32=10"""

_EPILOG = """\
values (--input, --expected_output), one per flat argument or result, in order:
  2x2xf32=1,2,3,4     shape and element type; values separated by spaces or commas
  2x2xf32=[1 2][3 4]  or by brackets (brackets are separators, as in IREE)
  2x3xf32=0           a single value fills the whole tensor (splat)
  2x3xf32=            no values: zeros
  f32=5               a rank-0 tensor
  4xi1=1,0,1,1        booleans as 1/0 or true/false
  f32[2,2]=1,2,3,4    XLA shape syntax works too
  5                   a bare value: shape and type from the function's parameter
  @x.npy              the first array of x.npy; +x.npy: the next array of the same file
  2x2xf32=@x.bin      raw little-endian data, x.bin from its start; =+x.bin: what follows
Element types as MLIR spells them: i1, i8 (or si8), i16, i32, i64, ui8..ui64, f16, bf16,
f32, f64, complex<f32>, complex<f64> and the f8 types. Tuple parameters take their leaves
in order.
Each --input is checked against the function's signature (count, element type, shape)
before any value is read; a mismatch is a usage error (exit code 2).

results:
  Without --output each result prints as iree-run-module prints it ("result[0]:
  hal.buffer_view", then "2x2xf32=[1 2][3 4]"); with --expected_output nothing prints but
  the comparison. Each --output takes the next result:
    --output=@out.npy   write out.npy (numpy.load reads it); @out.bin: raw bytes
    --output=+out.npy   append to out.npy (numpy.load reads the arrays in turn); +out.bin
    --output=-          print the result ("hal.buffer_view", then its values)
    --output=           skip the result
  Results after the last --output print (iree-run-module wants one --output per result).
  --output-dir=DIR also saves result0.npy, result1.npy, ... in DIR. Output files are
  checked before the run and written together at the end, all or none.

comparing (--expected_output, one per result; "(ignored)" skips one):
  Floats match when |actual - expected| <= atol + rtol * |expected| (NaN equals NaN), with
  atol from --expected_<type>_threshold (or hlo-run's --atol for every type) and rtol from
  --expected_rtol; --equality_mode=exact compares bytes. Integers and booleans compare
  exactly. A mismatch prints "[FAILED] result[i]: ..." and exits with code 1.

running:
  A vmfb with a manifest beside it (model.vmfb.manifest.json) is checked against the
  manifest's SHA-256 first. The run happens in a child process (--no-isolate turns that
  off), so a vmfb that crashes the runtime (corrupted, or built for another CPU) is
  an error, exit code 6; a crash while an .mlir input compiles is exit code 5."""

_FLAGFILE_DEPTH = 8  # flagfiles may name flagfiles, this deep


def _parser() -> argparse.ArgumentParser:
    p = ToolParser(
        prog="hlo-run", description=_DESCRIPTION, epilog=f"{_EPILOG}\n\n{exit_codes_help('hlo-run')}",
        formatter_class=argparse.RawDescriptionHelpFormatter)
    iree = p.add_argument_group(IREE_GROUP)
    iree.add_argument("--module", dest="module_flag", action="append", default=[], metavar="PATH",
                      help="the .vmfb (or .mlir) to run; the same as the positional argument")
    iree.add_argument("--function", metavar="NAME",
                      help="the function to call (default: the module's only function, else main)")
    iree.add_argument("--device", type=_device, metavar="DRIVER",
                      help=f"the runtime driver, one of {', '.join(sorted(_DRIVER_TARGET))}, or "
                           "DRIVER:// (its default device) (default: the driver the vmfb was "
                           "compiled to prefer)")
    iree.add_argument("--input", action="append", default=[], metavar="VALUE",
                      help="the next argument (repeatable); see values below")
    iree.add_argument("--output", action="append", default=[], metavar="SPEC",
                      help="where the next result goes: @file.npy, +file.npy, @file.bin, +file.bin, "
                           "- or empty; see results below")
    iree.add_argument("--expected_output", dest="expected", action="append", default=[], metavar="VALUE",
                      help="the next expected result, as --input; '(ignored)' skips one")
    iree.add_argument("--output_max_element_count", dest="max_elements", type=_count, default=1024,
                      metavar="N", help="print at most N elements of each result (default: 1024)")
    for dt, default in _THRESHOLDS.items():
        iree.add_argument(f"--expected_{dt}_threshold", type=_iree_float, default=default, metavar="ATOL",
                          help=f"absolute tolerance for {dt} results (default: {default:g})")
    iree.add_argument("--expected_rtol", dest="rtol", type=_iree_float, default=1e-5, metavar="RTOL",
                      help="relative tolerance for float results (default: 1e-05)")
    iree.add_argument("--equality_mode", choices=("approximate", "exact"), default="approximate",
                      help="approximate: within the tolerances (default); exact: the same bytes")
    iree.add_argument("--flagfile", metavar="PATH",
                      help="read more flags from PATH, one a line ('#' starts a comment line)")
    own = p.add_argument_group("hlo-run's own flags (iree-run-module has none of these)")
    own.add_argument("module", nargs="?", help="the .vmfb, or an .mlir file (compiled first)")
    own.add_argument("--output-dir", metavar="DIR", help="also save result<i>.npy files in DIR")
    own.add_argument("--atol", type=float, help="absolute tolerance for every float type, in place of "
                                                "the --expected_<type>_threshold flags")
    own.add_argument("--target", choices=sorted(set(_DRIVER_TARGET.values())),
                     help="for an .mlir input: the compile target (default: the driver's)")
    own.add_argument("-X", "--iree-flag", dest="iree_flags", action="append", default=[], metavar="FLAG",
                     help="for an .mlir input: an extra IREE compiler flag (repeatable)")
    own.add_argument("--isolate", dest="isolate", action="store_true", default=True,
                     help="run in a child process, so a runtime crash is an error (default)")
    own.add_argument("--no-isolate", dest="isolate", action="store_false", help="run in this process")
    own.add_argument("--timeout", type=positive_seconds, metavar="SECONDS",
                     help="with --isolate: stop a run that takes longer")
    # Earlier spellings, hidden from --help: hlo-run's own before it took iree-run-module's.
    hidden = argparse.SUPPRESS
    p.add_argument("--print_max_element_count", "--print-max-element-count", dest="max_elements",
                   type=_count, default=hidden, help=hidden)
    p.add_argument("--expected-output", dest="expected", action="append", default=hidden, help=hidden)
    p.add_argument("--driver", dest="device", type=_device, default=hidden, help=hidden)
    p.add_argument("--rtol", dest="rtol", type=float, default=hidden, help=hidden)
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


def _device(text: str) -> str:
    """A driver name from ``--device``: ``local-task`` or iree-run-module's URI form
    ``local-task://`` (the driver's default device; hlo-run picks no other)."""
    driver, _, path = text.partition("://")
    if driver not in _DRIVER_TARGET:
        raise argparse.ArgumentTypeError(f"expected a driver in {sorted(_DRIVER_TARGET)}; got "
                                         f"{text!r}{did_you_mean(driver, _DRIVER_TARGET) or '.'}")
    if path:
        raise argparse.ArgumentTypeError(f"expected a driver's default device, {driver!r} or "
                                         f"'{driver}://'; got {text!r}: hlo-run picks no other device.")
    return driver


def _expand_flagfiles(argv: list[str], parser: argparse.ArgumentParser, depth: int = 0) -> list[str]:
    """``argv`` with each ``--flagfile=PATH`` replaced by the flags in PATH: one a line,
    blank lines and lines starting with ``#`` skipped, as iree-run-module reads them."""
    out: list[str] = []
    it = iter(argv)
    for arg in it:
        if arg != "--flagfile" and not arg.startswith("--flagfile="):
            out.append(arg)
            continue
        path = arg.partition("=")[2] if "=" in arg else next(it, "")
        if depth >= _FLAGFILE_DEPTH:
            parser.error(f"--flagfile requires at most {_FLAGFILE_DEPTH} nested flagfiles; got deeper "
                         f"at {path!r}.")
        try:
            with open(path, encoding="utf-8") as f:
                lines = [line.strip() for line in f]
        except (OSError, UnicodeDecodeError) as e:
            why = e.strerror if isinstance(e, OSError) else "not UTF-8 text"
            parser.exit(ExitCode.INPUT, f"hlo-run: error: could not read --flagfile {path!r}: {why}.\n")
        flags = [line for line in lines if line and not line.startswith("#")]
        out += _expand_flagfiles(flags, parser, depth + 1)
    return out


def parse_args(argv: Sequence[str] | None = None) -> argparse.Namespace:
    argv = list(sys.argv[1:] if argv is None else argv)
    parser = _parser()
    joined, it = [], iter(_expand_flagfiles(argv, parser))
    for a in it:
        joined.append(f"{a}={next(it, '')}" if a in ("-X", "--iree-flag") else a)
    args = parser.parse_args(joined)
    modules = ([args.module] if args.module is not None else []) + args.module_flag
    if len(modules) != 1:
        parser.error(f"hlo-run requires one module, as the positional argument or --module; got "
                     f"{len(modules)}{': ' + ', '.join(map(repr, modules)) if modules else ''}.")
    args.module = modules[0]
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
    """An MLIR file (compiled first), by its name or else its first bytes (``input_kind``)."""
    if path.endswith((".mlir", ".mlirbc")):
        return True
    if path.endswith(".vmfb"):  # a truncated or empty one is a bad vmfb, not MLIR text
        return False
    try:
        return sniff_file(path) in (InputKind.MLIR_TEXT, InputKind.MLIR_BYTECODE)
    except OSError:
        return False


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
    refusal = file_refusal("hlo-run", path)  # a .py or .npy file: say which tool takes it
    if refusal is not None:
        raise ToolError(refusal, ExitCode.INPUT)
    if _is_mlir(path):
        from hlo_mlir import compiler
        from hlo_mlir.errors import CompileError, HloMlirError
        from hlo_mlir.tools.hlo_compile import _rename_source, load_source, require_functions

        enter_phase("compile")
        module = load_source(path, tool="hlo-run")
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
        raise _load_error(args, str(e)) from None


# IREE's INCOMPATIBLE error names the targets the vmfb was compiled for.
_COMPILED_FOR = re.compile(r'#hal\.executable\.target<"([\w-]+)"')


def _load_error(args, message: str) -> ToolError:
    """Why the vmfb did not load: the runtime lacking the driver is a runtime error (6), a
    --device that cannot run the vmfb a usage error (2), anything else a bad vmfb (3)."""
    if "has no usable" in message:  # hlo_mlir.runtime: the driver cannot start here
        return ToolError(f"could not load {args.module!r}: {message}", ExitCode.RUNTIME)
    targets = sorted(set(_COMPILED_FOR.findall(message)))
    if "INCOMPATIBLE" in message and args.device is not None and targets:
        return ToolError(f"--device {args.device!r} cannot run {args.module!r}, compiled for "
                         f"{', '.join(targets)}; run it without --device, or compile it for "
                         f"{_DRIVER_TARGET[args.device]}.", ExitCode.USAGE)
    return ToolError(f"could not load {args.module!r}: {message}", ExitCode.INPUT)


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


def _function(args, loaded):
    """The function ``--function`` names; without it the module's only function, else main
    (iree-run-module wants --function then). Sets ``args.function``."""
    names = sorted(loaded.functions)
    if args.function is None:
        if not names:
            raise ToolError(f"{args.module!r} exports no function to run.", ExitCode.INPUT)
        if len(names) > 1 and "main" not in names:
            raise ToolError(f"hlo-run requires --function for a module with several functions and no "
                            f"main; got {args.module!r} with {names}.", ExitCode.USAGE)
        args.function = names[0] if len(names) == 1 else "main"
    elif args.function not in names:
        raise ToolError(f"--function requires a function of {args.module!r}, one of {names}; got "
                        f"{args.function!r}{did_you_mean(args.function, names) or '.'}", ExitCode.USAGE)
    return loaded[args.function]


# IREE's own check of the argument count, for a function whose signature hlo-run cannot read.
_IREE_ARITY = re.compile(r"input list and function mismatch; expected (\d+) arguments but passed (\d+)")


def _run(args) -> int:
    from hlo_mlir.errors import CallArgumentError, RuntimeCallError

    check_outputs(args)
    loaded = _load(args)
    function = _function(args, loaded)
    if function.signature is not None:
        check_result_count(args, sum(len(r.leaves()) for r in function.signature.results))
    call_args = _arguments(args, function)
    try:
        raw = function(*call_args)
    except RuntimeCallError as e:
        # Argument checks fail before the call (a usage error); anything else is the runtime's.
        arity = _IREE_ARITY.search(str(e))
        if arity:
            raise ToolError(f"{args.function} takes {arity.group(1)} input(s); got {len(args.input)} "
                            f"--input flag(s).", ExitCode.USAGE) from None
        code = ExitCode.USAGE if isinstance(e, CallArgumentError) else ExitCode.RUNTIME
        raise ToolError(str(e), code) from None
    except Exception as e:  # noqa: BLE001 - anything else from the runtime is a runtime error
        raise ToolError(f"{args.function}: the IREE runtime failed: {type(e).__name__}: {e}",
                        ExitCode.RUNTIME) from None
    results = list(raw) if isinstance(raw, tuple) else [raw]
    check_result_count(args, len(results))
    print(f"EXEC @{args.function}")
    emit_outputs(args, results)
    if args.expected:
        return compare(args, results)
    return ExitCode.OK


if __name__ == "__main__":
    sys.exit(main())
