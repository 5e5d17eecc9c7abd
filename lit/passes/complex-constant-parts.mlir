// RUN: %hlo-opt %s -p complex-constant-parts --split-input-file | filecheck %s

// Check that complex constants become complex(real constant, imaginary constant), signed zeros kept.
// CHECK-LABEL: func.func @complex_constants
// CHECK-NEXT: %[[RE:.*]] = stablehlo.constant dense<[1.000000e+00, 3.000000e+00]> : tensor<2xf32>
// CHECK-NEXT: %[[IM:.*]] = stablehlo.constant dense<[2.000000e+00, -4.000000e+00]> : tensor<2xf32>
// CHECK-NEXT: %[[C:.*]] = stablehlo.complex %[[RE]], %[[IM]] : tensor<2xcomplex<f32>>
// CHECK-NEXT: %[[RE2:.*]] = stablehlo.constant dense<5.000000e-01> : tensor<f64>
// CHECK-NEXT: %[[IM2:.*]] = stablehlo.constant dense<-0.000000e+00> : tensor<f64>
// CHECK-NEXT: %[[S:.*]] = stablehlo.complex %[[RE2]], %[[IM2]] : tensor<complex<f64>>
// CHECK-NEXT: return %[[C]], %[[S]]
func.func @complex_constants() -> (tensor<2xcomplex<f32>>, tensor<complex<f64>>) {
  %0 = stablehlo.constant dense<[(1.0, 2.0), (3.0, -4.0)]> : tensor<2xcomplex<f32>>
  %1 = stablehlo.constant dense<(0.5, -0.0)> : tensor<complex<f64>>
  return %0, %1 : tensor<2xcomplex<f32>>, tensor<complex<f64>>
}

// -----

// Check that a complex splat stays a splat of each part.
// CHECK-LABEL: func.func @splat
// CHECK-NEXT: %[[RE:.*]] = stablehlo.constant dense<1.500000e+00> : tensor<2x3xf32>
// CHECK-NEXT: %[[IM:.*]] = stablehlo.constant dense<-2.500000e+00> : tensor<2x3xf32>
// CHECK-NEXT: stablehlo.complex %[[RE]], %[[IM]] : tensor<2x3xcomplex<f32>>
func.func @splat() -> tensor<2x3xcomplex<f32>> {
  %0 = stablehlo.constant dense<(1.5, -2.5)> : tensor<2x3xcomplex<f32>>
  return %0 : tensor<2x3xcomplex<f32>>
}

// -----

// Check that real constants are left alone.
// CHECK-LABEL: func.func @real
// CHECK-NEXT: %[[C:.*]] = stablehlo.constant dense<[1.000000e+00, 2.000000e+00]> : tensor<2xf64>
// CHECK-NOT: stablehlo.complex
// CHECK-NEXT: return %[[C]]
func.func @real() -> tensor<2xf64> {
  %0 = stablehlo.constant dense<[1.0, 2.0]> : tensor<2xf64>
  return %0 : tensor<2xf64>
}
