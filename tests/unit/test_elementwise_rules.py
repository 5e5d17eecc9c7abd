"""Shape and dtype rules of the element-wise family: errors name the op, the shapes and
the user's file:line; valid calls infer XLA's result shapes."""

from __future__ import annotations

import ast
import inspect
import os

import numpy as np
import pytest

from dialect_ops import elementwise
from hlo_mlir import (
    Add,
    BitcastConvertType,
    Ceil,
    Clamp,
    Compare,
    Complex,
    ConvertElementType,
    DTypeError,
    Eq,
    GtTotalOrder,
    InvalidArgumentError,
    Lt,
    Not,
    PopulationCount,
    PrimitiveType,
    Rem,
    Select,
    Shape,
    ShapeError,
    Sub,
    XlaBuilder,
)
from tests.builders import params


def _params(*shapes: str):
    return params(XlaBuilder("rules"), *shapes)


def test_add_mismatched_shapes_names_op_and_both_shapes():
    x, y = _params("f32[2,3]", "f32[3,2]")
    with pytest.raises(ShapeError, match=r"Add requires compatible operand shapes; got f32\[2,3\] and "
                                         r"f32\[3,2\] \(dimension 0: 2 vs 3\)"):
        Add(x, y)


def test_error_carries_the_callers_file_and_line():
    x, y = _params("f32[2,3]", "f32[3,2]")
    line = inspect.currentframe().f_lineno + 2
    with pytest.raises(ShapeError) as info:
        Sub(x, y)
    assert info.value.location == f"{__file__}:{line}"
    assert str(info.value).startswith(f"{__file__}:{line}: Sub requires")
    assert os.path.basename(__file__) in str(info.value)


def test_mixed_element_types():
    x, y = _params("f32[2]", "s32[2]")
    with pytest.raises(DTypeError, match=r"Add requires operands of the same element type; "
                                         r"got f32\[2\] and s32\[2\]"):
        Add(x, y)


def test_different_ranks_need_broadcast_dimensions():
    x, y = _params("f32[2,3]", "f32[3]")
    with pytest.raises(ShapeError, match=r"Add requires broadcast_dimensions for operands of different "
                                         r"rank; got f32\[2,3\] and f32\[3\]"):
        Add(x, y)


@pytest.mark.parametrize("dims, message", [
    ([0, 1], r"Add requires one broadcast dimension per dimension of the lower-rank operand f32\[3\]; "
             r"got \[0, 1\]"),
    ([2], r"Add requires broadcast_dimensions in \[0, 2\); got \[2\] for f32\[2,3\]"),
    ([0], r"Add requires compatible operand shapes; got f32\[2,3\] and f32\[3\] \(dimension 0: 2 vs 3\)"),
])
def test_bad_broadcast_dimensions(dims, message):
    x, y = _params("f32[2,3]", "f32[3]")
    with pytest.raises((ShapeError, InvalidArgumentError), match=message):
        Add(x, y, dims)


def test_broadcast_dimensions_must_increase():
    x, y = _params("f32[2,3,4]", "f32[4,2]")
    with pytest.raises(InvalidArgumentError, match=r"Add requires strictly increasing broadcast_dimensions; "
                                                   r"got \[2, 0\]"):
        Add(x, y, [2, 0])


def test_equal_rank_broadcast_dimensions_must_be_identity():
    x, y = _params("f32[2,3]", "f32[2,3]")
    with pytest.raises(InvalidArgumentError, match=r"Add requires broadcast_dimensions to be empty or the "
                                                   r"identity for operands of equal rank; got \[1, 0\]"):
        Add(x, y, [1, 0])


def test_ceil_on_integers():
    (x,) = _params("s32[4]")
    with pytest.raises(DTypeError,
                       match=r"Ceil requires an operand of floating-point type; got s32 \(s32\[4\]\)"):
        Ceil(x)


@pytest.mark.parametrize("op, shape, kind", [
    (Not, "f32[2]", "integer or PRED"), (PopulationCount, "pred[2]", "integer"),
    (elementwise.Cbrt, "c64[2]", "floating-point"), (elementwise.Sign, "u8[2]", "signed integer"),
])
def test_unary_dtype_classes(op, shape, kind):
    (x,) = _params(shape)
    with pytest.raises(DTypeError, match=rf"{op.__name__} requires an operand of {kind}"):
        op(x)


def test_rem_on_complex_and_sub_on_pred():
    c, p = _params("c64[2]", "pred[2]")
    with pytest.raises(DTypeError, match=r"Rem requires operands of integer or floating-point type; got c64"):
        Rem(c, c)
    with pytest.raises(DTypeError, match=r"Sub requires operands of numeric type; got pred"):
        Sub(p, p)


def test_complex_requires_f32_or_f64():
    x, y = _params("f16[2]", "f16[2]")
    with pytest.raises(DTypeError, match=r"Complex requires operands of F32 or F64 type; got f16"):
        Complex(x, y)


def test_select_needs_pred_predicate():
    p, t, f = _params("s32[3]", "f32[3]", "f32[3]")
    with pytest.raises(DTypeError, match=r"Select requires a PRED predicate; got s32\[3\]"):
        Select(p, t, f)


def test_select_branch_and_predicate_shapes():
    p, t, f, q = _params("pred[3]", "f32[3]", "f32[4]", "pred[2]")
    with pytest.raises(ShapeError, match=r"Select requires on_true and on_false of the same shape; "
                                         r"got f32\[3\] and f32\[4\]"):
        Select(p, t, f)
    with pytest.raises(ShapeError, match=r"Select requires a scalar predicate or one of the branches' "
                                         r"dimensions; got pred\[2\] for branches f32\[3\]"):
        Select(q, t, t)


def test_clamp_rules():
    lo, x, hi, c, s = _params("f32[2]", "f32[3]", "f32[]", "c64[]", "s32[]")
    with pytest.raises(ShapeError, match=r"Clamp requires min to be a scalar or of the operand's shape; "
                                         r"got f32\[2\] for operand f32\[3\]"):
        Clamp(lo, x, hi)
    with pytest.raises(DTypeError, match=r"Clamp requires min, operand and max of one element type"):
        Clamp(s, x, hi)
    with pytest.raises(DTypeError, match=r"Clamp requires a non-complex element type; got c64\[\]"):
        Clamp(c, c, c)


def test_compare_rules():
    x, y, c = _params("f32[2]", "f32[2]", "c64[2]")
    with pytest.raises(InvalidArgumentError, match=r"Compare requires a comparison direction in "
                                                   r"\['EQ', 'NE', 'GE', 'GT', 'LE', 'LT'\]; got 'XX'"):
        Compare(x, y, direction="xx")
    with pytest.raises(DTypeError, match=r"Lt requires EQ or NE for complex operands; got LT on c64\[2\]"):
        Lt(c, c)
    (i,) = _params("s32[2]")
    with pytest.raises(DTypeError, match=r"GtTotalOrder requires floating-point operands for a total order; "
                                         r"got s32\[2\]"):
        GtTotalOrder(i, i)


def test_convert_rules():
    (c,) = _params("c64[2]")
    with pytest.raises(DTypeError, match=r"ConvertElementType requires a complex target for complex operands "
                                         r"\(use Real/Imag\); got c64\[2\] to f32"):
        ConvertElementType(c, PrimitiveType.F32)


def test_bitcast_rules():
    f, p, v = _params("f32[3]", "pred[3]", "s8[3,3]")
    with pytest.raises(DTypeError, match=r"BitcastConvertType does not convert to or from PRED; "
                                         r"got pred\[3\] to s8"):
        BitcastConvertType(p, PrimitiveType.S8)
    with pytest.raises(ShapeError, match=r"BitcastConvertType from 8 to 32 bits requires a minor dimension "
                                         r"of size 4; got s8\[3,3\]"):
        BitcastConvertType(v, PrimitiveType.F32)
    assert BitcastConvertType(f, PrimitiveType.U16).shape == Shape.parse("u16[3,2]")


@pytest.mark.parametrize("lhs, rhs, dims, result", [
    ("f32[2,3]", "f32[3]", [1], "f32[2,3]"),
    ("f32[2]", "f32[2,3]", [0], "f32[2,3]"),
    ("f32[2,1]", "f32[1,3]", [], "f32[2,3]"),
    ("f32[]", "f32[0,3]", [], "f32[0,3]"),
    ("f32[0,1]", "f32[1,3]", [], "f32[0,3]"),
    ("f32[2,3,4]", "f32[2,4]", [0, 2], "f32[2,3,4]"),
])
def test_broadcast_results(lhs, rhs, dims, result):
    x, y = _params(lhs, rhs)
    assert Add(x, y, dims).shape == Shape.parse(result)
    assert Eq(x, y, dims).shape == Shape.parse(result).with_element_type(PrimitiveType.PRED)


def test_result_types_of_special_ops():
    c, f = _params("c128[2]", "f64[2]")
    assert elementwise.Abs(c).shape == Shape.parse("f64[2]")
    assert elementwise.Real(c).shape == Shape.parse("f64[2]")
    assert elementwise.IsFinite(f).shape == Shape.parse("pred[2]")
    assert Complex(f, f).shape == Shape.parse("c128[2]")


def test_python_scalars_take_the_operands_type():
    (x,) = _params("bf16[2]")
    assert (x * 2).shape == Shape.parse("bf16[2]")
    assert (1.5 - x).shape == Shape.parse("bf16[2]")
    (i,) = _params("u8[2]")
    assert (i >> 1).shape == Shape.parse("u8[2]")
    assert "shift_right_logical" in str((i >> np.uint8(1)).value.owner)


def _statically_bound(module) -> set[str]:
    """The names a type checker sees bound at module level in ``module``'s source."""
    names = set()
    for node in ast.parse(inspect.getsource(module)).body:
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, ast.ImportFrom):
            names.update(alias.asname or alias.name for alias in node.names)
        elif isinstance(node, ast.Assign):
            names.update(n.id for target in node.targets for n in ast.walk(target) if isinstance(n, ast.Name))
    return names


def test_every_op_is_a_static_definition_with_a_spec_docstring():
    """mypy, IDEs and help() see every op: each exported name is bound in the source (no
    ``globals()`` updates), every table row is exported, and each op documents its spec section."""
    assert set(elementwise.__all__) <= _statically_bound(elementwise)
    assert set(elementwise._UNARY) | set(elementwise._BINARY) <= set(elementwise.__all__)
    for name in elementwise.__all__:
        fn = getattr(elementwise, name)
        if name[0].isupper():
            assert fn.__name__ in (name, name.replace("Logical", "")), name
            assert "(spec: " in fn.__doc__, (name, fn.__doc__)
