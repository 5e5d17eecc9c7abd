"""fft-expander: the ``stablehlo.fft`` forms the pinned IREE rejects, as 1-D transforms it
compiles or as DFT matrix products.

IREE compiles only a 1-D transform of power-of-two length over f32 / complex<f32>; it
rejects multi-axis transforms and other lengths ("failed to legalize operation
'stablehlo.fft'") and fails on f64 / complex<f64> ("'arith.mulf' op requires the same type
for all operands"). Every other form becomes a cascade of 1-D transforms, the innermost
axis first for RFFT and last for IRFFT (the other axes are complex transforms)::

    %y = stablehlo.fft %x, type = FFT, length = [4, 6] : tensor<2x4x6xcomplex<f32>>

becomes (the axis moved last with ``transpose`` around each 1-D transform)::

    %a = 1-D FFT of length 6 along axis 2     // DFT: 6 is not a power of two
    %y = 1-D FFT of length 4 along axis 1     // a native stablehlo.fft, length = [4]

A 1-D transform of length n that IREE cannot run is a product with the DFT matrix
``W[j, k] = exp(-+2 pi i j k / n)`` (``1/n`` folded in for inverses), computed on the real
and imaginary parts with real constant matrices (complex<f64> constants crash IREE), when
n <= ``max-direct-length`` or n is prime. A longer composite n = n1 * n2 is split
Cooley-Tukey style: n2 transforms of length n1, a twiddle ``exp(-+2 pi i j2 k1 / n)``, n1
transforms of length n2 (each split again if needed), so constants stay O(n) and work
O(n (n1 + n2)). RFFT of a long composite n is the complex transform of ``x + 0i`` sliced
to ``n/2 + 1`` values; IRFFT of one rebuilds the conjugate-symmetric half and keeps the
real part. An empty result is a zero constant.
Conditions: every ``stablehlo.fft`` IREE does not compile natively.
"""

from __future__ import annotations

import dataclasses
from typing import Sequence

import numpy as np
from iree.compiler import ir

from dialect_ops.constant import constant
from dialect_ops.elementwise import binary, unary
from dialect_ops.fft import FftType, fft
from dialect_ops.linalg import dot_general
from dialect_ops.shape_ops import broadcast_in_dim, reshape, rev, transpose
from dialect_ops.slicing import concatenate, slice_
from hlo_mlir import _emit
from hlo_mlir.ir_access import fft_type, int_array
from hlo_mlir.types import PrimitiveType
from pipelines.expanders._matrix_loops import complex_of_parts, parts, zeros
from pipelines.pass_base import ExpanderPass
from pipelines.registry import register

__all__ = ["FftExpander"]

_NATIVE_TYPES = (PrimitiveType.F32, PrimitiveType.C64)


@register
@dataclasses.dataclass
class FftExpander(ExpanderPass):
    """Rewrites FFTs IREE rejects (multi-axis, non-power-of-two, f64) into 1-D FFTs and DFT products."""

    name = "fft-expander"
    legalizes_for_iree = True
    max_direct_length: int = dataclasses.field(
        default=64, metadata={"help": "1-D transforms up to this length are one DFT matrix product"})

    def matches(self, op) -> bool:
        if op.operation.name != "stablehlo.fft":
            return False
        lengths = _lengths(op)
        shapes = [_emit.shape_of(op.operands[0]), _emit.shape_of(op.result)]
        return not (len(lengths) == 1 and _native(lengths[0], shapes[0].element_type)
                    and all(s.element_count() for s in shapes))

    def expand(self, op) -> Sequence[ir.Value]:
        kind = FftType[fft_type(op)]
        lengths = _lengths(op)
        result = _emit.shape_of(op.result)
        if not result.element_count():
            return [zeros(result)]
        x = op.operands[0]
        rank = result.rank
        axes = list(range(rank - len(lengths), rank))
        transforms = _Transforms(self.max_direct_length)
        if kind is FftType.RFFT:
            x = transforms.real_to_complex(x, lengths[-1])
            axes, lengths = axes[:-1], lengths[:-1]
        inverse = kind in (FftType.IFFT, FftType.IRFFT)
        outer = len(lengths) - (kind is FftType.IRFFT)
        for axis, n in reversed(list(zip(axes[:outer], lengths[:outer], strict=True))):
            x = _along(x, axis, lambda v, n=n: transforms.complex(v, n, inverse))
        if kind is FftType.IRFFT:
            x = transforms.complex_to_real(x, lengths[-1])
        return [x]


def _lengths(op) -> list[int]:
    return int_array(op, "fft_length")


def _native(n: int, element_type: PrimitiveType) -> bool:
    """Whether IREE compiles a 1-D transform of length ``n`` over ``element_type``."""
    return element_type in _NATIVE_TYPES and n > 0 and n & (n - 1) == 0


def _along(x: ir.Value, axis: int, transform) -> ir.Value:
    """``transform`` (which works on the last axis) applied along ``axis``."""
    rank = _emit.shape_of(x).rank
    if axis == rank - 1:
        return transform(x)
    perm = [d for d in range(rank) if d != axis] + [axis]
    return transpose(transform(transpose(x, perm)), list(np.argsort(perm)))


def _angles(rows: int, columns: int, n: int) -> np.ndarray:
    """``2 pi (j k mod n) / n`` for j < rows, k < columns (reduced exactly in integers)."""
    j, k = np.meshgrid(np.arange(rows, dtype=np.int64), np.arange(columns, dtype=np.int64), indexing="ij")
    return 2 * np.pi * ((j * k) % n) / n


def _is_prime(n: int) -> bool:
    return n > 1 and all(n % f for f in range(2, int(n ** 0.5) + 1))


@dataclasses.dataclass
class _Transforms:
    """1-D transforms along the last axis; ``max_direct_length`` as in the pass option."""

    max_direct_length: int

    def _direct(self, n: int) -> bool:
        return n <= self.max_direct_length or _is_prime(n)

    def complex(self, x: ir.Value, n: int, inverse: bool) -> ir.Value:
        """The (inverse) complex DFT of length ``n`` of the last axis of ``x``."""
        if _native(n, _emit.shape_of(x).element_type):
            return fft(x, FftType.IFFT if inverse else FftType.FFT, [n])
        if self._direct(n):
            angles = _angles(n, n, n)
            sign, scale = (1.0, 1.0 / n) if inverse else (-1.0, 1.0)
            return _complex_product(x, np.cos(angles) * scale, sign * np.sin(angles) * scale)
        return self._split(x, n, inverse)

    def _split(self, x: ir.Value, n: int, inverse: bool) -> ir.Value:
        """Cooley-Tukey: x[n2 i1 + i2] -> X[k1 + n1 k2] with n = n1 n2 (see the module docstring)."""
        n1 = max(d for d in range(1, int(n ** 0.5) + 1) if n % d == 0)
        n2 = n // n1
        batch = list(_emit.shape_of(x).dimensions[:-1])
        b = len(batch)
        swap = list(range(b)) + [b + 1, b]
        a = transpose(reshape(x, batch + [n1, n2]), swap)             # [..., i2, i1]
        a = self.complex(a, n1, inverse)                               # [..., i2, k1]
        angles = _angles(n2, n1, n)
        sign = 1.0 if inverse else -1.0
        a = _complex_multiply(a, np.cos(angles), sign * np.sin(angles))
        a = self.complex(transpose(a, swap), n2, inverse)              # [..., k1, k2]
        return reshape(transpose(a, swap), batch + [n])               # [..., k2, k1]

    def real_to_complex(self, x: ir.Value, n: int) -> ir.Value:
        """RFFT of length ``n`` of the last axis: the ``n // 2 + 1`` non-negative frequencies."""
        shape = _emit.shape_of(x)
        if _native(n, shape.element_type):
            return fft(x, FftType.RFFT, [n])
        m = n // 2 + 1
        if self._direct(n):
            angles = _angles(n, m, n)
            return complex_of_parts(_product(x, np.cos(angles)), _product(x, -np.sin(angles)))
        full = self.complex(binary("Complex", x, zeros(shape)), n, inverse=False)
        return slice_(full, [0] * shape.rank, list(shape.dimensions[:-1]) + [m], [1] * shape.rank)

    def complex_to_real(self, x: ir.Value, n: int) -> ir.Value:
        """IRFFT of length ``n`` of the last axis, whose ``n // 2 + 1`` values are the
        non-negative frequencies; the imaginary parts of the DC and Nyquist terms are ignored."""
        shape = _emit.shape_of(x)
        if _native(n, shape.element_type):
            return fft(x, FftType.IRFFT, [n])
        m = n // 2 + 1
        if self._direct(n):
            k = np.arange(m)
            weight = np.where((k == 0) | (2 * k == n), 1.0, 2.0)[:, None] / n
            angles = _angles(m, n, n)
            re, im = parts(x)
            return binary("Add", _product(re, weight * np.cos(angles)),
                          _product(im, -weight * np.sin(angles)))
        # X[k] = conj(X[n - k]) for k > n/2: the values 1 .. n - m reversed and conjugated.
        rank = shape.rank
        start, limit = [0] * (rank - 1) + [1], list(shape.dimensions[:-1]) + [n - m + 1]
        mirrored = rev(slice_(x, start, limit, [1] * rank), [rank - 1])
        re, im = parts(mirrored)
        full = concatenate([x, binary("Complex", re, unary("Neg", im))], rank - 1)
        return unary("Real", self.complex(full, n, inverse=True))


def _product(x: ir.Value, matrix: np.ndarray) -> ir.Value:
    """``x @ matrix`` over the last axis of a real ``x`` (``matrix`` in ``x``'s type)."""
    shape = _emit.shape_of(x)
    w = constant(np.asarray(matrix, shape.dtype))
    return dot_general(x, w, (([shape.rank - 1], [0]), ([], [])))


def _complex_product(x: ir.Value, cos: np.ndarray, sin: np.ndarray) -> ir.Value:
    """``x @ (cos + i sin)`` over the last axis of a complex ``x``, on real parts."""
    re, im = parts(x)
    return complex_of_parts(binary("Sub", _product(re, cos), _product(im, sin)),
                    binary("Add", _product(re, sin), _product(im, cos)))


def _complex_multiply(x: ir.Value, cos: np.ndarray, sin: np.ndarray) -> ir.Value:
    """``x * (cos + i sin)`` element-wise, ``cos``/``sin`` matching ``x``'s minor dimensions."""
    re, im = parts(x)
    shape = _emit.shape_of(re)
    minor = list(range(shape.rank - cos.ndim, shape.rank))
    c = broadcast_in_dim(constant(np.asarray(cos, shape.dtype)), shape.dimensions, minor)
    s = broadcast_in_dim(constant(np.asarray(sin, shape.dtype)), shape.dimensions, minor)
    return complex_of_parts(binary("Sub", binary("Mul", re, c), binary("Mul", im, s)),
                            binary("Add", binary("Mul", re, s), binary("Mul", im, c)))
