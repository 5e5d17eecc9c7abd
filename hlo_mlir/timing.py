"""Stage timing for compiles: a line on stderr as each stage starts and ends, and at the
end MLIR's ``--mlir-timing`` report (``DefaultTimingManager``, tree display, wall time).

``hlo_mlir.compile(..., verbose=True)`` and ``hlo-compile -v`` print, as they run::

    hlo-mlir: Parser ...
    hlo-mlir: Parser: 0.0031 s
    hlo-mlir: 'cpu' Pipeline ...
    hlo-mlir: 'cpu' Pipeline: 0.2104 s
    hlo-mlir: IREE compile (llvm-cpu) ...
    hlo-mlir: IREE compile (llvm-cpu): 0.5512 s

and then the report (a pipeline's passes nested under it, summed per pass name)::

    ===-------------------------------------------------------------------------===
                             ... Execution time report ...
    ===-------------------------------------------------------------------------===
      Total Execution Time: 0.7712 seconds

      ----Wall Time----  ----Name----
        0.0031 (  0.4%)  Parser
        0.2104 ( 27.3%)  'cpu' Pipeline
        0.0412 (  5.3%)    algsimp
        ...
        0.5512 ( 71.5%)  IREE compile (llvm-cpu)
        0.0065 (  0.8%)  Rest
        0.7712 (100.0%)  Total

Code marks a stage with ``with timing.stage(name):``; it reports to the :class:`Timer`
that :func:`reporting` made active in this context (a ``contextvars`` variable: a caller's
timer also collects the stages of the calls it makes). With none active, the default,
``stage`` costs one variable read and prints nothing.
"""

from __future__ import annotations

import contextlib
import contextvars
import sys
import time
from dataclasses import dataclass, field
from typing import IO, Iterator

__all__ = ["Timer", "TimeRecord", "stage", "note", "reporting", "active", "format_report", "BANNER"]

BANNER = "===" + "-" * 73 + "==="
_DESCRIPTION = "... Execution time report ..."


@dataclass
class TimeRecord:
    """One timed stage: its wall time in seconds and the stages (or passes) inside it."""

    name: str
    seconds: float = 0.0
    children: list[TimeRecord] = field(default_factory=list)

    def add(self, name: str, seconds: float) -> TimeRecord:
        """Adds ``seconds`` to the child ``name`` (made on first use, kept in first-use order)."""
        for child in self.children:
            if child.name == name:
                child.seconds += seconds
                return child
        child = TimeRecord(name, seconds)
        self.children.append(child)
        return child


def format_report(records: list[TimeRecord], total: float) -> str:
    """MLIR's execution time report over ``records`` (top-level stages, children indented
    two spaces per level), with ``Rest`` (time in no stage) and ``Total`` rows."""
    total = max(total, 1e-12)
    lines = [BANNER, " " * ((80 - len(_DESCRIPTION)) // 2) + _DESCRIPTION, BANNER,
             f"  Total Execution Time: {total:.4f} seconds", "", "  ----Wall Time----  ----Name----"]

    def row(seconds: float, name: str, depth: int = 0) -> None:
        lines.append(f"  {seconds:8.4f} ({100 * seconds / total:5.1f}%)  {'  ' * depth}{name}")

    def visit(record: TimeRecord, depth: int) -> None:
        row(record.seconds, record.name, depth)
        for child in record.children:
            visit(child, depth + 1)

    for record in records:
        visit(record, 0)
    row(total - sum(r.seconds for r in records), "Rest")
    row(total, "Total")
    return "\n".join(lines) + "\n"


class Timer:
    """Times nested stages. With ``progress`` it writes ``<prefix>: <stage> ...`` to ``out``
    (default: ``sys.stderr`` at the time of writing) when a stage starts and
    ``<prefix>: <stage>: <seconds> s`` when it ends; :meth:`report` is the
    ``--mlir-timing`` report of every stage so far."""

    def __init__(self, out: IO[str] | None = None, *, prefix: str = "hlo-mlir", progress: bool = True):
        self.out, self.prefix, self.progress = out, prefix, progress
        self.root = TimeRecord("root")
        self._open = [self.root]
        self._start = time.perf_counter()

    def write(self, text: str) -> None:
        """Writes a progress line ``<prefix>: <text>`` at once (when ``progress``)."""
        if self.progress:
            out = self.out if self.out is not None else sys.stderr
            out.write(f"{self.prefix}: {'  ' * (len(self._open) - 1)}{text}\n")
            out.flush()

    @contextlib.contextmanager
    def stage(self, name: str) -> Iterator[TimeRecord]:
        """Times the block as stage ``name``, nested in the stage open around it."""
        record = TimeRecord(name)
        self._open[-1].children.append(record)
        self.write(f"{name} ...")
        self._open.append(record)
        start = time.perf_counter()
        try:
            yield record
        except BaseException:
            record.seconds = time.perf_counter() - start
            self._open.pop()
            self.write(f"{name}: failed after {record.seconds:.4f} s")
            raise
        record.seconds = time.perf_counter() - start
        self._open.pop()
        self.write(f"{name}: {record.seconds:.4f} s")

    def report(self) -> str:
        return format_report(self.root.children, time.perf_counter() - self._start)


_ACTIVE: contextvars.ContextVar[Timer | None] = contextvars.ContextVar("hlo_mlir_timer", default=None)


def active() -> Timer | None:
    """The timer stages report to here, if any."""
    return _ACTIVE.get()


def stage(name: str) -> contextlib.AbstractContextManager[TimeRecord | None]:
    """``with stage(name) as record:`` times the block on the active timer; ``record`` is
    None (and nothing happens) when no timer is active."""
    timer = _ACTIVE.get()
    return contextlib.nullcontext() if timer is None else timer.stage(name)


def note(text: str) -> None:
    """A progress line on the active timer (e.g. a cache hit); nothing without one."""
    timer = _ACTIVE.get()
    if timer is not None:
        timer.write(text)


@contextlib.contextmanager
def reporting(out: IO[str] | None = None, *, prefix: str = "hlo-mlir", progress: bool = True,
              report: bool = True) -> Iterator[Timer]:
    """Makes a new :class:`Timer` active for the block and, with ``report``, writes its
    report to ``out`` (default ``sys.stderr``) when the block ends, also by an error (as
    MLIR does). Inside another ``reporting`` block it joins the outer timer instead: the
    outer block reports everything once."""
    outer = _ACTIVE.get()
    if outer is not None:
        yield outer
        return
    timer = Timer(out, prefix=prefix, progress=progress)
    token = _ACTIVE.set(timer)
    try:
        yield timer
    finally:
        _ACTIVE.reset(token)
        if report:
            stream = out if out is not None else sys.stderr
            stream.write(timer.report())
            stream.flush()
