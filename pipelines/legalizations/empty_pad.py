"""empty-pad: a ``pad`` of an operand with no elements is a broadcast of its padding value.

The pinned IREE turns a pad of a zero-element operand into a fill that it does not
distribute; when two ops read the pad, compiling fails ("'linalg.generic' op write
affecting operations on global resources are restricted to workgroup distributed
contexts"; fuzzer seed 20261125 program 1838)::

    %p = stablehlo.pad %x, %v, low = [0, 0, 2], high = [2, 1, -1], interior = [0, 2, 0]
           : (tensor<1x2x0xf16>, tensor<f16>) -> tensor<3x5x1xf16>

becomes ``%p = stablehlo.broadcast_in_dim %v, dims = [] : (tensor<f16>) -> tensor<3x5x1xf16>``.
The rule is algsimp's ``empty_pad`` (XLA's HandlePad; exact: every result element is
padding), applied here alone so that it also runs at ``O0``, where no simplifier runs.

A pad that pads nothing (every edge and interior padding 0, a rank-0 pad among them) is
its operand (algsimp's ``nop_pad``, XLA's HandlePad too): IREE failed on a rank-0 pad
whose padding value was a loop result ("maximum iteration count exceeded in fixed point
pipeline"; seed 20261127 program 3855)::

    %p = stablehlo.pad %x, %loop#2, low = [], high = [], interior = []
           : (tensor<f64>, tensor<f64>) -> tensor<f64>

becomes ``%x``.
"""

from __future__ import annotations

from pipelines.pass_base import PatternPass
from pipelines.registry import register
from pipelines.simplifiers.algsimp import empty_pad, nop_pad

__all__ = ["EmptyPad"]


@register
class EmptyPad(PatternPass):
    """Makes a pad of a zero-element operand a broadcast of its padding value, a no-op pad its operand."""

    name = "empty-pad"
    legalizes_for_iree = True
    patterns = (empty_pad, nop_pad)
