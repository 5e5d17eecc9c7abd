"""End to end: Cholesky and TriangularSolve against numpy/scipy and XLA CPU.

The pinned IREE rejects both ops, so hlo-mlir runs the module after ``cholesky-expander`` /
``triangular-solve-expander``; XLA runs both the original and the expanded module. The
triangle of ``a`` an op must not read is filled with garbage (NaN for TriangularSolve, and
the diagonal too with ``unit_diagonal``), so reading it would show. Only the triangle
Cholesky defines is compared (the other is implementation-defined). Every case of one
dtype is one module, to keep compiles few.
"""

import itertools

import numpy as np
import pytest
import scipy.linalg

import hlo_mlir
from hlo_mlir import (
    Cholesky,
    DTypeError,
    InvalidArgumentError,
    Parameter,
    Shape,
    ShapeError,
    TriangularSolve,
    TriangularSolveOptions,
    Tuple,
    XlaBuilder,
    compiler,
)
from pipelines import registry
from tests.builders import params
from tests.oracle import assert_close, run_iree, run_xla

Transpose = TriangularSolveOptions.Transpose
rng = np.random.default_rng(7)
DTYPES = [np.float32, np.float64, np.complex64, np.complex128]
TOLERANCE = {np.float32: 2e-5, np.complex64: 2e-5, np.float64: 1e-12, np.complex128: 1e-12}


def expanded(computation, name):
    module = compiler.as_module(computation)
    assert registry.get(name)().run(module)
    return module


def results(computation, module, args, dtype):
    """(who, results) of hlo-mlir on the expanded module and XLA on the original; for f32 also
    XLA on the expanded module (a check of the expansion itself, once per test)."""
    out = [("hlo-mlir", run_iree(module, *args)), ("XLA", run_xla(computation, *args))]
    if dtype == np.float32:
        out.append(("XLA on the expanded module", run_xla(module, *args)))
    return out


def random(shape, dtype):
    x = rng.normal(size=shape)
    if np.issubdtype(dtype, np.complexfloating):
        x = x + 1j * rng.normal(size=shape)
    return x.astype(dtype)


def hermitian_positive_definite(batch, n, dtype):
    m = random(batch + (n, n), dtype)
    return (m @ np.conj(np.swapaxes(m, -1, -2)) + n * np.eye(n)).astype(dtype)


# --- Cholesky ----------------------------------------------------------------------------------
@pytest.mark.parametrize("dtype", DTYPES, ids=lambda d: np.dtype(d).name)
def test_cholesky_batched_lower_and_upper(dtype):
    """Lower and upper factors of a batch (and of one unbatched matrix); the unread triangle
    holds garbage. Compared on the defined triangle with numpy's factor."""
    a = hermitian_positive_definite((2, 3), 5, dtype)
    single = hermitian_positive_definite((), 4, dtype)
    garbage_upper = a + np.triu(np.full((5, 5), 1e3, dtype), 1)
    garbage_lower = a + np.tril(np.full((5, 5), -1e3, dtype), -1)
    b = XlaBuilder("cholesky")
    p_low, p_up, p_single = params(b, garbage_upper, garbage_lower, single)
    comp = b.build(Tuple(b, [Cholesky(p_low, lower=True), Cholesky(p_up, lower=False),
                             Cholesky(p_single, lower=True)]))
    lower = np.linalg.cholesky(a)
    expected = (lower, np.conj(np.swapaxes(lower, -1, -2)), np.linalg.cholesky(single))
    triangles = (np.tril, np.triu, np.tril)
    module = expanded(comp, "cholesky-expander")
    args = (garbage_upper, garbage_lower, single)
    tol = TOLERANCE[dtype]
    for who, outs in results(comp, module, args, dtype):
        for i, (r, e, tri) in enumerate(zip(outs, expected, triangles, strict=True)):
            assert_close(tri(r), tri(e).astype(dtype), rtol=tol, atol=tol, what=f"{who} vs numpy [{i}]")


def test_cholesky_not_positive_definite_is_nan_per_matrix():
    """Implementation-defined by the spec; ours, like XLA CPU, is NaN for the whole failing
    matrix while the other matrices of the batch are factored normally."""
    good = hermitian_positive_definite((), 3, np.float32)
    a = np.stack([good, -good, np.diag([1.0, 0.0, 1.0]).astype(np.float32)])
    b = XlaBuilder("cholesky_npd")
    comp = b.build(Cholesky(params(b, a)[0]))
    module = expanded(comp, "cholesky-expander")
    for who, r in (("hlo-mlir", run_iree(module, a)), ("XLA", run_xla(comp, a))):
        assert_close(r[0], np.linalg.cholesky(good), 2e-5, 2e-5, f"{who}: positive definite matrix")
        assert np.isnan(r[1]).all() and np.isnan(r[2]).all(), f"{who}: {r[1:]}"


def test_cholesky_through_hlo_mlir_compile():
    a = hermitian_positive_definite((2,), 3, np.float32)
    b = XlaBuilder("cholesky_compile")
    comp = b.build(Cholesky(params(b, a)[0]))
    assert_close(np.tril(run_iree(comp, a)), np.linalg.cholesky(a), 2e-5, 2e-5, "compile")


@pytest.mark.parametrize("shape, lower, error, match", [
    ("f32[3]", True, ShapeError, r"Cholesky requires a of rank >= 2 \(a batch of matrices\); got f32\[3\]"),
    ("f32[2,3,4]", True, ShapeError,
     r"Cholesky requires the two minor dimensions of a to be equal .*f32\[2,3,4\]"),
    ("s32[3,3]", True, DTypeError,
     r"Cholesky requires a of a floating-point or complex type; got s32\[3,3\]"),
    ("f32[3,3]", 1, InvalidArgumentError, r"Cholesky requires a bool lower; got 1"),
])
def test_cholesky_errors(shape, lower, error, match):
    b = XlaBuilder("bad")
    with pytest.raises(error, match=match):
        Cholesky(Parameter(b, 0, Shape.parse(shape)), lower)


# --- TriangularSolve -------------------------------------------------------------------------
COMBINATIONS = list(itertools.product([True, False], [True, False], [True, False], list(Transpose)))


def solve_reference(a, b, left_side, lower, unit_diagonal, transpose_a):
    """scipy's solve_triangular per matrix; the right-side form through the transposed system."""
    trans = {Transpose.NO_TRANSPOSE: 0, Transpose.TRANSPOSE: 1, Transpose.ADJOINT: 2}[transpose_a]
    out = np.empty_like(b)
    for i in np.ndindex(a.shape[:-2]):
        if left_side:
            out[i] = scipy.linalg.solve_triangular(a[i], b[i], trans=trans, lower=lower,
                                                   unit_diagonal=unit_diagonal)
        else:
            # x op(a) = b  <=>  op(a)^T x^T = b^T; op(a)^T is a (TRANSPOSE), conj(a) (ADJOINT), a^T.
            a_i = np.conj(a[i]) if transpose_a is Transpose.ADJOINT else a[i]
            t = 1 if transpose_a is Transpose.NO_TRANSPOSE else 0
            out[i] = scipy.linalg.solve_triangular(a_i, b[i].T, trans=t, lower=lower,
                                                   unit_diagonal=unit_diagonal).T
    return out


def triangular_operand(shape, dtype, lower, unit_diagonal):
    """A well-conditioned triangular a with NaN in the triangle it must not read (and on the
    diagonal when it is a unit diagonal)."""
    n = shape[-1]
    a = random(shape, dtype) * 0.5 + 3 * np.eye(n, dtype=dtype)
    keep = np.tril(np.ones((n, n), bool), -1 if unit_diagonal else 0)
    keep = keep if lower else keep.T
    return np.where(keep, a, np.nan).astype(dtype)


# Every combination for f32 and c64 (where TRANSPOSE and ADJOINT differ); four for f64 and c128
# (IREE compiles each loop in about a second).
SOME = [(True, True, False, Transpose.NO_TRANSPOSE), (False, False, True, Transpose.ADJOINT),
        (True, False, False, Transpose.TRANSPOSE), (False, True, False, Transpose.ADJOINT)]


@pytest.mark.parametrize("dtype, combinations", [(np.float32, COMBINATIONS), (np.complex64, COMBINATIONS),
                                                 (np.float64, SOME), (np.complex128, SOME)],
                         ids=["float32-all", "complex64-all", "float64-some", "complex128-some"])
def test_triangular_solve_options(dtype, combinations):
    """2 sides x 2 triangles x 2 diagonals x 3 transposes, batched, in one module."""
    b = XlaBuilder("triangular_solve")
    args, outs, expected = [], [], []
    for left_side, lower, unit_diagonal, transpose_a in combinations:
        a = triangular_operand((2, 4, 4), dtype, lower, unit_diagonal)
        rhs = random((2, 4, 3) if left_side else (2, 3, 4), dtype)
        pa = Parameter(b, len(args), Shape.from_numpy(a))
        pb = Parameter(b, len(args) + 1, Shape.from_numpy(rhs))
        outs.append(TriangularSolve(pa, pb, left_side, lower, unit_diagonal, transpose_a))
        clean = np.nan_to_num(a, nan=0.0)
        expected.append(
            solve_reference(clean, rhs, left_side, lower, unit_diagonal, transpose_a).astype(dtype))
        args += [a, rhs]
    comp = b.build(Tuple(b, outs))
    module = expanded(comp, "triangular-solve-expander")
    tol = 10 * TOLERANCE[dtype]
    for who, outs in results(comp, module, args, dtype):
        for combination, r, e in zip(combinations, outs, expected, strict=True):
            assert_close(r, e, rtol=tol, atol=tol, what=f"{who} vs scipy, (left_side, lower, unit_diagonal, "
                                                          f"transpose_a) = {combination}")


def test_triangular_solve_unbatched_through_hlo_mlir_compile():
    a = triangular_operand((3, 3), np.float32, True, False)
    rhs = random((3, 2), np.float32)
    b = XlaBuilder("solve_compile")
    pa, pb = params(b, a, rhs)
    comp = b.build(TriangularSolve(pa, pb, True, True, False, Transpose.NO_TRANSPOSE))
    expected = scipy.linalg.solve_triangular(np.nan_to_num(a), rhs, lower=True).astype(np.float32)
    assert_close(run_iree(comp, a, rhs), expected, 1e-5, 1e-5, "compile")


@pytest.mark.parametrize("a, b, left_side, transpose_a, error, match", [
    ("f32[3,3]", "f32[2,3]", True, "NO_TRANSPOSE", ShapeError,
     r"TriangularSolve requires b's rows to match a's size 3 \(left_side=True\); got a f32\[3,3\] and "
     r"b f32\[2,3\]"),
    ("f32[3,3]", "f32[3,2]", False, "NO_TRANSPOSE", ShapeError,
     r"TriangularSolve requires b's columns to match"),
    ("f32[2,3,3]", "f32[4,3,2]", True, "NO_TRANSPOSE", ShapeError,
     r"TriangularSolve requires a and b with the same batch dimensions; got f32\[2,3,3\] and f32\[4,3,2\]"),
    ("f32[3,3]", "f64[3,2]", True, "NO_TRANSPOSE", DTypeError,
     r"TriangularSolve requires a and b of the same element type"),
    ("f32[3,2]", "f32[3,2]", True, "NO_TRANSPOSE", ShapeError,
     r"TriangularSolve requires the two minor dimensions of a to be equal"),
    ("f32[3,3]", "f32[3,2]", True, "CONJUGATE", InvalidArgumentError,
     r"TriangularSolve requires transpose_a in \['NO_TRANSPOSE', 'TRANSPOSE', 'ADJOINT'\]; got 'CONJUGATE'"),
])
def test_triangular_solve_errors(a, b, left_side, transpose_a, error, match):
    builder = XlaBuilder("bad")
    pa, pb = Parameter(builder, 0, Shape.parse(a)), Parameter(builder, 1, Shape.parse(b))
    with pytest.raises(error, match=match):
        TriangularSolve(pa, pb, left_side, True, False, transpose_a)


@pytest.mark.parametrize("op", ["Cholesky", "TriangularSolve"])
def test_ops_are_rejected_by_iree_without_the_expanders(op):
    """Why the expanders exist: the pinned IREE refuses both ops."""
    b = XlaBuilder("raw")
    pa, pb = Parameter(b, 0, Shape.parse("f32[3,3]")), Parameter(b, 1, Shape.parse("f32[3,2]"))
    comp = b.build(Cholesky(pa) if op == "Cholesky" else TriangularSolve(pa, pb, True, True, False))
    with pytest.raises(hlo_mlir.CompileError, match="failed to legalize operation"):
        hlo_mlir.compile(comp, passes="O0", legalize=False)
