// RUN: %hlo-opt %s -p top-k-expander --split-input-file | filecheck %s

// Check that chlo.top_k becomes a sort of (operand, iota) by the total order with ties by
// lower index, behind an optimization barrier (IREE would raise sort + slice back into its
// own top-k), then slices of the first k.
// CHECK-LABEL: func.func @top_k_f32
// CHECK-NOT: chlo.top_k
// CHECK: %[[I:.*]] = stablehlo.iota dim = 1 : tensor<2x9xi32>
// CHECK: %[[S:.*]]:2 = "stablehlo.sort"(%arg0, %[[I]]) <{dimension = 1 : i64, is_stable = false}>
// CHECK: ^bb0(%[[A:.*]]: tensor<f32>, %[[B:.*]]: tensor<f32>, %[[IA:.*]]: tensor<i32>, %[[IB:.*]]: tensor<i32>):
// CHECK: %[[GT:.*]] = stablehlo.compare GT, %[[A]], %[[B]], TOTALORDER
// CHECK: %[[EQ:.*]] = stablehlo.compare EQ, %[[A]], %[[B]], TOTALORDER
// CHECK: %[[LT:.*]] = stablehlo.compare LT, %[[IA]], %[[IB]], SIGNED
// CHECK: %[[TIE:.*]] = stablehlo.and %[[EQ]], %[[LT]]
// CHECK: stablehlo.or %[[GT]], %[[TIE]]
// CHECK: %[[BAR:.*]]:2 = stablehlo.optimization_barrier %[[S]]#0, %[[S]]#1
// CHECK: %[[V:.*]] = stablehlo.slice %[[BAR]]#0 [0:2, 0:3]
// CHECK: %[[X:.*]] = stablehlo.slice %[[BAR]]#1 [0:2, 0:3]
// CHECK: return %[[V]], %[[X]] : tensor<2x3xf32>, tensor<2x3xi32>
func.func @top_k_f32(%x: tensor<2x9xf32>) -> (tensor<2x3xf32>, tensor<2x3xi32>) {
  %v, %i = chlo.top_k(%x, k = 3) : tensor<2x9xf32> -> (tensor<2x3xf32>, tensor<2x3xi32>)
  return %v, %i : tensor<2x3xf32>, tensor<2x3xi32>
}

// -----

// Check that integer operands use the default (signed/unsigned) comparison.
// CHECK-LABEL: func.func @top_k_ui8
// CHECK: stablehlo.compare GT, %{{.*}}, %{{.*}}, UNSIGNED
// CHECK: stablehlo.compare EQ, %{{.*}}, %{{.*}}, UNSIGNED
func.func @top_k_ui8(%x: tensor<7xui8>) -> (tensor<2xui8>, tensor<2xi32>) {
  %v, %i = chlo.top_k(%x, k = 2) : tensor<7xui8> -> (tensor<2xui8>, tensor<2xi32>)
  return %v, %i : tensor<2xui8>, tensor<2xi32>
}

// -----

// Check that other ops are left alone.
// CHECK-LABEL: func.func @no_top_k
// CHECK-NOT: stablehlo.sort
// CHECK: stablehlo.negate
func.func @no_top_k(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = stablehlo.negate %x : tensor<4xf32>
  return %0 : tensor<4xf32>
}
