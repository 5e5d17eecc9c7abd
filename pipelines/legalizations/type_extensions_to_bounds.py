"""type-extensions-to-bounds: MHLO's bounded-dimension encodings as StableHLO's.

Older XLA and JAX write the bound of a dynamic dimension as an MHLO type extension; the
context parses it (unregistered attributes stay opaque, ``hlo_mlir.context``) but the
pinned IREE rejects it ("unsupported encoding type"), while it compiles the same module
with StableHLO's encoding. The pass retypes every value, block argument and function
signature (tensors inside tuples too)::

    tensor<?x3xf32, #mhlo.type_extensions<bounds = [4, ?]>>
  ->
    tensor<?x3xf32, #stablehlo.bounds<4, ?>>

An encoding whose bounds are all ``?`` says nothing: the tensor loses it
(``tensor<?xf32>``).

Reading the attribute: ``hlo_mlir.ir_access.mhlo_type_extension_bounds`` (MHLO is not
registered here, so the encoding is an opaque attribute whose data it parses: ``?`` or a
non-negative integer per dimension).

Conditions: one bound per dimension, and ``?`` for every static dimension (as MHLO's
verifier requires); other encodings, and type extensions that break these, are left
alone (IREE then names the encoding it rejects). Run it before the passes that read
shapes of bounded dimensions (first in ``iree-legalize``: ``set-dimension-size-clamp``
creates ``#stablehlo.bounds`` types and must find them on its operands).
"""

from __future__ import annotations

from iree.compiler import ir

from hlo_mlir.ir_access import function_type, mhlo_type_extension_bounds
from pipelines.pass_base import Pass
from pipelines.registry import register

__all__ = ["TypeExtensionsToBounds"]

def _mhlo_bounds(t: ir.RankedTensorType) -> list[int | None] | None:
    """The bounds of ``t``'s ``#mhlo.type_extensions<bounds = [...]>`` (None for ``?``) if
    it has one that fits its shape, else None."""
    bounds = mhlo_type_extension_bounds(t)
    shape = list(t.shape)
    if bounds is None or len(bounds) != len(shape):
        return None
    dynamic = ir.ShapedType.get_dynamic_size()
    if any(b is not None and d != dynamic for b, d in zip(bounds, shape, strict=True)):
        return None
    return bounds


def _retyped(t: ir.Type) -> ir.Type:
    """``t`` with StableHLO bounds for MHLO type extensions (``t`` itself if it has none)."""
    if isinstance(t, ir.TupleType):
        elements = [t.get_type(i) for i in range(t.num_types)]
        new = [_retyped(e) for e in elements]
        return ir.TupleType.get_tuple(new) if new != elements else t
    if not isinstance(t, ir.RankedTensorType):
        return t
    shape = list(t.shape)
    bounds = _mhlo_bounds(t)
    if bounds is None:
        return t
    if all(b is None for b in bounds):
        return ir.RankedTensorType.get(shape, t.element_type)
    text = ", ".join("?" if b is None else str(b) for b in bounds)
    return ir.RankedTensorType.get(shape, t.element_type, ir.Attribute.parse(f"#stablehlo.bounds<{text}>"))


@register
class TypeExtensionsToBounds(Pass):
    """Rewrites #mhlo.type_extensions bounds to #stablehlo.bounds encodings (IREE rejects MHLO's)."""

    name = "type-extensions-to-bounds"
    legalizes_for_iree = True

    def run(self, module: ir.Module) -> bool:
        fired_before = sum(self.statistics.values())
        with module.context, ir.Location.unknown():  # types are built, no ops
            values, functions = [], []

            def visit(op):
                values.extend(op.results)
                for region in op.regions:
                    for block in region.blocks:
                        values.extend(block.arguments)
                if op.operation.name == "func.func":
                    functions.append(op)
                return ir.WalkResult.ADVANCE

            module.operation.walk(visit)
            for value in values:
                new = _retyped(value.type)
                if new != value.type:
                    value.set_type(new)
                    self.record("value-retyped")
            for func in functions:
                self._retype_signature(func)
        return sum(self.statistics.values()) > fired_before

    def _retype_signature(self, func) -> None:
        ftype = function_type(func)
        inputs, results = list(ftype.inputs), list(ftype.results)
        new_inputs, new_results = [_retyped(t) for t in inputs], [_retyped(t) for t in results]
        if new_inputs == inputs and new_results == results:
            return
        func.attributes["function_type"] = ir.TypeAttr.get(ir.FunctionType.get(new_inputs, new_results))
        self.record("signature-retyped")
