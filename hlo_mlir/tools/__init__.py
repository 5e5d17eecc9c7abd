"""Command-line tools: hlo-opt, hlo-compile, hlo-run.

They share one set of exit codes (:class:`ExitCode`), documented in each ``--help``.

The tools are the top layer, and the only code that imports inside functions: each
imports the compiler, the runtime or the passes after parsing its arguments, where the
work needs them, so ``--help`` and usage errors answer at once (well under 0.3 s) and
``hlo-run model.vmfb`` runs where only the runtime is installed.
"""

import enum

__all__ = ["ExitCode", "EXIT_CODES_HELP"]


class ExitCode(enum.IntEnum):
    OK = 0
    FAILURE = 1  # hlo-run: results differ from --expected_output; a pass failed
    USAGE = 2  # bad command line: unknown option, bad --input syntax or shape, unknown pass
    INPUT = 3  # missing/unreadable/unwritable file, malformed MLIR, bad Python entry (or its crash), bad vmfb
    VERIFY = 4  # the module failed MLIR verification (before or after a pass)
    COMPILE = 5  # IREE failed to compile, the compiler process crashed or timed out
    RUNTIME = 6  # the IREE runtime failed or crashed while running a function
    INTERRUPTED = 130  # Ctrl-C (SIGINT); no output file was written


EXIT_CODES_HELP = """exit codes:
  0    success
  1    failure: outputs differ from --expected_output (hlo-run), a pass failed
  2    usage error: bad option, unknown pass or preset, bad --input syntax, an --input
       that does not fit the function's signature (count, element type, shape)
  3    input error: missing or unreadable file, empty or malformed MLIR (with its
       file:line:col), bad Python entry (or one that exits or crashes), corrupted vmfb,
       vmfb that does not match its manifest, an output file that cannot be written
  4    verification error: the module failed MLIR verification
  5    compile error: IREE rejected the module, or the compiler crashed or timed out
  6    runtime error: the IREE runtime failed or crashed
  130  interrupted (Ctrl-C); no output file was written"""
