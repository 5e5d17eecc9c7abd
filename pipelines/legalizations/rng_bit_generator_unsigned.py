"""rng-bit-generator-unsigned: generates float random bits as unsigned integers, then
bitcasts them.

The pinned IREE fails to compile ``rng_bit_generator`` with an f16, bf16 or f64 output
("rank of smaller element type (1) should be 1 more than rank of larger element type");
unsigned outputs of every width compile and equal XLA's bits. The bits are the same by
definition, so::

    %s2, %x = stablehlo.rng_bit_generator %s, algorithm = THREE_FRY
        : (...) -> (tensor<2xui64>, tensor<3xf64>)

becomes::

    %s2, %u = stablehlo.rng_bit_generator %s, algorithm = THREE_FRY
        : (...) -> (tensor<2xui64>, tensor<3xui64>)
    %x = stablehlo.bitcast_convert %u : (tensor<3xui64>) -> tensor<3xf64>

Conditions: a floating-point output (f32 compiles, but is rewritten too so that every
float width takes one path) of static shape.
"""

from __future__ import annotations

from typing import Sequence

from iree.compiler import ir

from dialect_ops.elementwise import bitcast_convert
from dialect_ops.rng import RandomAlgorithm, rng_bit_generator
from hlo_mlir import _emit
from hlo_mlir.ir_access import rng_algorithm
from hlo_mlir.types import from_dtype
from pipelines.pass_base import ExpanderPass
from pipelines.registry import register

__all__ = ["RngBitGeneratorUnsigned"]


@register
class RngBitGeneratorUnsigned(ExpanderPass):
    """Generates float rng_bit_generator outputs as unsigned bits plus a bitcast (IREE rejects f16/f64)."""

    name = "rng-bit-generator-unsigned"
    legalizes_for_iree = True

    def matches(self, op) -> bool:
        if op.operation.name != "stablehlo.rng_bit_generator":
            return False
        t = op.results[1].type
        return isinstance(t, ir.RankedTensorType) and t.has_static_shape and \
            _emit.shape_of(op.results[1]).element_type.is_floating_point

    def expand(self, op) -> Sequence[ir.Value]:
        shape = _emit.shape_of(op.results[1])
        unsigned = from_dtype(f"u{shape.element_type.bit_width}")
        algorithm = RandomAlgorithm.parse(rng_algorithm(op))
        state, bits = rng_bit_generator(algorithm, op.operands[0], shape.with_element_type(unsigned))
        return [state, bitcast_convert(bits, shape.element_type)]
