// RUN: %hlo-opt %s -p dce --split-input-file | filecheck %s

// Check that unused side-effect-free ops vanish, transitively.
// CHECK-LABEL: func.func @dead_ops
// CHECK-NOT: stablehlo.negate
// CHECK-NOT: stablehlo.multiply
// CHECK: %[[A:.*]] = stablehlo.add %arg0, %arg1
// CHECK: return %[[A]]
func.func @dead_ops(%x: tensor<4xf32>, %y: tensor<4xf32>) -> tensor<4xf32> {
  %0 = stablehlo.negate %x : tensor<4xf32>
  %1 = stablehlo.multiply %0, %y : tensor<4xf32>
  %2 = stablehlo.add %x, %y : tensor<4xf32>
  return %2 : tensor<4xf32>
}

// -----

// Check that unused private functions are removed and used ones kept; parameters are never removed.
// CHECK-NOT: func.func private @unused
// CHECK-LABEL: func.func private @used
// CHECK-LABEL: func.func @calls(%arg0: tensor<4xf32>, %arg1: tensor<4xf32>)
// CHECK: call @used
func.func private @unused(%x: tensor<4xf32>) -> tensor<4xf32> {
  return %x : tensor<4xf32>
}
func.func private @used(%x: tensor<4xf32>) -> tensor<4xf32> {
  return %x : tensor<4xf32>
}
func.func @calls(%x: tensor<4xf32>, %unused_param: tensor<4xf32>) -> tensor<4xf32> {
  %0 = func.call @used(%x) : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// Check that unused ops with side effects stay.
// CHECK-LABEL: func.func @keep_side_effects
// CHECK: stablehlo.custom_call @effect
func.func @keep_side_effects(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = stablehlo.custom_call @effect(%x) {has_side_effect = true} : (tensor<4xf32>) -> tensor<4xf32>
  return %x : tensor<4xf32>
}
