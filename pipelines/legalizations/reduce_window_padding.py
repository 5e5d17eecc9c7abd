"""reduce-window-padding: an unsigned or PRED ``reduce_window`` reads its padding from an
explicit ``stablehlo.pad``.

The pinned IREE fails to compile a ``reduce_window`` with padding over unsigned
integers ("failed to legalize unresolved target materialization from ('ui8') to
('i8')") or PRED ("'arith.andi' op requires the same type for all operands and
results"): its padded-window lowering mixes the unsigned (PRED) element type with the
signless storage type. A ``stablehlo.pad`` of those types compiles, and the spec defines the
padding exactly so (``padded = pad(input, init_value, padding_low, padding_high,
base_dilations - 1)``)::

    %r = "stablehlo.reduce_window"(%x, %init)
           <{padding = dense<[[0, 1]]>, window_dimensions = array<i64: 2>}>
           : (tensor<4xui8>, tensor<ui8>) -> tensor<4xui8>

becomes::

    %p = stablehlo.pad %x, %init, low = [0], high = [1], interior = [0]
           : (tensor<4xui8>, tensor<ui8>) -> tensor<5xui8>
    %r = "stablehlo.reduce_window"(%p, %init) <{window_dimensions = array<i64: 2>}>
           : (tensor<5xui8>, tensor<ui8>) -> tensor<4xui8>

The op is copied with the padded inputs, zero padding and unit base dilations, so the
reducer region, strides, window dilations and result types are kept; a base dilation
becomes the pad's interior padding. Conditions: static shapes, some padding, and an
input of an unsigned or PRED element type (signed and floating-point windows, and
unpadded ones with base dilation only, compile and are left alone).
"""

from __future__ import annotations

from typing import Sequence

import numpy as np
from iree.compiler import ir

from dialect_ops.slicing import pad
from hlo_mlir import _emit
from hlo_mlir.ir_access import padding_pairs, window_values
from pipelines.matchers import element_dtype, static_dims
from pipelines.pass_base import ExpanderPass
from pipelines.registry import register

__all__ = ["ReduceWindowPadding"]


def _unsigned_or_pred(value: ir.Value) -> bool:
    dtype = element_dtype(value)
    return dtype is not None and (dtype == np.bool_ or dtype.kind == "u")


@register
class ReduceWindowPadding(ExpanderPass):
    """Pads an unsigned or PRED reduce_window's inputs explicitly (IREE fails on its padding)."""

    name = "reduce-window-padding"
    legalizes_for_iree = True

    def matches(self, op) -> bool:
        if op.operation.name != "stablehlo.reduce_window":
            return False
        n = len(op.results)
        inputs = list(op.operands)[:n]
        dims = static_dims(inputs[0])
        if dims is None or any(static_dims(v) is None for v in (*op.operands, *op.results)):
            return False
        if not any(_unsigned_or_pred(v) for v in inputs):
            return False
        return any(p != (0, 0) for p in padding_pairs(op, len(dims)))

    def expand(self, op) -> Sequence[ir.Value]:
        """reduce_window(x, init), padding p, base dilation b -> reduce_window(pad(x, init, p, b-1), init)."""
        n = len(op.results)
        operands = list(op.operands)
        rank = len(static_dims(operands[0]) or ())  # static: checked by matches
        dilations = window_values(op, "base_dilations", rank)
        pairs = padding_pairs(op, rank)
        triples = [(low, high, d - 1) for (low, high), d in zip(pairs, dilations, strict=True)]
        padded = [pad(x, init, triples) for x, init in zip(operands[:n], operands[n:], strict=True)]
        copy = op.operation.clone()  # at the insertion point: types, region and attributes
        for k, value in enumerate(padded):
            copy.operands[k] = value
        copy.attributes["padding"] = _emit.dense_i64_elements(np.zeros(2 * rank, np.int64), (rank, 2))
        copy.attributes["base_dilations"] = _emit.i64_array([1] * rank)
        return list(copy.results)
