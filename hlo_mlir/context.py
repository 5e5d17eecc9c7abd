"""The one MLIR context hlo-mlir builds in, and user source locations.

All modules built by hlo-mlir live in a single process-wide ``ir.Context`` (IREE's,
with StableHLO registered), so computations built by different builders can be
combined. ``user_location()`` finds the first stack frame outside hlo-mlir: the
line of user code that called the builder.

The context accepts attributes of dialects it does not register, as XLA and JAX emit
them (``#mhlo.original_value<...>``, ``#mhlo.type_extensions<...>``, ``#sdy...``): they
parse as opaque attributes, print back as written and travel through the passes and the
bytecode IREE reads. Operations of unregistered dialects parse too (MLIR has one switch
for both), so ``verify_module`` refuses them: ``unregistered_ops`` names them.
"""

from __future__ import annotations

import contextlib
import io
import os
import sys
import threading

from iree.compiler import ir

from hlo_mlir.errors import CompileError, ParseError, VerificationError

__all__ = ["get_context", "user_frame", "user_location", "location_text", "diagnostics_to_errors",
           "verify_module", "unregistered_ops", "as_module", "bytecode", "register_dialect_modules"]

DIALECT_MODULES = "hlo_mlir._dialects"


def register_dialect_modules() -> None:
    """Adds ``hlo_mlir._dialects`` to the MLIR bindings' dialect search prefixes (their
    documented extension point), after IREE's own, once per process.

    The bindings import a dialect's op-class module whenever they wrap an op and remember
    only a module they found; IREE has none for StableHLO and CHLO, so without this every
    wrap retried two failing imports (benchmarks/pipeline_scaling.py at 15k ops: 107 CPU
    us/op with it, 425 without). The package docstring says more.
    """
    if DIALECT_MODULES not in ir._globals.dialect_search_modules:
        ir._globals.append_dialect_search_prefix(DIALECT_MODULES)


register_dialect_modules()

_lock = threading.Lock()
_context: ir.Context | None = None

# Source files in these folders (and contextlib, which runs our `with` scopes)
# are skipped when looking for the user's line.
_OWN_DIRS = tuple(
    os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), pkg) + os.sep
    for pkg in ("hlo_mlir", "dialect_ops", "pipelines")) + (contextlib.__file__,)


def get_context() -> ir.Context:
    """The process-wide MLIR context (created on first use)."""
    global _context
    if _context is None:
        with _lock:
            if _context is None:
                ctx = ir.Context()
                # For attributes of dialects IREE does not register (mhlo, sdy): see the module docstring.
                ctx.allow_unregistered_dialects = True
                # Loading the dialects we emit up front keeps printing stable.
                for name in ("stablehlo", "chlo", "func"):
                    ctx.dialects[name]  # noqa: B018 - loads the dialect
                _context = ctx
    return _context


def user_frame():
    """(filename, lineno) of the nearest caller frame outside hlo-mlir's packages."""
    frame = sys._getframe(1)
    while frame is not None:
        filename = frame.f_code.co_filename
        if not filename.startswith(_OWN_DIRS) and not filename.startswith("<frozen"):
            return filename, frame.f_lineno
        frame = frame.f_back
    return "<unknown>", 0


def user_location() -> ir.Location:
    """An MLIR file location for the user's calling line (needs the context active)."""
    filename, line = user_frame()
    return ir.Location.file(filename, line, 1, context=get_context())


def location_text(loc: ir.Location | None) -> str | None:
    """``"file.py:12"`` for a file location, else None."""
    if loc is None:
        return None
    text = str(loc)  # loc("file.py":12:1)
    if text.startswith('loc("') and '":' in text:
        path, rest = text[5:].split('":', 1)
        return f"{path}:{rest.split(':')[0]}"
    return None


class diagnostics_to_errors:
    """Context manager collecting MLIR diagnostics emitted while it is active.

    ``with diagnostics_to_errors() as diags: ...``; ``diags.messages`` lists them as
    ``"<location>: <message>"`` strings (notes included), for our exceptions.
    """

    def __init__(self, context: ir.Context | None = None):
        self.context = context or get_context()
        self.messages: list[str] = []
        self._handler = None

    def _handle(self, d) -> bool:
        self.messages.append(_format_diagnostic(d))
        return True

    def __enter__(self):
        self._handler = self.context.attach_diagnostic_handler(self._handle)
        return self

    def __exit__(self, *exc):
        self._handler.detach()
        return False


def verify_module(module: ir.Module, message: str) -> None:
    """Runs the MLIR verifier on ``module``; raises VerificationError(``"<message>:"`` and
    the diagnostics) carrying every diagnostic, with its location."""
    with diagnostics_to_errors(module.context) as diags:
        try:
            ok = module.operation.verify()
        except ir.MLIRError as e:
            ok = False
            diags.messages.extend(f"{location_text(d.location) or d.location}: {d.message}"
                                  for d in e.error_diagnostics)
            if not diags.messages:
                diags.messages.append(str(e))
    unknown = unregistered_ops(module)
    if not ok or unknown:
        messages = diags.messages + unknown
        raise VerificationError(f"{message}:\n  " + "\n  ".join(messages), messages)


def unregistered_ops(module: ir.Module) -> list[str]:
    """``"<location>: '<name>' is an operation of an unregistered dialect ..."`` for every op
    of ``module`` that no dialect of the context defines (the context parses them, since it
    accepts unregistered dialects for their attributes)."""
    context, found = module.context, []

    def visit(op):
        name = op.name
        if not context.is_registered_operation(name):
            where = location_text(op.location) or op.location
            found.append(f"{where}: '{name}' is an operation of an unregistered dialect; hlo-mlir accepts "
                         f"unknown dialects' attributes, not their operations.")
        return ir.WalkResult.ADVANCE

    module.operation.walk(visit)
    return found


def as_module(source) -> ir.Module:
    """A fresh ``ir.Module`` in hlo-mlir's context, copied from any accepted source: an
    XlaComputation or HloModule (anything whose ``module`` is an ``ir.Module``), an
    ``ir.Module``, MLIR text or MLIR bytecode."""
    ctx = get_context()
    if isinstance(getattr(source, "module", None), ir.Module):
        source = source.module  # XlaComputation, HloModule
    if isinstance(source, ir.Module):
        # An invalid module would fail to parse back without its diagnostics.
        verify_module(source, "module failed verification before compile")
        with ctx:
            return ir.Module.parse(bytecode(source), context=ctx)
    if isinstance(source, (str, bytes, bytearray, memoryview)):
        with ctx, diagnostics_to_errors(ctx) as diags:
            try:
                return ir.Module.parse(bytes(source) if not isinstance(source, str) else source, context=ctx)
            except ir.MLIRError as e:
                messages = diags.messages or [str(e)]
                raise ParseError("could not parse MLIR input:\n  " + "\n  ".join(messages)) from None
    raise CompileError(f"compile requires an XlaComputation, HloModule, ir.Module, MLIR text or bytecode; "
                       f"got {type(source).__name__}.")


def bytecode(module: ir.Module) -> bytes:
    """``module`` as MLIR bytecode."""
    buf = io.BytesIO()
    module.operation.write_bytecode(buf)
    return buf.getvalue()


def _format_diagnostic(d) -> str:
    where = location_text(d.location) or str(d.location)
    text = f"{where}: {d.message}"
    for note in d.notes:
        text += "\n  note: " + _format_diagnostic(note)
    return text
