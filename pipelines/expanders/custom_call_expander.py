"""custom-call-expander: replaces calls of registered custom-call targets with their expansions.

A custom call names a backend function that IREE does not have. When its target is
registered (``hlo_mlir.register_custom_call_target``), the call becomes a call of the
expansion, imported as a private function::

    %r = stablehlo.custom_call @my_softplus(%x) : (tensor<4xf32>) -> tensor<4xf32>

becomes::

    %r = call @custom_call_my_softplus(%x) : (tensor<4xf32>) -> tensor<4xf32>
    func.func private @custom_call_my_softplus(%arg0: tensor<4xf32>) -> tensor<4xf32> { ... }

A call with several results calls an expansion returning their tuple and takes it
apart. Conditions: the target is registered (not as a HostFunction: ``host-calls``
makes those calls into the host) and its expansion takes the call's operand
shapes and returns its result shape (else the pass fails naming both). Calls of
unregistered targets stay; ``iree-unsupported-ops`` reports them. ``inline`` (and the
cleanups after it) remove the calls; IREE inlines them too. The expansions may contain
any ops, so this pass runs before the other IREE legalizations.
"""

from __future__ import annotations

from typing import Sequence

from iree.compiler import ir

from dialect_ops.custom_call import (
    custom_call_expansion,
    is_host_function_target,
    registered_custom_call_targets,
)
from dialect_ops.tuple_ops import get_tuple_element
from hlo_mlir import _emit
from hlo_mlir.builder import XlaComputation
from hlo_mlir.call_graph import import_computation
from hlo_mlir.errors import HloMlirError
from hlo_mlir.ir_access import string_attr
from hlo_mlir.shape import Shape
from pipelines.pass_base import ExpanderPass
from pipelines.registry import register

__all__ = ["CustomCallExpander", "call_target", "backend_config_text", "registrations_key"]


def call_target(op) -> str:
    return string_attr(op, "call_target_name")


def backend_config_text(op) -> str:
    """The call's ``backend_config`` as the ``opaque`` string its expansion gets."""
    if "backend_config" not in op.attributes:
        return ""
    attr = op.attributes["backend_config"]
    return ir.StringAttr(attr).value if isinstance(attr, ir.StringAttr) else str(attr)


@register
class CustomCallExpander(ExpanderPass):
    """Replaces calls of registered custom-call targets with calls of their expansions."""

    name = "custom-call-expander"
    legalizes_for_iree = True

    def run(self, module: ir.Module) -> bool:
        self._module = module
        self._imported: dict[int, tuple[XlaComputation, str]] = {}
        # HostFunction targets run on the host (pass host-calls), not as an expansion
        self._targets = {t for t in registered_custom_call_targets() if not is_host_function_target(t)}
        return super().run(module)

    def matches(self, op) -> bool:
        return op.operation.name == "stablehlo.custom_call" and call_target(op) in self._targets

    def expand(self, op) -> Sequence[ir.Value]:
        results = [_emit.shape_of(r) for r in op.results]
        shape = results[0] if len(results) == 1 else Shape.tuple_shape(results)
        computation = custom_call_expansion(call_target(op), _emit.shapes_of(list(op.operands)), shape,
                                            backend_config_text(op))
        callee = self._import(computation)
        result_type = computation.program_shape().result.to_mlir_type()
        value = _emit.call(callee, list(op.operands), [result_type])[0]
        if len(results) == 1:
            return [value]
        return [get_tuple_element(value, i) for i in range(len(results))]

    def _import(self, computation: XlaComputation) -> str:
        """The private function holding ``computation`` in the module (imported once)."""
        return import_computation(self._module, computation, self._imported)


def registrations_key(module: ir.Module) -> str:
    """What the registry says about each custom call in ``module``, as text for the compile
    cache's key (``hlo_mlir.compile``): the expansion's text, ``host`` for a HostFunction,
    ``unregistered``; empty without custom calls. A target registered anew must not be
    served the vmfb compiled for its old registration."""
    lines: set[str] = set()

    def visit(op):
        if op.operation.name == "stablehlo.custom_call":
            lines.add(_registration(op))
        return ir.WalkResult.ADVANCE

    with module.context:
        module.operation.walk(visit)
    return "\n".join(sorted(lines))


def _registration(op) -> str:
    name = call_target(op)
    if name not in registered_custom_call_targets():
        return f"{name}: unregistered"
    if is_host_function_target(name):
        return f"{name}: host"
    results = [_emit.shape_of(r) for r in op.results]
    shape = results[0] if len(results) == 1 else Shape.tuple_shape(results)
    try:
        expansion = custom_call_expansion(name, _emit.shapes_of(list(op.operands)), shape,
                                          backend_config_text(op))
    except HloMlirError as e:  # the expander reports it; the key only needs to differ
        return f"{name}: {e}"
    return f"{name}: {expansion}"
