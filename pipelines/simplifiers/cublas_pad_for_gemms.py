"""cuBLAS GEMM pad for tensor cores (spec 004; XLA ``CublasPadForGemms``).

Tensor-core matrix units take f16/bf16 matrices whose dimensions are multiples of 8
(s8: of 4). XLA pads the two matrix dimensions of each operand of a canonical dot with
zeros and slices the result back; here every ``dot_general`` of those element types
gets the same treatment::

    %r = stablehlo.dot_general %x, %y, contracting_dims = [1] x [0]
           : (tensor<5x16xf16>, tensor<16x3xf16>) -> tensor<5x3xf16>

becomes ::

    %z = stablehlo.constant dense<0.0> : tensor<f16>
    %x2 = stablehlo.pad %x, %z, low = [0, 0], high = [3, 0], interior = [0, 0]
    %y2 = stablehlo.pad %y, %z, low = [0, 0], high = [0, 5], interior = [0, 0]
    %d = stablehlo.dot_general %x2, %y2, contracting_dims = [1] x [0]
           : (tensor<8x16xf16>, tensor<16x8xf16>) -> tensor<8x8xf16>
    %r = stablehlo.slice %d [0:5, 0:3]

Exactness: a padded *free* (non-contracting, non-batch) dimension only adds result rows
or columns that the slice drops; the others are computed from the same terms. A padded
*contracting* dimension adds ``+0.0`` terms to every sum: exact for integers, and for
floats only where a sum never is ``-0.0`` (``-0.0 + +0.0`` is ``+0.0``: the sum of
``-1 * 0`` products is ``-0.0`` in numpy and by the spec's sum of products) and the
longer loop is not regrouped. The pinned IREE starts its float dot sums at ``+0.0`` and
gave the same bits with padded contracting dimensions on llvm-cpu and Vulkan, but
that is its implementation's choice, so float contracting dimensions pad only with
``float-contracting=true`` (XLA pads them always); s8 ones always. Batch dimensions
are never padded. Conditions: operands of one of the padded element types (f16 and
bf16 to ``multiple``, s8 to ``int8-multiple``; a multiple of 1 turns a type off),
static shapes, a result type our shape rule gives. The padding is for GPU targets (a
``gpu`` pipeline): on CPU it only adds work.
"""

from __future__ import annotations

import dataclasses
from typing import Sequence

import ml_dtypes
import numpy as np
from iree.compiler import ir

from dialect_ops.constant import constant
from dialect_ops.slicing import pad, slice_
from pipelines.contractions import dot_dims, free_dims, rebuildable, rebuilt_dot
from pipelines.matchers import element_dtype, known_dims, known_dtype
from pipelines.pass_base import ExpanderPass
from pipelines.registry import register

__all__ = ["CublasPadForGemms", "round_up"]


def round_up(n: int, multiple: int) -> int:
    return -(-n // multiple) * multiple


@register
@dataclasses.dataclass
class CublasPadForGemms(ExpanderPass):
    """Pad f16/bf16 (and s8) dot_general dimensions to tensor-core multiples with zeros, slice the result."""

    name = "cublas-pad-for-gemms"
    acts_on = frozenset({"stablehlo.dot_general"})
    aliases = ("cublas-gemm-pad-for-tensor-cores",)
    multiple: int = dataclasses.field(
        default=8, metadata={"help": "pad f16 and bf16 dimensions to a multiple of this"})
    int8_multiple: int = dataclasses.field(
        default=4, metadata={"help": "pad s8 dimensions to a multiple of this"})
    float_contracting: bool = dataclasses.field(
        default=False, metadata={"help": "also pad f16/bf16 contracting dimensions, as XLA does "
                                         "(a -0.0 sum may become +0.0)"})

    def _multiple(self, op) -> int:
        dtype = element_dtype(op.operands[0])
        if dtype in (np.dtype(np.float16), np.dtype(ml_dtypes.bfloat16)):
            return self.multiple
        return self.int8_multiple if dtype == np.dtype(np.int8) else 1

    def matches(self, op) -> bool:
        if op.operation.name != "stablehlo.dot_general" or not rebuildable(op):
            return False
        if element_dtype(op.operands[0]) != element_dtype(op.operands[1]) or self._multiple(op) <= 1:
            return False
        return any(p > 0 for side in self._padding(op) for p in side)

    def rule(self, op) -> str:
        return f"pad-{known_dtype(op.operands[0]).name}"

    def _padding(self, op) -> tuple[list[int], list[int]]:
        """The high padding of each lhs and rhs dimension."""
        dnums, m = dot_dims(op), self._multiple(op)
        lhs, rhs = (known_dims(v) for v in op.operands)
        pads = [[0] * len(lhs), [0] * len(rhs)]
        for i, (dims, contracting, batch) in enumerate((
                (lhs, dnums.lhs_contracting_dimensions, dnums.lhs_batch_dimensions),
                (rhs, dnums.rhs_contracting_dimensions, dnums.rhs_batch_dimensions))):
            for d in free_dims(len(dims), contracting, batch):
                pads[i][d] = round_up(dims[d], m) - dims[d]
        if known_dtype(op.operands[0]).kind in "iu" or self.float_contracting:  # see the docstring
            pairs = zip(dnums.lhs_contracting_dimensions, dnums.rhs_contracting_dimensions, strict=True)
            for ld, rd in pairs:
                pads[0][ld] = pads[1][rd] = round_up(lhs[ld], m) - lhs[ld]
        return pads[0], pads[1]

    def expand(self, op) -> Sequence[ir.Value]:
        zero = constant(np.zeros((), element_dtype(op.operands[0])))
        operands = [v if not any(p) else pad(v, zero, [(0, h, 0) for h in p])
                    for v, p in zip(op.operands, self._padding(op), strict=True)]
        padded = rebuilt_dot(op, operands[0], operands[1], dot_dims(op))
        sizes = known_dims(op.results[0])
        return [slice_(padded, [0] * len(sizes), sizes)]
