"""XLA primitive types, mapped both ways to MLIR element types and numpy dtypes.

One table (``_TABLE``) holds every mapping; the lookups below are derived from it.
StableHLO spells signed integers as signless (``i32``) and unsigned ones as
``ui32``; PRED is ``i1``.
"""

from __future__ import annotations

import enum
from collections.abc import Callable

import ml_dtypes
import numpy as np

from hlo_mlir.errors import DTypeError, did_you_mean

__all__ = ["PrimitiveType", "dtype_of", "from_dtype", "mlir_name", "from_mlir_name", "did_you_mean_type"]


class PrimitiveType(enum.Enum):
    """The element types of xla_data.proto (plus TUPLE and TOKEN)."""

    PRED = "pred"
    S2 = "s2"
    S4 = "s4"
    S8 = "s8"
    S16 = "s16"
    S32 = "s32"
    S64 = "s64"
    U2 = "u2"
    U4 = "u4"
    U8 = "u8"
    U16 = "u16"
    U32 = "u32"
    U64 = "u64"
    F16 = "f16"
    BF16 = "bf16"
    F32 = "f32"
    F64 = "f64"
    C64 = "c64"
    C128 = "c128"
    F4E2M1FN = "f4e2m1fn"
    F8E5M2 = "f8e5m2"
    F8E4M3 = "f8e4m3"
    F8E4M3FN = "f8e4m3fn"
    F8E4M3B11FNUZ = "f8e4m3b11fnuz"
    F8E5M2FNUZ = "f8e5m2fnuz"
    F8E4M3FNUZ = "f8e4m3fnuz"
    F8E3M4 = "f8e3m4"
    F8E8M0FNU = "f8e8m0fnu"
    TUPLE = "tuple"
    TOKEN = "token"

    # --- classification -------------------------------------------------
    @property
    def is_array_type(self) -> bool:
        return self not in (PrimitiveType.TUPLE, PrimitiveType.TOKEN)

    @property
    def is_pred(self) -> bool:
        return self is PrimitiveType.PRED

    @property
    def is_signed_integer(self) -> bool:
        return self.value[0] == "s"

    @property
    def is_unsigned_integer(self) -> bool:
        return self.value[0] == "u"

    @property
    def is_integer(self) -> bool:
        return self.is_signed_integer or self.is_unsigned_integer

    @property
    def is_complex(self) -> bool:
        return self in (PrimitiveType.C64, PrimitiveType.C128)

    @property
    def is_floating_point(self) -> bool:
        return self.value[0] == "f" or self is PrimitiveType.BF16

    @property
    def bit_width(self) -> int:
        return _TABLE[self][2]

    @property
    def complex_component_type(self) -> "PrimitiveType":
        """F32 for C64, F64 for C128."""
        if not self.is_complex:
            raise DTypeError(f"{self.value} is not a complex type.")
        return PrimitiveType.F32 if self is PrimitiveType.C64 else PrimitiveType.F64

    def __str__(self) -> str:
        return self.value

    def __repr__(self) -> str:
        return f"PrimitiveType.{self.name}"


# type -> (MLIR element type spelling, numpy dtype, bit width)
_TABLE: dict[PrimitiveType, tuple[str, np.dtype, int]] = {
    PrimitiveType.PRED: ("i1", np.dtype(np.bool_), 1),
    PrimitiveType.S2: ("i2", np.dtype(ml_dtypes.int2), 2),
    PrimitiveType.S4: ("i4", np.dtype(ml_dtypes.int4), 4),
    PrimitiveType.S8: ("i8", np.dtype(np.int8), 8),
    PrimitiveType.S16: ("i16", np.dtype(np.int16), 16),
    PrimitiveType.S32: ("i32", np.dtype(np.int32), 32),
    PrimitiveType.S64: ("i64", np.dtype(np.int64), 64),
    PrimitiveType.U2: ("ui2", np.dtype(ml_dtypes.uint2), 2),
    PrimitiveType.U4: ("ui4", np.dtype(ml_dtypes.uint4), 4),
    PrimitiveType.U8: ("ui8", np.dtype(np.uint8), 8),
    PrimitiveType.U16: ("ui16", np.dtype(np.uint16), 16),
    PrimitiveType.U32: ("ui32", np.dtype(np.uint32), 32),
    PrimitiveType.U64: ("ui64", np.dtype(np.uint64), 64),
    PrimitiveType.F16: ("f16", np.dtype(np.float16), 16),
    PrimitiveType.BF16: ("bf16", np.dtype(ml_dtypes.bfloat16), 16),
    PrimitiveType.F32: ("f32", np.dtype(np.float32), 32),
    PrimitiveType.F64: ("f64", np.dtype(np.float64), 64),
    PrimitiveType.C64: ("complex<f32>", np.dtype(np.complex64), 64),
    PrimitiveType.C128: ("complex<f64>", np.dtype(np.complex128), 128),
    PrimitiveType.F4E2M1FN: ("f4E2M1FN", np.dtype(ml_dtypes.float4_e2m1fn), 4),
    PrimitiveType.F8E5M2: ("f8E5M2", np.dtype(ml_dtypes.float8_e5m2), 8),
    PrimitiveType.F8E4M3: ("f8E4M3", np.dtype(ml_dtypes.float8_e4m3), 8),
    PrimitiveType.F8E4M3FN: ("f8E4M3FN", np.dtype(ml_dtypes.float8_e4m3fn), 8),
    PrimitiveType.F8E4M3B11FNUZ: ("f8E4M3B11FNUZ", np.dtype(ml_dtypes.float8_e4m3b11fnuz), 8),
    PrimitiveType.F8E5M2FNUZ: ("f8E5M2FNUZ", np.dtype(ml_dtypes.float8_e5m2fnuz), 8),
    PrimitiveType.F8E4M3FNUZ: ("f8E4M3FNUZ", np.dtype(ml_dtypes.float8_e4m3fnuz), 8),
    PrimitiveType.F8E3M4: ("f8E3M4", np.dtype(ml_dtypes.float8_e3m4), 8),
    PrimitiveType.F8E8M0FNU: ("f8E8M0FNU", np.dtype(ml_dtypes.float8_e8m0fnu), 8),
}

_BY_MLIR = {spelling: t for t, (spelling, _, _) in _TABLE.items()}
_BY_DTYPE = {dt: t for t, (_, dt, _) in _TABLE.items()}
_BY_NAME = {t.value: t for t in PrimitiveType}


def _aliases(spell: Callable[[PrimitiveType], str]) -> dict[str, str]:
    """Every name people give an element type (numpy's, MLIR's, XLA's) mapped to
    ``spell(type)``: the suggestion for each (did-you-mean)."""
    names = {dtype.name: t for t, (_, dtype, _) in _TABLE.items()}
    names.update(_BY_MLIR)
    names.update({t.value: t for t in _TABLE})
    return {name: spell(t) for name, t in names.items()}


_XLA_ALIASES = _aliases(lambda t: t.value)
_MLIR_ALIASES = _aliases(lambda t: _TABLE[t][0])


def did_you_mean_type(word: str, *, mlir: bool = False) -> str:
    """:func:`~hlo_mlir.errors.did_you_mean` for an element-type name: the closest type by
    any of its names, spelled as XLA does (``float32`` -> ``f32``) or, with ``mlir``, as
    MLIR does (``s32`` -> ``i32``)."""
    aliases = _MLIR_ALIASES if mlir else _XLA_ALIASES
    return did_you_mean(word, set(aliases.values()), aliases)


def mlir_name(t: PrimitiveType) -> str:
    """The MLIR element-type spelling of ``t`` (``F32`` -> ``"f32"``)."""
    try:
        return _TABLE[t][0]
    except KeyError:
        raise DTypeError(f"{t.name} has no MLIR element type.") from None


def from_mlir_name(spelling: str) -> PrimitiveType:
    """The PrimitiveType of an MLIR element type spelling (``"ui8"`` -> ``U8``)."""
    try:
        return _BY_MLIR[spelling]
    except KeyError:
        raise DTypeError(f"MLIR element type {spelling!r} has no XLA primitive type"
                         f"{did_you_mean_type(spelling, mlir=True) or '.'}") from None


def dtype_of(t: PrimitiveType) -> np.dtype:
    """The numpy (or ml_dtypes) dtype of ``t``."""
    try:
        return _TABLE[t][1]
    except KeyError:
        raise DTypeError(f"{t.name} has no numpy dtype.") from None


def from_dtype(dtype) -> PrimitiveType:
    """The PrimitiveType of a numpy dtype, a dtype-like, a PrimitiveType or its name."""
    if isinstance(dtype, PrimitiveType):
        return dtype
    if isinstance(dtype, str) and dtype.lower() in _BY_NAME:
        return _BY_NAME[dtype.lower()]
    try:
        np_dtype = np.dtype(dtype)
    except TypeError:  # no dtype at all: perhaps a misspelt one
        raise DTypeError(f"dtype {dtype!r} has no XLA primitive type"
                         f"{did_you_mean_type(dtype) or '.'}") from None
    try:
        return _BY_DTYPE[np_dtype]
    except KeyError:
        raise DTypeError(f"dtype {dtype!r} has no XLA primitive type.") from None
