"""What the CLI tools share: errors as ``<tool>: error: ...`` with an exit code, and runs
in a child process so that a native crash becomes an error naming what crashed.

A tool re-runs itself in a child (``run_isolated``). The child names what it is doing
with :func:`enter_phase` (``"build"``: the user's Python build script, ``"compile"``:
the IREE compiler, ``"run"``: the IREE runtime); when the child dies of a signal or runs
past its time limit, the parent reports the phase's :class:`Phase`: what crashed, the
exit code, and a hint. A crash in a user's build script is the user's code crashing
(exit code 3), not an IREE defect.
"""

from __future__ import annotations

import glob
import os
import signal
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from typing import Callable, Mapping, Sequence

from hlo_mlir.tools import ExitCode

__all__ = ["ToolError", "Phase", "report", "run_reporting", "run_isolated", "enter_phase", "WORKER_FLAG"]

WORKER_FLAG = "--no-isolate"
_PHASE_FILE = "HLO_MLIR_TOOL_PHASE_FILE"  # where a child records its phase for the parent
_ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


class ToolError(Exception):
    """An error the tool reports as ``<tool>: error: <message>`` with exit code ``code``."""

    def __init__(self, message: str, code: ExitCode):
        super().__init__(message)
        self.code = code


@dataclass(frozen=True)
class Phase:
    """What a child process does in one phase, and how its crash there is reported:
    ``"<what> crashed (SIGSEGV) in a child process; no output written. <hint>"``."""

    what: str
    code: ExitCode
    hint: str = ""


def report(tool: str, message: str) -> None:
    print(f"{tool}: error: {message}", file=sys.stderr)


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


def enter_phase(name: str) -> None:
    """Records, for the parent of an isolated run, that this process now does ``name``
    (a key of the parent's phases); a no-op outside an isolated child."""
    path = os.environ.get(_PHASE_FILE)
    if path:
        with open(path, "w") as f:
            f.write(name)


def run_isolated(tool: str, module: str, argv: Sequence[str], timeout: float | None,
                 phases: Mapping[str, Phase], first: str, cleanup: str | None = None) -> int:
    """Re-runs ``python -m module argv --no-isolate`` in a child process and returns its
    exit code. stdout/stderr pass through. A child killed by a signal (a crash) or
    running past ``timeout`` is reported with the :class:`Phase` it was in (``first``
    until it calls :func:`enter_phase`); on Ctrl-C the child is stopped. ``cleanup`` is a
    glob of temporary files to remove after a crash."""
    fd, phase_file = tempfile.mkstemp(prefix="hlo-mlir-phase-", suffix=".txt")
    with os.fdopen(fd, "w") as f:
        f.write(first)
    env = dict(os.environ)
    env["PYTHONPATH"] = _ROOT + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    env[_PHASE_FILE] = phase_file
    sys.stdout.flush()
    sys.stderr.flush()
    try:
        proc = subprocess.Popen([sys.executable, "-m", module, *argv, WORKER_FLAG], env=env)
        try:
            rc = proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            phase = _phase(phase_file, phases, first)  # before stopping it: it may clean up
            _stop(proc)
            _remove(cleanup)
            report(tool, f"{phase.what} did not finish within {timeout:g} s; stopped it. No output written.")
            return phase.code
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
            phase = _phase(phase_file, phases, first)
            report(tool, f"{phase.what} crashed ({_signal_name(-rc)}) in a child process; no output written."
                         + (f" {phase.hint}" if phase.hint else ""))
            return phase.code
        return rc
    finally:
        _remove(glob.escape(phase_file))


def _phase(path: str, phases: Mapping[str, Phase], first: str) -> Phase:
    try:
        with open(path) as f:
            name = f.read().strip()
    except OSError:
        name = first
    return phases.get(name, phases[first])


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
