"""hlo-opt: run hlo-mlir passes over StableHLO MLIR, with mlir-opt's conventions.

    hlo-opt input.mlir -p algsimp,cse,dce -o out.mlir
    hlo-opt - -p 'fixed-point{max-iterations=4}(algsimp,dce)' < in.mlir
    hlo-opt in.mlir --split-input-file --verify-diagnostics
    hlo-opt --list-passes

``parse_args(argv)`` -> ``main(argv) -> int``; the output is written only on success.
"""

from __future__ import annotations

import argparse
import re
import sys
from dataclasses import dataclass, field

from hlo_mlir.tools import ExitCode

__all__ = ["main", "parse_args"]

_EPILOG = """\
pipeline spec: comma-separated pass names (or their aliases: spec 004's names, shown by
--list-passes) with options in braces, presets (O0, O1, O2) expanded in place, and
fixed-point groups:
  algsimp{max-iterations=3},cse,dce
  O2
  fixed-point{max-iterations=8}(algsimp,constant-folding,cse,dce)

exit codes:
  0  success
  1  a pass failed, or --verify-semantics found different results (names the pass)
  2  usage error: bad arguments, unknown pass, bad pass option
  3  the input could not be read or is not valid MLIR syntax
  4  the input or a pass's output fails verification; with --verify-diagnostics,
     the diagnostics did not match the expected-* comments
"""

_SPLIT_MARKER = re.compile(r"^// -----[ \t]*$", re.MULTILINE)  # not \s: it would eat the next line
_EXPECTED = re.compile(
    r"expected-(error|warning|note|remark)\s*(?:@(?:([+-]\d+)|(above|below|unknown)))?\s*\{\{(.*?)\}\}"
)
_LOCATED = re.compile(r"^(?P<file>.*?):(?P<line>\d+):(?P<col>\d+): (?P<msg>.*)$", re.DOTALL)


class _Parser(argparse.ArgumentParser):
    def error(self, message):  # argparse's default exits with 2 as well, but via SystemExit
        self.print_usage(sys.stderr)
        raise _UsageError(message)


class _UsageError(Exception):
    pass


def _build_parser() -> argparse.ArgumentParser:
    p = _Parser(
        prog="hlo-opt",
        description="Runs hlo-mlir passes over StableHLO MLIR (like mlir-opt).",
        epilog=_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("input", nargs="?", default="-", help="input .mlir file, or - for stdin (default)")
    p.add_argument("-o", dest="output", default="-", help="output file (default: stdout)")
    group = p.add_mutually_exclusive_group()
    group.add_argument("-p", "--passes", default="", help="hlo-mlir pipeline spec (see below)")
    group.add_argument(
        "--pass-pipeline", default="", help="raw MLIR pass pipeline, e.g. 'builtin.module(cse,canonicalize)'"
    )
    p.add_argument(
        "--split-input-file",
        action="store_true",
        help="process each chunk separated by '// -----' on its own",
    )
    p.add_argument(
        "--verify-diagnostics",
        action="store_true",
        help="check diagnostics against '// expected-error @+1 {{...}}' comments",
    )
    p.add_argument("--list-passes", action="store_true", help="list passes, their options and presets")
    p.add_argument("--print-ir-before-all", action="store_true", help="print the IR before every pass")
    p.add_argument("--print-ir-after-all", action="store_true", help="print the IR after every pass")
    p.add_argument(
        "--print-ir-after-change", action="store_true", help="print the IR after every pass that changed it"
    )
    p.add_argument("--timing", action="store_true", help="report time per pass (stderr)")
    p.add_argument(
        "--statistics",
        "--pass-statistics",
        dest="statistics",
        action="store_true",
        help="report how often each rewrite fired (stderr)",
    )
    p.add_argument("--mlir-print-debuginfo", action="store_true", help="print locations in the output")
    p.add_argument(
        "--verify-semantics",
        action="store_true",
        help="compile and run on CPU after each pass; fail if results change",
    )
    p.add_argument(
        "--verify-each",
        dest="verify_hlo",
        action="store_true",
        help="also check XLA's invariants (the hlo-verifier pass) on the input and after each pass",
    )
    p.add_argument(
        "--no-verify-each",
        dest="verify_each",
        action="store_false",
        help="do not verify the module after each pass",
    )
    return p


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    """Parses hlo-opt's command line (raises _UsageError on bad arguments)."""
    return _build_parser().parse_args(argv)


def list_passes() -> str:
    from pipelines import registry
    from pipelines.presets import PRESETS

    lines = ["Passes:"]
    for name, cls in registry.all_passes().items():
        also = f" (also: {', '.join(cls.aliases)})" if cls.aliases else ""
        lines.append(f"  {name:<20} {cls.summary()}{also}")
        for opt in cls.options():
            help_text = f"  {opt.help}" if opt.help else ""
            lines.append(f"      {opt.name}={opt.type.__name__} (default {opt.default}){help_text}")
    lines.append("Presets:")
    lines += [f"  {p.name:<20} {p.summary}: {p.spec or '(empty)'}" for p in PRESETS.values()]
    lines.append("Groups:")
    lines.append("  fixed-point{max-iterations=N}(...)  rerun the group until nothing changes (default N=8)")
    return "\n".join(lines) + "\n"


# --- diagnostics ---------------------------------------------------------------------------
@dataclass
class _Diagnostic:
    severity: str
    line: int | None
    text: str  # as shown to the user (file:line:col: severity: message)
    message: str


@dataclass
class _ChunkResult:
    code: int = ExitCode.OK
    output: str = ""
    diagnostics: list[_Diagnostic] = field(default_factory=list)


def _located(filename: str, severity: str, raw: str) -> _Diagnostic:
    """A diagnostic from ``"-:3:8: message"`` text (our verifier format) or plain text."""
    first, _, rest = raw.partition("\n")
    m = _LOCATED.match(first)
    if m:
        file = filename if m.group("file") in ("-", "") else m.group("file")
        msg = m.group("msg")
        text = f"{file}:{m.group('line')}:{m.group('col')}: {severity}: {msg}"
        rest = rest.replace("note: -:", f"note: {filename}:")
        return _Diagnostic(severity, int(m.group("line")), text + ("\n" + rest if rest else ""), msg)
    return _Diagnostic(severity, None, f"{filename}: {severity}: {raw}", first)


def _parse_error_code(messages: list[str]) -> int:
    # The parser also verifies: op verifier messages read "'<op>' op ...".
    return (
        ExitCode.VERIFY
        if messages and all(re.search(r": '[\w.]+' op ", m) for m in messages)
        else ExitCode.INPUT
    )


def _semantics_checker(args):
    """``SemanticsChecker`` under ``--verify-semantics``, else None: it compiles and runs, so
    the compiler and the runtime load only when asked for."""
    if not args.verify_semantics:
        return None
    from hlo_mlir.semantics import SemanticsChecker

    return SemanticsChecker


def _process_chunk(text: str, filename: str, args) -> _ChunkResult:
    from iree.compiler import ir

    from hlo_mlir.context import get_context, verify_module
    from hlo_mlir.errors import HloMlirError, VerificationError
    from pipelines.pipeline import format_diagnostic, run_pipeline

    result = _ChunkResult()
    ctx = get_context()
    with ctx:
        try:
            module = ir.Module.parse(text, context=ctx)
        except ir.MLIRError as e:
            messages = [format_diagnostic(d) for d in e.error_diagnostics] or [str(e)]
            result.diagnostics = [_located(filename, "error", m) for m in messages]
            result.code = _parse_error_code(messages)
            return result
        try:
            if args.passes:
                run_pipeline(
                    module,
                    args.passes,
                    verify_each=args.verify_each,
                    verify_hlo=args.verify_hlo,
                    print_ir_after_all=args.print_ir_after_all,
                    print_ir_after_change=args.print_ir_after_change,
                    print_ir_before_all=args.print_ir_before_all,
                    timing=args.timing,
                    statistics=args.statistics,
                    semantics_checker=_semantics_checker(args),
                    print_debuginfo=args.mlir_print_debuginfo,
                    out=sys.stderr,
                )
            else:  # run_pipeline checks its input; here the parser's verifier ran, but it
                # accepts operations of unregistered dialects (hlo_mlir.context): refuse them
                verify_module(module, "the input module fails verification")
                if args.pass_pipeline:
                    _run_raw_pipeline(module, args.pass_pipeline)
        except VerificationError as e:
            head = e.message.splitlines()[0]
            result.diagnostics = [_located(filename, "error", m) for m in e.diagnostics] or [
                _located(filename, "error", head)
            ]
            result.diagnostics.insert(0, _Diagnostic("error", None, f"{filename}: error: {head}", head))
            result.code = ExitCode.VERIFY
            return result
        except HloMlirError as e:
            result.diagnostics = [_located(filename, "error", str(e))]
            result.code = ExitCode.FAILURE
            return result
        result.output = module.operation.get_asm(enable_debug_info=args.mlir_print_debuginfo)
    return result


class _RawPipelineError(Exception):
    pass


def _run_raw_pipeline(module, pipeline: str) -> None:
    from iree.compiler import ir, passmanager

    from hlo_mlir.errors import HloMlirError
    from pipelines.pipeline import format_diagnostic

    try:
        pm = passmanager.PassManager.parse(pipeline)
    except ValueError as e:
        raise _RawPipelineError(str(e)) from None
    messages: list[str] = []

    def collect(diagnostic) -> bool:
        messages.append(format_diagnostic(diagnostic))
        return True  # handled

    handler = module.context.attach_diagnostic_handler(collect)
    try:
        pm.run(module.operation)
    except ir.MLIRError as e:
        raise HloMlirError(
            f"pass pipeline '{pipeline}' failed:\n  " + "\n  ".join(messages or [str(e)])
        ) from None
    finally:
        handler.detach()


def _expectations(text: str, line_offset: int) -> list[tuple[str, int | None, str]]:
    out = []
    for i, line in enumerate(text.splitlines(), start=1):
        for m in _EXPECTED.finditer(line):
            kind, offset, where, message = m.groups()
            # @+N/@-N, @above, @below: relative lines; @unknown: a diagnostic without a line
            target = i + line_offset + (int(offset) if offset else {"above": -1, "below": 1}.get(where, 0))
            out.append((kind, None if where == "unknown" else target, message))
    return out


def _check_diagnostics(chunk: str, result: _ChunkResult, filename: str, line_offset: int) -> list[str]:
    """Errors (as text) where the produced diagnostics and the expected-* comments differ."""
    expected = _expectations(chunk, line_offset)
    unmatched = list(expected)
    problems = []
    for d in result.diagnostics:
        if (
            d.line is None
            and d.message.startswith(("pass '", "the input module"))
            and any(x.line is not None for x in result.diagnostics)
        ):
            continue  # the summary line of located verifier diagnostics
        hit = next(
            (e for e in unmatched if e[0] == d.severity and e[1] == d.line and e[2] in d.message), None
        )
        if hit is None:
            problems.append(f"unexpected {d.severity}: {d.text}")
        else:
            unmatched.remove(hit)
    for kind, line, message in unmatched:
        where = f"{filename}:{line}" if line is not None else f"{filename} (unknown location)"
        problems.append(f'{where}: expected {kind} "{message}" was not produced')
    return problems


def _split(text: str, split: bool) -> list[tuple[str, int]]:
    """(chunk, number of lines before it) pairs; each chunk is padded so lines keep numbers."""
    if not split:
        return [(text, 0)]
    chunks, offset, start = [], 0, 0
    for m in _SPLIT_MARKER.finditer(text):
        part = text[start : m.start()]
        chunks.append((part, offset))
        offset += part.count("\n") + 1
        start = m.end() + 1
    chunks.append((text[start:], offset))
    return chunks


def main(argv: list[str] | None = None) -> int:
    try:
        args = parse_args(argv)
    except _UsageError as e:
        print(f"hlo-opt: error: {e}", file=sys.stderr)
        return ExitCode.USAGE
    except SystemExit as e:  # --help
        return int(e.code or 0)
    if args.list_passes:
        sys.stdout.write(list_passes())
        return ExitCode.OK
    from hlo_mlir.errors import InvalidArgumentError
    from pipelines.pipeline import parse_pipeline

    if args.passes:
        try:
            parse_pipeline(args.passes)
        except InvalidArgumentError as e:
            print(f"hlo-opt: error: {e}", file=sys.stderr)
            return ExitCode.USAGE
    if args.pass_pipeline:
        from iree.compiler import passmanager

        from hlo_mlir.context import get_context

        try:
            with get_context():
                passmanager.PassManager.parse(args.pass_pipeline)
        except ValueError as e:
            print(f"hlo-opt: error: invalid --pass-pipeline: {e}", file=sys.stderr)
            return ExitCode.USAGE
    filename = "<stdin>" if args.input == "-" else args.input
    try:
        if args.input == "-":
            raw = sys.stdin.buffer.read()
        else:
            with open(args.input, "rb") as f:
                raw = f.read()
        text = raw.decode("utf-8")
    except OSError as e:
        print(f"hlo-opt: error: cannot read {filename}: {e.strerror}", file=sys.stderr)
        return ExitCode.INPUT
    except UnicodeDecodeError as e:
        what = "MLIR bytecode; hlo-opt reads MLIR text" if raw.startswith(b"ML\xefR") else \
            f"not UTF-8 text (byte {e.start})"
        print(f"hlo-opt: error: cannot read {filename}: {what}", file=sys.stderr)
        return ExitCode.INPUT

    outputs: list[str] = []
    code: int = ExitCode.OK
    for chunk, line_offset in _split(text, args.split_input_file):
        padded = "\n" * line_offset + chunk
        try:
            result = _process_chunk(padded, filename, args)
        except _RawPipelineError as e:
            print(f"hlo-opt: error: {e}", file=sys.stderr)
            return ExitCode.USAGE
        if args.verify_diagnostics:
            problems = _check_diagnostics(chunk, result, filename, line_offset)
            for p in problems:
                print(p, file=sys.stderr)
            if problems:
                code = code or ExitCode.VERIFY
        else:
            for d in result.diagnostics:
                print(d.text, file=sys.stderr)
            code = code or result.code
        if result.code == ExitCode.OK:
            outputs.append(result.output)
    if code != ExitCode.OK:
        return code
    data = "// -----\n".join(outputs)
    if args.output == "-":
        sys.stdout.write(data)
    else:
        from hlo_mlir import artifacts

        try:
            artifacts.write_atomic(args.output, data.encode("utf-8"))  # never a partial file
        except OSError as e:
            print(f"hlo-opt: error: cannot write {args.output}: {e.strerror}", file=sys.stderr)
            return ExitCode.USAGE
    return ExitCode.OK


if __name__ == "__main__":
    sys.exit(main())
