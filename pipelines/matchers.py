"""Small matchers over StableHLO IR that patterns share: defining ops, constants, splats.

All of them only read IR. Constants are read with numpy; element types the binding
cannot read into numpy (bf16, f8, complex arrays) are read only when they are splats.
"""

from __future__ import annotations

from typing import Iterable

import numpy as np
from iree.compiler import ir

from hlo_mlir.ir_access import bool_attr
from hlo_mlir.shape import Shape

__all__ = [
    "ops_where",
    "has_uses",
    "defining_op",
    "producer",
    "op_name",
    "element_dtype",
    "static_dims",
    "known_dims",
    "known_dtype",
    "xla_arrays",
    "constant_array",
    "splat_of",
    "same_bits",
    "is_constant",
    "nested_ops",
    "has_side_effects",
    "computed_from_constants",
]


def ops_where(root, predicate) -> list[ir.Operation]:
    """The ops under ``root`` (a module or an op, itself included) for which
    ``predicate(op)`` holds, inner ops before the ops that hold them (MLIR's post-order walk)."""
    found: list[ir.Operation] = []

    def visit(op):
        if predicate(op):
            found.append(op)
        return ir.WalkResult.ADVANCE

    root.operation.walk(visit, ir.WalkOrder.POST_ORDER)
    return found


def has_uses(value: ir.Value) -> bool:
    """Whether any op reads ``value``."""
    return next(iter(value.uses), None) is not None


def defining_op(value: ir.Value):
    """The op that defines ``value`` (an OpView), or None for a block argument."""
    owner = value.owner
    return owner if isinstance(owner, (ir.OpView, ir.Operation)) else None


def producer(value: ir.Value, *names: str):
    """The op defining ``value`` if its name is one of ``names``, else None."""
    op = defining_op(value)
    return op if op is not None and op.operation.name in names else None


def op_name(value: ir.Value) -> str | None:
    op = defining_op(value)
    return op.operation.name if op is not None else None


def element_dtype(value: ir.Value) -> np.dtype | None:
    """The numpy dtype of a ranked tensor value's elements, or None."""
    t = value.type
    if not isinstance(t, ir.RankedTensorType):
        return None
    try:
        return Shape.from_mlir_type(t).dtype
    except Exception:  # noqa: BLE001 - types without an XLA dtype
        return None


def static_dims(value: ir.Value) -> list[int] | None:
    """The dimension sizes of a ranked tensor value of any element type (quantized ones
    included), or None when a dimension is dynamic or the value is not a ranked tensor."""
    t = value.type
    if not isinstance(t, ir.RankedTensorType) or not t.has_static_shape:
        return None
    return list(t.shape)


def known_dims(value: ir.Value) -> list[int]:
    """:func:`static_dims` of a value a pass's ``matches`` found static; ValueError if not."""
    dims = static_dims(value)
    if dims is None:
        raise ValueError(f"expected a tensor of static shape; got {value.type}")
    return dims


def known_dtype(value: ir.Value) -> np.dtype:
    """:func:`element_dtype` of a value a pass's ``matches`` found an XLA array
    (:func:`xla_arrays`); ValueError if not."""
    dtype = element_dtype(value)
    if dtype is None:
        raise ValueError(f"expected a tensor with an XLA element type; got {value.type}")
    return dtype


def xla_arrays(values) -> bool:
    """Whether every value is an array with an XLA shape: False when one has a type without
    an XLA element type (``!quant.uniform``), an unbounded dynamic dimension, or is no tensor.
    Passes that build their rewrite from XLA shapes leave other ops alone."""
    return all(element_dtype(v) is not None for v in values)


def _attr_scalar(attr, dtype: np.dtype) -> np.ndarray | None:
    """A FloatAttr/IntegerAttr/BoolAttr as a 0-d array of ``dtype``."""
    for cls in (ir.BoolAttr, ir.IntegerAttr, ir.FloatAttr):
        if isinstance(attr, cls):
            try:
                return np.array(cls(attr).value).astype(dtype)
            except (TypeError, ValueError, OverflowError):
                return None
    return None


def _dense_constant(value: ir.Value) -> tuple[ir.DenseElementsAttr, np.dtype] | None:
    """(elements attribute, dtype) of a ``stablehlo.constant`` tensor the bindings can read."""
    op = defining_op(value)
    if op is None or op.operation.name != "stablehlo.constant" \
            or not isinstance(value.type, ir.RankedTensorType):
        return None
    dtype = element_dtype(value)
    if dtype is None or dtype.kind == "c":  # the bindings cannot read complex attributes
        return None
    attr = op.attributes["value"]
    if not isinstance(attr, ir.DenseElementsAttr):
        return None
    return ir.DenseElementsAttr(attr), dtype


def splat_of(value: ir.Value, through_broadcast: bool = True) -> np.ndarray | None:
    """The single value of ``value`` if every element is that value, as a 0-d array.

    Recognizes splat constants and (with ``through_broadcast``) ``broadcast_in_dim`` of
    one (XLA's scalar broadcast).
    """
    op = defining_op(value)
    if op is None:
        return None
    name = op.operation.name
    if name == "stablehlo.broadcast_in_dim" and through_broadcast:
        return splat_of(op.operands[0])
    read = _dense_constant(value)
    if read is None:
        return None
    attr, dtype = read
    if attr.is_splat:
        return _attr_scalar(attr.get_splat_value(), dtype)
    array = constant_array(value, max_elements=1)
    return array.reshape(()) if array is not None and array.size == 1 else None


def constant_array(value: ir.Value, max_elements: int | None = None) -> np.ndarray | None:
    """The elements of a constant ``value`` as a numpy array, or None when ``value`` is not a
    constant, is larger than ``max_elements``, or the binding cannot read its element type."""
    read = _dense_constant(value)
    if read is None:
        return None
    attr, dtype = read
    shape = list(ir.RankedTensorType(value.type).shape)
    if max_elements is not None and int(np.prod(shape, dtype=np.int64)) > max_elements:
        return None
    if attr.is_splat:
        scalar = _attr_scalar(attr.get_splat_value(), dtype)
        return None if scalar is None else np.full(shape, scalar, dtype=dtype)
    try:
        array = np.array(attr)
    except (TypeError, ValueError, RuntimeError):
        return None
    if array.dtype != dtype or list(array.shape) != shape:
        return None
    return array


def is_constant(value: ir.Value) -> bool:
    return op_name(value) == "stablehlo.constant"


def same_bits(a: np.ndarray, b: np.ndarray) -> bool:
    """Bitwise equality of two 0-d arrays of one dtype (tells -0.0 from +0.0)."""
    return a.dtype == b.dtype and np.ascontiguousarray(a).tobytes() == np.ascontiguousarray(b).tobytes()


# Ops whose effects make copying or dropping them observable (XLA: HasSideEffect). Calls
# are unknown code (O2 inlines them first). rng_bit_generator is a pure function of its
# state; rng is not (XLA draws new numbers on every execution).
_EFFECTFUL = frozenset({
    "stablehlo.infeed", "stablehlo.outfeed", "stablehlo.send", "stablehlo.recv",
    "stablehlo.all_reduce", "stablehlo.all_gather", "stablehlo.all_to_all", "stablehlo.reduce_scatter",
    "stablehlo.collective_permute", "stablehlo.collective_broadcast", "stablehlo.rng", "func.call",
})


def nested_ops(ops: Iterable) -> list:
    """``ops`` and every op nested in them."""
    out: list = []

    def visit(o):
        out.append(o)
        return ir.WalkResult.ADVANCE

    for op in ops:
        op.operation.walk(visit)
    return out


# Dialects whose ops (but those in _EFFECTFUL) are pure functions of their operands. An op
# of any other dialect counts as having side effects: rng-expander's ml_program.global_load
# and global_store are, and a while-loop pass that hoisted them drew the same numbers on
# every iteration.
_PURE_DIALECTS = ("stablehlo.", "chlo.", "tensor.", "arith.", "math.")
_PURE_OTHERS = frozenset({"func.return"})


def _has_side_effect(op) -> bool:
    name = op.name
    if name == "stablehlo.custom_call":
        return bool_attr(op, "has_side_effect")
    if name in _EFFECTFUL:
        return True
    return not name.startswith(_PURE_DIALECTS) and name not in _PURE_OTHERS


def has_side_effects(ops: Iterable) -> bool:
    """Whether any of ``ops`` or an op nested in one has side effects (XLA's HasSideEffect:
    feeds, send/recv, collectives, rng, calls, side-effecting custom calls; and any op
    outside the pure dialects, such as ``ml_program.global_load``)."""
    return any(_has_side_effect(o) for o in nested_ops(ops))


def _captured(op) -> list[ir.Value]:
    """The values the regions of ``op`` read that are defined outside ``op``."""
    inner = [o for o in nested_ops([op]) if o.operation != op.operation]
    defined = {r for o in inner for r in o.results}
    defined.update(a for o in [op, *inner] for region in o.regions for block in region.blocks
                   for a in block.arguments)
    return [v for o in inner for v in o.operands if v not in defined]


def computed_from_constants(value: ir.Value, max_ops: int = 256) -> bool:
    """Whether ``value`` is computed only from constants: no block argument flows into it
    (also through the values the regions of an op on the way capture) and no op on the way
    has side effects. A slice of more than ``max_ops`` ops counts as computed from constants
    (the callers fence such values, which is always safe)."""
    pending, seen = [value], 0
    while pending:
        op = defining_op(pending.pop())
        if op is None or has_side_effects([op]):
            return False
        seen += 1
        if seen > max_ops:
            return True
        if op.operation.name != "stablehlo.constant":
            pending.extend(op.operands)
            pending.extend(_captured(op) if len(op.regions) else [])
    return True
