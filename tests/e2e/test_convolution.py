"""End to end: Conv, ConvWithGeneralPadding, ConvWithGeneralDimensions, ConvGeneral and
ConvGeneralDilated against a numpy reference and XLA CPU on the same module.

The reference (``conv_ref``) spells the spec out: transpose to [N, C, spatial] / [O, I,
spatial], insert lhs-dilation holes, pad (negative padding crops), insert rhs-dilation
holes, take every strided window and sum products per feature/batch group.
"""

import ml_dtypes
import numpy as np
import pytest
from numpy.lib.stride_tricks import sliding_window_view

from hlo_mlir import (
    Conv,
    ConvGeneral,
    ConvGeneralDilated,
    ConvolutionDimensionNumbers,
    ConvWithGeneralDimensions,
    ConvWithGeneralPadding,
    DTypeError,
    InvalidArgumentError,
    MakePadding,
    Padding,
    Parameter,
    PrimitiveType,
    Shape,
    ShapeError,
    Tuple,
    XlaBuilder,
    compiler,
    conv_dimension_numbers,
)
from pipelines import registry
from tests.oracle import assert_close, check, run_iree, run_xla

# The legalizations of this family; hlo_mlir.compile runs them before IREE once it runs
# every pass marked legalizes_for_iree.
LEGALIZATIONS = ("single-window-stride",)


def legalized(computation):
    """``computation``'s module after this family's IREE legalizations."""
    module = compiler.as_module(computation)
    for name in LEGALIZATIONS:
        registry.get(name)().run(module)
    return module

LETTERS = "HWDXYZ"


def default_specs(n):
    s = LETTERS[:n]
    return "NC" + s, "OI" + s, "NC" + s


def dilate(x, factors):
    """Inserts ``factor - 1`` zeros between neighbours along axes 2, 3, ..."""
    for axis, f in enumerate(factors, start=2):
        if f > 1 and x.shape[axis] > 0:
            shape = list(x.shape)
            shape[axis] = (x.shape[axis] - 1) * f + 1
            out = np.zeros(shape, x.dtype)
            index = [slice(None)] * x.ndim
            index[axis] = slice(None, None, f)
            out[tuple(index)] = x
            x = out
    return x


def pad_or_crop(x, pairs):
    for axis, (lo, hi) in enumerate(pairs, start=2):
        x = np.pad(x, [(0, 0)] * axis + [(max(lo, 0), max(hi, 0))] + [(0, 0)] * (x.ndim - axis - 1))
        index = [slice(None)] * x.ndim
        index[axis] = slice(max(-lo, 0), x.shape[axis] - max(-hi, 0))
        x = x[tuple(index)]
    return x


def conv_ref(lhs, rhs, strides, padding, lhs_dilation=None, rhs_dilation=None, specs=None,
             fgc=1, bgc=1, out_dtype=None):
    """The spec's convolution in numpy, accumulated in float64/int64."""
    n = lhs.ndim - 2
    lhs_spec, rhs_spec, out_spec = specs or default_specs(n)
    spatial = [c for c in rhs_spec if c not in "OI"]
    wide = np.int64 if lhs.dtype.kind in "iu" else np.float64
    x = np.transpose(lhs, [lhs_spec.index(c) for c in "NC" + "".join(spatial)]).astype(wide)
    w = np.transpose(rhs, [rhs_spec.index(c) for c in "OI" + "".join(spatial)]).astype(wide)
    x = pad_or_crop(dilate(x, lhs_dilation or [1] * n), padding)
    w = dilate(w, rhs_dilation or [1] * n)
    batch, channels = x.shape[:2]
    out_features, kernel_in = w.shape[:2]
    positions = [0 if k > p else (p - k) // s + 1
                 for p, k, s in zip(x.shape[2:], w.shape[2:], strides, strict=True)]
    out = np.zeros([batch // bgc, out_features] + positions, wide)
    if all(positions):
        win = sliding_window_view(x, w.shape[2:], axis=tuple(range(2, 2 + n)))
        win = win[(slice(None), slice(None)) + tuple(slice(None, None, s) for s in strides)]
        s, k = "stuvxy"[:n], "STUVXY"[:n]
        if bgc > 1:
            xg = win.reshape((bgc, batch // bgc) + win.shape[1:])
            wg = w.reshape((bgc, out_features // bgc) + w.shape[1:])
            out = np.einsum(f"gnc{s}{k},goc{k}->ngo{s}", xg, wg)
        else:
            xg = win.reshape((batch, fgc, channels // fgc) + win.shape[2:])
            wg = w.reshape((fgc, out_features // fgc) + w.shape[1:])
            out = np.einsum(f"ngc{s}{k},goc{k}->ngo{s}", xg, wg)
        out = out.reshape([batch // bgc, out_features] + positions)
    out = np.transpose(out, np.argsort([out_spec.index(c) for c in "NC" + "".join(spatial)]))
    return out.astype(out_dtype or lhs.dtype)


def data(dtype, shape, seed):
    rng = np.random.default_rng(seed)
    if np.dtype(dtype).kind in "iu":
        return rng.integers(-5, 6, shape).astype(dtype)
    return rng.uniform(-1, 1, shape).astype(dtype)


def shape_text(dtype_name, shape):
    return f"{dtype_name}[{','.join(str(d) for d in shape)}]"


# name -> (numpy dtype, rtol, atol)
DTYPES = {"f32": (np.float32, 1e-5, 1e-5), "s32": (np.int32, 0, 0),
          "f16": (np.float16, 1e-2, 2e-2), "bf16": (ml_dtypes.bfloat16, 3e-2, 1e-1)}

# (label, lhs shape, rhs shape, builder kwargs for ConvGeneralDilated, reference kwargs)
CASES = [
    ("valid_stride", (2, 3, 6, 7), (4, 3, 3, 2), dict(window_strides=[2, 1], padding=[(0, 0), (0, 0)]),
     dict(strides=[2, 1], padding=[(0, 0), (0, 0)])),
    ("padded", (1, 2, 5, 5), (3, 2, 3, 3), dict(window_strides=[1, 2], padding=[(1, 2), (2, 0)]),
     dict(strides=[1, 2], padding=[(1, 2), (2, 0)])),
    ("negative_padding", (1, 2, 6, 6), (2, 2, 2, 2), dict(window_strides=[1, 1], padding=[(-1, -2), (1, -1)]),
     dict(strides=[1, 1], padding=[(-1, -2), (1, -1)])),
    ("lhs_dilation", (1, 2, 4, 3), (2, 2, 3, 3),
     dict(window_strides=[1, 1], padding=[(2, 2), (1, 1)], lhs_dilation=[2, 3]),
     dict(strides=[1, 1], padding=[(2, 2), (1, 1)], lhs_dilation=[2, 3])),
    ("rhs_dilation", (2, 2, 7, 6), (3, 2, 2, 3),
     dict(window_strides=[2, 1], padding=[(0, 1), (1, 0)], rhs_dilation=[3, 2]),
     dict(strides=[2, 1], padding=[(0, 1), (1, 0)], rhs_dilation=[3, 2])),
    ("feature_groups", (2, 6, 5, 4), (4, 3, 2, 2),
     dict(window_strides=[1, 1], padding=[(0, 0), (1, 1)], feature_group_count=2),
     dict(strides=[1, 1], padding=[(0, 0), (1, 1)], fgc=2)),
    ("depthwise", (1, 3, 5, 5), (6, 1, 3, 3),
     dict(window_strides=[1, 1], padding=[(1, 1), (1, 1)], feature_group_count=3),
     dict(strides=[1, 1], padding=[(1, 1), (1, 1)], fgc=3)),
    ("batch_groups", (4, 3, 5, 4), (6, 3, 2, 2),
     dict(window_strides=[1, 1], padding=[(0, 0), (0, 0)], batch_group_count=2),
     dict(strides=[1, 1], padding=[(0, 0), (0, 0)], bgc=2)),
    ("nhwc_hwio", (2, 5, 4, 3), (3, 2, 3, 4),
     dict(window_strides=[1, 2], padding=[(1, 0), (0, 1)],
          dimension_numbers=("NHWC", "HWIO", "NHWC")),
     dict(strides=[1, 2], padding=[(1, 0), (0, 1)], specs=("NHWC", "HWIO", "NHWC"))),
    ("mixed_layouts", (5, 2, 3, 4), (2, 2, 3, 3),
     dict(window_strides=[1, 1], padding=[(0, 0), (0, 0)], dimension_numbers=("HNCW", "WOHI", "CWNH")),
     dict(strides=[1, 1], padding=[(0, 0), (0, 0)], specs=("HNCW", "WOHI", "CWNH"))),
]


@pytest.mark.parametrize("name", list(DTYPES))
def test_conv_variants(name):
    """Every variant of CASES in one module, per dtype, against numpy and XLA."""
    dtype, rtol, atol = DTYPES[name]
    b = XlaBuilder(f"conv_{name}")
    results, args, expected = [], [], []
    for i, (_, lshape, rshape, kwargs, ref) in enumerate(CASES):
        lhs = Parameter(b, 2 * i, Shape.parse(shape_text(name, lshape)))
        rhs = Parameter(b, 2 * i + 1, Shape.parse(shape_text(name, rshape)))
        results.append(ConvGeneralDilated(lhs, rhs, **kwargs))
        args += [data(dtype, lshape, 2 * i), data(dtype, rshape, 2 * i + 1)]
        expected.append(conv_ref(args[-2], args[-1], **ref))
    comp = b.build(Tuple(b, results))
    check(comp, args, tuple(expected), rtol=rtol, atol=atol)


def test_same_and_valid():
    """Conv with SAME pads as XLA's MakePadding (extra padding on the high side), VALID pads
    nothing; ConvWithGeneralDimensions does the same in NHWC."""
    assert MakePadding([5, 6], [3, 4], [1, 2], Padding.SAME) == [(1, 1), (1, 1)]
    assert MakePadding([7, 4], [4, 1], [2, 3], "SAME") == [(1, 2), (0, 0)]
    assert MakePadding([2], [5], [1], "SAME") == [(2, 2)]
    assert MakePadding([5, 5], [3, 3], [2, 2], "VALID") == [(0, 0), (0, 0)]
    b = XlaBuilder("same_valid")
    x = Parameter(b, 0, Shape.parse("f32[1,2,7,6]"))
    w = Parameter(b, 1, Shape.parse("f32[3,2,4,3]"))
    xn = Parameter(b, 2, Shape.parse("f32[2,5,6,2]"))
    wn = Parameter(b, 3, Shape.parse("f32[3,3,2,4]"))
    outs = [Conv(x, w, [1, 1], "SAME"), Conv(x, w, [2, 3], Padding.SAME), Conv(x, w, [2, 1], "VALID"),
            ConvWithGeneralDimensions(xn, wn, [2, 2], "SAME", ("NHWC", "HWIO", "NHWC"))]
    comp = b.build(Tuple(b, outs))
    assert [str(s) for s in comp.program_shape().result.tuple_shapes] == \
        ["f32[1,3,7,6]", "f32[1,3,4,2]", "f32[1,3,2,4]", "f32[2,3,3,4]"]
    a = [data(np.float32, s, i) for i, s in enumerate([(1, 2, 7, 6), (3, 2, 4, 3), (2, 5, 6, 2), (3, 3, 2,
                                                                                                  4)])]
    nhwc = ("NHWC", "HWIO", "NHWC")
    expected = (conv_ref(a[0], a[1], [1, 1], [(1, 2), (1, 1)]),
                conv_ref(a[0], a[1], [2, 3], MakePadding([7, 6], [4, 3], [2, 3], "SAME")),
                conv_ref(a[0], a[1], [2, 1], [(0, 0), (0, 0)]),
                conv_ref(a[2], a[3], [2, 2], MakePadding([5, 6], [3, 3], [2, 2], "SAME"), specs=nhwc))
    check(comp, a, expected, rtol=1e-5, atol=1e-5)


def test_other_ranks_and_forms():
    """1-D and 3-D convolutions, ConvWithGeneralPadding, ConvGeneral, SAME with rhs dilation
    (the dilated kernel is the window) and a window larger than the padded input (no
    positions: an empty result, as XLA)."""
    b = XlaBuilder("ranks")
    x1 = Parameter(b, 0, Shape.parse("f32[2,3,9]"))
    w1 = Parameter(b, 1, Shape.parse("f32[4,3,3]"))
    x3 = Parameter(b, 2, Shape.parse("f32[1,2,4,3,5]"))
    w3 = Parameter(b, 3, Shape.parse("f32[2,2,2,2,3]"))
    dnums = ConvolutionDimensionNumbers(0, 2, [1], 1, 2, [0], 0, 2, [1])  # NWC, WIO, NWC
    x1c = Parameter(b, 4, Shape.parse("f32[2,9,3]"))
    w1c = Parameter(b, 5, Shape.parse("f32[3,3,4]"))
    outs = [ConvWithGeneralPadding(x1, w1, [2], [(1, 3)]),
            Conv(x3, w3, [1, 2, 1], "VALID"),
            ConvGeneral(x1c, w1c, [1], [(2, 0)], dnums),
            ConvGeneralDilated(x1, w1, [1], "SAME", rhs_dilation=[2]),
            ConvWithGeneralPadding(x1, w1, [1], [(-4, -3)])]
    comp = b.build(Tuple(b, outs))
    assert str(comp.program_shape().result.tuple_shapes[4]) == "f32[2,4,0]"
    shapes = [(2, 3, 9), (4, 3, 3), (1, 2, 4, 3, 5), (2, 2, 2, 2, 3), (2, 9, 3), (3, 3, 4)]
    a = [data(np.float32, s, 10 + i) for i, s in enumerate(shapes)]
    expected = (conv_ref(a[0], a[1], [2], [(1, 3)]),
                conv_ref(a[2], a[3], [1, 2, 1], [(0, 0)] * 3),
                conv_ref(a[4], a[5], [1], [(2, 0)], specs=("NHC", "HIO", "NHC")),
                conv_ref(a[0], a[1], [1], [(2, 2)], rhs_dilation=[2]),
                np.zeros((2, 4, 0), np.float32))
    check(legalized(comp), a, expected, rtol=1e-5, atol=1e-5)
    assert_close(run_xla(comp, *a), expected, 1e-5, 1e-5, "XLA on the module before legalization")


# (lhs shape, rhs shape, strides, padding, lhs_dilation): one window position in a strided dimension
SINGLE_WINDOW = [((1, 2, 3), (2, 2, 2), [2], [(0, 0)], [1]),
                 ((1, 2, 5), (2, 2, 2), [4], [(0, 0)], [1]),
                 ((2, 2, 4, 3, 5), (2, 2, 2, 2, 3), [1, 2, 1], [(0, 0)] * 3, [1, 1, 1]),
                 ((1, 2, 3, 5), (2, 2, 2, 3), [3, 1], [(1, 0), (0, 0)], [1, 1]),
                 ((1, 2, 2, 4), (3, 2, 3, 2), [5, 2], [(0, 1), (1, 1)], [2, 1])]


def test_single_window_strided_dimension():
    """An output dimension of size 1 with a stride > 1: IREE rejects it ('linalg.generic' op
    inferred input/output operand #1 has shape's dimension #0 to be 3, but found 2);
    single-window-stride makes it compile with the same answer."""
    b = XlaBuilder("single_window")
    outs, args, expected = [], [], []
    for i, (ls, rs, strides, padding, lhs_dilation) in enumerate(SINGLE_WINDOW):
        x = Parameter(b, 2 * i, Shape.parse(shape_text("f32", ls)))
        w = Parameter(b, 2 * i + 1, Shape.parse(shape_text("f32", rs)))
        outs.append(ConvGeneralDilated(x, w, strides, padding, lhs_dilation))
        args += [data(np.float32, ls, i), data(np.float32, rs, 20 + i)]
        expected.append(conv_ref(args[-2], args[-1], strides, padding, lhs_dilation))
    comp = b.build(Tuple(b, outs))
    module = legalized(comp)
    assert "stride = [2]" not in str(module) and "stride = [4]" not in str(module)
    check(module, args, tuple(expected), rtol=1e-5, atol=1e-5)
    assert_close(run_xla(comp, *args), tuple(expected), 1e-5, 1e-5, "XLA on the module before legalization")


def test_compile_legalizes_single_window():
    b = XlaBuilder("single_window_compile")
    x = Parameter(b, 0, Shape.parse("f32[1,2,3]"))
    w = Parameter(b, 1, Shape.parse("f32[2,2,2]"))
    comp = b.build(ConvWithGeneralPadding(x, w, [2], [(0, 0)]))
    a = [data(np.float32, (1, 2, 3), 0), data(np.float32, (2, 2, 2), 1)]
    assert_close(run_iree(comp, *a), conv_ref(a[0], a[1], [2], [(0, 0)]), 1e-5, 1e-5)


def test_integer_preferred_element_type():
    """s8 x s8 convolution accumulating in s32 (preferred_element_type), with precision."""
    b = XlaBuilder("conv_s8")
    x = Parameter(b, 0, Shape.parse("s8[1,4,5,5]"))
    w = Parameter(b, 1, Shape.parse("s8[2,4,3,3]"))
    out = Conv(x, w, [1, 1], "SAME", preferred_element_type=PrimitiveType.S32, precision_config="HIGHEST")
    comp = b.build(out)
    assert str(comp.program_shape().result) == "s32[1,2,5,5]"
    assert "precision HIGHEST" in comp.as_text()
    rng = np.random.default_rng(0)
    a = [rng.integers(-128, 128, (1, 4, 5, 5)).astype(np.int8), rng.integers(-128, 128, (2, 4, 3,
                                                                                         3)).astype(np.int8)]
    check(comp, a, conv_ref(a[0], a[1], [1, 1], [(1, 1), (1, 1)], out_dtype=np.int32))


def test_dimension_numbers_helpers():
    dn = conv_dimension_numbers("NHWC", "HWIO", "NHWC")
    assert dn == ConvolutionDimensionNumbers(0, 3, (1, 2), 2, 3, (0, 1), 0, 3, (1, 2))
    assert ConvolutionDimensionNumbers.default(2) == conv_dimension_numbers("NCHW", "OIHW", "NCHW")
    # Spatial dimensions follow the kernel layout's order (as JAX's conv_dimension_numbers).
    assert conv_dimension_numbers("NCWH", "OIHW", "NCHW").input_spatial_dimensions == (3, 2)
    with pytest.raises(InvalidArgumentError, match="N and C once"):
        conv_dimension_numbers("NHW", "HWIO", "NHWC")
    with pytest.raises(InvalidArgumentError, match="same spatial letters"):
        conv_dimension_numbers("NHWC", "HDIO", "NHWC")


def _conv_error(lshape, rshape, **kwargs):
    b = XlaBuilder("bad")
    x = Parameter(b, 0, Shape.parse(lshape))
    w = Parameter(b, 1, Shape.parse(rshape))
    kwargs.setdefault("window_strides", [1, 1])
    kwargs.setdefault("padding", [(0, 0), (0, 0)])
    ConvGeneralDilated(x, w, **kwargs)


@pytest.mark.parametrize("lshape,rshape,kwargs,error,message", [
    ("f32[1,6,5,5]", "f32[4,4,3,3]", dict(feature_group_count=4), ShapeError,
     r"ConvGeneralDilated requires input features \(6\) divisible by feature_group_count \(4\); "
     r"got lhs f32\[1,6,5,5\]"),
    ("f32[1,6,5,5]", "f32[4,2,3,3]", dict(feature_group_count=2), ShapeError,
     r"kernel input features \* feature_group_count == input features; got 2 \* 2 != 6"),
    ("f32[1,6,5,5]", "f32[3,3,3,3]", dict(feature_group_count=2), ShapeError,
     r"kernel output features \(3\) divisible by feature_group_count \(2\)"),
    ("f32[3,2,5,5]", "f32[4,2,3,3]", dict(batch_group_count=2), ShapeError,
     r"input batch \(3\) divisible by batch_group_count \(2\)"),
    ("f32[4,2,5,5]", "f32[4,1,3,3]", dict(batch_group_count=2, feature_group_count=2), InvalidArgumentError,
     "feature_group_count or batch_group_count to be 1; got 2 and 2"),
    ("f32[1,2,5,5]", "f32[4,2,3]", {}, ShapeError,
     r"lhs and rhs of the same rank; got f32\[1,2,5,5\] and f32\[4,2,3\]"),
    ("f32[1,2,5,5]", "s32[4,2,3,3]", {}, DTypeError, "same element type"),
    ("pred[1,2,5,5]", "pred[4,2,3,3]", {}, DTypeError, "integer, floating-point or complex"),
    ("f32[1,2,5,5]", "f32[4,2,3,3]", dict(window_strides=[1]), InvalidArgumentError,
     r"one entry of window_strides per spatial dimension \(2\); got \[1\]"),
    ("f32[1,2,5,5]", "f32[4,2,3,3]", dict(window_strides=[0, 1]), InvalidArgumentError,
     r"positive window_strides; got \[0, 1\]"),
    ("f32[1,2,5,5]", "f32[4,2,3,3]", dict(rhs_dilation=[1, 0]), InvalidArgumentError,
     "positive rhs_dilation"),
    ("f32[1,2,5,5]", "f32[4,2,3,3]", dict(padding=[(0, 0)]), InvalidArgumentError,
     r"one \(low, high\) padding pair per window dimension \(2\)"),
    ("f32[1,2,5,5]", "f32[4,2,3,3]", dict(padding=[(-3, -3), (0, 0)]), ShapeError,
     r"non-negative base area; got padding \(-3, -3\) for input spatial dimension 0 of size 5"),
    ("f32[1,2,5,5]", "f32[4,2,3,3]", dict(padding="FULL"), InvalidArgumentError, "SAME, VALID or"),
    ("f32[1,2,5,5]", "f32[4,2,3,3]", dict(dimension_numbers=ConvolutionDimensionNumbers(
        0, 1, (2, 2), 1, 0, (2, 3), 0, 1, (2, 3))), InvalidArgumentError,
     r"input dimension numbers to be a permutation of \[0, 4\) with 2 spatial dimensions; "
     r"got \[0, 1, 2, 2\]"),
    ("f32[1,2,5,5]", "f32[4,2,3,3]", dict(dimension_numbers="NCHW"), InvalidArgumentError,
     "layout strings"),
    ("f32[1,2,5,5]", "f32[4,2,3,3]", dict(preferred_element_type=PrimitiveType.S32), DTypeError,
     "preferred_element_type of a compatible kind"),
])
def test_errors(lshape, rshape, kwargs, error, message):
    with pytest.raises(error, match=message) as info:
        _conv_error(lshape, rshape, **kwargs)
    assert "test_convolution.py" in str(info.value)  # the user's call site


def test_conv_rank_error_names_op():
    b = XlaBuilder("bad")
    x = Parameter(b, 0, Shape.parse("f32[5]"))
    with pytest.raises(ShapeError, match=r"Conv requires operands of rank >= 2 .*got f32\[5\] and f32\[5\]"):
        Conv(x, x, [], "VALID")
