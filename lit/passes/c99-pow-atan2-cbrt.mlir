// RUN: %hlo-opt %s -p c99-pow-atan2-cbrt --split-input-file | filecheck %s

// Check that f32 pow is IREE's pow of |x| with C99's special cases selected around it.
// CHECK-LABEL: func.func @pow_f32
// CHECK: %[[AX:.*]] = stablehlo.abs %arg0 : tensor<4xf32>
// CHECK: %[[P:.*]] = stablehlo.power %[[AX]], %arg1 : tensor<4xf32>
// CHECK-NOT: stablehlo.exponential
// CHECK: stablehlo.floor %arg1
// CHECK: stablehlo.bitcast_convert %arg0 : (tensor<4xf32>) -> tensor<4xi32>
// CHECK: stablehlo.constant dense<0x7FC00000> : tensor<f32>
// CHECK: stablehlo.or %{{.*}}, %{{.*}} : tensor<4xi1>
// CHECK: %[[R:.*]] = stablehlo.select %{{.*}}, %{{.*}}, %{{.*}} : tensor<4xi1>, tensor<4xf32>
// CHECK-NEXT: return %[[R]]
func.func @pow_f32(%x: tensor<4xf32>, %y: tensor<4xf32>) -> tensor<4xf32> {
  %0 = stablehlo.power %x, %y : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// Check that f64 pow is exp(t) (1 + t_lo) with t + t_lo = y ln|x| in double-double (ln|x| from the
// exponent and mantissa bits, Dekker's products), IREE's pow kept for subnormal |x| and huge y.
// CHECK-LABEL: func.func @pow_f64
// CHECK: %[[AX:.*]] = stablehlo.abs %arg0 : tensor<4xf64>
// CHECK: %[[P:.*]] = stablehlo.power %[[AX]], %arg1 : tensor<4xf64>
// CHECK: %[[BITS:.*]] = stablehlo.bitcast_convert %[[AX]] : (tensor<4xf64>) -> tensor<4xi64>
// CHECK: stablehlo.shift_right_arithmetic %[[BITS]]
// CHECK: stablehlo.constant dense<0x41A0000002000000> : tensor<f64>
// CHECK: stablehlo.constant dense<0.69314718036912382> : tensor<f64>
// CHECK: %[[E:.*]] = stablehlo.exponential %{{.*}} : tensor<4xf64>
// CHECK: %[[A:.*]] = stablehlo.select %{{.*}}, %[[E]], %{{.*}} : tensor<4xi1>, tensor<4xf64>
// CHECK: stablehlo.constant dense<2.2250738585072014E-308> : tensor<f64>
// CHECK: %[[M:.*]] = stablehlo.select %{{.*}}, %[[A]], %[[P]] : tensor<4xi1>, tensor<4xf64>
// CHECK: stablehlo.floor %arg1
// CHECK: return
func.func @pow_f64(%x: tensor<4xf64>, %y: tensor<4xf64>) -> tensor<4xf64> {
  %0 = stablehlo.power %x, %y : tensor<4xf64>
  return %0 : tensor<4xf64>
}

// -----

// Check that f16 atan2 is computed in f32 (Cephes' atanf of min(|x|, |y|) / max(|x|, |y|), not
// IREE's atan2) with signed zeros and infinities restored, then rounded back.
// CHECK-LABEL: func.func @atan2_f16
// CHECK: %[[Y:.*]] = stablehlo.convert %arg0 : (tensor<4xf16>) -> tensor<4xf32>
// CHECK: %[[X:.*]] = stablehlo.convert %arg1 : (tensor<4xf16>) -> tensor<4xf32>
// CHECK-NOT: stablehlo.atan2
// CHECK: %[[AY:.*]] = stablehlo.abs %[[Y]] : tensor<4xf32>
// CHECK: %[[AX:.*]] = stablehlo.abs %[[X]] : tensor<4xf32>
// CHECK: %[[MX:.*]] = stablehlo.maximum %[[AX]], %[[AY]]
// CHECK: %[[MN:.*]] = stablehlo.minimum %[[AX]], %[[AY]]
// CHECK: stablehlo.divide %[[MN]], %[[MX]]
// CHECK: stablehlo.constant dense<0.0805374458> : tensor<f32>
// CHECK: stablehlo.constant dense<-4.37113883E-8> : tensor<f32>
// CHECK: stablehlo.constant dense<-8.74227765E-8> : tensor<f32>
// CHECK: %[[A:.*]] = stablehlo.select
// CHECK-NEXT: %[[G:.*]] = stablehlo.multiply %{{.*}}, %[[A]] : tensor<4xf32>
// CHECK: stablehlo.constant dense<3.14159274> : tensor<f32>
// CHECK: stablehlo.constant dense<0.785398185> : tensor<f32>
// CHECK: stablehlo.select %{{.*}}, %{{.*}}, %[[G]] : tensor<4xi1>, tensor<4xf32>
// CHECK: %[[R:.*]] = stablehlo.convert %{{.*}} : (tensor<4xf32>) -> tensor<4xf16>
// CHECK-NEXT: return %[[R]]
func.func @atan2_f16(%y: tensor<4xf16>, %x: tensor<4xf16>) -> tensor<4xf16> {
  %0 = stablehlo.atan2 %y, %x : tensor<4xf16>
  return %0 : tensor<4xf16>
}

// -----

// Check that f64 cbrt is exp(log|x| / 3) with one Newton step, and +-0, +-inf pass through.
// CHECK-LABEL: func.func @cbrt_f64
// CHECK-NOT: stablehlo.cbrt
// CHECK: %[[AX:.*]] = stablehlo.abs %arg0 : tensor<3xf64>
// CHECK: stablehlo.log %[[AX]] : tensor<3xf64>
// CHECK: %[[R0:.*]] = stablehlo.exponential %{{.*}} : tensor<3xf64>
// CHECK: stablehlo.multiply %[[R0]], %[[R0]] : tensor<3xf64>
// CHECK: stablehlo.constant dense<0x7FF0000000000000> : tensor<f64>
// CHECK: %[[R:.*]] = stablehlo.select %{{.*}}, %arg0, %{{.*}} : tensor<3xi1>, tensor<3xf64>
// CHECK-NEXT: return %[[R]]
func.func @cbrt_f64(%x: tensor<3xf64>) -> tensor<3xf64> {
  %0 = stablehlo.cbrt %x : tensor<3xf64>
  return %0 : tensor<3xf64>
}

// -----

// Check that complex and integer pow are left alone.
// CHECK-LABEL: func.func @left_alone
// CHECK-NEXT: %[[C:.*]] = stablehlo.power %arg0, %arg0 : tensor<2xcomplex<f32>>
// CHECK-NEXT: %[[I:.*]] = stablehlo.power %arg1, %arg1 : tensor<2xi32>
// CHECK-NEXT: return %[[C]], %[[I]]
func.func @left_alone(%z: tensor<2xcomplex<f32>>, %i: tensor<2xi32>) -> (tensor<2xcomplex<f32>>, tensor<2xi32>) {
  %0 = stablehlo.power %z, %z : tensor<2xcomplex<f32>>
  %1 = stablehlo.power %i, %i : tensor<2xi32>
  return %0, %1 : tensor<2xcomplex<f32>>, tensor<2xi32>
}
