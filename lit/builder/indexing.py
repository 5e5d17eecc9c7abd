# RUN: %python %s | filecheck %s
"""Builder output of the indexing family (one TEST per case)."""

from hlo_mlir import (
    Add,
    DynamicSlice,
    DynamicUpdateSlice,
    Gather,
    GatherDimensionNumbers,
    GetTupleElement,
    Max,
    Parameter,
    Scatter,
    ScatterDimensionNumbers,
    Shape,
    Tuple,
    XlaBuilder,
)

from harness import test


def p(b, n, text):
    return Parameter(b, n, Shape.parse(text))


def adder(*types):
    b = XlaBuilder("combine")
    n = len(types)
    args = [p(b, i, f"{types[i % n]}[]") for i in range(2 * n)]
    results = [(Add if i == 0 else Max)(args[i], args[n + i]) for i in range(n)]
    return b.build(results[0] if n == 1 else Tuple(b, results))


# CHECK-LABEL: TEST: dynamic_slice
# CHECK: stablehlo.dynamic_slice %arg0, %arg1, %arg2, sizes = [2, 1]
# CHECK-SAME: : (tensor<4x3xf32>, tensor<i32>, tensor<i32>) -> tensor<2x1xf32>
test("dynamic_slice", lambda b: DynamicSlice(p(b, 0, "f32[4,3]"), [p(b, 1, "s32[]"), p(b, 2, "s32[]")],
                                             [2, 1]))

# CHECK-LABEL: TEST: dynamic_slice_rank1_indices
# CHECK: %[[S0:.*]] = stablehlo.slice %arg1 [0:1]
# CHECK: %[[I0:.*]] = stablehlo.reshape %[[S0]] : (tensor<1xi64>) -> tensor<i64>
# CHECK: %[[S1:.*]] = stablehlo.slice %arg1 [1:2]
# CHECK: %[[I1:.*]] = stablehlo.reshape %[[S1]]
# CHECK: stablehlo.dynamic_slice %arg0, %[[I0]], %[[I1]], sizes = [1, 3]
test("dynamic_slice_rank1_indices", lambda b: DynamicSlice(p(b, 0, "f32[4,3]"), p(b, 1, "s64[2]"), [1, 3]))

# CHECK-LABEL: TEST: dynamic_update_slice
# CHECK: stablehlo.dynamic_update_slice %arg0, %arg1, %arg2, %arg2
# CHECK-SAME: : (tensor<4x3xf32>, tensor<2x2xf32>, tensor<i32>, tensor<i32>) -> tensor<4x3xf32>
test("dynamic_update_slice", lambda b: DynamicUpdateSlice(p(b, 0, "f32[4,3]"), p(b, 1, "f32[2,2]"),
                                                          [p(b, 2, "s32[]")] * 2))

# CHECK-LABEL: TEST: gather_batching
# CHECK: "stablehlo.gather"(%arg0, %arg1)
# CHECK-SAME: dimension_numbers = #stablehlo.gather<offset_dims = [2], collapsed_slice_dims = [1],
# CHECK-SAME: operand_batching_dims = [0], start_indices_batching_dims = [0], start_index_map = [1],
# CHECK-SAME: index_vector_dim = 2>
# CHECK-SAME: indices_are_sorted = true, slice_sizes = array<i64: 1, 1, 3>
# CHECK-SAME: (tensor<2x5x3xf32>, tensor<2x4x1xi32>) -> tensor<2x4x3xf32>
test("gather_batching", lambda b: Gather(
    p(b, 0, "f32[2,5,3]"), p(b, 1, "s32[2,4,1]"),
    GatherDimensionNumbers([2], [1], [1], 2, operand_batching_dims=[0], start_indices_batching_dims=[0]),
    [1, 1, 3], indices_are_sorted=True))

# CHECK-LABEL: TEST: scatter_add
# CHECK: "stablehlo.scatter"(%arg0, %arg1, %arg2)
# CHECK-SAME: indices_are_sorted = false,
# CHECK-SAME: scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1],
# CHECK-SAME: inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>,
# CHECK-SAME: unique_indices = true
# CHECK: ^bb0(%[[A:.*]]: tensor<f32>, %[[U:.*]]: tensor<f32>):
# CHECK: %[[S:.*]] = stablehlo.add %[[A]], %[[U]] : tensor<f32>
# CHECK: stablehlo.return %[[S]] : tensor<f32>
# CHECK: (tensor<5x3xf32>, tensor<4x1xi32>, tensor<4x3xf32>) -> tensor<5x3xf32>
test("scatter_add", lambda b: Scatter(p(b, 0, "f32[5,3]"), p(b, 1, "s32[4,1]"), p(b, 2, "f32[4,3]"),
                                      adder("f32"), ScatterDimensionNumbers([1], [0], [0], 1),
                                      unique_indices=True))


def _variadic(b):
    r = Scatter([p(b, 0, "f32[5]"), p(b, 1, "s32[5]")], p(b, 2, "s32[2,1]"),
                [p(b, 3, "f32[2]"), p(b, 4, "s32[2]")], adder("f32", "s32"),
                ScatterDimensionNumbers([], [0], [0], 1))
    return GetTupleElement(r, 1)


# CHECK-LABEL: TEST: scatter_variadic
# CHECK: %[[R:.*]]:2 = "stablehlo.scatter"(%arg0, %arg1, %arg2, %arg3, %arg4)
# CHECK: ^bb0(%{{.*}}: tensor<f32>, %{{.*}}: tensor<i32>, %{{.*}}: tensor<f32>, %{{.*}}: tensor<i32>):
# CHECK: stablehlo.return %{{.*}}, %{{.*}} : tensor<f32>, tensor<i32>
# CHECK: -> (tensor<5xf32>, tensor<5xi32>)
# CHECK: %[[T:.*]] = stablehlo.tuple %[[R]]#0, %[[R]]#1
# CHECK: stablehlo.get_tuple_element %[[T]][1]
test("scatter_variadic", _variadic)
