// RUN: %hlo-opt %s -p complex-division --split-input-file | filecheck %s

// Check that complex division is Smith's algorithm on the parts (divide by the larger part of
// the divisor), with XLA's C99 special cases where both parts of that come out NaN.
// CHECK-LABEL: func.func @complex_divide
// CHECK-DAG: %[[AR:.*]] = stablehlo.real %arg0
// CHECK-DAG: %[[AI:.*]] = stablehlo.imag %arg0
// CHECK-DAG: %[[BR:.*]] = stablehlo.real %arg1
// CHECK-DAG: %[[BI:.*]] = stablehlo.imag %arg1
// CHECK: %[[T1:.*]] = stablehlo.divide %[[BR]], %[[BI]] : tensor<3xf32>
// CHECK: %[[T2:.*]] = stablehlo.divide %[[BI]], %[[BR]] : tensor<3xf32>
// CHECK: stablehlo.compare  NE
// CHECK: %[[Z:.*]] = stablehlo.complex %{{.*}}, %{{.*}} : tensor<3xcomplex<f32>>
// CHECK-NEXT: return %[[Z]]
// CHECK-NOT: stablehlo.divide %arg0
func.func @complex_divide(%a: tensor<3xcomplex<f32>>, %b: tensor<3xcomplex<f32>>) -> tensor<3xcomplex<f32>> {
  %0 = stablehlo.divide %a, %b : tensor<3xcomplex<f32>>
  return %0 : tensor<3xcomplex<f32>>
}

// -----

// Check that real division is left alone.
// CHECK-LABEL: func.func @real_divide
// CHECK-NEXT: %[[R:.*]] = stablehlo.divide %arg0, %arg1 : tensor<3xf32>
// CHECK-NEXT: return %[[R]]
func.func @real_divide(%a: tensor<3xf32>, %b: tensor<3xf32>) -> tensor<3xf32> {
  %0 = stablehlo.divide %a, %b : tensor<3xf32>
  return %0 : tensor<3xf32>
}
