"""rng-bit-generator-empty: an ``rng_bit_generator`` with an empty output is its state and
an empty constant.

The pinned IREE aborts (SIGABRT) compiling an ``rng_bit_generator`` whose output has no
elements. Nothing is generated, and XLA returns the state unchanged (THREE_FRY, PHILOX
and DEFAULT alike: the counter advances by the number of values drawn, here none), so::

    %s2, %x = stablehlo.rng_bit_generator %s, algorithm = THREE_FRY
        : (tensor<2xui64>) -> (tensor<2xui64>, tensor<0x6xui32>)

becomes ``%s2 = %s`` and ``%x = stablehlo.constant dense<> : tensor<0x6xui32>``.
Conditions: a statically shaped output with a zero dimension and an output state of
the input state's type; other generators are left alone. Run ``dce`` afterwards.
"""

from __future__ import annotations

from typing import Sequence

import numpy as np
from iree.compiler import ir

from hlo_mlir import _emit
from pipelines.matchers import xla_arrays
from pipelines.pass_base import ExpanderPass
from pipelines.registry import register

__all__ = ["RngBitGeneratorEmpty"]


@register
class RngBitGeneratorEmpty(ExpanderPass):
    """Makes an rng_bit_generator with an empty output its state and an empty constant (IREE aborts)."""

    name = "rng-bit-generator-empty"
    legalizes_for_iree = True

    def matches(self, op) -> bool:
        if op.operation.name != "stablehlo.rng_bit_generator" or not xla_arrays(op.results):
            return False
        t = op.results[1].type
        return (isinstance(t, ir.RankedTensorType) and t.has_static_shape and 0 in t.shape
                and op.results[0].type == op.operands[0].type)

    def expand(self, op) -> Sequence[ir.Value]:
        """rng_bit_generator(s) -> (s, dense<>) for an output with no elements."""
        shape = _emit.shape_of(op.results[1])
        empty = _emit.constant(np.zeros(shape.dimensions, shape.dtype), shape)
        return [op.operands[0], empty]
