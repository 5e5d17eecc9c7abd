# RUN: %python %s | filecheck %s
"""Builder output of dialect_ops.sorting: Sort, the comparator builders, TopK (one TEST per case)."""

from hlo_mlir import (
    CreateScalarComparisonComputation,
    CreateScalarGtComputation,
    CreateScalarLtComputation,
    Lt,
    Parameter,
    PrimitiveType,
    Shape,
    Sort,
    TopK,
)

from harness import test

T = PrimitiveType


# Check that one operand gives an array, the last dimension is the default, and floats
# compare under the total order.
# CHECK-LABEL: TEST: sort_single
# CHECK: %[[S:.*]] = "stablehlo.sort"(%arg0) <{dimension = 1 : i64, is_stable = false}>
# CHECK-NEXT: ^bb0(%[[A:.*]]: tensor<f32>, %[[B:.*]]: tensor<f32>):
# CHECK-NEXT: %[[C:.*]] = stablehlo.compare LT, %[[A]], %[[B]], TOTALORDER
# CHECK-NEXT: stablehlo.return %[[C]] : tensor<i1>
# CHECK: return %[[S]] : tensor<2x5xf32>
test("sort_single", lambda b: Sort([Parameter(b, 0, Shape.parse("f32[2,5]"))],
                                   CreateScalarLtComputation([T.F32], b)))

# Check that several operands give a tuple, a negative dimension counts from the end, and
# a descending integer comparator compares the first operand only.
# CHECK-LABEL: TEST: sort_keys_values
# CHECK: %[[S:.*]]:2 = "stablehlo.sort"(%arg0, %arg1) <{dimension = 1 : i64, is_stable = true}>
# CHECK-NEXT: ^bb0(%[[A:.*]]: tensor<ui8>, %[[B:.*]]: tensor<ui8>, %{{.*}}: tensor<bf16>,
# CHECK-NEXT: stablehlo.compare GT, %[[A]], %[[B]], UNSIGNED
# CHECK: stablehlo.tuple %[[S]]#0, %[[S]]#1 : tuple<tensor<4x3x2xui8>, tensor<4x3x2xbf16>>
test("sort_keys_values", lambda b: Sort(
    [Parameter(b, 0, Shape.parse("u8[4,3,2]")), Parameter(b, 1, Shape.parse("bf16[4,3,2]"))],
    CreateScalarGtComputation([T.U8, T.BF16], b), dimension=-2, is_stable=True))

# Check that a lexicographic comparator selects the second comparison where the first
# operands are equal under the total order.
# CHECK-LABEL: TEST: sort_lexicographic
# CHECK: ^bb0(%[[A:.*]]: tensor<f32>, %[[B:.*]]: tensor<f32>, %[[C:.*]]: tensor<i32>, %[[D:.*]]: tensor<i32>):
# CHECK-NEXT: %[[LT:.*]] = stablehlo.compare LT, %[[A]], %[[B]], FLOAT
# CHECK-NEXT: %[[EQ:.*]] = stablehlo.compare EQ, %[[A]], %[[B]], TOTALORDER
# CHECK-NEXT: %[[LT2:.*]] = stablehlo.compare LT, %[[C]], %[[D]], SIGNED
# CHECK-NEXT: %[[R:.*]] = stablehlo.select %[[EQ]], %[[LT2]], %[[LT]]
# CHECK-NEXT: stablehlo.return %[[R]]
test("sort_lexicographic", lambda b: Sort(
    [Parameter(b, 0, Shape.parse("f32[6]")), Parameter(b, 1, Shape.parse("s32[6]"))],
    CreateScalarComparisonComputation("lex", [T.F32, T.S32], [Lt, Lt], b), dimension=0))

# Check that TopK (largest) is chlo.top_k, returned as a tuple.
# CHECK-LABEL: TEST: top_k_largest
# CHECK: %[[V:.*]], %[[I:.*]] = chlo.top_k(%arg0, k = 2) : tensor<3x7xf32>
# CHECK-SAME: -> (tensor<3x2xf32>, tensor<3x2xi32>)
# CHECK: stablehlo.tuple %[[V]], %[[I]]
test("top_k_largest", lambda b: TopK(Parameter(b, 0, Shape.parse("f32[3,7]")), 2))

# Check that TopK (smallest) is XLA's decomposition: sort (operand, iota) ascending by the
# total order, ties by index, behind a barrier, then slices.
# CHECK-LABEL: TEST: top_k_smallest
# CHECK: %[[I:.*]] = stablehlo.iota dim = 0 : tensor<7xi32>
# CHECK: %[[S:.*]]:2 = "stablehlo.sort"(%arg0, %[[I]]) <{dimension = 0 : i64, is_stable = false}>
# CHECK: stablehlo.compare LT, %{{.*}}, %{{.*}}, TOTALORDER
# CHECK: %[[B:.*]]:2 = stablehlo.optimization_barrier %[[S]]#0, %[[S]]#1
# CHECK: stablehlo.slice %[[B]]#0 [0:3]
# CHECK: stablehlo.slice %[[B]]#1 [0:3]
test("top_k_smallest", lambda b: TopK(Parameter(b, 0, Shape.parse("f16[7]")), 3, largest=False))
