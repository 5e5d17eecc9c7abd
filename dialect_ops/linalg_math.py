"""Matrix factorization and solves: Cholesky and TriangularSolve (spec: Cholesky,
TriangularSolve), lowering to ``stablehlo.cholesky`` and ``stablehlo.triangular_solve``.

Both work on batches: every dimension but the two minor ones is a batch dimension. Both
read only one triangle of ``a`` (``lower`` picks it); Cholesky returns its factor in the
same triangle. The pinned IREE rejects both ops: ``cholesky-expander`` and
``triangular-solve-expander`` (pipelines/expanders) rewrite them into loops before IREE.
"""

from __future__ import annotations

import enum
from typing import ClassVar

from iree.compiler import ir

from hlo_mlir import _emit
from hlo_mlir.builder import XlaOp, builder_of
from hlo_mlir.errors import DTypeError, InvalidArgumentError, ShapeError
from hlo_mlir.shape import Shape

__all__ = ["Cholesky", "cholesky_rule", "cholesky",
           "TriangularSolve", "TriangularSolveOptions", "triangular_solve_rule", "triangular_solve"]


class _Transpose(enum.Enum):
    """How TriangularSolve uses ``a``: as is, transposed, or conjugate-transposed (ADJOINT)."""

    NO_TRANSPOSE = "NO_TRANSPOSE"
    TRANSPOSE = "TRANSPOSE"
    ADJOINT = "ADJOINT"


class TriangularSolveOptions:
    """XLA's TriangularSolveOptions; its ``Transpose`` enum is TriangularSolve's ``transpose_a``
    (``TriangularSolveOptions.Transpose.ADJOINT``). Kept inside this class so that it does not
    shadow the Transpose op in ``hlo_mlir``."""

    Transpose: ClassVar = _Transpose


def _transpose_option(value) -> _Transpose:
    if isinstance(value, _Transpose):
        return value
    if isinstance(value, str) and value.upper() in _Transpose.__members__:
        return _Transpose[value.upper()]
    raise InvalidArgumentError(f"TriangularSolve requires transpose_a in {list(_Transpose.__members__)}; "
                               f"got {value!r}.")


def _bool(op_name: str, what: str, value) -> bool:
    if not isinstance(value, bool):
        raise InvalidArgumentError(f"{op_name} requires a bool {what}; got {value!r}.")
    return value


def _matrices(op_name: str, what: str, shape: Shape) -> None:
    """``shape`` is a batch of matrices of a floating-point or complex type."""
    if not shape.is_array or shape.rank < 2:
        raise ShapeError(f"{op_name} requires {what} of rank >= 2 (a batch of matrices); got {shape}.")
    if not (shape.element_type.is_floating_point or shape.element_type.is_complex):
        raise DTypeError(f"{op_name} requires {what} of a floating-point or complex type; got {shape}.")


def _square(op_name: str, shape: Shape) -> None:
    _matrices(op_name, "a", shape)
    if shape.dimensions[-1] != shape.dimensions[-2]:
        raise ShapeError(f"{op_name} requires the two minor dimensions of a to be equal (square "
                         f"matrices); got {shape}.")


# --- Cholesky ------------------------------------------------------------------------------
def Cholesky(a: XlaOp, lower: bool = True) -> XlaOp:
    """The Cholesky factor of each Hermitian positive definite matrix of ``a``: lower ``l``
    with ``a = l . l^H`` (``lower``) or upper ``u`` with ``a = u^H . u``. Only that triangle of
    ``a`` is read; the result for other inputs is implementation-defined (spec: Cholesky)."""
    b = builder_of("Cholesky", a)
    return b.emit("Cholesky", lambda: cholesky(a.value, lower))


def cholesky_rule(a: Shape, lower: bool = True) -> Shape:
    _bool("Cholesky", "lower", lower)
    _square("Cholesky", a)
    return a


def cholesky(a: ir.Value, lower: bool = True) -> ir.Value:
    """Emits ``stablehlo.cholesky``."""
    result = cholesky_rule(_emit.shape_of(a), lower)
    return _emit.create("stablehlo.cholesky", [a], [_emit.type_of(result)],
                        {"lower": _emit.i1_attr(lower)}).result


# --- TriangularSolve -----------------------------------------------------------------------
def TriangularSolve(a: XlaOp, b: XlaOp, left_side: bool, lower: bool, unit_diagonal: bool,
                    transpose_a=_Transpose.NO_TRANSPOSE) -> XlaOp:
    """Solves ``op(a) . x = b`` (``left_side``) or ``x . op(a) = b`` for ``x``, ``a`` triangular
    (only its ``lower`` or upper triangle is read; with ``unit_diagonal`` its diagonal is taken
    as ones and not read), ``op`` per ``transpose_a`` (spec: TriangularSolve)."""
    builder = builder_of("TriangularSolve", a, b)
    return builder.emit("TriangularSolve", lambda: triangular_solve(
        a.value, b.value, left_side, lower, unit_diagonal, transpose_a))


def triangular_solve_rule(a: Shape, b: Shape, left_side: bool, lower: bool, unit_diagonal: bool,
                          transpose_a=_Transpose.NO_TRANSPOSE) -> Shape:
    """The result shape of TriangularSolve: ``b``'s (XLA's InferTriangularSolveShape)."""
    for what, value in (("left_side", left_side), ("lower", lower), ("unit_diagonal", unit_diagonal)):
        _bool("TriangularSolve", what, value)
    _transpose_option(transpose_a)
    _square("TriangularSolve", a)
    _matrices("TriangularSolve", "b", b)
    if a.element_type != b.element_type:
        raise DTypeError(f"TriangularSolve requires a and b of the same element type; got {a} and {b}.")
    if a.rank != b.rank or a.dimensions[:-2] != b.dimensions[:-2]:
        raise ShapeError(f"TriangularSolve requires a and b with the same batch dimensions; got {a} and {b}.")
    shared, where = (b.dimensions[-2], "rows") if left_side else (b.dimensions[-1], "columns")
    if shared != a.dimensions[-1]:
        raise ShapeError(f"TriangularSolve requires b's {where} to match a's size {a.dimensions[-1]} "
                         f"(left_side={left_side}); got a {a} and b {b}.")
    return b


def triangular_solve(a: ir.Value, b: ir.Value, left_side: bool, lower: bool, unit_diagonal: bool,
                     transpose_a=_Transpose.NO_TRANSPOSE) -> ir.Value:
    """Emits ``stablehlo.triangular_solve``."""
    result = triangular_solve_rule(_emit.shape_of(a), _emit.shape_of(b), left_side, lower, unit_diagonal,
                                   transpose_a)
    attrs = {"left_side": _emit.i1_attr(left_side), "lower": _emit.i1_attr(lower),
             "unit_diagonal": _emit.i1_attr(unit_diagonal),
             "transpose_a": _emit.parse_attr(f"#stablehlo<transpose {_transpose_option(transpose_a).value}>")}
    return _emit.create("stablehlo.triangular_solve", [a, b], [_emit.type_of(result)], attrs).result
