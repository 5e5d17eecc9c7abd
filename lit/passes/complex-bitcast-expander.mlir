// RUN: %hlo-opt %s -p complex-bitcast-expander --split-input-file | filecheck %s

// Check that complex<f64> -> complex<f32> goes through the f64 words of real and imag.
// CHECK-LABEL: func.func @c128_to_c64
// CHECK-DAG: %[[RE:.*]] = stablehlo.real %arg0 : (tensor<3xcomplex<f64>>) -> tensor<3xf64>
// CHECK-DAG: %[[IM:.*]] = stablehlo.imag %arg0 : (tensor<3xcomplex<f64>>) -> tensor<3xf64>
// CHECK: %[[W:.*]] = stablehlo.concatenate %{{.*}}, %{{.*}}, dim = 1 : (tensor<3x1xf64>, tensor<3x1xf64>) -> tensor<3x2xf64>
// CHECK: %[[B:.*]] = stablehlo.bitcast_convert %[[W]] : (tensor<3x2xf64>) -> tensor<3x2x2xf32>
// CHECK: stablehlo.slice %{{.*}} [0:3, 0:2, 0:1]
// CHECK: stablehlo.slice %{{.*}} [0:3, 0:2, 1:2]
// CHECK: %[[C:.*]] = stablehlo.complex %{{.*}}, %{{.*}} : tensor<3x2xcomplex<f32>>
// CHECK-NOT: bitcast_convert {{.*}}complex
// CHECK: return %[[C]]
func.func @c128_to_c64(%z: tensor<3xcomplex<f64>>) -> tensor<3x2xcomplex<f32>> {
  %0 = stablehlo.bitcast_convert %z : (tensor<3xcomplex<f64>>) -> tensor<3x2xcomplex<f32>>
  return %0 : tensor<3x2xcomplex<f32>>
}

// -----

// Check that complex<f32> -> complex<f64> regroups the f32 words in pairs before widening.
// CHECK-LABEL: func.func @c64_to_c128
// CHECK: stablehlo.concatenate %{{.*}}, %{{.*}}, dim = 2 : (tensor<3x2x1xf32>, tensor<3x2x1xf32>) -> tensor<3x2x2xf32>
// CHECK: %[[R:.*]] = stablehlo.reshape %{{.*}} : (tensor<3x2x2xf32>) -> tensor<3x2x2xf32>
// CHECK: stablehlo.bitcast_convert %[[R]] : (tensor<3x2x2xf32>) -> tensor<3x2xf64>
// CHECK: stablehlo.complex %{{.*}}, %{{.*}} : tensor<3xcomplex<f64>>
func.func @c64_to_c128(%z: tensor<3x2xcomplex<f32>>) -> tensor<3xcomplex<f64>> {
  %0 = stablehlo.bitcast_convert %z : (tensor<3x2xcomplex<f32>>) -> tensor<3xcomplex<f64>>
  return %0 : tensor<3xcomplex<f64>>
}

// -----

// Check that a bitcast to the same complex type is its operand, and real bitcasts are left alone.
// CHECK-LABEL: func.func @identity_and_real
// CHECK-NOT: stablehlo.complex
// CHECK: %[[B:.*]] = stablehlo.bitcast_convert %arg1 : (tensor<2xf64>) -> tensor<2x2xf32>
// CHECK: return %arg0, %[[B]]
func.func @identity_and_real(%z: tensor<4xcomplex<f32>>, %x: tensor<2xf64>) -> (tensor<4xcomplex<f32>>, tensor<2x2xf32>) {
  %0 = stablehlo.bitcast_convert %z : (tensor<4xcomplex<f32>>) -> tensor<4xcomplex<f32>>
  %1 = stablehlo.bitcast_convert %x : (tensor<2xf64>) -> tensor<2x2xf32>
  return %0, %1 : tensor<4xcomplex<f32>>, tensor<2x2xf32>
}
