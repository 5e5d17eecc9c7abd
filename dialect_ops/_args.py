"""Argument checks shared by every op family: integers, dimension lists, array shapes,
and the two-form dispatch some XLA ops use (``Reduce(operand, ...)`` or
``Reduce(builder, operands, ...)``). Each raises our errors in the project's grammar."""

from __future__ import annotations

import inspect
import operator
from typing import Callable, Sequence

from hlo_mlir.errors import InvalidArgumentError, ShapeError
from hlo_mlir.shape import Shape

__all__ = ["require_array", "require_static", "int_list", "int_arg", "dimension_list", "permutation_list",
           "size_list", "same_dimensions", "bind_form"]


def require_array(op_name: str, shape: Shape, what: str = "operand") -> None:
    if not shape.is_array:
        raise ShapeError(f"{op_name} requires an array {what}; got {shape}.")


def require_static(op_name: str, shape: Shape, what: str = "operand") -> None:
    require_array(op_name, shape, what)
    if shape.is_dynamic:
        raise ShapeError(f"{op_name} requires a static {what} shape; got {shape}.")


def int_list(op_name: str, what: str, values) -> list[int]:
    """``values`` as a list of Python ints; raises for non-integers (floats, bools, None)."""
    try:
        items = list(values)
    except TypeError:
        raise InvalidArgumentError(f"{op_name} requires a sequence of integers for {what}; "
                                   f"got {values!r}.") from None
    try:
        if any(isinstance(v, bool) for v in items):
            raise TypeError
        return [operator.index(v) for v in items]
    except TypeError:
        raise InvalidArgumentError(f"{op_name} requires integer {what}; got {items!r}.") from None


def int_arg(op_name: str, what: str, value) -> int:
    return int_list(op_name, what, [value])[0]


def dimension_list(op_name: str, what: str, dims, shape: Shape) -> list[int]:
    """Distinct dimension numbers of ``shape``, each in [0, rank)."""
    dims = int_list(op_name, what, dims)
    for d in dims:
        if not 0 <= d < shape.rank:
            raise InvalidArgumentError(
                f"{op_name} requires {what} in [0, {shape.rank}); got {dims} for operand {shape}.")
    if len(set(dims)) != len(dims):
        raise InvalidArgumentError(f"{op_name} requires distinct {what}; got {dims}.")
    return dims


def permutation_list(op_name: str, what: str, perm, shape: Shape) -> list[int]:
    """A permutation of all of ``shape``'s dimensions."""
    perm = int_list(op_name, what, perm)
    if sorted(perm) != list(range(shape.rank)):
        raise InvalidArgumentError(
            f"{op_name} requires {what} to be a permutation of [0, {shape.rank}); "
            f"got {perm} for operand {shape}.")
    return perm


def size_list(op_name: str, what: str, values) -> list[int]:
    """Non-negative integers (dimension sizes)."""
    values = int_list(op_name, what, values)
    if any(s < 0 for s in values):
        raise InvalidArgumentError(f"{op_name} requires non-negative {what}; got {values}.")
    return values




def same_dimensions(op_name: str, operands: Sequence[Shape]) -> None:
    """Every operand an array, all of one set of dimensions (element types may differ)."""
    for i, s in enumerate(operands):
        if not s.is_array:
            raise ShapeError(f"{op_name} requires array operands; got {s} for operand {i}.")
        if s.dimensions != operands[0].dimensions:
            raise ShapeError(f"{op_name} requires operands of the same dimensions; got "
                             f"{', '.join(str(x) for x in operands)}.")


def bind_form(op_name: str, form: Callable, args: tuple, kwargs: dict, usage: str):
    """Calls ``form(*args, **kwargs)`` after checking the arguments fit its signature;
    a mismatch raises ``<op_name> requires <usage>; got <what was wrong>.``"""
    try:
        bound = inspect.signature(form).bind(*args, **kwargs)
    except TypeError as e:
        raise InvalidArgumentError(f"{op_name} requires {usage}; got {e}.") from None
    return form(*bound.args, **bound.kwargs)
