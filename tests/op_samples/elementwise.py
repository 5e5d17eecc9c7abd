"""Coverage samples of the element-wise family: one table row per op."""

from __future__ import annotations

import numpy as np
import scipy.special

import hlo_mlir as hm
from hlo_mlir import Parameter, PrimitiveType, Shape, XlaBuilder
from tests.op_samples import Sample

_rng = np.random.default_rng(0)
_F = _rng.uniform(0.1, 2.0, (2, 3)).astype(np.float32)
_G = _rng.uniform(-2.0, 2.0, (2, 3)).astype(np.float32)
_I = np.array([[7, -3, 0], [12, -9, 5]], np.int32)
_J = np.array([[2, 5, 1], [3, -4, 7]], np.int32)
_P = np.array([[True, False, True], [False, False, True]])
_Q = np.array([[True, True, False], [False, True, True]])


_EXTRA_ARGS = {"ConvertElementType": (PrimitiveType.S32,), "BitcastConvertType": (PrimitiveType.S32,)}


def _unary(op_name: str, x: np.ndarray, ref, rtol=1e-5, atol=1e-6):
    def sample() -> Sample:
        b = XlaBuilder(op_name)
        p = Parameter(b, 0, Shape.from_numpy(x))
        comp = b.build(getattr(hm, op_name)(p, *_EXTRA_ARGS.get(op_name, ())))
        return Sample(comp, (x,), ref(x), rtol, atol)

    return sample


def _binary(op_name: str, x: np.ndarray, y: np.ndarray, ref, rtol=1e-5, atol=1e-6):
    def sample() -> Sample:
        b = XlaBuilder(op_name)
        p, q = Parameter(b, 0, Shape.from_numpy(x)), Parameter(b, 1, Shape.from_numpy(y))
        return Sample(b.build(getattr(hm, op_name)(p, q)), (x, y), ref(x, y), rtol, atol)

    return sample


_C = (_F + 1j * _G).astype(np.complex64)
_TOTAL = {"Eq": np.equal, "Ne": np.not_equal, "Ge": np.greater_equal, "Gt": np.greater,
          "Le": np.less_equal, "Lt": np.less}

SAMPLES = {
    "Add": _binary("Add", _F, _G, np.add),
    "Sub": _binary("Sub", _F, _G, np.subtract),
    "Mul": _binary("Mul", _F, _G, np.multiply),
    "Div": _binary("Div", _F, _G, np.divide),
    "Rem": _binary("Rem", _I, _J, np.fmod),
    "Max": _binary("Max", _F, _G, np.maximum),
    "Min": _binary("Min", _F, _G, np.minimum),
    "Pow": _binary("Pow", _F, _G, np.power, rtol=1e-4),
    "Atan2": _binary("Atan2", _G, _F, np.arctan2, rtol=1e-4),
    "Complex": _binary("Complex", _F, _G, lambda a, b: (a + 1j * b).astype(np.complex64)),
    "And": _binary("And", _P, _Q, np.logical_and),
    "Or": _binary("Or", _I, _J, np.bitwise_or),
    "Xor": _binary("Xor", _I, _J, np.bitwise_xor),
    "ShiftLeft": _binary("ShiftLeft", _I, np.abs(_J), np.left_shift),
    "ShiftRightArithmetic": _binary("ShiftRightArithmetic", _I, np.abs(_J), np.right_shift),
    "ShiftRightLogical": _binary("ShiftRightLogical", _I.view(np.uint32), np.abs(_J).view(np.uint32),
                                 np.right_shift),
    "Not": _unary("Not", _I, np.invert),
    "LogicalNot": _unary("LogicalNot", _P, np.logical_not),
    "Abs": _unary("Abs", _G, np.abs),
    "Ceil": _unary("Ceil", _G, np.ceil),
    "Cos": _unary("Cos", _G, np.cos, atol=1e-5),
    "Sin": _unary("Sin", _G, np.sin, atol=1e-5),
    "Tan": _unary("Tan", _G / 2, np.tan, rtol=1e-4),
    "Tanh": _unary("Tanh", _G, np.tanh),
    "Exp": _unary("Exp", _G, np.exp),
    "Floor": _unary("Floor", _G, np.floor),
    "Imag": _unary("Imag", _C, np.imag),
    "Real": _unary("Real", _C, np.real),
    "IsFinite": _unary("IsFinite", np.array([1.0, np.inf, -np.inf, np.nan], np.float32), np.isfinite),
    "Log": _unary("Log", _F, np.log),
    "Logistic": _unary("Logistic", _G, scipy.special.expit),
    "PopulationCount": _unary("PopulationCount", _I,
                              lambda x: np.array([bin(int(v) & 0xFFFFFFFF).count("1") for v in x.ravel()],
                                                 np.int32).reshape(x.shape)),
    "Neg": _unary("Neg", _G, np.negative),
    "Rsqrt": _unary("Rsqrt", _F, lambda x: 1 / np.sqrt(x), rtol=1e-4),
    "Sign": _unary("Sign", np.array([-2.0, -0.0, 0.0, 3.0], np.float32), np.sign),
    "Sqrt": _unary("Sqrt", _F, np.sqrt),
    "Cbrt": _unary("Cbrt", _G, np.cbrt, rtol=1e-4),
    "Round": _unary("Round", np.array([-2.5, -0.5, 0.5, 1.5, 2.5], np.float32),
                    lambda x: np.sign(x) * np.floor(np.abs(x) + 0.5)),
    "RoundNearestEven": _unary("RoundNearestEven", np.array([-2.5, -0.5, 0.5, 1.5, 2.5], np.float32),
                               np.rint),
}
_NAN = np.array([np.nan, 1.0, -0.0, 0.0, -np.inf], np.float32)
_NAN2 = np.array([1.0, np.nan, 0.0, -0.0, -np.inf], np.float32)
for _d, _fn in _TOTAL.items():
    SAMPLES[_d] = _binary(_d, _F, _G, _fn)


def _total_key(x):
    """XLA's total order on f32 as integers: -NaN < -Inf < ... < -0 < +0 < ... < +NaN."""
    i = x.view(np.int32).astype(np.int64)
    return np.where(i < 0, -(i & 0x7FFFFFFF) - 1, i)


for _d, _fn in _TOTAL.items():
    SAMPLES[_d + "TotalOrder"] = _binary(_d + "TotalOrder", _NAN, _NAN2,
                                         lambda a, b, fn=_fn: fn(_total_key(a), _total_key(b)))


def _select() -> Sample:
    b = XlaBuilder("Select")
    p = Parameter(b, 0, Shape.from_numpy(_P))
    x, y = Parameter(b, 1, Shape.from_numpy(_F)), Parameter(b, 2, Shape.from_numpy(_G))
    return Sample(b.build(hm.Select(p, x, y)), (_P, _F, _G), np.where(_P, _F, _G))


def _clamp() -> Sample:
    b = XlaBuilder("Clamp")
    x = Parameter(b, 0, Shape.from_numpy(_G))
    out = hm.Clamp(hm.ConstantR0(b, np.float32(-0.5)), x, hm.ConstantR0(b, np.float32(0.75)))
    return Sample(b.build(out), (_G,), np.clip(_G, -0.5, 0.75))


SAMPLES.update({
    "Select": _select,
    "Clamp": _clamp,
    "ConvertElementType": _unary("ConvertElementType", _G * 10, lambda x: np.trunc(x).astype(np.int32)),
    "BitcastConvertType": _unary("BitcastConvertType", _G, lambda x: x.view(np.int32)),
})
