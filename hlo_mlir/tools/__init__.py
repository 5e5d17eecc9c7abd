"""Command-line tools: hlo-opt, hlo-compile, hlo-run.

They share one set of exit codes (:class:`ExitCode`), documented in each ``--help``.
"""

import enum

__all__ = ["ExitCode", "EXIT_CODES_HELP"]


class ExitCode(enum.IntEnum):
    OK = 0
    FAILURE = 1  # hlo-run: results differ from --expected_output; a pass failed
    USAGE = 2  # bad command line: unknown option, bad --input syntax, unknown pass
    INPUT = 3  # missing/unreadable file, malformed MLIR, bad Python entry, bad or corrupted vmfb
    VERIFY = 4  # the module failed MLIR verification (before or after a pass)
    COMPILE = 5  # IREE failed to compile, the compiler process crashed or timed out
    RUNTIME = 6  # the IREE runtime failed or crashed while running a function
    INTERRUPTED = 130  # Ctrl-C (SIGINT); no output file was written


EXIT_CODES_HELP = """exit codes:
  0    success
  1    failure: outputs differ from --expected_output (hlo-run), a pass failed
  2    usage error: bad option, bad --input syntax, unknown pass or preset
  3    input error: missing or unreadable file, malformed MLIR (with its file:line:col),
       bad Python entry, corrupted vmfb, vmfb that does not match its manifest
  4    verification error: the module failed MLIR verification
  5    compile error: IREE rejected the module, or the compiler crashed or timed out
  6    runtime error: the IREE runtime failed or crashed
  130  interrupted (Ctrl-C); no output file was written"""
