// RUN: %hlo-opt %s -p product-reduction-barrier --split-input-file | filecheck %s

// Check that a reduce over a dimension one factor gets from a broadcast reads the product
// through a barrier.
// CHECK-LABEL: func.func @weighted_sum
// CHECK: %[[P:.*]] = stablehlo.multiply
// CHECK: %[[B:.*]] = stablehlo.optimization_barrier %[[P]]
// CHECK: stablehlo.reduce(%[[B]] init:
func.func @weighted_sum(%x: tensor<2x3xf32>, %w: tensor<3xf32>) -> tensor<f32> {
  %w2 = stablehlo.broadcast_in_dim %w, dims = [1] : (tensor<3xf32>) -> tensor<2x3xf32>
  %p = stablehlo.multiply %x, %w2 : tensor<2x3xf32>
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  %s = stablehlo.reduce(%p init: %z) applies stablehlo.add across dimensions = [0, 1] : (tensor<2x3xf32>, tensor<f32>) -> tensor<f32>
  return %s : tensor<f32>
}

// -----

// Check that a dot without contracting dimensions whose free dimension is reduced, read
// through a reshape, is fenced too.
// CHECK-LABEL: func.func @dot_through_reshape
// CHECK: %[[D:.*]] = stablehlo.dot_general
// CHECK: %[[R:.*]] = stablehlo.reshape %[[D]]
// CHECK: %[[B:.*]] = stablehlo.optimization_barrier %[[R]]
// CHECK: stablehlo.reduce(%[[B]] init:
func.func @dot_through_reshape(%x: tensor<2x3xf32>, %y: tensor<2x1xf32>) -> tensor<f32> {
  %d = stablehlo.dot_general %x, %y, batching_dims = [0] x [0], contracting_dims = [] x [] : (tensor<2x3xf32>, tensor<2x1xf32>) -> tensor<2x3x1xf32>
  %r = stablehlo.reshape %d : (tensor<2x3x1xf32>) -> tensor<6xf32>
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  %s = stablehlo.reduce(%r init: %z) applies stablehlo.add across dimensions = [0] : (tensor<6xf32>, tensor<f32>) -> tensor<f32>
  return %s : tensor<f32>
}

// -----

// Check that a product of full operands and a reduction over shared dimensions only keep
// their fused form.
// CHECK-LABEL: func.func @shared_dims
// CHECK-NOT: stablehlo.optimization_barrier
func.func @shared_dims(%x: tensor<2x3xf32>, %y: tensor<2x3xf32>, %w: tensor<2xf32>) -> (tensor<f32>, tensor<3xf32>) {
  %p = stablehlo.multiply %x, %y : tensor<2x3xf32>
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  %s = stablehlo.reduce(%p init: %z) applies stablehlo.add across dimensions = [0, 1] : (tensor<2x3xf32>, tensor<f32>) -> tensor<f32>
  %w2 = stablehlo.broadcast_in_dim %w, dims = [0] : (tensor<2xf32>) -> tensor<2x3xf32>
  %q = stablehlo.multiply %x, %w2 : tensor<2x3xf32>
  %t = stablehlo.reduce(%q init: %z) applies stablehlo.add across dimensions = [0] : (tensor<2x3xf32>, tensor<f32>) -> tensor<3xf32>
  return %s, %t : tensor<f32>, tensor<3xf32>
}
