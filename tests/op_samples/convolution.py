"""Coverage samples of the convolution family (numpy references written out per window)."""

from __future__ import annotations

import numpy as np

from hlo_mlir import Conv, ConvWithGeneralPadding, Parameter, Shape, XlaBuilder
from tests.op_samples import Sample

_rng = np.random.default_rng(0)
_X = _rng.uniform(-1, 1, (1, 2, 5, 4)).astype(np.float32)
_W = _rng.uniform(-1, 1, (3, 2, 3, 2)).astype(np.float32)


def _conv_ref(x, w, strides, padding):
    """Sum over input features and the window, per output position (NCHW x OIHW)."""
    spatial = tuple(s + lo + hi for s, (lo, hi) in zip(x.shape[2:], padding, strict=True))
    xp = np.zeros((x.shape[0], x.shape[1]) + spatial, np.float64)
    xp[:, :, padding[0][0]:padding[0][0] + x.shape[2], padding[1][0]:padding[1][0] + x.shape[3]] = x
    oh = (xp.shape[2] - w.shape[2]) // strides[0] + 1
    ow = (xp.shape[3] - w.shape[3]) // strides[1] + 1
    out = np.zeros((x.shape[0], w.shape[0], oh, ow))
    for i in range(oh):
        for j in range(ow):
            window = xp[:, :, i * strides[0]:i * strides[0] + w.shape[2],
                        j * strides[1]:j * strides[1] + w.shape[3]]
            out[:, :, i, j] = np.einsum("nchw,ochw->no", window, w)
    return out.astype(np.float32)


def _build(name, fn):
    b = XlaBuilder(name)
    x, w = Parameter(b, 0, Shape.from_numpy(_X)), Parameter(b, 1, Shape.from_numpy(_W))
    return b.build(fn(x, w))


def _conv() -> Sample:
    # SAME with strides [2, 1]: 3 x 4 positions, padding (1, 1) and (0, 1) (XLA's MakePadding).
    comp = _build("Conv", lambda x, w: Conv(x, w, [2, 1], "SAME"))
    return Sample(comp, (_X, _W), _conv_ref(_X, _W, [2, 1], [(1, 1), (0, 1)]))


def _conv_with_general_padding() -> Sample:
    comp = _build("ConvWithGeneralPadding", lambda x, w: ConvWithGeneralPadding(x, w, [1, 2], [(2, 0), (1,
                                                                                                        1)]))
    return Sample(comp, (_X, _W), _conv_ref(_X, _W, [1, 2], [(2, 0), (1, 1)]))


SAMPLES = {"Conv": _conv, "ConvWithGeneralPadding": _conv_with_general_padding}
