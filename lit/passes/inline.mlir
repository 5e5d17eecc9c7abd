// RUN: %hlo-opt %s -p inline --split-input-file | filecheck %s

// Check that calls of private functions are inlined and the dead callee is dropped.
// CHECK-NOT: func.func private @twice
// CHECK-LABEL: func.func @caller
// CHECK-NOT: call
// CHECK: %[[A:.*]] = stablehlo.add %arg0, %arg0
// CHECK: return %[[A]]
func.func private @twice(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = stablehlo.add %x, %x : tensor<4xf32>
  return %0 : tensor<4xf32>
}
func.func @caller(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = func.call @twice(%x) : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// Check that a module without calls is left as it is (no canonicalization on the side).
// CHECK-LABEL: func.func @no_calls
// CHECK: %[[N:.*]] = stablehlo.negate %arg0
// CHECK: stablehlo.negate %[[N]]
func.func @no_calls(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = stablehlo.negate %x : tensor<4xf32>
  %1 = stablehlo.negate %0 : tensor<4xf32>
  return %1 : tensor<4xf32>
}
