// RUN: %hlo-opt %s -p cse --split-input-file | filecheck %s

// Check that identical ops on the same operands, and identical constants, are merged.
// CHECK-LABEL: func.func @merge_identical
// CHECK: %[[C:.*]] = stablehlo.constant dense<2.000000e+00>
// CHECK-NOT: stablehlo.constant
// CHECK: %[[A:.*]] = stablehlo.add %arg0, %[[C]]
// CHECK-NOT: stablehlo.add
// CHECK: %[[M:.*]] = stablehlo.multiply %[[A]], %[[A]]
// CHECK: return %[[M]]
func.func @merge_identical(%x: tensor<4xf32>) -> tensor<4xf32> {
  %c0 = stablehlo.constant dense<2.0> : tensor<4xf32>
  %c1 = stablehlo.constant dense<2.0> : tensor<4xf32>
  %0 = stablehlo.add %x, %c0 : tensor<4xf32>
  %1 = stablehlo.add %x, %c1 : tensor<4xf32>
  %2 = stablehlo.multiply %0, %1 : tensor<4xf32>
  return %2 : tensor<4xf32>
}

// -----

// Check that ops differing in operands or attributes are kept apart.
// CHECK-LABEL: func.func @keep_different
// CHECK: stablehlo.compare LT
// CHECK: stablehlo.compare GT
// CHECK: stablehlo.add %arg0, %arg1
// CHECK: stablehlo.add %arg1, %arg0
func.func @keep_different(%x: tensor<4xf32>, %y: tensor<4xf32>) -> (tensor<4xi1>, tensor<4xi1>, tensor<4xf32>, tensor<4xf32>) {
  %0 = stablehlo.compare LT, %x, %y : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  %1 = stablehlo.compare GT, %x, %y : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  %2 = stablehlo.add %x, %y : tensor<4xf32>
  %3 = stablehlo.add %y, %x : tensor<4xf32>
  return %0, %1, %2, %3 : tensor<4xi1>, tensor<4xi1>, tensor<4xf32>, tensor<4xf32>
}

// -----

// Check that side-effecting ops are not merged.
// CHECK-LABEL: func.func @keep_side_effects
// CHECK: stablehlo.custom_call @effect
// CHECK: stablehlo.custom_call @effect
func.func @keep_side_effects(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %0 = stablehlo.custom_call @effect(%x) {has_side_effect = true} : (tensor<4xf32>) -> tensor<4xf32>
  %1 = stablehlo.custom_call @effect(%x) {has_side_effect = true} : (tensor<4xf32>) -> tensor<4xf32>
  return %0, %1 : tensor<4xf32>, tensor<4xf32>
}
