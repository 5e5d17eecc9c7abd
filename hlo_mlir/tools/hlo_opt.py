"""hlo-opt: run hlo-mlir passes over StableHLO MLIR, with mlir-opt's conventions.

    hlo-opt input.mlir -p algsimp,cse,dce -o out.mlir
    hlo-opt - -p 'fixed-point{max-iterations=4}(algsimp,dce)' < in.mlir
    hlo-opt in.mlirbc -p O2 --emit-bytecode -o out.mlirbc
    hlo-opt in.mlir -p O2 --mlir-print-ir-after=algsimp --mlir-timing
    hlo-opt in.mlir --split-input-file --verify-diagnostics
    hlo-opt --list-passes

The input is MLIR text or bytecode (``-``: stdin); a file of another kind (a vmfb, a
Python build script, a ``.npy`` array) is refused with one line naming the tool that
takes it (``hlo_mlir.tools.input_kind``). Flags are spelled as mlir-opt spells them
(``--mlir-print-ir-after-all``, ``--mlir-timing``, ``--mlir-pass-statistics``, ...); the
short forms hlo-opt had first (``--print-ir-after-all``, ``--timing``, ``--statistics``)
stay as aliases. ``add_pipeline_flags`` and ``pipeline_options`` give hlo-compile the same.

``parse_args(argv)`` -> ``main(argv) -> int``; the output is written only on success.
"""

from __future__ import annotations

import argparse
import re
import sys
from dataclasses import dataclass, field

from hlo_mlir.tools import ExitCode, ToolParser, exit_codes_help, usage_message
from hlo_mlir.tools.graph_dumps import add_graph_flags, check_graph_flags, finish_graphs, module_dumps
from hlo_mlir.tools.input_kind import HEAD_BYTES, InputKind, sniff, wrong_kind
from hlo_mlir.tools.isolation import ToolError, run_reporting

__all__ = ["main", "parse_args", "list_passes", "add_pipeline_flags", "pipeline_options"]

_EPILOG = """\
input: MLIR text or bytecode, from a file or from stdin (- or no input argument).
output: MLIR text, or MLIR bytecode with --emit-bytecode (to -o FILE or a pipe, never to a
terminal); with --split-input-file the chunks' outputs are joined by '// -----' lines.

pipeline spec: comma-separated pass names (or their aliases: spec 004's names, shown by
--list-passes) with options in braces, presets (O0, O1, O2) expanded in place, and
fixed-point groups:
  algsimp{max-iterations=3},cse,dce
  O2
  fixed-point{max-iterations=8}(algsimp,constant-folding,cse,dce)

IR dumps, timing and statistics reports go to stderr.

""" + exit_codes_help("hlo-opt")

_SPLIT_MARKER = re.compile(r"^// -----[ \t]*$", re.MULTILINE)  # not \s: it would eat the next line
_EXPECTED = re.compile(
    r"expected-(error|warning|note|remark)\s*(?:@(?:([+-]\d+)|(above|below|unknown)))?\s*\{\{(.*?)\}\}"
)
_LOCATED = re.compile(r"^(?P<file>.*?):(?P<line>\d+):(?P<col>\d+): (?P<msg>.*)$", re.DOTALL)


class _Parser(ToolParser):
    def error(self, message):  # argparse's default exits with 2 as well, but via SystemExit
        self.print_usage(sys.stderr)
        raise _UsageError(usage_message(self, message))


class _UsageError(Exception):
    pass


def add_pipeline_flags(p: argparse.ArgumentParser, *, timing: bool = True) -> None:
    """mlir-opt's flags for IR dumps, timing and statistics of a pass pipeline, spelled as
    mlir-opt spells them, each with its short form as an alias (hlo-opt and hlo-compile;
    ``timing=False`` leaves out ``--mlir-timing`` for a tool that times more than passes)."""
    what = "IR dumps, timing and statistics" if timing else "IR dumps and statistics"
    g = p.add_argument_group(f"{what} of the pass pipeline (mlir-opt's flags; on stderr)")

    def flag(*names: str, **kwargs) -> None:
        g.add_argument(*names, **kwargs)

    flag("--mlir-print-ir-before-all", "--print-ir-before-all", dest="print_ir_before_all",
         action="store_true", help="print the IR before every pass")
    flag("--mlir-print-ir-after-all", "--print-ir-after-all", dest="print_ir_after_all",
         action="store_true", help="print the IR after every pass")
    flag("--mlir-print-ir-before", "--print-ir-before", dest="print_ir_before", action="append", default=[],
         metavar="PASS[,PASS...]", help="print the IR before the named passes (repeatable)")
    flag("--mlir-print-ir-after", "--print-ir-after", dest="print_ir_after", action="append", default=[],
         metavar="PASS[,PASS...]", help="print the IR after the named passes (repeatable)")
    flag("--mlir-print-ir-after-change", "--print-ir-after-change", dest="print_ir_after_change",
         action="store_true",
         help="print the IR after a pass only when the pass changed it (alone: after every pass that did)")
    flag("--mlir-print-debuginfo", "--print-debuginfo", dest="mlir_print_debuginfo", action="store_true",
         help="print locations in the IR dumps" + (" and in the output" if p.prog == "hlo-opt" else ""))
    if timing:
        flag("--mlir-timing", "--timing", dest="timing", action="store_true",
             help="report the time spent in each pass")
    flag("--mlir-pass-statistics", "--pass-statistics", "--statistics", dest="statistics",
         action="store_true", help="report how often each rewrite fired, per pass")


def pipeline_options(args: argparse.Namespace) -> dict:
    """``run_pipeline`` keyword arguments from the flags of :func:`add_pipeline_flags`; pass
    names resolved through the registry (aliases included). Raises InvalidArgumentError for
    an unknown pass name."""
    from pipelines import registry

    def names(values: list[str]) -> frozenset[str]:
        return frozenset(registry.get(n.strip()).name for v in values for n in v.split(",") if n.strip())

    return {
        "print_ir_before_all": args.print_ir_before_all,
        "print_ir_after_all": args.print_ir_after_all,
        "print_ir_before": names(args.print_ir_before),
        "print_ir_after": names(args.print_ir_after),
        "print_ir_after_change": args.print_ir_after_change,
        "print_debuginfo": args.mlir_print_debuginfo,
        "statistics": args.statistics,
    }


def _build_parser() -> argparse.ArgumentParser:
    p = _Parser(
        prog="hlo-opt",
        description="Runs hlo-mlir passes over StableHLO MLIR (like mlir-opt).",
        epilog=_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("input", nargs="?", default="-",
                   help="input MLIR file (text or bytecode), or - for stdin (default)")
    p.add_argument("-o", dest="output", default="-", help="output file (default: stdout)")
    group = p.add_mutually_exclusive_group()
    group.add_argument("-p", "--passes", default="", help="hlo-mlir pipeline spec (see below)")
    group.add_argument(
        "--pass-pipeline", default="", help="raw MLIR pass pipeline, e.g. 'builtin.module(cse,canonicalize)'"
    )
    p.add_argument("--emit-bytecode", action="store_true", help="write MLIR bytecode instead of text")
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
    add_pipeline_flags(p)
    add_graph_flags(p)
    return p


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    """Parses hlo-opt's command line (raises _UsageError on bad arguments)."""
    return _build_parser().parse_args(argv)


_NAME_COLUMN_MAX = 36  # a longer name gets a line of its own, its summary below (as mlir-opt)


def _columns(rows: list[tuple[str, str]], width: int) -> list[str]:
    """``  name  summary`` lines, summaries aligned at ``width``."""
    lines = []
    for name, text in rows:
        if len(name) > width:
            lines += [f"  {name}", f"  {'':<{width}}  {text}"]
        else:
            lines.append(f"  {name:<{width}}  {text}")
    return lines


def list_passes() -> str:
    """What ``--list-passes`` prints: passes (options indented below), presets, groups."""
    from pipelines import registry
    from pipelines.presets import PRESETS

    passes = registry.all_passes()
    groups = [("fixed-point{max-iterations=N}(...)", "rerun the group until nothing changes (default N=8)")]
    width = min(max(len(name) for name in [*passes, *PRESETS, *(g for g, _ in groups)]), _NAME_COLUMN_MAX)
    lines = ["Passes:"]
    for name, cls in passes.items():
        also = f" (also: {', '.join(cls.aliases)})" if cls.aliases else ""
        lines += _columns([(name, cls.summary() + also)], width)
        for opt in cls.options():
            help_text = f"  {opt.help}" if opt.help else ""
            lines.append(f"      {opt.name}={opt.type.__name__} (default {opt.default}){help_text}")
    lines.append("Presets:")
    lines += _columns([(p.name, f"{p.summary}: {p.spec or '(empty)'}") for p in PRESETS.values()], width)
    lines.append("Groups:")
    lines += _columns(groups, width)
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
    output: str | bytes = ""  # MLIR text, or bytecode with --emit-bytecode
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


def _process_chunk(text: str | bytes, filename: str, args) -> _ChunkResult:
    """Parses one module (MLIR text, or bytecode as bytes), runs the pipeline, prints it."""
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
        dumps = module_dumps(module, args)  # --dump-graph-dir
        try:
            if args.passes:
                run_pipeline(
                    module,
                    args.passes,
                    verify_each=args.verify_each,
                    verify_hlo=args.verify_hlo,
                    timing=args.timing,
                    semantics_checker=_semantics_checker(args),
                    out=sys.stderr,
                    before_pass=dumps.before_pass if dumps is not None else None,
                    **args.pipeline_options,
                )
            else:  # run_pipeline checks its input; here the parser's verifier ran, but it
                # accepts operations of unregistered dialects (hlo_mlir.context): refuse them
                verify_module(module, "the input module fails verification")
                if args.pass_pipeline:
                    _run_raw_pipeline(module, args.pass_pipeline)
            finish_graphs(module, args, dumps)  # --dump-graph, the last --dump-graph-dir file
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
        if args.emit_bytecode:
            from hlo_mlir.context import bytecode

            result.output = bytecode(module)
        else:
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
    return run_reporting("hlo-opt", lambda: _run(args))


def _check_usage(args) -> None:
    """Raises ToolError (usage) for a bad pipeline, pass name or flag combination, before
    the input is read."""
    from hlo_mlir.errors import InvalidArgumentError
    from pipelines.pipeline import parse_pipeline

    try:
        if args.passes:
            parse_pipeline(args.passes)
        args.pipeline_options = pipeline_options(args)
    except InvalidArgumentError as e:
        raise ToolError(str(e), ExitCode.USAGE) from None
    if args.pass_pipeline:
        from iree.compiler import passmanager

        from hlo_mlir.context import get_context

        try:
            with get_context():
                passmanager.PassManager.parse(args.pass_pipeline)
        except ValueError as e:
            raise ToolError(f"invalid --pass-pipeline: {e}", ExitCode.USAGE) from None
    if args.emit_bytecode and args.split_input_file:
        raise ToolError("--emit-bytecode requires one module; got --split-input-file (bytecode has no "
                        "'// -----' separator).", ExitCode.USAGE)
    if args.emit_bytecode and args.output == "-" and sys.stdout.isatty():
        raise ToolError("--emit-bytecode writes binary data, not to a terminal; give -o FILE or pipe "
                        "the output.", ExitCode.USAGE)
    check_graph_flags(args)


def _read_input(args) -> tuple[str | bytes, str]:
    """(MLIR text, or bytecode as bytes; the name diagnostics show). Raises ToolError (input
    error) for an unreadable file or one of another kind, naming the tool that takes it."""
    filename = "<stdin>" if args.input == "-" else args.input
    try:
        if args.input == "-":
            raw = sys.stdin.buffer.read()
        else:
            with open(args.input, "rb") as f:
                raw = f.read()
    except OSError as e:
        raise ToolError(f"cannot read {filename}: {e.strerror}", ExitCode.INPUT) from None
    kind = sniff(raw[:HEAD_BYTES], args.input)
    message = wrong_kind("hlo-opt", filename, kind, raw[:HEAD_BYTES])
    if message is None and kind is InputKind.MLIR_TEXT:
        try:
            return raw.decode("utf-8"), filename
        except UnicodeDecodeError as e:  # past the sniffed head
            message = wrong_kind("hlo-opt", filename, InputKind.UNKNOWN, raw[: e.end])
    if message is not None:
        raise ToolError(message, ExitCode.INPUT)
    for flag, used in (("--split-input-file", args.split_input_file),
                       ("--verify-diagnostics", args.verify_diagnostics)):
        if used:
            raise ToolError(f"{flag} requires MLIR text; got MLIR bytecode ({filename}).", ExitCode.USAGE)
    return raw, filename


def _run(args) -> int:
    _check_usage(args)
    text, filename = _read_input(args)
    outputs: list[str | bytes] = []
    code: int = ExitCode.OK
    chunks = _split(text, args.split_input_file) if isinstance(text, str) else [(text, 0)]
    for chunk, line_offset in chunks:
        padded = "\n" * line_offset + chunk if isinstance(chunk, str) else chunk
        try:
            result = _process_chunk(padded, filename, args)
        except _RawPipelineError as e:
            raise ToolError(str(e), ExitCode.USAGE) from None
        if args.verify_diagnostics:
            assert isinstance(chunk, str)  # _read_input refuses bytecode with --verify-diagnostics
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
    data = outputs[0] if args.emit_bytecode else "// -----\n".join(str(o) for o in outputs)
    if args.output == "-":
        if isinstance(data, str):
            sys.stdout.write(data)
        else:  # bytecode: binary, through the byte stream under stdout
            sys.stdout.flush()
            sys.stdout.buffer.write(data)
            sys.stdout.buffer.flush()
    else:
        from hlo_mlir import artifacts

        try:
            artifacts.write_atomic(args.output, data.encode("utf-8") if isinstance(data, str) else data)
        except OSError as e:
            raise ToolError(f"cannot write {args.output}: {e.strerror}", ExitCode.INPUT) from None
    return ExitCode.OK


if __name__ == "__main__":
    sys.exit(main())
