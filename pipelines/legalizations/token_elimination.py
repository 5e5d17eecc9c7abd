"""token-elimination: removes token plumbing that orders nothing, so that IREE compiles it.

Tokens only order side-effecting ops. In a module without infeed, outfeed, send, recv
or custom calls taking tokens, nothing observable depends on them on one device, but
IREE rejects every token op and type. The pass replaces each token by an empty array
(``pred[0]``)::

    %t = stablehlo.create_token : !stablehlo.token
    %u = stablehlo.after_all %t, %arg1 : !stablehlo.token
    %w:2 = stablehlo.while(%i = %x, %k = %u) : tensor<f32>, !stablehlo.token ...

becomes::

    %u = stablehlo.constant dense<> : tensor<0xi1>
    %w:2 = stablehlo.while(%i = %x, %k = %u) : tensor<f32>, tensor<0xi1> ...

and retypes every value, block argument and function signature that held a token
(tokens inside tuples too). A token parameter or result of the entry function becomes a
``pred[0]`` one: callers pass ``np.zeros(0, np.bool_)`` and get one back.

Conditions: no ``infeed``, ``outfeed``, ``send``, ``recv``, and no ``custom_call`` with a
token operand or result anywhere in the module (their tokens order real effects; the
pass then changes nothing and ``iree-unsupported-ops`` reports the op). Run ``dce``
after it to drop the placeholders nobody uses.
"""

from __future__ import annotations

import numpy as np
from iree.compiler import ir

from hlo_mlir import _emit
from hlo_mlir.ir_access import function_type, is_token
from hlo_mlir.shape import Shape
from pipelines.pass_base import Pass
from pipelines.registry import register

__all__ = ["TokenElimination", "EFFECT_OPS"]

# Ops whose tokens order effects that a single device still observes.
EFFECT_OPS = ("stablehlo.infeed", "stablehlo.outfeed", "stablehlo.send", "stablehlo.recv")
_TOKEN_OPS = ("stablehlo.create_token", "stablehlo.after_all")
_PLACEHOLDER = Shape.array_shape(np.bool_, [0])


def _has_token(t: ir.Type) -> bool:
    if isinstance(t, ir.TupleType):
        return any(_has_token(t.get_type(i)) for i in range(t.num_types))
    return is_token(t)


def _without_tokens(t: ir.Type) -> ir.Type:
    if isinstance(t, ir.TupleType):
        return ir.TupleType.get_tuple([_without_tokens(t.get_type(i)) for i in range(t.num_types)])
    return _PLACEHOLDER.to_mlir_type() if is_token(t) else t


def _orders_effects(op) -> bool:
    name = op.operation.name
    if name in EFFECT_OPS:
        return True
    return name == "stablehlo.custom_call" and any(
        _has_token(v.type) for v in [*op.operands, *op.results])


@register
class TokenElimination(Pass):
    """Replaces tokens that order no effects by empty arrays (IREE rejects tokens)."""

    name = "token-elimination"
    legalizes_for_iree = True

    def run(self, module: ir.Module) -> bool:
        with module.context:
            return self._run(module)

    def _run(self, module: ir.Module) -> bool:
        token_ops, values, functions, blocked = [], [], [], []

        def visit(op):
            if _orders_effects(op):
                blocked.append(op)
            if op.operation.name in _TOKEN_OPS:
                token_ops.append(op)
            else:
                values.extend(r for r in op.results if _has_token(r.type))
            if op.operation.name == "func.func":
                functions.append(op)
            for region in op.regions:
                for block in region.blocks:
                    values.extend(a for a in block.arguments if _has_token(a.type))
            return ir.WalkResult.ADVANCE

        module.operation.walk(visit)
        if blocked:
            self.record("kept-for-effects")
            return False
        retyped = [self._retype_function(f) for f in functions]
        changed = bool(values) or bool(token_ops) or any(retyped)
        for op in token_ops:
            with ir.InsertionPoint(op), op.location:
                placeholder = _emit.constant(np.zeros(0, np.bool_), _PLACEHOLDER)
            op.results[0].replace_all_uses_with(placeholder)
            op.erase()
            self.record("token-op-removed")
        for value in values:
            value.set_type(_without_tokens(value.type))
        if values:
            self.record("values-retyped", len(values))
        return changed

    def _retype_function(self, func) -> bool:
        ftype = function_type(func)
        inputs, results = list(ftype.inputs), list(ftype.results)
        if not any(_has_token(t) for t in inputs + results):
            return False
        func.attributes["function_type"] = ir.TypeAttr.get(ir.FunctionType.get(
            [_without_tokens(t) for t in inputs], [_without_tokens(t) for t in results]))
        self.record("signature-retyped")
        return True
