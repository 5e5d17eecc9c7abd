"""hlo_mlir.ir_access, the one module that reads StableHLO attributes and types: each getter
on modules our builder emits (read back what was written) and on JAX-exported text."""

from __future__ import annotations

import ast
import dataclasses
import pathlib
import re

import numpy as np
import pytest
from iree.compiler import ir

import hlo_mlir  # noqa: F401 - the package first (it loads the op families in order)
from dialect_ops.collectives import AllReduce, set_replica_count
from dialect_ops.convolution import ConvGeneralDilated, conv_dimension_numbers
from dialect_ops.elementwise import Add, Compare
from dialect_ops.fft import Fft
from dialect_ops.gather_scatter import Gather, GatherDimensionNumbers, Scatter, ScatterDimensionNumbers
from dialect_ops.linalg import DotDimensionNumbers, DotGeneral, Precision
from dialect_ops.linalg_math import TriangularSolve
from dialect_ops.rng import RngBitGenerator, RngNormal
from dialect_ops.shape_ops import BroadcastInDim, Transpose
from hlo_mlir import Parameter, Shape, XlaBuilder, ir_access
from hlo_mlir.context import get_context
from hlo_mlir.errors import InvalidArgumentError

ROOT = pathlib.Path(__file__).resolve().parents[2]

# What jax.jit(f).lower(x).as_text() prints for f(x) = x * 2 + 1 with a private helper:
# `public` spelled out, attributes of dialects IREE does not register.
JAX_TEXT = """
module @jit_f attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<3xf32>) -> (tensor<3xf32> {jax.result_info = "result"}) {
    %0 = call @helper(%arg0) : (tensor<3xf32>) -> tensor<3xf32>
    return %0 : tensor<3xf32>
  }
  func.func private @helper(%arg0: tensor<3xf32>) -> tensor<3xf32> {
    %cst = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<3xf32>
    %1 = stablehlo.multiply %arg0, %0 : tensor<3xf32>
    return %1 : tensor<3xf32>
  }
}
"""


def _parse(text: str) -> ir.Module:
    with get_context():
        return ir.Module.parse(text)


def _ops(module: ir.Module, name: str) -> list:
    found: list = []

    def visit(op):
        if op.name == name:
            found.append(op)
        return ir.WalkResult.ADVANCE

    module.operation.walk(visit)
    return found


def _only(module: ir.Module, name: str):
    (op,) = _ops(module, name)
    return op


def _built(build, *shapes: str) -> ir.Module:
    b = XlaBuilder("t")
    params = [Parameter(b, i, Shape.parse(s)) for i, s in enumerate(shapes)]
    build(b, *params)
    return b.build().module


# --- functions ---------------------------------------------------------------------------------------
def test_jax_public_main_is_public_and_the_entry():
    module = _parse(JAX_TEXT)
    main, helper = ir_access.functions(module)
    assert [ir_access.symbol_name(f) for f in (main, helper)] == ["main", "helper"]
    assert (ir_access.visibility(main), ir_access.visibility(helper)) == ("public", "private")
    assert ir_access.is_public(main) and not ir_access.is_public(helper)
    assert ir_access.entry_function(module) == main
    ftype = ir_access.function_type(main)
    assert [str(t) for t in ftype.inputs] == ["tensor<3xf32>"] and len(ftype.results) == 1
    assert ir_access.optional_int_attr(module.operation, "mhlo.num_replicas") == 1


def test_builder_main_without_visibility_is_public():
    module = _built(lambda b, x: Add(x, x), "f32[2]")
    (main,) = ir_access.functions(module)
    assert "sym_visibility" not in main.attributes
    assert ir_access.visibility(main) == "public" and ir_access.entry_function(module) == main


@pytest.mark.parametrize("functions, entry", [
    ("func.func @main() { return }\nfunc.func @other() { return }", "main"),
    ("func.func private @main() { return }\nfunc.func public @run() { return }", "run"),
    ("func.func @a() { return }\nfunc.func @b() { return }", None),  # no @main and two public ones
    ("func.func private @main() { return }", None),
])
def test_the_entry_is_a_public_main_else_the_single_public_function(functions, entry):
    found = ir_access.entry_function(_parse(functions))
    assert (found and ir_access.symbol_name(found)) == entry


# --- types -----------------------------------------------------------------------------------------------
TUPLE_IN_REGION = """
func.func @main(%x: tensor<f32>, %i: tensor<i32>) -> tensor<f32> {
  %r = "stablehlo.case"(%i) ({
    %t = stablehlo.tuple %x : tuple<tensor<f32>>
    %e = stablehlo.get_tuple_element %t[0] : (tuple<tensor<f32>>) -> tensor<f32>
    stablehlo.return %e : tensor<f32>
  }) : (tensor<i32>) -> tensor<f32>
  return %r : tensor<f32>
}
"""


@pytest.mark.parametrize("text, expected", [
    (JAX_TEXT, False),
    ("func.func @main(%t: !stablehlo.token) -> !stablehlo.token { return %t : !stablehlo.token }", True),
    ("func.func private @decl(tuple<tensor<f32>>)\nfunc.func @main() { return }", True),  # a signature only
    (TUPLE_IN_REGION, True),  # only inside a nested region
])
def test_uses_tuples_or_tokens_finds_them_anywhere(text, expected):
    assert ir_access.uses_tuples_or_tokens(_parse(text).operation) is expected


def test_type_predicates_and_element_types():
    with get_context():
        token, tup = ir.Type.parse("!stablehlo.token"), ir.Type.parse("tuple<tensor<f32>, !stablehlo.token>")
        tensor, fn = ir.Type.parse("tensor<2xui8>"), ir.Type.parse("(tensor<f32>) -> tuple<>")
        assert ir_access.is_token(token) and not ir_access.is_token(tup) and not ir_access.is_token(tensor)
        assert ir_access.is_tuple(tup) and not ir_access.is_tuple(token)
        assert [ir_access.contains_tuple_or_token(t) for t in (token, tup, tensor, fn)] == \
            [True, True, False, True]
        assert ir_access.element_type_name(tensor) == "ui8"
        assert ir_access.element_type_name(token) == "!stablehlo.token"
        bounded = ir.RankedTensorType(ir.Type.parse("tensor<?x3xf32, #stablehlo.bounds<8, ?>>"))
        assert ir_access.dimension_bounds(bounded) == [8, None]
        assert ir_access.mhlo_type_extension_bounds(bounded) is None
        plain = ir.RankedTensorType(ir.Type.parse("tensor<3xf32>"))
        assert ir_access.dimension_bounds(plain) is None
        assert ir_access.mhlo_type_extension_bounds(plain) is None
        mhlo = ir.RankedTensorType(ir.Type.parse("tensor<?x3xf32, #mhlo.type_extensions<bounds = [4, ?]>>"))
        assert ir_access.mhlo_type_extension_bounds(mhlo) == [4, None]
        assert ir_access.dimension_bounds(mhlo) is None
        odd = ir.RankedTensorType(ir.Type.parse("tensor<?xf32, #mhlo.type_extensions<bounds = [-4]>>"))
        assert ir_access.mhlo_type_extension_bounds(odd) is None


# --- StableHLO attributes written by the builder, read back ----------------------------------------------
@pytest.mark.parametrize("direction, compare_type", [("LT", "TOTALORDER"), ("NE", None), ("GE", "FLOAT")])
def test_comparison_direction_and_type(direction, compare_type):
    module = _built(lambda b, x: Compare(x, x, direction=direction, compare_type=compare_type), "f32[2]")
    op = _only(module, "stablehlo.compare")
    assert ir_access.comparison_direction(op) == direction
    assert ir_access.comparison_type(op) == (compare_type or "FLOAT")  # the builder spells the default


def test_comparison_type_absent_in_jax_text():
    module = _parse("""func.func public @main(%a: tensor<2xi32>) -> tensor<2xi1> {
      %0 = stablehlo.compare LT, %a, %a : (tensor<2xi32>, tensor<2xi32>) -> tensor<2xi1>
      return %0 : tensor<2xi1> }""")
    op = _only(module, "stablehlo.compare")
    assert (ir_access.comparison_direction(op), ir_access.comparison_type(op)) == ("LT", None)


def test_dot_dimension_numbers_and_precision_config():
    dnums = DotDimensionNumbers([2], [1], [0], [0])
    module = _built(lambda b, x, y: DotGeneral(x, y, dnums, precision_config=[Precision.HIGH, "HIGHEST"]),
                    "f32[2,3,4]", "f32[2,4,5]")
    op = _only(module, "stablehlo.dot_general")
    assert ir_access.dot_dimension_numbers(op) == ir_access.DotDimensions(**dataclasses.asdict(dnums))
    assert ir_access.precision_config(op) == ("HIGH", "HIGHEST")
    plain = _only(_built(lambda b, x, y: DotGeneral(x, y, DotDimensionNumbers([1], [0])),
                         "f32[2,3]", "f32[3]"), "stablehlo.dot_general")
    assert ir_access.precision_config(plain) == ()
    assert ir_access.dot_dimension_numbers(plain) == ir_access.DotDimensions((1,), (0,))


def test_gather_and_scatter_dimension_numbers():
    gdn = GatherDimensionNumbers(offset_dims=[1], collapsed_slice_dims=[0], start_index_map=[0],
                                 index_vector_dim=1)
    gather = _only(_built(lambda b, x, i: Gather(x, i, gdn, [1, 3]), "f32[4,3]", "s32[2,1]"),
                   "stablehlo.gather")
    assert ir_access.gather_dimension_numbers(gather) == ir_access.GatherDimensions(**dataclasses.asdict(gdn))
    assert GatherDimensionNumbers.from_attribute(gather.attributes["dimension_numbers"]) == gdn
    assert ir_access.int_array(gather, "slice_sizes") == [1, 3]

    sdn = ScatterDimensionNumbers([1], [0], [0], 1)
    add = XlaBuilder("add")
    Add(*(Parameter(add, i, Shape.parse("f32[]")) for i in range(2)))
    reducer = add.build()
    scatter = _only(_built(lambda b, x, i, u: Scatter(x, i, u, reducer, sdn, unique_indices=True),
                           "f32[4,3]", "s32[2,1]", "f32[2,3]"), "stablehlo.scatter")
    assert ir_access.scatter_dimension_numbers(scatter) == \
        ir_access.ScatterDimensions(**dataclasses.asdict(sdn))
    assert ScatterDimensionNumbers.from_attribute(scatter.attributes["scatter_dimension_numbers"]) == sdn
    assert ir_access.bool_attr(scatter, "unique_indices")
    assert not ir_access.bool_attr(scatter, "indices_are_sorted")


def test_convolution_dimension_numbers_and_windows():
    dnums = conv_dimension_numbers("NHWC", "HWIO", "NHWC")
    module = _built(lambda b, x, w: ConvGeneralDilated(x, w, [2, 1], [(1, 0), (0, 2)], rhs_dilation=[1, 2],
                                                       dimension_numbers=dnums),
                    "f32[1,5,5,2]", "f32[3,3,2,4]")
    op = _only(module, "stablehlo.convolution")
    assert ir_access.convolution_dimension_numbers(op) == \
        ir_access.ConvDimensions(**dataclasses.asdict(dnums))
    assert ir_access.window_values(op, "window_strides", 2) == [2, 1]
    assert ir_access.window_values(op, "rhs_dilation", 2) == [1, 2]
    assert ir_access.window_values(op, "lhs_dilation", 2) == [1, 1]  # absent: the default
    assert ir_access.padding_pairs(op, 2) == [(1, 0), (0, 2)]
    raw = _parse("""func.func @main(%x: tensor<1x2x5xf32>, %w: tensor<4x2x3xf32>) -> tensor<1x4x3xf32> {
      %0 = "stablehlo.convolution"(%x, %w) {batch_group_count = 1 : i64, feature_group_count = 1 : i64,
        dimension_numbers = #stablehlo.conv<raw input_batch_dimension = 0, input_feature_dimension = 1,
          input_spatial_dimensions = [2], kernel_input_feature_dimension = 1,
          kernel_output_feature_dimension = 0,
          kernel_spatial_dimensions = [2], output_batch_dimension = 0, output_feature_dimension = 1,
          output_spatial_dimensions = [2]>} : (tensor<1x2x5xf32>, tensor<4x2x3xf32>) -> tensor<1x4x3xf32>
      return %0 : tensor<1x4x3xf32> }""")
    op = _only(raw, "stablehlo.convolution")
    assert ir_access.convolution_dimension_numbers(op) == \
        ir_access.ConvDimensions(0, 1, (2,), 1, 0, (2,), 0, 1, (2,))
    assert ir_access.padding_pairs(op, 1) == [(0, 0)]


def test_collective_channel_and_replica_groups():
    def build(b, x):
        set_replica_count(b, 4)
        add = XlaBuilder("add")
        Add(*(Parameter(add, i, Shape.parse("f32[]")) for i in range(2)))
        AllReduce(x, add.build(), replica_groups=[[0, 2], [1, 3]], channel_id=5)

    op = _only(_built(build, "f32[2]"), "stablehlo.all_reduce")
    assert ir_access.channel_handle(op) == ir_access.ChannelHandleAttr(handle=5, type=1)
    assert ir_access.replica_groups(op) == [[0, 2], [1, 3]]
    permute = _only(_parse("""func.func @main(%x: tensor<2xf32>) -> tensor<2xf32> {
      %0 = "stablehlo.collective_permute"(%x)
        {source_target_pairs = dense<[[0, 1], [1, 0]]> : tensor<2x2xi64>} : (tensor<2xf32>) -> tensor<2xf32>
      return %0 : tensor<2xf32> }"""), "stablehlo.collective_permute")
    assert ir_access.source_target_pairs(permute) == [(0, 1), (1, 0)]
    assert ir_access.channel_handle(permute) is None
    padded = _only(_parse("""func.func @main(%x: tensor<2xf32>) -> tensor<2xf32> {
      %0 = "stablehlo.all_reduce"(%x) ({
        ^bb0(%a: tensor<f32>, %b: tensor<f32>):
          %s = stablehlo.add %a, %b : tensor<f32>
          stablehlo.return %s : tensor<f32>
      }) {replica_groups = dense<[[0, 1, 2], [3, -1, -1]]> : tensor<2x3xi64>}
        : (tensor<2xf32>) -> tensor<2xf32>
      return %0 : tensor<2xf32> }"""), "stablehlo.all_reduce")
    assert ir_access.replica_groups(padded) == [[0, 1, 2], [3]]


def test_enum_attributes_of_fft_rng_and_triangular_solve():
    fft = _only(_built(lambda b, x: Fft(x, "RFFT", [8]), "f32[8]"), "stablehlo.fft")
    assert ir_access.fft_type(fft) == "RFFT" and ir_access.int_array(fft, "fft_length") == [8]
    rbg = _only(_built(lambda b, s: RngBitGenerator("PHILOX", s, Shape.parse("u32[4]")), "u64[2]"),
                "stablehlo.rng_bit_generator")
    assert ir_access.rng_algorithm(rbg) == "PHILOX"
    rng = _only(_built(lambda b, m, s: RngNormal(m, s, Shape.parse("f32[3]")), "f32[]", "f32[]"),
                "stablehlo.rng")
    assert ir_access.rng_distribution(rng) == "NORMAL"
    solve = _only(_built(lambda b, a, x: TriangularSolve(a, x, True, True, False, "ADJOINT"),
                         "f32[3,3]", "f32[3,2]"), "stablehlo.triangular_solve")
    assert ir_access.transpose_a(solve) == "ADJOINT"
    assert ir_access.bool_attr(solve, "left_side") and not ir_access.bool_attr(solve, "unit_diagonal")


def test_integer_arrays_and_scalars():
    def build(b, x):
        t = Transpose(x, [1, 0])
        BroadcastInDim(t, [4, 3, 2], [1, 2])

    module = _built(build, "f32[2,3]")
    transpose, broadcast = _only(module, "stablehlo.transpose"), _only(module, "stablehlo.broadcast_in_dim")
    assert ir_access.int_array(transpose, "permutation") == [1, 0]
    assert ir_access.int_array(broadcast, "broadcast_dimensions") == [1, 2]
    assert ir_access.optional_int_attr(broadcast, "absent") is None
    module = _parse("""func.func @main(%x: tensor<2xf32>) -> tensor<4xf32> {
      %0 = stablehlo.concatenate %x, %x, dim = 0 : (tensor<2xf32>, tensor<2xf32>) -> tensor<4xf32>
      return %0 : tensor<4xf32> }""")
    assert ir_access.int_attr(_only(module, "stablehlo.concatenate"), "dimension") == 0


@pytest.mark.parametrize("literal, expected", [
    ("dense<(1.5,-2.0)> : tensor<complex<f32>>", [1.5 - 2j]),  # a splat: one value
    ("dense<[(1.0,2.0), (0x7FC00000,0x7F800000)]> : tensor<2xcomplex<f32>>",
     [1 + 2j, complex(np.nan, np.inf)]),  # NaN and inf print as bit patterns
    ('dense<"0x000000000000F03F0000000000000040"> : tensor<1xcomplex<f64>>', [1 + 2j]),
])
def test_complex_constant_values(literal, expected):
    ctype = literal.rsplit(": ", 1)[1]
    module = _parse(f"""func.func @main() -> {ctype} {{
      %0 = stablehlo.constant {literal}
      return %0 : {ctype} }}""")
    values = ir_access.complex_constant_values(_only(module, "stablehlo.constant"))
    assert values.dtype == (np.complex128 if "f64" in ctype else np.complex64)
    np.testing.assert_array_equal(values, np.array(expected, values.dtype))


def test_a_wrong_attribute_kind_is_a_clear_error():
    module = _built(lambda b, x: Compare(x, x, direction="LT"), "f32[2]")
    op = _only(module, "stablehlo.compare")
    with pytest.raises(InvalidArgumentError, match="expected a #stablehlo<fft_type ...> attribute; got "
                                                   "#stablehlo<comparison_direction LT>"):
        ir_access._enum(op.attributes["comparison_direction"], "fft_type")
    with pytest.raises(InvalidArgumentError, match="expected a #stablehlo.gather"):
        ir_access.gather_dimension_numbers(op.attributes["comparison_direction"])


# --- the rule: IR is read here and nowhere else ------------------------------------------------------------
# An attribute's text (str(op.attributes[...])), printed IR searched ("tuple<" in get_asm()),
# or a visibility read or tested by hand (writes and deletes are fine).
_TEXT_READS = re.compile(r"str\([^()]*attributes\[|get_asm\([^)]*\)[^\n]*(?:\bin\b|re\.)"
                         r"|\.search\([^)]*get_asm\("
                         r"|\"(?:tuple<|!stablehlo\.token)\" in "
                         r"|(?<!del )\b\w+(?:\.\w+)*\.attributes\[\"sym_visibility\"\](?!\s*=)"
                         r"|(?:or|and|not) \"sym_visibility\" in|\"sym_visibility\" not in")


def test_no_module_reads_attributes_through_their_text_or_redefines_public():
    offenders = []
    for folder in ("hlo_mlir", "dialect_ops", "pipelines"):
        for path in sorted((ROOT / folder).rglob("*.py")):
            if path.name == "ir_access.py":
                continue
            lines = enumerate(path.read_text().splitlines(), 1)
            offenders += [f"{path.relative_to(ROOT)}:{n}" for n, line in lines if _TEXT_READS.search(line)]
    assert offenders == []


def test_ir_access_sits_on_the_ground_floor():
    tree = ast.parse((ROOT / "hlo_mlir" / "ir_access.py").read_text())
    imported = {alias.name for node in ast.walk(tree) if isinstance(node, ast.Import) for alias in node.names}
    imported |= {f"{node.module}.{alias.name}" for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)
                 for alias in node.names}
    project = {name for name in imported if name.split(".")[0] in ("hlo_mlir", "dialect_ops", "pipelines")}
    assert project <= {"hlo_mlir.errors.InvalidArgumentError", "hlo_mlir.types", "hlo_mlir.shape"}
    assert "iree.compiler.ir" in imported
