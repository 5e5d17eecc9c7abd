"""PrimitiveType <-> MLIR element type <-> numpy dtype, for every XLA element type."""

from __future__ import annotations

import ml_dtypes
import numpy as np
import pytest
from iree.compiler import ir

from hlo_mlir import context
from hlo_mlir.errors import DTypeError
from hlo_mlir.shape import Shape
from hlo_mlir.types import PrimitiveType, dtype_of, from_dtype, from_mlir_name, mlir_name

ARRAY_TYPES = [t for t in PrimitiveType if t.is_array_type]

# What XLA's xla_data.proto and the StableHLO spec call each type, written out once more
# by hand so that a wrong row in the table fails here.
EXPECTED = {
    PrimitiveType.PRED: ("i1", np.bool_, 1),
    PrimitiveType.S2: ("i2", ml_dtypes.int2, 2),
    PrimitiveType.S4: ("i4", ml_dtypes.int4, 4),
    PrimitiveType.S8: ("i8", np.int8, 8),
    PrimitiveType.S16: ("i16", np.int16, 16),
    PrimitiveType.S32: ("i32", np.int32, 32),
    PrimitiveType.S64: ("i64", np.int64, 64),
    PrimitiveType.U2: ("ui2", ml_dtypes.uint2, 2),
    PrimitiveType.U4: ("ui4", ml_dtypes.uint4, 4),
    PrimitiveType.U8: ("ui8", np.uint8, 8),
    PrimitiveType.U16: ("ui16", np.uint16, 16),
    PrimitiveType.U32: ("ui32", np.uint32, 32),
    PrimitiveType.U64: ("ui64", np.uint64, 64),
    PrimitiveType.F16: ("f16", np.float16, 16),
    PrimitiveType.BF16: ("bf16", ml_dtypes.bfloat16, 16),
    PrimitiveType.F32: ("f32", np.float32, 32),
    PrimitiveType.F64: ("f64", np.float64, 64),
    PrimitiveType.C64: ("complex<f32>", np.complex64, 64),
    PrimitiveType.C128: ("complex<f64>", np.complex128, 128),
    PrimitiveType.F4E2M1FN: ("f4E2M1FN", ml_dtypes.float4_e2m1fn, 4),
    PrimitiveType.F8E5M2: ("f8E5M2", ml_dtypes.float8_e5m2, 8),
    PrimitiveType.F8E4M3: ("f8E4M3", ml_dtypes.float8_e4m3, 8),
    PrimitiveType.F8E4M3FN: ("f8E4M3FN", ml_dtypes.float8_e4m3fn, 8),
    PrimitiveType.F8E4M3B11FNUZ: ("f8E4M3B11FNUZ", ml_dtypes.float8_e4m3b11fnuz, 8),
    PrimitiveType.F8E5M2FNUZ: ("f8E5M2FNUZ", ml_dtypes.float8_e5m2fnuz, 8),
    PrimitiveType.F8E4M3FNUZ: ("f8E4M3FNUZ", ml_dtypes.float8_e4m3fnuz, 8),
    PrimitiveType.F8E3M4: ("f8E3M4", ml_dtypes.float8_e3m4, 8),
    PrimitiveType.F8E8M0FNU: ("f8E8M0FNU", ml_dtypes.float8_e8m0fnu, 8),
}


def test_every_array_type_is_covered():
    assert set(EXPECTED) == set(ARRAY_TYPES)


@pytest.mark.parametrize("t", ARRAY_TYPES, ids=str)
def test_round_trips(t):
    spelling, np_type, bits = EXPECTED[t]
    assert mlir_name(t) == spelling and from_mlir_name(spelling) is t
    assert dtype_of(t) == np.dtype(np_type)
    assert from_dtype(np_type) is t and from_dtype(np.dtype(np_type)) is t
    assert from_dtype(t.value) is t and from_dtype(t.value.upper()) is t and from_dtype(t) is t
    assert t.bit_width == bits
    with context.get_context():
        # Through MLIR itself: the spelling parses, prints back, and a tensor of it
        # converts to the same Shape.
        element = ir.Type.parse(spelling)
        assert str(element) == spelling
        shape = Shape.array_shape(t, [2, 3])
        tensor = shape.to_mlir_type()
        assert isinstance(tensor, ir.RankedTensorType) and str(tensor.element_type) == spelling
        assert Shape.from_mlir_type(tensor) == shape
    # numpy arrays of the dtype map back to the type.
    assert Shape.from_numpy(np.zeros((1, 2), dtype_of(t))) == Shape.array_shape(t, [1, 2])


def test_classification():
    floats = {t for t in ARRAY_TYPES if t.is_floating_point}
    assert floats == {t for t in ARRAY_TYPES if t.value.startswith("f")} | {PrimitiveType.BF16}
    assert {t for t in ARRAY_TYPES if t.is_signed_integer} == {
        PrimitiveType.S2, PrimitiveType.S4, PrimitiveType.S8, PrimitiveType.S16, PrimitiveType.S32,
        PrimitiveType.S64}
    assert {t for t in ARRAY_TYPES if t.is_unsigned_integer} == {
        PrimitiveType.U2, PrimitiveType.U4, PrimitiveType.U8, PrimitiveType.U16, PrimitiveType.U32,
        PrimitiveType.U64}
    assert {t for t in ARRAY_TYPES if t.is_complex} == {PrimitiveType.C64, PrimitiveType.C128}
    for t in ARRAY_TYPES:  # every type is in exactly one class
        assert [t.is_pred, t.is_integer, t.is_floating_point, t.is_complex].count(True) == 1, t
    assert PrimitiveType.C64.complex_component_type is PrimitiveType.F32
    assert PrimitiveType.C128.complex_component_type is PrimitiveType.F64
    assert not PrimitiveType.TUPLE.is_array_type and not PrimitiveType.TOKEN.is_array_type
    assert str(PrimitiveType.BF16) == "bf16" and repr(PrimitiveType.BF16) == "PrimitiveType.BF16"


def test_python_types_follow_numpy():
    assert from_dtype(bool) is PrimitiveType.PRED and from_dtype("bool") is PrimitiveType.PRED
    assert from_dtype(float) is PrimitiveType.F64
    assert from_dtype(complex) is PrimitiveType.C128
    assert from_dtype("float32") is PrimitiveType.F32 and from_dtype("bfloat16") is PrimitiveType.BF16


def test_errors():
    with pytest.raises(DTypeError, match=r"dtype 'U3' has no XLA primitive type\."):
        from_dtype("U3")
    with pytest.raises(DTypeError, match=r"has no XLA primitive type"):
        from_dtype(object)
    with pytest.raises(DTypeError, match=r"MLIR element type 'f128' has no XLA primitive type"):
        from_mlir_name("f128")
    with pytest.raises(DTypeError, match=r"TUPLE has no MLIR element type\."):
        mlir_name(PrimitiveType.TUPLE)
    with pytest.raises(DTypeError, match=r"TOKEN has no numpy dtype\."):
        dtype_of(PrimitiveType.TOKEN)
    with pytest.raises(DTypeError, match=r"f32 is not a complex type\."):
        PrimitiveType.F32.complex_component_type  # noqa: B018
    with pytest.raises(DTypeError, match=r"MLIR type index has no XLA shape\."):
        with context.get_context():
            Shape.from_mlir_type(ir.IndexType.get())
