"""End to end: Call, including nested calls, reuse of one callee and tuple-shaped
callees, against numpy and XLA CPU; errors are checked for their message."""

import gc
import re

import numpy as np
import pytest

from hlo_mlir import (
    Add,
    Call,
    ConstantR0,
    GetTupleElement,
    InvalidArgumentError,
    Mul,
    Parameter,
    Reduce,
    Shape,
    ShapeError,
    Tuple,
    XlaBuilder,
)
from tests.builders import computation
from tests.oracle import check


def private_functions(comp):
    return re.findall(r"func\.func private @(\w+)", str(comp))


@pytest.mark.parametrize("name,dtype", [("f32", np.float32), ("s32", np.int32), ("f64", np.float64)])
def test_call_reuses_one_function(name, dtype):
    """Two calls of one computation share one private function."""
    shapes = [f"{name}[]", f"{name}[4]", f"{name}[4]"]
    axpy = computation("axpy", shapes, lambda b, a, x, y: Add(Mul(x, a), y))
    b = XlaBuilder(f"main_{name}")
    a, x, y = (Parameter(b, i, Shape.parse(s)) for i, s in enumerate(shapes))
    comp = b.build(Call(b, axpy, [a, Call(b, axpy, [a, x, y]), x]))
    assert private_functions(comp) == ["axpy"]
    av, xv, yv = dtype(3), np.arange(4).astype(dtype), np.array([1, -2, 5, 7], dtype)
    check(comp, [av, xv, yv], (av * xv + yv) * av + xv)


def test_nested_calls():
    """A callee that calls another computation, called itself alongside that computation."""
    square = computation("square", ["f32[3]"], lambda b, p: p * p)
    sumsq = computation("sumsq", ["f32[3]", "f32[3]"],
                        lambda b, u, v: Call(b, square, [u]) + Call(b, square, [v]))
    twice = computation("twice", ["f32[3]"], lambda b, p: Call(b, sumsq, [p, p]))
    b = XlaBuilder("nested")
    x = Parameter(b, 0, Shape.parse("f32[3]"))
    y = Call(b, sumsq, [x, x + 1.0])
    comp = b.build(Call(b, sumsq, [Call(b, square, [y]), Call(b, twice, [x])]))
    sq = lambda v: v * v
    ss = lambda u, v: sq(u) + sq(v)
    xv = np.array([1, -2, 0.5], np.float32)
    check(comp, [xv], ss(sq(ss(xv, xv + 1)), ss(xv, xv)))


def test_call_without_operands_and_with_tuples():
    """A parameterless callee; a callee taking and returning a tuple."""
    seven = computation("seven", [], lambda b: ConstantR0(b, np.int32(7)))
    swap = computation("swap", ["(s32[2], f32[])"], lambda b, t: Tuple(b, [GetTupleElement(t, 1),
                                                                            GetTupleElement(t, 0)]))
    b = XlaBuilder("tuples")
    v, s = Parameter(b, 0, Shape.parse("s32[2]")), Parameter(b, 1, Shape.parse("f32[]"))
    swapped = Call(b, swap, [Tuple(b, [v + Call(b, seven), s])])
    assert str(swapped.shape) == "(f32[], s32[2])"
    comp = b.build(swapped)
    check(comp, [np.array([1, 2], np.int32), np.float32(0.5)], (np.float32(0.5), np.array([8, 9], np.int32)))


def add_k(k):
    b = XlaBuilder("add_k")
    return b.build(Parameter(b, 0, Shape.parse("f32[]")) + float(k))


def test_call_of_temporary_computations():
    """Computations built and dropped in a loop are each called, never confused (CPython
    reuses a freed object's id for the next one)."""
    b = XlaBuilder("loop")
    x = Parameter(b, 0, Shape.parse("f32[]"))
    for k in range(4):
        x = Call(b, add_k(k), [x])
        gc.collect()
    comp = b.build(x)
    assert len(private_functions(comp)) == 4
    check(comp, [np.float32(1)], np.float32(1 + 0 + 1 + 2 + 3))


def test_nested_calls_with_clashing_names():
    f0 = computation("f", ["f32[]"], lambda b, p: p + 1.0)
    f1 = computation("f", ["f32[]"], lambda b, p: p * 10.0)
    g = computation("g", ["f32[]"], lambda b, p: Call(b, f1, [Call(b, f0, [p])]))
    b = XlaBuilder("clash")
    x = Parameter(b, 0, Shape.parse("f32[]"))
    comp = b.build(Call(b, g, [Call(b, f0, [x])]))
    check(comp, [np.float32(1)], np.float32(((1 + 1) + 1) * 10))


def test_call_inside_a_reducer():
    """A reducer that calls a computation: the callee comes along into the caller's module."""
    add = computation("add", ["f32[]", "f32[]"], lambda b, u, v: u + v)
    reducer = computation("via_call", ["f32[]", "f32[]"], lambda b, u, v: Call(b, add, [u, v]))
    b = XlaBuilder("reduce_call")
    x = Parameter(b, 0, Shape.parse("f32[2,5]"))
    comp = b.build(Reduce(x, ConstantR0(b, 0.0), reducer, [1]))
    xv = np.arange(10, dtype=np.float32).reshape(2, 5)
    check(comp, [xv], xv.sum(1))


# --- errors ------------------------------------------------------------------------------------
def test_call_errors():
    add = computation("add", ["f32[2]", "f32[2]"], lambda b, u, v: u + v)
    b = XlaBuilder("errors")
    x, i, m = (Parameter(b, n, Shape.parse(s)) for n, s in enumerate(["f32[2]", "s32[2]", "f32[3]"]))
    with pytest.raises(InvalidArgumentError,
                       match=r"Call requires 2 operand\(s\) for computation 'add' "
                             r"\(p0: f32\[2\], p1: f32\[2\]\) -> f32\[2\]; got 1: f32\[2\]") as e:
        Call(b, add, [x])
    assert "test_call.py" in str(e.value)
    with pytest.raises(ShapeError, match=r"Call requires operand 1 of shape f32\[2\] for computation 'add' "
                                         r".*; got s32\[2\]"):
        Call(b, add, [x, i])
    with pytest.raises(ShapeError, match=r"Call requires operand 0 of shape f32\[2\] .*; got f32\[3\]"):
        Call(b, add, [m, x])
    with pytest.raises(InvalidArgumentError, match=r"Call requires an XlaComputation; got function"):
        Call(b, lambda u, v: u + v, [x, x])
    with pytest.raises(InvalidArgumentError, match=r"Call requires an XlaBuilder; got XlaComputation"):
        Call(add, add, [x, x])
    other = XlaBuilder("other")
    with pytest.raises(InvalidArgumentError, match=r"Call requires operands of the builder it is given "
                                                   r"\('other'\); got operands of 'errors'"):
        Call(other, add, [x, x])
