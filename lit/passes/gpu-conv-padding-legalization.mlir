// RUN: %hlo-opt %s -p gpu-conv-padding-legalization --split-input-file | filecheck %s

// Check that asymmetric padding with lhs dilation becomes a pad of zeros (positive edges,
// interior = dilation - 1) and negative padding a slice (XLA MaybePaddedAndSlicedInput).
// CHECK-LABEL: func.func @asymmetric_dilated_negative
// CHECK: %[[Z:.*]] = stablehlo.constant dense<0.000000e+00> : tensor<f32>
// CHECK: %[[P:.*]] = stablehlo.pad %arg0, %[[Z]], low = [0, 2, 0], high = [0, 0, 0], interior = [0, 1, 0] : (tensor<1x6x2xf32>, tensor<f32>) -> tensor<1x13x2xf32>
// CHECK: %[[S:.*]] = stablehlo.slice %[[P]] [0:1, 0:12, 0:2]
// CHECK: %[[C:.*]] = stablehlo.convolution(%[[S]], %arg1) dim_numbers = [b, 0, f]x[0, i, o]->[b, 0, f], window = {stride = [1], pad = {{\[\[}}0, 0]], lhs_dilate = [1], rhs_dilate = [1]}
// CHECK: return %[[C]]
func.func @asymmetric_dilated_negative(%x: tensor<1x6x2xf32>, %w: tensor<3x2x3xf32>) -> tensor<1x10x3xf32> {
  %r = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, f]x[0, i, o]->[b, 0, f], window = {pad = [[2, -1]], lhs_dilate = [2]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x6x2xf32>, tensor<3x2x3xf32>) -> tensor<1x10x3xf32>
  return %r : tensor<1x10x3xf32>
}

// -----

// Check that symmetric negative padding becomes a slice only, that a symmetric positive
// dimension keeps its padding, and that kernel (rhs) dilation stays in the convolution
// (explicit zeros in the kernel would turn 0 * inf into NaN).
// CHECK-LABEL: func.func @symmetric_negative
// CHECK-NOT: stablehlo.pad
// CHECK: %[[S:.*]] = stablehlo.slice %arg0 [0:1, 1:6, 0:7, 0:2]
// CHECK: stablehlo.convolution(%[[S]], %arg1) {{.*}} window = {stride = [1, 1], pad = {{\[\[}}0, 0], [1, 1]], lhs_dilate = [1, 1], rhs_dilate = [1, 2]}
func.func @symmetric_negative(%x: tensor<1x7x7x2xi32>, %w: tensor<2x2x2x3xi32>) -> tensor<1x4x7x3xi32> {
  %r = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {pad = [[-1, -1], [1, 1]], rhs_dilate = [1, 2]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x7x7x2xi32>, tensor<2x2x2x3xi32>) -> tensor<1x4x7x3xi32>
  return %r : tensor<1x4x7x3xi32>
}

// -----

// Check that symmetric non-negative padding without lhs dilation is left alone.
// CHECK-LABEL: func.func @canonical
// CHECK-NOT: stablehlo.pad
// CHECK-NOT: stablehlo.slice
// CHECK: stablehlo.convolution(%arg0, %arg1) {{.*}} window = {pad = {{\[\[}}1, 1]], rhs_dilate = [2]}
func.func @canonical(%x: tensor<1x6x2xf32>, %w: tensor<3x2x3xf32>) -> tensor<1x4x3xf32> {
  %r = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, f]x[0, i, o]->[b, 0, f], window = {pad = [[1, 1]], rhs_dilate = [2]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x6x2xf32>, tensor<3x2x3xf32>) -> tensor<1x4x3xf32>
  return %r : tensor<1x4x3xf32>
}
