"""hlo-compile: StableHLO (``.mlir`` text or bytecode, or a Python builder) -> ``.vmfb`` + manifest.

    hlo-compile model.mlir -o model.vmfb --target llvm-cpu -p O2 -X --iree-opt-level=O2

Input: an ``.mlir`` file (text or bytecode; ``-`` reads stdin), or a ``.py`` file
exposing a builder function: the file is run as a module (its folder first on
``sys.path``) and ``--entry`` (default ``build``) is called with no arguments; it must
return an XlaComputation, an HloModule, an ``ir.Module`` or MLIR text/bytecode.

``-p/--passes`` runs a pass pipeline or preset (``pipelines.pipeline.run_pipeline``)
before compiling; ``-X/--iree-flag`` adds IREE flags (repeatable; they override the
target's defaults). The vmfb is written atomically (temporary file in the output
folder, then ``os.replace``): a failed or interrupted compile leaves no output file.
Next to it goes ``<output>.manifest.json`` (see ``hlo_mlir.artifacts``): signatures,
target, full flags, versions, SHA-256, creation time.

The IREE compiler crashes the process on some inputs (ARCHITECTURE.md), so by default
the tool re-runs itself in a child process (``--no-isolate`` turns that off; it costs one
more Python start, a few tenths of a second): a crash becomes an error naming the signal
and exit code 5, and ``--timeout`` bounds the time. A crash while a ``.py`` input's build
function runs is the user's code crashing, and is reported as such (exit code 3).

The exit codes below are shared by hlo-opt, hlo-compile and hlo-run.
"""

from __future__ import annotations

import argparse
import glob
import importlib.util
import os
import re
import sys
from importlib.machinery import SourceFileLoader
from typing import Callable, Sequence

from hlo_mlir.tools import EXIT_CODES_HELP, ExitCode, ToolParser, exit_codes_help
from hlo_mlir.tools.hlo_opt import add_pipeline_flags, pipeline_options
from hlo_mlir.tools.input_kind import HEAD_BYTES, InputKind, sniff, wrong_kind
from hlo_mlir.tools.isolation import Phase, ToolError, enter_phase, report, run_isolated, run_reporting

__all__ = ["ExitCode", "EXIT_CODES_HELP", "ToolError", "parse_args", "main", "load_source", "run_isolated",
           "run_reporting", "report", "require_functions", "check_writable"]


TARGETS = ("llvm-cpu", "vulkan-spirv", "cuda")

_DESCRIPTION = ("Compiles StableHLO (MLIR text or bytecode, or a Python builder) to an IREE .vmfb and its "
                "manifest.")
_EPILOG = """\
input: an MLIR file, text or bytecode ('-' reads stdin and needs -o), or a Python file whose
function --entry (default build) returns the module; a file of another kind (a vmfb, a .npy
array) is refused with one line naming the tool that takes it.
output: <output>.vmfb and <output>.vmfb.manifest.json (signatures, target, full IREE flags,
versions, SHA-256; docs/deployment.md), written together and only on success.
isolation: the IREE compiler runs in a child process (--no-isolate: in this one), so a
compiler crash is exit code 5 and --timeout bounds a compile.

""" + exit_codes_help("hlo-compile")


def _parser() -> argparse.ArgumentParser:
    p = ToolParser(
        prog="hlo-compile", description=_DESCRIPTION, epilog=_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("input", help="a .mlir file (text or bytecode; '-': stdin) or a .py file with a builder")
    p.add_argument("-o", "--output", help="output .vmfb (default: the input's name with .vmfb)")
    p.add_argument("--target", default="llvm-cpu", choices=TARGETS, help="IREE target (default: llvm-cpu)")
    p.add_argument("-p", "--passes", metavar="PIPELINE", default=None,
                   help="pass pipeline or preset run before compiling, e.g. O0, O1, O2 or 'algsimp,cse,dce' "
                        "(default: the target's preset, cpu or gpu, as hlo_mlir.compile)")
    p.add_argument("-X", "--iree-flag", dest="iree_flags", action="append", default=[], metavar="FLAG",
                   help="extra IREE compiler flag, e.g. -X=--iree-opt-level=O2 (repeatable)")
    p.add_argument("--entry", default="build",
                   help="for a .py input: the function to call, returning an XlaComputation (default: build)")
    p.add_argument("--no-manifest", action="store_true", help="do not write <output>.manifest.json")
    p.add_argument("--isolate", dest="isolate", action="store_true", default=True,
                   help="compile in a child process, so a compiler crash is an error (default)")
    p.add_argument("--no-isolate", dest="isolate", action="store_false", help="compile in this process")
    p.add_argument("--timeout", type=positive_seconds, metavar="SECONDS",
                   help="with --isolate: stop a compile that takes longer than this")
    p.add_argument("-v", "--verbose", action="store_true",
                   help="report each stage (parse, each pass pipeline, IREE, output) on stderr as it runs, "
                        "with its time, then the --mlir-timing report; print what was written")
    p.add_argument("--mlir-timing", action="store_true",
                   help="at the end, the time of each stage and pass in MLIR's timing report (stderr)")
    add_pipeline_flags(p, timing=False)  # --mlir-timing above times every stage, not only passes
    return p


def positive_seconds(text: str) -> float:
    """argparse type of --timeout: a positive, finite number of seconds."""
    try:
        value = float(text)
    except ValueError:
        value = float("nan")
    if not 0 < value < float("inf"):
        raise argparse.ArgumentTypeError(f"expected a positive number of seconds; got {text!r}")
    return value


def parse_args(argv: Sequence[str] | None = None) -> argparse.Namespace:
    # IREE flags start with "--": accept both "-X=--flag" and "-X --flag".
    argv = list(sys.argv[1:] if argv is None else argv)
    joined: list[str] = []
    it = iter(argv)
    for a in it:
        if a in ("-X", "--iree-flag"):
            joined.append(f"{a}={next(it, '')}")
        else:
            joined.append(a)
    return _parser().parse_args(joined)


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    try:
        args = parse_args(argv)
    except SystemExit as e:  # argparse: --help (0) or a usage error (2)
        return int(e.code or 0)
    if args.isolate:
        out = args.output or (_default_output(args.input) if args.output is None else None)
        phases = {
            "build": Phase(f"the build script {args.input!r} (running {args.entry}())", ExitCode.INPUT,
                           "The user's Python code (or a library it calls) crashed, not the IREE compiler; "
                           "rerun with --no-isolate under a debugger."),
            "compile": Phase(f"the IREE compiler (compiling {args.input!r} for {args.target})",
                             ExitCode.COMPILE, "This is an IREE defect; try other -X flags or passes, or "
                             "rerun with --no-isolate under a debugger."),
        }
        first = "build" if args.input.endswith(".py") else "compile"
        return run_isolated("hlo-compile", "hlo_mlir.tools.hlo_compile", argv, args.timeout, phases, first,
                            cleanup=out and _temp_pattern(out))
    return run_reporting("hlo-compile", lambda: _compile_timed(args))


# --- the work ----------------------------------------------------------------------------------
def _default_output(path: str) -> str | None:
    if path == "-":
        return None
    return os.path.splitext(path)[0] + ".vmfb"


def _compile_timed(args: argparse.Namespace) -> int:
    """``_compile_to_file``, its stages timed (``hlo_mlir.timing``): with -v reported on
    stderr as they run, with -v or --mlir-timing in MLIR's timing report at the end."""
    if not (args.verbose or args.mlir_timing):
        return _compile_to_file(args)
    from hlo_mlir import compiler, timing  # noqa: F401 - imported before the clock starts

    with timing.reporting(prefix="hlo-compile", progress=args.verbose):
        return _compile_to_file(args)


def _compile_to_file(args: argparse.Namespace) -> int:
    from hlo_mlir import artifacts, compiler, timing
    from hlo_mlir.errors import CompileError, HloMlirError, InvalidArgumentError, VerificationError

    if args.output == "":
        raise ToolError("-o/--output requires a file name; got an empty one.", ExitCode.USAGE)
    output = args.output or _default_output(args.input)
    if output is None:
        raise ToolError("reading stdin requires -o/--output.", ExitCode.USAGE)
    check_writable(output)
    if not args.no_manifest:
        check_writable(artifacts.manifest_path(output))
    try:
        options = pipeline_options(args)  # --mlir-print-ir-* names checked before the work
    except InvalidArgumentError as e:
        raise ToolError(str(e), ExitCode.USAGE) from None
    with timing.stage("Build script" if args.input.endswith(".py") else "Parser"):
        module = load_source(args.input, args.entry)
    require_functions(module, args.input)
    if args.passes is None:
        from pipelines.presets import target_preset

        args.passes = target_preset(args.target)
    if args.passes:
        _run_passes(module, args.passes, args.input, options)
    flags = list(args.iree_flags)
    try:
        full_flags = compiler.full_flags(module, args.target, flags)
    except CompileError as e:
        raise ToolError(str(e), ExitCode.USAGE) from None
    try:
        vmfb = compiler.compile(module, args.target, flags=flags, passes="")
    except VerificationError as e:
        raise ToolError(_rename_source(str(e), args.input), ExitCode.VERIFY) from None
    except CompileError as e:
        code = ExitCode.USAGE if e.message.startswith("IREE rejected the compile flags") else ExitCode.COMPILE
        raise ToolError(_rename_source(str(e), args.input), code) from None
    except HloMlirError as e:
        raise ToolError(_rename_source(str(e), args.input), ExitCode.COMPILE) from None
    manifest = None
    if not args.no_manifest:
        source = {"input": os.path.basename(args.input), "passes": args.passes or ""}
        if args.input.endswith(".py"):
            source["entry"] = args.entry
        manifest = artifacts.make_manifest(vmfb, output, target=args.target, flags=full_flags,
                                           functions=compiler.function_signatures(module), source=source)
    try:
        with timing.stage("Output"):
            artifacts.save(output, vmfb, manifest)  # both files or neither
    except OSError as e:
        raise ToolError(f"could not write {e.filename or output!r}: {e.strerror}; no output written.",
                        ExitCode.INPUT) from None
    if args.verbose:
        also = f" and {artifacts.manifest_path(output)}" if manifest else ""
        print(f"wrote {output} ({len(vmfb)} bytes){also}")
    return ExitCode.OK


def check_writable(path: str) -> None:
    """Raises ToolError (exit code 3) unless a file can be written at ``path``: its folder
    exists and it is not itself a folder. Checked before compiling, so a doomed compile
    costs nothing."""
    folder = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(folder):
        raise ToolError(f"cannot write {path!r}: folder {folder!r} does not exist.", ExitCode.INPUT)
    if os.path.isdir(path):
        raise ToolError(f"cannot write {path!r}: it is a folder.", ExitCode.INPUT)


def require_functions(module, path: str) -> None:
    """Raises ToolError (exit code 3) when ``module`` has no public function: an empty or
    declarations-only input has nothing to compile or run."""
    from hlo_mlir import compiler

    if not compiler.function_signatures(module):
        raise ToolError(f"{path}: the module has no public function to compile (is the input empty?).",
                        ExitCode.INPUT)


def _rename_source(message: str, path: str) -> str:
    """MLIR parsed from memory names its source "-"; put the user's file name there."""
    return message.replace('"-":', f"{path}:") if path != "-" else message


def load_source(path: str, entry: str = "build", tool: str = "hlo-compile"):
    """An ``ir.Module`` from an MLIR file (text or bytecode, ``-`` for stdin) or from a
    Python file's builder function ``entry``. Raises ToolError (exit code 3), also for a
    file of a kind ``tool`` does not read (``input_kind``: one line naming the tool that does)."""
    from hlo_mlir import compiler
    from hlo_mlir.errors import HloMlirError

    try:
        if path == "-":
            source = sys.stdin.buffer.read()
        else:
            with open(path, "rb") as f:
                source = f.read()
    except OSError as e:
        raise ToolError(f"could not read {path!r}: {e.strerror}.", ExitCode.INPUT) from None
    kind = sniff(source[:HEAD_BYTES], path)
    message = wrong_kind(tool, path, kind, source[:HEAD_BYTES])
    if message is None and kind is InputKind.PYTHON:
        if path == "-":
            raise ToolError("a Python build script requires a file name; got one on stdin.", ExitCode.USAGE)
        source = _call_entry(path, entry)
    elif message is None and kind is InputKind.MLIR_TEXT:
        try:
            source = source.decode("utf-8")
        except UnicodeDecodeError as e:  # past the sniffed head
            message = wrong_kind(tool, path, InputKind.UNKNOWN, source[: e.end])
    if message is not None:
        raise ToolError(message, ExitCode.INPUT)
    try:
        return compiler.as_module(source)
    except HloMlirError as e:
        # As hlo-opt: a module that parses but fails an op verifier is a verification error.
        code = ExitCode.VERIFY if re.search(r": '[\w.]+' op ", str(e)) else ExitCode.INPUT
        raise ToolError(_rename_source(str(e), path), code) from None


def _call_entry(path: str, entry: str):
    """Runs the Python file ``path`` as a module and returns ``entry()``."""
    import traceback

    if not os.path.isfile(path):
        raise ToolError(f"could not read {path!r}: No such file or directory.", ExitCode.INPUT)
    name = "_hlo_compile_entry_" + os.path.splitext(os.path.basename(path))[0].replace("-", "_")
    # An explicit loader: a build script need not end in .py (input_kind knows it by content).
    spec = importlib.util.spec_from_file_location(name, path, loader=SourceFileLoader(name, path))
    if spec is None or spec.loader is None:  # (not for a path to a regular file)
        raise ToolError(f"could not load {path!r} as Python.", ExitCode.INPUT)
    module = importlib.util.module_from_spec(spec)
    folder = os.path.dirname(os.path.abspath(path))
    sys.path.insert(0, folder)
    enter_phase("build")  # a crash from here on is the user's code crashing, not IREE
    try:
        spec.loader.exec_module(module)
        fn: Callable | None = getattr(module, entry, None)
        if not callable(fn):
            raise ToolError(f"{path} has no function {entry!r} (choose one with --entry).", ExitCode.INPUT)
        computation = fn()
        enter_phase("compile")
        return computation
    except ToolError:
        raise
    except SystemExit as e:  # sys.exit() in the script: it ended before returning a computation
        raise ToolError(f"{path}: the build script exited (sys.exit({e.code!r})) before {entry}() returned a "
                        f"computation.", ExitCode.INPUT) from None
    except KeyboardInterrupt:
        raise
    except BaseException as e:  # noqa: BLE001 - any error in user code is an input error
        where = ""
        frames = [f for f in traceback.extract_tb(e.__traceback__)
                  if os.path.abspath(f.filename) == os.path.abspath(path)]
        if frames and not getattr(e, "location", None):
            where = f"{frames[-1].filename}:{frames[-1].lineno}: "
        message = f"{e} ({type(e).__name__} raised" if str(e) else f"{type(e).__name__} raised"
        raise ToolError(f"{where}{message} by {entry}() in {path})", ExitCode.INPUT) from None
    finally:
        if folder in sys.path:  # the script may have removed it itself
            sys.path.remove(folder)


def _run_passes(module, spec: str, input_path: str, options: dict | None = None) -> None:
    from hlo_mlir.errors import HloMlirError, InvalidArgumentError, VerificationError

    try:
        from hlo_mlir.compiler import run_passes  # run_pipeline as one timed stage
    except ImportError as e:
        raise ToolError(f"-p/--passes requires the pass pipelines (pipelines.pipeline): {e}",
                        ExitCode.USAGE) from None
    try:
        run_passes(module, spec, **(options or {}))
    except InvalidArgumentError as e:
        raise ToolError(str(e), ExitCode.USAGE) from None
    except VerificationError as e:
        raise ToolError(_rename_source(str(e), input_path), ExitCode.VERIFY) from None
    except HloMlirError as e:
        raise ToolError(_rename_source(str(e), input_path), ExitCode.FAILURE) from None


# --- isolation ---------------------------------------------------------------------------------
def _temp_pattern(output: str) -> str:
    """The glob of the temporary files ``artifacts`` makes for ``output`` and its manifest."""
    folder = os.path.dirname(os.path.abspath(output))
    return os.path.join(folder, "." + glob.escape(os.path.basename(output)) + "*.tmp")


if __name__ == "__main__":
    sys.exit(main())
