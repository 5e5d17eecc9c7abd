"""Coverage samples of the math ops: Fft, Cholesky, TriangularSolve and the batch norms.

IREE rejects cholesky, triangular_solve, batch_norm_grad and the multi-axis FFT the sample
uses; their expanders (pipelines/expanders, run by ``hlo_mlir.compile``) make them run.
"""

from __future__ import annotations

import numpy as np
import scipy.linalg

from hlo_mlir import (
    BatchNormGrad,
    BatchNormInference,
    BatchNormTraining,
    Cholesky,
    Fft,
    FftType,
    Parameter,
    Shape,
    TriangularSolve,
    TriangularSolveOptions,
    XlaBuilder,
)
from tests.op_samples import Sample

_rng = np.random.default_rng(11)
_X = (_rng.normal(size=(2, 3, 4)) + 1).astype(np.float32)
_SCALE, _OFFSET = np.array([1.0, 2.0, 0.5], np.float32), np.array([0.0, -1.0, 3.0], np.float32)
_MEAN, _VAR = np.array([0.5, 1.0, 1.5], np.float32), np.array([1.0, 2.0, 0.25], np.float32)
_EPS = 1e-3
_AXES = (0, 2)


def _bc(f):
    return f[None, :, None]


def _build(name, shapes, fn):
    b = XlaBuilder(name)
    return b.build(fn(*[Parameter(b, i, Shape.from_numpy(a)) for i, a in enumerate(shapes)]))


def _fft() -> Sample:
    x = (_rng.normal(size=(2, 4, 6)) + 1j * _rng.normal(size=(2, 4, 6))).astype(np.complex64)
    comp = _build("Fft", [x], lambda p: Fft(p, FftType.FFT, [4, 6]))
    return Sample(comp, (x,), np.fft.fftn(x, axes=(1, 2)).astype(np.complex64), rtol=1e-4, atol=1e-4)


def _cholesky() -> Sample:
    m = _rng.normal(size=(2, 3, 3))
    a = (m @ m.transpose(0, 2, 1) + 3 * np.eye(3)).astype(np.float32)
    comp = _build("Cholesky", [a], lambda p: Cholesky(p, lower=True))
    # The other triangle is implementation-defined; XLA and hlo-mlir return zeros there.
    return Sample(comp, (a,), np.linalg.cholesky(a), rtol=1e-5, atol=1e-5)


def _triangular_solve() -> Sample:
    a = np.triu(_rng.normal(size=(3, 3)) + 3 * np.eye(3)).astype(np.float32)
    b = _rng.normal(size=(2, 3)).astype(np.float32)
    comp = _build("TriangularSolve", [a, b], lambda pa, pb: TriangularSolve(
        pa, pb, left_side=False, lower=False, unit_diagonal=False,
        transpose_a=TriangularSolveOptions.Transpose.TRANSPOSE))
    expected = scipy.linalg.solve_triangular(a, b.T, lower=False).T  # x a^T = b  <=>  a x^T = b^T
    return Sample(comp, (a, b), expected.astype(np.float32), rtol=1e-5, atol=1e-5)


def _training() -> Sample:
    comp = _build("BatchNormTraining", [_X, _SCALE, _OFFSET],
                  lambda x, s, o: BatchNormTraining(x, s, o, _EPS, 1))
    mean, var = _X.mean(_AXES), _X.var(_AXES)
    y = (_X - _bc(mean)) / np.sqrt(_bc(var) + np.float32(_EPS)) * _bc(_SCALE) + _bc(_OFFSET)
    return Sample(comp, (_X, _SCALE, _OFFSET), (y, mean, var), rtol=1e-5, atol=1e-5)


def _inference() -> Sample:
    comp = _build("BatchNormInference", [_X, _SCALE, _OFFSET, _MEAN, _VAR],
                  lambda x, s, o, m, v: BatchNormInference(x, s, o, m, v, _EPS, 1))
    y = (_X - _bc(_MEAN)) / np.sqrt(_bc(_VAR) + np.float32(_EPS)) * _bc(_SCALE) + _bc(_OFFSET)
    return Sample(comp, (_X, _SCALE, _OFFSET, _MEAN, _VAR), y, rtol=1e-5, atol=1e-5)


def _grad() -> Sample:
    dy = _rng.normal(size=_X.shape).astype(np.float32)
    comp = _build("BatchNormGrad", [_X, _SCALE, _MEAN, _VAR, dy],
                  lambda x, s, m, v, g: BatchNormGrad(x, s, m, v, g, _EPS, 1))
    centered, denominator = _X - _bc(_MEAN), _bc(_VAR) + np.float32(_EPS)
    c, d = (dy * centered / denominator).mean(_AXES), dy.mean(_AXES)
    grad_x = _bc(_SCALE) / np.sqrt(denominator) * (dy - _bc(d) - _bc(c) * centered)
    grad_scale = (dy * centered / np.sqrt(denominator)).sum(_AXES)
    return Sample(comp, (_X, _SCALE, _MEAN, _VAR, dy), (grad_x, grad_scale, dy.sum(_AXES)), rtol=1e-5,
                  atol=1e-5)


SAMPLES = {"Fft": _fft, "Cholesky": _cholesky, "TriangularSolve": _triangular_solve,
           "BatchNormTraining": _training, "BatchNormInference": _inference, "BatchNormGrad": _grad}
