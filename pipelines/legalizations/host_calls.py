"""host-calls: infeed, outfeed, send, recv and Python CustomCall targets, made runnable.

IREE has no infeed or outfeed queues, no channels and no custom-call functions, but a
compiled module may call functions the runtime provides (VM imports). This pass turns

- each ``infeed`` into a call of an import ``@hlo_mlir_host.infeed_<n>`` returning its
  values, which ``runtime.load`` implements by taking the next value from
  ``module.infeed`` (``hlo_mlir/host.py``);
- each ``outfeed`` into a call of ``@hlo_mlir_host.outfeed_<n>`` taking its operands,
  which appends them to ``module.outfeed``;
- each ``custom_call`` whose target is registered as a :class:`hlo_mlir.host.HostFunction`
  into a call of ``@hlo_mlir_host.custom_call_<n>``, which calls the Python function;
- a ``send`` and a ``recv`` (not host transfers) on the same channel, alone on it, in
  the same block with the send first, into data flow: the recv's values are the send's
  operands;
- every other ``send`` and ``recv`` (host transfers included) into calls of
  ``@hlo_mlir_host.send_<n>`` / ``recv_<n>``, which append to and take from the queue
  ``module.channel(handle)``: the host, or another program through it, is the other end.

::

    %v:2 = "stablehlo.infeed"(%t) : (!stablehlo.token) -> (tensor<3xf32>, !stablehlo.token)
    %u = "stablehlo.outfeed"(%v#0, %v#1) : (tensor<3xf32>, !stablehlo.token) -> !stablehlo.token

becomes::

    %x = call @hlo_mlir_host.infeed_0() : () -> tensor<3xf32>
    call @hlo_mlir_host.outfeed_1(%x) : (tensor<3xf32>) -> ()
    func.func private @hlo_mlir_host.infeed_0() -> tensor<3xf32>
    func.func private @hlo_mlir_host.outfeed_1(tensor<3xf32>)

A token result becomes the op's token operand. The VM calls imports in program order,
which respects the order the tokens gave the effects (an op using a token comes after
the op that made it). The imports are recorded, as JSON, in the ``hlo_mlir.host_calls``
entry of each public function's ``iree.reflection``; the runtime reads it.

Conditions: array operands and results (tokens aside); a custom call with a token
operand or result stays and ``iree-unsupported-ops`` reports it. Run
``token-elimination`` after this pass (its tokens then order nothing IREE sees) and ``dce``.
"""

from __future__ import annotations

from iree.compiler import ir

from hlo_mlir import _emit
from hlo_mlir.host import MODULE_NAME, REFLECTION_KEY, HostCall, host_calls_json, host_function
from hlo_mlir.ir_access import bool_attr, channel_handle, functions, is_public, is_token, string_attr
from pipelines.pass_base import Pass
from pipelines.registry import register

__all__ = ["HostCalls"]


def _arrays(values) -> list:
    return [v for v in values if not is_token(v.type)]


def _is_host_custom_call(op) -> bool:
    return (op.operation.name == "stablehlo.custom_call"
            and host_function(string_attr(op, "call_target_name")) is not None
            and not any(is_token(v.type) for v in [*op.operands, *op.results]))


@register
class HostCalls(Pass):
    """Infeed, outfeed, send/recv and HostFunction custom calls become host-module calls or data flow."""

    name = "host-calls"
    legalizes_for_iree = True

    def run(self, module: ir.Module) -> bool:
        with module.context:
            return self._run(module)

    def _run(self, module: ir.Module) -> bool:
        effects: list = []
        channels: dict[int, list] = {}

        def visit(op):
            name = op.operation.name
            if name in ("stablehlo.infeed", "stablehlo.outfeed") or _is_host_custom_call(op):
                effects.append(op)
            elif name in ("stablehlo.send", "stablehlo.recv"):
                effects.append(op)
                if not bool_attr(op, "is_host_transfer"):
                    channels.setdefault(_channel(op), []).append(op)
            return ir.WalkResult.ADVANCE

        module.operation.walk(visit)
        paired = [pair for pair in channels.values() if _pairs(pair)]
        for send, recv in paired:
            effects.remove(send)
            effects.remove(recv)
            self._connect(send, recv)
        calls = [self._host_call(module, op, n) for n, op in enumerate(effects)]
        if calls:
            self._record(module, calls)
        return bool(calls or paired)

    def _connect(self, send, recv) -> None:
        """The recv's values are the send's operands; both tokens are the ops' own operands."""
        values = _arrays(send.operands)
        for result, value in zip(_arrays(recv.results), values, strict=True):
            result.replace_all_uses_with(value)
        recv.results[len(values)].replace_all_uses_with(recv.operands[0])
        send.results[0].replace_all_uses_with(send.operands[len(values)])
        recv.erase()
        send.erase()
        self.record("send-recv-connected")

    def _host_call(self, module: ir.Module, op, n: int) -> HostCall:
        name = op.operation.name
        kind = name.split(".")[1] if name != "stablehlo.custom_call" else "custom_call"
        operands, results = _arrays(op.operands), _arrays(op.results)
        call = HostCall(f"{kind}_{n}", kind, tuple(_emit.shape_of(v) for v in operands),
                        tuple(_emit.shape_of(r) for r in results),
                        string_attr(op, "call_target_name") if kind == "custom_call" else "",
                        _channel(op) if kind in ("send", "recv") else 0)
        callee = f"{MODULE_NAME}.{call.name}"
        with ir.InsertionPoint(module.body), op.location:
            _emit.func_declaration(callee, [v.type for v in operands], [r.type for r in results])
        with ir.InsertionPoint(op), op.location:
            values = _emit.call(callee, operands, [r.type for r in results])
        for result, value in zip(results, values, strict=True):
            result.replace_all_uses_with(value)
        tokens = [v for v in op.operands if is_token(v.type)]
        for result in op.results:
            if is_token(result.type):  # infeed, outfeed, send, recv: the effect's own token
                result.replace_all_uses_with(tokens[0])
        op.erase()
        self.record(f"{kind}-calls")
        return call

    def _record(self, module: ir.Module, calls: list[HostCall]) -> None:
        """Adds the imports' description to each public function's ``iree.reflection``."""
        text = ir.StringAttr.get(host_calls_json(calls))
        for func in filter(is_public, functions(module)):
            entries = {REFLECTION_KEY: text}
            if "iree.reflection" in func.attributes:
                old = ir.DictAttr(func.attributes["iree.reflection"])
                entries = {old[i].name: old[i].attr for i in range(len(old))} | entries
            func.attributes["iree.reflection"] = ir.DictAttr.get(entries)


def _channel(op) -> int:
    handle = channel_handle(op)
    return handle.handle if handle else 0


def _pairs(ops: list) -> bool:
    """Whether ``ops`` (one channel's) are one send then one recv of the same types in one block."""
    if len(ops) != 2:
        return False
    send, recv = ops
    if send.operation.name != "stablehlo.send" or recv.operation.name != "stablehlo.recv":
        return False
    if send.operation.block != recv.operation.block or not send.operation.is_before_in_block(recv.operation):
        return False
    return [v.type for v in _arrays(send.operands)] == [r.type for r in _arrays(recv.results)]
