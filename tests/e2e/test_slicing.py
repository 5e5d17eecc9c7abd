"""End to end: Slice, SliceInDim, ConcatInDim (Concatenate) and Pad against numpy and XLA CPU.

Pad's numpy reference is written from the spec's definition (interior padding first,
then edge padding, negative edge padding removing elements) rather than np.pad, which
has no interior or negative padding.
"""

import numpy as np
import pytest

from hlo_mlir import (
    Concatenate,
    ConcatInDim,
    DTypeError,
    InvalidArgumentError,
    MakeEdgePaddingConfig,
    MakeNoPaddingConfig,
    Pad,
    PaddingConfig,
    PaddingConfigDimension,
    Shape,
    ShapeError,
    Slice,
    SliceInDim,
    Tuple,
    XlaBuilder,
)
from tests.builders import params
from tests.e2e.test_shape_ops import DTYPES as MOVEMENT_DTYPES
from tests.e2e.test_shape_ops import build, data
from tests.oracle import check

DTYPES = {**MOVEMENT_DTYPES, "f16": np.float16}


def np_pad(x, value, config):
    """Pad by the spec: output index j of a dimension reads interior-padded index j - low."""
    out_shape, index = [], []
    for n, (low, high, interior) in zip(x.shape, config, strict=True):
        padded = n + max(n - 1, 0) * interior  # the interior-padded size
        size = padded + low + high
        j = np.arange(size) - low
        keep = (j >= 0) & (j < padded) & (j % (interior + 1) == 0)
        out_shape.append(size)
        index.append((np.nonzero(keep)[0], j[keep] // (interior + 1)))
    out = np.full(out_shape, value, dtype=x.dtype)
    out[np.ix_(*[dst for dst, _ in index])] = x[np.ix_(*[src for _, src in index])]
    return out


# --- Slice, SliceInDim -------------------------------------------------------------------
@pytest.mark.parametrize("type_name", list(DTYPES))
def test_slice(type_name):
    dtype = DTYPES[type_name]
    x = data(dtype, (5, 4))

    def fn(b):
        (p,) = params(b, Shape.array_shape(dtype, (5, 4)))
        return Tuple(b, [Slice(p, [2, 1], [4, 3], [1, 1]), Slice(p, [0, 0], [5, 4], [2, 3]),
                         Slice(p, [1, 0], [2, 4], [5, 1]), Slice(p, [3, 1], [3, 4], [1, 1]),
                         Slice(p, [0, 0], [5, 4]), Slice(p, [1, 3], [5, 4], [3, 7]),
                         SliceInDim(p, 1, 5, 2, 0), SliceInDim(p, 0, 4, 3, 1), SliceInDim(p, 2, 2, 1, 1)])

    expected = (x[2:4, 1:3], x[0:5:2, 0:4:3], x[1:2:5, :], x[3:3, 1:4], x, x[1:5:3, 3:4:7],
                x[1:5:2, :], x[:, 0:4:3], x[:, 2:2])
    check(build(f"slice_{type_name}", fn), [x], expected, rtol=0, atol=0)


def test_slice_spec_examples():
    a = np.array([0.0, 1.0, 2.0, 3.0, 4.0], np.float32)
    m = np.arange(12, dtype=np.float32).reshape(4, 3)

    def fn(b):
        pa, pm = params(b, "f32[5]", "f32[4,3]")
        return Tuple(b, [Slice(pa, [2], [4], [1]), Slice(pm, [2, 1], [4, 3], [1, 1])])

    check(build("slice_spec", fn), [a, m],
          (np.array([2.0, 3.0], np.float32), np.array([[7.0, 8.0], [10.0, 11.0]], np.float32)))


def test_slice_of_empty_and_scalar_operands():
    def fn(b):
        e, s = params(b, "s32[0,3]", "s32[]")
        return Tuple(b, [Slice(e, [0, 1], [0, 3], [1, 1]), Slice(e, [0, 0], [0, 0], [4, 4]),
                         Slice(s, [], [], []), SliceInDim(e, 1, 3, 2, 1)])

    e = np.zeros((0, 3), np.int32)
    check(build("slice_empty", fn), [e, np.int32(4)],
          (np.zeros((0, 2), np.int32), np.zeros((0, 0), np.int32), np.int32(4), np.zeros((0, 1), np.int32)))


# --- ConcatInDim ----------------------------------------------------------------------------
@pytest.mark.parametrize("type_name", ["f32", "s32", "pred", "u8", "bf16", "c64"])
def test_concat(type_name):
    dtype = DTYPES[type_name]
    a, c, e, w = (data(dtype, shape, seed) for seed, shape in enumerate([(3, 2), (1, 2), (0, 2), (3, 4)]))

    def fn(b):
        pa, pc, pe, pw = params(b, *(Shape.array_shape(dtype, v.shape) for v in (a, c, e, w)))
        return Tuple(b, [ConcatInDim(b, [pa, pc, pe], 0), ConcatInDim(b, [pa, pw, pa], 1),
                         ConcatInDim(b, [pa], 0), Concatenate(b, [pe, pe], 0),
                         ConcatInDim(b, [pc, pa, pc], 0)])

    expected = (np.concatenate([a, c, e], 0), np.concatenate([a, w, a], 1), a, np.concatenate([e, e], 0),
                np.concatenate([c, a, c], 0))
    check(build(f"concat_{type_name}", fn), [a, c, e, w], expected, rtol=0, atol=0)


def test_concat_spec_examples():
    def fn(b):
        x, y, z, m, n = params(b, "s32[2]", "s32[2]", "s32[2]", "s32[3,2]", "s32[1,2]")
        return Tuple(b, [ConcatInDim(b, [x, y, z], 0), ConcatInDim(b, [m, n], 0)])

    args = [np.array([2, 3], np.int32), np.array([4, 5], np.int32), np.array([6, 7], np.int32),
            np.array([[1, 2], [3, 4], [5, 6]], np.int32), np.array([[7, 8]], np.int32)]
    check(build("concat_spec", fn), args,
          (np.array([2, 3, 4, 5, 6, 7], np.int32), np.array([[1, 2], [3, 4], [5, 6], [7, 8]], np.int32)))


# --- Pad -------------------------------------------------------------------------------------
PAD_CONFIGS = [
    [(0, 0, 0), (0, 0, 0)],      # a no-op
    [(1, 2, 0), (0, 1, 0)],      # edge padding
    [(0, 0, 1), (1, 1, 2)],      # interior padding
    [(-1, 0, 0), (0, -2, 0)],    # negative edges remove elements
    [(-2, -1, 1), (2, -3, 1)],   # negative edges cut into the interior padding
    [(-3, 0, 0), (0, 0, 0)],     # everything removed: size 0
    [(-4, 5, 0), (3, -7, 0)],    # a negative edge beyond the array, then positive padding
    [(1, -5, 2), (-1, 0, 3)],
]


@pytest.mark.parametrize("type_name", ["f32", "s32", "pred", "u8", "bf16", "c64"])
def test_pad(type_name):
    dtype = DTYPES[type_name]
    x = data(dtype, (3, 4))
    value = np.array(True if dtype == np.bool_ else 200, dtype)  # a value the data never holds
    if dtype == np.bool_:
        x = ~np.eye(3, 4, dtype=bool)  # padding True next to False values shows where each one went

    def fn(b):
        p, v = params(b, Shape.array_shape(dtype, (3, 4)), Shape.array_shape(dtype, ()))
        return Tuple(b, [Pad(p, v, config) for config in PAD_CONFIGS])

    expected = tuple(np_pad(x, value, config) for config in PAD_CONFIGS)
    assert expected[6].shape == (4, 0) and expected[5].shape == (0, 4)
    check(build(f"pad_{type_name}", fn), [x, value], expected, rtol=0, atol=0)


def test_pad_config_forms_and_empty_operand():
    """PaddingConfig objects, MakeEdgePaddingConfig, MakeNoPaddingConfig and triples agree;
    interior padding of a size-0 or size-1 dimension adds nothing."""
    x = np.arange(1, 7, dtype=np.float32).reshape(2, 3)
    e = np.zeros((0, 2), np.float32)
    one = np.array([[5.0]], np.float32)

    def fn(b):
        p, v, pe, p1 = params(b, "f32[2,3]", "f32[]", "f32[0,2]", "f32[1,1]")
        config = PaddingConfig((PaddingConfigDimension(1, 0, 1), PaddingConfigDimension(-1, 2, 0)))
        return Tuple(b, [Pad(p, v, config), Pad(p, v, PaddingConfig.from_triples([(1, 0, 1), (-1, 2, 0)])),
                         Pad(p, v, MakeEdgePaddingConfig([(2, 1), (0, -3)])),
                         Pad(p, v, MakeNoPaddingConfig(2)),
                         Pad(pe, v, [(1, 1, 3), (0, 0, 2)]), Pad(p1, v, [(0, 0, 4), (1, 0, 9)])])

    v = np.float32(-1)
    expected = (np_pad(x, v, [(1, 0, 1), (-1, 2, 0)]), np_pad(x, v, [(1, 0, 1), (-1, 2, 0)]),
                np_pad(x, v, [(2, 1, 0), (0, -3, 0)]), x,
                np.full((2, 4), -1, np.float32), np.array([[-1.0, 5.0]], np.float32))
    assert expected[0].tolist() == [[-1, -1, -1, -1], [2, 3, -1, -1], [-1, -1, -1, -1], [5, 6, -1, -1]]
    check(build("pad_forms", fn), [x, v, e, one], expected)


# --- errors ------------------------------------------------------------------------------------
def _ops():
    b = XlaBuilder("errors")
    return b, params(b, "f32[2,3]", "f32[]", "s32[]", "f32[2]", "f32[4,3]", "s32[2,3]", "f32[2,3,1]")


@pytest.mark.parametrize("call, error, message", [
    (lambda b, x, v, i, r, t, s, d: Slice(x, [0, 0], [2, 4], [1, 1]), ShapeError,
     r"Slice requires 0 <= start_indices\[d\] <= limit_indices\[d\] <= operand dimension d; "
     r"got start_indices \[0, 0\] and limit_indices \[2, 4\] for operand f32\[2,3\] \(dimension 1\)"),
    (lambda b, x, v, i, r, t, s, d: Slice(x, [2, 0], [1, 3], [1, 1]), ShapeError,
     r"got start_indices \[2, 0\] and limit_indices \[1, 3\] for operand f32\[2,3\] \(dimension 0\)"),
    (lambda b, x, v, i, r, t, s, d: Slice(x, [-1, 0], [1, 3], [1, 1]), ShapeError,
     r"got start_indices \[-1, 0\] and limit_indices \[1, 3\]"),
    (lambda b, x, v, i, r, t, s, d: Slice(x, [0, 0], [2, 3], [1, 0]), InvalidArgumentError,
     r"Slice requires positive strides; got \[1, 0\]"),
    (lambda b, x, v, i, r, t, s, d: Slice(x, [0], [2], [1]), InvalidArgumentError,
     r"Slice requires one entry of start_indices per operand dimension; got \[0\] for operand f32\[2,3\]"),
    (lambda b, x, v, i, r, t, s, d: Slice(x, [0, 0.5], [2, 3], [1, 1]), InvalidArgumentError,
     r"Slice requires integer start_indices; got \[0, 0.5\]"),
    (lambda b, x, v, i, r, t, s, d: SliceInDim(x, 0, 1, 1, 2), InvalidArgumentError,
     r"SliceInDim requires dimno in \[0, 2\); got 2 for operand f32\[2,3\]"),
    (lambda b, x, v, i, r, t, s, d: SliceInDim(x, 0, 5, 1, 1), ShapeError,
     r"SliceInDim requires 0 <= start_indices\[d\] <= limit_indices\[d\] <= operand dimension d; "
     r"got start_indices \[0, 0\] and limit_indices \[2, 5\] for operand f32\[2,3\]"),
    (lambda b, x, v, i, r, t, s, d: ConcatInDim(b, [x, t], 1), ShapeError,
     r"ConcatInDim requires operands with equal sizes outside dimension 1; got f32\[2,3\], f32\[4,3\]"),
    (lambda b, x, v, i, r, t, s, d: ConcatInDim(b, [x, s], 0), DTypeError,
     r"ConcatInDim requires operands of one element type; got f32\[2,3\], s32\[2,3\]"),
    (lambda b, x, v, i, r, t, s, d: ConcatInDim(b, [x, d], 0), ShapeError,
     r"ConcatInDim requires operands of one rank; got f32\[2,3\], f32\[2,3,1\]"),
    (lambda b, x, v, i, r, t, s, d: ConcatInDim(b, [x, x], 2), InvalidArgumentError,
     r"ConcatInDim requires dimension in \[0, 2\); got 2 for operands f32\[2,3\], f32\[2,3\]"),
    (lambda b, x, v, i, r, t, s, d: Concatenate(b, [v, v], 0), InvalidArgumentError,
     r"ConcatInDim requires dimension in \[0, 0\); got 0 for operands f32\[\], f32\[\]"),
    (lambda b, x, v, i, r, t, s, d: ConcatInDim(b, [], 0), InvalidArgumentError,
     r"ConcatInDim requires at least one operand"),
    (lambda b, x, v, i, r, t, s, d: ConcatInDim(XlaBuilder("other"), [x], 0), InvalidArgumentError,
     r"ConcatInDim requires operands of the builder it is given"),
    (lambda b, x, v, i, r, t, s, d: Pad(x, r, [(0, 0, 0), (0, 0, 0)]), ShapeError,
     r"Pad requires a scalar padding_value; got f32\[2\]"),
    (lambda b, x, v, i, r, t, s, d: Pad(x, i, [(0, 0, 0), (0, 0, 0)]), DTypeError,
     r"Pad requires padding_value of the operand's element type; got s32\[\] for operand f32\[2,3\]"),
    (lambda b, x, v, i, r, t, s, d: Pad(x, v, [(0, 0, 0)]), InvalidArgumentError,
     r"Pad requires one padding_config entry per operand dimension; got \[\(0, 0, 0\)\] "
     r"for operand f32\[2,3\]"),
    (lambda b, x, v, i, r, t, s, d: Pad(x, v, [(0, 0, -1), (0, 0, 0)]), InvalidArgumentError,
     r"PaddingConfigDimension requires interior_padding >= 0; got -1"),
    (lambda b, x, v, i, r, t, s, d: Pad(x, v, [(0, 0, 0), (-2, -2, 0)]), ShapeError,
     r"Pad requires padding that leaves non-negative sizes; got sizes \[2, -1\] from padding_config "
     r"\[\(0, 0, 0\), \(-2, -2, 0\)\] for operand f32\[2,3\]"),
    (lambda b, x, v, i, r, t, s, d: Pad(x, v, [(0, 0), (0, 0)]), InvalidArgumentError,
     r"PaddingConfig requires \(edge_padding_low, edge_padding_high, interior_padding\) triples; "
     r"got \(0, 0\)"),
    (lambda b, x, v, i, r, t, s, d: Pad(x, v, "low"), InvalidArgumentError,
     r"Pad requires a PaddingConfig or a list of \(low, high, interior\) triples; got 'low'"),
])
def test_errors(call, error, message):
    b, ops = _ops()
    with pytest.raises(error, match=message) as info:
        call(b, *ops)
    assert "test_slicing.py:" in str(info.value)  # the user's line
