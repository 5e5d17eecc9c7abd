// RUN: %hlo-opt %s -p dot-empty-contraction --split-input-file | filecheck %s

// Check that a dot over an empty contracting dimension becomes zeros.
// CHECK-LABEL: func.func @empty_contraction
// CHECK-NOT: stablehlo.dot_general
// CHECK: %[[Z:.*]] = stablehlo.constant dense<0.000000e+00> : tensor<2xf32>
// CHECK-NEXT: return %[[Z]]
func.func @empty_contraction(%x: tensor<0xf32>, %y: tensor<0x2xf32>) -> tensor<2xf32> {
  %r = stablehlo.dot_general %x, %y, contracting_dims = [0] x [0] : (tensor<0xf32>, tensor<0x2xf32>) -> tensor<2xf32>
  return %r : tensor<2xf32>
}

// -----

// Check that batch dimensions and integers are handled: i64 zeros of the result shape.
// CHECK-LABEL: func.func @batched_integers
// CHECK-NOT: stablehlo.dot_general
// CHECK: stablehlo.constant dense<0> : tensor<1x2x1xi64>
func.func @batched_integers(%x: tensor<1x2x0xi64>, %y: tensor<1x0x2x1xi64>) -> tensor<1x2x1xi64> {
  %r = stablehlo.dot_general %x, %y, batching_dims = [0, 1] x [0, 2], contracting_dims = [2] x [1] : (tensor<1x2x0xi64>, tensor<1x0x2x1xi64>) -> tensor<1x2x1xi64>
  return %r : tensor<1x2x1xi64>
}

// -----

// Check that a dot with elements to contract is left alone.
// CHECK-LABEL: func.func @not_empty
// CHECK: stablehlo.dot_general
func.func @not_empty(%x: tensor<3xf32>, %y: tensor<3x2xf32>) -> tensor<2xf32> {
  %r = stablehlo.dot_general %x, %y, contracting_dims = [0] x [0] : (tensor<3xf32>, tensor<3x2xf32>) -> tensor<2xf32>
  return %r : tensor<2xf32>
}

// -----

// Check that an empty result is left alone (IREE compiles it).
// CHECK-LABEL: func.func @empty_result
// CHECK: stablehlo.dot_general
func.func @empty_result(%x: tensor<0x0xf32>, %y: tensor<0x2xf32>) -> tensor<0x2xf32> {
  %r = stablehlo.dot_general %x, %y, contracting_dims = [1] x [0] : (tensor<0x0xf32>, tensor<0x2xf32>) -> tensor<0x2xf32>
  return %r : tensor<0x2xf32>
}
