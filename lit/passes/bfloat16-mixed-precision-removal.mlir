// RUN: %hlo-opt %s -p bfloat16-mixed-precision-removal --split-input-file | filecheck %s

// Check that every bf16 op computes in f32, the mixed dot included, with converts only at
// the boundary.
// CHECK-LABEL: func.func @mixed
// CHECK-SAME: (%arg0: tensor<2x3xbf16>, %arg1: tensor<3x2xf32>) -> tensor<2x2xbf16>
// CHECK: %[[A:.*]] = stablehlo.convert %arg0 : (tensor<2x3xbf16>) -> tensor<2x3xf32>
// CHECK: %[[D:.*]] = stablehlo.dot_general %[[A]], %arg1, contracting_dims = [1] x [0] : (tensor<2x3xf32>, tensor<3x2xf32>) -> tensor<2x2xf32>
// CHECK: %[[T:.*]] = stablehlo.tanh %[[D]] : tensor<2x2xf32>
// CHECK: %[[R:.*]] = stablehlo.convert %[[T]] : (tensor<2x2xf32>) -> tensor<2x2xbf16>
// CHECK: return %[[R]]
func.func @mixed(%a: tensor<2x3xbf16>, %b: tensor<3x2xf32>) -> tensor<2x2xbf16> {
  %d = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<2x3xbf16>, tensor<3x2xf32>) -> tensor<2x2xbf16>
  %t = stablehlo.tanh %d : tensor<2x2xbf16>
  return %t : tensor<2x2xbf16>
}

// -----

// Check that f16 values are not touched.
// CHECK-LABEL: func.func @half
// CHECK-NEXT: stablehlo.tanh %arg0 : tensor<4xf16>
func.func @half(%x: tensor<4xf16>) -> tensor<4xf16> {
  %t = stablehlo.tanh %x : tensor<4xf16>
  return %t : tensor<4xf16>
}
