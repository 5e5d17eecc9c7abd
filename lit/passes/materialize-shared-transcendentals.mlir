// RUN: %hlo-opt %s -p materialize-shared-transcendentals --split-input-file | filecheck %s

// Check that the exp of a softmax, read by the row sum and by the division, is computed
// once behind an optimization barrier (IREE would recompute it in each consumer).
// CHECK-LABEL: func.func @softmax
// CHECK: %[[E:.*]] = stablehlo.exponential %arg0 : tensor<256x256xf32>
// CHECK: %[[B:.*]] = stablehlo.optimization_barrier %[[E]] : tensor<256x256xf32>
// CHECK: stablehlo.reduce(%[[B]] init:
// CHECK: stablehlo.divide %[[B]],
func.func @softmax(%x: tensor<256x256xf32>) -> tensor<256x256xf32> {
  %e = stablehlo.exponential %x : tensor<256x256xf32>
  %c0 = stablehlo.constant dense<0.0> : tensor<f32>
  %s = stablehlo.reduce(%e init: %c0) applies stablehlo.add across dimensions = [1] : (tensor<256x256xf32>, tensor<f32>) -> tensor<256xf32>
  %b = stablehlo.broadcast_in_dim %s, dims = [0] : (tensor<256xf32>) -> tensor<256x256xf32>
  %r = stablehlo.divide %e, %b : tensor<256x256xf32>
  return %r : tensor<256x256xf32>
}

// -----

// Check that it is left alone with a single user, without a reduction among its users, or
// when the result is small.
// CHECK-LABEL: func.func @refusals
// CHECK-NOT: optimization_barrier
func.func @refusals(%x: tensor<256x256xf32>, %y: tensor<16x16xf32>) -> (tensor<256xf32>, tensor<256x256xf32>, tensor<16xf32>, tensor<16x16xf32>) {
  %c0 = stablehlo.constant dense<0.0> : tensor<f32>
  %e = stablehlo.exponential %x : tensor<256x256xf32>
  %s = stablehlo.reduce(%e init: %c0) applies stablehlo.add across dimensions = [1] : (tensor<256x256xf32>, tensor<f32>) -> tensor<256xf32>
  %t = stablehlo.tanh %x : tensor<256x256xf32>
  %u = stablehlo.add %t, %t : tensor<256x256xf32>
  %v = stablehlo.multiply %t, %u : tensor<256x256xf32>
  %l = stablehlo.log %y : tensor<16x16xf32>
  %ls = stablehlo.reduce(%l init: %c0) applies stablehlo.add across dimensions = [1] : (tensor<16x16xf32>, tensor<f32>) -> tensor<16xf32>
  %lm = stablehlo.multiply %l, %l : tensor<16x16xf32>
  return %s, %v, %ls, %lm : tensor<256xf32>, tensor<256x256xf32>, tensor<16xf32>, tensor<16x16xf32>
}

// -----

// Check that a quantized transcendental (no XLA dtype) is left alone.
// CHECK-LABEL: func.func @quantized
// CHECK-NOT: optimization_barrier
func.func @quantized(%x: tensor<256x256x!quant.uniform<i8:f32, 0.1:-3>>, %init: tensor<!quant.uniform<i8:f32, 0.1:-3>>) -> (tensor<256x!quant.uniform<i8:f32, 0.1:-3>>, tensor<256x256x!quant.uniform<i8:f32, 0.1:-3>>) {
  %t = stablehlo.tanh %x : tensor<256x256x!quant.uniform<i8:f32, 0.1:-3>>
  %s = stablehlo.reduce(%t init: %init) applies stablehlo.maximum across dimensions = [1] : (tensor<256x256x!quant.uniform<i8:f32, 0.1:-3>>, tensor<!quant.uniform<i8:f32, 0.1:-3>>) -> tensor<256x!quant.uniform<i8:f32, 0.1:-3>>
  %m = stablehlo.maximum %t, %x : tensor<256x256x!quant.uniform<i8:f32, 0.1:-3>>
  return %s, %m : tensor<256x!quant.uniform<i8:f32, 0.1:-3>>, tensor<256x256x!quant.uniform<i8:f32, 0.1:-3>>
}
