// RUN: %hlo-opt %s -p complex-exp --split-input-file | filecheck %s

// Check that complex exp is exp(a) (cos b + i sin b) in real ops, through exp(a/2) twice where
// exp(a) is inf, with an imaginary part of 0 where b = 0 and b reduced by 2 pi first (Cody-Waite,
// Payne-Hanek in u64 arithmetic for huge b).
// CHECK-LABEL: func.func @complex_exp
// CHECK-DAG: %[[A:.*]] = stablehlo.real %arg0
// CHECK-DAG: %[[B:.*]] = stablehlo.imag %arg0
// CHECK-NOT: stablehlo.exponential %arg0
// CHECK: %[[E:.*]] = stablehlo.exponential %[[A]] : tensor<4xf32>
// CHECK: %[[H:.*]] = stablehlo.multiply %[[A]]
// CHECK-NEXT: %[[EH:.*]] = stablehlo.exponential %[[H]] : tensor<4xf32>
// CHECK: stablehlo.round_nearest_even
// CHECK: stablehlo.multiply %{{.*}}, %{{.*}} : tensor<4xui64>
// CHECK: stablehlo.shift_left
// CHECK: stablehlo.shift_right_logical
// CHECK: %[[COS:.*]] = stablehlo.cosine %[[R:.*]] : tensor<4xf32>
// CHECK-NEXT: %[[SIN:.*]] = stablehlo.sine %[[R]]
// CHECK: stablehlo.compare EQ, %[[E]]
// CHECK: stablehlo.compare EQ, %[[B]]
// CHECK: %[[Z:.*]] = stablehlo.complex %{{.*}}, %{{.*}} : tensor<4xcomplex<f32>>
// CHECK-NEXT: return %[[Z]]
func.func @complex_exp(%z: tensor<4xcomplex<f32>>) -> tensor<4xcomplex<f32>> {
  %0 = stablehlo.exponential %z : tensor<4xcomplex<f32>>
  return %0 : tensor<4xcomplex<f32>>
}

// -----

// Check that real exp is left alone.
// CHECK-LABEL: func.func @real_exp
// CHECK-NEXT: %[[R:.*]] = stablehlo.exponential %arg0 : tensor<3xf32>
// CHECK-NEXT: return %[[R]]
func.func @real_exp(%x: tensor<3xf32>) -> tensor<3xf32> {
  %0 = stablehlo.exponential %x : tensor<3xf32>
  return %0 : tensor<3xf32>
}
