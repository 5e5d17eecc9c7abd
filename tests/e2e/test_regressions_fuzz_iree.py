"""Regressions (issue 9, fuzzer): valid programs the pinned IREE failed to compile or
crashed on, each routed around by a legalization (docs/iree-defects.md).

Each test compares hlo-mlir with numpy and with XLA CPU (strict: no algebraic simplifier).
"""

from __future__ import annotations

import ml_dtypes
import numpy as np
import pytest

from hlo_mlir import (
    Add,
    Atan2,
    Broadcast,
    BroadcastInDim,
    Clamp,
    Complex,
    ConcatInDim,
    Conditional,
    Constant,
    ConstantR0,
    ConvertElementType,
    ConvGeneralDilated,
    ConvolutionDimensionNumbers,
    Cos,
    CreateScalarGtComputation,
    CreateScalarLtComputation,
    Dot,
    DotDimensionNumbers,
    DotGeneral,
    DynamicSlice,
    Exp,
    Gather,
    GatherDimensionNumbers,
    GetTupleElement,
    Gt,
    Log,
    Lt,
    Map,
    Max,
    Mul,
    Neg,
    Pad,
    Parameter,
    PrimitiveType,
    RandomAlgorithm,
    Reduce,
    ReduceWindowWithGeneralPadding,
    Rem,
    Reshape,
    Rev,
    RngBitGenerator,
    Round,
    Scatter,
    ScatterDimensionNumbers,
    Select,
    Shape,
    Sin,
    Slice,
    Sort,
    Sqrt,
    Tan,
    Tanh,
    TopK,
    Transpose,
    Tuple,
    While,
    XlaBuilder,
)
from tests import oracle


def _scalar_computation(type_name: str, combine):
    b = XlaBuilder("combine")
    x = Parameter(b, 0, Shape.parse(f"{type_name}[]"), "x")
    y = Parameter(b, 1, Shape.parse(f"{type_name}[]"), "y")
    return b.build(combine(x, y))


def _strict_check(comp, args, expected, rtol=0.0, atol=0.0):
    ours = oracle.run_iree(comp, *args)
    oracle.assert_close(ours, expected, rtol, atol, "hlo-mlir vs numpy")
    oracle.assert_close(oracle.run_xla(comp, *args, strict=True), expected, rtol, atol, "XLA vs numpy")


@pytest.mark.parametrize("combiner", ["replace", "add"])
@pytest.mark.parametrize("index_type", ["u64", "s32"])
def test_scatter_constant_unsigned_scalar_update(combiner, index_type):
    """``Scatter(u8[5], idx u64[1], constant u8 4)`` compiles (IREE folded the update to an
    unsigned ``arith.constant``: "integer return type must be signless")."""
    b = XlaBuilder("scatter_u8")
    x = Parameter(b, 0, Shape.parse("u8[5]"), "x")
    idx = Parameter(b, 1, Shape.parse(f"{index_type}[1]"), "idx")
    update = Constant(b, np.array(4, dtype=np.uint8))
    fn = (lambda cur, upd: upd) if combiner == "replace" else Add
    comp = b.build(Scatter(x, idx, update, _scalar_computation("u8", fn),
                           ScatterDimensionNumbers([], [0], [0], 0)))
    x0 = np.array([250, 1, 2, 3, 254], np.uint8)
    dtype = Shape.parse(f"{index_type}[]").dtype
    for where in [0, 4, 5, 7]:  # 5 and 7: out of bounds, skipped
        expected = x0.copy()
        if where < 5:
            expected[where] = 4 if combiner == "replace" else (int(x0[where]) + 4) % 256
        _strict_check(comp, [x0, np.array([where], dtype)], expected)


_F64 = np.array([0.5, -1.25, 3.0, 100.0])
_C128 = np.array([0.5 + 1j, -1.25 - 0.5j, 3.0 + 2j, -4.0 + 0.25j])
_CONSTANT_TRANSCENDENTALS = [
    ("tanh", lambda c: Tanh(c), np.tanh, _F64),
    ("sin", lambda c: Sin(c), np.sin, _F64),
    ("cos", lambda c: Cos(c), np.cos, _F64),
    ("tan", lambda c: Tan(c), np.tan, _F64),
    ("atan2", lambda c: Atan2(c, Tanh(c)), lambda x: np.arctan2(x, np.tanh(x)), _F64),
    ("rem", lambda c: Rem(c, Tanh(c)), lambda x: np.fmod(x, np.tanh(x)), _F64),
    ("c128-exp", lambda c: Exp(c), np.exp, _C128),
    ("c128-log", lambda c: Log(c), np.log, _C128),
    ("c128-sqrt", lambda c: Sqrt(c), np.sqrt, _C128),
]


@pytest.mark.parametrize("passes", ["O0", "O2"])
@pytest.mark.parametrize("name,op,reference,values", _CONSTANT_TRANSCENDENTALS,
                         ids=[t[0] for t in _CONSTANT_TRANSCENDENTALS])
def test_f64_transcendental_of_constant(name, op, reference, values, passes):
    """``ConcatInDim([tanh(constant f64[4]), p f64[1]])`` compiles at O0 and O2 (IREE's
    constant evaluator JIT-linked the libm call without libm: "undefined symbol: tanh")."""
    b = XlaBuilder(f"constant_{name}")
    p = Parameter(b, 0, Shape.parse(f"{'c128' if values.dtype.kind == 'c' else 'f64'}[1]"), "p")
    comp = b.build(ConcatInDim(b, [op(Constant(b, values)), p], 0))
    p0 = np.array([2.0], values.dtype)
    expected = np.concatenate([reference(values), p0])
    ours = oracle.run_iree(comp, p0, passes=passes)
    oracle.assert_close(ours, expected, 1e-14, 0, "hlo-mlir vs numpy")
    oracle.assert_close(oracle.run_xla(comp, p0, strict=True), expected, 1e-14, 0, "XLA vs numpy")


@pytest.mark.parametrize("algorithm,state_size,output", [
    ("RNG_THREE_FRY", 2, "u32[0,6]"), ("RNG_THREE_FRY", 2, "f32[3,0]"),
    ("RNG_PHILOX", 3, "u64[0]"), ("RNG_DEFAULT", 2, "u8[2,0,3]")])
def test_rng_bit_generator_empty_output(algorithm, state_size, output):
    """``RngBitGenerator(alg, state, u32[0,6])`` compiles (IREE aborted) and, like XLA,
    returns the state unchanged (nothing drawn) and an empty array."""
    b = XlaBuilder("rng_empty")
    state = Parameter(b, 0, Shape.parse(f"u64[{state_size}]"), "state")
    rng = RngBitGenerator(getattr(RandomAlgorithm, algorithm), state, Shape.parse(output))
    comp = b.build(Tuple(b, [GetTupleElement(rng, 0), GetTupleElement(rng, 1)]))
    s0 = np.array([5, 2**64 - 1, 7][:state_size], np.uint64)
    expected = (s0, np.zeros(Shape.parse(output).dimensions, Shape.parse(output).dtype))
    _strict_check(comp, [s0], expected)


@pytest.mark.parametrize("passes", ["O0", "O2"])
@pytest.mark.parametrize("dims,dimension", [([1, 3], 1), ([2, 3], 1), ([3], 0), ([3, 1], 0)])
def test_stable_sort_of_scalar_broadcast(dims, dimension, passes):
    """``Sort(Broadcast(s32[] p, [1, 3]), lt, 1, stable)`` compiles (IREE crashed, SIGSEGV),
    and a stable sort by equal keys carries its values in their order."""
    b = XlaBuilder("sort_splat")
    p = Parameter(b, 0, Shape.parse("s32[]"), "p")
    v = Parameter(b, 1, Shape.parse(f"f32[{','.join(map(str, dims))}]"), "v")
    keys = Broadcast(p, dims)
    alone = Sort(keys, CreateScalarLtComputation([PrimitiveType.S32]), dimension, True)
    both = Sort([keys, v], CreateScalarLtComputation([PrimitiveType.S32, PrimitiveType.F32]),
                dimension, True)
    comp = b.build(Tuple(b, [alone, GetTupleElement(both, 0), GetTupleElement(both, 1)]))
    v0 = np.arange(np.prod(dims), dtype=np.float32).reshape(dims)[..., ::-1].copy()
    splat = np.full(dims, 3, np.int32)
    expected = (splat, splat, v0)
    ours = oracle.run_iree(comp, np.int32(3), v0, passes=passes)
    oracle.assert_close(ours, expected, 0, 0, "hlo-mlir vs numpy")
    oracle.assert_close(oracle.run_xla(comp, np.int32(3), v0, strict=True), expected, 0, 0, "XLA vs numpy")


def _loop_with_carried(name: str, array: str, step):
    """``While`` over ``(s32 i, s32 n, array x)`` running ``n`` times, ``x := step(x, n, b)``."""
    state = Shape.parse(f"(s32[], s32[], {array})")
    cb = XlaBuilder("cond")
    cp = Parameter(cb, 0, state, "s")
    cond = cb.build(Lt(GetTupleElement(cp, 0), GetTupleElement(cp, 1)))
    bb = XlaBuilder("body")
    bp = Parameter(bb, 0, state, "s")
    i, n = GetTupleElement(bp, 0), GetTupleElement(bp, 1)
    body = bb.build(Tuple(bb, [Add(i, ConstantR0(bb, np.int32(1))), n, step(GetTupleElement(bp, 2), n, bb)]))
    b = XlaBuilder(name)
    x = Parameter(b, 0, Shape.parse(array), "x")
    n = Parameter(b, 1, Shape.parse("s32[]"), "n")
    return b.build(GetTupleElement(While(cond, body, Tuple(b, [ConstantR0(b, np.int32(0)), n, x])), 2))


_BF16 = np.array([1.5, -2.25], ml_dtypes.bfloat16)
_INVARIANT_YIELDS = {
    # body value, array, x0, the value after one or more iterations
    "round-constant-bf16": (lambda x, n, bb: Round(Constant(bb, _BF16)), "bf16[2]",
                            np.array([7, 8], ml_dtypes.bfloat16), np.array([2, -2])),  # half away from zero
    "clamp-to-one-bound": (lambda x, n, bb: Clamp(ConstantR0(bb, np.uint32(4)), x,
                                                  ConstantR0(bb, np.uint32(4))),
                           "u32[3]", np.array([1, 9, 4], np.uint32), np.full(3, 4, np.uint32)),
    "broadcast-of-bound": (lambda x, n, bb: Broadcast(n, [3]), "s32[3]", np.array([1, 2, 3], np.int32), None),
}


@pytest.mark.parametrize("passes", ["O0", "O2"])
@pytest.mark.parametrize("trips", [0, 1, 3])
@pytest.mark.parametrize("case", sorted(_INVARIANT_YIELDS))
def test_while_carrying_loop_invariant_value(case, trips, passes):
    """A while whose body yields a loop-invariant value (``Round(constant bf16[2])``)
    compiles ("'scf.while' op ... region branch point has 4 operands, but region successor
    needs 2 inputs") and returns the initial value after no iteration, that value after any."""
    step, array, x0, after = _INVARIANT_YIELDS[case]
    comp = _loop_with_carried(case.replace("-", "_"), array, step)
    if after is None:
        after = np.full(x0.shape, trips, x0.dtype)
    expected = x0 if trips == 0 else np.asarray(after).astype(x0.dtype)
    args = [x0, np.int32(trips)]
    oracle.assert_close(oracle.run_iree(comp, *args, passes=passes), expected, 0, 0, "hlo-mlir vs numpy")
    oracle.assert_close(oracle.run_xla(comp, *args, strict=True), expected, 0, 0, "XLA vs numpy")


_TABLE = np.array([[8, -4, -1, -4, 1], [2, 7, 2, 7, 6], [4, -6, -7, 2, 4],
                   [8, -2**31, 5, 5, 6], [4, -3, -2, -6, 4], [-5, -8, -5, 4, 5]], np.int32)


@pytest.mark.parametrize("sizes", [[1, 1], [2, 5], [1, 3]])
def test_top_k_of_dynamic_slice_of_constant(sizes):
    """``TopK(DynamicSlice(Constant s32[6,5], i, j, sizes), 1)`` compiles ("write affecting
    operations on global resources": the sort wrote into a view of the constant) and
    leaves the constant intact for the next call."""
    b = XlaBuilder("top_k_slice")
    i = Parameter(b, 0, Shape.parse("u32[]"), "i")
    j = Parameter(b, 1, Shape.parse("u32[]"), "j")
    top = TopK(DynamicSlice(Constant(b, _TABLE), [i, j], sizes), 1)
    comp = b.build(Tuple(b, [GetTupleElement(top, 0), GetTupleElement(top, 1)]))
    for i0, j0 in [(0, 0), (3, 1), (9, 9)]:
        r = min(i0, 6 - sizes[0])
        c = min(j0, 5 - sizes[1])
        window = _TABLE[r:r + sizes[0], c:c + sizes[1]]
        order = np.argsort(-window.astype(np.int64), axis=1, kind="stable")[:, :1].astype(np.int32)
        expected = (np.take_along_axis(window, order, 1), order)
        _strict_check(comp, [np.uint32(i0), np.uint32(j0)], expected)


def test_stable_sort_of_bf16_keys_with_constant_f16_values():
    """``Sort([k bf16[6,2], Constant f16[6,2]], gt, 0, stable)`` compiles ("write affecting
    operations on global resources are restricted to workgroup distributed contexts")."""
    b = XlaBuilder("sort_bf16_f16")
    k = Parameter(b, 0, Shape.parse("bf16[6,2]"), "k")
    values = np.arange(12, dtype=np.float16).reshape(6, 2) - 5
    gt = CreateScalarGtComputation([PrimitiveType.BF16, PrimitiveType.F16])
    s = Sort([k, Constant(b, values)], gt, 0, True)
    comp = b.build(Tuple(b, [GetTupleElement(s, 0), GetTupleElement(s, 1)]))
    k0 = np.array([[1, 2], [3, 2], [1, -1], [3, 0], [-2, 2], [1, 5]], ml_dtypes.bfloat16)
    order = np.argsort(-k0.astype(np.float32), axis=0, kind="stable")
    expected = (np.take_along_axis(k0, order, 0), np.take_along_axis(values, order, 0))
    _strict_check(comp, [k0], expected)


def _sorted_by(keys: np.ndarray, axis: int, descending: bool = True) -> np.ndarray:
    """The stable order of ``keys`` along ``axis`` (numpy, in float64)."""
    k = keys.astype(np.float64)
    return np.argsort(-k if descending else k, axis=axis, kind="stable")


@pytest.mark.parametrize("passes", ["O0", "O2"])
def test_sort_of_one_parameter_twice(passes):
    """``Sort([p bf16[6,6], q f16[6,6], p], gt, 1, stable)`` compiles ("write affecting
    operations on global resources": one buffer sorted in place twice; fuzzer seed 20261124
    programs 413 and 968) and gives numpy's stable order."""
    b = XlaBuilder("sort_twice")
    p = Parameter(b, 0, Shape.parse("bf16[6,6]"), "p")
    q = Parameter(b, 1, Shape.parse("f16[6,6]"), "q")
    gt = CreateScalarGtComputation([PrimitiveType.BF16, PrimitiveType.F16, PrimitiveType.BF16])
    s = Sort([p, q, p], gt, 1, True)
    comp = b.build(Tuple(b, [GetTupleElement(s, 0), GetTupleElement(s, 1), GetTupleElement(s, 2)]))
    rng = np.random.default_rng(413)
    p0 = rng.integers(-3, 3, (6, 6)).astype(ml_dtypes.bfloat16)  # ties: the order is the stable one
    q0 = rng.standard_normal((6, 6)).astype(np.float16)
    order = _sorted_by(p0, 1)
    sorted_p = np.take_along_axis(p0, order, 1)
    expected = (sorted_p, np.take_along_axis(q0, order, 1), sorted_p)
    ours = oracle.run_iree(comp, p0, q0, passes=passes)
    oracle.assert_close(ours, expected, 0, 0, "hlo-mlir vs numpy")
    oracle.assert_close(oracle.run_xla(comp, p0, q0, strict=True), expected, 0, 0, "XLA vs numpy")


@pytest.mark.parametrize("dimension", [1, 2])
def test_sort_of_one_constant_three_times(dimension):
    """``Sort([c, c, c], lt, d, stable)`` of a constant s32[5,1,6] compiles (program 1865
    sorted along the unit dimension 1). XLA CPU without its algebraic simplifier aborts the
    process on this program (jaxlib 0.10.2), so numpy alone checks it."""
    b = XlaBuilder("sort_constant_thrice")
    table = np.ascontiguousarray((np.arange(30, dtype=np.int32).reshape(5, 1, 6) * 7 % 11)[:, :, ::-1])
    c = Constant(b, table)
    lt = CreateScalarLtComputation([PrimitiveType.S32] * 3)
    s = Sort([c, c, c], lt, dimension, True)
    comp = b.build(GetTupleElement(s, 2))
    oracle.assert_close(oracle.run_iree(comp), np.sort(table, axis=dimension), 0, 0, "hlo-mlir vs numpy")


def test_sort_of_one_broadcast_twice():
    """``Sort([broadcast(p f32[]), q bf16[1,2], broadcast(p)])`` compiles (program 2001)."""
    b = XlaBuilder("sort_broadcast_twice")
    p = Parameter(b, 0, Shape.parse("f32[]"), "p")
    q = Parameter(b, 1, Shape.parse("bf16[1,2]"), "q")
    wide = BroadcastInDim(p, [1, 2], [])
    gt = CreateScalarGtComputation([PrimitiveType.F32, PrimitiveType.BF16, PrimitiveType.F32])
    s = Sort([wide, q, wide], gt, 0, True)
    comp = b.build(Tuple(b, [GetTupleElement(s, 1), GetTupleElement(s, 2)]))
    q0 = np.array([[1.5, -2]], ml_dtypes.bfloat16)
    _strict_check(comp, [np.float32(-0.25), q0], (q0, np.full((1, 2), -0.25, np.float32)))


@pytest.mark.parametrize("of_constant", [True, False], ids=["constant", "parameter"])
def test_sort_of_pad(of_constant):
    """A sort of a pad compiles (IREE fused the pad into the sort's dispatch: "write
    affecting operations on global resources"; programs 671, 1015 and 1381)."""
    b = XlaBuilder("sort_pad")
    x0 = (np.arange(40, dtype=np.uint32) * 7 % 9).reshape(5, 8)
    x = Constant(b, x0) if of_constant else Parameter(b, 1, Shape.parse("u32[5,8]"), "x")
    fill = Parameter(b, 0, Shape.parse("u32[]"), "fill")
    padded = Pad(x, fill, [(-2, -2, 0), (2, 0, 1)])
    comp = b.build(Sort([padded], CreateScalarLtComputation([PrimitiveType.U32]), 1, False))
    wide = np.full((1, 17), 4, np.uint32)
    wide[0, 2::2] = x0[2]
    args = [np.uint32(4)] + ([] if of_constant else [x0])
    _strict_check(comp, args, np.sort(wide, axis=1))


def test_sort_of_a_conditional_and_its_branch_value():
    """``Sort([If(p, g, ...), g], gt, 0, stable)`` of a gather result ``g`` that the branches
    return compiles (program 209: IREE sorted ``g``'s buffer as both operands)."""
    b = XlaBuilder("sort_conditional")
    pred = Parameter(b, 0, Shape.parse("pred[]"), "pred")
    x = Parameter(b, 1, Shape.parse("s64[2,1,3]"), "x")
    g = Gather(x, Constant(b, np.int32([[2, -1, 2]])),
               GatherDimensionNumbers(offset_dims=(0, 2), collapsed_slice_dims=(2,), start_index_map=(2,),
                                      index_vector_dim=0), [2, 1, 1])
    then_b = XlaBuilder("then")
    then_c = then_b.build(Parameter(then_b, 0, Shape.parse("s64[2,3,1]"), "x"))
    else_b = XlaBuilder("else")
    else_x = Parameter(else_b, 0, Shape.parse("s64[2,3,1]"), "x")
    other = Constant(else_b, np.arange(6, dtype=np.int64).reshape(2, 3, 1))
    else_c = else_b.build(Select(Constant(else_b, np.bool_(True)), else_x, other))
    chosen = Conditional(pred, g, then_c, g, else_c)
    s = Sort([chosen, g], CreateScalarGtComputation([PrimitiveType.S64, PrimitiveType.S64]), 0, True)
    comp = b.build(GetTupleElement(s, 1))
    x0 = np.int64([[[5, -7, 2**62]], [[-1, 9, 3]]])
    g0 = x0[:, 0, [2, 0, 2]][:, :, None]  # the index -1 is clamped to 0
    for taken in (True, False):
        _strict_check(comp, [np.bool_(taken), x0], -np.sort(-g0, axis=0))


def test_sort_of_a_constant_and_its_empty_scatter():
    """``Sort([c, Scatter(c, i, u with no elements), ...], lt, 1, stable)`` compiles: the
    empty scatter is ``c`` (algsimp, rule empty_scatter), so ``c`` is sorted once (program 1865)."""
    b = XlaBuilder("sort_empty_scatter")
    table = np.ascontiguousarray((np.arange(30, dtype=np.int32).reshape(5, 1, 6) * 7 % 11)[:, :, ::-1])
    c = Constant(b, table)
    i = Parameter(b, 0, Shape.parse("s64[2,3,2]"), "i")
    u = Parameter(b, 1, Shape.parse("s32[2,3,0,2]"), "u")
    scattered = Scatter(c, i, u, _scalar_computation("s32", Add),
                        ScatterDimensionNumbers(update_window_dims=(0, 2), inserted_window_dims=(1,),
                                                scatter_dims_to_operand_dims=(1, 0), index_vector_dim=0))
    s = Sort([c, scattered, scattered], CreateScalarLtComputation([PrimitiveType.S32] * 3), 2, True)
    comp = b.build(GetTupleElement(s, 2))
    args = [np.zeros((2, 3, 2), np.int64), np.zeros((2, 3, 0, 2), np.int32)]
    _strict_check(comp, args, np.sort(table, axis=2))


def _contraction(kind: str, b: XlaBuilder):
    """A dot or convolution of small integers (exact in every type) and its numpy value."""
    if kind == "conv-bf16":
        # Program 1419: lhs [spatial, batch, feature], kernel [out, in, spatial], stride 2,
        # padding (0, 1): out[0, n, 0] = x[0, n, 0] * w[0, 0, 0] + x[1, n, 0] * w[0, 0, 1].
        x = Parameter(b, 0, Shape.parse("bf16[2,2,1]"), "x")
        w = Parameter(b, 1, Shape.parse("bf16[1,1,3]"), "w")
        dn = ConvolutionDimensionNumbers(input_batch_dimension=1, input_feature_dimension=2,
                                         input_spatial_dimensions=(0,), kernel_input_feature_dimension=1,
                                         kernel_output_feature_dimension=0, kernel_spatial_dimensions=(2,),
                                         output_batch_dimension=1, output_feature_dimension=0,
                                         output_spatial_dimensions=(2,))
        value = ConvGeneralDilated(x, w, [2], [(0, 1)], [1], [1], dn, 1, 1)
        x0 = np.array([[[1.5], [-2]], [[3], [0.5]]], ml_dtypes.bfloat16)
        w0 = np.array([[[2, 1, 4]]], ml_dtypes.bfloat16)
        xf, wf = x0.astype(np.float32), w0.astype(np.float32)
        expected = (xf[0, :, 0] * wf[0, 0, 0] + xf[1, :, 0] * wf[0, 0, 1]).reshape(1, 2, 1)
        return value, [x0, w0], expected
    dtype = {"dot-f32": np.float32, "dot-bf16": ml_dtypes.bfloat16}[kind]
    name = "f32" if kind == "dot-f32" else "bf16"
    x = Parameter(b, 0, Shape.parse(f"{name}[8,2]"), "x")
    y = Parameter(b, 1, Shape.parse(f"{name}[2,2]"), "y")
    value = Dot(x, y, preferred_element_type=PrimitiveType.F32)
    x0 = (np.arange(16, dtype=np.float32).reshape(8, 2) % 5 - 2).astype(dtype)
    y0 = np.array([[1.5, -2], [0.5, 3]], dtype)
    return value, [x0, y0], x0.astype(np.float32) @ y0.astype(np.float32)


@pytest.mark.parametrize("kind", ["dot-f32", "dot-bf16", "conv-bf16"])
@pytest.mark.parametrize("through", ["convert", "exp-transpose-complex"])
def test_complex_value_of_a_contraction(kind, through):
    """A complex value made from a dot or convolution result compiles (programs 388, 1419:
    IREE fused the complex consumer into the data-tiled matmul dispatch: "'vector.transfer_read'
    op requires valid padding vector elemental type"; fixed by complex-source-barriers)."""
    b = XlaBuilder("complex_of_contraction")
    value, args, expected = _contraction(kind, b)
    if through == "convert":
        comp = b.build(ConvertElementType(value, PrimitiveType.C64))
        _strict_check(comp, args, expected.astype(np.complex64))
        return
    # Element-wise and layout ops between the contraction and the complex value fuse too.
    rank = len(expected.shape)
    moved = Transpose(Exp(ConvertElementType(value, PrimitiveType.F32)), list(range(rank))[::-1])
    comp = b.build(Complex(moved, moved))
    e = np.exp(expected).transpose()
    _strict_check(comp, args, (e + 1j * e).astype(np.complex64), rtol=1e-6)


@pytest.mark.parametrize("source", ["constant", "convert"])
def test_complex_expression_of_constants(source):
    """A complex value computed from constants only, read by several expressions, compiles
    (program 479, ``Log(Sqrt(c64 constant))``: IREE's constant evaluator cannot hold the
    complex global the expressions read: "jit global source initialization order invalid";
    fixed by complex-source-barriers)."""
    b = XlaBuilder("complex_of_constants")
    re0 = np.float32([0.5, 4, -1, 2.25, -9, 1e-3])
    im0 = np.float32([-2.5, -5, -7.5, 0.5, 0, 3])
    if source == "constant":
        c0 = (re0 + 1j * im0).astype(np.complex64)
        value = Sqrt(Constant(b, c0))
    else:
        c0 = -re0.astype(np.complex64)
        value = Neg(ConvertElementType(Constant(b, re0), PrimitiveType.C64))
    comp = b.build(Log(value))
    expected = np.log(np.sqrt(c0) if source == "constant" else c0)
    _strict_check(comp, [], expected.astype(np.complex64), rtol=2e-6, atol=1e-7)


def _xla_pad(x: np.ndarray, fill, config) -> np.ndarray:
    """XLA's Pad: interior padding, then edge padding (negative edges crop)."""
    for axis, (low, high, interior) in enumerate(config):
        n = x.shape[axis]
        shape = list(x.shape)
        shape[axis] = max(n + (n - 1) * interior, 0)
        spread = np.full(shape, fill, x.dtype)
        index = [slice(None)] * x.ndim
        index[axis] = slice(None, None, interior + 1)
        spread[tuple(index)] = x
        edges = [(0, 0)] * x.ndim
        edges[axis] = (max(low, 0), max(high, 0))
        spread = np.pad(spread, edges, constant_values=fill)
        index[axis] = slice(max(-low, 0), spread.shape[axis] - max(-high, 0))
        x = spread[tuple(index)]
    return x


@pytest.mark.parametrize("slicer", ["pad", "slice", "dynamic-slice"])
def test_reverse_of_a_slice_of_unit_minor_dimension(slicer):
    """A reverse of a rank-3 slice that keeps one element of the minor dimension compiles
    (program 1601, ``Rev(Pad(x, v, negative padding))``: "LLVM Translation failed for
    operation: builtin.unrealized_conversion_cast"; fixed by reverse-slice-barrier)."""
    b = XlaBuilder("reverse_slice")
    x = Parameter(b, 0, Shape.parse("f32[2,3,2]"), "x")
    x0 = np.arange(12, dtype=np.float32).reshape(2, 3, 2) - 5
    if slicer == "pad":
        config = [(1, 2, 1), (-1, 2, 2), (1, -2, 0)]
        v = Parameter(b, 1, Shape.parse("f32[]"), "v")
        comp = b.build(Rev(Pad(x, v, config), [0, 1, 2]))
        args = [x0, np.float32(0.75)]
        kept = _xla_pad(x0, np.float32(0.75), config)
        _strict_check(comp, args, kept[::-1, ::-1, ::-1])
        return
    if slicer == "slice":
        kept_op = Slice(x, [0, 0, 1], [2, 3, 2])
        args = [x0]
    else:
        i = Parameter(b, 1, Shape.parse("s32[]"), "i")
        zero = ConstantR0(b, np.int32(0))
        kept_op = DynamicSlice(x, [zero, zero, i], [2, 3, 1])
        args = [x0, np.int32(1)]
    comp = b.build(Rev(kept_op, [0]))
    _strict_check(comp, args, x0[::-1, :, 1:2])


@pytest.mark.parametrize("passes", ["O0", "O2"])
def test_map_to_a_complex_constant(passes):
    """A map whose body converts a constant to c64 compiles: complex-source-barriers put a
    barrier inside the map body, which IREE cannot bufferize ("op was not bufferized";
    fuzzer seed 20261125 programs 353, 854, 1700)."""
    b = XlaBuilder("map_complex_constant")
    x = Parameter(b, 0, Shape.parse("s32[5,1]"), "x")
    body = XlaBuilder("body")
    Parameter(body, 0, Shape.parse("pred[]"), "p")
    to_complex = body.build(ConvertElementType(Constant(body, np.int32(-1588345348)), PrimitiveType.C64))
    comp = b.build(Transpose(Map(b, [Gt(x, x)], to_complex, [0, 1]), [1, 0]))
    expected = np.full((1, 5), np.complex64(-1588345348), np.complex64)
    ours = oracle.run_iree(comp, np.arange(5, dtype=np.int32).reshape(5, 1), passes=passes)
    oracle.assert_close(ours, expected, 0, 0, "hlo-mlir vs numpy")
    oracle.assert_close(oracle.run_xla(comp, np.arange(5, dtype=np.int32).reshape(5, 1), strict=True),
                        expected, 0, 0, "XLA vs numpy")


def test_sort_of_a_dynamic_slice_of_a_parameter():
    """``Sort(DynamicSlice(DynamicSlice(p, [i, j], [2, 1]), [k, k], [1, 1]))`` compiles: the
    sort wrote into a view of the parameter ("write affecting operations on global
    resources"; program 1840)."""
    b = XlaBuilder("sort_dynamic_slice")
    p = Parameter(b, 0, Shape.parse("f32[5,4]"), "p")
    i, j, k = (Parameter(b, n, Shape.parse("s8[]"), name) for n, name in ((1, "i"), (2, "j"), (3, "k")))
    window = DynamicSlice(DynamicSlice(p, [i, j], [2, 1]), [k, k], [1, 1])
    comp = b.build(Sort(window, CreateScalarLtComputation([PrimitiveType.F32]), 0, False))
    p0 = np.arange(20, dtype=np.float32).reshape(5, 4) * 1.5
    for i0, j0, k0 in [(0, 0, 0), (3, 2, 1), (9, 9, 9)]:
        r, c = min(i0, 3), min(j0, 3)
        expected = p0[r:r + 2, c:c + 1][min(k0, 1):min(k0, 1) + 1, 0:1]
        _strict_check(comp, [p0, np.int8(i0), np.int8(j0), np.int8(k0)], expected)


@pytest.mark.parametrize("passes", ["O0", "O2"])
def test_pad_of_an_empty_operand_read_twice(passes):
    """``p = Pad(x f16[1,2,0], v, ...)`` read by ``Rev`` and ``Reshape`` compiles: IREE made
    the pad of no elements an undistributed fill ("write affecting operations on global
    resources are restricted to workgroup distributed contexts"); algsimp's rule empty_pad
    makes it a broadcast of ``v`` (seed 20261125 program 1838), also at O0 (the empty-pad
    legalization)."""
    b = XlaBuilder("pad_of_empty_read_twice")
    x = Parameter(b, 0, Shape.parse("f16[1,2,0]"), "x")
    v = Parameter(b, 1, Shape.parse("f16[]"), "v")
    p = Pad(x, v, [(0, 2, 0), (0, 1, 2), (2, -1, 0)])
    comp = b.build(Tuple(b, [Rev(p, [1]), Reshape(p, [1, 5, 3])]))
    v0 = np.float16(-8.92)
    full = np.full((3, 5, 1), v0, np.float16)
    x0 = np.zeros((1, 2, 0), np.float16)
    oracle.assert_close(oracle.run_iree(comp, x0, v0, passes=passes), (full, full.reshape(1, 5, 3)), 0.0, 0.0,
                        f"hlo-mlir at {passes} vs numpy")
    _strict_check(comp, [x0, v0], (full, full.reshape(1, 5, 3)))


def test_dot_of_a_convert_read_elsewhere():
    """``c = ConvertElementType(x s32[2,3], F32)`` read by ``Dot(v, c)`` and a concatenate
    compiles: with data tiling IREE fused the convert into the matvec dispatch and stored it
    from there too (seed 20261125 program 606)."""
    b = XlaBuilder("dot_of_shared_convert")
    x = Parameter(b, 0, Shape.parse("s32[2,3]"), "x")
    v = Parameter(b, 1, Shape.parse("f32[2]"), "v")
    c = ConvertElementType(x, PrimitiveType.F32)
    comp = b.build(Tuple(b, [Dot(v, c), ConcatInDim(b, [c, c], 0)]))
    x0 = np.int32([[1, -2, 3], [4, 5, -6]])
    v0 = np.float32([0.5, -2])
    cf = x0.astype(np.float32)
    _strict_check(comp, [x0, v0], (v0 @ cf, np.concatenate([cf, cf], 0)))


def _max_window(x_shape: str, window, padding, gather_rows: bool = False):
    b = XlaBuilder("max_window")
    x = Parameter(b, 0, Shape.parse(x_shape), "x")
    i = Parameter(b, 1, Shape.parse("s8[]"), "i")
    j = Parameter(b, 2, Shape.parse("s8[]"), "j")
    column = DynamicSlice(x, [i, j], [2, 1])
    low = ConstantR0(b, np.int32(-2**31))
    comp = b.build(ConvertElementType(
        ReduceWindowWithGeneralPadding(column, low, _scalar_computation("s32", Max), window, [1, 1],
                                       [1, 1], [1, 1], padding), PrimitiveType.F32))
    return comp


@pytest.mark.parametrize("padding", [[(0, 1), (0, 0)], [(1, 0), (0, 0)]], ids=["postfix", "prefix"])
def test_scan_of_a_dynamic_slice_column(padding):
    """``ReduceWindow(DynamicSlice(x s32[3,4], [i, j], [2, 1]), max, window [2, 1])`` with
    the window's padding after (a postfix scan, which IREE reads backwards) compiles: IREE
    read the column slice with a vector.gather from a strided view ("LLVM Translation failed
    for operation: builtin.unrealized_conversion_cast"; seed 20261127 program 3071; fixed by
    reverse-slice-barrier)."""
    comp = _max_window("s32[3,4]", [2, 1], padding)
    x0 = np.int32([[-1, -1111751701, -1, -1530514860], [-2**31 + 1, 1372173874, -870077930, 5],
                   [-2**31, 1536751285, -2**31 + 1, -1]])
    for i0, j0 in [(0, 2), (-3, 7), (1, 1)]:
        r, c = min(max(i0, 0), 1), min(max(j0, 0), 3)
        col = x0[r:r + 2, c]
        if padding[0] == (0, 1):
            expected = np.array([max(col), col[1]])
        else:
            expected = np.array([col[0], max(col)])
        _strict_check(comp, [x0, np.int8(i0), np.int8(j0)], expected.astype(np.float32).reshape(2, 1))


@pytest.mark.parametrize("index_type", ["s16", "s32"])
def test_gather_of_a_strided_slice(index_type):
    """``Gather(Slice(x s32[8], [5:8:2]), i)`` (one element per index) compiles: IREE read
    the strided slice with a vector.gather it cannot lower ("LLVM Translation failed for
    operation: builtin.unrealized_conversion_cast"; seed 20261127 program 3737; fixed by
    reverse-slice-barrier)."""
    b = XlaBuilder("gather_strided_slice")
    x = Parameter(b, 0, Shape.parse("s32[8]"), "x")
    idx = Parameter(b, 1, Shape.parse(f"{index_type}[2,1,1]"), "idx")
    dn = GatherDimensionNumbers(offset_dims=(), collapsed_slice_dims=(0,), start_index_map=(0,),
                                index_vector_dim=2)
    comp = b.build(Gather(Slice(x, [5], [8], [2]), idx, dn, [1]))
    x0 = np.int32([7, 8, -4, -6, -5, -4, -6, -5])
    strided = x0[5:8:2]
    for i0 in ([[[1]], [[1]]], [[[0]], [[-3]]], [[[9]], [[0]]]):
        i = np.array(i0, np.dtype(index_type.replace("s", "int")))
        expected = strided[np.clip(i[..., 0], 0, 1)]
        _strict_check(comp, [x0, i], expected)


def test_reverse_of_a_rank1_strided_slice_and_a_rank2_dynamic_slice():
    """``Rev(Slice(x, [5:8:2]))`` and ``Rev(DynamicSlice(y s32[3,4], [i, j], [2, 1]))``
    compile (the same strided vector.gather as seed 20261127 programs 3071 and 3737)."""
    b = XlaBuilder("reverse_strided")
    x = Parameter(b, 0, Shape.parse("s32[8]"), "x")
    y = Parameter(b, 1, Shape.parse("s32[3,4]"), "y")
    i = Parameter(b, 2, Shape.parse("s32[]"), "i")
    comp = b.build(Tuple(b, [Rev(Slice(x, [5], [8], [2]), [0]), Rev(DynamicSlice(y, [i, i], [2, 1]), [0])]))
    x0 = np.arange(8, dtype=np.int32) * 3 - 7
    y0 = np.arange(12, dtype=np.int32).reshape(3, 4) - 4
    _strict_check(comp, [x0, y0, np.int32(1)], (x0[5:8:2][::-1], y0[1:3, 1:2][::-1]))


@pytest.mark.parametrize("taken", [True, False])
def test_sort_of_a_conditional_returning_one_pad_from_both_branches(taken):
    """``Sort(If(p, Pad(x, v, negative padding), same, same))`` compiles: IREE folded the
    conditional to the pad and fused the pad into the sort's dispatch ("write affecting
    operations on global resources"; seed 20261127 program 3014; inplace-operand-copy now
    sees through such a conditional)."""
    b = XlaBuilder("sort_conditional_pad")
    x = Parameter(b, 0, Shape.parse("f64[1,5,5]"), "x")
    v = Parameter(b, 1, Shape.parse("f64[]"), "v")
    p = Parameter(b, 2, Shape.parse("pred[]"), "p")
    config = [(0, 2, 0), (2, 1, 0), (-2, -2, 0)]
    padded = Pad(x, v, config)
    branches = []
    for name in ("then", "else"):
        bb = XlaBuilder(name)
        branches.append(bb.build(Parameter(bb, 0, Shape.parse("f64[3,8,1]"), "x")))
    chosen = Conditional(p, padded, branches[0], padded, branches[1])
    comp = b.build(Sort(chosen, CreateScalarGtComputation([PrimitiveType.F64]), 1, True))
    x0 = np.linspace(-4, 4, 25).reshape(1, 5, 5)
    v0 = np.float64(0.8884)
    expected = -np.sort(-_xla_pad(x0, v0, config), axis=1)
    _strict_check(comp, [x0, v0, np.bool_(taken)], expected)


@pytest.mark.parametrize("passes", ["O0", "O2"])
@pytest.mark.parametrize("trips", [0, 2])
def test_rank0_pad_by_a_loop_result(passes, trips):
    """``Pad(x f64[], While(...yields constant 3.0)[2], [])`` compiles and is ``x``: IREE
    failed ("maximum iteration count exceeded in fixed point pipeline") on the loop result
    as written by while-invariant-yields at 593fba3; algsimp's nop_pad drops the pad, which
    pads nothing (seed 20261127 program 3855)."""
    state = Shape.parse("(s32[], s32[], f64[])")
    cb = XlaBuilder("cond")
    cp = Parameter(cb, 0, state, "s")
    cond = cb.build(Lt(GetTupleElement(cp, 0), GetTupleElement(cp, 1)))
    bb = XlaBuilder("body")
    bp = Parameter(bb, 0, state, "s")
    step = Add(GetTupleElement(bp, 0), ConstantR0(bb, np.int32(1)))
    body = bb.build(Tuple(bb, [step, GetTupleElement(bp, 1), Constant(bb, np.float64(3.0))]))
    b = XlaBuilder("rank0_pad_of_loop")
    x = Parameter(b, 0, Shape.parse("f64[]"), "x")
    n = Parameter(b, 1, Shape.parse("s32[]"), "n")
    loop = While(cond, body, Tuple(b, [ConstantR0(b, np.int32(0)), n, x]))
    comp = b.build(Pad(x, GetTupleElement(loop, 2), []))
    args = [np.float64(-9.807672420206536), np.int32(trips)]
    oracle.assert_close(oracle.run_iree(comp, *args, passes=passes), args[0], 0, 0, "hlo-mlir vs numpy")
    oracle.assert_close(oracle.run_xla(comp, *args, strict=True), args[0], 0, 0, "XLA vs numpy")


@pytest.mark.parametrize("form", ["dot", "convolution", "fuzz-166"])
def test_contraction_selected_by_a_pred_constant(form):
    """``Select(constant pred[...], Sin(c), c)`` of a dot or convolution ``c`` compiles with
    data tiling: IREE packed the non-splat PRED constant beside the encoded matmul
    ("'linalg.pack' op expected padding_value has 'i8' but got: 'i1'"; seed 20261129
    program 166: the sine and the negative padding are not needed). contraction-pred-barrier
    now counts a non-splat PRED constant as a loaded PRED."""
    rng = np.random.default_rng(166)
    mask = np.array([True, False, True, True])
    b = XlaBuilder("contraction_pred_constant")
    if form == "dot":
        a0 = rng.integers(-4, 5, (4, 2)).astype(np.float32)
        v0 = rng.integers(-4, 5, (2,)).astype(np.float32)
        c = Dot(Parameter(b, 0, Shape.from_numpy(a0), "a"), Parameter(b, 1, Shape.from_numpy(v0), "v"))
        pred, args, c0 = mask, [a0, v0], a0 @ v0
    else:  # the finding's dimension numbers: x[spatial, feature, batch], out[feature, batch, spatial]
        x0 = rng.integers(-4, 5, (4, 2, 1)).astype(np.float32)
        k0 = rng.integers(-4, 5, (1, 1, 2)).astype(np.float32)
        dims = ConvolutionDimensionNumbers(
            input_batch_dimension=2, input_feature_dimension=1, input_spatial_dimensions=(0,),
            kernel_input_feature_dimension=2, kernel_output_feature_dimension=1,
            kernel_spatial_dimensions=(0,),
            output_batch_dimension=1, output_feature_dimension=0, output_spatial_dimensions=(2,))
        x = Parameter(b, 0, Shape.from_numpy(x0), "x")
        k = Parameter(b, 1, Shape.from_numpy(k0), "k")
        if form == "convolution":  # a 1-wide kernel: a matmul over the features per position
            c = ConvGeneralDilated(x, k, [1], [(0, 0)], [1], [1], dims, 1, 1)
            c0 = (x0[:, :, 0] @ k0[0, 0, :]).reshape(1, 1, 4)
        else:  # stride 2 over the 2-dilated input padded by (-1, 2) reads only padding
            c = ConvGeneralDilated(x, k, [2], [(-1, 2)], [2], [1], dims, 1, 1)
            c0 = np.zeros((1, 1, 4), np.float32)
        pred, args = mask.reshape(1, 1, 4), [x0, k0]
    comp = b.build(Select(Constant(b, pred), Sin(c), c))
    _strict_check(comp, args, np.where(pred, np.sin(c0), c0).astype(np.float32), 2e-7, 0.0)


_HALF = {"bf16": (ml_dtypes.bfloat16, PrimitiveType.BF16), "f16": (np.float16, PrimitiveType.F16)}


def _half_scalar_case(form: str, type_name: str):
    """(computation, x, expected): a bf16/f16 scalar computed from constants read as a scalar."""
    dtype, ptype = _HALF[type_name]
    b = XlaBuilder(f"half_scalar_{form}")
    computed = ConvertElementType(Neg(ConstantR0(b, np.float32(0.5))), ptype)  # -0.5, not folded by IREE
    if form == "reduce-init":  # the spine's reduce and argmax modules: bf16-scalar-rounding's integer code
        x0 = np.arange(6, dtype=np.float32).reshape(2, 3).astype(dtype)
        init = ConvertElementType(ConstantR0(b, np.float32(10.0)), ptype)
        x = Parameter(b, 0, Shape.from_numpy(x0), "x")
        root = Reduce(x, init, _scalar_computation(type_name, Add), [1])
        return b.build(root), x0, np.array([13, 22], dtype)
    x0 = np.array([1, -2, 3], dtype)
    x = Parameter(b, 0, Shape.from_numpy(x0), "x")
    if form == "pad-value":
        return b.build(Pad(x, computed, [(1, 0, 0)])), x0, np.array([-0.5, 1, -2, 3], dtype)
    if form == "clamp-bounds":
        high = ConvertElementType(Add(ConstantR0(b, np.float32(1.0)), ConstantR0(b, np.float32(1.0))), ptype)
        return b.build(Clamp(computed, x, high)), x0, np.array([1, -0.5, 2], dtype)
    # form == "reduce-of-constants": the padding value is a sum of a constant array
    total = Reduce(Constant(b, np.array([1, 2, 3, 4.5], dtype)), ConstantR0(b, dtype(0)),
                   _scalar_computation(type_name, Add), [0])
    return b.build(Pad(x, total, [(0, 1, 0)])), x0, np.array([1, -2, 3, 10.5], dtype)


@pytest.mark.parametrize(("form", "type_name"), [("reduce-init", "bf16"), ("pad-value", "bf16"),
                                                 ("pad-value", "f16"), ("clamp-bounds", "f16"),
                                                 ("reduce-of-constants", "bf16")])
def test_half_scalar_computed_from_constants_compiles_at_o0(form, type_name):
    """A bf16/f16 scalar computed from constants that IREE reads as a scalar (a reduce's init,
    a pad's value, a clamp's bounds) compiles without our optimization passes: IREE hoisted
    it into a scalar global its VM cannot load ("failed to legalize operation
    'util.initializer'"; the spine's reduce_bf16 and argmax_bf16 modules at passes="O0",
    whose init ``convert(constant f32) -> bf16`` bf16-scalar-rounding makes integer code).
    half-scalar-barrier computes it behind an optimization barrier."""
    comp, x0, expected = _half_scalar_case(form, type_name)
    oracle.assert_close(oracle.run_iree(comp, x0, passes="O0"), expected, 0, 0, "hlo-mlir vs numpy")
    oracle.assert_close(oracle.run_xla(comp, x0, strict=True), expected, 0, 0, "XLA vs numpy")


def _no_contraction_reduce_case(form: str):
    """(computation, args, expected): a ``dot_general`` without contracting dimensions (one
    product per result element) summed by a ``reduce`` over a batch and a free dimension."""
    rng = np.random.default_rng(48)
    b = XlaBuilder(f"no_contraction_{form}")
    if form == "fuzz-48":  # the finding: batch dimensions (0, 2) x (2, 1), a full reduce
        x0 = rng.integers(-4, 5, (1, 2, 2)).astype(np.float32)
        y0 = rng.integers(-4, 5, (1, 2, 1)).astype(np.float32)
        dims = DotDimensionNumbers((), (), (0, 2), (2, 1))
        product, axes = np.einsum("aib,jba->abij", x0, y0), [0, 1, 2, 3]
    else:  # batch dimension 0 x 0 in order, summed with the lhs free dimension
        x0 = rng.integers(-4, 5, (2, 3)).astype(np.float32)
        y0 = rng.integers(-4, 5, (2, 4)).astype(np.float32)
        dims = DotDimensionNumbers((), (), (0,), (0,))
        product, axes = np.einsum("ai,aj->aij", x0, y0), [0, 1]
    x = Parameter(b, 0, Shape.from_numpy(x0), "x")
    y = Parameter(b, 1, Shape.from_numpy(y0), "y")
    comp = b.build(Reduce(DotGeneral(x, y, dims), ConstantR0(b, np.float32(0)),
                          _scalar_computation("f32", Add), axes))
    return comp, [x0, y0], product.sum(axis=tuple(axes)).astype(np.float32)


@pytest.mark.parametrize("passes", [None, "O0"])
@pytest.mark.parametrize("form", ["fuzz-48", "batch-and-free"])
def test_reduce_of_a_dot_without_contracting_dimensions(form, passes):
    """A ``reduce`` over a batch and a free dimension of a ``dot_general`` that contracts no
    dimension compiles: IREE fused the two into one contraction it cannot vectorize
    ("'vector.contract' op invalid accumulator/result vector shape", seed 20261130 program
    48; with the batch dimensions in order, a SIGSEGV). dot-empty-contraction now rewrites
    such a dot as XLA's algebraic simplifier does: a multiply of broadcast operands."""
    comp, args, expected = _no_contraction_reduce_case(form)
    oracle.assert_close(oracle.run_iree(comp, *args, passes=passes), expected, 0, 0, "hlo-mlir vs numpy")
    oracle.assert_close(oracle.run_xla(comp, *args, strict=True), expected, 0, 0, "XLA vs numpy")


@pytest.mark.parametrize("passes", [None, "O0"])
def test_weighted_sum_over_a_broadcast_dimension(passes):
    """``sum(x * broadcast(w))`` over every dimension, ``w`` broadcast along the rows of
    ``x``, compiles: IREE fused the reduce and the multiply into a contraction over a
    dimension only ``x`` has ("'vector.contract' op invalid accumulator/result vector
    shape"). product-reduction-barrier reads the product through a barrier."""
    x0 = np.arange(6, dtype=np.float32).reshape(2, 3) - 2.5
    w0 = np.array([0.5, -1.0, 2.0], np.float32)
    b = XlaBuilder("weighted_sum")
    x = Parameter(b, 0, Shape.from_numpy(x0), "x")
    w = Parameter(b, 1, Shape.from_numpy(w0), "w")
    product = Mul(x, BroadcastInDim(w, [2, 3], [1]))
    comp = b.build(Reduce(product, ConstantR0(b, np.float32(0)), _scalar_computation("f32", Add), [0, 1]))
    expected = np.float32((x0 * w0).sum())
    oracle.assert_close(oracle.run_iree(comp, x0, w0, passes=passes), expected, 0, 0, "hlo-mlir vs numpy")
    oracle.assert_close(oracle.run_xla(comp, x0, w0, strict=True), expected, 0, 0, "XLA vs numpy")


_SPECIALS = [0.0, -0.0, np.inf, -np.inf, np.nan, 1.00390625, -3.0, 1e30]


@pytest.mark.parametrize(("operands", "result", "converted_first"), [
    ("f32", "f32", True), ("f32", "bf16", False), ("bf16", "f32", True), ("f64", "f32", False),
    ("s32", "f32", True), ("s8", "s32", True), ("s32", "s32", True),
    ("u8", "u32", True), ("c64", "c64", True), ("c64", "c128", True)])
def test_dot_without_contracting_dimensions_types(operands, result, converted_first):
    """A ``dot_general`` with no contracting dimensions is the product of its operands in
    XLA's computation type (XLA CPU's OperandUpcaster and ResultCaster): the operands are
    converted first when the result type has the higher precision (``s32 -> f32``: 16777217
    is 16777216 before the product), otherwise the product is rounded to the result
    (``f32 -> bf16``: 1.00390625^2 is 1.0078125 in XLA; the pinned IREE converted the
    operands first and gave 1). Specials: -0.0, inf and NaN products as XLA's multiply."""
    lshape, rshape = Shape.parse(f"{operands}[3,8]"), Shape.parse(f"{operands}[8,2]")
    rtype = Shape.parse(f"{result}[]").dtype
    if lshape.element_type.is_integer:
        info = np.iinfo(lshape.dtype)
        x0 = np.array([[info.min, info.max, 0, 1, -1, 3, 100, 16777217]] * 3).astype(lshape.dtype)
    else:
        parts = np.array([_SPECIALS, _SPECIALS[::-1], np.linspace(-2, 2, 8)], np.float32)
        x0 = (parts + 1j * np.roll(parts, 3, axis=1) if lshape.element_type.is_complex else parts)
        x0 = x0.astype(lshape.dtype)
    y0 = np.ascontiguousarray(x0[::-1].T[:, :2])
    b = XlaBuilder("no_contraction_types")
    x = Parameter(b, 0, lshape, "x")
    y = Parameter(b, 1, rshape, "y")
    # result[c, a, b] = x[a, c] * y[c, b]: batch dimension 1 x 0, free dimensions a and b
    comp = b.build(DotGeneral(x, y, DotDimensionNumbers((), (), (1,), (0,)),
                              preferred_element_type=rtype))
    ours = oracle.run_iree(comp, x0, y0)
    oracle.assert_close(ours, oracle.run_xla(comp, x0, y0), 0, 0, "hlo-mlir vs XLA")
    if not lshape.element_type.is_complex:  # numpy's complex product differs at infinities
        with np.errstate(all="ignore"):
            xt, yt = (x0.astype(rtype), y0.astype(rtype)) if converted_first else (x0, y0)
            expected = (xt.T[:, :, None] * yt[:, None, :]).astype(rtype)
        oracle.assert_close(ours, expected, 0, 0, "hlo-mlir vs numpy")
        # XLA CPU's complex dot adds the product to +0 ((-0)(1) is +0 there): not compared
        oracle.assert_close(oracle.run_xla(comp, x0, y0, strict=True), expected, 0, 0, "XLA strict vs numpy")


@pytest.mark.parametrize("dtype", ["f16", "f32"])
def test_dot_without_contraction_whose_batch_dimension_comes_last(dtype):
    """Fuzzer seed 9 program 144: ``dot_general(x f16[1,4,4], y f16[4])`` with batch
    dimensions 2 x 0 (result[b, i, j] = x[i, j, b] * y[b]) gave wrong numbers once
    dot-empty-contraction wrote it as a multiply of a permuting ``broadcast_in_dim`` (the
    pinned IREE miscompiles that broadcast, f32 too): the operand is transposed first."""
    x0 = np.random.default_rng(144).standard_normal((1, 4, 4)).astype(dtype.replace("f", "float"))
    y0 = np.random.default_rng(145).standard_normal(4).astype(x0.dtype)
    b = XlaBuilder("batch_last")
    x = Parameter(b, 0, Shape.parse(f"{dtype}[1,4,4]"), "x")
    y = Parameter(b, 1, Shape.parse(f"{dtype}[4]"), "y")
    comp = b.build(DotGeneral(x, y, DotDimensionNumbers((), (), (2,), (0,))))
    ours = oracle.run_iree(comp, x0, y0)
    expected = np.transpose(x0, (2, 0, 1)) * y0[:, None, None]
    oracle.assert_close(ours, expected, 0, 0, "hlo-mlir vs numpy")
    oracle.assert_close(ours, oracle.run_xla(comp, x0, y0), 0, 0, "hlo-mlir vs XLA")
