// RUN: %hlo-opt %s -p bfloat16-normalization --split-input-file | filecheck %s
// RUN: %hlo-opt %s -p "bfloat16-normalization{unsupported-ops=exponential mixed-precision=true}" --split-input-file | filecheck %s --check-prefix=EXP

// Check that a bf16 dot_general computes in f32 between converts (XLA ResolveIfUnsupportedBF16).
// CHECK-LABEL: func.func @dot
// CHECK: %[[A:.*]] = stablehlo.convert %arg0 : (tensor<2x3xbf16>) -> tensor<2x3xf32>
// CHECK: %[[B:.*]] = stablehlo.convert %arg1 : (tensor<3x2xbf16>) -> tensor<3x2xf32>
// CHECK: %[[D:.*]] = stablehlo.dot_general %[[A]], %[[B]], contracting_dims = [1] x [0] : (tensor<2x3xf32>, tensor<3x2xf32>) -> tensor<2x2xf32>
// CHECK: %[[R:.*]] = stablehlo.convert %[[D]] : (tensor<2x2xf32>) -> tensor<2x2xbf16>
// CHECK: return %[[R]]
// EXP-LABEL: func.func @dot
// EXP-NOT: f32
func.func @dot(%a: tensor<2x3xbf16>, %b: tensor<3x2xbf16>) -> tensor<2x2xbf16> {
  %d = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<2x3xbf16>, tensor<3x2xbf16>) -> tensor<2x2xbf16>
  return %d : tensor<2x2xbf16>
}

// -----

// Check that a reduce adds in f32, its body included.
// CHECK-LABEL: func.func @reduce
// CHECK: %[[X:.*]] = stablehlo.convert %arg0 : (tensor<2x3xbf16>) -> tensor<2x3xf32>
// CHECK: %[[I:.*]] = stablehlo.convert %{{.*}} : (tensor<bf16>) -> tensor<f32>
// CHECK: %[[S:.*]] = stablehlo.reduce(%[[X]] init: %[[I]]) applies stablehlo.add across dimensions = [1] : (tensor<2x3xf32>, tensor<f32>) -> tensor<2xf32>
// CHECK: %[[R:.*]] = stablehlo.convert %[[S]] : (tensor<2xf32>) -> tensor<2xbf16>
// CHECK: return %[[R]]
func.func @reduce(%a: tensor<2x3xbf16>) -> tensor<2xbf16> {
  %k = stablehlo.constant dense<0.0> : tensor<bf16>
  %s = stablehlo.reduce(%a init: %k) applies stablehlo.add across dimensions = [1] : (tensor<2x3xbf16>, tensor<bf16>) -> tensor<2xbf16>
  return %s : tensor<2xbf16>
}

// -----

// Check that a dot mixing a bf16 and an f32 operand reads both in f32 unless the backend
// supports mixed precision (prefix EXP runs with mixed-precision=true, dot supported).
// CHECK-LABEL: func.func @mixed
// CHECK: %[[A:.*]] = stablehlo.convert %arg0 : (tensor<2x3xbf16>) -> tensor<2x3xf32>
// CHECK: stablehlo.dot_general %[[A]], %arg1, {{.*}} : (tensor<2x3xf32>, tensor<3x2xf32>) -> tensor<2x2xf32>
// EXP-LABEL: func.func @mixed
// EXP: stablehlo.dot_general %arg0, %arg1, {{.*}} : (tensor<2x3xbf16>, tensor<3x2xf32>) -> tensor<2x2xf32>
func.func @mixed(%a: tensor<2x3xbf16>, %c: tensor<3x2xf32>) -> tensor<2x2xf32> {
  %m = stablehlo.dot_general %a, %c, contracting_dims = [1] x [0] : (tensor<2x3xbf16>, tensor<3x2xf32>) -> tensor<2x2xf32>
  return %m : tensor<2x2xf32>
}

// -----

// Check that ops the backend supports in bf16 stay bf16 (prefix EXP makes exponential unsupported).
// CHECK-LABEL: func.func @supported
// CHECK-NOT: f32
// CHECK: stablehlo.exponential %arg0 : tensor<4xbf16>
// EXP-LABEL: func.func @supported
// EXP: %[[X:.*]] = stablehlo.convert %arg0 : (tensor<4xbf16>) -> tensor<4xf32>
// EXP: %[[E:.*]] = stablehlo.exponential %[[X]] : tensor<4xf32>
// EXP: %[[R:.*]] = stablehlo.convert %[[E]] : (tensor<4xf32>) -> tensor<4xbf16>
// EXP: stablehlo.add %[[R]], %arg0 : tensor<4xbf16>
func.func @supported(%x: tensor<4xbf16>) -> tensor<4xbf16> {
  %e = stablehlo.exponential %x : tensor<4xbf16>
  %s = stablehlo.add %e, %x : tensor<4xbf16>
  return %s : tensor<4xbf16>
}

// -----

// Check that f32 dots are left alone.
// CHECK-LABEL: func.func @f32_dot
// CHECK-NOT: stablehlo.convert
// CHECK: stablehlo.dot_general %arg0, %arg1
func.func @f32_dot(%a: tensor<2x3xf32>, %b: tensor<3x2xf32>) -> tensor<2x2xf32> {
  %d = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<2x3xf32>, tensor<3x2xf32>) -> tensor<2x2xf32>
  return %d : tensor<2x2xf32>
}
