// RUN: %hlo-opt %s -p single-window-stride --split-input-file | filecheck %s

// Check that a strided dimension with one output position gets stride 1 and negative high
// padding that crops the input to the window (3 elements, window 2: high -1).
// CHECK-LABEL: func.func @conv_single_position
// CHECK: stablehlo.convolution(%arg0, %arg1)
// CHECK-SAME: window = {stride = [1], pad = {{\[}}[0, -1]]}
// CHECK-SAME: -> tensor<1x2x1xf32>
func.func @conv_single_position(%x: tensor<1x2x3xf32>, %w: tensor<2x2x2xf32>) -> tensor<1x2x1xf32> {
  %0 = stablehlo.convolution(%x, %w) dim_numbers = [b, f, 0]x[o, i, 0]->[b, f, 0],
       window = {stride = [2], pad = [[0, 0]]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64}
       : (tensor<1x2x3xf32>, tensor<2x2x2xf32>) -> tensor<1x2x1xf32>
  return %0 : tensor<1x2x1xf32>
}

// -----

// Check that only the single-position dimension changes, with dilation, layout and precision kept.
// CHECK-LABEL: func.func @conv_nhwc
// CHECK: dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]
// CHECK-SAME: window = {stride = [1, 2], pad = {{\[}}[1, -3], [0, 0]], lhs_dilate = [2, 1]}
// CHECK-SAME: precision_config = [#stablehlo<precision HIGHEST>, #stablehlo<precision HIGHEST>]
func.func @conv_nhwc(%x: tensor<1x3x5x2xf32>, %w: tensor<3x1x2x4xf32>) -> tensor<1x1x3x4xf32> {
  %0 = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f],
       window = {stride = [4, 2], pad = [[1, 0], [0, 0]], lhs_dilate = [2, 1]}
       {batch_group_count = 1 : i64, feature_group_count = 1 : i64,
        precision_config = [#stablehlo<precision HIGHEST>, #stablehlo<precision HIGHEST>]}
       : (tensor<1x3x5x2xf32>, tensor<3x1x2x4xf32>) -> tensor<1x1x3x4xf32>
  return %0 : tensor<1x1x3x4xf32>
}

// -----

// Check that reduce_window gets the same rewrite and keeps its reducer.
// CHECK-LABEL: func.func @reduce_window_single_position
// CHECK: "stablehlo.reduce_window"(%arg0, %{{.*}})
// CHECK-SAME: padding = dense<{{\[}}[-1, -2], [1, -1]]> : tensor<2x2xi64>
// CHECK-SAME: window_strides = array<i64: 1, 2>
// CHECK: stablehlo.maximum
func.func @reduce_window_single_position(%x: tensor<6x4xf32>) -> tensor<1x2xf32> {
  %init = stablehlo.constant dense<0xFF800000> : tensor<f32>
  %r = "stablehlo.reduce_window"(%x, %init) ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %m = stablehlo.maximum %a, %b : tensor<f32>
      stablehlo.return %m : tensor<f32>
  }) {window_dimensions = array<i64: 3, 2>, window_strides = array<i64: 2, 2>,
      padding = dense<[[-1, -1], [1, -1]]> : tensor<2x2xi64>} : (tensor<6x4xf32>, tensor<f32>) -> tensor<1x2xf32>
  return %r : tensor<1x2xf32>
}

// -----

// Check that strided dimensions with several positions, and stride-1 single positions, are left alone.
// CHECK-LABEL: func.func @untouched
// CHECK: window = {stride = [2, 1], pad = {{\[}}[0, 0], [0, 0]]}
func.func @untouched(%x: tensor<1x2x5x2xf32>, %w: tensor<2x2x3x2xf32>) -> tensor<1x2x2x1xf32> {
  %0 = stablehlo.convolution(%x, %w) dim_numbers = [b, f, 0, 1]x[o, i, 0, 1]->[b, f, 0, 1],
       window = {stride = [2, 1], pad = [[0, 0], [0, 0]]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64}
       : (tensor<1x2x5x2xf32>, tensor<2x2x3x2xf32>) -> tensor<1x2x2x1xf32>
  return %0 : tensor<1x2x2x1xf32>
}

// -----

// Check that a quantized convolution (no XLA dtype) gets the same rewrite, its element types
// and discardable attributes kept.
// CHECK-LABEL: func.func @quantized
// CHECK: stablehlo.convolution(%arg0, %arg1)
// CHECK-SAME: window = {stride = [1], pad = {{\[}}[0, -1]]}
// CHECK-SAME: mhlo.frontend_attributes = {a = "b"}
// CHECK-SAME: -> tensor<1x1x1x!quant.uniform<i32:f32, 1.000000e-02>>
func.func @quantized(%x: tensor<1x3x1x!quant.uniform<i8:f32, 0.1:-3>>, %w: tensor<2x1x1x!quant.uniform<i8:f32, 0.2>>) -> tensor<1x1x1x!quant.uniform<i32:f32, 0.01>> {
  %0 = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, f]x[0, i, o]->[b, 0, f], window = {stride = [2]}
       {batch_group_count = 1 : i64, feature_group_count = 1 : i64, mhlo.frontend_attributes = {a = "b"}}
       : (tensor<1x3x1x!quant.uniform<i8:f32, 0.1:-3>>, tensor<2x1x1x!quant.uniform<i8:f32, 0.2>>) -> tensor<1x1x1x!quant.uniform<i32:f32, 0.01>>
  return %0 : tensor<1x1x1x!quant.uniform<i32:f32, 0.01>>
}
