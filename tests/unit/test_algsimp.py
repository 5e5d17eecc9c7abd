"""The algebraic simplifier's edge cases: -0.0, NaN, infinities, integer vs float, and the
op_facts table it reads (checked numerically, bit for bit)."""

from __future__ import annotations

import ml_dtypes
import numpy as np
import pytest
from iree.compiler import ir

import hlo_mlir
from dialect_ops import op_facts
from hlo_mlir.context import get_context
from pipelines.pipeline import run_pipeline

FLOATS = np.array([0.0, -0.0, 1.0, -1.5, np.inf, -np.inf, np.nan, 1e-40, 3.0e38], np.float64)


def special_values(dtype) -> np.ndarray:
    dtype = np.dtype(dtype)
    if dtype == np.bool_:
        return np.array([False, True])
    if dtype.kind in "iu":
        info = np.iinfo(dtype)
        return np.array([0, 1, 7, info.max, info.min] + ([-1] if dtype.kind == "i" else []), dtype=dtype)
    with np.errstate(over="ignore"):
        return FLOATS.astype(dtype)


def bits(a: np.ndarray) -> bytes:
    return np.ascontiguousarray(a).tobytes()


DTYPES = [
    np.bool_,
    np.int8,
    np.int32,
    np.uint8,
    np.uint32,
    np.float16,
    ml_dtypes.bfloat16,
    np.float32,
    np.float64,
]
# every (op, dtype) pair the op is defined on
CASES = [
    pytest.param(row, dtype, id=f"{row.op.split('.')[1]}-{np.dtype(dtype).name}")
    for row in op_facts.FACTS.values()
    if row.fold is not None
    for dtype in DTYPES
    if op_facts.type_class(dtype) in row.types
]


@pytest.mark.parametrize("row, dtype", CASES)
def test_identity_and_absorbing_facts_hold_bitwise(row, dtype):
    x = special_values(dtype)
    ident = op_facts.identity_of(row.op, dtype)
    if ident is not None:
        e = np.full_like(x, ident)
        assert bits(op_facts.fold_binary(row.op, x, e)) == bits(x), f"{row.op}(x, {ident}) != x"
        if row.commutative:
            assert bits(op_facts.fold_binary(row.op, e, x)) == bits(x), f"{row.op}({ident}, x) != x"
    z = op_facts.absorbing_of(row.op, dtype)
    if z is not None:
        zs = np.full_like(x, z)
        assert bits(op_facts.fold_binary(row.op, x, zs)) == bits(zs), f"{row.op}(x, {z}) != {z}"
    if row.idempotent:
        assert bits(op_facts.fold_binary(row.op, x, x)) == bits(x)


def test_float_facts_that_must_not_exist():
    # +0.0 is not an additive identity: -0.0 + 0.0 == +0.0
    assert np.signbit(op_facts.identity_of("stablehlo.add", np.float32))
    assert not np.signbit(np.float32(-0.0) + np.float32(0.0))
    # x * 0 is not 0 for floats (inf * 0 is NaN), and +inf does not absorb max (NaN wins)
    assert op_facts.absorbing_of("stablehlo.multiply", np.float32) is None
    assert op_facts.absorbing_of("stablehlo.maximum", np.float32) is None
    assert op_facts.absorbing_of("stablehlo.multiply", np.int32) == 0


def test_xla_integer_division_semantics():
    x = np.array([7, -7, 7, -7, -128, 5], np.int8)
    y = np.array([2, 2, -2, -2, -1, 0], np.int8)
    np.testing.assert_array_equal(op_facts.fold_binary("stablehlo.divide", x, y), [3, -3, -3, 3, -128, -1])
    np.testing.assert_array_equal(op_facts.fold_binary("stablehlo.remainder", x, y), [1, -1, 1, -1, 0, 5])
    s = np.array([1, -8, -8], np.int32)
    amount = np.array([32, 1, 40], np.int32)
    np.testing.assert_array_equal(op_facts.fold_binary("stablehlo.shift_left", s, amount), [0, -16, 0])
    np.testing.assert_array_equal(
        op_facts.fold_binary("stablehlo.shift_right_arithmetic", s, amount), [0, -4, -1]
    )


# --- rules on IR --------------------------------------------------------------------------
def simplify(body: str, args: str, results: str) -> str:
    text = f"func.func @main({args}) -> ({results}) {{\n{body}\n}}"
    with get_context():
        module = ir.Module.parse(text)
    run_pipeline(module, "algsimp,dce")
    return str(module)


@pytest.mark.parametrize(
    "t, zero, removed",
    [
        ("f32", "0.0", False),
        ("f32", "-0.0", True),
        ("f64", "-0.0", True),
        ("bf16", "-0.0", True),
        ("f16", "0.0", False),
        ("i32", "0", True),
        ("ui8", "0", True),
    ],
)
def test_add_zero_respects_signed_zero(t, zero, removed):
    out = simplify(
        f"  %z = stablehlo.constant dense<{zero}> : tensor<3x{t}>\n"
        f"  %0 = stablehlo.add %x, %z : tensor<3x{t}>\n  return %0 : tensor<3x{t}>",
        f"%x: tensor<3x{t}>",
        f"tensor<3x{t}>",
    )
    assert ("stablehlo.add" not in out) == removed, out


@pytest.mark.parametrize(
    "t, removed", [("f32", False), ("bf16", False), ("f64", False), ("i32", True), ("i8", True)]
)
def test_multiply_by_zero_only_for_integers(t, removed):
    out = (
        simplify(
            f"  %z = stablehlo.constant dense<0> : tensor<{t}>\n"
            f"  %b = stablehlo.broadcast_in_dim %z, dims = [] : (tensor<{t}>) -> tensor<3x{t}>\n"
            f"  %0 = stablehlo.multiply %b, %x : tensor<3x{t}>\n  return %0 : tensor<3x{t}>",
            f"%x: tensor<3x{t}>",
            f"tensor<3x{t}>",
        )
        if t[0] == "i"
        else simplify(
            f"  %z = stablehlo.constant dense<0.0> : tensor<3x{t}>\n"
            f"  %0 = stablehlo.multiply %z, %x : tensor<3x{t}>\n  return %0 : tensor<3x{t}>",
            f"%x: tensor<3x{t}>",
            f"tensor<3x{t}>",
        )
    )
    assert ("stablehlo.multiply" not in out) == removed, out


@pytest.mark.parametrize(
    "t, ctype, folded",
    [
        ("i32", "SIGNED", True),
        ("ui16", "UNSIGNED", True),
        ("i1", "UNSIGNED", True),
        ("f32", "FLOAT", False),
        ("f32", "TOTALORDER", True),
        ("f64", "FLOAT", False),
    ],
)
def test_compare_self_nan_safety(t, ctype, folded):
    out = simplify(
        f"  %0 = stablehlo.compare LE, %x, %x, {ctype} : (tensor<2x{t}>, tensor<2x{t}>) -> tensor<2xi1>\n"
        "  return %0 : tensor<2xi1>",
        f"%x: tensor<2x{t}>",
        "tensor<2xi1>",
    )
    assert ("stablehlo.compare" not in out) == folded, out
    if folded:
        assert "dense<true>" in out


@pytest.mark.parametrize("t, removed", [("f32", False), ("i64", True), ("ui32", True)])
def test_subtract_self(t, removed):
    out = simplify(
        f"  %0 = stablehlo.subtract %x, %x : tensor<2x{t}>\n  return %0 : tensor<2x{t}>",
        f"%x: tensor<2x{t}>",
        f"tensor<2x{t}>",
    )
    assert ("stablehlo.subtract" not in out) == removed, out


@pytest.mark.parametrize(
    "op, value, t, removed",
    [
        ("maximum", "0xFF800000", "f32", True),  # max(x, -inf) == x, NaN included
        ("maximum", "0x7F800000", "f32", False),  # max(NaN, +inf) is NaN: +inf does not absorb
        ("minimum", "0x7F800000", "f32", True),  # min(x, +inf) == x
        ("minimum", "0xFF800000", "f32", False),
        ("maximum", "0", "ui8", True),  # 0 is the unsigned minimum
        ("and", "255", "ui8", True),  # all ones
        ("and", "-1", "i16", True),
        ("or", "0", "i16", True),
        ("divide", "1", "i32", True),
        ("power", "1.0", "f32", True),
        ("shift_left", "0", "i32", True),
    ],
)
def test_identities_by_type(op, value, t, removed):
    out = simplify(
        f"  %c = stablehlo.constant dense<{value}> : tensor<2x{t}>\n"
        f"  %0 = stablehlo.{op} %x, %c : tensor<2x{t}>\n  return %0 : tensor<2x{t}>",
        f"%x: tensor<2x{t}>",
        f"tensor<2x{t}>",
    )
    assert (f"stablehlo.{op}" not in out) == removed, out


def test_subtract_from_zero_needs_negative_zero_for_floats():
    keep = simplify(
        "  %z = stablehlo.constant dense<0.0> : tensor<2xf32>\n"
        "  %0 = stablehlo.subtract %z, %x : tensor<2xf32>\n  return %0 : tensor<2xf32>",
        "%x: tensor<2xf32>",
        "tensor<2xf32>",
    )
    assert "stablehlo.subtract" in keep and "stablehlo.negate" not in keep
    neg = simplify(
        "  %z = stablehlo.constant dense<-0.0> : tensor<2xf32>\n"
        "  %0 = stablehlo.subtract %z, %x : tensor<2xf32>\n  return %0 : tensor<2xf32>",
        "%x: tensor<2xf32>",
        "tensor<2xf32>",
    )
    assert "stablehlo.subtract" not in neg and "stablehlo.negate" in neg


def test_statistics_name_the_rule():
    with get_context():
        module = ir.Module.parse(
            "func.func @main(%x: tensor<2xi32>) -> tensor<2xi32> {\n"
            "  %0 = stablehlo.negate %x : tensor<2xi32>\n"
            "  %1 = stablehlo.negate %0 : tensor<2xi32>\n  return %1 : tensor<2xi32>\n}"
        )
    result = run_pipeline(module, "algsimp")
    assert dict(result.statistics()["algsimp"]) == {"involution": 1}


# --- numbers: the rewritten module computes bit-identical results on edge inputs -----------------
EDGE_MODULE = """
func.func @main(%x: tensor<8xf32>, %y: tensor<8xf32>, %i: tensor<6xi32>, %j: tensor<6xi32>)
    -> (tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>,
        tensor<8xf32>, tensor<8xf32>, tensor<6xi32>, tensor<6xi32>, tensor<6xi32>, tensor<6xi32>,
        tensor<6xi1>, tensor<6xi32>) {
  %one = stablehlo.constant dense<1.0> : tensor<8xf32>
  %mzero = stablehlo.constant dense<-0.0> : tensor<8xf32>
  %pzero = stablehlo.constant dense<0.0> : tensor<8xf32>
  %mone = stablehlo.constant dense<-1.0> : tensor<8xf32>
  %ninf = stablehlo.constant dense<0xFF800000> : tensor<8xf32>
  %f0 = stablehlo.multiply %one, %x : tensor<8xf32>
  %f1 = stablehlo.add %x, %mzero : tensor<8xf32>
  %f2 = stablehlo.subtract %x, %pzero : tensor<8xf32>
  %f3 = stablehlo.subtract %mzero, %x : tensor<8xf32>
  %f4 = stablehlo.multiply %x, %mone : tensor<8xf32>
  %ny = stablehlo.negate %y : tensor<8xf32>
  %f5 = stablehlo.subtract %x, %ny : tensor<8xf32>
  %f6 = stablehlo.add %ny, %x : tensor<8xf32>
  %f7 = stablehlo.maximum %ninf, %x : tensor<8xf32>
  %izero = stablehlo.constant dense<0> : tensor<6xi32>
  %imone = stablehlo.constant dense<-1> : tensor<6xi32>
  %imin = stablehlo.constant dense<-2147483648> : tensor<6xi32>
  %i0 = stablehlo.subtract %izero, %i : tensor<6xi32>
  %i1 = stablehlo.multiply %imone, %i : tensor<6xi32>
  %nj = stablehlo.negate %j : tensor<6xi32>
  %i2 = stablehlo.add %i, %nj : tensor<6xi32>
  %i3 = stablehlo.minimum %imin, %i : tensor<6xi32>
  %c0 = stablehlo.compare GE, %i, %i, SIGNED : (tensor<6xi32>, tensor<6xi32>) -> tensor<6xi1>
  %i4 = stablehlo.and %i, %imone : tensor<6xi32>
  return %f0, %f1, %f2, %f3, %f4, %f5, %f6, %f7, %i0, %i1, %i2, %i3, %c0, %i4
      : tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>,
        tensor<8xf32>, tensor<8xf32>, tensor<6xi32>, tensor<6xi32>, tensor<6xi32>, tensor<6xi32>,
        tensor<6xi1>, tensor<6xi32>
}
"""


def test_rewrites_are_bit_exact_on_edge_inputs():
    with get_context():
        module = ir.Module.parse(EDGE_MODULE)
    x = np.array([0.0, -0.0, 1.5, -2.0, np.inf, -np.inf, np.nan, 1e-30], np.float32)
    y = np.array([-0.0, 0.0, np.inf, 3.0, np.inf, 1.0, 2.0, -1e-30], np.float32)
    i = np.array([0, 1, -1, 2**31 - 1, -(2**31), 17], np.int32)
    j = np.array([-(2**31), 5, -5, -1, 1, 0], np.int32)

    def run(m):
        return hlo_mlir.runtime.load(hlo_mlir.compile(m), "local-sync").main(x, y, i, j)

    before = run(module)
    result = run_pipeline(module, "algsimp,dce")
    rules = set(result.statistics()["algsimp"])
    assert {
        "identity-operand",
        "subtract-from-zero",
        "multiply-by-minus-one",
        "subtract-negate",
        "add-negate",
        "compare-self",
    } <= rules, rules
    text = str(module)
    assert "stablehlo.multiply" not in text and "stablehlo.compare" not in text
    after = run(module)
    for k, (b, a) in enumerate(zip(before, after, strict=True)):
        assert bits(b) == bits(a), f"output {k}: {b} became {a}"
    # and the numbers are the spec's: -(+0.0) is -0.0, x * -1 keeps NaN and flips zero signs
    np.testing.assert_array_equal(np.signbit(after[3][:2]), [True, False])
    np.testing.assert_array_equal(after[11], np.full(6, -(2**31), np.int32))
