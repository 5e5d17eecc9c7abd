"""Shape: XLA's printing, parsing, dynamic bounds, MLIR types and errors."""

from __future__ import annotations

import numpy as np
import pytest
from iree.compiler import ir

from hlo_mlir import context
from hlo_mlir.errors import DTypeError, InvalidArgumentError, ShapeError
from hlo_mlir.shape import ProgramShape, Shape
from hlo_mlir.types import PrimitiveType

# XLA text -> MLIR type text
CASES = [
    ("f32[2,3]", "tensor<2x3xf32>"),
    ("s32[]", "tensor<i32>"),
    ("pred[0]", "tensor<0xi1>"),
    ("u8[1,1,1]", "tensor<1x1x1xui8>"),
    ("c64[4]", "tensor<4xcomplex<f32>>"),
    ("token[]", "!stablehlo.token"),
    ("()", "tuple<>"),
    ("(f32[2], s32[])", "tuple<tensor<2xf32>, tensor<i32>>"),
    ("((f32[], token[]), u8[0])", "tuple<tuple<tensor<f32>, !stablehlo.token>, tensor<0xui8>>"),
    ("f32[<=4]", "tensor<?xf32, #stablehlo.bounds<4>>"),
    ("bf16[<=4,3,<=2]", "tensor<?x3x?xbf16, #stablehlo.bounds<4, ?, 2>>"),
]


@pytest.mark.parametrize("text,mlir", CASES)
def test_print_parse_and_mlir_round_trips(text, mlir):
    shape = Shape.parse(text)
    assert str(shape) == text and repr(shape) == f"Shape({text!r})"
    assert Shape.parse(str(shape)) == shape
    assert shape.mlir_type_text() == mlir
    with context.get_context():
        t = shape.to_mlir_type()
        assert str(t) == mlir
        assert Shape.from_mlir_type(t) == shape
        assert Shape.from_mlir_type(ir.Type.parse(mlir)) == shape


def test_constructors_match_parsing():
    assert Shape.array_shape(np.float32, [2, 3]) == Shape.parse("f32[2,3]")
    assert Shape.array_shape("s32", (4,)) == Shape.parse("s32[4]")
    assert Shape.scalar_shape(PrimitiveType.PRED) == Shape.parse("pred[]")
    assert Shape.tuple_shape([Shape.parse("f32[2]"), Shape.token_shape()]) == Shape.parse("(f32[2], token[])")
    assert Shape.from_numpy(np.zeros((3, 0), np.int16)) == Shape.parse("s16[3,0]")
    assert Shape.array_shape("f32", [4, 3], [True, False]) == Shape.parse("f32[<=4,3]")
    # Whitespace is allowed where XLA allows it.
    assert Shape.parse(" ( f32[2, 3] , s32[] ) ") == Shape.parse("(f32[2,3], s32[])")


def test_queries():
    t = Shape.parse("(f32[2], (s32[3,4], token[]))")
    assert t.is_tuple and not t.is_array and t.rank == 0 and t.element_count() == 0
    assert [str(s) for s in t.leaves()] == ["f32[2]", "s32[3,4]", "token[]"]
    a = Shape.parse("s32[3,4]")
    assert a.is_array and a.rank == 2 and a.element_count() == 12 and a.dtype == np.int32
    assert Shape.parse("f32[]").is_scalar and not Shape.parse("f32[1]").is_scalar
    assert Shape.parse("token[]").is_token
    assert a.with_element_type("f16") == Shape.parse("f16[3,4]")
    assert a.with_dimensions([12]) == Shape.parse("s32[12]")
    assert hash(Shape.parse("f32[2]")) == hash(Shape.array_shape("f32", [2]))


def test_bounded_dynamic_dimensions():
    bounded = Shape.parse("f32[<=4,3]")
    static = Shape.parse("f32[4,3]")
    assert bounded.is_dynamic and not static.is_dynamic
    assert bounded.dynamic_dimensions == (True, False) and bounded.dimensions == (4, 3)
    assert bounded != static and bounded.compatible(static) and static.compatible(bounded)
    assert not bounded.compatible(Shape.parse("f32[4,2]")) and not bounded.compatible(Shape.parse("s32[4,3]"))
    assert Shape.parse("(f32[<=2])").is_dynamic
    with context.get_context(), pytest.raises(ShapeError, match=r"unbounded dynamic dimension in "
                                                                r"tensor<\?x3xf32>; XLA shapes need a bound"):
        Shape.from_mlir_type(ir.Type.parse("tensor<?x3xf32>"))


@pytest.mark.parametrize("text,error,message", [
    ("", InvalidArgumentError, r"Shape.parse requires XLA shape text like 'f32\[2,3\]'; got ''"),
    ("f32", InvalidArgumentError, r"got 'f32' \(stopped at offset 0\)"),
    ("(f32[2]", InvalidArgumentError, r"got '\(f32\[2\]' \(stopped at offset 7\)"),
    ("(f32[2] s32[])", InvalidArgumentError, r"expected ',' or '\)'"),
    ("f32[2]{0}", InvalidArgumentError, r"trailing text in 'f32\[2\]\{0\}'"),
    ("float[2]", InvalidArgumentError, r"unknown element type 'float' in 'float\[2\]'"),
    ("f32[2,x]", InvalidArgumentError, r"bad dimension 'x' in 'f32\[2,x\]'"),
    ("f32[<=y]", InvalidArgumentError, r"bad dimension '<=y'"),
    ("f32[-1]", InvalidArgumentError, r"bad dimension '-1'"),
    ("tuple[]", DTypeError, r"Shape.array_shape requires an array element type; got TUPLE"),
])
def test_parse_errors(text, error, message):
    with pytest.raises(error, match=message):
        Shape.parse(text)


def test_construction_errors():
    with pytest.raises(ShapeError, match=r"Shape requires non-negative dimensions; got \[2, -1\]\."):
        Shape.array_shape("f32", [2, -1])
    with pytest.raises(ShapeError,
                       match=r"Shape requires one dynamic flag per dimension; got 2 for rank 1\."):
        Shape.array_shape("f32", [2], [True, False])
    with pytest.raises(DTypeError, match=r"Shape requires a PrimitiveType; got 'f32'\."):
        Shape("f32", (2,))
    with pytest.raises(InvalidArgumentError, match=r"Shape.tuple_shape requires Shapes; got 1\."):
        Shape.tuple_shape([1])
    with pytest.raises(DTypeError, match=r"Shape.array_shape requires an array element type; got TOKEN\."):
        Shape.array_shape(PrimitiveType.TOKEN, [])
    with pytest.raises(DTypeError, match=r"dtype dtype\('<U1'\) has no XLA primitive type"):
        Shape.from_numpy(np.array(["a"]))


def test_program_shape_prints_like_xla():
    ps = ProgramShape([Shape.parse("f32[2]"), Shape.parse("(s32[], pred[])")], Shape.parse("f32[]"),
                      ["x", "pair"])
    assert str(ps) == "(x: f32[2], pair: (s32[], pred[])) -> f32[]"
    assert str(ProgramShape([Shape.parse("f32[2]")], Shape.parse("s32[]"))) == "(p0: f32[2]) -> s32[]"
    assert str(ProgramShape([], Shape.parse("()"))) == "() -> ()"
