"""Batch normalization: BatchNormTraining, BatchNormInference and BatchNormGrad (spec:
BatchNormTraining, BatchNormInference, BatchNormGrad), lowering to the StableHLO ops of the
same names.

Each normalizes per feature: ``feature_index`` names the operand's feature dimension, every
other dimension is reduced over, and the per-feature arrays (scale, offset, mean, variance)
are 1-D of the feature dimension's size. StableHLO's training and grad ops have three
results where XLA's have one tuple: the builder packs them with ``tuple_``, as XLA does.
The pinned IREE rejects ``batch_norm_grad``: ``batchnorm-expander`` (pipelines/expanders)
rewrites it into element-wise ops and reductions with XLA's formulas.
"""

from __future__ import annotations

from typing import Sequence

import numpy as np
from iree.compiler import ir

from dialect_ops._args import int_arg
from dialect_ops.tuple_ops import tuple_
from hlo_mlir import _emit
from hlo_mlir.builder import XlaOp, builder_of
from hlo_mlir.errors import DTypeError, InvalidArgumentError, ShapeError
from hlo_mlir.shape import Shape

__all__ = ["BatchNormTraining", "batch_norm_training_rule", "batch_norm_training",
           "BatchNormInference", "batch_norm_inference_rule", "batch_norm_inference",
           "BatchNormGrad", "batch_norm_grad_rule", "batch_norm_grad",
           "batch_norm_attributes"]


# --- shared rule ---------------------------------------------------------------------------
def _batch_norm_rule(op_name: str, operand: Shape, features: Sequence[tuple[str, Shape]], epsilon,
                     feature_index) -> Shape:
    """Checks the operand and the per-feature arrays; returns the feature shape."""
    if not operand.is_array or not operand.element_type.is_floating_point:
        raise DTypeError(f"{op_name} requires a floating-point operand; got {operand}.")
    if operand.rank < 1:
        raise ShapeError(f"{op_name} requires an operand of rank >= 1; got {operand}.")
    if isinstance(epsilon, bool) or not isinstance(epsilon, (float, int, np.floating, np.integer)):
        raise InvalidArgumentError(f"{op_name} requires a float epsilon; got {epsilon!r}.")
    index = int_arg(op_name, "feature_index", feature_index)
    if not 0 <= index < operand.rank:
        raise InvalidArgumentError(f"{op_name} requires feature_index in [0, {operand.rank}) for operand "
                                   f"{operand}; got {index}.")
    feature = Shape.array_shape(operand.element_type, [operand.dimensions[index]])
    for name, shape in features:
        if not shape.compatible(feature):
            raise ShapeError(f"{op_name} requires {name} of shape {feature} (the operand's element type and "
                             f"feature dimension {index} of {operand}); got {shape}.")
    return feature


def batch_norm_attributes(epsilon, feature_index) -> dict:
    """The ``epsilon`` (f32, given bit for bit in hex) and ``feature_index`` attributes."""
    bits = int(np.float32(epsilon).view(np.uint32))
    return {"epsilon": _emit.parse_attr(f"0x{bits:08X} : f32"),
            "feature_index": _emit.i64_attr(feature_index)}


def _create(name: str, operands: Sequence[ir.Value], results: Sequence[Shape], epsilon,
            feature_index) -> list[ir.Value]:
    op = _emit.create(name, operands, [_emit.type_of(s) for s in results],
                      batch_norm_attributes(epsilon, feature_index))
    return list(op.results)


# --- BatchNormTraining ----------------------------------------------------------------------
def BatchNormTraining(operand: XlaOp, scale: XlaOp, offset: XlaOp, epsilon: float,
                      feature_index: int) -> XlaOp:
    """Normalizes ``operand`` per feature with the batch mean and variance over all other
    dimensions, then scales and shifts: ``(x - mean) / sqrt(var + epsilon) * scale + offset``;
    returns the tuple ``(output, batch_mean, batch_var)`` (spec: BatchNormTraining)."""
    b = builder_of("BatchNormTraining", operand, scale, offset)
    return b.emit("BatchNormTraining", lambda: batch_norm_training(
        operand.value, scale.value, offset.value, epsilon, feature_index))


def batch_norm_training_rule(operand: Shape, scale: Shape, offset: Shape, epsilon, feature_index) -> Shape:
    feature = _batch_norm_rule("BatchNormTraining", operand, [("scale", scale), ("offset", offset)],
                               epsilon, feature_index)
    return Shape.tuple_shape([operand, feature, feature])


def batch_norm_training(operand: ir.Value, scale: ir.Value, offset: ir.Value, epsilon,
                        feature_index: int) -> ir.Value:
    """Emits ``stablehlo.batch_norm_training`` and packs its three results into a tuple."""
    x, s, o = _emit.shapes_of([operand, scale, offset])
    result = batch_norm_training_rule(x, s, o, epsilon, feature_index)
    return tuple_(_create("stablehlo.batch_norm_training", [operand, scale, offset], result.tuple_shapes,
                          epsilon, feature_index))


# --- BatchNormInference ---------------------------------------------------------------------
def BatchNormInference(operand: XlaOp, scale: XlaOp, offset: XlaOp, mean: XlaOp, variance: XlaOp,
                       epsilon: float, feature_index: int) -> XlaOp:
    """Normalizes ``operand`` per feature with the given ``mean`` and ``variance``:
    ``(x - mean) / sqrt(variance + epsilon) * scale + offset`` (spec: BatchNormInference)."""
    b = builder_of("BatchNormInference", operand, scale, offset, mean, variance)
    return b.emit("BatchNormInference", lambda: batch_norm_inference(
        operand.value, scale.value, offset.value, mean.value, variance.value, epsilon, feature_index))


def batch_norm_inference_rule(operand: Shape, scale: Shape, offset: Shape, mean: Shape, variance: Shape,
                              epsilon, feature_index) -> Shape:
    _batch_norm_rule("BatchNormInference", operand,
                     [("scale", scale), ("offset", offset), ("mean", mean), ("variance", variance)],
                     epsilon, feature_index)
    return operand


def batch_norm_inference(operand: ir.Value, scale: ir.Value, offset: ir.Value, mean: ir.Value,
                         variance: ir.Value, epsilon, feature_index: int) -> ir.Value:
    """Emits ``stablehlo.batch_norm_inference``."""
    operands = [operand, scale, offset, mean, variance]
    x, s, o, m, v = _emit.shapes_of(operands)
    result = batch_norm_inference_rule(x, s, o, m, v, epsilon, feature_index)
    return _create("stablehlo.batch_norm_inference", operands, [result], epsilon, feature_index)[0]


# --- BatchNormGrad --------------------------------------------------------------------------
def BatchNormGrad(operand: XlaOp, scale: XlaOp, mean: XlaOp, variance: XlaOp, grad_output: XlaOp,
                  epsilon: float, feature_index: int) -> XlaOp:
    """The gradients of batch normalization with respect to the operand, the scale and the
    offset, given the output gradient ``grad_output``; returns the tuple
    ``(grad_operand, grad_scale, grad_offset)`` (spec: BatchNormGrad)."""
    b = builder_of("BatchNormGrad", operand, scale, mean, variance, grad_output)
    return b.emit("BatchNormGrad", lambda: batch_norm_grad(
        operand.value, scale.value, mean.value, variance.value, grad_output.value, epsilon, feature_index))


def batch_norm_grad_rule(operand: Shape, scale: Shape, mean: Shape, variance: Shape, grad_output: Shape,
                         epsilon, feature_index) -> Shape:
    feature = _batch_norm_rule("BatchNormGrad", operand,
                               [("scale", scale), ("mean", mean), ("variance", variance)], epsilon,
                               feature_index)
    if not grad_output.compatible(operand):
        raise ShapeError(
            f"BatchNormGrad requires grad_output of the operand's shape {operand}; got {grad_output}.")
    return Shape.tuple_shape([operand, feature, feature])


def batch_norm_grad(operand: ir.Value, scale: ir.Value, mean: ir.Value, variance: ir.Value,
                    grad_output: ir.Value, epsilon, feature_index: int) -> ir.Value:
    """Emits ``stablehlo.batch_norm_grad`` and packs its three results into a tuple."""
    operands = [operand, scale, mean, variance, grad_output]
    x, s, m, v, dy = _emit.shapes_of(operands)
    result = batch_norm_grad_rule(x, s, m, v, dy, epsilon, feature_index)
    return tuple_(_create("stablehlo.batch_norm_grad", operands, result.tuple_shapes, epsilon, feature_index))
