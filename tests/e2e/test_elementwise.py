"""End to end: every element-wise op on every dtype it allows, against numpy and XLA CPU.

To keep compiles few, one module per dtype holds every unary, binary and comparison
op allowed on it (a tuple of outputs), over special values (inf, NaN, -0.0, INT_MIN,
shifts by >= the bit width). Shapes (scalar, 2-D, empty), broadcasting, Select, Clamp
and conversions get modules of their own. References are computed in float64 /
complex128 and rounded to the dtype; tolerances are per dtype.
"""

from __future__ import annotations

import ml_dtypes
import numpy as np
import pytest
import scipy.special

from dialect_ops import elementwise
from hlo_mlir import (
    Add,
    BitcastConvertType,
    Clamp,
    ConvertElementType,
    Lt,
    Max,
    Mul,
    Neg,
    Parameter,
    PrimitiveType,
    Select,
    Shape,
    Sub,
    Tuple,
    XlaBuilder,
)
from hlo_mlir.types import dtype_of, from_dtype
from tests import oracle

ALL = ["pred", "s8", "s16", "s32", "s64", "u8", "u16", "u32", "u64", "f16", "bf16", "f32", "f64",
       "c64", "c128"]
FLOATS = ("f16", "bf16", "f32", "f64")
COMPLEX = ("c64", "c128")
# rtol, atol per dtype (references are exact to f64; f16/bf16 ops run in f32 and round).
TOL = {"f16": (2e-3, 1e-4), "bf16": (1.6e-2, 1e-3), "f32": (2e-6, 1e-7), "f64": (1e-13, 1e-300),
       "c64": (5e-6, 1e-6), "c128": (1e-13, 1e-300)}


def _dtype(name: str) -> np.dtype:
    return dtype_of(from_dtype(name))


def _wide(x: np.ndarray) -> np.ndarray:
    return x.astype(np.complex128 if x.dtype.kind == "c" else np.float64)


def operands(name: str) -> tuple[np.ndarray, np.ndarray]:
    """Two vectors of the dtype's special values, paired element by element."""
    t = from_dtype(name)
    dt = _dtype(name)
    if t.is_pred:
        return np.array([0, 0, 1, 1], bool), np.array([0, 1, 0, 1], bool)
    if t.is_integer:
        info = np.iinfo(dt)
        bits = t.bit_width
        if t.is_signed_integer:
            x = [0, 1, -1, 5, -7, info.min, info.max, 100 % info.max, -3, 6, info.min, 9]
            y = [1, 3, 2, -2, 2, 1, -1, 7, bits, bits + 1, -1, 3]  # shifts by >= width too
        else:
            x = [0, 1, 2, 5, 7, info.max, info.max - 1, 100, 3, 6, 200 % info.max, 9]
            y = [1, 3, 2, 2, 2, 1, 7, 7, bits, bits + 3, 255, 3]
        return np.array(x).astype(dt), np.array(y).astype(dt)
    x = np.array([0.0, -0.0, 1.0, -1.0, 0.5, -2.5, 3.75, 1e-3, 10.0, np.inf, -np.inf, np.nan, 2.0, -0.0])
    y = np.array([2.0, 3.0, -0.5, 0.0, 1.0, 2.0, -3.0, 0.25, -10.0, 1.0, np.inf, 1.0, np.nan, -0.0])
    if t.is_complex:
        finite = [0, 2, 3, 4, 5, 6, 7, 8, 12]  # complex special values: see test_complex_specials
        x, y = x[finite][:8], y[finite][:8]
        x, y = x + 1j * y[::-1], y - 0.5j * x
    return x.astype(dt), y.astype(dt)


# --- numpy references ------------------------------------------------------------------
def _round_afz(x):
    t = np.trunc(x)
    return np.where(np.abs(x - t) >= 0.5, t + np.sign(x), t)


def _clz(x: np.ndarray) -> np.ndarray:
    bits = x.dtype.itemsize * 8
    u = x.view(f"u{x.dtype.itemsize}")
    return np.array([bits - int(v).bit_length() for v in u.ravel()], dtype=x.dtype).reshape(x.shape)


UNARY_REF = {
    "Abs": np.abs, "Neg": np.negative, "Sign": np.sign, "Ceil": np.ceil, "Floor": np.floor,
    "Round": _round_afz, "RoundNearestEven": np.rint, "Cos": np.cos, "Sin": np.sin, "Tan": np.tan,
    "Tanh": np.tanh, "Exp": np.exp, "Expm1": np.expm1, "Log": np.log, "Log1p": np.log1p,
    "Logistic": lambda x: 1 / (1 + np.exp(-x)), "Sqrt": np.sqrt, "Rsqrt": lambda x: 1 / np.sqrt(x),
    "Cbrt": np.cbrt, "Erf": scipy.special.erf, "IsFinite": np.isfinite, "Not": np.invert,
    "PopulationCount": lambda x: np.bitwise_count(x.view(f"u{x.dtype.itemsize}")).astype(x.dtype),
    "Clz": _clz,
    "Real": np.real, "Imag": np.imag,
}


def _complex(x, y):
    out = np.empty(x.shape, np.complex128)
    out.real, out.imag = x, y  # not x + 1j * y: 1j * NaN has a NaN real part
    return out


def _int_div(x, y):
    q = [abs(int(a)) // abs(int(b)) * (1 if (a < 0) == (b < 0) else -1) for a, b in zip(x, y, strict=True)]
    return np.array(q).astype(x.dtype)


def _int_pow(x, y):
    bits = x.dtype.itemsize * 8
    out = []
    for a, b in zip(x.tolist(), y.tolist(), strict=True):
        if b < 0:  # XLA: 1 for base 1, +-1 for base -1, else 0
            out.append(1 if a == 1 else (-1) ** (-b) if a == -1 else 0)
        else:  # XLA CPU multiplies over the exponent's low 6 bits only (IREE agrees)
            out.append(pow(a, b & 63, 1 << bits))
    return np.array([v % (1 << bits) for v in out], dtype=f"u{x.dtype.itemsize}").view(x.dtype)


def _shift(kind):
    def ref(x, y):
        bits = x.dtype.itemsize * 8
        ux = x.view(f"u{x.dtype.itemsize}").astype(object)
        out = []
        signed = x.view(f"i{x.dtype.itemsize}").tolist()  # arithmetic shifts read the bits as signed
        for a, ua, s in zip(signed, ux, y.view(f"u{x.dtype.itemsize}").tolist(), strict=True):
            if kind == "left":
                out.append(0 if s >= bits else (ua << s) % (1 << bits))
            elif kind == "logical":
                out.append(0 if s >= bits else ua >> s)
            else:  # arithmetic: sign fill
                out.append((a >> min(s, bits - 1)) % (1 << bits))
        return np.array(out, dtype=f"u{x.dtype.itemsize}").view(x.dtype)
    return ref


def _binary_ref(name: str, t: PrimitiveType):
    if t.is_pred:
        return {"Add": np.logical_or, "Mul": np.logical_and, "Max": np.logical_or, "Min": np.logical_and,
                "And": np.logical_and, "Or": np.logical_or, "Xor": np.logical_xor}.get(name)
    refs = {"Add": np.add, "Sub": np.subtract, "Mul": np.multiply, "Max": np.maximum, "Min": np.minimum,
            "Rem": np.fmod, "Pow": np.power, "Atan2": np.arctan2, "And": np.bitwise_and,
            "Or": np.bitwise_or, "Xor": np.bitwise_xor, "Div": np.divide,
            "Complex": _complex,
            "ShiftLeft": _shift("left"), "ShiftRightLogical": _shift("logical"),
            "ShiftRightArithmetic": _shift("arithmetic")}
    if t.is_integer:
        refs.update(Div=_int_div, Pow=_int_pow)
    return refs.get(name)


def _total_order_key(x: np.ndarray) -> np.ndarray:
    """Integers ordered like XLA's total order: -NaN < -Inf < ... < -0 < +0 < ... < +NaN."""
    i = x.view(f"i{x.dtype.itemsize}").astype(np.int64)
    return np.where(i < 0, i ^ ((1 << (x.dtype.itemsize * 8 - 1)) - 1), i)


COMPARE_REF = {"Eq": np.equal, "Ne": np.not_equal, "Ge": np.greater_equal, "Gt": np.greater,
               "Le": np.less_equal, "Lt": np.less}

# Integer inputs that are implementation-defined in XLA (division by zero, INT_MIN / -1)
# or undefined for numpy (overflowing negation of INT_MIN is defined: it wraps).
_INT_DIV_UNDEFINED = {"Div", "Rem"}


def _expected(name, fn, args, t):
    """``fn`` evaluated in float64/complex128 (exact ints) and rounded to ``t``'s dtype."""
    dt = dtype_of(t)
    with np.errstate(all="ignore"):
        if t.is_floating_point or t.is_complex:
            out = np.asarray(fn(*[_wide(a) for a in args]))
        else:
            out = np.asarray(fn(*args))
    if out.dtype == bool or name == "IsFinite":
        return out.astype(bool)
    if name in ("Abs", "Real", "Imag") and t.is_complex:
        return out.real.astype(dtype_of(t.complex_component_type))
    if name == "Complex":
        return out.astype(np.complex64 if t is PrimitiveType.F32 else np.complex128)
    return out.astype(dt)


def _ops_for(t: PrimitiveType):
    """(name, builder fn, reference, arity) for every op the dtype allows (with a reference)."""
    rows = []
    for name, (_, check, _) in elementwise._UNARY.items():
        if check(t):
            rows.append((name, UNARY_REF[name], 1))
    for name, (_, check) in elementwise._BINARY.items():
        ref = _binary_ref(name, t)
        if check(t) and ref is not None and not (t.is_complex and name == "Atan2"):
            rows.append((name, ref, 2))
    for name, ref in COMPARE_REF.items():
        if t.is_complex and name not in ("Eq", "Ne"):
            continue
        rows.append((name, lambda x, y, r=ref: r(x, y), 2))
        if t.is_floating_point:
            rows.append((name + "TotalOrder",
                         lambda x, y, r=ref: r(_total_order_key(x), _total_order_key(y)), 2))
    return rows


@pytest.mark.parametrize("dtype", ALL)
def test_all_ops_on_special_values(dtype):
    """Every unary, binary and comparison op the dtype allows, in one module."""
    t = from_dtype(dtype)
    x0, y0 = operands(dtype)
    if t.is_integer:  # keep implementation-defined integer division out of Div/Rem
        y_div = np.where(y0 == 0, 1, y0).astype(y0.dtype)
        if t.is_signed_integer:
            y_div = np.where((x0 == np.iinfo(x0.dtype).min) & (y_div == -1), 2, y_div).astype(y0.dtype)
    else:
        y_div = y0
    b = XlaBuilder(f"ops_{dtype}")
    x = Parameter(b, 0, Shape.from_numpy(x0), "x")
    y = Parameter(b, 1, Shape.from_numpy(y0), "y")
    yd = Parameter(b, 2, Shape.from_numpy(y_div), "y_div")
    rows = _ops_for(t)
    outs, expected = [], []
    for name, ref, arity in rows:
        fn = getattr(elementwise, name)
        rhs, rhs0 = (yd, y_div) if name in _INT_DIV_UNDEFINED else (y, y0)
        outs.append(fn(x) if arity == 1 else fn(x, rhs))
        expected.append(_expected(name, ref, (x0,) if arity == 1 else (x0, rhs0), t))
    comp = b.build(Tuple(b, outs))
    rtol, atol = TOL.get(dtype, (0, 0))
    ours = oracle.run_iree(comp, x0, y0, y_div)
    theirs = oracle.run_xla(comp, x0, y0, y_div)
    for (name, _, _), a, x_, e in zip(rows, ours, theirs, expected, strict=True):
        oracle.assert_close(a, e, rtol, atol, f"hlo-mlir {dtype} {name}")
        oracle.assert_close(x_, e, rtol, atol, f"XLA {dtype} {name}")


@pytest.mark.parametrize("dtype", ["pred", "s8", "u32", "s64", "bf16", "f32", "f64", "c64"])
def test_shapes_scalar_2d_empty(dtype):
    """Ops keep shapes: scalar, 2-D and an empty dimension, in one module."""
    t = from_dtype(dtype)
    dt = dtype_of(t)
    rng = np.random.default_rng(0)
    args = [np.asarray(rng.integers(0, 5, size=s)).astype(dt) for s in [(), (2, 3), (0, 3)]]
    b = XlaBuilder(f"shapes_{dtype}")
    params = [Parameter(b, i, Shape.from_numpy(a)) for i, a in enumerate(args)]
    outs, expected = [], []
    for p, a in zip(params, args, strict=True):
        outs += [Add(p, p), Max(p, p) if not t.is_complex else Add(p, p), Lt(p, p) if not t.is_complex
                 else Sub(p, p)]
        expected += [np.logical_or(a, a) if t.is_pred else (a + a).astype(dt),
                     (a + a).astype(dt) if t.is_complex else a,
                     np.zeros(a.shape, dt) if t.is_complex else np.zeros(a.shape, bool)]
        if not t.is_pred:
            outs.append(Neg(p))
            expected.append((-_wide(a) if not t.is_integer else -a).astype(dt))
    oracle.check(b.build(Tuple(b, outs)), args, tuple(expected))


BROADCASTS = [
    ((2, 3), (3,), [1]),        # rank-1 into the minor dimension
    ((2, 3), (2,), [0]),        # ... into the major dimension
    ((3,), (2, 3), [1]),        # lower rank on the left
    ((2, 3, 4), (2, 4), [0, 2]),
    ((2, 3), (), []),           # scalar on the right
    ((), (2, 3), []),           # scalar on the left
    ((2, 1), (1, 3), []),       # degenerate dimensions on both sides
    ((2, 3), (2, 3), [0, 1]),   # identity broadcast_dimensions
    ((0, 3), (1, 3), []),       # degenerate against an empty dimension
    ((0, 3), (3,), [1]),
]


def _numpy_broadcast(a, out_rank, dims):
    shape = [1] * out_rank
    for i, d in enumerate(dims):
        shape[d] = a.shape[i]
    return a.reshape(shape)


def test_broadcasting():
    """XLA broadcasting for binary ops: broadcast_dimensions both ways, scalars, degenerate dims."""
    rng = np.random.default_rng(1)
    b = XlaBuilder("broadcasting")
    args, outs, expected = [], [], []
    for lhs_shape, rhs_shape, dims in BROADCASTS:
        l0 = rng.standard_normal(lhs_shape).astype(np.float32)
        r0 = rng.standard_normal(rhs_shape).astype(np.float32)
        lhs = Parameter(b, len(args), Shape.from_numpy(l0))
        rhs = Parameter(b, len(args) + 1, Shape.from_numpy(r0))
        args += [l0, r0]
        rank = max(len(lhs_shape), len(rhs_shape))
        ln = _numpy_broadcast(l0, rank, dims) if len(lhs_shape) < rank and dims else l0
        rn = _numpy_broadcast(r0, rank, dims) if len(rhs_shape) < rank and dims else r0
        for op, ref in ((Sub, np.subtract), (Lt, np.less)):
            outs.append(op(lhs, rhs, dims))
            expected.append(ref(ln, rn))
    oracle.check(b.build(Tuple(b, outs)), args, tuple(expected))


def test_python_operators_and_scalars():
    """``x * 2 + 1``, ``2 - x``, ``>>`` (arithmetic for signed, logical for unsigned)."""
    b = XlaBuilder("operators")
    x = Parameter(b, 0, Shape.parse("f32[3]"))
    i = Parameter(b, 1, Shape.parse("s32[3]"))
    u = Parameter(b, 2, Shape.parse("u32[3]"))
    x0 = np.array([1.0, -2.0, 0.5], np.float32)
    i0 = np.array([-8, 8, -1], np.int32)
    u0 = np.array([0xFFFFFFF0, 8, 1], np.uint32)
    comp = b.build(Tuple(b, [x * 2.0 + 1.0, 2.0 - x, x / 4.0, i >> 2, u >> 2, i << 1, -x, ~i]))
    oracle.check(comp, [x0, i0, u0],
                 (x0 * 2 + 1, 2 - x0, x0 / 4, i0 >> 2, u0 >> 2, i0 << 1, -x0, ~i0))


SELECT_DTYPES = ["pred", "s8", "u16", "s64", "f16", "bf16", "f64", "c64", "c128"]


def test_select():
    """Select with an element-wise and with a scalar predicate, for many dtypes."""
    b = XlaBuilder("select")
    pred0 = np.array([True, False, True, False])
    pred = Parameter(b, 0, Shape.from_numpy(pred0))
    scalar = Parameter(b, 1, Shape.parse("pred[]"))
    args, outs, expected = [pred0, np.bool_(False)], [], []
    for dtype in SELECT_DTYPES:
        dt = _dtype(dtype)
        t0 = (np.arange(4) % 2 == 0) if dtype == "pred" else np.arange(1, 5).astype(dt)
        f0 = ~t0 if dtype == "pred" else (-np.arange(1, 5) * 10).astype(dt) if dtype[0] != "u" else \
            np.arange(10, 14).astype(dt)
        on_true = Parameter(b, len(args), Shape.from_numpy(t0))
        on_false = Parameter(b, len(args) + 1, Shape.from_numpy(f0))
        args += [t0, f0]
        outs += [Select(pred, on_true, on_false), Select(scalar, on_true, on_false)]
        expected += [np.where(pred0, t0, f0), f0]
    oracle.check(b.build(Tuple(b, outs)), args, tuple(expected))


def test_clamp():
    """Clamp with scalar and array bounds on signed, unsigned and float types; lo > hi
    returns hi (min(max(x, lo), hi)); NaN operands propagate."""
    b = XlaBuilder("clamp")
    args, outs, expected = [], [], []
    for dtype in ["s8", "u32", "s64", "f16", "bf16", "f32", "f64"]:
        dt = _dtype(dtype)
        x0 = np.array([0, 1, 5, 9, 3]).astype(dt)
        lo0, hi0 = np.array(2).astype(dt), np.array(6).astype(dt)
        lo_arr = np.array([0, 4, 7, 1, 5]).astype(dt)
        hi_arr = np.array([1, 8, 3, 9, 2]).astype(dt)  # lo > hi in two places
        ps = [Parameter(b, len(args) + i, Shape.from_numpy(a))
              for i, a in enumerate([x0, lo0, hi0, lo_arr, hi_arr])]
        args += [x0, lo0, hi0, lo_arr, hi_arr]
        outs += [Clamp(ps[1], ps[0], ps[2]), Clamp(ps[3], ps[0], ps[4])]
        expected += [np.minimum(np.maximum(x0, lo0), hi0), np.minimum(np.maximum(x0, lo_arr), hi_arr)]
    xn = np.array([np.nan, -np.inf, np.inf, -0.0], np.float32)
    p = Parameter(b, len(args), Shape.from_numpy(xn))
    lo = Parameter(b, len(args) + 1, Shape.parse("f32[]"))
    hi = Parameter(b, len(args) + 2, Shape.parse("f32[]"))
    args += [xn, np.float32(-1), np.float32(1)]
    outs.append(Clamp(lo, p, hi))
    expected.append(np.array([np.nan, -1, 1, -0.0], np.float32))
    oracle.check(b.build(Tuple(b, outs)), args, tuple(expected))


def test_convert_element_type_all_pairs():
    """ConvertElementType between every pair of dtypes, on values all of them hold exactly."""
    b = XlaBuilder("convert")
    args, outs, expected = [], [], []
    for src in ALL:
        sdt = _dtype(src)
        x0 = np.array([0, 1, 1, 0]).astype(sdt) if src == "pred" else np.array([0, 1, 2, 100]).astype(sdt)
        p = Parameter(b, len(args), Shape.from_numpy(x0))
        args.append(x0)
        for dst in ALL:
            if from_dtype(src).is_complex and not from_dtype(dst).is_complex:
                continue
            outs.append(ConvertElementType(p, from_dtype(dst)))
            ddt = _dtype(dst)
            expected.append((x0 != 0) if dst == "pred" else x0.astype(ddt))
    oracle.check(b.build(Tuple(b, outs)), args, tuple(expected))


def test_convert_edge_cases():
    """Rounding toward zero to integers, integer wrap-around, float overflow to inf, NaN,
    float to PRED (non-zero is true), real to complex."""
    b = XlaBuilder("convert_edges")
    f0 = np.array([2.7, -2.7, 0.5, -0.0, 1e5], np.float32)
    i0 = np.array([300, -1, 128, -129, 65535], np.int32)
    n0 = np.array([np.nan, np.inf, -np.inf, 70000.0, 1e-3], np.float64)
    f, i, n = (Parameter(b, k, Shape.from_numpy(a)) for k, a in enumerate([f0, i0, n0]))
    outs = [ConvertElementType(f, PrimitiveType.S32), ConvertElementType(f, PrimitiveType.PRED),
            ConvertElementType(i, PrimitiveType.S8), ConvertElementType(i, PrimitiveType.U16),
            ConvertElementType(n, PrimitiveType.F16), ConvertElementType(n, PrimitiveType.F32),
            ConvertElementType(n, PrimitiveType.BF16), ConvertElementType(f, PrimitiveType.C128)]
    expected = (np.array([2, -2, 0, 0, 100000], np.int32), f0 != 0, i0.astype(np.int8),
                i0.astype(np.uint16), n0.astype(np.float16), n0.astype(np.float32),
                n0.astype(ml_dtypes.bfloat16), f0.astype(np.complex128))
    with np.errstate(over="ignore"):
        oracle.check(b.build(Tuple(b, outs)), [f0, i0, n0], expected, rtol=0, atol=0)


BITCASTS = [("f32", "s32"), ("s32", "f32"), ("f32", "u32"), ("f64", "s64"), ("u64", "f64"),
            ("f16", "s16"), ("bf16", "u16"), ("s8", "u8"), ("f32", "u16"), ("u8", "s32"), ("f64", "f32")]


def test_bitcast_convert_type():
    """Same-width bitcasts, and width changes that add or consume a minor dimension."""
    b = XlaBuilder("bitcast")
    rng = np.random.default_rng(2)
    args, outs, expected = [], [], []
    for src, dst in BITCASTS:
        sdt, ddt = _dtype(src), _dtype(dst)
        ratio = ddt.itemsize // sdt.itemsize
        shape = (3, ratio) if ratio > 1 else (3,)
        nbytes = int(np.prod(shape)) * sdt.itemsize
        x0 = rng.integers(0, 255, size=(nbytes,), dtype=np.uint8).view(sdt).reshape(shape)
        if sdt.kind == "f":
            x0 = np.where(np.isnan(x0.astype(np.float64)), 1, x0).astype(sdt)  # NaN payloads may canonicalize
        p = Parameter(b, len(args), Shape.from_numpy(x0))
        args.append(x0)
        outs.append(BitcastConvertType(p, from_dtype(dst)))
        out = x0.view(ddt)
        expected.append(out.reshape(x0.shape[:-1]) if ratio > 1 else
                        out.reshape(x0.shape + (sdt.itemsize // ddt.itemsize,)) if sdt.itemsize > ddt.itemsize
                        else out)
    results = oracle.check(b.build(Tuple(b, outs)), args, tuple(expected), rtol=0, atol=0)
    for r, e in zip(results, expected, strict=True):  # bit-exact, NaNs included
        np.testing.assert_array_equal(r.view(f"u{r.dtype.itemsize}"), e.view(f"u{e.dtype.itemsize}"))


@pytest.mark.parametrize("dtype", [
    pytest.param("f32", marks=pytest.mark.xfail(strict=True, reason=(
        "IREE flushes f32 denormal inputs of log to zero (log(4.2e-45) = -inf); XLA CPU computes "
        "-103.97 (and NaN for a negative denormal)"))),
    "f64"])
def test_denormals_follow_xla(dtype):
    """XLA CPU flushes denormal inputs (and outputs) of float arithmetic; so does IREE.

    Checked against XLA only: numpy keeps denormals, XLA's answer is the reference.
    """
    tiny = np.finfo(_dtype(dtype)).smallest_subnormal * 3
    x0 = np.array([tiny, -tiny, 1.0], _dtype(dtype))
    b = XlaBuilder("denormals")
    x = Parameter(b, 0, Shape.from_numpy(x0))
    ops = ["Ceil", "Floor", "Log", "Sqrt"]
    comp = b.build(Tuple(b, [getattr(elementwise, n)(x) for n in ops]))
    ours, theirs = oracle.run_iree(comp, x0), oracle.run_xla(comp, x0)
    for name, a, e in zip(ops, ours, theirs, strict=True):
        oracle.assert_close(a, e, 0, 0, f"{dtype} {name} of a denormal")


@pytest.mark.parametrize("dtype", ["f32", "f64"])
def test_transcendental_accuracy(dtype):
    """sin/cos/tan/tanh/exp/log/atan2/pow/rem/cbrt on a dense range, near-ULP tolerances."""
    dt = _dtype(dtype)
    x0 = np.linspace(-20, 20, 401).astype(dt)
    y0 = np.linspace(-3, 7, 401).astype(dt)
    b = XlaBuilder("accuracy")
    x, y = Parameter(b, 0, Shape.from_numpy(x0)), Parameter(b, 1, Shape.from_numpy(y0))
    names = ["Sin", "Cos", "Tanh", "Exp", "Cbrt", "Atan2", "Rem", "Pow"]
    outs = [getattr(elementwise, n)(x) for n in names[:5]] + [
        elementwise.Atan2(x, y), elementwise.Rem(x, y), elementwise.Pow(y, Mul(x, x) * 0.01)]
    xw, yw = x0.astype(np.float64), y0.astype(np.float64)
    with np.errstate(all="ignore"):
        expected = tuple(np.asarray(v).astype(dt) for v in (
            np.sin(xw), np.cos(xw), np.tanh(xw), np.exp(xw), np.cbrt(xw), np.arctan2(xw, yw),
            np.fmod(xw, yw), np.power(yw, (x0 * x0 * dt.type(0.01)).astype(np.float64))))
    rtol = 1e-5 if dtype == "f32" else 1e-14
    oracle.check(b.build(Tuple(b, outs)), [x0, y0], expected, rtol=rtol, atol=rtol)


def test_complex_specials():
    """Complex ops on inf/NaN components: hlo-mlir must give XLA CPU's answer."""
    x0 = np.array([complex(np.inf, 1), complex(-np.inf, 1), complex(1, np.inf), complex(np.nan, 0),
                   complex(0, 0), complex(-0.0, 0), complex(1, -np.inf)], np.complex64)
    b = XlaBuilder("complex_specials")
    x = Parameter(b, 0, Shape.from_numpy(x0))
    names = ["Exp", "Log", "Log1p"]
    comp = b.build(Tuple(b, [getattr(elementwise, n)(x) for n in names]))
    ours, theirs = oracle.run_iree(comp, x0), oracle.run_xla(comp, x0)
    for name, a, e in zip(names, ours, theirs, strict=True):
        oracle.assert_close(a, e, 1e-6, 1e-6, f"c64 {name}")


def test_complex_sqrt_div_specials():
    """sqrt(-inf + 1j) and a division by (nan + inf j) (0 on XLA CPU; IREE's own division gave
    nan, fixed by complex-division) give XLA's answer."""
    x0 = np.array([complex(-np.inf, 1), complex(3, 1)], np.complex64)
    y0 = np.array([complex(1, 0), complex(np.nan, np.inf)], np.complex64)
    b = XlaBuilder("complex_sqrt_div")
    x, y = Parameter(b, 0, Shape.from_numpy(x0)), Parameter(b, 1, Shape.from_numpy(y0))
    comp = b.build(Tuple(b, [elementwise.Sqrt(x), elementwise.Div(x, y)]))
    ours, theirs = oracle.run_iree(comp, x0, y0), oracle.run_xla(comp, x0, y0)
    oracle.assert_close(ours, theirs, 1e-6, 1e-6, "c64 sqrt/div vs XLA")
