"""Sub-byte integers (s2, s4, u2, u4) end to end, bit for bit against XLA CPU (issue 12).

The pinned IREE cannot compile them (odd element counts: "does not have integral number of
total bytes"; element-wise ops: "failed to emulate bit width") and its runtime cannot take
or return them; ``widen-sub-byte-integers`` computes them in 8-bit integers with XLA's
wrap-around, and ``hlo_mlir.runtime`` converts ml_dtypes' int2/int4/uint2/uint4 arrays at
the ABI. Each module batches many cases (every compile costs about a second); element
counts are odd on purpose.

One difference from XLA CPU is deliberate: ``popcnt`` of a negative s2/s4 value. jaxlib
0.10.2 counts the bits of its 8-bit sign extension (``popcnt(s4 -8)`` gives 5, more bits than
an s4 has; its constant folder does the same for s2 while its compiled s2 code counts 2
bits), where the StableHLO spec counts the bits of the element: that is checked against a
numpy reference of the spec, and XLA only for non-negative values.
"""

from __future__ import annotations

import ml_dtypes
import numpy as np
import pytest

import hlo_mlir
from hlo_mlir import Add, CompileError, Parameter, Shape, XlaBuilder
from tests import oracle
from tests.oracle import DRIVER, TARGETS

TYPES = {"i4": ml_dtypes.int4, "ui4": ml_dtypes.uint4, "i2": ml_dtypes.int2, "ui2": ml_dtypes.uint2}
WIDTH = {"i4": 4, "ui4": 4, "i2": 2, "ui2": 2}


def _values(ty: str) -> np.ndarray:
    info = ml_dtypes.iinfo(TYPES[ty])
    return np.arange(int(info.min), int(info.max) + 1)


def _all_pairs(ty: str) -> tuple[np.ndarray, np.ndarray]:
    """Every (a, b) pair of the type's values, plus one more pair: an odd element count."""
    v = _values(ty)
    a, b = np.meshgrid(v, v, indexing="ij")
    a, b = np.append(a.ravel(), v[-1]), np.append(b.ravel(), v[0])
    return a.astype(TYPES[ty]), b.astype(TYPES[ty])


def _same_bits(actual, expected, what: str) -> None:
    actual, expected = np.asarray(actual), np.asarray(expected)
    assert actual.dtype == expected.dtype, f"{what}: dtype {actual.dtype} != {expected.dtype}"
    assert actual.shape == expected.shape, f"{what}: shape {actual.shape} != {expected.shape}"
    wide = np.int64 if actual.dtype != np.bool_ else np.bool_
    bad = np.flatnonzero(actual.astype(wide).ravel() != expected.astype(wide).ravel())
    assert bad.size == 0, (f"{what}: {bad.size} elements differ, first at {bad[:4].tolist()}: "
                           f"{actual.ravel()[bad[:4]].tolist()} != {expected.ravel()[bad[:4]].tolist()}")


def _compare_all(ours, theirs, names) -> None:
    assert len(ours) == len(theirs) == len(names)
    for o, t, name in zip(ours, theirs, names, strict=True):
        _same_bits(o, t, name)


_BINARY = ["add", "subtract", "multiply", "divide", "remainder", "maximum", "minimum", "and", "or", "xor",
           "shift_left", "shift_right_logical", "shift_right_arithmetic", "power"]
_FLOATS = np.array([np.nan, -np.nan, np.inf, -np.inf, 0.0, -0.0, 0.5, -0.5, 0.99, -0.99, 1.0, -1.0, 1.5,
                    -1.5, 2.5, -2.5, 3.0, -3.0, 7.0, -8.0, 7.9, -8.9, 8.0, -9.0, 15.0, 15.9, 16.0, 1e10,
                    -1e10, 3e38, -3e38], np.float32)
_INTS = np.array([-2**31, 2**31 - 1, -300, 300, -129, -128, 127, 128, 255, 256, -17, -16, -9, -8, -5, -3,
                  -2, -1, 0, 1, 2, 3, 4, 5, 7, 8, 15, 16, 17, 31, 33], np.int32)


def _elementwise_ops(ty: str, n: int) -> list[tuple[str, str, str]]:
    """(line, result, result type) of every element-wise op on ``%a``, ``%b`` (``n`` elements)."""
    t, p = f"tensor<{n}x{ty}>", f"tensor<{n}xi1>"
    ops = [(f"%{op} = stablehlo.{op} %a, %b : {t}", f"%{op}", t) for op in _BINARY]
    unary = ["negate", "not", "count_leading_zeros", "popcnt"]
    unary += ["abs", "sign"] if ty.startswith("i") else []
    ops += [(f"%{op} = stablehlo.{op} %a : {t}", f"%{op}", t) for op in unary]
    ops += [(f"%cmp{d} = stablehlo.compare {d}, %a, %b : ({t}, {t}) -> {p}", f"%cmp{d}", p)
            for d in ("LT", "EQ", "GE")]
    ops += [(f"%select = stablehlo.select %cmpLT, %a, %b : {p}, {t}", "%select", t),
            (f"%clamp = stablehlo.clamp %b, %a, %maximum : {t}", "%clamp", t)]
    return ops


def _convert_ops(ty: str, n: int) -> list[tuple[str, str, str]]:
    """Converts to ``ty`` from f32 ``%f``, s32 ``%s`` and u8 ``%u``; from ``ty`` (``%x``) to f32,
    s8, s32, u32 and to the other narrow types and back; bitcast_convert to the narrow type
    of the other signedness (``n`` elements)."""
    t = f"tensor<{n}x{ty}>"
    ops = [(f"%ff = stablehlo.convert %f : (tensor<{n}xf32>) -> {t}", "%ff", t),
           (f"%fs = stablehlo.convert %s : (tensor<{n}xi32>) -> {t}", "%fs", t),
           (f"%fu = stablehlo.convert %u : (tensor<{n}xui8>) -> {t}", "%fu", t)]
    for wide in ("f32", "i8", "i32", "ui32"):
        ops.append((f"%to_{wide} = stablehlo.convert %x : ({t}) -> tensor<{n}x{wide}>", f"%to_{wide}",
                    f"tensor<{n}x{wide}>"))
    for k, other in enumerate(o for o in TYPES if o != ty):
        o = f"tensor<{n}x{other}>"
        ops += [(f"%to{k} = stablehlo.convert %x : ({t}) -> {o}", f"%to{k}", o),
                (f"%from{k} = stablehlo.convert %to{k} : (tensor<{n}x{other}>) -> {t}", f"%from{k}", t)]
    flipped = ty[1:] if ty.startswith("u") else "u" + ty
    ops.append((f"%bits = stablehlo.bitcast_convert %x : ({t}) -> tensor<{n}x{flipped}>", "%bits",
                f"tensor<{n}x{flipped}>"))
    return ops


@pytest.mark.parametrize("ty, target", [(ty, "llvm-cpu") for ty in TYPES] + [
    pytest.param(ty, "vulkan-spirv", marks=pytest.mark.vulkan) for ty in ("i4", "ui2")])
def test_elementwise_and_converts_match_xla(ty, target):
    """Every element-wise op on every pair of values (division by zero, overflow, shifts by
    the width and beyond, negative amounts) and every convert (from f32: saturating, NaN ->
    0; from wider integers: wrapping) gives XLA CPU's bits; popcnt gives the spec's."""
    a, b = _all_pairs(ty)
    n, m = a.size, _FLOATS.size
    ops = _elementwise_ops(ty, n) + _convert_ops(ty, m)
    types = ", ".join(t for _, _, t in ops)
    body = "\n  ".join(line for line, _, _ in ops)
    text = f"""func.func @main(%a: tensor<{n}x{ty}>, %b: tensor<{n}x{ty}>, %f: tensor<{m}xf32>,
    %s: tensor<{m}xi32>, %u: tensor<{m}xui8>, %x: tensor<{m}x{ty}>) -> ({types}) {{
  {body}
  return {", ".join(r for _, r, _ in ops)} : {types}
}}"""
    x = np.resize(_values(ty), m).astype(TYPES[ty])
    args = (a, b, _FLOATS, _INTS, _INTS.astype(np.uint8), x)
    ours = oracle.run_iree(text, *args, target=target)
    theirs = list(oracle.run_xla(text, *args, strict=True))
    pattern = a.astype(np.int64) & ((1 << WIDTH[ty]) - 1)
    spec_popcnt = np.array([bin(int(v)).count("1") for v in pattern]).astype(TYPES[ty])
    i = [r for _, r, _ in ops].index("%popcnt")
    nonnegative = a.astype(np.int64) >= 0
    _same_bits(theirs[i][nonnegative], spec_popcnt[nonnegative], "XLA popcnt of x >= 0")
    theirs[i] = spec_popcnt
    _compare_all(ours, theirs, [r for _, r, _ in ops])


@pytest.mark.parametrize("target", TARGETS)
def test_s4_arithmetic_on_each_target(target):
    """The issue's reproducer, Add of s4[5], with overflow both ways, through the builder:
    parameters and the result are ml_dtypes int4 arrays."""
    b = XlaBuilder("add_s4")
    shape = Shape.parse("s4[5]")
    comp = b.build(Add(Parameter(b, 0, shape, "x"), Parameter(b, 1, shape, "y")))
    x = np.array([7, -8, 3, -1, 0], ml_dtypes.int4)
    y = np.array([1, -1, 4, -8, 0], ml_dtypes.int4)
    ours = oracle.run_iree(comp, x, y, target=target, driver=DRIVER[target])
    _same_bits(ours, oracle.run_xla(comp, x, y, strict=True), "add")
    _same_bits(ours, np.array([-8, 7, 7, 7, 0], ml_dtypes.int4), "add vs numpy")


def test_plain_iree_cannot_compile_sub_byte_integers():
    """Without the legalization the pinned IREE rejects an odd count of s4 (the defect)."""
    text = """func.func @main(%a: tensor<5xi4>) -> tensor<5xi4> {
  %0 = stablehlo.add %a, %a : tensor<5xi4>
  return %0 : tensor<5xi4>
}"""
    with pytest.raises(CompileError, match="integral number of total bytes"):
        hlo_mlir.compile(text, legalize=False)


@pytest.mark.parametrize("ty", ["i4", "ui4"])
def test_data_movement_reductions_and_dots_match_xla(ty):
    """Constants, iota, broadcast, reshape, transpose, slice, concatenate, pad, reverse,
    reduce (add and max), a dot_general into the narrow type and into s32, a tuple result:
    the narrow values pass through structure ops and wrap in reductions and products."""
    dt = TYPES[ty]
    v = _values(ty)
    lit = ", ".join(str(int(e)) for e in np.resize(v, 15))
    text = f"""func.func @main(%x: tensor<3x5x{ty}>, %y: tensor<5x3x{ty}>)
    -> (tensor<3x5x{ty}>, tensor<15x{ty}>,
    tensor<5x3x{ty}>, tensor<2x3x{ty}>, tensor<3x10x{ty}>, tensor<5x7x{ty}>, tensor<3x5x{ty}>, tensor<3x{ty}>,
    tensor<5x{ty}>, tensor<3x3x{ty}>, tuple<tensor<2x3x5x{ty}>, tensor<15x{ty}>>) {{
  %c = stablehlo.constant dense<[{lit}]> : tensor<15x{ty}>
  %cr = stablehlo.reshape %c : (tensor<15x{ty}>) -> tensor<3x5x{ty}>
  %sum = stablehlo.add %x, %cr : tensor<3x5x{ty}>
  %iota = stablehlo.iota dim = 0 : tensor<15x{ty}>
  %t = stablehlo.transpose %x, dims = [1, 0] : (tensor<3x5x{ty}>) -> tensor<5x3x{ty}>
  %s = stablehlo.slice %x [1:3, 0:5:2] : (tensor<3x5x{ty}>) -> tensor<2x3x{ty}>
  %cat = stablehlo.concatenate %x, %cr, dim = 1 : (tensor<3x5x{ty}>, tensor<3x5x{ty}>) -> tensor<3x10x{ty}>
  %zero = stablehlo.constant dense<1> : tensor<{ty}>
  %pad = stablehlo.pad %t, %zero, low = [0, 1], high = [0, 1], interior = [0, 1]
      : (tensor<5x3x{ty}>, tensor<{ty}>) -> tensor<5x7x{ty}>
  %rev = stablehlo.reverse %x, dims = [0, 1] : tensor<3x5x{ty}>
  %init = stablehlo.constant dense<0> : tensor<{ty}>
  %rsum = stablehlo.reduce(%x init: %init) applies stablehlo.add across dimensions = [1]
      : (tensor<3x5x{ty}>, tensor<{ty}>) -> tensor<3x{ty}>
  %rmax = stablehlo.reduce(%x init: %init) applies stablehlo.maximum across dimensions = [0]
      : (tensor<3x5x{ty}>, tensor<{ty}>) -> tensor<5x{ty}>
  %dot = stablehlo.dot_general %x, %y, contracting_dims = [1] x [0]
      : (tensor<3x5x{ty}>, tensor<5x3x{ty}>) -> tensor<3x3x{ty}>
  %b = stablehlo.broadcast_in_dim %x, dims = [1, 2] : (tensor<3x5x{ty}>) -> tensor<2x3x5x{ty}>
  %tup = stablehlo.tuple %b, %iota : tuple<tensor<2x3x5x{ty}>, tensor<15x{ty}>>
  return %sum, %iota, %t, %s, %cat, %pad, %rev, %rsum, %rmax, %dot, %tup
      : tensor<3x5x{ty}>, tensor<15x{ty}>, tensor<5x3x{ty}>, tensor<2x3x{ty}>, tensor<3x10x{ty}>,
        tensor<5x7x{ty}>, tensor<3x5x{ty}>, tensor<3x{ty}>, tensor<5x{ty}>, tensor<3x3x{ty}>,
        tuple<tensor<2x3x5x{ty}>, tensor<15x{ty}>>
}}"""
    x = np.resize(v[::-1], 15).reshape(3, 5).astype(dt)
    y = np.resize(v, 15).reshape(5, 3).astype(dt)
    ours = oracle.run_iree(text, x, y)
    theirs = oracle.run_xla(text, x, y, strict=True)
    names = ["add constant", "iota", "transpose", "slice", "concatenate", "pad", "reverse", "reduce add",
             "reduce max", "dot", "broadcast", "iota in tuple"]
    _compare_all(ours, theirs, names)
    wide = x.astype(np.int64) @ y.astype(np.int64)
    _same_bits(ours[9], wide.astype(dt), "dot vs numpy")


def test_dots_and_large_constants_match_numpy():
    """s4 x s4 -> s32 and u2 x u2 -> u2 products (against numpy: jaxlib 0.10.2's XLA CPU
    rejects both, "does not support custom element sizes on non-sub-byte types" and
    "unsupported operand type U2 in op dot"), and constants of more than 100 elements (which
    MLIR prints in hex) negated."""
    big_s4 = (np.arange(301) % 16 - 8).astype(ml_dtypes.int4)
    big_u2 = (np.arange(301) % 4).astype(ml_dtypes.uint2)
    s4_text = ", ".join(str(int(v)) for v in big_s4)
    u2_text = ", ".join(str(int(v)) for v in big_u2)
    text = f"""func.func @main(%x: tensor<3x5xi4>, %y: tensor<5x3xi4>, %p: tensor<3x5xui2>,
    %q: tensor<5x3xui2>)
    -> (tensor<3x3xi32>, tensor<3x3xui2>, tensor<301xi4>, tensor<301xui2>) {{
  %0 = stablehlo.dot_general %x, %y, contracting_dims = [1] x [0]
      : (tensor<3x5xi4>, tensor<5x3xi4>) -> tensor<3x3xi32>
  %1 = stablehlo.dot_general %p, %q, contracting_dims = [1] x [0]
      : (tensor<3x5xui2>, tensor<5x3xui2>) -> tensor<3x3xui2>
  %c = stablehlo.constant dense<[{s4_text}]> : tensor<301xi4>
  %d = stablehlo.constant dense<[{u2_text}]> : tensor<301xui2>
  %2 = stablehlo.negate %c : tensor<301xi4>
  %3 = stablehlo.negate %d : tensor<301xui2>
  return %0, %1, %2, %3 : tensor<3x3xi32>, tensor<3x3xui2>, tensor<301xi4>, tensor<301xui2>
}}"""
    x = np.resize(_values("i4"), 15).reshape(3, 5).astype(ml_dtypes.int4)
    y = np.resize(_values("i4")[::-1], 15).reshape(5, 3).astype(ml_dtypes.int4)
    p = np.resize(_values("ui2"), 15).reshape(3, 5).astype(ml_dtypes.uint2)
    q = np.resize(_values("ui2")[::-1], 15).reshape(5, 3).astype(ml_dtypes.uint2)
    wide, narrow, neg_s4, neg_u2 = oracle.run_iree(text, x, y, p, q)
    _same_bits(wide, (x.astype(np.int64) @ y.astype(np.int64)).astype(np.int32), "s4 dot into s32")
    _same_bits(narrow, ((p.astype(np.int64) @ q.astype(np.int64)) % 4).astype(ml_dtypes.uint2), "u2 dot")
    _same_bits(neg_s4, ((8 - big_s4.astype(np.int64)) % 16 - 8).astype(ml_dtypes.int4), "negated s4 constant")
    _same_bits(neg_u2, (-big_u2.astype(np.int64) % 4).astype(ml_dtypes.uint2), "negated u2 constant")


def test_runtime_rejects_wider_arrays_for_sub_byte_parameters():
    """A parameter of s4 takes int4 arrays only (an int8 array is a call error naming both)."""
    text = """func.func @main(%a: tensor<3xi4>) -> tensor<3xi4> {
  %0 = stablehlo.negate %a : tensor<3xi4>
  return %0 : tensor<3xi4>
}"""
    module = hlo_mlir.runtime.load(hlo_mlir.compile(text))
    assert str(module.main.signature) == "(s4[3]) -> (s4[3])"
    negated = module.main(np.array([-8, 7, 0], ml_dtypes.int4))
    _same_bits(negated, np.array([-8, -7, 0], ml_dtypes.int4), "negate")
    with pytest.raises(hlo_mlir.CallArgumentError, match=r"expected s4\[3\]; got s8\[3\]"):
        module.main(np.array([1, 2, 3], np.int8))


def test_while_loop_carries_and_wraps_s2():
    """A while loop whose s2 accumulator wraps on every trip (1 + 1 = -2 in s2) and whose
    s4 counter counts to 7: loop-carried values stay narrow."""
    text = """func.func @main(%x: tensor<3xi2>) -> (tensor<3xi2>, tensor<i4>) {
  %zero = stablehlo.constant dense<0> : tensor<i4>
  %one = stablehlo.constant dense<1> : tensor<i4>
  %n = stablehlo.constant dense<7> : tensor<i4>
  %r:2 = stablehlo.while(%acc = %x, %i = %zero) : tensor<3xi2>, tensor<i4>
  cond {
    %c = stablehlo.compare LT, %i, %n : (tensor<i4>, tensor<i4>) -> tensor<i1>
    stablehlo.return %c : tensor<i1>
  } do {
    %a = stablehlo.add %acc, %x : tensor<3xi2>
    %j = stablehlo.add %i, %one : tensor<i4>
    stablehlo.return %a, %j : tensor<3xi2>, tensor<i4>
  }
  return %r#0, %r#1 : tensor<3xi2>, tensor<i4>
}"""
    x = np.array([1, -2, -1], ml_dtypes.int2)
    ours = oracle.run_iree(text, x)
    theirs = oracle.run_xla(text, x, strict=True)
    _compare_all(ours, theirs, ["accumulator", "counter"])
    _same_bits(ours[0], np.array([0, 0, 0], ml_dtypes.int2), "8 x in s2")  # 8 * x wraps to 0


def test_packing_bitcasts_match_xla():
    """bitcast_convert between a B-bit type and B/W narrow elements (XLA's packing: a new minor
    dimension, little end first), both ways, from and to u8, s8, s32 and f32."""
    types = ("tensor<3x2xui4>, tensor<3xui8>, tensor<2x8xi4>, tensor<2xi8>, tensor<2x16xui2>, tensor<2xf32>, "
             "tensor<2x16xi2>")
    text = f"""func.func @main(%a: tensor<3xui8>, %b: tensor<3x2xi4>, %c: tensor<2xi32>, %d: tensor<2x4xui2>,
    %f: tensor<2xf32>, %g: tensor<2x8xui4>) -> ({types}) {{
  %0 = stablehlo.bitcast_convert %a : (tensor<3xui8>) -> tensor<3x2xui4>
  %1 = stablehlo.bitcast_convert %b : (tensor<3x2xi4>) -> tensor<3xui8>
  %2 = stablehlo.bitcast_convert %c : (tensor<2xi32>) -> tensor<2x8xi4>
  %3 = stablehlo.bitcast_convert %d : (tensor<2x4xui2>) -> tensor<2xi8>
  %4 = stablehlo.bitcast_convert %c : (tensor<2xi32>) -> tensor<2x16xui2>
  %5 = stablehlo.bitcast_convert %g : (tensor<2x8xui4>) -> tensor<2xf32>
  %6 = stablehlo.bitcast_convert %f : (tensor<2xf32>) -> tensor<2x16xi2>
  return %0, %1, %2, %3, %4, %5, %6 : {types}
}}"""
    args = (np.array([0x21, 0xF0, 0x7F], np.uint8), np.array([[1, 2], [-8, 7], [-1, 0]], ml_dtypes.int4),
            np.array([0x12345678, -2], np.int32), np.array([[1, 2, 3, 0], [3, 3, 3, 3]], ml_dtypes.uint2),
            np.array([1.5, -np.inf], np.float32),
            np.array([[1, 2, 3, 4, 5, 6, 7, 15], [0, 0, 0, 0, 0, 0, 8, 7]], ml_dtypes.uint4))
    ours = oracle.run_iree(text, *args)
    theirs = oracle.run_xla(text, *args, strict=True)
    floats = (ours[5].view(np.uint32), theirs[5].view(np.uint32))
    _compare_all([*ours[:5], floats[0], ours[6]], [*theirs[:5], floats[1], theirs[6]],
                 ["u8 -> u4", "s4 -> u8", "s32 -> s4", "u2 -> s8", "s32 -> u2", "u4 -> f32", "f32 -> s2"])
    _same_bits(ours[0], np.array([[1, 2], [0, 15], [15, 7]], ml_dtypes.uint4), "u8 -> u4 vs numpy")


def test_programs_of_constants_match_xla():
    """Arithmetic, shifts, division and converts of s4/u4 constants (what O2's constant
    folding and the widened constants compute) give XLA CPU's run-time bits."""
    types = ("tensor<5xi4>, tensor<5xi4>, tensor<5xui4>, tensor<5xi4>, tensor<5xi4>, tensor<5xf32>, "
             "tensor<5xi2>")
    text = f"""func.func @main() -> ({types}) {{
  %a = stablehlo.constant dense<[7, -8, 3, -1, 5]> : tensor<5xi4>
  %b = stablehlo.constant dense<[1, -1, 4, -7, 2]> : tensor<5xi4>
  %u = stablehlo.constant dense<[15, 0, 8, 7, 1]> : tensor<5xui4>
  %0 = stablehlo.add %a, %b : tensor<5xi4>
  %1 = stablehlo.multiply %a, %b : tensor<5xi4>
  %2 = stablehlo.shift_right_arithmetic %u, %u : tensor<5xui4>
  %3 = stablehlo.shift_left %a, %b : tensor<5xi4>
  %4 = stablehlo.divide %a, %b : tensor<5xi4>
  %5 = stablehlo.convert %1 : (tensor<5xi4>) -> tensor<5xf32>
  %6 = stablehlo.convert %u : (tensor<5xui4>) -> tensor<5xi2>
  return %0, %1, %2, %3, %4, %5, %6 : {types}
}}"""
    ours = oracle.run_iree(text)
    theirs = oracle.run_xla(text, opaque_constants=True)
    _compare_all(ours, theirs, ["add", "multiply", "shift_right_arithmetic u4", "shift_left", "divide",
                                "convert to f32", "convert u4 to s2"])


def test_hlo_run_value_specs_read_and_print_sub_byte_integers():
    """``hlo-run --input=5xi4=...`` reads integers in the type's range; results print as IREE does."""
    from hlo_mlir.tools.value_specs import InputSpecError, format_buffer_view, parse_value

    value = parse_value("5xi4=7,-8,0x3,0,-1")
    _same_bits(value, np.array([7, -8, 3, 0, -1], ml_dtypes.int4), "parsed")
    assert format_buffer_view(value) == "5xi4=7 -8 3 0 -1"
    assert format_buffer_view(np.array([[3, 0]], ml_dtypes.uint2)) == "1x2xui2=[3 0]"
    with pytest.raises(InputSpecError, match=r"value 4 is out of range for uint2 \[0, 3\]"):
        parse_value("2xui2=1,4")
