// RUN: %hlo-opt %s -p complex-log,complex-log --split-input-file | filecheck %s

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
// CHECK: %[[ARE:.*]] = stablehlo.abs %[[RE]] : tensor<3xf32>
// CHECK: stablehlo.maximum %[[ARE]], %[[AIM]]
// CHECK: stablehlo.constant dense<-8.74227765E-8> : tensor<f32>
// CHECK: %[[A:.*]] = stablehlo.select
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

// -----

// Check that complex log1p keeps IREE's real part (-inf where real z = -1, imag z = 0) and takes
// its phase from C99's atan2 of (imag z, real z + 1), once even when the pass sees it again.
// CHECK-LABEL: func.func @complex_log1p
// CHECK: %[[L:.*]] = stablehlo.log_plus_one %arg0 {hlo_mlir.log1p_phase} : tensor<3xcomplex<f32>>
// CHECK-NOT: stablehlo.log_plus_one
// CHECK-DAG: %[[RE:.*]] = stablehlo.real %arg0
// CHECK-DAG: %[[IM:.*]] = stablehlo.imag %arg0
// CHECK: %[[S:.*]] = stablehlo.add %[[RE]]
// CHECK: stablehlo.real %[[L]]
// CHECK: %[[AIM:.*]] = stablehlo.abs %[[IM]]
// CHECK: %[[AS:.*]] = stablehlo.abs %[[S]]
// CHECK: stablehlo.maximum %[[AS]], %[[AIM]]
// CHECK: %[[Z:.*]] = stablehlo.complex %{{.*}}, %{{.*}} : tensor<3xcomplex<f32>>
// CHECK-NEXT: return %[[Z]]
func.func @complex_log1p(%z: tensor<3xcomplex<f32>>) -> tensor<3xcomplex<f32>> {
  %0 = stablehlo.log_plus_one %z : tensor<3xcomplex<f32>>
  return %0 : tensor<3xcomplex<f32>>
}
