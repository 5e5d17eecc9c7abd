"""End to end: Dot and DotGeneral against numpy (einsum) and XLA CPU.

Several products share one compiled module (returned as a tuple); errors are checked
for their message (op name, condition, concrete shapes and dimensions) and location.
"""

import ml_dtypes
import numpy as np
import pytest

from hlo_mlir import (
    CompileError,
    ConvertElementType,
    Dot,
    DotDimensionNumbers,
    DotGeneral,
    DTypeError,
    InvalidArgumentError,
    Parameter,
    Precision,
    PrecisionConfig,
    PrimitiveType,
    Shape,
    ShapeError,
    Tuple,
    XlaBuilder,
)
from tests.oracle import check, run_iree

# dtype name -> (numpy dtype, rtol, atol). bf16/f16 products may be accumulated in the
# narrow type (IREE) or in f32 (XLA): an implementation-defined difference.
DTYPES = {
    "f32": (np.float32, 1e-5, 1e-5),
    "f64": (np.float64, 1e-12, 1e-12),
    "s32": (np.int32, 0, 0),
    "f16": (np.float16, 1e-2, 2e-2),
    "bf16": (ml_dtypes.bfloat16, 3e-2, 1e-1),
}


def data(dtype, shape, seed):
    rng = np.random.default_rng(seed)
    if np.dtype(dtype).kind == "i":
        return rng.integers(-50, 50, shape).astype(dtype)
    return rng.uniform(-1, 1, shape).astype(dtype)


def einsum(spec, a, b, dtype):
    """numpy reference computed in float64 (or int64), then cast to ``dtype``."""
    wide = np.int64 if np.dtype(dtype).kind == "i" else np.float64
    return np.einsum(spec, a.astype(wide), b.astype(wide)).astype(dtype)


def params(b, dtype_name, *shapes):
    return [Parameter(b, i, Shape.parse(f"{dtype_name}{list(s)}".replace(" ", "")))
            for i, s in enumerate(shapes)]


@pytest.mark.parametrize("name", list(DTYPES))
def test_dot_ranks(name):
    """Dot of vector.vector, matrix.vector, vector.matrix and matrix.matrix (spec table)."""
    dtype, rtol, atol = DTYPES[name]
    b = XlaBuilder(f"dot_{name}")
    v, w, m, n = params(b, name, (5,), (5,), (3, 5), (5, 4))
    comp = b.build(Tuple(b, [Dot(v, w), Dot(m, v), Dot(v, n), Dot(m, n)]))
    assert [str(s) for s in comp.program_shape().result.tuple_shapes] == \
        [f"{name}[]", f"{name}[3]", f"{name}[4]", f"{name}[3,4]"]
    a = [data(dtype, s, i) for i, s in enumerate([(5,), (5,), (3, 5), (5, 4)])]
    expected = (einsum("k,k->", a[0], a[1], dtype), einsum("mk,k->m", a[2], a[0], dtype),
                einsum("k,kn->n", a[0], a[3], dtype), einsum("mk,kn->mn", a[2], a[3], dtype))
    check(comp, a, expected, rtol=rtol, atol=atol)


def test_spec_examples():
    """The two DotGeneral examples of the spec, exact values."""
    b = XlaBuilder("spec_examples")
    lhs, rhs, blhs, brhs = params(b, "f32", (2, 3), (2, 3), (2, 2, 2), (2, 2, 2))
    comp = b.build(Tuple(b, [
        DotGeneral(lhs, rhs, DotDimensionNumbers([1], [1])),
        DotGeneral(blhs, brhs, DotDimensionNumbers([2], [1], [0], [0]))]))
    batch = np.array([[[1, 2], [3, 4]], [[5, 6], [7, 8]]], np.float32)
    eye = np.array([np.eye(2), np.eye(2)], np.float32)
    check(comp, [np.array([[1, 2, 3], [4, 5, 6]], np.float32), np.array([[1, 1, 1], [2, 2, 2]], np.float32),
                 batch, eye],
          (np.array([[6, 12], [15, 30]], np.float32), batch))


# (lhs shape, rhs shape, dimension numbers ((lc, rc), (lb, rb)), einsum spec)
GENERAL_CASES = [
    ((2, 3, 4, 5), (2, 3, 5, 6), (((3,), (2,)), ((0, 1), (0, 1))), "abmk,abkn->abmn"),   # batch matmul
    ((5, 3), (4, 5), (((0,), (1,)), ((), ())), "km,nk->mn"),                           # non-minor contraction
    ((2, 3, 4), (3, 2, 5), (((0, 1), (1, 0)), ((), ())), "ijm,jin->mn"),               # two contracting dims
    ((3, 2, 4), (4, 2), (((2,), (0,)), ((1,), (1,))), "mbk,kb->bm"),                   # batch in the middle
    ((4, 3), (2, 5), (((), ()), ((), ())), "mk,np->mknp"),                             # outer product
    ((2, 0, 3), (2, 3, 4), (((2,), (1,)), ((0,), (0,))), "bmk,bkn->bmn"),              # empty free dimension
    ((2, 3, 0), (2, 0, 4), (((2,), (1,)), ((0,), (0,))), "bmk,bkn->bmn"),              # empty sum: zeros
]


@pytest.mark.parametrize("name", ["f32", "s32", "bf16"])
def test_dot_general(name):
    dtype, rtol, atol = DTYPES[name]
    b = XlaBuilder(f"dot_general_{name}")
    shapes = [s for lhs, rhs, _, _ in GENERAL_CASES for s in (lhs, rhs)]
    ps = params(b, name, *shapes)
    comp = b.build(Tuple(b, [DotGeneral(ps[2 * i], ps[2 * i + 1], dn)
                             for i, (_, _, dn, _) in enumerate(GENERAL_CASES)]))
    args = [data(dtype, s, i) for i, s in enumerate(shapes)]
    expected = tuple(einsum(spec, args[2 * i], args[2 * i + 1], dtype)
                     for i, (_, _, _, spec) in enumerate(GENERAL_CASES))
    check(comp, args, expected, rtol=rtol, atol=atol)


def test_preferred_element_type():
    """s8 x s8 -> s32 (no wrap-around at 8 bits), bf16 -> f32, f16 -> f32, s32 -> f32."""
    b = XlaBuilder("preferred")
    s8a, s8b = Parameter(b, 0, Shape.parse("s8[3,16]")), Parameter(b, 1, Shape.parse("s8[16,2]"))
    bfa, bfb = Parameter(b, 2, Shape.parse("bf16[2,8]")), Parameter(b, 3, Shape.parse("bf16[8,3]"))
    f16a, f16b = Parameter(b, 4, Shape.parse("f16[4,8]")), Parameter(b, 5, Shape.parse("f16[8]"))
    s32a, s32b = Parameter(b, 6, Shape.parse("s32[3]")), Parameter(b, 7, Shape.parse("s32[3]"))
    comp = b.build(Tuple(b, [
        Dot(s8a, s8b, preferred_element_type=PrimitiveType.S32),
        Dot(bfa, bfb, preferred_element_type=PrimitiveType.F32),
        DotGeneral(f16a, f16b, DotDimensionNumbers([1], [0]), preferred_element_type="f32"),
        Dot(s32a, s32b, preferred_element_type=np.float32)]))
    rng = np.random.default_rng(7)
    a = rng.integers(-128, 128, (3, 16)).astype(np.int8)
    bb = rng.integers(-128, 128, (16, 2)).astype(np.int8)
    bf = [data(ml_dtypes.bfloat16, s, i) for i, s in enumerate([(2, 8), (8, 3)])]
    hf = [data(np.float16, s, i) for i, s in enumerate([(4, 8), (8,)])]
    si = np.array([1000, -2000, 3000], np.int32)
    expected = (a.astype(np.int32) @ bb.astype(np.int32),
                einsum("mk,kn->mn", bf[0], bf[1], np.float32),
                einsum("mk,k->m", hf[0], hf[1], np.float32),
                np.float32(si.astype(np.int64) @ si.astype(np.int64)))
    check(comp, [a, bb, *bf, *hf, si, si], expected, rtol=1e-5, atol=1e-5)


def test_preferred_element_type_unsigned():
    b = XlaBuilder("preferred_unsigned")
    x, y = Parameter(b, 0, Shape.parse("u8[3]")), Parameter(b, 1, Shape.parse("u8[3,2]"))
    comp = b.build(Dot(x, y, preferred_element_type=PrimitiveType.U32))
    u = np.array([200, 255, 3], np.uint8)
    m = np.array([[200, 1], [255, 2], [3, 250]], np.uint8)
    check(comp, [u, m], u.astype(np.uint32) @ m.astype(np.uint32))


def test_precision_config():
    """Precisions reach the IR (one per operand) and HIGHEST f32 products are exact to f32."""
    b = XlaBuilder("precision")
    x, y = params(b, "f32", (4, 8), (8, 2))
    comp = b.build(Tuple(b, [
        Dot(x, y, precision_config=PrecisionConfig([Precision.HIGHEST, Precision.HIGHEST])),
        Dot(x, y, precision_config=Precision.HIGH),
        DotGeneral(x, y, DotDimensionNumbers([1], [0]),
                   precision_config=[PrecisionConfig.Precision.DEFAULT, "highest"])]))
    text = str(comp)
    assert "precision = [HIGHEST, HIGHEST]" in text
    assert "precision = [HIGH, HIGH]" in text
    assert "precision = [DEFAULT, HIGHEST]" in text
    a, bb = data(np.float32, (4, 8), 1), data(np.float32, (8, 2), 2)
    ref = einsum("mk,kn->mn", a, bb, np.float32)
    check(comp, [a, bb], (ref, ref, ref))


def test_jax_style_dimension_numbers():
    b = XlaBuilder("jax_dnums")
    x, y = params(b, "f32", (2, 3, 4), (2, 4, 5))
    op = DotGeneral(x, y, (([2], [1]), ([0], [0])))
    assert str(op.shape) == "f32[2,3,5]"


# --- errors ------------------------------------------------------------------------------------
def _ops(*shapes):
    b = XlaBuilder("errors")
    return [Parameter(b, i, Shape.parse(s)) for i, s in enumerate(shapes)]


def test_error_contracting_sizes():
    x, y, z = _ops("f32[2,3]", "f32[4,5]", "f32[2,4]")
    with pytest.raises(ShapeError, match=r"Dot requires contracting dimensions to have the same shape; "
                                         r"got \(3,\) and \(4,\) \(lhs f32\[2,3\] dimensions \[1\], "
                                         r"rhs f32\[4,5\] dimensions \[0\]\)") as e:
        Dot(x, y)
    assert "test_linalg.py" in str(e.value)  # the user's line
    with pytest.raises(ShapeError, match=r"DotGeneral requires contracting dimensions to have the same "
                                         r"shape; got \(2, 3\) and \(2, 4\)"):
        DotGeneral(x, z, DotDimensionNumbers([0, 1], [0, 1]))


def test_error_batch_sizes():
    x, y = _ops("f32[2,3,4]", "f32[5,4,6]")
    with pytest.raises(ShapeError, match=r"DotGeneral requires batch dimensions to have the same shape; "
                                         r"got \(2,\) and \(5,\) \(lhs f32\[2,3,4\]"):
        DotGeneral(x, y, DotDimensionNumbers([2], [1], [0], [0]))


def test_error_dimension_numbers():
    x, y = _ops("f32[2,3,4]", "f32[2,4,6]")
    with pytest.raises(InvalidArgumentError, match=r"DotGeneral requires as many lhs as rhs batch "
                                                   r"dimensions; got \[0\] and \[\]"):
        DotGeneral(x, y, DotDimensionNumbers([2], [1], [0], []))
    with pytest.raises(InvalidArgumentError, match=r"DotGeneral requires as many lhs as rhs contracting "
                                                   r"dimensions; got \[2\] and \[1, 2\]"):
        DotGeneral(x, y, DotDimensionNumbers([2], [1, 2]))
    with pytest.raises(InvalidArgumentError, match=r"DotGeneral requires distinct lhs contracting and "
                                                   r"batch dimensions; got contracting \[0\] and batch \[0\] "
                                                   r"for f32\[2,3,4\]"):
        DotGeneral(x, y, DotDimensionNumbers([0], [0], [0], [0]))
    with pytest.raises(InvalidArgumentError, match=r"DotGeneral requires rhs contracting and batch "
                                                   r"dimensions in \[0, 3\); got contracting \[3\]"):
        DotGeneral(x, y, DotDimensionNumbers([2], [3]))
    with pytest.raises(InvalidArgumentError, match=r"DotDimensionNumbers requires integer"):
        DotDimensionNumbers([1.5], [0])
    with pytest.raises(InvalidArgumentError, match=r"DotGeneral requires DotDimensionNumbers or"):
        DotGeneral(x, y, [2, 1])


def test_error_ranks_and_types():
    x, y, z, s = _ops("f32[2,3,4]", "f32[4,5]", "s32[4,5]", "f32[]")
    with pytest.raises(ShapeError, match=r"Dot requires operands of rank 1 or 2 \(use DotGeneral "
                                         r"otherwise\); got f32\[2,3,4\] for lhs"):
        Dot(x, y)
    with pytest.raises(ShapeError, match=r"Dot requires operands of rank 1 or 2 .* got f32\[\] for rhs"):
        Dot(y, s)
    with pytest.raises(DTypeError, match=r"Dot requires operands of the same element type; "
                                         r"got f32\[4,5\] and s32\[4,5\]"):
        Dot(y, z)
    p, q = _ops("pred[2]", "pred[2]")
    with pytest.raises(DTypeError,
                       match=r"Dot requires integer, floating-point or complex operands; got pred\[2\]"):
        Dot(p, q)


def test_error_preferred_element_type():
    a, b, f = _ops("s32[3]", "s32[3]", "f32[3]")
    with pytest.raises(DTypeError, match=r"Dot requires a preferred_element_type no narrower than the "
                                         r"operands'; got s8 for operands of type s32"):
        Dot(a, b, preferred_element_type=PrimitiveType.S8)
    with pytest.raises(DTypeError, match=r"Dot requires a preferred_element_type of the operands' "
                                         r"signedness; got u64 for operands of type s32"):
        Dot(a, b, preferred_element_type=PrimitiveType.U64)
    with pytest.raises(DTypeError, match=r"Dot requires a preferred_element_type of a compatible kind "
                                         r".* got s32 for operands of type f32"):
        Dot(f, f, preferred_element_type=PrimitiveType.S32)


def test_error_precision_config():
    x, y = _ops("f32[3]", "f32[3]")
    with pytest.raises(InvalidArgumentError, match=r"Dot requires one precision per operand \(2\); got 3"):
        Dot(x, y, precision_config=[Precision.HIGH] * 3)
    with pytest.raises(InvalidArgumentError, match=r"PrecisionConfig requires precisions in "
                                                   r"\['DEFAULT', 'HIGH', 'HIGHEST'\]; got 'FASTEST'"):
        Dot(x, y, precision_config="FASTEST")


def test_dot_of_widened_unsigned_operands():
    """Dot of convert(u8 -> s32) operands: IREE folds the widening into the contraction
    as a sign extension unless unsigned-dot-zero-extension masks it back to a zero extension."""
    b = XlaBuilder("widened_unsigned")
    x, y = Parameter(b, 0, Shape.parse("u8[3]")), Parameter(b, 1, Shape.parse("u8[3,2]"))
    comp = b.build(Dot(ConvertElementType(x, PrimitiveType.S32), ConvertElementType(y, PrimitiveType.S32)))
    u = np.array([200, 255, 3], np.uint8)
    m = np.array([[200, 1], [255, 2], [3, 250]], np.uint8)
    check(comp, [u, m], u.astype(np.int32) @ m.astype(np.int32))


def test_complex64_matrix_products():
    """A complex<f32> matrix product failed to compile on llvm-cpu with data tiling (IREE:
    "'vector.transfer_read' op requires valid padding vector elemental type"); complex-dot
    computes it as four real products. A plain, a batched and a transposed-operand product,
    against numpy in complex128 and XLA CPU; the pinned IREE alone still fails."""
    b = XlaBuilder("complex64_products")
    x, y = Parameter(b, 0, Shape.parse("c64[3,4]")), Parameter(b, 1, Shape.parse("c64[4,5]"))
    u, v = Parameter(b, 2, Shape.parse("c64[2,3,4]")), Parameter(b, 3, Shape.parse("c64[2,5,4]"))
    comp = b.build(Tuple(b, [Dot(x, y), DotGeneral(u, v, DotDimensionNumbers([2], [2], [0], [0]))]))
    rng = np.random.default_rng(3)

    def c64(*shape):
        return (rng.standard_normal(shape) + 1j * rng.standard_normal(shape)).astype(np.complex64)

    args = [c64(3, 4), c64(4, 5), c64(2, 3, 4), c64(2, 5, 4)]
    wide = [a.astype(np.complex128) for a in args]
    expected = (wide[0] @ wide[1], np.einsum("bik,bjk->bij", wide[2], wide[3]))
    check(comp, args, tuple(e.astype(np.complex64) for e in expected), rtol=1e-5, atol=1e-5)
    with pytest.raises(CompileError, match="requires valid padding vector elemental type"):
        run_iree(comp, *args, legalize=False)
