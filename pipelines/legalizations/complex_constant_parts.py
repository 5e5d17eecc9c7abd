"""complex-constant-parts: a complex constant is built from constants of its real and
imaginary parts.

The pinned IREE crashes on any complex constant it has to materialize (SIGFPE while
packing it; "stream.async.splat operand must be ... integer, but got i128" for a
complex<f64> scalar); constants of the component type are fine::

    %c = stablehlo.constant dense<[(1.0, 2.0), (3.0, -4.0)]> : tensor<2xcomplex<f32>>

becomes::

    %re = stablehlo.constant dense<[1.0, 3.0]> : tensor<2xf32>
    %im = stablehlo.constant dense<[2.0, -4.0]> : tensor<2xf32>
    %c = stablehlo.complex %re, %im : tensor<2xcomplex<f32>>

The values are kept bit for bit (a splat stays a splat of each part). Conditions: a
complex result; real constants are left alone.
"""

from __future__ import annotations

import math
from typing import Sequence

import numpy as np
from iree.compiler import ir

from dialect_ops.constant import constant
from dialect_ops.elementwise import binary
from hlo_mlir import _emit
from hlo_mlir.ir_access import complex_constant_values, element_type_name
from pipelines.matchers import xla_arrays
from pipelines.pass_base import ExpanderPass
from pipelines.registry import register

__all__ = ["ComplexConstantParts"]


@register
class ComplexConstantParts(ExpanderPass):
    """Builds complex constants from real constants of their parts (IREE crashes on complex ones)."""

    name = "complex-constant-parts"
    legalizes_for_iree = True

    def matches(self, op) -> bool:
        return (op.operation.name == "stablehlo.constant" and xla_arrays(op.results)
                and element_type_name(op.results[0]).startswith("complex<"))

    def expand(self, op) -> Sequence[ir.Value]:
        """constant(c) -> complex(constant(real(c)), constant(imag(c)))."""
        dims = _emit.shape_of(op.results[0]).dimensions
        values = complex_constant_values(op)
        array = values.reshape(dims) if values.size == math.prod(dims) else np.full(dims, values[0])
        real = constant(np.array(array.real, order="C"))
        imag = constant(np.array(array.imag, order="C"))
        return [binary("Complex", real, imag)]
