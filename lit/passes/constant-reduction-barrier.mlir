// RUN: %hlo-opt %s -p constant-reduction-barrier --split-input-file | filecheck %s

// Check that a reduce of an element-wise op of a splat constant reads it through a
// barrier, its init value directly.
// CHECK-LABEL: func.func @negated_splat
// CHECK: %[[N:.*]] = stablehlo.negate
// CHECK: %[[Z:.*]] = stablehlo.constant dense<0.000000e+00> : tensor<f32>
// CHECK-NEXT: %[[B:.*]] = stablehlo.optimization_barrier %[[N]] : tensor<18xf32>
// CHECK-NEXT: stablehlo.reduce(%[[B]] init: %[[Z]])
func.func @negated_splat() -> tensor<f32> {
  %c = stablehlo.constant dense<4.0> : tensor<18xf32>
  %n = stablehlo.negate %c : tensor<18xf32>
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  %s = stablehlo.reduce(%n init: %z) applies stablehlo.add across dimensions = [0] : (tensor<18xf32>, tensor<f32>) -> tensor<f32>
  return %s : tensor<f32>
}

// -----

// Check that a chain of ops over constants (a broadcast, a convert) is fenced once.
// CHECK-LABEL: func.func @chain
// CHECK-COUNT-1: stablehlo.optimization_barrier
// CHECK-NOT: stablehlo.optimization_barrier
func.func @chain() -> tensor<3xf32> {
  %c = stablehlo.constant dense<4> : tensor<i32>
  %b = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i32>) -> tensor<3x6xi32>
  %f = stablehlo.convert %b : (tensor<3x6xi32>) -> tensor<3x6xf32>
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  %s = stablehlo.reduce(%f init: %z) applies stablehlo.add across dimensions = [1] : (tensor<3x6xf32>, tensor<f32>) -> tensor<3xf32>
  return %s : tensor<3xf32>
}

// -----

// Check that constants, barriers and values a parameter flows into are left alone.
// CHECK-LABEL: func.func @left_alone
// CHECK-COUNT-1: stablehlo.optimization_barrier
// CHECK-NOT: stablehlo.optimization_barrier
// CHECK: return
func.func @left_alone(%x: tensor<18xf32>) -> (tensor<f32>, tensor<f32>, tensor<f32>) {
  %c = stablehlo.constant dense<4.0> : tensor<18xf32>
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  %s1 = stablehlo.reduce(%c init: %z) applies stablehlo.add across dimensions = [0] : (tensor<18xf32>, tensor<f32>) -> tensor<f32>
  %a = stablehlo.add %c, %x : tensor<18xf32>
  %s2 = stablehlo.reduce(%a init: %z) applies stablehlo.add across dimensions = [0] : (tensor<18xf32>, tensor<f32>) -> tensor<f32>
  %n = stablehlo.negate %c : tensor<18xf32>
  %b = stablehlo.optimization_barrier %n : tensor<18xf32>
  %s3 = stablehlo.reduce(%b init: %z) applies stablehlo.add across dimensions = [0] : (tensor<18xf32>, tensor<f32>) -> tensor<f32>
  return %s1, %s2, %s3 : tensor<f32>, tensor<f32>, tensor<f32>
}
