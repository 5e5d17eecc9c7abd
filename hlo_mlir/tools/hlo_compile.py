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
and exit code 5, and ``--timeout`` bounds the time.

The exit codes below are shared by hlo-opt, hlo-compile and hlo-run.
"""

from __future__ import annotations

import argparse
import glob
import importlib.util
import os
import re
import signal
import subprocess
import sys
from typing import Callable, Sequence

from hlo_mlir.tools import EXIT_CODES_HELP, ExitCode

__all__ = ["ExitCode", "EXIT_CODES_HELP", "ToolError", "parse_args", "main", "load_source", "run_isolated",
           "run_reporting", "report"]


TARGETS = ("llvm-cpu", "vulkan-spirv", "cuda")
_WORKER_FLAG = "--no-isolate"
_ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


class ToolError(Exception):
    """An error the tool reports as ``<tool>: error: <message>`` with exit code ``code``."""

    def __init__(self, message: str, code: ExitCode):
        super().__init__(message)
        self.code = code


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="hlo-compile", description=__doc__.split("\n\n")[0].split(": ", 1)[1],
        epilog=EXIT_CODES_HELP + "\n\nmanifest: written to <output>.manifest.json (see docs/deployment.md)",
        formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("input", help="a .mlir file (text or bytecode; '-': stdin) or a .py file with a builder")
    p.add_argument("-o", "--output", help="output .vmfb (default: the input's name with .vmfb)")
    p.add_argument("--target", default="llvm-cpu", choices=TARGETS, help="IREE target (default: llvm-cpu)")
    p.add_argument("-p", "--passes", metavar="PIPELINE", default="O2",
                   help="pass pipeline or preset run before compiling, e.g. O0, O1 or 'algsimp,cse,dce' "
                        "(default: O2, as hlo_mlir.compile)")
    p.add_argument("-X", "--iree-flag", dest="iree_flags", action="append", default=[], metavar="FLAG",
                   help="extra IREE compiler flag, e.g. -X=--iree-opt-level=O2 (repeatable)")
    p.add_argument("--entry", default="build",
                   help="for a .py input: the function to call, returning an XlaComputation (default: build)")
    p.add_argument("--no-manifest", action="store_true", help="do not write <output>.manifest.json")
    p.add_argument("--isolate", dest="isolate", action="store_true", default=True,
                   help="compile in a child process, so a compiler crash is an error (default)")
    p.add_argument("--no-isolate", dest="isolate", action="store_false", help="compile in this process")
    p.add_argument("--timeout", type=float, metavar="SECONDS",
                   help="with --isolate: stop a compile that takes longer than this")
    p.add_argument("-v", "--verbose", action="store_true", help="print what was written")
    return p


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


def report(tool: str, message: str) -> None:
    print(f"{tool}: error: {message}", file=sys.stderr)


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    try:
        args = parse_args(argv)
    except SystemExit as e:  # argparse: --help (0) or a usage error (2)
        return int(e.code or 0)
    if args.isolate:
        out = args.output or _default_output(args.input)
        return run_isolated("hlo-compile", "hlo_mlir.tools.hlo_compile", argv, args.timeout, ExitCode.COMPILE,
                            f"the IREE compiler (compiling {args.input!r} for {args.target})",
                            "This is an IREE defect; try other -X flags or passes, or rerun with "
                            "--no-isolate under a debugger.", cleanup=out and _temp_pattern(out))
    return run_reporting("hlo-compile", lambda: _compile_to_file(args) or ExitCode.OK)


def run_reporting(tool: str, work: Callable[[], int]) -> int:
    """``work()``'s exit code; a ToolError or Ctrl-C is reported as ``<tool>: error: ...``."""
    try:
        return work()
    except ToolError as e:
        report(tool, str(e))
        return e.code
    except KeyboardInterrupt:
        report(tool, "interrupted; no output written.")
        return ExitCode.INTERRUPTED


# --- the work ----------------------------------------------------------------------------------
def _default_output(path: str) -> str | None:
    if path == "-":
        return None
    return os.path.splitext(path)[0] + ".vmfb"


def _compile_to_file(args: argparse.Namespace) -> None:
    from hlo_mlir import artifacts, compiler
    from hlo_mlir.errors import CompileError, HloMlirError, VerificationError

    output = args.output or _default_output(args.input)
    if output is None:
        raise ToolError("reading stdin requires -o/--output.", ExitCode.USAGE)
    folder = os.path.dirname(os.path.abspath(output))
    if not os.path.isdir(folder):
        raise ToolError(f"cannot write {output!r}: folder {folder!r} does not exist.", ExitCode.INPUT)
    module = load_source(args.input, args.entry)
    if args.passes:
        _run_passes(module, args.passes, args.input)
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
                                           functions=artifacts.function_signatures(module), source=source)
    try:
        artifacts.save(output, vmfb, manifest)
    except OSError as e:
        raise ToolError(f"could not write {output!r}: {e.strerror}.", ExitCode.INPUT) from None
    if args.verbose:
        also = f" and {artifacts.manifest_path(output)}" if manifest else ""
        print(f"wrote {output} ({len(vmfb)} bytes){also}")


def _rename_source(message: str, path: str) -> str:
    """MLIR parsed from memory names its source "-"; put the user's file name there."""
    return message.replace('"-":', f"{path}:") if path != "-" else message


def load_source(path: str, entry: str = "build"):
    """An ``ir.Module`` from an ``.mlir`` file (text or bytecode, ``-`` for stdin) or from
    a Python file's builder function ``entry``. Raises ToolError (exit code 3)."""
    from hlo_mlir import compiler
    from hlo_mlir.errors import HloMlirError

    if path.endswith(".py"):
        source = _call_entry(path, entry)
    else:
        try:
            if path == "-":
                source = sys.stdin.buffer.read()
            else:
                with open(path, "rb") as f:
                    source = f.read()
        except OSError as e:
            raise ToolError(f"could not read {path!r}: {e.strerror}.", ExitCode.INPUT) from None
        if not source.startswith(b"ML\xefR"):  # MLIR bytecode magic; else text
            try:
                source = source.decode("utf-8")
            except UnicodeDecodeError:
                raise ToolError(f"{path}: neither MLIR text (not UTF-8) nor MLIR bytecode.",
                                ExitCode.INPUT) from None
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
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    folder = os.path.dirname(os.path.abspath(path))
    sys.path.insert(0, folder)
    try:
        spec.loader.exec_module(module)
        fn: Callable | None = getattr(module, entry, None)
        if not callable(fn):
            raise ToolError(f"{path} has no function {entry!r} (choose one with --entry).", ExitCode.INPUT)
        return fn()
    except ToolError:
        raise
    except Exception as e:  # noqa: BLE001 - any error in user code is an input error
        where = ""
        frames = [f for f in traceback.extract_tb(e.__traceback__)
                  if os.path.abspath(f.filename) == os.path.abspath(path)]
        if frames and not getattr(e, "location", None):
            where = f"{frames[-1].filename}:{frames[-1].lineno}: "
        raise ToolError(f"{where}{e} ({type(e).__name__} raised by {entry}() in {path})",
                        ExitCode.INPUT) from None
    finally:
        sys.path.remove(folder)


def _run_passes(module, spec: str, input_path: str) -> None:
    from hlo_mlir.errors import HloMlirError, InvalidArgumentError, VerificationError

    try:
        from pipelines.pipeline import run_pipeline
    except ImportError as e:
        raise ToolError(f"-p/--passes requires the pass pipelines (pipelines.pipeline): {e}",
                        ExitCode.USAGE) from None
    try:
        run_pipeline(module, spec)
    except InvalidArgumentError as e:
        raise ToolError(str(e), ExitCode.USAGE) from None
    except VerificationError as e:
        raise ToolError(_rename_source(str(e), input_path), ExitCode.VERIFY) from None
    except HloMlirError as e:
        raise ToolError(_rename_source(str(e), input_path), ExitCode.FAILURE) from None


# --- isolation ---------------------------------------------------------------------------------
def _temp_pattern(output: str) -> str:
    """The glob of the temporary files ``artifacts.write_atomic`` makes for ``output``."""
    folder = os.path.dirname(os.path.abspath(output))
    return os.path.join(folder, "." + glob.escape(os.path.basename(output)) + "*.tmp")


def run_isolated(tool: str, module: str, argv: Sequence[str], timeout: float | None, crash_code: ExitCode,
                 what: str, hint: str, cleanup: str | None = None) -> int:
    """Re-runs ``python -m module argv --no-isolate`` in a child process and returns its
    exit code. stdout/stderr pass through. A child killed by a signal (a crash) or
    running past ``timeout`` is reported as an error with ``crash_code``; on Ctrl-C the
    child is stopped. ``hint`` ends the crash message. ``cleanup`` is a glob of temporary
    files to remove after a crash."""
    env = dict(os.environ)
    env["PYTHONPATH"] = _ROOT + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    sys.stdout.flush()
    sys.stderr.flush()
    proc = subprocess.Popen([sys.executable, "-m", module, *argv, _WORKER_FLAG], env=env)
    try:
        rc = proc.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        _stop(proc)
        _remove(cleanup)
        report(tool, f"{what} did not finish within {timeout:g} s; stopped it. No output written.")
        return crash_code
    except KeyboardInterrupt:
        _stop(proc)
        _remove(cleanup)
        report(tool, "interrupted; no output written.")
        return ExitCode.INTERRUPTED
    if rc < 0:
        _remove(cleanup)
        if -rc == signal.SIGINT:
            report(tool, "interrupted; no output written.")
            return ExitCode.INTERRUPTED
        report(tool, f"{what} crashed ({_signal_name(-rc)}) in a child process; no output written. {hint}")
        return crash_code
    return rc


def _signal_name(number: int) -> str:
    try:
        return signal.Signals(number).name
    except ValueError:
        return f"signal {number}"


def _stop(proc: subprocess.Popen) -> None:
    """Asks the child to stop (SIGINT: it cleans up its temporary files), then kills it."""
    if proc.poll() is None:
        proc.send_signal(signal.SIGINT)
        try:
            proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def _remove(pattern: str | None) -> None:
    if not pattern:
        return
    for path in glob.glob(pattern):
        try:
            os.unlink(path)
        except OSError:
            pass


if __name__ == "__main__":
    sys.exit(main())
