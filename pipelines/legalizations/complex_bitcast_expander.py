"""complex-bitcast-expander: bitcast_convert between complex types through their real parts.

The pinned IREE cannot bitcast complex values: ``complex<f64> -> complex<f32>`` (and
back), even ``complex<f32> -> complex<f32>``, crash the compiler (SIGSEGV). StableHLO
allows no bitcast between real and complex types, so these are all the complex forms.
A complex element is its real part followed by its imaginary part in memory, so its
bits are those of a ``[..., 2]`` tensor of the component type, and real bitcasts, which
IREE compiles, do the rest::

    %r = stablehlo.bitcast_convert %z : (tensor<3xcomplex<f64>>) -> tensor<3x2xcomplex<f32>>

becomes::

    %w = concatenate(reshape(real(%z)) : 3x1xf64, reshape(imag(%z)) : 3x1xf64), dim = 1
    %b = stablehlo.bitcast_convert %w : (tensor<3x2xf64>) -> tensor<3x2x2xf32>
    %r = complex(reshape(slice(%b, [.., .., 0])), reshape(slice(%b, [.., .., 1]))) : 3x2xcomplex<f32>

(the other way, ``[..., 2]`` words of f32 regroup as ``[..., 2, 2]`` before the bitcast
to f64 consumes the minor dimension). A bitcast to the same type is the identity.
Conditions: complex operand and result.
"""

from __future__ import annotations

from typing import Sequence

from iree.compiler import ir

from dialect_ops.elementwise import binary, bitcast_convert, unary
from dialect_ops.shape_ops import reshape
from dialect_ops.slicing import concatenate, slice_
from hlo_mlir import _emit
from pipelines.matchers import xla_arrays
from pipelines.pass_base import ExpanderPass
from pipelines.registry import register

__all__ = ["ComplexBitcastExpander"]


@register
class ComplexBitcastExpander(ExpanderPass):
    """Bitcasts between complex types as bitcasts of their real and imaginary parts (IREE crashes)."""

    name = "complex-bitcast-expander"
    legalizes_for_iree = True

    def matches(self, op) -> bool:
        if op.operation.name != "stablehlo.bitcast_convert" or not xla_arrays(
                [op.operands[0], op.results[0]]):
            return False
        return all(_emit.shape_of(v).element_type.is_complex for v in (op.operands[0], op.results[0]))

    def expand(self, op) -> Sequence[ir.Value]:
        operand = op.operands[0]
        source, result = _emit.shape_of(operand), _emit.shape_of(op.results[0])
        if source.element_type == result.element_type:
            return [operand]
        words = _words(operand)
        word_type = result.element_type.complex_component_type
        word_dims = list(result.dimensions) + [2]
        have, want = _emit.shape_of(words).element_type.bit_width, word_type.bit_width
        if have > want:  # [..., 2] -> [..., 2, have / want], regrouped as the result's words
            bits = reshape(bitcast_convert(words, word_type), word_dims)
        else:  # [..., 2] regrouped as [..., want / have] per result word
            bits = bitcast_convert(reshape(words, word_dims + [want // have]), word_type)
        real, imag = (_last_entry(bits, k) for k in (0, 1))
        return [binary("Complex", real, imag)]


def _words(value: ir.Value) -> ir.Value:
    """Complex ``value`` ``[...]`` as its words in memory order: ``[..., 2]`` (real,
    imaginary) of its component type."""
    dims = list(_emit.shape_of(value).dimensions)
    parts = [reshape(unary(name, value), dims + [1]) for name in ("Real", "Imag")]
    return concatenate(parts, len(dims))


def _last_entry(value: ir.Value, k: int) -> ir.Value:
    """Entry ``k`` of ``value``'s last dimension, that dimension dropped."""
    dims = list(_emit.shape_of(value).dimensions)
    start = [0] * len(dims)
    limit = list(dims)
    start[-1], limit[-1] = k, k + 1
    return reshape(slice_(value, start, limit), dims[:-1])
