"""The Fourier transform: Fft (spec: Fft), lowering to ``stablehlo.fft``.

An Fft transforms the ``len(fft_length)`` (1 to 3) minor dimensions of its operand. FFT and
IFFT are complex to complex and keep the shape (IFFT divides by the product of the lengths).
RFFT takes a real operand and keeps only the non-negative frequencies of the innermost
axis, ``fft_length[-1] // 2 + 1`` of them; IRFFT inverts it, rebuilding the other half from
the conjugate symmetry and returning ``fft_length[-1]`` real values. The innermost axis is
transformed first by RFFT and last by IRFFT; the others are complex transforms.

The pinned IREE compiles only 1-D power-of-two transforms of f32 / complex<f32>;
``fft-expander`` (pipelines/expanders) rewrites every other form before IREE.
"""

from __future__ import annotations

import enum

from iree.compiler import ir

from dialect_ops._args import int_list
from hlo_mlir import _emit
from hlo_mlir.builder import XlaOp, builder_of
from hlo_mlir.errors import DTypeError, InvalidArgumentError, ShapeError
from hlo_mlir.shape import Shape
from hlo_mlir.types import PrimitiveType

__all__ = ["Fft", "FftType", "fft_rule", "fft"]


class FftType(enum.Enum):
    """The kind of transform (XLA's FftType)."""

    FFT = "FFT"      # forward, complex -> complex
    IFFT = "IFFT"    # inverse, complex -> complex
    RFFT = "RFFT"    # forward, real -> complex (non-negative frequencies of the innermost axis)
    IRFFT = "IRFFT"  # inverse, complex -> real


_REAL_OF = {PrimitiveType.C64: PrimitiveType.F32, PrimitiveType.C128: PrimitiveType.F64}
_COMPLEX_OF = {real: c for c, real in _REAL_OF.items()}


def _fft_type(value) -> FftType:
    if isinstance(value, FftType):
        return value
    if isinstance(value, str) and value.upper() in FftType.__members__:
        return FftType[value.upper()]
    raise InvalidArgumentError(f"Fft requires fft_type in {list(FftType.__members__)}; got {value!r}.")


def Fft(operand: XlaOp, fft_type, fft_length) -> XlaOp:
    """The forward or inverse, complex or real Fourier transform of the ``len(fft_length)``
    minor dimensions of ``operand`` (spec: Fft)."""
    b = builder_of("Fft", operand)
    return b.emit("Fft", lambda: fft(operand.value, fft_type, fft_length))


def fft_rule(operand: Shape, fft_type, fft_length) -> Shape:
    """The result shape of Fft (XLA's ShapeInference::InferFftShape)."""
    kind = _fft_type(fft_type)
    lengths = int_list("Fft", "fft_length", fft_length)
    if not 1 <= len(lengths) <= 3:
        raise InvalidArgumentError(f"Fft requires 1 to 3 fft_length values (axes); got {lengths}.")
    if any(n < 0 for n in lengths):
        raise InvalidArgumentError(f"Fft requires non-negative fft_length values; got {lengths}.")
    if not operand.is_array or operand.rank < len(lengths):
        raise ShapeError(f"Fft requires an operand of rank >= {len(lengths)} (the number of fft_length "
                         f"values {lengths}); got {operand}.")
    et = operand.element_type
    if kind is FftType.RFFT:
        if et not in _COMPLEX_OF:
            raise DTypeError(f"Fft requires an f32 or f64 operand for RFFT; got {operand}.")
        result_type = _COMPLEX_OF[et]
    else:
        if et not in _REAL_OF:
            raise DTypeError(f"Fft requires a c64 or c128 operand for {kind.value}; got {operand}.")
        result_type = _REAL_OF[et] if kind is FftType.IRFFT else et
    minor = list(operand.dimensions[-len(lengths):])
    expected = list(lengths)
    if kind is FftType.IRFFT:
        # The innermost axis holds the non-negative frequencies of a length fft_length[-1] signal.
        expected[-1] = lengths[-1] // 2 + 1 if lengths[-1] else 0
    if minor != expected:
        raise ShapeError(f"Fft requires the {len(lengths)} minor operand dimensions to be {expected} for "
                         f"{kind.value} with fft_length {lengths}; got {operand}.")
    dims = list(operand.dimensions)
    if kind is FftType.RFFT:
        dims[-1] = lengths[-1] // 2 + 1 if lengths[-1] else 0
    elif kind is FftType.IRFFT:
        dims[-1] = lengths[-1]
    return Shape.array_shape(result_type, dims)


def fft(operand: ir.Value, fft_type, fft_length) -> ir.Value:
    """Emits ``stablehlo.fft``."""
    result = fft_rule(_emit.shape_of(operand), fft_type, fft_length)
    return _emit.create("stablehlo.fft", [operand], [_emit.type_of(result)],
                        {"fft_type": _emit.parse_attr(f"#stablehlo<fft_type {_fft_type(fft_type).value}>"),
                         "fft_length": _emit.i64_array(int_list("Fft", "fft_length", fft_length))}).result
