"""What runs inside a compile worker (``hlo_mlir.compile_worker``): IREE's compiler library
on one request at a time, and the pipe protocol the parent speaks.

``run_compiler`` is also the in-process path (``compile(..., isolate=False)``), so both
compile the same way. The protocol is ``marshal`` over two private pipes, each message
an 8-byte little-endian length and then the payload.

The worker runs this file by path (``runpy``), so it imports only the standard library
and ``iree.compiler.api``: never the ``hlo_mlir`` package.
"""

from __future__ import annotations

import ctypes
import marshal
import os
import select
import signal
import sys
import threading
import time
from typing import NamedTuple, Sequence

import iree.compiler.api as _capi
from iree.compiler.api import ctypes_dl as _cdl

__all__ = ["Outcome", "run_compiler", "serve", "frame", "receive", "write_all"]


class Outcome(NamedTuple):
    """What one compile produced. ``status`` is ``ok`` (``vmfb`` holds the bytes),
    ``flags`` (IREE rejected a flag), ``parse`` (the module did not parse), ``compile``
    (IREE reported errors), ``output`` (the vmfb could not be written) or ``internal``
    (a Python exception in the worker); ``detail`` says more where there is more."""

    status: str
    vmfb: bytes | None
    diagnostics: list[str]
    detail: str


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
def frame(message) -> bytes:
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


def write_all(fd: int, data: bytes, deadline: float | None) -> None:
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


def receive(fd: int, deadline: float | None = None):
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
        request = receive(request_fd)
        if request is None:
            return
        if request.get("fault"):
            _inject_fault(request["fault"])
        try:
            outcome = run_compiler(request["bytecode"], request["flags"])
        except Exception as e:  # noqa: BLE001 - reported to the parent, the worker lives on
            outcome = Outcome("internal", None, [], f"{type(e).__name__}: {e}")
        sys.stderr.flush()
        write_all(response_fd, frame(tuple(outcome)), None)


if __name__ == "__hlo_mlir_compile_worker__":
    serve(int(sys.argv[2]), int(sys.argv[3]))
