"""``trig-range-reduction``: f32, f16 and bf16 sin, cos and tan reduce their argument to
``|r| <= pi/4`` before IREE's polynomial, which floors ``x * 2/pi`` and reduces with a
single-precision pi/2 (docs/iree-defects.md, 'sin/cos/tan: quadrant by floor'). The values
are the fuzzer's (seeds 20261125 and 20261126) and points next to zeros and poles; the
reference is numpy in double precision, rounded, and XLA CPU must agree with it too."""

from __future__ import annotations

import ml_dtypes
import numpy as np
import pytest

from hlo_mlir import Cos, Parameter, Shape, Sin, Tan, Tuple, XlaBuilder
from tests import oracle
from tests.oracle import TARGETS

# sin(-1.46e-8) was +6.2e-8 (program 4515's neighbourhood), tan(-0.0019339) 479 ULP off
# (seed 20261126 program 6153), tan(-10.969) 113 ULP (seed 20261125 program 1310), next to
# zeros of sin (pi, 322 pi) and poles of tan (pi/2), and below the 8192 limit.
F32 = np.float32([-1.4576638e-08, -0.0019339080, 0.0018120158, -10.968924, -4.0, 3.1433907, -3.1433907,
                  1.5707964, -1011.5928, 57.054806, 8000.3, 0.0, -0.0, 1.0e-30])


def _trig(x: np.ndarray):
    b = XlaBuilder("trig")
    p = Parameter(b, 0, Shape.from_numpy(x), "x")
    return b.build(Tuple(b, [Sin(p), Cos(p), Tan(p)]))


def _reference(x: np.ndarray) -> tuple:
    xd = x.astype(np.float64)
    return tuple(f(xd).astype(x.dtype) for f in (np.sin, np.cos, np.tan))


@pytest.mark.parametrize("target", TARGETS)
def test_f32_trig_is_within_a_few_ulp(target):
    oracle.check(_trig(F32), [F32], _reference(F32), rtol=4e-7, atol=1e-37, target=target)


@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize("dtype", [np.float16, ml_dtypes.bfloat16])
def test_narrow_trig_is_computed_in_f32(dtype, target):
    """bf16/f16: rounded from the f32 result (bf16 tan(1000.5) was NaN past the old limit)."""
    x = np.array([-0.0019340515, -10.96875, 3.140625, 1000.5, -4.0, 0.5], dtype)
    oracle.check(_trig(x), [x], _reference(x), rtol=float(np.finfo(np.float16).eps) if dtype == np.float16
                 else 2 ** -7, atol=1e-7, target=target)
