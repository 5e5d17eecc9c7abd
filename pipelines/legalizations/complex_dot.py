"""complex-dot: a complex<f32> contraction as four real contractions of its parts.

The pinned IREE fails to compile a complex<f32> matrix product on llvm-cpu with data
tiling on, hlo-mlir's default ("'vector.transfer_read' op requires valid padding vector
elemental type": ``Dot(c64[2,3], c64[3,2])``; a vector dot product and complex<f64>
compile). Real contractions take IREE's fast matmul path::

    %r = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0]
        : (tensor<2x3xcomplex<f32>>, tensor<3x2xcomplex<f32>>) -> tensor<2x2xcomplex<f32>>

becomes (``re``/``im`` = ``stablehlo.real``/``stablehlo.imag``; the same dimension numbers
and precision config for each)::

    %rr = dot_general(re(%a), re(%b))    %ii = dot_general(im(%a), im(%b))
    %ri = dot_general(re(%a), im(%b))    %ir = dot_general(im(%a), re(%b))
    %r = stablehlo.complex (%rr - %ii), (%ri + %ir)

Each part of the result is a sum of the same products as XLA's (Eigen's complex
multiply-add), grouped as the difference of two real sums instead of a sum of
differences: it may round differently, within the usual error of a float sum. Four real
products, not Gauss's three, so that no part mixes the magnitudes of the other.
Conditions: complex<f32> operands and result.
"""

from __future__ import annotations

from typing import Sequence

from iree.compiler import ir

from dialect_ops.elementwise import binary, unary
from hlo_mlir import _emit
from hlo_mlir.ir_access import element_type_name
from pipelines.matchers import xla_arrays
from pipelines.pass_base import ExpanderPass
from pipelines.registry import register

__all__ = ["ComplexDot"]


@register
class ComplexDot(ExpanderPass):
    """Computes a complex<f32> dot_general as four real dot_generals (IREE fails to compile it)."""

    name = "complex-dot"
    legalizes_for_iree = True
    acts_on = frozenset({"stablehlo.dot_general"})

    def matches(self, op) -> bool:
        return (op.operation.name == "stablehlo.dot_general" and xla_arrays([*op.operands, *op.results])
                and all(element_type_name(v) == "complex<f32>" for v in [*op.operands, *op.results]))

    def expand(self, op) -> Sequence[ir.Value]:
        """dot(a, b) -> complex(dot(re a, re b) - dot(im a, im b), dot(re a, im b) + dot(im a, re b))."""
        lhs, rhs = ((unary("Real", v), unary("Imag", v)) for v in op.operands)
        real = _emit.shape_of(lhs[0]).element_type
        real_type = _emit.shape_of(op.results[0]).with_element_type(real).to_mlir_type()
        attrs = {name: op.attributes[name] for name in op.attributes}

        def dot(x: ir.Value, y: ir.Value) -> ir.Value:
            return _emit.create("stablehlo.dot_general", [x, y], [real_type], attrs).result

        re = binary("Sub", dot(lhs[0], rhs[0]), dot(lhs[1], rhs[1]))
        im = binary("Add", dot(lhs[0], rhs[1]), dot(lhs[1], rhs[0]))
        return [binary("Complex", re, im)]
