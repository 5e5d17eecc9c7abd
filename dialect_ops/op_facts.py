"""Algebraic facts about StableHLO element-wise ops, as data (STYLE.md point 8).

One row per op: its builder (spec) name, whether it is commutative, associative
or idempotent, its identity and absorbing elements per element-type class, and a
numpy function that computes it with XLA's semantics (used by constant folding).
Generic patterns in ``pipelines.simplifiers`` read this table; a new op is a new row.

Every fact here is *exact*, bit for bit, for the element-type classes it names:

- ``x + (-0.0) == x`` for every float ``x`` (``+0.0`` is not an identity: ``-0.0 + +0.0``
  is ``+0.0``), so ``add``'s float identity is ``-0.0``;
- ``x - (+0.0) == x``, so ``subtract``'s float right identity is ``+0.0``;
- ``x * 0`` is not ``0`` for floats (``inf * 0`` is NaN, ``-1 * 0`` is ``-0``): multiply has
  an absorbing element only for integers and PRED;
- ``max(x, -inf) == x`` holds for NaN too (max propagates NaN), but ``+inf`` does not absorb
  (``max(NaN, +inf)`` is NaN), so float max has an identity and no absorbing element.

Associativity is recorded as the mathematical fact; reassociating is exact only for
integer and PRED types, and passes must check that themselves.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Callable

import numpy as np

__all__ = [
    "OpFacts",
    "FACTS",
    "facts_of",
    "type_class",
    "identity_of",
    "absorbing_of",
    "fold_binary",
    "fold_unary",
    "UNARY_FOLDS",
    "INVOLUTIONS",
    "ELEMENTWISE_OPS",
]

# Element-type classes the per-class facts are keyed by.
PRED, INT, FLOAT, COMPLEX = "pred", "int", "float", "complex"


def type_class(dtype: np.dtype) -> str:
    """``"pred"``, ``"int"``, ``"float"`` or ``"complex"`` for a numpy (or ml_dtypes) dtype."""
    return _type_class(np.dtype(dtype))


@functools.lru_cache(maxsize=None)  # a few dozen dtypes, asked for at every op a pass visits
def _type_class(dtype: np.dtype) -> str:
    if dtype == np.bool_:
        return PRED
    if dtype.kind in "iu" or dtype.name in ("int2", "int4", "uint2", "uint4"):
        return INT
    if dtype.kind == "c":
        return COMPLEX
    return FLOAT


# Special per-dtype values, computed when a fact is read.
def _all_ones(dtype):
    return np.array(-1).astype(dtype) if np.dtype(dtype).kind in "iu" else np.array(True)


def _int_min(dtype):
    return np.iinfo(dtype).min


def _int_max(dtype):
    return np.iinfo(dtype).max


Value = object  # a number, or a callable dtype -> number


@dataclass(frozen=True)
class OpFacts:
    """Algebraic facts of one binary element-wise op.

    ``types`` are the element-type classes the op is defined on.
    ``identity[cls]`` is a right identity e (``op(x, e) == x`` for all x of that class);
    for commutative ops it is also a left identity. ``absorbing[cls]`` is z with
    ``op(x, z) == z`` for all x. Values may be callables of the numpy dtype.
    """

    op: str
    builder_name: str
    types: tuple[str, ...] = (PRED, INT, FLOAT, COMPLEX)  # element-type classes the op accepts
    commutative: bool = False
    associative: bool = False
    idempotent: bool = False
    identity: dict | None = None
    absorbing: dict | None = None
    fold: Callable | None = None


# --- XLA-semantics numpy folds ----------------------------------------------------------
def _int_divide(x, y):
    """XLA integer division: rounds toward zero; x / 0 is -1 (all ones); INT_MIN / -1 is INT_MIN."""
    dtype = x.dtype
    safe_y = np.where(y == 0, 1, y).astype(dtype)
    overflow = np.zeros(x.shape, bool)
    if dtype.kind == "i":
        overflow = (x == np.iinfo(dtype).min) & (y == -1)
        safe_y = np.where(overflow, 1, safe_y).astype(dtype)
    # x - fmod(x, y) is an exact multiple of y, so floor division is exact (no rounding).
    q = ((x - np.fmod(x, safe_y)) // safe_y).astype(dtype)
    q = np.where(overflow, x, q)
    return np.where(y == 0, np.array(-1).astype(dtype), q).astype(dtype)


def _int_remainder(x, y):
    """XLA integer remainder: the sign of the dividend; x % 0 is x; INT_MIN % -1 is 0."""
    dtype = x.dtype
    safe_y = np.where(y == 0, 1, y)
    if dtype.kind == "i":
        safe_y = np.where((x == np.iinfo(dtype).min) & (y == -1), 1, safe_y)
    r = np.fmod(x, safe_y).astype(dtype)
    return np.where(y == 0, x, r).astype(dtype)


def _divide(x, y):
    return _int_divide(x, y) if type_class(x.dtype) == INT else np.divide(x, y).astype(x.dtype)


def _remainder(x, y):
    return _int_remainder(x, y) if type_class(x.dtype) == INT else np.fmod(x, y).astype(x.dtype)


def _shift(kind: str):
    """XLA shifts: a shift amount >= the bit width (or negative, read unsigned) gives 0,
    or the sign fill for an arithmetic right shift."""

    def fold(x, y):
        bits = x.dtype.itemsize * 8
        unsigned_dtype = np.dtype(f"u{x.dtype.itemsize}")
        amount = y.astype(unsigned_dtype)
        too_big = amount >= bits
        amount = np.where(too_big, 0, amount).astype(unsigned_dtype)
        if kind == "left":
            r = (x.astype(unsigned_dtype) << amount).astype(x.dtype)
            return np.where(too_big, 0, r).astype(x.dtype)
        if kind == "logical":
            r = (x.astype(unsigned_dtype) >> amount).astype(x.dtype)
            return np.where(too_big, 0, r).astype(x.dtype)
        signed = x.astype(np.dtype(f"i{x.dtype.itemsize}"))
        r = (signed >> amount.astype(signed.dtype)).astype(x.dtype)
        fill = np.where(signed < 0, -1, 0).astype(signed.dtype).astype(x.dtype)
        return np.where(too_big, fill, r).astype(x.dtype)

    return fold


def _logical(np_fn):
    return lambda x, y: np_fn(x, y).astype(x.dtype)


def _same_dtype(np_fn):
    return lambda x, y: np.asarray(np_fn(x, y)).astype(x.dtype)


# --- the table ---------------------------------------------------------------------------
_NUMERIC = (INT, FLOAT, COMPLEX)
_ROWS = [
    OpFacts(
        "stablehlo.add",
        "Add",
        commutative=True,
        associative=True,
        identity={PRED: False, INT: 0, FLOAT: -0.0, COMPLEX: complex(-0.0, -0.0)},
        absorbing={PRED: True},  # add on PRED is logical OR
        fold=lambda x, y: (np.logical_or(x, y) if x.dtype == np.bool_ else np.add(x, y)).astype(x.dtype),
    ),
    OpFacts(
        "stablehlo.subtract",
        "Sub",
        types=_NUMERIC,
        identity={INT: 0, FLOAT: 0.0, COMPLEX: complex(0.0, 0.0)},
        fold=_same_dtype(np.subtract),
    ),
    OpFacts(
        "stablehlo.multiply",
        "Mul",
        commutative=True,
        associative=True,
        identity={PRED: True, INT: 1, FLOAT: 1.0, COMPLEX: complex(1.0, 0.0)},
        absorbing={PRED: False, INT: 0},
        fold=lambda x, y: (np.logical_and(x, y) if x.dtype == np.bool_ else np.multiply(x, y)).astype(
            x.dtype
        ),
    ),
    OpFacts("stablehlo.divide", "Div", types=_NUMERIC, identity={INT: 1, FLOAT: 1.0}, fold=_divide),
    OpFacts("stablehlo.remainder", "Rem", types=(INT, FLOAT), fold=_remainder),
    OpFacts(
        "stablehlo.maximum",
        "Max",
        types=(PRED, INT, FLOAT),
        commutative=True,
        associative=True,
        idempotent=True,
        identity={PRED: False, INT: _int_min, FLOAT: -np.inf},
        absorbing={PRED: True, INT: _int_max},
        fold=_same_dtype(np.maximum),
    ),
    OpFacts(
        "stablehlo.minimum",
        "Min",
        types=(PRED, INT, FLOAT),
        commutative=True,
        associative=True,
        idempotent=True,
        identity={PRED: True, INT: _int_max, FLOAT: np.inf},
        absorbing={PRED: False, INT: _int_min},
        fold=_same_dtype(np.minimum),
    ),
    OpFacts(
        "stablehlo.and",
        "And",
        types=(PRED, INT),
        commutative=True,
        associative=True,
        idempotent=True,
        identity={PRED: True, INT: _all_ones},
        absorbing={PRED: False, INT: 0},
        fold=_logical(np.bitwise_and),
    ),
    OpFacts(
        "stablehlo.or",
        "Or",
        types=(PRED, INT),
        commutative=True,
        associative=True,
        idempotent=True,
        identity={PRED: False, INT: 0},
        absorbing={PRED: True, INT: _all_ones},
        fold=_logical(np.bitwise_or),
    ),
    OpFacts(
        "stablehlo.xor",
        "Xor",
        types=(PRED, INT),
        commutative=True,
        associative=True,
        identity={PRED: False, INT: 0},
        fold=_logical(np.bitwise_xor),
    ),
    OpFacts("stablehlo.shift_left", "ShiftLeft", types=(INT,), identity={INT: 0}, fold=_shift("left")),
    OpFacts(
        "stablehlo.shift_right_logical",
        "ShiftRightLogical",
        types=(INT,),
        identity={INT: 0},
        fold=_shift("logical"),
    ),
    OpFacts(
        "stablehlo.shift_right_arithmetic",
        "ShiftRightArithmetic",
        types=(INT,),
        identity={INT: 0},
        fold=_shift("arithmetic"),
    ),
    # pow(x, 1) == x exactly (C and IEEE pow); not folded (pow is not correctly rounded).
    OpFacts("stablehlo.power", "Pow", types=_NUMERIC, identity={INT: 1, FLOAT: 1.0}),
]

FACTS: dict[str, OpFacts] = {row.op: row for row in _ROWS}


def facts_of(op_name: str) -> OpFacts | None:
    """The facts row of a StableHLO op name (``"stablehlo.add"``), or None."""
    return FACTS.get(op_name)


def _value_for(table: dict | None, dtype) -> np.ndarray | None:
    if not table:
        return None
    value = table.get(type_class(dtype))
    if value is None:
        return None
    try:
        if callable(value):
            value = value(np.dtype(dtype))
        return np.array(value).astype(dtype)
    except (TypeError, ValueError):  # e.g. sub-byte ml_dtypes without np.iinfo
        return None


def identity_of(op_name: str, dtype) -> np.ndarray | None:
    """The identity element of ``op_name`` for ``dtype`` as a 0-d read-only array, or None."""
    return _special_value(op_name, np.dtype(dtype), "identity")


def absorbing_of(op_name: str, dtype) -> np.ndarray | None:
    """The absorbing element of ``op_name`` for ``dtype`` as a 0-d read-only array, or None."""
    return _special_value(op_name, np.dtype(dtype), "absorbing")


@functools.lru_cache(maxsize=4096)  # asked for at every op algsimp visits
def _special_value(op_name: str, dtype: np.dtype, field: str) -> np.ndarray | None:
    row = FACTS.get(op_name)
    value = _value_for(getattr(row, field), dtype) if row else None
    if value is not None:
        value.flags.writeable = False  # one array shared by every caller
    return value


def fold_binary(op_name: str, x: np.ndarray, y: np.ndarray) -> np.ndarray | None:
    """``op_name`` applied to two arrays of one dtype with XLA semantics, or None if the
    op has no exact fold."""
    row = FACTS.get(op_name)
    if row is None or row.fold is None:
        return None
    with np.errstate(all="ignore"):
        return np.asarray(row.fold(x, y)).astype(x.dtype)


# Unary ops f with f(f(x)) == x for every x (negate also for the most negative integer,
# which wraps twice; not is logical for PRED and bitwise for integers).
INVOLUTIONS = ("stablehlo.negate", "stablehlo.not")

# XLA's element-wise ops (HloInstruction::IsElementwise) by StableHLO name: each result
# element reads only the operand elements at its own index.
ELEMENTWISE_OPS = frozenset(f"stablehlo.{name}" for name in """
    abs add and atan2 cbrt ceil clamp complex compare convert cosine count_leading_zeros divide
    exponential exponential_minus_one floor imag is_finite log log_plus_one logistic maximum
    minimum multiply negate not or popcnt power real reduce_precision remainder round_nearest_afz
    round_nearest_even rsqrt select shift_left shift_right_arithmetic shift_right_logical sign
    sine sqrt subtract tan tanh xor
    """.split())


# Unary ops whose numpy result is exactly XLA's (correctly rounded or exact).
def _not(x):
    return np.logical_not(x) if x.dtype == np.bool_ else np.invert(x)


UNARY_FOLDS: dict[str, Callable[[np.ndarray], np.ndarray]] = {
    "stablehlo.negate": np.negative,
    "stablehlo.abs": np.abs,
    "stablehlo.not": _not,
    "stablehlo.sqrt": np.sqrt,
    "stablehlo.floor": np.floor,
    "stablehlo.ceil": np.ceil,
    "stablehlo.round_nearest_even": np.rint,
}


def fold_unary(op_name: str, x: np.ndarray) -> np.ndarray | None:
    """Unary ``op_name`` on ``x`` with XLA semantics, or None if not folded exactly."""
    fn = UNARY_FOLDS.get(op_name)
    if fn is None or type_class(x.dtype) == COMPLEX:
        return None
    if (
        op_name in ("stablehlo.sqrt", "stablehlo.floor", "stablehlo.ceil", "stablehlo.round_nearest_even")
        and type_class(x.dtype) != FLOAT
    ):
        return None
    with np.errstate(all="ignore"):
        return np.asarray(fn(x)).astype(x.dtype)
