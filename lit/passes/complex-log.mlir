// RUN: %hlo-opt %s -p complex-log --split-input-file | filecheck %s

// Check that complex log is complex(log(m) + log1p((n/m)^2)/2, atan2(imag z, real z)) with C99's
// signed-zero cases (m, n: the larger and smaller |part|).
// CHECK-LABEL: func.func @complex_log
// CHECK-NOT: stablehlo.abs %arg0
// CHECK: %[[MAX:.*]] = stablehlo.maximum
// CHECK: %[[LOG:.*]] = stablehlo.log %[[MAX]] : tensor<3xf32>
// CHECK: stablehlo.log_plus_one
// CHECK: stablehlo.compare NE
// CHECK: %[[M:.*]] = stablehlo.select
// CHECK-NEXT: %[[IM:.*]] = stablehlo.imag %arg0
// CHECK-NEXT: %[[RE:.*]] = stablehlo.real %arg0
// CHECK: %[[AIM:.*]] = stablehlo.abs %[[IM]] : tensor<3xf32>
// CHECK-NEXT: %[[A:.*]] = stablehlo.atan2 %[[AIM]], %[[RE]] : tensor<3xf32>
// CHECK-NEXT: %[[G:.*]] = stablehlo.multiply %{{.*}}, %[[A]] : tensor<3xf32>
// CHECK: stablehlo.select %{{.*}}, %{{.*}}, %[[G]] : tensor<3xi1>, tensor<3xf32>
// CHECK: %[[P:.*]] = stablehlo.select
// CHECK-NEXT: %[[Z:.*]] = stablehlo.complex %[[M]], %[[P]] : tensor<3xcomplex<f32>>
// CHECK-NEXT: return %[[Z]]
func.func @complex_log(%z: tensor<3xcomplex<f32>>) -> tensor<3xcomplex<f32>> {
  %0 = stablehlo.log %z : tensor<3xcomplex<f32>>
  return %0 : tensor<3xcomplex<f32>>
}

// -----

// Check that real log is left alone.
// CHECK-LABEL: func.func @real_log
// CHECK-NEXT: %[[R:.*]] = stablehlo.log %arg0 : tensor<3xf64>
// CHECK-NEXT: return %[[R]]
func.func @real_log(%x: tensor<3xf64>) -> tensor<3xf64> {
  %0 = stablehlo.log %x : tensor<3xf64>
  return %0 : tensor<3xf64>
}
