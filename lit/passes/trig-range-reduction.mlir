// RUN: %hlo-opt %s -p trig-range-reduction --split-input-file | filecheck %s

// Check that f32 tan reduces its argument to nearest with pi/2 in four parts below |x| = 8192
// and with Payne-Hanek (u64 products of the mantissa with chunks of 1/(2 pi), the top two bits
// of the fraction the quadrant) past it, takes IREE's sin and cos of |r| only, picks s/c or
// -c/s by the quadrant, and never calls IREE's own tan.
// CHECK-LABEL: func.func @tan_f32
// CHECK-NOT: stablehlo.tan
// CHECK: %[[M:.*]] = stablehlo.multiply %arg0, %{{.*}} : tensor<4xf32>
// CHECK-NEXT: %[[K:.*]] = stablehlo.round_nearest_even %[[M]] : tensor<4xf32>
// CHECK: stablehlo.constant dense<1.5703125> : tensor<f32>
// CHECK: stablehlo.constant dense<4.83751297E-4> : tensor<f32>
// CHECK: stablehlo.constant dense<7.54953362E-8> : tensor<f32>
// CHECK: stablehlo.constant dense<2.56334407E-12> : tensor<f32>
// CHECK: %[[FAST:.*]] = stablehlo.subtract %{{.*}}, %{{.*}} : tensor<4xf32>
// CHECK: stablehlo.constant dense<8.192000e+03> : tensor<f32>
// CHECK: %[[SMALL:.*]] = stablehlo.compare LT, %{{.*}}, %{{.*}}, FLOAT
// CHECK: stablehlo.bitcast_convert %arg0 : (tensor<4xf32>) -> tensor<4xui32>
// CHECK: stablehlo.constant dense<2670176> : tensor<ui64>
// CHECK: stablehlo.multiply %{{.*}}, %{{.*}} : tensor<4xui64>
// CHECK: stablehlo.constant dense<62> : tensor<ui64>
// CHECK: %[[TOP:.*]] = stablehlo.shift_right_logical %{{.*}}, %{{.*}} : tensor<4xui64>
// CHECK-NEXT: stablehlo.convert %[[TOP]] : (tensor<4xui64>) -> tensor<4xi32>
// CHECK: stablehlo.convert %{{.*}} : (tensor<4xi64>) -> tensor<4xf32>
// CHECK: %[[Q:.*]] = stablehlo.select %[[SMALL]], %{{.*}}, %{{.*}} : tensor<4xi1>, tensor<4xi32>
// CHECK: %[[R:.*]] = stablehlo.select %[[SMALL]], %[[FAST]], %{{.*}} : tensor<4xi1>, tensor<4xf32>
// CHECK-NEXT: %[[A:.*]] = stablehlo.abs %[[R]] : tensor<4xf32>
// CHECK-NEXT: %[[S:.*]] = stablehlo.sine %[[A]] : tensor<4xf32>
// CHECK-NEXT: %[[C:.*]] = stablehlo.cosine %[[A]] : tensor<4xf32>
// CHECK: stablehlo.and %[[Q]], %{{.*}} : tensor<4xi32>
// CHECK: %[[NC:.*]] = stablehlo.negate %[[C]] : tensor<4xf32>
// CHECK-NEXT: %[[ODD:.*]] = stablehlo.divide %[[NC]], %{{.*}} : tensor<4xf32>
// CHECK-NEXT: %[[EVEN:.*]] = stablehlo.divide %{{.*}}, %[[C]] : tensor<4xf32>
// CHECK-NEXT: %[[T:.*]] = stablehlo.select %{{.*}}, %[[ODD]], %[[EVEN]] : tensor<4xi1>, tensor<4xf32>
// CHECK-NEXT: return %[[T]]
func.func @tan_f32(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = stablehlo.tan %x : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// Check that bf16 sin is computed in f32 and rounded back.
// CHECK-LABEL: func.func @sin_bf16
// CHECK-NEXT: %[[X:.*]] = stablehlo.convert %arg0 : (tensor<3xbf16>) -> tensor<3xf32>
// CHECK-NOT: stablehlo.sine %[[X]]
// CHECK: stablehlo.sine %{{.*}} : tensor<3xf32>
// CHECK-NOT: stablehlo.sine
// CHECK: %[[R:.*]] = stablehlo.convert %{{.*}} : (tensor<3xf32>) -> tensor<3xbf16>
// CHECK-NEXT: return %[[R]]
func.func @sin_bf16(%x: tensor<3xbf16>) -> tensor<3xbf16> {
  %0 = stablehlo.sine %x : tensor<3xbf16>
  return %0 : tensor<3xbf16>
}

// -----

// Check that f64 and complex cos are left alone.
// CHECK-LABEL: func.func @cos_f64_c64
// CHECK-NEXT: %[[A:.*]] = stablehlo.cosine %arg0 : tensor<2xf64>
// CHECK-NEXT: %[[B:.*]] = stablehlo.cosine %arg1 : tensor<2xcomplex<f32>>
// CHECK-NEXT: return %[[A]], %[[B]]
func.func @cos_f64_c64(%x: tensor<2xf64>, %z: tensor<2xcomplex<f32>>) -> (tensor<2xf64>, tensor<2xcomplex<f32>>) {
  %0 = stablehlo.cosine %x : tensor<2xf64>
  %1 = stablehlo.cosine %z : tensor<2xcomplex<f32>>
  return %0, %1 : tensor<2xf64>, tensor<2xcomplex<f32>>
}
