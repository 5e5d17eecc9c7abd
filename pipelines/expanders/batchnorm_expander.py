"""batchnorm-expander: the batch-norm ops as element-wise ops and reductions, with the
formulas of XLA's BatchNormExpander (which XLA CPU runs on all three).

The pinned IREE rejects ``stablehlo.batch_norm_grad`` (ARCHITECTURE.md); it compiles
training and inference and computes them correctly (tests/e2e/test_batchnorm.py), so those
two are expanded only on request (options ``training`` and ``inference``). With ``x`` the
operand, ``N`` the number of elements per feature, sums over every dimension but the
feature dimension and per-feature values broadcast along it::

    batch_norm_grad(x, scale, mean, var, dy):
      grad_offset  = sum(dy)
      grad_scale   = sum(dy * (x - mean)) * rsqrt(var + eps)
      grad_operand = scale * rsqrt(var + eps) / N
                     * (N * dy - grad_offset - (x - mean) * sum(dy * (x - mean)) / (var + eps))
    batch_norm_training(x, scale, offset):
      mean = sum(x) / N;  var = sum(x * x) / N - mean * mean
      output = (x - mean) * rsqrt(var + eps) * scale + offset
    batch_norm_inference(x, scale, offset, mean, var):
      s = scale * rsqrt(var + eps);  output = x * s + (offset - mean * s)

Conditions: none (``training``/``inference`` off by default).
"""

from __future__ import annotations

import dataclasses
import math
from typing import Sequence

from iree.compiler import ir

from dialect_ops.elementwise import binary, unary
from dialect_ops.reduction import reduce
from dialect_ops.shape_ops import broadcast_in_dim
from hlo_mlir import _emit
from hlo_mlir.ir_access import float_attr, int_attr
from pipelines.pass_base import ExpanderPass
from pipelines.registry import register
from pipelines.values import scalar

__all__ = ["BatchNormExpander"]


@register
@dataclasses.dataclass
class BatchNormExpander(ExpanderPass):
    """Expands batch_norm_grad (training, inference on request) into element-wise ops and reductions."""

    name = "batchnorm-expander"
    aliases = ("batchnorm-rewriter",)  # spec 004 names it BatchNormRewriter too (its older name)
    legalizes_for_iree = True
    training: bool = dataclasses.field(default=False, metadata={"help": "also expand batch_norm_training"})
    inference: bool = dataclasses.field(default=False, metadata={"help": "also expand batch_norm_inference"})
    grad: bool = dataclasses.field(default=True, metadata={"help": "expand batch_norm_grad"})

    def matches(self, op) -> bool:
        return {"stablehlo.batch_norm_grad": self.grad, "stablehlo.batch_norm_training": self.training,
                "stablehlo.batch_norm_inference": self.inference}.get(op.operation.name, False)

    def expand(self, op) -> Sequence[ir.Value]:
        norm = _Normalization(op)
        return {"stablehlo.batch_norm_grad": norm.grad, "stablehlo.batch_norm_training": norm.training,
                "stablehlo.batch_norm_inference": norm.inference}[op.operation.name]()


class _Normalization:
    """The operands of one batch-norm op and the per-feature helpers its expansion uses."""

    def __init__(self, op):
        self.operands = list(op.operands)
        self.shape = _emit.shape_of(op.operands[0])
        self.feature_index = int_attr(op, "feature_index")
        self.epsilon = float_attr(op, "epsilon")
        self.reduced = [d for d in range(self.shape.rank) if d != self.feature_index]
        self.count = math.prod(self.shape.dimensions[d] for d in self.reduced)

    def scalar(self, value: float) -> ir.Value:
        return scalar(value, self.shape.element_type)

    def spread(self, feature: ir.Value) -> ir.Value:
        """A per-feature value broadcast to the operand's shape."""
        return broadcast_in_dim(feature, self.shape.dimensions, [self.feature_index])

    def sum(self, value: ir.Value) -> ir.Value:
        """The per-feature sum of an operand-shaped value."""
        def add(block: ir.Block) -> None:
            with ir.InsertionPoint(block):
                _emit.region_return([binary("Add", *block.arguments)])

        return reduce([value], [self.scalar(0)], self.reduced, add)[0]

    def rsqrt_var_eps(self, variance: ir.Value) -> ir.Value:
        return unary("Rsqrt", binary("Add", variance, self.scalar(self.epsilon)))

    def grad(self) -> list[ir.Value]:
        x, scale, mean, variance, dy = self.operands
        centered = binary("Sub", x, self.spread(mean))
        sum_dy_centered = self.sum(binary("Mul", dy, centered))
        grad_offset = self.sum(dy)
        rsqrt = self.rsqrt_var_eps(variance)
        grad_scale = binary("Mul", sum_dy_centered, rsqrt)
        i5 = binary("Div", binary("Mul", self.spread(sum_dy_centered), centered),
                    self.spread(binary("Add", variance, self.scalar(self.epsilon))))
        scaled_dy = binary("Mul", dy, self.scalar(self.count))
        i6 = binary("Sub", binary("Sub", scaled_dy, self.spread(grad_offset)), i5)
        factor = binary("Div", binary("Mul", scale, rsqrt), self.scalar(self.count))
        return [binary("Mul", self.spread(factor), i6), grad_scale, grad_offset]

    def training(self) -> list[ir.Value]:
        x, scale, offset = self.operands
        n = self.scalar(self.count)
        mean = binary("Div", self.sum(x), n)
        variance = binary("Sub", binary("Div", self.sum(binary("Mul", x, x)), n), binary("Mul", mean, mean))
        normalized = binary("Mul", binary("Sub", x, self.spread(mean)),
                            self.spread(self.rsqrt_var_eps(variance)))
        output = binary("Add", binary("Mul", normalized, self.spread(scale)), self.spread(offset))
        return [output, mean, variance]

    def inference(self) -> list[ir.Value]:
        x, scale, offset, mean, variance = self.operands
        true_scale = binary("Mul", scale, self.rsqrt_var_eps(variance))
        true_shift = binary("Sub", offset, binary("Mul", mean, true_scale))
        return [binary("Add", binary("Mul", x, self.spread(true_scale)), self.spread(true_shift))]

