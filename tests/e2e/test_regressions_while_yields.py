"""Regressions (issue 9, fuzzer seeds 20261125/20261126): while loops the pinned IREE
failed to compile ("'scf.while' op along control flow edge from Operation scf.condition
to Region #1: region branch point has 4 operands, but region successor needs 2 inputs")
because the body does not read a carried value, reads it only through ops IREE folds
away, yields a value IREE folds to a loop-invariant one, or yields one value twice
(``while-invariant-yields``, docs/iree-defects.md).

Each test compares hlo-mlir with a numpy model of the loop and with XLA CPU (strict: no
algebraic simplifier).
"""

from __future__ import annotations

import numpy as np
import pytest

from hlo_mlir import (
    Add,
    Broadcast,
    Clamp,
    Constant,
    ConstantR0,
    ConvertElementType,
    DynamicUpdateSlice,
    GetTupleElement,
    IsFinite,
    Le,
    Lt,
    Neg,
    Parameter,
    PrimitiveType,
    Shape,
    ShiftRightLogical,
    Sub,
    Tuple,
    While,
    XlaBuilder,
)
from tests import oracle


def _loop(name: str, x_type: str, y_type: str, step, trips: int | None = None):
    """``While`` over ``(s32 i, s32 n, x, y)`` running ``n`` times, ``(x, y) := step(i, n, x, y, b)``;
    returns ``(x, y)``. ``n`` is parameter 2, or the constant ``trips``."""
    state = Shape.parse(f"(s32[], s32[], {x_type}, {y_type})")
    cb = XlaBuilder("cond")
    cp = Parameter(cb, 0, state, "s")
    cond = cb.build(Lt(GetTupleElement(cp, 0), GetTupleElement(cp, 1)))
    bb = XlaBuilder("body")
    bp = Parameter(bb, 0, state, "s")
    i, n = GetTupleElement(bp, 0), GetTupleElement(bp, 1)
    x1, y1 = step(i, n, GetTupleElement(bp, 2), GetTupleElement(bp, 3), bb)
    body = bb.build(Tuple(bb, [Add(i, ConstantR0(bb, np.int32(1))), n, x1, y1]))
    b = XlaBuilder(name)
    x = Parameter(b, 0, Shape.parse(x_type), "x")
    y = Parameter(b, 1, Shape.parse(y_type), "y")
    n = Parameter(b, 2, Shape.parse("s32[]"), "n") if trips is None else ConstantR0(b, np.int32(trips))
    loop = While(cond, body, Tuple(b, [ConstantR0(b, np.int32(0)), n, x, y]))
    return b.build(Tuple(b, [GetTupleElement(loop, 2), GetTupleElement(loop, 3)]))


def _srl(x: np.ndarray, s) -> np.ndarray:
    """StableHLO's shift_right_logical: 0 for a shift amount at least the bit width."""
    bits = x.dtype.itemsize * 8
    u = x.view(np.dtype(f"u{x.dtype.itemsize}"))
    s = np.broadcast_to(np.asarray(s).astype(x.dtype).view(u.dtype), x.shape)
    big = s >= bits
    return np.where(big, 0, u >> np.where(big, 0, s)).astype(u.dtype).view(x.dtype)


def _full(b: XlaBuilder, value, dims):
    return Constant(b, np.full(dims, value))


def _as_f32(v, dims):
    """``v`` (s32[]) converted to f32 and broadcast to ``dims``."""
    return Broadcast(ConvertElementType(v, PrimitiveType.F32), dims)


def _update(x: np.ndarray, value, at: int) -> np.ndarray:
    out = x.copy()
    out[at] = value
    return out


_S64 = np.array([-7793289239756444541, 2048127993737327736, 5, 63, 0, -1, 598274520392849314, 1], np.int64)
_U16_SHIFT = np.uint16(59731)  # -5805 as a 16-bit pattern: at least the bit width
# name: (x type, y type, builder step, numpy step, x0, y0); a name in _CONSTANT_TRIPS runs
# a constant number of times
_CASES = {
    # the body writes x without reading it (fuzz 772, 2693, 2791, 7480 of seed 20261126)
    "yields-the-counter": ("s32[]", "f32[2]",
                           lambda i, n, x, y, b: (i, Neg(y)),
                           lambda i, n, x, y: (np.int32(i), -y),
                           np.int32(-9), np.array([1.5, -2], np.float32)),
    # a comparison of the counter (seed 20261125 program 1879)
    "pred-of-the-counter": ("pred[]", "s32[3]",
                            lambda i, n, x, y, b: (Le(i, n), Add(y, Broadcast(i, [3]))),
                            lambda i, n, x, y: (np.bool_(i <= n), y + np.int32(i)),
                            np.bool_(False), np.array([1, 2, 3], np.int32)),
    # IREE folds x >> x to 0 (fuzz 5832)
    "shift-by-itself": ("s64[8]", "s32[]",
                        lambda i, n, x, y, b: (ShiftRightLogical(x, x), Add(y, i)),
                        lambda i, n, x, y: (_srl(x, x), np.int32(y + i)),
                        _S64, np.int32(4)),
    # a shift by at least the bit width is 0 (seed 20261125 program 518)
    "shift-out-of-range": ("u16[3,1]", "s32[]",
                           lambda i, n, x, y, b: (ShiftRightLogical(x, _full(b, _U16_SHIFT, (3, 1))),
                                                  Add(y, n)),
                           lambda i, n, x, y: (np.zeros_like(x), np.int32(y + n)),
                           np.array([[1], [40000], [7]], np.uint16), np.int32(0)),
    # clamp to an empty range is its upper bound (seed 20261125 program 1054)
    "clamp-empty-range": ("s32[1]", "s32[]",
                          lambda i, n, x, y, b: (Clamp(ConstantR0(b, np.int32(1)), x,
                                                       ConstantR0(b, np.int32(-1856558489))), Add(y, i)),
                          lambda i, n, x, y: (np.full(1, -1856558489, np.int32), np.int32(y + i)),
                          np.array([5], np.int32), np.int32(1)),
    # is_finite of a constant is a constant true (fuzz 854, a constant trip count): the
    # former tie or(true, z) folded
    "is-finite-of-constant": ("pred[]", "s32[]",
                              lambda i, n, x, y, b: (IsFinite(ConstantR0(b, np.float32(-2))), Add(y, i)),
                              lambda i, n, x, y: (np.bool_(True), np.int32(y + i)),
                              np.bool_(False), np.int32(0)),
    # one value yielded for two carried values
    "one-value-twice": ("f32[2]", "f32[2]",
                        lambda i, n, x, y, b: (lambda s: (s, s))(Add(x, y)),
                        lambda i, n, x, y: (x + y, x + y),
                        np.array([1, 2], np.float32), np.array([10, 20], np.float32)),
    # each carried value yielded in the other's place
    "swap": ("s32[2]", "s32[2]",
             lambda i, n, x, y, b: (y, x),
             lambda i, n, x, y: (y, x),
             np.array([1, 2], np.int32), np.array([3, 4], np.int32)),
    # an in-place update of x (left alone) and a whole-operand update of y (IREE folds it)
    "update-slices": ("f32[4]", "f32[2]",
                      lambda i, n, x, y, b: (DynamicUpdateSlice(x, _as_f32(i, [1]), [i]),
                                             DynamicUpdateSlice(y, _as_f32(n, [2]), [i])),
                      lambda i, n, x, y: (_update(x, np.float32(i), min(i, 3)), np.full(2, n, np.float32)),
                      np.array([9, 9, 9, 9], np.float32), np.array([-1, -1], np.float32)),
}
_CONSTANT_TRIPS = {"is-finite-of-constant"}


def _model(case: str, trips: int):
    _, _, _, step, x, y = _CASES[case]
    for i in range(trips):
        x, y = step(i, trips, x, y)
    return x, y


@pytest.mark.parametrize("passes", ["O0", "O2"])
@pytest.mark.parametrize("case", sorted(_CASES))
def test_while_yield_tied_to_its_carried_value(case, passes):
    """The loop compiles and returns the numpy model's state after 0, 1 and 3 iterations."""
    x_type, y_type, step, _, x0, y0 = _CASES[case]
    comp = _loop(case.replace("-", "_"), x_type, y_type, step)
    for trips in (0, 1, 3):
        args = [x0, y0, np.int32(trips)]
        if case in _CONSTANT_TRIPS:
            comp = _loop(case.replace("-", "_"), x_type, y_type, step, trips)
            args = args[:2]
        expected = _model(case, trips)
        oracle.assert_close(oracle.run_iree(comp, *args, passes=passes), expected, 0, 0,
                            f"hlo-mlir vs numpy after {trips}")
        oracle.assert_close(oracle.run_xla(comp, *args, strict=True), expected, 0, 0,
                            f"XLA vs numpy after {trips}")


def _difference_loop():
    """Fuzzer seed 20261127 program 3885, shrunk: ``x = convert(p, u32)`` carried by a counted
    loop whose body yields ``x - x`` (0 in every iteration: IREE folds it, so the yield is
    tied to ``x``)."""
    state = Shape.parse("(s32[], s32[], u32[1])")
    cb, bb, b = XlaBuilder("cond"), XlaBuilder("body"), XlaBuilder("difference_loop")
    cp, bp = Parameter(cb, 0, state, "s"), Parameter(bb, 0, state, "s")
    cond = cb.build(Lt(GetTupleElement(cp, 0), GetTupleElement(cp, 1)))
    i, n, x = (GetTupleElement(bp, k) for k in range(3))
    body = bb.build(Tuple(bb, [Add(i, ConstantR0(bb, np.int32(1))), n, Sub(x, x)]))
    x0 = ConvertElementType(Parameter(b, 0, Shape.parse("f32[1]"), "p"), PrimitiveType.U32)
    n = Parameter(b, 1, Shape.parse("s32[]"), "n")
    return b.build(GetTupleElement(While(cond, body, Tuple(b, [ConstantR0(b, np.int32(0)), n, x0])), 2))


@pytest.mark.parametrize("trips", [-1, 0, 2])
def test_while_yielding_a_folded_difference_runs(trips):
    """The loop runs (0 trips: the converted parameter, else 0): with the former tie
    ``v + broadcast(barrier(0, x)#0)`` IREE's runtime failed with "OUT_OF_RANGE; indirect
    buffer reference slot 0 is out range of the declared binding capacity of the command
    buffer 0" in ``hal.command_buffer.copy_buffer`` (while-invariant-yields' select tie)."""
    p = np.float32([3.75])
    expected = np.uint32([3]) if trips <= 0 else np.uint32([0])
    oracle.check(_difference_loop(), [p, np.int32(trips)], expected, 0, 0)
