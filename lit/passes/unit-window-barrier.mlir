// RUN: %hlo-opt %s -p unit-window-barrier --split-input-file | filecheck %s

// Check that a strided reduce_window of one-element windows reads a computed input
// through a barrier, and its init value directly.
// CHECK-LABEL: func.func @strided_unit_window
// CHECK: %[[R:.*]] = stablehlo.round_nearest_afz %arg0
// CHECK: %[[Z:.*]] = stablehlo.constant
// CHECK-NEXT: %[[B:.*]] = stablehlo.optimization_barrier %[[R]] : tensor<6x1xbf16>
// CHECK-NEXT: "stablehlo.reduce_window"(%[[B]], %[[Z]])
// CHECK: stablehlo.compare LT, %[[R]]
func.func @strided_unit_window(%x: tensor<6x1xbf16>, %k: tensor<6x1xbf16>) -> (tensor<6x1xi1>, tensor<3x1xbf16>) {
  %r = stablehlo.round_nearest_afz %x : tensor<6x1xbf16>
  %z = stablehlo.constant dense<0.0> : tensor<bf16>
  %w = "stablehlo.reduce_window"(%r, %z) <{window_dimensions = array<i64: 1, 1>, window_strides = array<i64: 2, 2>}> ({
  ^bb0(%a: tensor<bf16>, %b: tensor<bf16>):
    %s = stablehlo.add %a, %b : tensor<bf16>
    stablehlo.return %s : tensor<bf16>
  }) : (tensor<6x1xbf16>, tensor<bf16>) -> tensor<3x1xbf16>
  %c = stablehlo.compare LT, %r, %k, FLOAT : (tensor<6x1xbf16>, tensor<6x1xbf16>) -> tensor<6x1xi1>
  return %c, %w : tensor<6x1xi1>, tensor<3x1xbf16>
}

// -----

// Check that larger windows, unit strides, parameters and barriers are left alone.
// CHECK-LABEL: func.func @left_alone
// CHECK-COUNT-1: stablehlo.optimization_barrier
// CHECK-NOT: stablehlo.optimization_barrier
// CHECK: return
func.func @left_alone(%x: tensor<6x1xf32>) -> (tensor<3x1xf32>, tensor<6x1xf32>, tensor<3x1xf32>, tensor<3x1xf32>) {
  %n = stablehlo.negate %x : tensor<6x1xf32>
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  %w2 = "stablehlo.reduce_window"(%n, %z) <{window_dimensions = array<i64: 2, 1>, window_strides = array<i64: 2, 1>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) : (tensor<6x1xf32>, tensor<f32>) -> tensor<3x1xf32>
  %s1 = "stablehlo.reduce_window"(%n, %z) <{window_dimensions = array<i64: 1, 1>, window_strides = array<i64: 1, 1>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) : (tensor<6x1xf32>, tensor<f32>) -> tensor<6x1xf32>
  %p = "stablehlo.reduce_window"(%x, %z) <{window_dimensions = array<i64: 1, 1>, window_strides = array<i64: 2, 1>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) : (tensor<6x1xf32>, tensor<f32>) -> tensor<3x1xf32>
  %f = stablehlo.optimization_barrier %n : tensor<6x1xf32>
  %q = "stablehlo.reduce_window"(%f, %z) <{window_dimensions = array<i64: 1, 1>, window_strides = array<i64: 2, 1>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) : (tensor<6x1xf32>, tensor<f32>) -> tensor<3x1xf32>
  return %w2, %s1, %p, %q : tensor<3x1xf32>, tensor<6x1xf32>, tensor<3x1xf32>, tensor<3x1xf32>
}
