// RUN: %hlo-opt %s -p complex-sqrt-sign,complex-sqrt-sign --split-input-file | filecheck %s

// Check that complex sqrt's imaginary part takes the sign of a nonzero imag z, once even when
// the pass runs twice.
// CHECK-LABEL: func.func @complex_sqrt
// CHECK: %[[S:.*]] = stablehlo.sqrt %arg0 {hlo_mlir.imaginary_sign} : tensor<3xcomplex<f32>>
// CHECK-NOT: stablehlo.sqrt
// CHECK: %[[IZ:.*]] = stablehlo.imag %arg0
// CHECK: %[[IS:.*]] = stablehlo.imag %[[S]]
// CHECK: %[[A:.*]] = stablehlo.abs %[[IS]]
// CHECK: stablehlo.compare LT, %[[IZ]]
// CHECK: stablehlo.compare GT, %[[IZ]]
// CHECK: %[[I:.*]] = stablehlo.select
// CHECK: %[[R:.*]] = stablehlo.real %[[S]]
// CHECK: %[[C:.*]] = stablehlo.complex %[[R]], %{{.*}} : tensor<3xcomplex<f32>>
// CHECK-NEXT: return %[[C]]
func.func @complex_sqrt(%z: tensor<3xcomplex<f32>>) -> tensor<3xcomplex<f32>> {
  %0 = stablehlo.sqrt %z : tensor<3xcomplex<f32>>
  return %0 : tensor<3xcomplex<f32>>
}

// -----

// Check that complex rsqrt's imaginary part takes the sign opposite to imag z's sign bit.
// CHECK-LABEL: func.func @complex_rsqrt
// CHECK: %[[S:.*]] = stablehlo.rsqrt %arg0 {hlo_mlir.imaginary_sign} : tensor<3xcomplex<f32>>
// CHECK: stablehlo.bitcast_convert
// CHECK: stablehlo.complex
func.func @complex_rsqrt(%z: tensor<3xcomplex<f32>>) -> tensor<3xcomplex<f32>> {
  %0 = stablehlo.rsqrt %z : tensor<3xcomplex<f32>>
  return %0 : tensor<3xcomplex<f32>>
}

// -----

// Check that real sqrt is left alone.
// CHECK-LABEL: func.func @real_sqrt
// CHECK-NEXT: %[[R:.*]] = stablehlo.sqrt %arg0 : tensor<3xf32>
// CHECK-NEXT: return %[[R]]
func.func @real_sqrt(%x: tensor<3xf32>) -> tensor<3xf32> {
  %0 = stablehlo.sqrt %x : tensor<3xf32>
  return %0 : tensor<3xf32>
}
