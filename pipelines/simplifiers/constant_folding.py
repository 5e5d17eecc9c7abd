"""Constant folding (spec 004: HLO constant folding).

An op whose operands are all constants is replaced by a constant holding its result,
computed with numpy under XLA's semantics (``dialect_ops.op_facts``): integer division
rounds toward zero and ``x / 0`` is -1, shifts past the bit width give 0 or the sign,
add/multiply on PRED are OR/AND. Only ops whose numpy result is bit-exact are folded:
element-wise arithmetic that IEEE rounds correctly (add, subtract, multiply, divide,
sqrt, ...), comparisons, select, integer/PRED logic, converts between types that keep
every value, and data movement (reshape, transpose, broadcast_in_dim, slice,
concatenate, iota). Transcendental functions are not folded (the result would depend
on the host's libm, not on the compiled code).

Folding is size-capped: a result with more than ``max-elements`` elements is left
alone (a huge constant costs more than the op). A splat result is always folded (it
is stored as one element). Run ``dce`` afterwards to drop the constants no longer used.

Example::

    %a = stablehlo.constant dense<[1, 2]> : tensor<2xi32>
    %b = stablehlo.add %a, %a : tensor<2xi32>     // -> stablehlo.constant dense<[2, 4]>
"""

from __future__ import annotations

import dataclasses
from typing import Callable

import numpy as np
from iree.compiler import ir

from dialect_ops import op_facts
from hlo_mlir import _emit
from hlo_mlir.ir_access import comparison_direction, comparison_type, int_array, int_attr
from hlo_mlir.shape import Shape
from pipelines.matchers import constant_array, element_dtype, is_constant, same_bits, splat_of
from pipelines.pass_base import PatternPass, pattern
from pipelines.registry import register

__all__ = ["ConstantFolding"]

# Ops that only move elements: a splat operand gives a splat result.
_MOVEMENT = (
    "stablehlo.reshape",
    "stablehlo.transpose",
    "stablehlo.broadcast_in_dim",
    "stablehlo.slice",
    "stablehlo.concatenate",
)
_COMPARE = {
    "EQ": np.equal,
    "NE": np.not_equal,
    "GE": np.greater_equal,
    "GT": np.greater,
    "LE": np.less_equal,
    "LT": np.less,
}


def _result_shape(op) -> Shape | None:
    try:
        return Shape.from_mlir_type(op.results[0].type)
    except Exception:  # noqa: BLE001 - tuples, tokens, unknown types
        return None


def _folds_to_splat(array: np.ndarray) -> bool:
    flat = np.ascontiguousarray(array).reshape(-1)
    return flat.size > 0 and bool(
        (flat.view(np.uint8).reshape(flat.size, -1) == flat[:1].view(np.uint8)).all()
    )


class _Folder:
    """Per-op fold functions: (op, operand arrays) -> result array or None."""

    def __init__(self) -> None:
        self.by_op: dict[str, Callable] = {}

    def register(self, *names: str):
        def wrap(fn):
            for n in names:
                self.by_op[n] = fn
            return fn

        return wrap


FOLDERS = _Folder()


@FOLDERS.register(*[row.op for row in op_facts.FACTS.values() if row.fold])
def _binary(op, x, y):
    return op_facts.fold_binary(op.operation.name, x, y)


@FOLDERS.register(*op_facts.UNARY_FOLDS)
def _unary(op, x):
    if element_dtype(op.results[0]) != x.dtype:  # e.g. abs of complex
        return None
    return op_facts.fold_unary(op.operation.name, x)


@FOLDERS.register("stablehlo.compare")
def _compare(op, x, y):
    direction = comparison_direction(op)
    kind = comparison_type(op) or "FLOAT"
    if (
        kind == "TOTALORDER"
        or (kind == "SIGNED") != (x.dtype.kind == "i")
        and kind != "FLOAT"
        or x.dtype.kind == "c"
        and direction not in ("EQ", "NE")
    ):
        return None
    return _COMPARE[direction](x, y)


@FOLDERS.register("stablehlo.select")
def _select(op, pred, on_true, on_false):
    return np.where(pred, on_true, on_false)


_EXACT_CASTS = ("float32", "float64", "float16")  # numpy converts to these with one correct rounding


@FOLDERS.register("stablehlo.convert")
def _convert(op, x):
    """Only the converts numpy performs exactly like XLA (one correctly rounded step)."""
    dtype = element_dtype(op.results[0])
    src, dst = op_facts.type_class(x.dtype), op_facts.type_class(dtype)
    if "complex" in (src, dst):
        return None
    if dst == "pred" or src in ("int", "pred") and dst == "int":
        return x.astype(dtype)  # x != 0; two's-complement wrap
    if src == "float" and dst == "int":
        # XLA: toward zero, saturating, NaN -> 0 (float-to-int-saturation). The bounds are
        # compared in f64 as min and max + 1, powers of two and exact (f32(2**31 - 1) is 2**31).
        info = np.iinfo(dtype)
        wide = np.trunc(np.nan_to_num(x.astype(np.float64), nan=0.0))
        above, below = wide >= float(info.max) + 1, wide <= float(info.min)
        inside = np.where(above | below, 0.0, wide).astype(dtype)
        return np.where(above, info.max, np.where(below, info.min, inside)).astype(dtype)
    if src in ("int", "pred"):  # to float: exact below 2**24, else only numpy's direct casts
        small = np.abs(x.astype(np.float64)) <= 2.0**24
        return x.astype(dtype) if dtype.name in _EXACT_CASTS[:2] or small.all() else None
    widening = (
        x.dtype.itemsize < dtype.itemsize
        and x.dtype.name != "bfloat16"
        or x.dtype.name == "bfloat16"
        and dtype.name in _EXACT_CASTS[:2]
    )
    if widening or x.dtype.name == "float32" or x.dtype.name == "float64" and dtype.name in _EXACT_CASTS:
        return x.astype(dtype)
    return None  # e.g. f64 -> bf16 through numpy may round twice


@FOLDERS.register("stablehlo.reshape")
def _reshape(op, x):
    return x.reshape(ir.RankedTensorType(op.results[0].type).shape)


@FOLDERS.register("stablehlo.transpose")
def _transpose(op, x):
    return np.transpose(x, int_array(op, "permutation"))


@FOLDERS.register("stablehlo.broadcast_in_dim")
def _broadcast(op, x):
    """Folded only to a splat (like XLA, a large constant would cost more than the broadcast)."""
    if x.size != 1:
        return None
    dims = int_array(op, "broadcast_dimensions")
    out = list(ir.RankedTensorType(op.results[0].type).shape)
    expanded = [1] * len(out)
    for i, d in enumerate(dims):
        expanded[d] = x.shape[i]
    # operand dimension i goes to output dimension dims[i]; reorder axes first
    order = sorted(range(len(dims)), key=lambda i: dims[i])
    return np.broadcast_to(np.transpose(x, order).reshape(expanded), out)


@FOLDERS.register("stablehlo.slice")
def _slice(op, x):
    start, limit, strides = (int_array(op, k) for k in ("start_indices", "limit_indices", "strides"))
    return x[tuple(slice(a, b, s) for a, b, s in zip(start, limit, strides, strict=True))]


@FOLDERS.register("stablehlo.concatenate")
def _concatenate(op, *xs):
    return np.concatenate(xs, axis=int_attr(op, "dimension"))


@register
@dataclasses.dataclass
class ConstantFolding(PatternPass):
    """Constant folding: replace ops of constant operands by their exact result (size-capped)."""

    name = "constant-folding"
    aliases = ("hlo-constant-folding",)  # spec 004
    max_elements: int = dataclasses.field(
        default=65536, metadata={"help": "largest non-splat result folded (elements)"}
    )

    def active_patterns(self):
        return [
            pattern(name, name="fold-" + name.split(".", 1)[1].replace("_", "-"))(self._fold)
            for name in FOLDERS.by_op
        ]

    def _fold(self, op):
        """op(c1, ..., cn) -> c, c computed by numpy with XLA semantics (size-capped)."""
        if not all(is_constant(v) for v in op.operands):  # the common case, decided cheaply
            return None
        limit = self.max_elements
        shape = _result_shape(op)
        if shape is None or len(op.results) != 1 or not shape.is_array:
            return None
        result = self._fold_splats(op)
        if result is not None:
            return [_emit.constant(result, shape)]  # a 0-d result: stored as a splat
        operands = [constant_array(v, limit) for v in op.operands]
        if any(a is None for a in operands):
            return None
        with np.errstate(all="ignore"):
            result = FOLDERS.by_op[op.operation.name](op, *operands)
        if result is None:
            return None
        result = np.asarray(result)
        if result.dtype != shape.dtype:
            result = result.astype(shape.dtype)
        if tuple(result.shape) != shape.dimensions:
            return None
        splat = result.size > 0 and _folds_to_splat(result)
        if result.size > limit and not splat:
            return None
        if splat:
            result = result.reshape(-1)[:1].reshape(())  # stored as one element
        return [_emit.constant(np.ascontiguousarray(result), shape)]

    @staticmethod
    def _fold_splats(op) -> np.ndarray | None:
        """The 0-d result when every operand is a splat constant (any size: no cap needed)."""
        found = [splat_of(v, through_broadcast=False) for v in op.operands]
        splats = [s for s in found if s is not None]
        if not splats or len(splats) != len(found):
            return None
        name = op.operation.name
        if name in _MOVEMENT:
            return splats[0] if all(same_bits(s, splats[0]) for s in splats) else None
        with np.errstate(all="ignore"):
            result = FOLDERS.by_op[name](op, *splats)
        if result is None or np.ndim(result) != 0:
            return None
        return np.asarray(result).astype(element_dtype(op.results[0]))
