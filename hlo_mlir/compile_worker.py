"""IREE's compiler in a child process, so that its crashes cannot end the caller's.

The pinned IREE compiler segfaults, aborts or exits (``LLVM ERROR``) on some inputs and
flags (docs/iree-defects.md). ``hlo_mlir.compile`` therefore hands the module's bytecode
and the flags to a *compile worker*: a child Python process that has loaded IREE's
compiler library and compiles requests one at a time, exactly as the in-process path
does (``run_compiler``, the same code in both). Measured on a small module (x * x + x
on f32[4], IREE ~250 ms; benchmarks/compile_time.py, "small module") against the
alternatives, interleaved on the shared 2-core machine:

    in process                       the baseline; a crash ends the caller
    persistent worker (this)         +0.1-0.6 ms per request (pipes and framing; a request
                                     IREE answers at once), CPU time per compile equal
                                     within 3 ms; starting a worker costs 0.1-0.25 s once
                                     per process, overlapped with our pass pipeline; a
                                     crash costs a restart
    a child iree-compile per compile +20-30 ms per compile (process start, library load)
    fork server (prototype)          +20 ms per compile: each forked child redoes IREE's
                                     lazy initialization (the server cannot compile once
                                     before forking: its thread pool would not survive)

A ``WorkerPool`` hands each calling thread its own worker (several threads compile in
parallel, one worker each), keeps idle workers for the next compile, and replaces a
worker that died. A worker reads requests from a pipe and ends at end of file, so it
never outlives its parent: the pool closes the pipes at interpreter exit, and a parent
that is killed closes them too. The protocol is ``marshal`` over two private pipes
(length-prefixed frames); the worker's stdout and stderr go to files the parent reads
after each compile (relayed to ``sys.stdout``/``sys.stderr``: IREE's own output reaches
the user as before) and after a crash (the ``LLVM ERROR`` line and the stack dump name
what died). A worker also ends within a second of its parent's death, even mid-compile.

This module is the parent's side; the worker runs :mod:`hlo_mlir.worker_process` (the
compile itself, the protocol and the worker's loop) by path, without importing the
``hlo_mlir`` package.
"""

from __future__ import annotations

import atexit
import os
import signal
import subprocess
import sys
import tempfile
import threading
import time
from typing import Sequence

from iree.compiler.tools import binaries

from hlo_mlir import worker_process
from hlo_mlir.worker_process import Outcome, frame, receive, run_compiler, serve, write_all

__all__ = ["Outcome", "WorkerDied", "WorkerPool", "run_compiler", "default_pool", "serve", "probe_compile",
           "signal_text", "PROBE_MODULE"]


class WorkerDied(Exception):
    """The compile worker ended without answering: ``reason`` says how (signal, exit
    status or timeout); ``stderr`` is what it printed while compiling this request."""

    def __init__(self, reason: str, stderr: str, timed_out: bool = False):
        super().__init__(reason)
        self.reason = reason
        self.stderr = stderr
        self.timed_out = timed_out


# The worker runs worker_process.py by path: ``python -m hlo_mlir.worker_process`` would
# import the whole package first (the builder, numpy, ml_dtypes: 0.15 s more per start).
# ``-P`` keeps the current directory off sys.path.
_BOOT = "import runpy, sys; runpy.run_path(sys.argv[1], run_name='__hlo_mlir_compile_worker__')"


# --- the parent side ---------------------------------------------------------------------------
PROBE_MODULE = b"""func.func @main(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = stablehlo.add %a, %a : tensor<4xf32>
  return %0 : tensor<4xf32>
}"""


def probe_compile(flags: Sequence[str], timeout: float = 300) -> subprocess.CompletedProcess:
    """Runs ``iree-compile`` on a trivial module (``PROBE_MODULE``) with ``flags`` in a
    child process, output captured: what a flag value does, where it may kill the
    compiler. Raises OSError or subprocess.TimeoutExpired when it cannot run."""
    cmd = [binaries.find_tool("iree-compile"), "-", "--iree-input-type=stablehlo", *flags]
    return subprocess.run(cmd, input=PROBE_MODULE, capture_output=True, timeout=timeout)


def signal_text(returncode: int) -> str:
    """How a child ended, in words: ``SIGSEGV (signal 11)`` or ``exit status 1``."""
    if returncode < 0:
        try:
            name = signal.Signals(-returncode).name
        except ValueError:
            name = "signal"
        text = f"{name} (signal {-returncode})"
        if -returncode == signal.SIGKILL:
            text += "; the kernel's out-of-memory killer ends processes this way"
        return text
    return f"exit status {returncode}"


class _Worker:
    """One child process and its pipes."""

    def __init__(self):
        request_read, self.request_fd = os.pipe()
        self.response_fd, response_write = os.pipe()
        # Append mode: the worker writes at the end however the parent reads and truncates.
        self.stdout = tempfile.TemporaryFile(mode="a+b", prefix="hlo-mlir-compile-worker-")
        self.stderr = tempfile.TemporaryFile(mode="a+b", prefix="hlo-mlir-compile-worker-")
        try:
            self.proc = subprocess.Popen(
                [sys.executable, "-P", "-c", _BOOT, os.path.abspath(worker_process.__file__),
                 str(request_read), str(response_write)],
                pass_fds=(request_read, response_write), stdin=subprocess.DEVNULL, stdout=self.stdout,
                stderr=self.stderr)
        except BaseException:
            for fd in (self.request_fd, self.response_fd):
                os.close(fd)
            self.stdout.close()
            self.stderr.close()
            raise
        finally:
            os.close(request_read)
            os.close(response_write)
        os.set_blocking(self.request_fd, False)
        os.set_blocking(self.response_fd, False)
        self.compiles = 0

    def take_stderr(self) -> str:
        """What the worker printed to stderr since the last call (and forget it)."""
        return _take(self.stderr)

    def take_stdout(self) -> str:
        return _take(self.stdout)

    def compile(self, bytecode: bytes, flags: Sequence[str], timeout: float | None,
                fault: str | None) -> Outcome:
        deadline = None if timeout is None else time.monotonic() + timeout
        request = {"bytecode": bytes(bytecode), "flags": list(flags)}
        if fault:
            request["fault"] = fault
        self.compiles += 1
        try:
            write_all(self.request_fd, frame(request), deadline)
            response = receive(self.response_fd, deadline)
        except TimeoutError:
            self.kill()
            raise WorkerDied(f"ran past the {timeout:g} s timeout",
                             self.take_stderr(), timed_out=True) from None
        except (BrokenPipeError, ConnectionResetError):
            response = None
        if response is None:
            returncode = self.proc.wait()
            raise WorkerDied(signal_text(returncode), self.take_stderr())
        return Outcome(*response)

    def kill(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait()

    def close_pipes(self) -> None:
        for fd in (self.request_fd, self.response_fd):
            try:
                os.close(fd)
            except OSError:
                pass

    def close(self, wait: float = 5.0) -> None:
        """Ends the worker: end of file on its request pipe, then a kill if it lingers."""
        self.close_pipes()
        try:
            self.proc.wait(timeout=wait)
        except subprocess.TimeoutExpired:
            self.kill()
        self.stdout.close()
        self.stderr.close()


def _take(file) -> str:
    file.seek(0)
    data = file.read()
    file.seek(0)
    file.truncate()
    return data.decode("utf-8", "replace")


class WorkerPool:
    """Compile workers for the threads of this process: each compile takes an idle worker
    (or starts one), and gives it back afterwards; at most ``max_idle`` wait idle."""

    # Test-only: the worker behaves like a crashing compiler ("segv", "abort", "exit", "kill",
    # "hang") instead of compiling. Set by tests through monkeypatch, never by library code.
    test_fault: str | None = None

    def __init__(self, max_idle: int | None = None, max_compiles: int = 1000):
        self.max_idle = max_idle or max(2, os.cpu_count() or 1)
        self.max_compiles = max_compiles  # a fresh worker now and then: IREE's caches grow
        self._lock = threading.Lock()
        self._idle: list[_Worker] = []
        self._all: set[_Worker] = set()
        self._pid = os.getpid()

    def _forget_after_fork(self) -> None:
        """In a forked child: the workers belong to the parent. Close this copy of their
        pipes (else they would not see the parent's end of file) and start afresh."""
        for worker in self._all:
            worker.close_pipes()
        self._lock = threading.Lock()
        self._idle, self._all, self._pid = [], set(), os.getpid()

    def _take(self) -> _Worker:
        dead = []
        with self._lock:
            if self._pid != os.getpid():
                self._forget_after_fork()
            while self._idle:
                worker = self._idle.pop()
                if worker.proc.poll() is None:
                    break
                self._all.discard(worker)
                dead.append(worker)  # ended while idle (killed from outside): not this compile's fault
            else:
                worker = None
        for w in dead:
            w.close(wait=0)
        if worker is not None:
            return worker
        worker = _Worker()
        with self._lock:
            self._all.add(worker)
        return worker

    def prestart(self) -> None:
        """Starts a worker now if none is idle, so its start-up overlaps the caller's work."""
        with self._lock:
            if self._idle or self._pid != os.getpid():
                return
        worker = _Worker()
        with self._lock:
            self._all.add(worker)
            self._idle.append(worker)

    def _give_back(self, worker: _Worker) -> None:
        with self._lock:
            keep = len(self._idle) < self.max_idle and worker.compiles < self.max_compiles
            if keep:
                self._idle.append(worker)
            else:
                self._all.discard(worker)
        if not keep:
            worker.close()

    def _discard(self, worker: _Worker) -> None:
        with self._lock:
            self._all.discard(worker)
        worker.close(wait=0)

    def compile(self, bytecode: bytes, flags: Sequence[str],
                timeout: float | None = None) -> tuple[Outcome, str, str]:
        """Compiles in a worker: the outcome, and what IREE printed to stdout and stderr.
        Raises WorkerDied when the worker crashed, exited or ran past ``timeout``."""
        worker = self._take()
        try:
            outcome = worker.compile(bytecode, flags, timeout, self.test_fault)
        except WorkerDied:
            self._discard(worker)
            raise
        except BaseException:  # e.g. KeyboardInterrupt mid-compile: the worker's state is unknown
            worker.kill()
            self._discard(worker)
            raise
        printed = worker.take_stdout(), worker.take_stderr()
        self._give_back(worker)
        return outcome, *printed

    def shutdown(self) -> None:
        """Ends every worker of this process (at interpreter exit; a later compile starts anew)."""
        with self._lock:
            if self._pid != os.getpid():
                return
            workers, self._idle, self._all = list(self._all), [], set()
        for worker in workers:
            worker.close(wait=2.0)

    def live_workers(self) -> int:
        return len(self.pids())

    def pids(self) -> list[int]:
        """The process ids of this pool's running workers."""
        with self._lock:
            return [w.proc.pid for w in self._all if w.proc.poll() is None]


_POOL = WorkerPool()
atexit.register(_POOL.shutdown)
os.register_at_fork(after_in_child=_POOL._forget_after_fork)


def default_pool() -> WorkerPool:
    """The process's pool, used by ``hlo_mlir.compile``."""
    return _POOL
