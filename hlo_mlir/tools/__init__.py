"""Command-line tools: hlo-opt, hlo-compile, hlo-run.

They share one set of exit codes (:class:`ExitCode`); each ``--help`` shows the codes that
tool returns (:func:`exit_codes_help`), docs/deployment.md the whole table.

The tools are the top layer, and the only code that imports inside functions: each
imports the compiler, the runtime or the passes after parsing its arguments, where the
work needs them, so ``--help`` and usage errors answer at once (well under 0.3 s) and
``hlo-run model.vmfb`` runs where only the runtime is installed.
"""

import argparse
import ast
import enum
import re
from typing import NoReturn

from hlo_mlir.errors import did_you_mean

__all__ = ["ExitCode", "EXIT_CODES_HELP", "exit_codes_help", "ToolParser", "usage_message"]


class ExitCode(enum.IntEnum):
    OK = 0
    FAILURE = 1  # hlo-run: results differ from --expected_output; a pass failed
    USAGE = 2  # bad command line: unknown option, bad --input syntax or shape, unknown pass
    INPUT = 3  # missing/unreadable/unwritable file, malformed MLIR, bad Python entry (or its crash), bad vmfb
    VERIFY = 4  # the module failed MLIR verification (before or after a pass)
    COMPILE = 5  # IREE failed to compile, the compiler process crashed or timed out
    RUNTIME = 6  # the IREE runtime failed or crashed while running a function
    INTERRUPTED = 130  # Ctrl-C (SIGINT); no output file was written


_OPT, _COMPILE, _RUN = "hlo-opt", "hlo-compile", "hlo-run"
_ALL = (_OPT, _COMPILE, _RUN)
# The one exit-code table: per code, its title and what it covers, each clause with the
# tools it applies to (a tool's --help shows its own clauses; docs/deployment.md the table).
_EXIT_CODE_ROWS: tuple[tuple[int, str, tuple[tuple[tuple[str, ...], str], ...]], ...] = (
    (ExitCode.OK, "success", ()),
    (ExitCode.FAILURE, "failure", (
        ((_RUN,), "outputs differ from --expected_output"),
        ((_OPT, _COMPILE), "a pass failed"),
        ((_OPT,), "--verify-semantics found different results (names the pass)"),
    )),
    (ExitCode.USAGE, "usage error", (
        (_ALL, "bad option"),
        ((_OPT, _COMPILE), "unknown pass or preset, bad pass option"),
        ((_COMPILE, _RUN), "a compile flag IREE rejects"),
        ((_RUN,), "bad --input syntax, an --input that does not fit the function's signature "
                  "(count, element type, shape), an unknown --function, an --output or "
                  "--expected_output count that does not fit the results, a --device that cannot "
                  "run the vmfb"),
    )),
    (ExitCode.INPUT, "input error", (
        (_ALL, "missing or unreadable file, a file of a kind the tool does not read (the error "
               "says which tool does), empty or malformed MLIR (with its file:line:col)"),
        ((_COMPILE,), "bad Python entry (or one that exits or crashes)"),
        ((_RUN,), "corrupted vmfb, vmfb that does not match its manifest"),
        (_ALL, "an output file that cannot be written"),
    )),
    (ExitCode.VERIFY, "verification error", (
        (_ALL, "the module failed MLIR verification"),
        ((_OPT,), "with --verify-diagnostics, diagnostics that differ from the expected-* comments"),
    )),
    (ExitCode.COMPILE, "compile error", (
        ((_COMPILE, _RUN), "IREE rejected the module, or the compiler crashed or timed out"),
    )),
    (ExitCode.RUNTIME, "runtime error", (((_RUN,), "the IREE runtime failed or crashed"),)),
    (ExitCode.INTERRUPTED, "interrupted (Ctrl-C)", ((_ALL, "no output file was written"),)),
)


def exit_codes_help(tool: str | None = None) -> str:
    """The exit-code table as ``--help`` shows it: the codes ``tool`` returns with the
    clauses that apply to it (``None``: every tool, each clause tagged with its tools)."""
    import textwrap

    lines = ["exit codes:"]
    for code, title, clauses in _EXIT_CODE_ROWS:
        mine = [(tools, text) for tools, text in clauses if tool is None or tool in tools]
        if clauses and not mine:
            continue  # a code this tool never returns
        parts = [text if tool is not None or tools == _ALL else f"{text} ({', '.join(tools)})"
                 for tools, text in mine]
        body = f"{title}: {'; '.join(parts)}" if parts else title
        lines += textwrap.wrap(body, 88, initial_indent=f"  {int(code):<4} ", subsequent_indent=" " * 7,
                               break_on_hyphens=False)
    lines.append("  (the table for all three tools: docs/deployment.md, section Exit codes)")
    return "\n".join(lines)


EXIT_CODES_HELP = exit_codes_help()


# argparse's "argument --target: invalid choice: 'x' (choose from ...)"; the value is its repr().
_INVALID_CHOICE = re.compile(
    r"argument (?P<argument>.+?): invalid choice: (?P<value>'(?:[^'\\]|\\.)*'|\"(?:[^\"\\]|\\.)*\")")


def usage_message(parser: argparse.ArgumentParser, message: str) -> str:
    """argparse's usage-error ``message`` with a did-you-mean (argparse of Python 3.11 has
    none): the closest flag to the first unrecognized one, or the closest valid value of an
    invalid choice (``--target llvm_cpu`` -> ``llvm-cpu``)."""
    suggestion = ""
    if message.startswith("unrecognized arguments: "):
        flags = [a for a in parser._actions if a.help != argparse.SUPPRESS]
        names = [name for action in flags for name in action.option_strings]
        words = message.split(": ", 1)[1].split()
        suggestion = next(filter(None, (did_you_mean(w.split("=", 1)[0], names)
                                        for w in words if w.startswith("-"))), "")
    elif match := _INVALID_CHOICE.match(message):
        argument, value = match["argument"], ast.literal_eval(match["value"])
        for action in parser._actions:
            if action.choices and argument in ("/".join(action.option_strings), action.metavar, action.dest):
                suggestion = did_you_mean(value, [str(c) for c in action.choices])
    return message + suggestion


class ToolParser(argparse.ArgumentParser):
    """The tools' argparse parser: a usage error suggests the closest flag or value
    (:func:`usage_message`), then exits with ExitCode.USAGE (2) as argparse does."""

    def error(self, message: str) -> NoReturn:
        super().error(usage_message(self, message))
