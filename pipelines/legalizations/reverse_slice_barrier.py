"""reverse-slice-barrier: a reverse, and the ops the pinned IREE reads the same way (a
gather, a reduce_window it makes a postfix scan), read a strided slice through an
optimization barrier.

The pinned IREE fails to compile, on llvm-cpu, a ``reverse`` fused with the slice it
reverses when the slice's elements along its innermost dimension of more than one element
are not adjacent in memory: it reads them with a ``vector.gather`` from a strided view,
which does not lower ("LLVM Translation failed for operation: builtin.unrealized_conversion_cast")::

    %s = stablehlo.slice %x [0:2, 0:3, 1:2] : (tensor<2x3x2xf32>) -> tensor<2x3x1xf32>
    %r = stablehlo.reverse %s, dims = [0] : tensor<2x3x1xf32>

becomes::

    %s = stablehlo.slice %x [0:2, 0:3, 1:2] : (tensor<2x3x2xf32>) -> tensor<2x3x1xf32>
    %b = stablehlo.optimization_barrier %s : tensor<2x3x1xf32>
    %r = stablehlo.reverse %b, dims = [0] : tensor<2x3x1xf32>

The slice is then its own dispatch (a copy of the kept elements) and the reverse reads a
contiguous tensor. A barrier changes no value. The same read, and the same failure, come
from:

- a ``gather`` (or the ``torch_index_select`` that ``gather-index-select`` makes of one)
  of such a slice: ``Gather(Slice(x, [5:8:2]), i)`` (fuzz seed 20261127 program 3737);
- a ``reduce_window`` that IREE lowers to a postfix scan, which it reads backwards: one
  input, unit strides and dilations, every window dimension 1 but one that spans its
  dimension, padded only there, high by that size minus 1 and low by less
  (``ReduceWindow(DynamicSlice(x f32[3,4], sizes [2,1]), max, window [2,1], padding
  [(0,1),(0,0)])``, seed 20261127 program 3071; a prefix scan compiles).

Which slices (measured): a ``slice`` with a stride > 1 in that dimension, a
``dynamic_slice`` of rank 2 or more, and a ``slice`` or a ``pad`` (negative padding,
which IREE lowers to a slice) of rank 3 or more, whose innermost dimension of more than
one element is strided in the sliced operand (a minor dimension of 1 kept from a longer
one, or a stride). A unit-stride rank-2 ``slice`` or ``pad``, a slice whose innermost
non-unit dimension is contiguous, and an element-wise op between the two compile and are
left alone, as are operands already read through a barrier.

A ``pad`` is read from the buffer IREE pads into before it crops the negative padding
(positive and interior padding kept), so its stride is that buffer's. A gather fails on a
cropped pad of rank 2 as well, where that buffer lies at an offset of a shared allocation
(the view's offset is then dynamic): ``Gather(Pad(x pred[7,1], low [-1, 1], high [-1, -1],
interior [2, 0]), i)`` in a module with a base-dilated ``reduce_window`` (seed 20261127
program 5453; alone it compiled).
"""

from __future__ import annotations

from math import prod

from iree.compiler import ir

from hlo_mlir.ir_access import int_array, padding_pairs, window_values
from pipelines.matchers import producer, static_dims, xla_arrays
from pipelines.operand_fences import OperandFencePass
from pipelines.registry import register

__all__ = ["ReverseSliceBarrier"]

_SLICES = ("stablehlo.slice", "stablehlo.dynamic_slice", "stablehlo.pad")
_GATHERS = ("stablehlo.gather", "stablehlo.torch_index_select")


def _uncropped(pad, dims: list[int]) -> list[int]:
    """The dimensions of the buffer IREE pads ``pad``'s operand (of ``dims``) into before it
    crops the negative padding: every positive and interior padding kept."""
    low, high, interior = (int_array(pad, a) for a in ("edge_padding_low", "edge_padding_high",
                                                       "interior_padding"))
    return [n + max(n - 1, 0) * i + max(lo, 0) + max(hi, 0)
            for n, lo, hi, i in zip(dims, low, high, interior, strict=True)]


def _strided_slice(value: ir.Value, gathered: bool = False) -> bool:
    """Whether ``value`` is a slice IREE reads as a strided view along its innermost
    dimension of more than one element (see the module docstring for which slices);
    ``gathered``: the reader is a gather, which fails on a cropped rank-2 pad too."""
    if not xla_arrays([value]):
        return False
    slice_op = producer(value, *_SLICES)
    if slice_op is None:
        return False
    dims, sliced = static_dims(value), static_dims(slice_op.operands[0])
    if dims is None or sliced is None or 0 in dims:
        return False
    wide = [d for d, n in enumerate(dims) if n > 1]
    if not wide:
        return False
    d = wide[-1]
    name = slice_op.operation.name
    if name == "stablehlo.pad":
        sliced = _uncropped(slice_op, sliced)
    stride = int_array(slice_op, "strides")[d] if name == "stablehlo.slice" else 1
    if stride * prod(sliced[d + 1:]) == 1:
        return False  # adjacent elements: a contiguous read
    return (stride > 1 or name == "stablehlo.dynamic_slice" or len(dims) >= 3
            or (gathered and name == "stablehlo.pad"))


def _postfix_scan(op) -> bool:
    """Whether IREE lowers ``reduce_window`` ``op`` to a postfix scan (a reversed read)."""
    if len(op.results) != 1:
        return False
    dims = static_dims(op.operands[0])
    if dims is None:
        return False
    rank = len(dims)
    if any(v != 1 for name in ("window_strides", "base_dilations", "window_dilations")
           for v in window_values(op, name, rank)):
        return False
    window = int_array(op, "window_dimensions")
    axes = [i for i, w in enumerate(window) if w != 1]
    if len(axes) != 1 or window[axes[0]] != dims[axes[0]]:
        return False
    axis = axes[0]
    pairs = padding_pairs(op, rank)
    if any(p != (0, 0) for i, p in enumerate(pairs) if i != axis):
        return False
    low, high = pairs[axis]
    return high == dims[axis] - 1 and low != dims[axis] - 1


@register
class ReverseSliceBarrier(OperandFencePass):
    """Reverses, gathers and postfix scans read a strided slice through a barrier (IREE fails fusing them)."""

    name = "reverse-slice-barrier"
    legalizes_for_iree = True

    op_names = ("stablehlo.reverse", "stablehlo.reduce_window", *_GATHERS)
    rule_name = "fence-slice"

    def fences(self, op, index: int, value: ir.Value) -> bool:
        """reverse(slice(x)) -> reverse(optimization_barrier(slice(x))); gathers and postfix scans alike."""
        name = op.operation.name
        if index != 0 or (name == "stablehlo.reduce_window" and not _postfix_scan(op)):
            return False
        return _strided_slice(value, gathered=name in _GATHERS)
