// RUN: %hlo-opt %s -p complex-pow --split-input-file | filecheck %s

// Check that complex pow is |x|^c exp(-d t) (cos q + i sin q) in real ops: t is c99-pow-atan2-cbrt's
// f32 atan2 of |imag x| signed as imag x, |x|^c a real power of the hypot, q = c t + d log|x| reduced by 2 pi
// (round_nearest_even of q / 2 pi; Payne-Hanek in u64 arithmetic for huge q) before cosine and sine.
// CHECK-LABEL: func.func @complex_pow
// CHECK-DAG: %[[A:.*]] = stablehlo.real %arg0
// CHECK-DAG: %[[B:.*]] = stablehlo.imag %arg0
// CHECK-DAG: %[[C:.*]] = stablehlo.real %arg1
// CHECK-NOT: stablehlo.power %arg0
// CHECK: stablehlo.bitcast_convert %[[B]]
// CHECK: %[[AB:.*]] = stablehlo.abs %[[B]]
// CHECK: %[[AA:.*]] = stablehlo.abs %[[A]]
// CHECK: stablehlo.maximum %[[AA]], %[[AB]]
// CHECK: stablehlo.power %{{.*}}, %[[C]] : tensor<4xf32>
// CHECK: stablehlo.exponential %{{.*}} : tensor<4xf32>
// CHECK: stablehlo.log %{{.*}} : tensor<4xf32>
// CHECK: %[[K:.*]] = stablehlo.round_nearest_even
// CHECK: stablehlo.multiply %{{.*}}, %{{.*}} : tensor<4xui64>
// CHECK: stablehlo.cosine %[[R:.*]] : tensor<4xf32>
// CHECK: stablehlo.sine %[[R]]
// CHECK: %[[Z:.*]] = stablehlo.complex %{{.*}}, %{{.*}} : tensor<4xcomplex<f32>>
// CHECK-NEXT: return %[[Z]]
func.func @complex_pow(%x: tensor<4xcomplex<f32>>, %y: tensor<4xcomplex<f32>>) -> tensor<4xcomplex<f32>> {
  %0 = stablehlo.power %x, %y : tensor<4xcomplex<f32>>
  return %0 : tensor<4xcomplex<f32>>
}

// -----

// Check that complex<f64> pow reads its phase unreduced (IREE's f64 sin/cos are libm's).
// CHECK-LABEL: func.func @complex_pow_f64
// CHECK-NOT: round_nearest_even
// CHECK: stablehlo.cosine %{{.*}} : tensor<2xf64>
// CHECK: stablehlo.complex %{{.*}} : tensor<2xcomplex<f64>>
func.func @complex_pow_f64(%x: tensor<2xcomplex<f64>>) -> tensor<2xcomplex<f64>> {
  %0 = stablehlo.power %x, %x : tensor<2xcomplex<f64>>
  return %0 : tensor<2xcomplex<f64>>
}

// -----

// Check that real pow is left alone (c99-pow-atan2-cbrt's).
// CHECK-LABEL: func.func @real_pow
// CHECK-NEXT: %[[R:.*]] = stablehlo.power %arg0, %arg1 : tensor<3xf32>
// CHECK-NEXT: return %[[R]]
func.func @real_pow(%x: tensor<3xf32>, %y: tensor<3xf32>) -> tensor<3xf32> {
  %0 = stablehlo.power %x, %y : tensor<3xf32>
  return %0 : tensor<3xf32>
}
