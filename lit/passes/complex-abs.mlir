// RUN: %hlo-opt %s -p complex-abs --split-input-file | filecheck %s

// Check that complex abs is a scaled hypot: max * sqrt(1 + (min / max)^2), 0 for 0, inf for an inf part.
// CHECK-LABEL: func.func @complex_abs
// CHECK-NOT: stablehlo.abs %arg0
// CHECK: %[[RE:.*]] = stablehlo.real %arg0
// CHECK: %[[IM:.*]] = stablehlo.imag %arg0
// CHECK: %[[AR:.*]] = stablehlo.abs %[[RE]] : tensor<3xf32>
// CHECK: %[[AI:.*]] = stablehlo.abs %[[IM]] : tensor<3xf32>
// CHECK: %[[M:.*]] = stablehlo.maximum %[[AR]], %[[AI]]
// CHECK: %[[N:.*]] = stablehlo.minimum %[[AR]], %[[AI]]
// CHECK: %[[Q:.*]] = stablehlo.divide %[[N]], %[[M]]
// CHECK: stablehlo.constant dense<0x7F800000> : tensor<f32>
// CHECK: stablehlo.sqrt
// CHECK: stablehlo.multiply %[[M]]
// CHECK: stablehlo.compare NE, %[[AR]], %[[AR]]
// CHECK: %[[R:.*]] = stablehlo.select
// CHECK-NEXT: return %[[R]]
func.func @complex_abs(%z: tensor<3xcomplex<f32>>) -> tensor<3xf32> {
  %0 = stablehlo.abs %z : (tensor<3xcomplex<f32>>) -> tensor<3xf32>
  return %0 : tensor<3xf32>
}

// -----

// Check that real abs is left alone.
// CHECK-LABEL: func.func @real_abs
// CHECK-NEXT: %[[R:.*]] = stablehlo.abs %arg0 : tensor<3xf64>
// CHECK-NEXT: return %[[R]]
func.func @real_abs(%x: tensor<3xf64>) -> tensor<3xf64> {
  %0 = stablehlo.abs %x : tensor<3xf64>
  return %0 : tensor<3xf64>
}
