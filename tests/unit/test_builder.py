"""XlaBuilder's model: parameters, roots, builder ownership, locations, operators."""

from __future__ import annotations

import os
import sys

import numpy as np
import pytest

import hlo_mlir
from hlo_mlir import (
    Add,
    InvalidArgumentError,
    Parameter,
    Shape,
    ShapeError,
    Sub,
    Tuple,
    XlaBuilder,
    XlaComputation,
    XlaOp,
)
from hlo_mlir.runtime import load

F32_3 = Shape.parse("f32[3]")


def _line() -> int:
    """The caller's line number."""
    return sys._getframe(1).f_lineno


# --- parameters -------------------------------------------------------------------------------
def test_parameters_declared_out_of_order_end_up_ordered():
    b = XlaBuilder("out_of_order")
    second = Parameter(b, 1, Shape.parse("f32[3]"), "second")
    first = Parameter(b, 0, Shape.parse("f32[3]"), "first")
    third = Parameter(b, 2, Shape.parse("s32[]"), "third")
    comp = b.build(Tuple(b, [Sub(second, first), third]))
    assert str(comp.program_shape()) == "(first: f32[3], second: f32[3], third: s32[]) -> (f32[3], s32[])"
    assert "func.func @main(%arg0: tensor<3xf32>, %arg1: tensor<3xf32>, %arg2: tensor<i32>)" in comp.as_text()
    assert "stablehlo.subtract %arg1, %arg0" in comp.as_text()
    # And the compiled function takes them in parameter-number order.
    out = load(hlo_mlir.compile(comp)).main(np.array([1, 2, 3], np.float32),
                                            np.array([10, 20, 30], np.float32), np.int32(7))
    np.testing.assert_array_equal(out[0], [9, 18, 27])
    assert out[1] == 7


def test_parameter_errors():
    b = XlaBuilder("params")
    Parameter(b, 0, F32_3)
    with pytest.raises(InvalidArgumentError, match=r"Parameter requires a unique parameter number; "
                                                   r"parameter 0 already exists in 'params'\."):
        Parameter(b, 0, F32_3)
    with pytest.raises(InvalidArgumentError,
                       match=r"Parameter requires a non-negative parameter number; got -1\."):
        Parameter(b, -1, F32_3)
    with pytest.raises(InvalidArgumentError, match=r"Parameter requires a Shape; got str\."):
        Parameter(b, 1, "f32[3]")
    x2 = Parameter(b, 2, F32_3)
    with pytest.raises(InvalidArgumentError, match=r"XlaBuilder.build requires parameter numbers 0..1; "
                                                   r"got \[0, 2\]\."):
        b.build(x2)


def test_parameter_names_and_default_names():
    b = XlaBuilder("names")
    Parameter(b, 0, F32_3, "x")
    y = Parameter(b, 1, F32_3)
    comp = b.build(y)
    assert comp.program_shape().parameter_names == ("x", "p1")
    assert 'loc("x"(' in comp.as_text(debug_info=True)


# --- building ----------------------------------------------------------------------------------
def test_build_of_an_empty_builder():
    with pytest.raises(InvalidArgumentError,
                       match=r"XlaBuilder.build requires at least one op; 'empty' is empty\."):
        XlaBuilder("empty").build()
    with pytest.raises(InvalidArgumentError, match=r"XlaBuilder requires a non-empty name; got ''\."):
        XlaBuilder("")


def test_root_selection():
    b = XlaBuilder("roots")
    x = Parameter(b, 0, F32_3)
    y = x + 1.0
    _unused = y * 2.0  # noqa: F841 - the last op, not the root
    comp = b.build(y)
    assert str(comp.program_shape()) == "(p0: f32[3]) -> f32[3]"
    text = comp.as_text()
    assert "stablehlo.multiply" in text  # dead ops stay until DCE, as in XLA
    ret = [line for line in text.splitlines() if "return" in line][0]
    add = [line for line in text.splitlines() if "stablehlo.add" in line][0]
    assert ret.split()[1] == add.split()[0]  # the root is the add

    b = XlaBuilder("default_root")
    x = Parameter(b, 0, F32_3)
    Add(x, x)
    last = Sub(x, x)
    comp = b.build()  # default: the last op built
    ret = [line for line in comp.as_text().splitlines() if "return" in line][0]
    assert "stablehlo.subtract" in [line for line in comp.as_text().splitlines() if ret.split()[1] in line][0]
    assert isinstance(last, XlaOp)

    b = XlaBuilder("identity")
    x = Parameter(b, 0, F32_3)
    assert "return %arg0 : tensor<3xf32>" in b.build(x).as_text()


def test_ops_from_another_builder_are_rejected():
    a, c = XlaBuilder("a"), XlaBuilder("c")
    xa = Parameter(a, 0, F32_3)
    xc = Parameter(c, 0, F32_3)
    line = _line() + 3
    with pytest.raises(InvalidArgumentError, match=r"Add requires operands from one XlaBuilder; "
                                                   r"got operands of 'a' and 'c'\.") as info:
        Add(xa, xc)
    assert info.value.location == f"{__file__}:{line}"
    with pytest.raises(InvalidArgumentError,
                       match=r"XlaBuilder.build requires a root from 'a'; got one from 'c'\."):
        a.build(xc)
    with pytest.raises(InvalidArgumentError, match=r"Add requires XlaOp operands; got int for operand 1\."):
        Add(xa, 1)


def test_a_built_builder_is_closed():
    b = XlaBuilder("closed")
    x = Parameter(b, 0, F32_3)
    b.build(x + x)
    with pytest.raises(InvalidArgumentError, match=r"Add requires an XlaBuilder that is still open; "
                                                   r"'closed' was already built\."):
        Add(x, x)
    with pytest.raises(InvalidArgumentError, match=r"XlaBuilder 'closed' was already built\."):
        b.build(x)
    with pytest.raises(InvalidArgumentError, match=r"Parameter requires an XlaBuilder that is still open"):
        Parameter(b, 1, F32_3)


# --- the emitted IR -------------------------------------------------------------------------------
def test_ir_carries_the_users_file_and_line():
    b = XlaBuilder("locations")
    x = Parameter(b, 0, F32_3)
    y = x * 2.0
    mul_line = _line() - 1
    z = Add(y, x)
    add_line = _line() - 1
    comp = b.build(z)
    text = comp.as_text(debug_info=True)
    name = os.path.basename(__file__)
    assert f'{name}":{mul_line}:' in text and f'{name}":{add_line}:' in text
    # And the location is on the op itself, not only somewhere in the file.
    add = [line for line in text.splitlines() if "stablehlo.add" in line][0]
    loc_ref = add.rsplit("loc(", 1)[1].rstrip(")")
    definition = next(line for line in text.splitlines() if line.startswith(loc_ref + " ="))
    assert f'{name}":{add_line}:' in definition


def test_shape_errors_point_at_the_users_line():
    b = XlaBuilder("bad")
    x = Parameter(b, 0, F32_3)
    y = Parameter(b, 1, Shape.parse("f32[4]"))
    line = _line() + 2
    with pytest.raises(ShapeError, match=r"Add requires .*f32\[3\].*f32\[4\]") as info:
        Add(x, y)
    assert info.value.location == f"{__file__}:{line}"
    assert str(info.value).startswith(f"{__file__}:{line}: Add requires")


def test_built_module_verifies_and_round_trips():
    b = XlaBuilder("verify")
    x = Parameter(b, 0, F32_3)
    comp = b.build(Tuple(b, [x * x, x]))
    assert isinstance(comp, XlaComputation) and comp.name == "verify"
    assert comp.module.operation.verify()
    comp.verify()  # our wrapper raises on failure
    again = hlo_mlir.compiler.as_module(comp.as_bytecode())
    assert again.operation.verify() and str(again) == comp.as_text()
    assert repr(comp) == "XlaComputation('verify', (p0: f32[3]) -> (f32[3], f32[3]))"


# --- operators -------------------------------------------------------------------------------------
def test_operator_overloads_emit_the_spec_ops_and_compute_xla_results():
    b = XlaBuilder("operators")
    x = Parameter(b, 0, Shape.parse("s32[4]"), "x")
    u = Parameter(b, 1, Shape.parse("u32[4]"), "u")
    f = Parameter(b, 2, Shape.parse("f32[4]"), "f")
    results = [x + 1, 1 - x, x * x, x / 2, x % 3, -x, x & 6, 6 | x, x ^ x, ~x, x << 1, x >> 1, u >> 1,
               x < 2, x <= 0, 2 > x, x >= 1, f ** 2.0, 2.0 / f, 3.0 * f - f]
    comp = b.build(Tuple(b, results))
    text = comp.as_text()
    for op in ("add", "subtract", "multiply", "divide", "remainder", "negate", "and", "or", "xor", "not",
               "shift_left", "shift_right_arithmetic", "shift_right_logical", "power"):
        assert f"stablehlo.{op} " in text, op
    for direction in ("LT", "LE", "GE"):
        assert f"stablehlo.compare {direction}," in text
    assert (x == x) is True and (x == u) is False  # == is identity, as in XLA's C++ API

    xs = np.array([-7, 0, 5, 2], np.int32)
    us = np.array([1, 2, 0x80000000, 7], np.uint32)
    fs = np.array([0.5, -2.0, 4.0, 1.0], np.float32)
    out = load(hlo_mlir.compile(comp)).main(xs, us, fs)
    expected = [xs + 1, 1 - xs, xs * xs, np.fix(xs / 2).astype(np.int32), np.fmod(xs, 3), -xs, xs & 6, 6 | xs,
                xs ^ xs, ~xs, xs << 1, xs >> 1, us >> 1, xs < 2, xs <= 0, 2 > xs, xs >= 1, fs ** 2, 2.0 / fs,
                3.0 * fs - fs]
    assert len(out) == len(expected)
    for i, (got, want) in enumerate(zip(out, expected, strict=True)):
        np.testing.assert_allclose(got, want, rtol=1e-6, err_msg=f"result {i}")
        assert got.dtype == np.asarray(want).dtype, i
