// RUN: %hlo-opt %s -p reduction-layout-normalizer --split-input-file | filecheck %s
// RUN: %hlo-opt %s -p 'reduction-layout-normalizer{reassociate=true}' --split-input-file | filecheck %s --check-prefix=REASSOC

// Check that a column reduction becomes a row reduction: the reduced dimension moves last.
// CHECK-LABEL: func.func @column
// CHECK: %[[T:.*]] = stablehlo.transpose %arg0, dims = [1, 0] : (tensor<4x3xi32>) -> tensor<3x4xi32>
// CHECK: stablehlo.reduce(%[[T]] init: %{{.*}}) applies stablehlo.minimum across dimensions = [1] : (tensor<3x4xi32>, tensor<i32>) -> tensor<3xi32>
func.func @column(%x: tensor<4x3xi32>) -> tensor<3xi32> {
  %c = stablehlo.constant dense<2147483647> : tensor<i32>
  %r = stablehlo.reduce(%x init: %c) applies stablehlo.minimum across dimensions = [0] : (tensor<4x3xi32>, tensor<i32>) -> tensor<3xi32>
  return %r : tensor<3xi32>
}

// -----

// Check that kept and reduced dimensions each keep their order (float max).
// CHECK-LABEL: func.func @interleaved
// CHECK: %[[T:.*]] = stablehlo.transpose %arg0, dims = [1, 3, 0, 2] : (tensor<2x3x4x5xf32>) -> tensor<3x5x2x4xf32>
// CHECK: stablehlo.reduce(%[[T]] init: %{{.*}}) applies stablehlo.maximum across dimensions = [2, 3] : (tensor<3x5x2x4xf32>, tensor<f32>) -> tensor<3x5xf32>
func.func @interleaved(%x: tensor<2x3x4x5xf32>) -> tensor<3x5xf32> {
  %c = stablehlo.constant dense<0xFF800000> : tensor<f32>
  %r = stablehlo.reduce(%x init: %c) applies stablehlo.maximum across dimensions = [0, 2] : (tensor<2x3x4x5xf32>, tensor<f32>) -> tensor<3x5xf32>
  return %r : tensor<3x5xf32>
}

// -----

// Check that a float sum is normalized only with reassociate=true.
// CHECK-LABEL: func.func @float_sum
// CHECK-NOT: stablehlo.transpose
// REASSOC-LABEL: func.func @float_sum
// REASSOC: stablehlo.transpose %arg0, dims = [1, 0]
func.func @float_sum(%x: tensor<4x3xf32>) -> tensor<3xf32> {
  %c = stablehlo.constant dense<0.0> : tensor<f32>
  %r = stablehlo.reduce(%x init: %c) applies stablehlo.add across dimensions = [0] : (tensor<4x3xf32>, tensor<f32>) -> tensor<3xf32>
  return %r : tensor<3xf32>
}

// -----

// Check that reduces already in canonical order (reduced dimensions last, or none reduced)
// are left alone.
// CHECK-LABEL: func.func @canonical
// CHECK-NOT: stablehlo.transpose
// REASSOC-LABEL: func.func @canonical
// REASSOC-NOT: stablehlo.transpose
func.func @canonical(%x: tensor<4x3x2xi32>) -> (tensor<4xi32>, tensor<4x3x2xi32>) {
  %c = stablehlo.constant dense<0> : tensor<i32>
  %r = stablehlo.reduce(%x init: %c) applies stablehlo.add across dimensions = [1, 2] : (tensor<4x3x2xi32>, tensor<i32>) -> tensor<4xi32>
  %s = stablehlo.reduce(%x init: %c) applies stablehlo.add across dimensions = [] : (tensor<4x3x2xi32>, tensor<i32>) -> tensor<4x3x2xi32>
  return %r, %s : tensor<4xi32>, tensor<4x3x2xi32>
}
