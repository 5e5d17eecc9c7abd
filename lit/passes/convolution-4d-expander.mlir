// RUN: %hlo-opt %s -p convolution-4d-expander --split-input-file | filecheck %s
// RUN: %hlo-opt %s -p 'convolution-4d-expander{all-ranks=true}' --split-input-file | filecheck %s --check-prefix=ALL

// Check that a trivial spatial dimension (input size 1, no padding) of a 4-D convolution
// goes, with its stride and dilation (XLA Convolution4DExpander).
// CHECK-LABEL: func.func @one_trivial
// CHECK: %[[X:.*]] = stablehlo.reshape %arg0 : (tensor<1x1x5x5x5x2xf32>) -> tensor<1x5x5x5x2xf32>
// CHECK: %[[W:.*]] = stablehlo.reshape %arg1 : (tensor<1x3x3x3x2x4xf32>) -> tensor<3x3x3x2x4xf32>
// CHECK: %[[C:.*]] = stablehlo.convolution(%[[X]], %[[W]]) dim_numbers = [b, 0, 1, 2, f]x[0, 1, 2, i, o]->[b, 0, 1, 2, f], window = {stride = [1, 1, 1], pad = {{\[\[}}0, 0], [0, 0], [0, 0]], lhs_dilate = [1, 1, 1], rhs_dilate = [1, 1, 1]}
// CHECK-SAME: -> tensor<1x3x3x3x4xf32>
// CHECK: %[[R:.*]] = stablehlo.reshape %[[C]] : (tensor<1x3x3x3x4xf32>) -> tensor<1x1x3x3x3x4xf32>
// CHECK: return %[[R]]
func.func @one_trivial(%x: tensor<1x1x5x5x5x2xf32>, %w: tensor<1x3x3x3x2x4xf32>) -> tensor<1x1x3x3x3x4xf32> {
  %r = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, 1, 2, 3, f]x[0, 1, 2, 3, i, o]->[b, 0, 1, 2, 3, f], window = {stride = [2, 1, 1, 1], rhs_dilate = [3, 1, 1, 1]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x1x5x5x5x2xf32>, tensor<1x3x3x3x2x4xf32>) -> tensor<1x1x3x3x3x4xf32>
  return %r : tensor<1x1x3x3x3x4xf32>
}

// -----

// Check that dimension numbers are renumbered around the dimensions that go, in another
// layout ([b, f, 0, 1, 2, 3]) with two trivial dimensions and a padded one kept.
// CHECK-LABEL: func.func @two_trivial
// CHECK: stablehlo.reshape %arg0 : (tensor<2x3x1x4x1x1xi32>) -> tensor<2x3x4x1xi32>
// CHECK: stablehlo.reshape %arg1 : (tensor<5x3x1x2x1x1xi32>) -> tensor<5x3x2x1xi32>
// CHECK: stablehlo.convolution({{.*}}) dim_numbers = [b, f, 0, 1]x[o, i, 0, 1]->[b, f, 0, 1], window = {stride = [1, 1], pad = {{\[\[}}0, 0], [1, 1]]
// CHECK-SAME: -> tensor<2x5x3x3xi32>
func.func @two_trivial(%x: tensor<2x3x1x4x1x1xi32>, %w: tensor<5x3x1x2x1x1xi32>) -> tensor<2x5x1x3x1x3xi32> {
  %r = stablehlo.convolution(%x, %w) dim_numbers = [b, f, 0, 1, 2, 3]x[o, i, 0, 1, 2, 3]->[b, f, 0, 1, 2, 3], window = {pad = [[0, 0], [0, 0], [0, 0], [1, 1]]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<2x3x1x4x1x1xi32>, tensor<5x3x1x2x1x1xi32>) -> tensor<2x5x1x3x1x3xi32>
  return %r : tensor<2x5x1x3x1x3xi32>
}

// -----

// Check that a padded size-1 dimension stays (its window sees padding), and that a 2-D
// convolution is left alone unless all-ranks=true.
// CHECK-LABEL: func.func @left_alone
// CHECK-NOT: stablehlo.reshape
// ALL-LABEL: func.func @left_alone
// ALL: stablehlo.reshape %arg2 : (tensor<1x1x5x2xf32>) -> tensor<1x5x2xf32>
func.func @left_alone(%x: tensor<1x1x5x5x5x2xf32>, %w: tensor<3x3x3x3x2x4xf32>, %y: tensor<1x1x5x2xf32>, %v: tensor<1x3x2x4xf32>) -> (tensor<1x1x3x3x3x4xf32>, tensor<1x1x3x4xf32>) {
  %r = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, 1, 2, 3, f]x[0, 1, 2, 3, i, o]->[b, 0, 1, 2, 3, f], window = {pad = [[1, 1], [0, 0], [0, 0], [0, 0]]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x1x5x5x5x2xf32>, tensor<3x3x3x3x2x4xf32>) -> tensor<1x1x3x3x3x4xf32>
  %s = stablehlo.convolution(%y, %v) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x1x5x2xf32>, tensor<1x3x2x4xf32>) -> tensor<1x1x3x4xf32>
  return %r, %s : tensor<1x1x3x3x3x4xf32>, tensor<1x1x3x4xf32>
}
