// RUN: %hlo-opt %s -p complex-expm1 --split-input-file | filecheck %s

// Check that complex<f32> expm1 is expm1(a) cos b - 2 sin(b/2)^2 + i (b = 0 ? b : exp(a) sin b)
// in real ops, with the real sin/cos of b that trig-range-reduction reduces.
// CHECK-LABEL: func.func @expm1_c64
// CHECK-NEXT: %[[A:.*]] = stablehlo.real %arg0 : (tensor<2xcomplex<f32>>) -> tensor<2xf32>
// CHECK-NEXT: %[[B:.*]] = stablehlo.imag %arg0 : (tensor<2xcomplex<f32>>) -> tensor<2xf32>
// CHECK: %[[HALF:.*]] = stablehlo.multiply %[[B]], %{{.*}} : tensor<2xf32>
// CHECK-NEXT: %[[SH:.*]] = stablehlo.sine %[[HALF]] : tensor<2xf32>
// CHECK-NEXT: %[[EM:.*]] = stablehlo.exponential_minus_one %[[A]] : tensor<2xf32>
// CHECK-NEXT: %[[COS:.*]] = stablehlo.cosine %[[B]] : tensor<2xf32>
// CHECK-NEXT: %[[P:.*]] = stablehlo.multiply %[[EM]], %[[COS]] : tensor<2xf32>
// CHECK: %[[RE:.*]] = stablehlo.subtract %[[P]], %{{.*}} : tensor<2xf32>
// CHECK: %[[ZERO:.*]] = stablehlo.compare EQ, %[[B]], %{{.*}}, FLOAT
// CHECK-NEXT: %[[E:.*]] = stablehlo.exponential %[[A]] : tensor<2xf32>
// CHECK-NEXT: %[[SIN:.*]] = stablehlo.sine %[[B]] : tensor<2xf32>
// CHECK-NEXT: %[[Q:.*]] = stablehlo.multiply %[[E]], %[[SIN]] : tensor<2xf32>
// CHECK-NEXT: %[[IM:.*]] = stablehlo.select %[[ZERO]], %[[B]], %[[Q]] : tensor<2xi1>, tensor<2xf32>
// CHECK-NEXT: %[[Z:.*]] = stablehlo.complex %[[RE]], %[[IM]] : tensor<2xcomplex<f32>>
// CHECK-NEXT: return %[[Z]]
func.func @expm1_c64(%z: tensor<2xcomplex<f32>>) -> tensor<2xcomplex<f32>> {
  %0 = stablehlo.exponential_minus_one %z : tensor<2xcomplex<f32>>
  return %0 : tensor<2xcomplex<f32>>
}

// -----

// Check that complex<f64> and real expm1 are left alone.
// CHECK-LABEL: func.func @left_alone
// CHECK-NEXT: %[[A:.*]] = stablehlo.exponential_minus_one %arg0 : tensor<2xcomplex<f64>>
// CHECK-NEXT: %[[B:.*]] = stablehlo.exponential_minus_one %arg1 : tensor<2xf32>
// CHECK-NEXT: return %[[A]], %[[B]]
func.func @left_alone(%x: tensor<2xcomplex<f64>>, %y: tensor<2xf32>) -> (tensor<2xcomplex<f64>>, tensor<2xf32>) {
  %0 = stablehlo.exponential_minus_one %x : tensor<2xcomplex<f64>>
  %1 = stablehlo.exponential_minus_one %y : tensor<2xf32>
  return %0, %1 : tensor<2xcomplex<f64>>, tensor<2xf32>
}
