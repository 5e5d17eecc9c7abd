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

This module imports only the standard library and ``iree.compiler.api`` at the top: the
worker runs it by path (``runpy``), without importing the ``hlo_mlir`` package.
"""

from __future__ import annotations

import atexit
import ctypes
import marshal
import os
import select
import signal
import subprocess
import sys
import tempfile
import threading
import time
from typing import NamedTuple, Sequence

import iree.compiler.api as _capi
from iree.compiler.api import ctypes_dl as _cdl

__all__ = ["Outcome", "WorkerDied", "WorkerPool", "run_compiler", "default_pool", "serve", "probe_compile",
           "signal_text", "PROBE_MODULE"]


class Outcome(NamedTuple):
    """What one compile produced. ``status`` is ``ok`` (``vmfb`` holds the bytes),
    ``flags`` (IREE rejected a flag), ``parse`` (the module did not parse), ``compile``
    (IREE reported errors), ``output`` (the vmfb could not be written) or ``internal``
    (a Python exception in the worker); ``detail`` says more where there is more."""

    status: str
    vmfb: bytes | None
    diagnostics: list[str]
    detail: str


class WorkerDied(Exception):
    """The compile worker ended without answering: ``reason`` says how (signal, exit
    status or timeout); ``stderr`` is what it printed while compiling this request."""

    def __init__(self, reason: str, stderr: str, timed_out: bool = False):
        super().__init__(reason)
        self.reason = reason
        self.stderr = stderr
        self.timed_out = timed_out


# --- the compile itself (in the worker, or in process when isolation is off) ------------------
_SEVERITY = {0: "note", 1: "warning", 2: "error", 3: "remark"}
_DIAG_CALLBACK = ctypes.CFUNCTYPE(None, ctypes.c_int, ctypes.POINTER(ctypes.c_char), ctypes.c_size_t,
                                  ctypes.c_void_p)


def run_compiler(bytecode: bytes, flags: Sequence[str]) -> Outcome:
    """Compiles MLIR ``bytecode`` with IREE's compiler library in this process."""
    diagnostics: list[str] = []

    @_DIAG_CALLBACK
    def on_diagnostic(severity, message, size, _user):
        diagnostics.append(f"{_SEVERITY.get(severity, 'error')}: "
                           + ctypes.string_at(message, size).decode("utf-8", "replace"))

    session = _capi.Session()
    try:
        try:
            session.set_flags(*flags)
        except ValueError as e:
            return Outcome("flags", None, diagnostics, str(e))
        inv = session.invocation()
        enable = _cdl._dylib.ireeCompilerInvocationEnableCallbackDiagnostics
        enable.restype = None
        enable.argtypes = [ctypes.c_void_p, ctypes.c_int, _DIAG_CALLBACK, ctypes.c_void_p]
        enable(inv._inv_p, 0, on_diagnostic, None)
        source = _capi.Source.wrap_buffer(session, bytecode)
        if not inv.parse_source(source):
            return Outcome("parse", None, diagnostics, "")
        if not inv.execute():
            return Outcome("compile", None, diagnostics, "")
        out = _capi.Output.open_membuffer()
        try:
            inv.output_vm_bytecode(out)
            return Outcome("ok", bytes(out.map_memory()), diagnostics, "")
        except ValueError as e:
            return Outcome("output", None, diagnostics, str(e))
        finally:
            out.close()
    finally:
        session.close()


# --- framing: an 8-byte length, then a marshal payload ----------------------------------------
def _frame(message) -> bytes:
    payload = marshal.dumps(message)
    return len(payload).to_bytes(8, "little") + payload


def _read_exact(fd: int, size: int, deadline: float | None) -> bytes | None:
    """``size`` bytes from ``fd`` (non-blocking), None at end of file; TimeoutError past
    ``deadline`` (a ``time.monotonic`` value)."""
    chunks, got = [], 0
    poller = select.poll()
    poller.register(fd, select.POLLIN | select.POLLHUP | select.POLLERR)
    while got < size:
        wait = None if deadline is None else max(0.0, deadline - time.monotonic())
        if wait is not None and wait == 0.0:
            raise TimeoutError
        if not poller.poll(None if wait is None else int(wait * 1000) + 1):
            continue  # re-check the deadline
        try:
            chunk = os.read(fd, min(size - got, 1 << 20))
        except BlockingIOError:
            continue
        if not chunk:
            return None
        chunks.append(chunk)
        got += len(chunk)
    return b"".join(chunks)


def _write_all(fd: int, data: bytes, deadline: float | None) -> None:
    view, poller = memoryview(data), select.poll()
    poller.register(fd, select.POLLOUT | select.POLLERR)
    while view:
        wait = None if deadline is None else max(0.0, deadline - time.monotonic())
        if wait is not None and wait == 0.0:
            raise TimeoutError
        if not poller.poll(None if wait is None else int(wait * 1000) + 1):
            continue
        try:
            view = view[os.write(fd, view[:1 << 20]):]
        except BlockingIOError:
            continue


def _receive(fd: int, deadline: float | None = None):
    header = _read_exact(fd, 8, deadline)
    if header is None:
        return None
    payload = _read_exact(fd, int.from_bytes(header, "little"), deadline)
    return None if payload is None else marshal.loads(payload)


# --- the worker process ------------------------------------------------------------------------
def _inject_fault(fault: str) -> None:
    """Test-only: behave like IREE's known failure modes (``WorkerPool.test_fault``)."""
    if fault == "segv":
        ctypes.string_at(0)
    elif fault == "abort":
        os.write(2, b"LLVM ERROR: injected by a test\n")
        os.abort()
    elif fault == "exit":
        os.write(2, b"LLVM ERROR: injected by a test\n")
        os._exit(1)
    elif fault == "kill":
        os.kill(os.getpid(), signal.SIGKILL)
    elif fault == "hang":
        time.sleep(3600)


def _exit_with(parent: int) -> None:
    """Ends this worker once ``parent`` is gone, even in the middle of a compile (a hung
    compile would otherwise outlive a parent killed with SIGKILL)."""
    while True:
        time.sleep(1.0)
        if os.getppid() != parent:
            os._exit(0)


def serve(request_fd: int, response_fd: int) -> None:
    """The worker's loop: one request, one response, until the parent closes the pipe."""
    # Ctrl-C at the terminal reaches the whole process group: the parent decides (it stops
    # a worker it was waiting for), so a caller that handles KeyboardInterrupt keeps its pool.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    threading.Thread(target=_exit_with, args=(os.getppid(),), daemon=True).start()
    while True:
        request = _receive(request_fd)
        if request is None:
            return
        if request.get("fault"):
            _inject_fault(request["fault"])
        try:
            outcome = run_compiler(request["bytecode"], request["flags"])
        except Exception as e:  # noqa: BLE001 - reported to the parent, the worker lives on
            outcome = Outcome("internal", None, [], f"{type(e).__name__}: {e}")
        sys.stderr.flush()
        _write_all(response_fd, _frame(tuple(outcome)), None)


# The worker runs this file by path: ``python -m hlo_mlir.compile_worker`` would import the
# whole package first (the builder, numpy, ml_dtypes: 0.15 s more per start). ``-P`` keeps
# the current directory off sys.path.
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
    from iree.compiler.tools import binaries  # the parent's only: the worker starts without it

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
                [sys.executable, "-P", "-c", _BOOT, os.path.abspath(__file__), str(request_read),
                 str(response_write)],
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
            _write_all(self.request_fd, _frame(request), deadline)
            response = _receive(self.response_fd, deadline)
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


if __name__ == "__hlo_mlir_compile_worker__":
    serve(int(sys.argv[2]), int(sys.argv[3]))
