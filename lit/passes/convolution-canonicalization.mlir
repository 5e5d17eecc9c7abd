// RUN: %hlo-opt %s -p convolution-canonicalization --split-input-file | filecheck %s

// Check that an XLA-default [b, f, 0] x [o, i, 0] convolution gets transposes to
// [b, 0, f] x [0, i, o] and its result one back (XLA ConvCanonicalization).
// CHECK-LABEL: func.func @default_layout
// CHECK: %[[X:.*]] = stablehlo.transpose %arg0, dims = [0, 2, 1] : (tensor<1x2x5xf32>) -> tensor<1x5x2xf32>
// CHECK: %[[W:.*]] = stablehlo.transpose %arg1, dims = [2, 1, 0] : (tensor<3x2x2xf32>) -> tensor<2x2x3xf32>
// CHECK: %[[C:.*]] = stablehlo.convolution(%[[X]], %[[W]]) dim_numbers = [b, 0, f]x[0, i, o]->[b, 0, f], window = {stride = [2], pad = {{\[\[}}1, 0]]
// CHECK-SAME: (tensor<1x5x2xf32>, tensor<2x2x3xf32>) -> tensor<1x3x3xf32>
// CHECK: %[[R:.*]] = stablehlo.transpose %[[C]], dims = [0, 2, 1] : (tensor<1x3x3xf32>) -> tensor<1x3x3xf32>
// CHECK: return %[[R]]
func.func @default_layout(%x: tensor<1x2x5xf32>, %w: tensor<3x2x2xf32>) -> tensor<1x3x3xf32> {
  %r = stablehlo.convolution(%x, %w) dim_numbers = [b, f, 0]x[o, i, 0]->[b, f, 0], window = {stride = [2], pad = [[1, 0]]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x2x5xf32>, tensor<3x2x2xf32>) -> tensor<1x3x3xf32>
  return %r : tensor<1x3x3xf32>
}

// -----

// Check that an operand already in canonical order gets no transpose, and that group
// counts and an integer result type are kept (NHWC input and output, OIHW kernel).
// CHECK-LABEL: func.func @kernel_only
// CHECK-NOT: stablehlo.transpose %arg0
// CHECK: %[[W:.*]] = stablehlo.transpose %arg1, dims = [2, 3, 1, 0] : (tensor<4x2x3x3xi32>) -> tensor<3x3x2x4xi32>
// CHECK: %[[C:.*]] = stablehlo.convolution(%arg0, %[[W]]) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]
// CHECK-SAME: batch_group_count = 1 : i64, feature_group_count = 2 : i64
// CHECK-SAME: -> tensor<1x4x4x4xi64>
// CHECK-NOT: stablehlo.transpose
// CHECK: return %[[C]]
func.func @kernel_only(%x: tensor<1x6x6x4xi32>, %w: tensor<4x2x3x3xi32>) -> tensor<1x4x4x4xi64> {
  %r = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[o, i, 0, 1]->[b, 0, 1, f], window = {} {batch_group_count = 1 : i64, feature_group_count = 2 : i64} : (tensor<1x6x6x4xi32>, tensor<4x2x3x3xi32>) -> tensor<1x4x4x4xi64>
  return %r : tensor<1x4x4x4xi64>
}

// -----

// Check that a canonical convolution and one of a dynamic shape are left alone.
// CHECK-LABEL: func.func @left_alone
// CHECK-NOT: stablehlo.transpose
func.func @left_alone(%x: tensor<1x5x2xf32>, %w: tensor<2x2x3xf32>, %y: tensor<?x2x5xf32>, %v: tensor<3x2x2xf32>) -> (tensor<1x4x3xf32>, tensor<?x3x4xf32>) {
  %r = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, f]x[0, i, o]->[b, 0, f], window = {} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x5x2xf32>, tensor<2x2x3xf32>) -> tensor<1x4x3xf32>
  %s = stablehlo.convolution(%y, %v) dim_numbers = [b, f, 0]x[o, i, 0]->[b, f, 0], window = {} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<?x2x5xf32>, tensor<3x2x2xf32>) -> tensor<?x3x4xf32>
  return %r, %s : tensor<1x4x3xf32>, tensor<?x3x4xf32>
}
