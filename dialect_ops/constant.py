"""Parameters aside, the leaves of a computation: constants (spec: ConstantLiteral).

Python scalars follow XLA's C++ ``ConstantR0``: ``bool`` -> PRED, ``int`` -> S32,
``float`` -> F32, ``complex`` -> C64; numpy arrays and scalars keep their dtype.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from iree.compiler import ir

from hlo_mlir import _emit
from hlo_mlir import types as _types
from hlo_mlir.builder import XlaBuilder, XlaOp
from hlo_mlir.errors import DTypeError, InvalidArgumentError
from hlo_mlir.shape import Shape

__all__ = ["Constant", "ConstantLiteral", "ConstantFromArray", "ConstantR0", "ConstantR1",
           "ConstantR2", "ScalarLike", "Zero", "One", "Full", "constant_rule", "constant"]

_PYTHON_SCALARS = {bool: np.bool_, int: np.int32, float: np.float32, complex: np.complex64}


def Constant(builder: XlaBuilder, value: Any, dtype=None) -> XlaOp:
    """A constant array from a numpy array, a nested list or a scalar."""
    if not isinstance(builder, XlaBuilder):
        raise InvalidArgumentError(f"Constant requires an XlaBuilder; got {type(builder).__name__}.")
    array = constant_rule(value, dtype)
    return builder.emit("Constant", lambda: constant(array))


ConstantLiteral = ConstantFromArray = Constant


def ConstantR0(builder: XlaBuilder, value, dtype=None) -> XlaOp:
    """A scalar constant."""
    if np.ndim(value) != 0:
        raise InvalidArgumentError(f"ConstantR0 requires a scalar; got an array of shape {np.shape(value)}.")
    return Constant(builder, value, dtype)


def ConstantR1(builder: XlaBuilder, values, dtype=None) -> XlaOp:
    """A rank-1 constant."""
    if np.ndim(values) != 1:
        raise InvalidArgumentError(f"ConstantR1 requires a rank-1 value; got rank {np.ndim(values)}.")
    return Constant(builder, values, dtype)


def ConstantR2(builder: XlaBuilder, values, dtype=None) -> XlaOp:
    """A rank-2 constant."""
    if np.ndim(values) != 2:
        raise InvalidArgumentError(f"ConstantR2 requires a rank-2 value; got rank {np.ndim(values)}.")
    return Constant(builder, values, dtype)


def ScalarLike(prototype: XlaOp, value) -> XlaOp:
    """A scalar constant of ``prototype``'s element type."""
    return Constant(prototype.builder, value, prototype.shape.element_type)


def Zero(builder: XlaBuilder, element_type) -> XlaOp:
    """The scalar 0 of ``element_type`` (XLA's ``Zero``)."""
    return Constant(builder, 0, element_type)


def One(builder: XlaBuilder, element_type) -> XlaOp:
    """The scalar 1 of ``element_type`` (XLA's ``One``)."""
    return Constant(builder, 1, element_type)


def Full(builder: XlaBuilder, value, shape: Shape) -> XlaOp:
    """A constant array of ``shape`` filled with ``value``."""
    return Constant(builder, np.full(shape.dimensions, value, dtype=shape.dtype))


def constant_rule(value: Any, dtype=None) -> np.ndarray:
    """The numpy array a constant holds: ``value`` converted to ``dtype`` if given."""
    if dtype is not None:
        np_dtype = _types.dtype_of(_types.from_dtype(dtype))
    elif type(value) in _PYTHON_SCALARS:
        np_dtype = np.dtype(_PYTHON_SCALARS[type(value)])
    else:
        np_dtype = None
    try:
        array = np.asarray(value, dtype=np_dtype)
    except (TypeError, ValueError) as e:
        raise InvalidArgumentError(f"Constant requires an array-like value; got {value!r} ({e}).") from None
    try:
        _types.from_dtype(array.dtype)  # bfloat16 and the other ml_dtypes included
    except DTypeError:
        raise DTypeError(f"Constant requires a numeric or boolean value of an XLA type; "
                         f"got dtype {array.dtype}.") from None
    return array


def constant(array: np.ndarray) -> ir.Value:
    """``stablehlo.constant`` of ``array``."""
    return _emit.constant(array, Shape.from_numpy(array))
