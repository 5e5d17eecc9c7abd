"""End to end: Tuple and GetTupleElement, tuples as parameters and results.

A tuple result comes back from hlo_mlir.runtime as a flat tuple of its leaves
(nested tuples flattened depth first); a tuple parameter takes a (nested) Python tuple.
"""

import ml_dtypes
import numpy as np
import pytest

from hlo_mlir import (
    Add,
    GetTupleElement,
    InvalidArgumentError,
    Parameter,
    Rev,
    Shape,
    ShapeError,
    Tuple,
    XlaBuilder,
)
from tests.oracle import check

LEAVES = {"f32": np.array([1.5, -2.0, 3.25], np.float32), "s32": np.array([[1, -2], [3, 4]], np.int32),
          "pred": np.array([True, False, True]), "u8": np.array([0, 255, 7], np.uint8),
          "bf16": np.array([0.5, 256.0], ml_dtypes.bfloat16), "c64": np.array([1 + 2j, -3j], np.complex64),
          "f16": np.array(6.5, np.float16), "empty": np.zeros((0, 2), np.float32)}


def shape_of(x):
    return Shape.from_numpy(x)


def test_tuple_result_of_mixed_types():
    names = list(LEAVES)

    def fn(b):
        return Tuple(b, [Parameter(b, i, shape_of(LEAVES[n])) for i, n in enumerate(names)])

    b = XlaBuilder("mixed")
    comp = b.build(fn(b))
    assert str(comp.program_shape().result) == \
        "(f32[3], s32[2,2], pred[3], u8[3], bf16[2], c64[2], f16[], f32[0,2])"
    check(comp, [LEAVES[n] for n in names], tuple(LEAVES[n] for n in names), rtol=0, atol=0)


def test_nested_tuple_result_comes_back_flat():
    x, y, z = LEAVES["f32"], LEAVES["s32"], LEAVES["pred"]

    b = XlaBuilder("nested_result")
    px, py, pz = (Parameter(b, i, shape_of(v)) for i, v in enumerate((x, y, z)))
    inner = Tuple(b, [py, Tuple(b, [pz])])
    comp = b.build(Tuple(b, [px, inner, Tuple(b, []), px]))
    assert str(comp.program_shape().result) == "(f32[3], (s32[2,2], (pred[3])), (), f32[3])"
    check(comp, [x, y, z], (x, y, z, x), rtol=0, atol=0)


def test_tuple_parameters_and_get_tuple_element():
    """A nested tuple parameter taken apart with GetTupleElement, computed on, repacked."""
    x, n, p = LEAVES["f32"], np.array([10, 20], np.int32), LEAVES["pred"]
    shape = Shape.parse("(f32[3], (s32[2], pred[3]))")

    b = XlaBuilder("tuple_param")
    t = Parameter(b, 0, shape)
    s = Parameter(b, 1, Shape.parse("s32[2]"))
    inner = GetTupleElement(t, 1)
    assert str(inner.shape) == "(s32[2], pred[3])"
    total = Add(GetTupleElement(inner, 0), s)
    comp = b.build(Tuple(b, [Rev(GetTupleElement(t, 0), [0]), total, GetTupleElement(inner, 1)]))
    one_two = np.array([1, 2], np.int32)
    check(comp, [(x, (n, p)), one_two], (x[::-1], n + one_two, p), rtol=0, atol=0)


def test_tuple_parameter_passed_through():
    b = XlaBuilder("pass_through")
    comp = b.build(Parameter(b, 0, Shape.parse("(c64[2], (u8[3], bf16[2]))")))
    args = (LEAVES["c64"], (LEAVES["u8"], LEAVES["bf16"]))
    check(comp, [args], (LEAVES["c64"], LEAVES["u8"], LEAVES["bf16"]), rtol=0, atol=0)


def test_get_tuple_element_of_built_tuple():
    b = XlaBuilder("roundtrip")
    x, y = Parameter(b, 0, Shape.parse("f32[3]")), Parameter(b, 1, Shape.parse("s32[2,2]"))
    t = Tuple(b, [x, Tuple(b, [y, x])])
    comp = b.build(GetTupleElement(GetTupleElement(t, 1), 0))
    check(comp, [LEAVES["f32"], LEAVES["s32"]], LEAVES["s32"], rtol=0, atol=0)


def test_empty_tuple_result():
    b = XlaBuilder("empty_tuple")
    check(b.build(Tuple(b, [])), [], ())


# --- errors ------------------------------------------------------------------------------------
def test_get_tuple_element_errors():
    b = XlaBuilder("gte_errors")
    t = Parameter(b, 0, Shape.parse("(f32[10], s32[])"))
    x = Parameter(b, 1, Shape.parse("f32[3]"))
    with pytest.raises(InvalidArgumentError, match=r"GetTupleElement requires index in \[0, 2\); "
                                                   r"got 2 for tuple \(f32\[10\], s32\[\]\)") as info:
        GetTupleElement(t, 2)
    assert "test_tuple_ops.py:" in str(info.value)
    with pytest.raises(InvalidArgumentError, match=r"GetTupleElement requires index in \[0, 2\); got -1"):
        GetTupleElement(t, -1)
    with pytest.raises(InvalidArgumentError, match=r"GetTupleElement requires integer index; got \[1.0\]"):
        GetTupleElement(t, 1.0)
    with pytest.raises(ShapeError, match=r"GetTupleElement requires a tuple operand; got f32\[3\]"):
        GetTupleElement(x, 0)
    with pytest.raises(InvalidArgumentError,
                       match=r"GetTupleElement requires index in \[0, 0\); got 0 for tuple \(\)"):
        GetTupleElement(Tuple(b, []), 0)


def test_tuple_errors():
    b, other = XlaBuilder("a"), XlaBuilder("b")
    x, y = Parameter(b, 0, Shape.parse("f32[3]")), Parameter(other, 0, Shape.parse("f32[3]"))
    with pytest.raises(InvalidArgumentError,
                       match=r"Tuple requires operands from one XlaBuilder; got operands of 'a' and 'b'"):
        Tuple(b, [x, y])
    with pytest.raises(InvalidArgumentError,
                       match=r"Tuple requires elements of the builder it is given; "
                             r"got XlaBuilder\('b'\) and elements of XlaBuilder\('a'\)"):
        Tuple(other, [x])
    with pytest.raises(InvalidArgumentError, match=r"Tuple requires an XlaBuilder; got list"):
        Tuple([x], b)
    with pytest.raises(InvalidArgumentError,
                       match=r"Tuple requires XlaOp operands; got ndarray for operand 1"):
        Tuple(b, [x, np.zeros(3)])
