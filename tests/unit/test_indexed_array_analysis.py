"""indexed-array-analysis: XLA's indexed_array_analysis_test.cc cases as StableHLO modules
(the form of the returned value, printed in XLA's notation), every recognized form checked by
evaluating it (``evaluate``) against XLA CPU running the module, the pass's statistics and
printed lines, and hypothesis properties over generated gather modules: the module never
changes, the analysis never fails, and every form gives XLA's numbers."""

from __future__ import annotations

import logging

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import hlo_mlir
from hlo_mlir.shape import Shape
from pipelines.analyses.indexed_array_analysis import Unknown, analyze, evaluate, is_trivial, to_string
from pipelines.pipeline import run_pipeline
from tests.oracle import run_xla
from tests.properties import examples

_MLIR_TYPES = {"s32": "i32", "s64": "i64", "f32": "f32", "u8": "ui8", "pred": "i1"}


def ttype(shape: str) -> str:
    """``s32[3,4]`` -> ``tensor<3x4xi32>``."""
    s = Shape.parse(shape)
    et = _MLIR_TYPES[shape.split("[")[0]]
    return f"tensor<{''.join(f'{d}x' for d in s.dimensions)}{et}>"


def gather(out: str, operand: str, indices: str, shapes: dict, offset, collapsed, start, ivd, sizes) -> str:
    """One ``%out = stablehlo.gather`` line (shapes: SSA name -> XLA shape text)."""
    def ints(xs):
        return ", ".join(map(str, xs))
    return (f'%{out} = "stablehlo.gather"(%{operand}, %{indices}) {{dimension_numbers = #stablehlo.gather<'
            f"offset_dims = [{ints(offset)}], collapsed_slice_dims = [{ints(collapsed)}], "
            f"start_index_map = [{ints(start)}], index_vector_dim = {ivd}>, slice_sizes = array<i64: "
            f"{ints(sizes)}>}} : ({ttype(shapes[operand])}, {ttype(shapes[indices])}) -> "
            f"{ttype(shapes[out])}")


def constant(name: str, shape: str, values) -> str:
    array = np.asarray(values)
    text = np.array2string(array, separator=", ", threshold=10**6).replace("\n", "")
    if array.dtype == np.bool_:
        text = text.replace("True", "true").replace("False", "false")
    return f"%{name} = stablehlo.constant dense<{text}> : {ttype(shape)}"


def module(params: dict, lines: list[str], results: dict) -> str:
    """``func.func @main`` with ``params`` (name -> shape), the op ``lines`` and ``results``."""
    args = ", ".join(f"%{n}: {ttype(s)}" for n, s in params.items())
    rets = ", ".join(f"%{n}" for n in results)
    types = ", ".join(ttype(s) for s in results.values())
    body = "\n  ".join(lines)
    return f"func.func @main({args}) -> ({types}) {{\n  {body}\n  return {rets} : {types}\n}}"


def returned_arrays(text: str):
    m = hlo_mlir.compiler.as_module(text)
    arrays = analyze(m)
    main = m.body.operations[0]
    block = main.regions[0].blocks[0]
    terminator = list(block.operations)[-1]
    return m, arrays, [arrays[v] for v in terminator.operands]


def root_form(text: str, print_constants: bool = False) -> str:
    return to_string(returned_arrays(text)[2][0], print_constants)


def inputs(text: str, rng) -> list[np.ndarray]:
    """Random arguments for @main of ``text``: indices (integer types) partly out of range."""
    m = hlo_mlir.compiler.as_module(text)
    block = m.body.operations[0].regions[0].blocks[0]
    out = []
    for arg in block.arguments:
        s = Shape.from_mlir_type(arg.type)
        if s.dtype.kind in "iu":
            out.append(rng.integers(-2 if s.dtype.kind == "i" else 0, 7, s.dimensions).astype(s.dtype))
        else:
            out.append(rng.standard_normal(s.dimensions).astype(s.dtype))
    return out


def check_numbers(text: str, seed: int = 0) -> int:
    """Every non-trivial form among the returned values evaluates to XLA's value of it (leaves:
    the function's arguments and the other returned values). Returns how many were checked."""
    m, arrays, returned = returned_arrays(text)
    args = inputs(text, np.random.default_rng(seed))
    outs = run_xla(text, *args)
    outs = outs if isinstance(outs, tuple) else (outs,)
    block = m.body.operations[0].regions[0].blocks[0]
    terminator = list(block.operations)[-1]
    known = {}
    for i, arg in enumerate(block.arguments):
        known[arg] = args[i]
    for value, out in zip(terminator.operands, outs, strict=True):
        known[value] = out

    def leaf(u: Unknown):
        assert u.value in known, f"no value for leaf %{u.name}"
        return known[u.value]

    checked = 0
    for array, out in zip(returned, outs, strict=True):
        if is_trivial(array):
            continue
        got = evaluate(array, leaf)
        assert got.dtype == out.dtype and got.shape == out.shape, (to_string(array), got.shape, out.shape)
        np.testing.assert_array_equal(got, out, err_msg=to_string(array))
        checked += 1
    return checked


# --- XLA's indexed_array_analysis_test.cc -------------------------------------------------------
C33 = [[1, 2, 3], [1, 2, 3], [1, 2, 3]]
C34 = [[1, 2, 3, 4], [1, 3, 2, 4], [4, 3, 2, 1]]


def one_gather(operand_shape, indices_shape, out_shape, dims, operand_values=None):
    """``gather(operand, indices)`` with ``dims`` = (offset, collapsed, start, ivd, sizes);
    a constant operand when ``operand_values`` is given."""
    shapes = {"operand": operand_shape, "indices": indices_shape, "gather": out_shape}
    params = {"indices": indices_shape}
    lines = []
    if operand_values is None:
        params = {"operand": operand_shape, **params}
    else:
        lines.append(constant("operand", operand_shape, np.asarray(operand_values, np.int32)))
    lines.append(gather("gather", "operand", "indices", shapes, *dims))
    return module(params, lines, {"gather": out_shape})


ROWS = ([1], [0], [0], 1)  # offset_dims, collapsed_slice_dims, start_index_map, index_vector_dim


def test_simple_one_to_one_gather():
    text = one_gather("s32[3,3]", "s32[5]", "s32[5,3]", (*ROWS, [1, 3]))
    assert root_form(text) == "(scalar-indexed %arg0 %arg1 0->[0])"
    assert check_numbers(text) == 1


def test_simple_one_to_one_constant_gather():
    text = one_gather("s32[3,3]", "s32[5]", "s32[5,3]", (*ROWS, [1, 3]), C33)
    assert root_form(text) == "(scalar-indexed-const (constant s32[3,3]) %arg0 0->[0])"
    assert check_numbers(text) == 1


@pytest.mark.parametrize("case", [
    ("s32[3,3]", "s32[5,2]", "s32[5]", ([], [0, 1], [0, 1], 1, [1, 1])),  # GatherIsNotScalarIndexed0
    ("s32[3,3,1]", "s32[5]", "s32[5,3]", ([1], [0, 2], [0], 1, [1, 3, 1])),  # ...1
    ("s32[3,3,1]", "s32[5]", "s32[5,2,3]", ([1, 2], [2], [0], 1, [2, 3, 1])),  # ...2
    ("s32[3,3]", "s32[5]", "s32[5,2]", ([1], [0], [0], 1, [1, 2])),  # ...3
    ("s32[3,3]", "s32[5,1]", "s32[5,1,3]", ([1, 2], [], [0], 1, [1, 3])),  # nothing collapsed
])
def test_gather_is_not_scalar_indexed(case):
    operand, indices, out, dims = case
    assert root_form(one_gather(operand, indices, out, dims)) == "%gather"


def test_explicit_index_vector_of_one_is_scalar_indexed():
    """[extension] JAX's ``x[idx]``: indices s32[5,1], index_vector_dim 1."""
    text = one_gather("s32[3,4]", "s32[5,1]", "s32[5,4]", (*ROWS, [1, 4]), C34)
    assert root_form(text) == "(scalar-indexed-const (constant s32[3,4]) (reshape %arg0 to s32[5]) 0->[0])"
    assert check_numbers(text) == 1


def two_gathers(operand, a, b, ga, gb, dims_a, dims_b, operand_values=None):
    shapes = {"operand": operand, "indices_a": a, "indices_b": b, "gather_a": ga, "gather_b": gb}
    params = {"indices_a": a, "indices_b": b}
    lines = []
    if operand_values is None:
        params = {"operand": operand, **params}
    else:
        lines.append(constant("operand", operand, np.asarray(operand_values, np.int32)))
    lines += [gather("gather_a", "operand", "indices_a", shapes, *dims_a),
              gather("gather_b", "gather_a", "indices_b", shapes, *dims_b)]
    return module(params, lines, {"gather_b": gb, "gather_a": ga})


@pytest.mark.parametrize("case", [
    ("OneToOne", ("s32[3,3]", "s32[5]", "s32[2]", "s32[5,3]", "s32[2,3]", (*ROWS, [1, 3]), (*ROWS, [1, 3]),
                  C33),
     "(scalar-indexed-const (constant s32[3,3]) (scalar-indexed %arg0 %arg1 0->[0]) 0->[0])"),
    ("ManyToOneWithOneToOne", ("s32[3,2]", "s32[5,7]", "s32[2]", "s32[5,3,7]", "s32[5,3,2]",
                               ([1], [1], [1], 2, [3, 1]), ([0, 1], [2], [2], 1, [5, 3, 1])),
     "(scalar-indexed %arg0 (scalar-indexed %arg1 %arg2 1->[1]) 1->[0,2])"),
    ("OneToOneWithManyToOne", ("s32[3,6]", "s32[2]", "s32[5,7]", "s32[2,6]", "s32[5,6,7]",
                               (*ROWS, [1, 6]), ([1], [0], [0], 2, [1, 6])),
     "(scalar-indexed %arg0 (scalar-indexed %arg1 %arg2 0->[0,1]) 0->[0,2])"),
    ("ManyToOneWithManyToOne", ("s32[3,2]", "s32[5,7]", "s32[4,8]", "s32[5,3,7]", "s32[4,5,3,8]",
                                ([1], [1], [1], 2, [3, 1]), ([1, 2], [2], [2], 2, [5, 3, 1])),
     "(scalar-indexed %arg0 (scalar-indexed %arg1 %arg2 1->[0,2]) 1->[0,1,3])"),
], ids=lambda c: c if isinstance(c, str) else "")
def test_gather_of_gather(case):
    _, args, expected = case
    text = two_gathers(*args)
    assert root_form(text) == expected
    assert check_numbers(text) == 2


def reshape_of_gather(operand, indices, out, dims, reshaped, values):
    shapes = {"operand": operand, "indices": indices, "gather": out}
    lines = [constant("operand", operand, np.asarray(values, np.int32)),
             gather("gather", "operand", "indices", shapes, *dims),
             f"%reshape = stablehlo.reshape %gather : ({ttype(out)}) -> {ttype(reshaped)}"]
    return module({"indices": indices}, lines, {"reshape": reshaped})


@pytest.mark.parametrize("case", [
    ("0", ("s32[3,4]", "s32[5]", "s32[5,4]", (*ROWS, [1, 4]), "s32[5,2,2]"),
     "(scalar-indexed-const (constant s32[3,2,2]) %arg0 0->[0])"),
    ("1", ("s32[3,4]", "s32[5,7]", "s32[5,4,7]", ([1], [0], [0], 2, [1, 4]), "s32[5,2,2,7]"),
     "(scalar-indexed-const (constant s32[3,2,2]) %arg0 0->[0,3])"),
    ("2", ("s32[3,2,6]", "s32[5,7]", "s32[5,2,6,7]", ([1, 2], [0], [0], 2, [1, 2, 6]), "s32[5,3,4,7]"),
     "(scalar-indexed-const (constant s32[3,3,4]) %arg0 0->[0,3])"),
    ("3", ("s32[2,6]", "s32[1]", "s32[1,6]", (*ROWS, [1, 6]), "s32[1,1,6]"),
     "(scalar-indexed-const (constant s32[2,1,1,6]) (reshape %arg0 to s32[]) 0->[])"),
    ("5", ("s32[1,6]", "s32[1]", "s32[1,6]", (*ROWS, [1, 6]), "s32[1,1,6]"),
     "(scalar-indexed-const (constant s32[1,1,1,6]) (reshape %arg0 to s32[]) 0->[])"),
    ("6", ("s32[1,2,6]", "s32[1]", "s32[1,1,6]", ([1, 2], [1], [1], 1, [1, 1, 6]), "s32[1,1,1,6]"),
     "(scalar-indexed-const (constant s32[2,1,1,1,6]) (reshape %arg0 to s32[]) 0->[])"),
    ("7", ("s32[2,6]", "s32[1,5]", "s32[1,5,6]", ([2], [0], [0], 2, [1, 6]), "s32[1,1,5,6]"),
     "(scalar-indexed-const (constant s32[2,1,1,6]) (reshape %arg0 to s32[5]) 0->[2])"),
    ("NoFold0", ("s32[3,4]", "s32[5,6]", "s32[5,4,6]", ([1], [0], [0], 2, [1, 4]), "s32[5,2,2,2,3]"),
     "(reshape (scalar-indexed-const (constant s32[3,4]) %arg0 0->[0,2]) to s32[5,2,2,2,3])"),
    ("NoFold1", ("s32[3,5,2]", "s32[7]", "s32[3,2,7]", ([0, 1], [1], [1], 1, [3, 1, 2]), "s32[6,7]"),
     "(reshape (scalar-indexed-const (constant s32[3,5,2]) %arg0 1->[2]) to s32[6,7])"),
    ("NoFold2", ("s32[3,4,1]", "s32[5,6]", "s32[5,4,6,1]", ([1, 3], [0], [0], 2, [1, 4, 1]),
                 "s32[5,2,2,2,3,1]"),
     "(reshape (scalar-indexed-const (constant s32[3,4,1]) %arg0 0->[0,2]) to s32[5,2,2,2,3,1])"),
], ids=lambda c: c if isinstance(c, str) else "")
def test_reshape_of_gather(case):
    _, (operand, indices, out, dims, reshaped), expected = case
    rng = np.random.default_rng(1)
    values = rng.integers(-9, 9, Shape.parse(operand).dimensions)
    text = reshape_of_gather(operand, indices, out, dims, reshaped, values)
    assert root_form(text) == expected
    assert check_numbers(text) == 1


def test_reshape_of_gather_of_gather():
    """XLA ReshapeOfGather4: the degenerate dims of the gathered indices are reshaped away."""
    shapes = {"operand": "s32[2,3]", "i0": "s64[1,3]", "g0": "s32[1,3,3]", "i1": "s64[1]", "g1": "s32[1,1,3]"}
    lines = [constant("operand", "s32[2,3]", np.asarray([[1, 2, 3], [4, 5, 6]], np.int32)),
             gather("g0", "operand", "i0", shapes, [2], [0], [0], 2, [1, 3]),
             gather("g1", "g0", "i1", shapes, [0, 2], [1], [1], 1, [1, 1, 3]),
             f"%reshape = stablehlo.reshape %g1 : ({ttype('s32[1,1,3]')}) -> {ttype('s32[1,3]')}"]
    text = module({"i0": "s64[1,3]", "i1": "s64[1]"}, lines, {"reshape": "s32[1,3]"})
    assert root_form(text) == ("(scalar-indexed-const (constant s32[2,1,3]) "
                               "(reshape (scalar-indexed %arg0 %arg1 1->[1]) to s64[]) 0->[])")
    assert check_numbers(text) == 1


def elementwise_of_gather(op_line: str, extra: list[str], values=C34, dtype="s32", out=None):
    """``%r = op_line`` over ``%gather`` (f32 or s32[5,4], rows of a [3,4] constant)."""
    shapes = {"operand": f"{dtype}[3,4]", "indices": "s32[5]", "gather": f"{dtype}[5,4]"}
    np_dtype = np.float32 if dtype == "f32" else np.int32
    lines = [constant("operand", f"{dtype}[3,4]", np.asarray(values, np_dtype)), *extra,
             gather("gather", "operand", "indices", shapes, *ROWS, [1, 4]), op_line]
    return module({"indices": "s32[5]"}, lines, {"r": out or f"{dtype}[5,4]"})


T54 = ttype("s32[5,4]")
SCALAR5 = [constant("c", "s32[]", np.int32(5)),
           f"%b = stablehlo.broadcast_in_dim %c, dims = [] : ({ttype('s32[]')}) -> {T54}"]


@pytest.mark.parametrize("case", [
    ("AddBroadcastedScalarWithGather", f"%r = stablehlo.add %gather, %b : {T54}", SCALAR5,
     "{{6, 7, 8, 9}, {6, 8, 7, 9}, {9, 8, 7, 6}}"),
    ("SubtractBroadcastedScalarWithGather_GatherIsLhs", f"%r = stablehlo.subtract %gather, %b : {T54}",
     SCALAR5,
     "{{-4, -3, -2, -1}, {-4, -2, -3, -1}, {-1, -2, -3, -4}}"),
    ("SubtractBroadcastedScalarWithGather_GatherIsRhs", f"%r = stablehlo.subtract %b, %gather : {T54}",
     SCALAR5,
     "{{4, 3, 2, 1}, {4, 2, 3, 1}, {1, 2, 3, 4}}"),
    ("AddBroadcastedVectorWithGather", f"%r = stablehlo.add %gather, %b : {T54}",
     [constant("c", "s32[4]", np.int32([10, 11, 12, 13])),
      f"%b = stablehlo.broadcast_in_dim %c, dims = [1] : ({ttype('s32[4]')}) -> {T54}"],
     "{{11, 13, 15, 17}, {11, 14, 14, 17}, {14, 14, 14, 14}}"),
    ("[extension] splat constant", f"%r = stablehlo.add %gather, %b : {T54}",
     [f"%b = stablehlo.constant dense<5> : {T54}"], "{{6, 7, 8, 9}, {6, 8, 7, 9}, {9, 8, 7, 6}}"),
    ("[extension] negate", f"%r = stablehlo.negate %gather : {T54}", [],
     "{{-1, -2, -3, -4}, {-1, -3, -2, -4}, {-4, -3, -2, -1}}"),
], ids=lambda c: c if isinstance(c, str) else "")
def test_elementwise_op_of_gather_folds_into_the_constant(case):
    _, op_line, extra, literal = case
    text = elementwise_of_gather(op_line, extra)
    expected = f"(scalar-indexed-const (constant s32[3,4] {literal}) %arg0 0->[0])"
    assert root_form(text, print_constants=True) == expected
    assert check_numbers(text) == 1


def test_unary_op_of_float_gather_folds_where_exact():
    """XLA UnaryOpOfGather folds tanh; here only exact folds (sqrt, not tanh: libm differs)."""
    sqrt = elementwise_of_gather(f"%r = stablehlo.sqrt %gather : {ttype('f32[5,4]')}", [], dtype="f32")
    assert root_form(sqrt).startswith("(scalar-indexed-const (constant f32[3,4]) %arg0 0->[0])")
    assert check_numbers(sqrt) == 1
    tanh = elementwise_of_gather(f"%r = stablehlo.tanh %gather : {ttype('f32[5,4]')}", [], dtype="f32")
    assert root_form(tanh) == "%tanh"


@pytest.mark.parametrize("extra", [
    [constant("c", "s32[5]", np.int32([10, 11, 12, 13, 14])),
     f"%b = stablehlo.broadcast_in_dim %c, dims = [0] : ({ttype('s32[5]')}) -> {T54}"],  # XLA's _Negative
    [f"%b = stablehlo.constant dense<{np.arange(20).reshape(5, 4).tolist()}> : {T54}"],  # varies along dim 0
])
def test_add_of_value_varying_along_the_output_dim_is_unknown(extra):
    assert root_form(elementwise_of_gather(f"%r = stablehlo.add %gather, %b : {T54}", extra)) == "%add"


def test_regular_ops_are_unknown():
    """XLA RegularUnaryOp, RegularBinaryOp."""
    t = ttype("f32[100]")
    text = module({"a": "f32[100]", "b": "f32[100]"},
                  [f"%t = stablehlo.tanh %a : {t}", f"%s = stablehlo.add %a, %b : {t}"],
                  {"t": "f32[100]", "s": "f32[100]"})
    assert [to_string(a) for a in returned_arrays(text)[2]] == ["%tanh", "%add"]


def dot_of_gather(gathered, dims, other, other_values, gather_out, out, dot_dims, gather_on_left=True,
                  idx="s32[5]"):
    """``dot_general`` of a gather from ``gathered`` (values 1, 2, ...) and a constant."""
    g_values = np.arange(1, 1 + np.prod(Shape.parse(gathered).dimensions)).reshape(
        Shape.parse(gathered).dimensions)
    shapes = {"operand": gathered, "indices": idx, "gather": gather_out}
    lines = [constant("operand", gathered, g_values.astype(np.int32)),
             constant("other", other, np.asarray(other_values, np.int32)),
             gather("gather", "operand", "indices", shapes, *dims)]
    lhs, rhs = ("gather", "other") if gather_on_left else ("other", "gather")
    lt, rt = (gather_out, other) if gather_on_left else (other, gather_out)
    lines.append(f"%dot = stablehlo.dot_general %{lhs}, %{rhs}, {dot_dims} : "
                 f"({ttype(lt)}, {ttype(rt)}) -> {ttype(out)}")
    return module({"indices": idx}, lines, {"dot": out})


M43 = [[1, 2, 3], [4, 5, 6], [7, 8, 9], [10, 11, 12]]


@pytest.mark.parametrize("case", [
    # XLA DotOpBasic_0
    (("s32[3,4]", (*ROWS, [1, 4]), "s32[4,3]", M43, "s32[5,4]", "s32[5,3]",
      "contracting_dims = [1] x [0]"),
     "(scalar-indexed-const (constant s32[3,3] {{70, 80, 90}, {158, 184, 210}, {246, 288, 330}}) "
     "%arg0 0->[0])"),
    # XLA DotOpBasic_1 (XLA's test expects 0->[1]: the result's dim 0 is the gathered one)
    (("s32[3,4]", ([0], [1], [1], 1, [3, 1]), "s32[3,3]", [[1, 2, 3], [4, 5, 6], [7, 8, 9]], "s32[3,5]",
      "s32[5,3]", "contracting_dims = [0] x [0]"),
     "(scalar-indexed-const (constant s32[4,3] {{84, 99, 114}, {96, 114, 132}, {108, 129, 150}, "
     "{120, 144, 168}}) %arg0 0->[0])"),
], ids=["DotOpBasic_0", "DotOpBasic_1"])
def test_dot_with_gathered_lhs(case):
    args, expected = case
    text = dot_of_gather(*args)
    assert root_form(text, print_constants=True) == expected
    assert check_numbers(text) == 1


@pytest.mark.parametrize("case", [
    # XLA DotOpBasic_2
    (("s32[3,4]", ([0], [1], [1], 1, [3, 1]), "s32[4,3]", M43, "s32[3,5]", "s32[4,5]",
      "contracting_dims = [1] x [0]", False),
     "(scalar-indexed-const (constant s32[4,4] {{38, 44, 50, 56}, {83, 98, 113, 128}, {128, 152, 176, 200}, "
     "{173, 206, 239, 272}}) %arg0 1->[1])"),
    # XLA DotOpBasic_3 (XLA's test expects 1->[0]: the result's dim 1 is the gathered one)
    (("s32[4,3]", (*ROWS, [1, 3]), "s32[4,3]", M43, "s32[5,3]", "s32[4,5]",
      "contracting_dims = [1] x [1]", False),
     "(scalar-indexed-const (constant s32[4,4] {{14, 32, 50, 68}, {32, 77, 122, 167}, {50, 122, 194, 266}, "
     "{68, 167, 266, 365}}) %arg0 1->[1])"),
    # XLA DotOpWithBatch (XLA's test expects 3->[2], a source dim the rank-3 constant lacks)
    (("s32[2,3,2]", ([0, 1], [2], [2], 1, [2, 3, 1]), "s32[2,2,3]",
      [[[1, 2, 3], [4, 5, 6]], [[7, 8, 9], [10, 11, 12]]], "s32[2,3,4]", "s32[2,2,4]",
      "batching_dims = [0] x [0], contracting_dims = [2] x [1]", False, "s32[4]"),
     "(scalar-indexed-const (constant s32[2,2,2] {{{22, 28}, {49, 64}}, {{220, 244}, {301, 334}}}) "
     "%arg0 2->[2])"),
], ids=["DotOpBasic_2", "DotOpBasic_3", "DotOpWithBatch"])
def test_dot_with_gathered_rhs(case):
    args, expected = case
    text = dot_of_gather(*args)
    assert root_form(text, print_constants=True) == expected
    assert check_numbers(text) == 1


def test_dot_negative():
    """XLA DotOpNegative: the gathered dim is contracted."""
    text = dot_of_gather("s32[3,4]", ([0], [1], [1], 1, [3, 1]), "s32[2,3]", [[1, 2, 3], [4, 5, 6]],
                         "s32[3,2]", "s32[3,3]", "contracting_dims = [1] x [0]", idx="s32[2]")
    assert root_form(text) == "%dot_general"


def transpose_of_gather(perm, constant_source: bool) -> str:
    """``transpose(gather(s32[2,3,4] rows of dim 1, s32[5]), perm)``."""
    shapes = {"operand": "s32[2,3,4]", "indices": "s32[5]", "gather": "s32[5,2,4]"}
    out = [[5, 2, 4][p] for p in perm]
    out_shape = f"s32[{','.join(map(str, out))}]"
    lines = [gather("gather", "operand", "indices", shapes, [1, 2], [1], [1], 1, [2, 1, 4]),
             f"%t = stablehlo.transpose %gather, dims = {perm} : ({ttype('s32[5,2,4]')}) -> "
             f"{ttype(out_shape)}"]
    params = {"indices": "s32[5]"}
    if constant_source:
        lines.insert(0, constant("operand", "s32[2,3,4]", np.arange(24, dtype=np.int32).reshape(2, 3, 4)))
    else:
        params = {"operand": "s32[2,3,4]", **params}
    return module(params, lines, {"t": out_shape})


@pytest.mark.parametrize("perm, constant_source, expected", [
    ([1, 0, 2], False, "(scalar-indexed %arg0 %arg1 1->[1])"),  # the source keeps its order
    ([1, 2, 0], False, "(scalar-indexed %arg0 %arg1 1->[2])"),
    ([0, 2, 1], True, "(scalar-indexed-const (constant s32[4,3,2]) %arg0 1->[0])"),  # a transposed constant
    ([0, 1, 2], True, "(scalar-indexed-const (constant s32[2,3,4]) %arg0 1->[0])"),
])
def test_transpose_of_gather(perm, constant_source, expected):
    """[extension] a transpose moves the gathered dim; a constant source is transposed."""
    text = transpose_of_gather(perm, constant_source)
    assert root_form(text) == expected
    assert check_numbers(text) == 1


def test_transpose_of_gather_that_needs_a_transposed_parameter_is_unknown():
    assert root_form(transpose_of_gather([0, 2, 1], False)) == "%transpose"


def test_transpose_that_reorders_the_indices_dims_is_unknown():
    shapes = {"operand": "s32[3,4]", "indices": "s32[2,5]", "gather": "s32[2,5,4]"}
    lines = [gather("gather", "operand", "indices", shapes, [2], [0], [0], 2, [1, 4]),
             f"%t = stablehlo.transpose %gather, dims = [1, 0, 2] : ({ttype('s32[2,5,4]')}) -> "
             f"{ttype('s32[5,2,4]')}"]
    text = module({"operand": "s32[3,4]", "indices": "s32[2,5]"}, lines, {"t": "s32[5,2,4]"})
    assert root_form(text) == "%transpose"


# --- the pass -----------------------------------------------------------------------------------
def test_pass_counts_prints_and_changes_nothing(capsys):
    text = reshape_of_gather("s32[3,4]", "s32[5,6]", "s32[5,4,6]", ([1], [0], [0], 2, [1, 4]),
                             "s32[5,2,2,2,3]", np.zeros((3, 4), np.int32))
    m = hlo_mlir.compiler.as_module(text)
    before = m.operation.get_asm()
    result = run_pipeline(m, "indexed-array-analysis{print=true}")
    assert m.operation.get_asm() == before
    counts = dict(result.statistics()["indexed-array-analysis"])
    assert counts == {"scalar-indexed-constant": 1, "reshaped": 1}
    assert capsys.readouterr().err.splitlines() == [
        "%gather = (scalar-indexed-const (constant s32[3,4]) %arg0 0->[0,2])",
        "%reshape = (reshape (scalar-indexed-const (constant s32[3,4]) %arg0 0->[0,2]) to s32[5,2,2,2,3])"]


def test_pass_logs_at_debug_and_is_silent_otherwise(capsys, caplog):
    text = one_gather("s32[3,3]", "s32[5]", "s32[5,3]", (*ROWS, [1, 3]), C33)
    run_pipeline(hlo_mlir.compiler.as_module(text), "indexed-array-analysis")
    assert capsys.readouterr().err == "" and "scalar-indexed" not in caplog.text
    with caplog.at_level(logging.DEBUG, logger="hlo_mlir.pipelines"):
        run_pipeline(hlo_mlir.compiler.as_module(text), "indexed-array-analysis")
    assert "%gather = (scalar-indexed-const (constant s32[3,3]) %arg0 0->[0])" in caplog.text


# --- properties ---------------------------------------------------------------------------------
@st.composite
def gather_modules(draw):
    """A chain from a parameter or a constant (each dim <= 4) of gathers (some with an explicit
    index vector dim), reshapes, transposes, negates, element-wise ops with broadcast constants
    and dots with constants; every value is returned."""
    rank = draw(st.integers(1, 3))
    dims = draw(st.lists(st.integers(1, 4), min_size=rank, max_size=rank))
    dtype = draw(st.sampled_from(["s32", "f32"]))
    np_dtype = np.int32 if dtype == "s32" else np.float32
    shapes, params, lines, n = {}, {}, [], [0]

    def fresh(prefix):
        n[0] += 1
        return f"{prefix}{n[0]}"

    def shape_of(ds, t=dtype):
        return f"{t}[{','.join(map(str, ds))}]"

    src = fresh("src")
    shapes[src] = shape_of(dims)
    if draw(st.booleans()):
        lines.append(constant(src, shapes[src], np.asarray(
            draw(st.lists(st.integers(-5, 5), min_size=int(np.prod(dims)), max_size=int(np.prod(dims)))),
            np_dtype).reshape(dims)))
    else:
        params[src] = shapes[src]
    cur, cur_dims = src, list(dims)
    for _ in range(draw(st.integers(1, 4))):
        kind = draw(st.sampled_from(["gather", "gather", "reshape", "transpose", "add", "negate", "dot"]))
        out = fresh("v")
        if kind == "gather" and cur_dims:
            sd = draw(st.integers(0, len(cur_dims) - 1))
            idx_rank = draw(st.integers(0, 2))
            idx_dims = draw(st.lists(st.integers(1, 3), min_size=idx_rank, max_size=idx_rank))
            explicit = draw(st.booleans())
            idx = fresh("idx")
            params[idx] = shape_of(idx_dims + [1] if explicit else idx_dims, "s32")
            shapes[idx] = params[idx]
            kept = [d for i, d in enumerate(cur_dims) if i != sd]
            positions = sorted(draw(st.permutations(range(len(kept) + idx_rank)))[:idx_rank])
            out_dims, k_it, i_it = [], iter(kept), iter(idx_dims)
            for p in range(len(kept) + idx_rank):
                out_dims.append(next(i_it) if p in positions else next(k_it))
            offset = [p for p in range(len(out_dims)) if p not in positions]
            sizes = [1 if i == sd else d for i, d in enumerate(cur_dims)]
            shapes[out] = shape_of(out_dims)
            lines.append(gather(out, cur, idx, shapes, offset, [sd], [sd], idx_rank, sizes))
            cur_dims = out_dims
        elif kind == "reshape":
            size = int(np.prod(cur_dims))
            factors = [f for f in range(1, size + 1) if size % f == 0]
            a = draw(st.sampled_from(factors))
            b = draw(st.sampled_from([f for f in factors if (size // a) % f == 0]))
            new = [d for d in (a, b, size // a // b) if draw(st.booleans()) or d != 1] or [size]
            if int(np.prod(new)) != size:
                new = [size]
            shapes[out] = shape_of(new)
            lines.append(f"%{out} = stablehlo.reshape %{cur} : ({ttype(shapes[cur])}) -> "
                         f"{ttype(shapes[out])}")
            cur_dims = new
        elif kind == "transpose":
            perm = draw(st.permutations(range(len(cur_dims))))
            new = [cur_dims[p] for p in perm]
            shapes[out] = shape_of(new)
            lines.append(f"%{out} = stablehlo.transpose %{cur}, dims = {list(perm)} : "
                         f"({ttype(shapes[cur])}) -> {ttype(shapes[out])}")
            cur_dims = new
        elif kind == "add":
            c, b = fresh("c"), fresh("b")
            bdims = sorted(draw(st.sets(st.integers(0, max(len(cur_dims) - 1, 0)), max_size=len(cur_dims)))) \
                if cur_dims else []
            cdims = [cur_dims[d] for d in bdims]
            cshape, count = shape_of(cdims), int(np.prod(cdims))
            values = np.asarray(draw(st.lists(st.integers(-3, 3), min_size=count, max_size=count)), np_dtype)
            lines.append(constant(c, cshape, values.reshape(cdims)))
            shapes[out] = shape_of(cur_dims)
            lines.append(f"%{b} = stablehlo.broadcast_in_dim %{c}, dims = {bdims} : ({ttype(cshape)}) -> "
                         f"{ttype(shapes[out])}")
            lhs, rhs = (cur, b) if draw(st.booleans()) else (b, cur)
            op = draw(st.sampled_from(["add", "subtract", "multiply", "maximum"]))
            lines.append(f"%{out} = stablehlo.{op} %{lhs}, %{rhs} : {ttype(shapes[out])}")
        elif kind == "dot" and cur_dims:
            c, m = fresh("c"), draw(st.integers(1, 3))
            k = draw(st.integers(0, len(cur_dims) - 1))
            free = [d for i, d in enumerate(cur_dims) if i != k]
            on_left = draw(st.booleans())
            cdims = [cur_dims[k], m] if on_left else [m, cur_dims[k]]
            values = np.asarray(draw(st.lists(st.integers(-3, 3), min_size=cur_dims[k] * m,
                                              max_size=cur_dims[k] * m)), np_dtype).reshape(cdims)
            lines.append(constant(c, shape_of(cdims), values))
            new = free + [m] if on_left else [m] + free
            shapes[out] = shape_of(new)
            operands, contracting = ((cur, c), f"[{k}] x [0]") if on_left else ((c, cur), f"[1] x [{k}]")
            types = (ttype(shapes[cur]), ttype(shape_of(cdims)))
            lines.append(f"%{out} = stablehlo.dot_general %{operands[0]}, %{operands[1]}, contracting_dims = "
                         f"{contracting} : ({', '.join(types if on_left else types[::-1])}) -> "
                         f"{ttype(shapes[out])}")
            cur_dims = new
        else:
            shapes[out] = shape_of(cur_dims)
            lines.append(f"%{out} = stablehlo.negate %{cur} : {ttype(shapes[out])}")
        cur = out
    results = {v: shapes[v] for v in shapes if v.startswith("v")}
    return module(params, lines, results)


@st.composite
def dot_modules(draw):
    """``dot_general`` of rows or columns of an s32 constant (gathered by s32[n]) with a
    constant on either side, contracting either dim of the gathered array."""
    a, b, n, m = (draw(st.integers(1, 4)) for _ in range(4))
    g, k, on_left = draw(st.integers(0, 1)), draw(st.integers(0, 1)), draw(st.booleans())
    shapes = {"operand": f"s32[{a},{b}]", "indices": f"s32[{n}]",
              "gather": f"s32[{n},{b}]" if g == 0 else f"s32[{a},{n}]"}
    gdims = [n, b] if g == 0 else [a, n]
    free = gdims[1 - k]
    cdims = [gdims[k], m] if on_left else [m, gdims[k]]
    out = [free, m] if on_left else [m, free]
    values = draw(st.lists(st.integers(-9, 9), min_size=a * b + gdims[k] * m, max_size=a * b + gdims[k] * m))
    lines = [constant("operand", shapes["operand"], np.int32(values[:a * b]).reshape(a, b)),
             constant("other", f"s32[{cdims[0]},{cdims[1]}]", np.int32(values[a * b:]).reshape(cdims)),
             gather("gather", "operand", "indices", shapes, [1 - g], [g], [g], 1, [[1, b], [a, 1]][g])]
    lhs, rhs = ("gather", "other") if on_left else ("other", "gather")
    types = [ttype(shapes["gather"]), ttype(f"s32[{cdims[0]},{cdims[1]}]")]
    contracting = f"[{k}] x [0]" if on_left else f"[1] x [{k}]"
    lines.append(f"%dot = stablehlo.dot_general %{lhs}, %{rhs}, contracting_dims = {contracting} : "
                 f"({', '.join(types if on_left else types[::-1])}) -> {ttype(f's32[{out[0]},{out[1]}]')}")
    return module({"indices": shapes["indices"]}, lines, {"dot": f"s32[{out[0]},{out[1]}]"})


@settings(max_examples=examples(60), deadline=None)
@given(dot_modules(), st.integers(0, 2**16))
def test_property_dot_forms_give_xla_numbers(text, seed):
    check_numbers(text, seed)


@settings(max_examples=300, deadline=None)
@given(gather_modules())
def test_property_the_analysis_never_changes_the_module(text):
    m = hlo_mlir.compiler.as_module(text)
    before = m.operation.get_asm()
    arrays = analyze(m)
    run_pipeline(m, "indexed-array-analysis")
    assert m.operation.get_asm() == before
    for array in arrays.values():
        to_string(array, print_constants=True)


@settings(max_examples=examples(120), deadline=None)
@given(gather_modules(), st.integers(0, 2**16))
def test_property_every_form_gives_xla_numbers(text, seed):
    check_numbers(text, seed)
