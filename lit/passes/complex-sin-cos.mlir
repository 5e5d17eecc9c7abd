// RUN: %hlo-opt %s -p complex-sin-cos --split-input-file | filecheck %s

// Check that complex<f32> sin is sin(a) (h + g) + i cos(a) (h - g) in real ops, h = exp(b) / 2,
// g = 0.5 / exp(b), with the real sin and cos of a (XLA's formula).
// CHECK-LABEL: func.func @sin_c64
// CHECK-NEXT: %[[A:.*]] = stablehlo.real %arg0 : (tensor<2xcomplex<f32>>) -> tensor<2xf32>
// CHECK-NEXT: %[[B:.*]] = stablehlo.imag %arg0 : (tensor<2xcomplex<f32>>) -> tensor<2xf32>
// CHECK-NEXT: %[[E:.*]] = stablehlo.exponential %[[B]] : tensor<2xf32>
// CHECK: %[[H:.*]] = stablehlo.multiply %[[E]], %{{.*}} : tensor<2xf32>
// CHECK: %[[G:.*]] = stablehlo.divide %{{.*}}, %[[E]] : tensor<2xf32>
// CHECK-NEXT: %[[S:.*]] = stablehlo.sine %[[A]] : tensor<2xf32>
// CHECK-NEXT: %[[C:.*]] = stablehlo.cosine %[[A]] : tensor<2xf32>
// CHECK-NEXT: %[[SUM:.*]] = stablehlo.add %[[H]], %[[G]] : tensor<2xf32>
// CHECK-NEXT: %[[RE:.*]] = stablehlo.multiply %[[S]], %[[SUM]] : tensor<2xf32>
// CHECK-NEXT: %[[DIFF:.*]] = stablehlo.subtract %[[H]], %[[G]] : tensor<2xf32>
// CHECK-NEXT: %[[IM:.*]] = stablehlo.multiply %[[C]], %[[DIFF]] : tensor<2xf32>
// CHECK-NEXT: %[[Z:.*]] = stablehlo.complex %[[RE]], %[[IM]] : tensor<2xcomplex<f32>>
// CHECK-NEXT: return %[[Z]]
func.func @sin_c64(%z: tensor<2xcomplex<f32>>) -> tensor<2xcomplex<f32>> {
  %0 = stablehlo.sine %z : tensor<2xcomplex<f32>>
  return %0 : tensor<2xcomplex<f32>>
}

// -----

// Check that complex<f32> cos is cos(a) (g + h) + i sin(a) (g - h).
// CHECK-LABEL: func.func @cos_c64
// CHECK: %[[H:.*]] = stablehlo.multiply %{{.*}}, %{{.*}} : tensor<3xf32>
// CHECK: %[[G:.*]] = stablehlo.divide %{{.*}}, %{{.*}} : tensor<3xf32>
// CHECK-NEXT: %[[S:.*]] = stablehlo.sine %{{.*}} : tensor<3xf32>
// CHECK-NEXT: %[[C:.*]] = stablehlo.cosine %{{.*}} : tensor<3xf32>
// CHECK-NEXT: %[[SUM:.*]] = stablehlo.add %[[G]], %[[H]] : tensor<3xf32>
// CHECK-NEXT: %[[RE:.*]] = stablehlo.multiply %[[C]], %[[SUM]] : tensor<3xf32>
// CHECK-NEXT: %[[DIFF:.*]] = stablehlo.subtract %[[G]], %[[H]] : tensor<3xf32>
// CHECK-NEXT: %[[IM:.*]] = stablehlo.multiply %[[S]], %[[DIFF]] : tensor<3xf32>
// CHECK-NEXT: stablehlo.complex %[[RE]], %[[IM]] : tensor<3xcomplex<f32>>
func.func @cos_c64(%z: tensor<3xcomplex<f32>>) -> tensor<3xcomplex<f32>> {
  %0 = stablehlo.cosine %z : tensor<3xcomplex<f32>>
  return %0 : tensor<3xcomplex<f32>>
}

// -----

// Check that complex<f64> sin (the C library's), real f32 cos and complex<f32> tan are left alone.
// CHECK-LABEL: func.func @left_alone
// CHECK-NEXT: %[[A:.*]] = stablehlo.sine %arg0 : tensor<2xcomplex<f64>>
// CHECK-NEXT: %[[B:.*]] = stablehlo.cosine %arg1 : tensor<2xf32>
// CHECK-NEXT: %[[C:.*]] = stablehlo.tan %arg2 : tensor<2xcomplex<f32>>
// CHECK-NEXT: return %[[A]], %[[B]], %[[C]]
func.func @left_alone(%x: tensor<2xcomplex<f64>>, %y: tensor<2xf32>, %z: tensor<2xcomplex<f32>>)
    -> (tensor<2xcomplex<f64>>, tensor<2xf32>, tensor<2xcomplex<f32>>) {
  %0 = stablehlo.sine %x : tensor<2xcomplex<f64>>
  %1 = stablehlo.cosine %y : tensor<2xf32>
  %2 = stablehlo.tan %z : tensor<2xcomplex<f32>>
  return %0, %1, %2 : tensor<2xcomplex<f64>>, tensor<2xf32>, tensor<2xcomplex<f32>>
}
