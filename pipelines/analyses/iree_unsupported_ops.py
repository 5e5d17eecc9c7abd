"""iree-unsupported-ops: fails with a CompileError naming every op the IREE runtime cannot run.

IREE has no infeed or outfeed queues, no channels (Send/Recv) and no custom-call
functions (``host-calls`` makes infeed, outfeed, send, recv and HostFunction targets
calls into the runtime's host module before this check). Without this check IREE
rejects such a module with "failed to legalize operation"; with it, the user reads
what the op is, where it was built and what to do instead. The check runs last among
the IREE legalizations, after ``custom-call-expander`` (registered targets are gone by
then) and ``token-elimination``. It changes nothing.
"""

from __future__ import annotations

from iree.compiler import ir

from dialect_ops.custom_call import registered_custom_call_targets
from hlo_mlir.context import location_text
from hlo_mlir.errors import CompileError
from pipelines.expanders.custom_call_expander import call_target
from pipelines.pass_base import Pass, PassError
from pipelines.registry import register

__all__ = ["IreeUnsupportedOps", "UnsupportedOpError", "REASONS"]

_HOST_CALLS = "run pass host-calls before this check (iree-legalize does), which makes it "

REASONS = {
    "stablehlo.infeed": "Infeed is not supported by the IREE runtime: it has no infeed queue to read from; "
                        + _HOST_CALLS + "read the loaded module's infeed queue.",
    "stablehlo.outfeed": "Outfeed is not supported by the IREE runtime: it has no outfeed queue to write to; "
                         + _HOST_CALLS + "write the loaded module's outfeed queue.",
    "stablehlo.send": "Send is not supported by the IREE runtime: it has no channels to another computation "
                      "or the host; " + _HOST_CALLS + "data flow or a host channel.",
    "stablehlo.recv": "Recv is not supported by the IREE runtime: it has no channels from another "
                      "computation or the host; " + _HOST_CALLS + "data flow or a host channel.",
}


class UnsupportedOpError(PassError, CompileError):
    """The module holds ops the IREE runtime cannot run (a CompileError raised by a pass)."""

    def __init__(self, message: str, pass_name: str = ""):
        CompileError.__init__(self, message)
        self.pass_name = pass_name


def _reason(op) -> str | None:
    name = op.operation.name
    if name != "stablehlo.custom_call":
        return REASONS.get(name)
    registered = registered_custom_call_targets()
    if call_target(op) in registered:
        return (f"CustomCall target {call_target(op)!r} is registered but was not expanded; run "
                f"custom-call-expander and host-calls before this check (a HostFunction target "
                f"takes no tokens).")
    known = ", ".join(registered) or "none"
    return (f"CustomCall target {call_target(op)!r} is not registered, and IREE has no custom-call "
            f"functions; registered targets: {known}. Register it with "
            f"hlo_mlir.register_custom_call_target(name, expansion), or with "
            f"hlo_mlir.HostFunction(fn) to run a Python function on the host.")


@register
class IreeUnsupportedOps(Pass):
    """Fails with a CompileError naming each op the IREE runtime cannot run (infeed, custom_call, ...)."""

    name = "iree-unsupported-ops"
    legalizes_for_iree = True

    def run(self, module: ir.Module) -> bool:
        problems: list[str] = []

        def visit(op):
            reason = _reason(op)
            if reason:
                problems.append(f"{location_text(op.location) or op.location}: {reason}")
            return ir.WalkResult.ADVANCE

        module.operation.walk(visit)
        if problems:
            raise UnsupportedOpError("the module cannot run on IREE:\n  " + "\n  ".join(problems), self.name)
        return False
