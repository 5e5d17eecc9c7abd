"""End to end: Reduce (single and variadic) and ReducePrecision against numpy and XLA CPU.

Reducers are XlaComputations built with their own builders, as in XLA. The
ReducePrecision reference is XLA's bit-level algorithm (elemental IR emitter),
itself checked against ml_dtypes' bf16/f16 conversions where those agree.
"""

import ml_dtypes
import numpy as np
import pytest

from hlo_mlir import (
    Add,
    And,
    Call,
    ConstantR0,
    ConvertElementType,
    DTypeError,
    Eq,
    GetTupleElement,
    Gt,
    InvalidArgumentError,
    Iota,
    Lt,
    Max,
    Min,
    Mul,
    Or,
    Parameter,
    PrimitiveType,
    Reduce,
    ReducePrecision,
    Select,
    Shape,
    ShapeError,
    Tuple,
    XlaBuilder,
)
from tests.oracle import check

# dtype name -> (numpy dtype, rtol, atol)
DTYPES = {
    "f32": (np.float32, 1e-5, 1e-5),
    "f64": (np.float64, 1e-12, 1e-12),
    "s32": (np.int32, 0, 0),
    "f16": (np.float16, 1e-2, 1e-2),
    "bf16": (ml_dtypes.bfloat16, 2e-2, 5e-2),
}


def binary_reducer(op, type_name, name=None):
    """The computation ``(x, y) -> op(x, y)`` on scalars of ``type_name``."""
    r = XlaBuilder(name or op.__name__.lower())
    scalar = Shape.parse(f"{type_name}[]")
    return r.build(op(Parameter(r, 0, scalar), Parameter(r, 1, scalar)))


def scalar(b, value, dtype):
    """A scalar constant of ``dtype``; bf16 goes through f32 (Constant rejects ml_dtypes arrays)."""
    if np.dtype(dtype) == np.dtype(ml_dtypes.bfloat16):
        return ConvertElementType(ConstantR0(b, np.float32(value)), PrimitiveType.BF16)
    return ConstantR0(b, np.asarray(value, dtype))


def lowest(dtype):
    return np.iinfo(dtype).min if np.dtype(dtype).kind in "iu" else -np.inf


def highest(dtype):
    return np.iinfo(dtype).max if np.dtype(dtype).kind in "iu" else np.inf


@pytest.mark.parametrize("name", list(DTYPES))
def test_reduce_add_max_min_mul(name):
    dtype, rtol, atol = DTYPES[name]
    b = XlaBuilder(f"reduce_{name}")
    x = Parameter(b, 0, Shape.parse(f"{name}[2,3,4]"))
    c = lambda v: scalar(b, v, dtype)  # noqa: E731
    add, mx, mn, mul = (binary_reducer(op, name) for op in (Add, Max, Min, Mul))
    comp = b.build(Tuple(b, [
        Reduce(x, c(0), add, [1]),
        Reduce(x, c(0), add, [0, 2]),             # multi-dimension reduction
        Reduce(x, c(lowest(dtype)), mx, [0]),
        Reduce(x, c(highest(dtype)), mn, [2, 0, 1]),  # all dimensions, unordered
        Reduce(x, c(1), mul, [0, 2]),
        Reduce(x, c(10), add, [2]),               # a non-identity init value is added once
    ]))
    rng = np.random.default_rng(3)
    if dtype == np.int32:
        a = rng.integers(-2, 3, (2, 3, 4)).astype(dtype)
    else:
        a = rng.uniform(0.5, 1.5, (2, 3, 4)).astype(dtype)
    w = a.astype(np.float64 if dtype != np.int32 else np.int64)
    expected = (w.sum(1), w.sum((0, 2)), w.max(0), w.min(), w.prod((0, 2)), w.sum(2) + 10)
    check(comp, [a], tuple(np.asarray(e).astype(dtype) for e in expected), rtol=rtol, atol=atol)


def test_reduce_spec_example():
    """The spec's 3D example: add-reducing f32[4,2,3] (1..6 replicated over dimension 0)."""
    b = XlaBuilder("spec_example")
    x = Parameter(b, 0, Shape.parse("s32[4,2,3]"))
    add, zero = binary_reducer(Add, "s32"), ConstantR0(b, np.int32(0))
    comp = b.build(Tuple(b, [Reduce(x, zero, add, [0]), Reduce(x, zero, add, [2]),
                             Reduce(x, zero, add, [0, 1]), Reduce(x, zero, add, [0, 1, 2])]))
    a = np.broadcast_to(np.arange(1, 7, dtype=np.int32).reshape(2, 3), (4, 2, 3)).copy()
    check(comp, [a], (np.array([[4, 8, 12], [16, 20, 24]], np.int32), np.full((4, 2), [6, 15], np.int32),
                      np.array([20, 28, 36], np.int32), np.int32(84)))


def test_reduce_empty_dimension():
    """Reducing an empty dimension gives the init value; empty kept dimensions stay empty."""
    b = XlaBuilder("reduce_empty")
    x = Parameter(b, 0, Shape.parse("f32[3,0]"))
    y = Parameter(b, 1, Shape.parse("s32[0,4]"))
    comp = b.build(Tuple(b, [
        Reduce(x, ConstantR0(b, 5.0), binary_reducer(Add, "f32"), [1]),
        Reduce(x, ConstantR0(b, -7.0), binary_reducer(Max, "f32"), [0, 1]),
        Reduce(y, ConstantR0(b, np.int32(3)), binary_reducer(Mul, "s32"), [0]),
        Reduce(x, ConstantR0(b, 1.0), binary_reducer(Add, "f32"), [0]),
    ]))
    check(comp, [np.zeros((3, 0), np.float32), np.zeros((0, 4), np.int32)],
          (np.full(3, 5, np.float32), np.float32(-7), np.full(4, 3, np.int32), np.zeros(0, np.float32)))


def argmax_reducer(value_type="f32"):
    """(max, argmax, value, index) -> the larger value with its index; on ties the lower index."""
    r = XlaBuilder("argmax")
    v1, i1 = Parameter(r, 0, Shape.parse(f"{value_type}[]")), Parameter(r, 1, Shape.parse("s32[]"))
    v2, i2 = Parameter(r, 2, Shape.parse(f"{value_type}[]")), Parameter(r, 3, Shape.parse("s32[]"))
    take = Or(Gt(v2, v1), And(Eq(v2, v1), Lt(i2, i1)))
    return r.build(Tuple(r, [Select(take, v2, v1), Select(take, i2, i1)]))


@pytest.mark.parametrize("name", ["f32", "s32", "bf16"])
def test_variadic_reduce_argmax(name):
    dtype = DTYPES[name][0]
    b = XlaBuilder(f"argmax_{name}")
    x = Parameter(b, 0, Shape.parse(f"{name}[4,6]"))
    init = [scalar(b, lowest(dtype), dtype), ConstantR0(b, np.int32(2 ** 31 - 1))]
    argmax = argmax_reducer(name)
    rows = Reduce(b, [x, Iota(b, Shape.parse("s32[4,6]"), 1)], init, argmax, [1])
    cols = Reduce(b, [x, Iota(b, Shape.parse("s32[4,6]"), 0)], init, argmax, [0])
    assert str(rows.shape) == "(" + name + "[4], s32[4])"
    comp = b.build(Tuple(b, [GetTupleElement(rows, 0), GetTupleElement(rows, 1), cols]))
    # Ties everywhere: the first (lowest) index of the maximum must win.
    a = np.array([[1, 3, 3, 2, 0, 3], [5, 5, 5, 5, 5, 5], [0, 1, 2, 3, 4, 9], [-4, -2, -9, -2, -3, -5]],
                 dtype)
    check(comp, [a], (a.max(1), a.argmax(1).astype(np.int32), a.max(0), a.argmax(0).astype(np.int32)))


def test_variadic_reduce_mixed():
    """Sum of one operand and max of another in one reduce, over two dimensions."""
    r = XlaBuilder("sum_max")
    p = [Parameter(r, i, Shape.parse(t)) for i, t in enumerate(["f32[]", "s32[]", "f32[]", "s32[]"])]
    sum_max = r.build(Tuple(r, [Add(p[0], p[2]), Max(p[1], p[3])]))
    b = XlaBuilder("variadic_mixed")
    x, y = Parameter(b, 0, Shape.parse("f32[2,3,4]")), Parameter(b, 1, Shape.parse("s32[2,3,4]"))
    comp = b.build(Reduce(b, [x, y], [ConstantR0(b, 0.0), ConstantR0(b, np.int32(-100))], sum_max, [0, 2]))
    rng = np.random.default_rng(5)
    a, c = rng.uniform(-1, 1, (2, 3, 4)).astype(np.float32), rng.integers(-50, 50, (2, 3, 4)).astype(np.int32)
    check(comp, [a, c], (a.sum((0, 2)), c.max((0, 2))))


def test_variadic_reducer_returning_a_call():
    """A reducer whose tuple result comes from a Call (read back with get_tuple_element)."""
    inner = argmax_reducer()
    r = XlaBuilder("argmax_via_call")
    ps = [Parameter(r, i, Shape.parse(t)) for i, t in enumerate(["f32[]", "s32[]", "f32[]", "s32[]"])]
    via_call = r.build(Call(r, inner, ps))
    b = XlaBuilder("variadic_call")
    x = Parameter(b, 0, Shape.parse("f32[3,4]"))
    comp = b.build(Reduce(b, [x, Iota(b, Shape.parse("s32[3,4]"), 1)],
                          [ConstantR0(b, -np.inf), ConstantR0(b, np.int32(2 ** 31 - 1))], via_call, [1]))
    assert "stablehlo.get_tuple_element" in str(comp)
    a = np.array([[0, 2, 2, 1], [7, -1, 7, 7], [-3, -3, -3, -3]], np.float32)
    check(comp, [a], (a.max(1), a.argmax(1).astype(np.int32)))


# --- ReducePrecision ---------------------------------------------------------------------------
_FLOAT_LAYOUT = {np.dtype(np.float16): (np.uint16, 5, 10), np.dtype(np.float32): (np.uint32, 8, 23),
                 np.dtype(np.float64): (np.uint64, 11, 52), np.dtype(ml_dtypes.bfloat16): (np.uint16, 8, 7)}


def reduce_precision_reference(x, exponent_bits, mantissa_bits):
    """XLA's ReducePrecision on the bits: round the mantissa to nearest even, then send
    exponents above the reduced range to +-inf and those at or below its minimum to +-0;
    NaN stays NaN when mantissa bits remain."""
    x = np.asarray(x)
    uint, src_e, src_m = _FLOAT_LAYOUT[x.dtype]
    nbits = 8 * x.dtype.itemsize
    bits = x.view(uint).copy()
    if mantissa_bits < src_m:
        shift = src_m - mantissa_bits
        last_bit = (bits >> uint(shift)) & uint(1)
        keep = uint(((1 << nbits) - 1) ^ ((1 << shift) - 1))
        bits = (bits + last_bit + uint((1 << (shift - 1)) - 1)) & keep
    if exponent_bits < src_e:
        exp_mask = uint(((1 << src_e) - 1) << src_m)
        bias, reduced_bias = (1 << (src_e - 1)) - 1, (1 << (exponent_bits - 1)) - 1
        exponent = bits & exp_mask
        signed_zero = bits & uint(1 << (nbits - 1))
        bits = np.where(exponent > uint((bias + reduced_bias) << src_m), signed_zero | exp_mask,
                        np.where(exponent <= uint((bias - reduced_bias) << src_m), signed_zero, bits))
    result = bits.astype(uint).view(x.dtype)
    if mantissa_bits > 0:
        result = np.where(np.isnan(x), x, result)
    return result


def test_reduce_precision_reference_matches_ml_dtypes():
    """The reference agrees with real bf16 and (normal-range) f16 conversions."""
    rng = np.random.default_rng(11)
    x = (rng.standard_normal(4096) * np.exp2(rng.integers(-20, 20, 4096))).astype(np.float32)
    np.testing.assert_array_equal(reduce_precision_reference(x, 8, 7),
                                  x.astype(ml_dtypes.bfloat16).astype(np.float32))
    normal = x[(np.abs(x) >= 2.0 ** -14) & (np.abs(x) < 65504)]
    np.testing.assert_array_equal(reduce_precision_reference(normal, 5, 10),
                                  normal.astype(np.float16).astype(np.float32))


SPECIAL_F32 = np.array([1.0, 1.00390625, 1.01171875, -2.5, 3.4028235e38, -3.4e38, 70000.0, 65504.0, 65520.0,
                        1e-6, -1e-6, 6.1035156e-05, 1e-40, np.nan, -0.0, np.inf, -np.inf, 3.0, 5.0, 6.0],
                       np.float32)


def test_reduce_precision_f32():
    """To bf16 (8/7: rounding carries f32 max to inf), f16 (5/10: overflow to inf,
    underflow to 0), 8/0 (powers of two, ties to even), and a no-op with extra bits."""
    b = XlaBuilder("reduce_precision_f32")
    x = Parameter(b, 0, Shape.parse(f"f32[{SPECIAL_F32.size}]"))
    comp = b.build(Tuple(b, [ReducePrecision(x, 8, 7), ReducePrecision(x, 5, 10), ReducePrecision(x, 3, 2),
                             ReducePrecision(x, 11, 30)]))
    finite = np.where(np.isnan(SPECIAL_F32), 1.0, SPECIAL_F32).astype(np.float32)
    expected = (reduce_precision_reference(SPECIAL_F32, 8, 7), reduce_precision_reference(SPECIAL_F32, 5, 10),
                reduce_precision_reference(SPECIAL_F32, 3, 2), SPECIAL_F32)
    assert np.isposinf(expected[0][4]) and np.isposinf(expected[1][6]) and expected[1][9] == 0
    check(comp, [SPECIAL_F32], expected, rtol=0, atol=0)
    b = XlaBuilder("reduce_precision_no_mantissa")
    y = Parameter(b, 0, Shape.parse(f"f32[{finite.size}]"))
    check(b.build(ReducePrecision(y, 8, 0)), [finite], reduce_precision_reference(finite, 8, 0),
          rtol=0, atol=0)


@pytest.mark.parametrize("name,bits", [("f64", [(8, 23), (5, 10), (11, 52)]), ("f16", [(5, 7), (4, 3)]),
                                       ("bf16", [(5, 2), (8, 3)])])
def test_reduce_precision_types(name, bits):
    dtype = DTYPES[name][0]
    with np.errstate(over="ignore"):
        x = SPECIAL_F32.astype(dtype)  # f32 max overflows to inf in f16 and that is fine
    b = XlaBuilder(f"reduce_precision_{name}")
    p = Parameter(b, 0, Shape.parse(f"{name}[{x.size}]"))
    comp = b.build(Tuple(b, [ReducePrecision(p, e, m) for e, m in bits]))
    check(comp, [x], tuple(reduce_precision_reference(x, e, m) for e, m in bits), rtol=0, atol=0)


# --- errors ------------------------------------------------------------------------------------
def _ops(*shapes):
    b = XlaBuilder("errors")
    return b, [Parameter(b, i, Shape.parse(s)) for i, s in enumerate(shapes)]


def test_error_reducer_program_shape():
    b, (x, init) = _ops("f32[2,3]", "f32[]")
    with pytest.raises(DTypeError, match=r"Reduce requires computation parameter 0 \(the accumulator of "
                                         r"operand 0\) to be f32\[\]; "
                                         r"got \(p0: s32\[\], p1: s32\[\]\) -> s32\[\]") as e:
        Reduce(x, init, binary_reducer(Add, "s32"), [0])
    assert "test_reduction.py" in str(e.value)
    r = XlaBuilder("three")
    ps = [Parameter(r, i, Shape.parse("f32[]")) for i in range(3)]
    with pytest.raises(InvalidArgumentError, match=r"Reduce requires a computation of 2 parameters for 1 "
                                                   r"operand\(s\), of shape \(p0: f32\[\], p1: f32\[\]\) -> "
                                                   r"f32\[\]; got 3 parameters"):
        Reduce(x, init, r.build(ps[0] + ps[1] + ps[2]), [0])
    r = XlaBuilder("vector")
    v = Parameter(r, 0, Shape.parse("f32[]"))
    w = Parameter(r, 1, Shape.parse("f32[2]"))
    with pytest.raises(DTypeError, match=r"Reduce requires computation parameter 1 \(the element of "
                                         r"operand 0\) to be f32\[\]; "
                                         r"got \(p0: f32\[\], p1: f32\[2\]\) -> f32\[\]"):
        Reduce(x, init, r.build(v), [0])
    r = XlaBuilder("vector_result")
    v = Parameter(r, 0, Shape.parse("f32[]"))
    w = Parameter(r, 1, Shape.parse("f32[]"))
    with pytest.raises(ShapeError, match=r"Reduce requires a computation returning 1 scalar\(s\)"):
        Reduce(x, init, r.build(Tuple(r, [v, w])), [0])


def test_error_variadic_reducer_arity():
    b, (x, y, i0, i1) = _ops("f32[4]", "s32[4]", "f32[]", "s32[]")
    with pytest.raises(InvalidArgumentError, match=r"Reduce requires a computation of 4 parameters for 2 "
                                                   r"operand\(s\)"):
        Reduce(b, [x, y], [i0, i1], binary_reducer(Add, "f32"), [0])
    with pytest.raises(DTypeError, match=r"Reduce requires computation parameter 0 \(the accumulator of "
                                         r"operand 0\) to be s32\[\]"):
        Reduce(b, [y, x], [i1, i0], argmax_reducer(), [0])
    with pytest.raises(InvalidArgumentError, match=r"Reduce requires one init_value per operand; got 2 "
                                                   r"operands and 1 init_values"):
        Reduce(b, [x, y], [i0], argmax_reducer(), [0])


def test_error_operands_and_dimensions():
    b, (x, y, init, vec) = _ops("f32[2,3]", "s32[3]", "f32[]", "f32[2]")
    add = binary_reducer(Add, "f32")
    with pytest.raises(InvalidArgumentError, match=r"Reduce requires dimensions_to_reduce in \[0, 2\); "
                                                   r"got \[2\] for operand f32\[2,3\]"):
        Reduce(x, init, add, [2])
    with pytest.raises(InvalidArgumentError,
                       match=r"Reduce requires distinct dimensions_to_reduce; got \[1, 1\]"):
        Reduce(x, init, add, [1, 1])
    with pytest.raises(ShapeError,
                       match=r"Reduce requires scalar init_values; got f32\[2\] for init_value 0"):
        Reduce(x, vec, add, [0])
    with pytest.raises(DTypeError, match=r"Reduce requires each init_value of its operand's element type; "
                                         r"got f32\[\] for operand 0 of shape s32\[3\]"):
        Reduce(y, init, add, [0])
    with pytest.raises(ShapeError, match=r"Reduce requires operands of the same dimensions; got f32\[2,3\], "
                                         r"s32\[3\]"):
        Reduce(b, [x, y], [init, ConstantR0(b, np.int32(0))], argmax_reducer(), [0])
    with pytest.raises(InvalidArgumentError,
                       match=r"Reduce requires an XlaComputation reducer; got function"):
        Reduce(x, init, lambda a, c: a + c, [0])
    with pytest.raises(InvalidArgumentError, match=r"Reduce requires \(operand, init_value, computation, "
                                                   r"dimensions_to_reduce\) or"):
        Reduce(x, init, add)
    with pytest.raises(InvalidArgumentError, match=r"Reduce requires at least one operand; got none"):
        Reduce(b, [], [], add, [0])


def test_error_reduce_precision():
    _, (x, f) = _ops("s32[3]", "f32[3]")
    with pytest.raises(DTypeError, match=r"ReducePrecision requires a floating-point operand; got s32\[3\]"):
        ReducePrecision(x, 5, 10)
    with pytest.raises(InvalidArgumentError, match=r"ReducePrecision requires exponent_bits >= 1; got 0"):
        ReducePrecision(f, 0, 10)
    with pytest.raises(InvalidArgumentError, match=r"ReducePrecision requires mantissa_bits >= 0; got -1"):
        ReducePrecision(f, 5, -1)
    with pytest.raises(InvalidArgumentError, match=r"ReducePrecision requires integer mantissa_bits"):
        ReducePrecision(f, 5, 2.5)
