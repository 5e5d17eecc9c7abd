// RUN: %hlo-opt %s -p sort-splat-operands --split-input-file | filecheck %s

// Check that a sort operand broadcast from a scalar goes through an optimization barrier.
// CHECK-LABEL: func.func @scalar_broadcast
// CHECK: %[[K:.*]] = stablehlo.broadcast_in_dim %arg0, dims = []
// CHECK-NEXT: %[[B:.*]] = stablehlo.optimization_barrier %[[K]] : tensor<1x3xi32>
// CHECK-NEXT: "stablehlo.sort"(%[[B]], %arg1)
func.func @scalar_broadcast(%s: tensor<i32>, %i: tensor<1x3xi32>) -> tensor<1x3xi32> {
  %k = stablehlo.broadcast_in_dim %s, dims = [] : (tensor<i32>) -> tensor<1x3xi32>
  %r:2 = "stablehlo.sort"(%k, %i) <{dimension = 1 : i64, is_stable = false}> ({
  ^bb0(%a: tensor<i32>, %b: tensor<i32>, %c: tensor<i32>, %d: tensor<i32>):
    %x = stablehlo.compare LT, %a, %b, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %x : tensor<i1>
  }) : (tensor<1x3xi32>, tensor<1x3xi32>) -> (tensor<1x3xi32>, tensor<1x3xi32>)
  return %r#1 : tensor<1x3xi32>
}

// -----

// Check that broadcasts of higher rank and splat constants are left alone.
// CHECK-LABEL: func.func @left_alone
// CHECK-NOT: stablehlo.optimization_barrier
func.func @left_alone(%v: tensor<3xi32>) -> tensor<2x3xi32> {
  %k = stablehlo.broadcast_in_dim %v, dims = [1] : (tensor<3xi32>) -> tensor<2x3xi32>
  %c = stablehlo.constant dense<4> : tensor<2x3xi32>
  %r:2 = "stablehlo.sort"(%k, %c) <{dimension = 1 : i64, is_stable = false}> ({
  ^bb0(%a: tensor<i32>, %b: tensor<i32>, %e: tensor<i32>, %d: tensor<i32>):
    %x = stablehlo.compare LT, %a, %b, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %x : tensor<i1>
  }) : (tensor<2x3xi32>, tensor<2x3xi32>) -> (tensor<2x3xi32>, tensor<2x3xi32>)
  return %r#1 : tensor<2x3xi32>
}
