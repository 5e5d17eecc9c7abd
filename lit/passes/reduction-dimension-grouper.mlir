// RUN: %hlo-opt %s -p reduction-dimension-grouper --split-input-file | filecheck %s
// RUN: %hlo-opt %s -p 'reduction-dimension-grouper{reassociate=true}' --split-input-file | filecheck %s --check-prefix=REASSOC

// Check that two adjacent reduced dimensions merge into one (an exact integer sum).
// CHECK-LABEL: func.func @adjacent
// CHECK: %[[X:.*]] = stablehlo.reshape %arg0 : (tensor<2x3x4x5xi32>) -> tensor<2x12x5xi32>
// CHECK: stablehlo.reduce(%[[X]] init: %{{.*}}) applies stablehlo.add across dimensions = [1] : (tensor<2x12x5xi32>, tensor<i32>) -> tensor<2x5xi32>
func.func @adjacent(%x: tensor<2x3x4x5xi32>) -> tensor<2x5xi32> {
  %c = stablehlo.constant dense<0> : tensor<i32>
  %r = stablehlo.reduce(%x init: %c) applies stablehlo.add across dimensions = [1, 2] : (tensor<2x3x4x5xi32>, tensor<i32>) -> tensor<2x5xi32>
  return %r : tensor<2x5xi32>
}

// -----

// Check that two runs of reduced dimensions merge separately around a kept one (float max:
// exact in any order).
// CHECK-LABEL: func.func @two_runs
// CHECK: %[[X:.*]] = stablehlo.reshape %arg0 : (tensor<2x3x4x5x6xf32>) -> tensor<6x4x30xf32>
// CHECK: stablehlo.reduce(%[[X]] init: %{{.*}}) applies stablehlo.maximum across dimensions = [0, 2] : (tensor<6x4x30xf32>, tensor<f32>) -> tensor<4xf32>
func.func @two_runs(%x: tensor<2x3x4x5x6xf32>) -> tensor<4xf32> {
  %c = stablehlo.constant dense<0xFF800000> : tensor<f32>
  %r = stablehlo.reduce(%x init: %c) applies stablehlo.maximum across dimensions = [0, 1, 3, 4] : (tensor<2x3x4x5x6xf32>, tensor<f32>) -> tensor<4xf32>
  return %r : tensor<4xf32>
}

// -----

// Check that a float sum is grouped only with reassociate=true (it may round differently).
// CHECK-LABEL: func.func @float_sum
// CHECK-NOT: stablehlo.reshape
// REASSOC-LABEL: func.func @float_sum
// REASSOC: stablehlo.reshape %arg0 : (tensor<3x4x5xf32>) -> tensor<12x5xf32>
func.func @float_sum(%x: tensor<3x4x5xf32>) -> tensor<5xf32> {
  %c = stablehlo.constant dense<0.0> : tensor<f32>
  %r = stablehlo.reduce(%x init: %c) applies stablehlo.add across dimensions = [0, 1] : (tensor<3x4x5xf32>, tensor<f32>) -> tensor<5xf32>
  return %r : tensor<5xf32>
}

// -----

// Check that non-adjacent reduced dimensions, and a reducer of more than one op, are left
// alone.
// CHECK-LABEL: func.func @not_grouped
// CHECK-NOT: stablehlo.reshape
// REASSOC-LABEL: func.func @not_grouped
// REASSOC-NOT: stablehlo.reshape
func.func @not_grouped(%x: tensor<3x4x5xi32>) -> (tensor<4xi32>, tensor<5xi32>) {
  %c = stablehlo.constant dense<0> : tensor<i32>
  %r = stablehlo.reduce(%x init: %c) applies stablehlo.add across dimensions = [0, 2] : (tensor<3x4x5xi32>, tensor<i32>) -> tensor<4xi32>
  %s = stablehlo.reduce(%x init: %c) across dimensions = [0, 1] : (tensor<3x4x5xi32>, tensor<i32>) -> tensor<5xi32>
    reducer(%a: tensor<i32>, %b: tensor<i32>) {
      %d = stablehlo.subtract %a, %b : tensor<i32>
      %m = stablehlo.multiply %d, %d : tensor<i32>
      stablehlo.return %m : tensor<i32>
    }
  return %r, %s : tensor<4xi32>, tensor<5xi32>
}
