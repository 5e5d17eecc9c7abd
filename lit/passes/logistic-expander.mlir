// RUN: %hlo-opt %s -p logistic-expander --split-input-file | filecheck %s
// RUN: %hlo-opt %s -p "logistic-expander{expansion=tanh}" --split-input-file | filecheck %s --check-prefix=TANH

// Check that logistic becomes 1 / (1 + exp(-x)), one constant 1 in both places, as XLA's
// LogisticExpander builds it; with expansion=tanh, 0.5 + 0.5 * tanh(0.5 * x).
// CHECK-LABEL: func.func @f32
// CHECK-NOT: stablehlo.logistic
// CHECK: %[[C:.*]] = stablehlo.constant dense<1.000000e+00> : tensor<f32>
// CHECK: %[[ONE:.*]] = stablehlo.broadcast_in_dim %[[C]], dims = [] : (tensor<f32>) -> tensor<2x3xf32>
// CHECK: %[[N:.*]] = stablehlo.negate %arg0 : tensor<2x3xf32>
// CHECK: %[[E:.*]] = stablehlo.exponential %[[N]]
// CHECK: %[[D:.*]] = stablehlo.add %[[ONE]], %[[E]]
// CHECK: %[[R:.*]] = stablehlo.divide %[[ONE]], %[[D]]
// CHECK: return %[[R]]
// TANH-LABEL: func.func @f32
// TANH-NOT: stablehlo.logistic
// TANH: %[[C:.*]] = stablehlo.constant dense<5.000000e-01> : tensor<f32>
// TANH: %[[H:.*]] = stablehlo.broadcast_in_dim %[[C]]
// TANH: %[[M:.*]] = stablehlo.multiply %[[H]], %arg0
// TANH: %[[T:.*]] = stablehlo.tanh %[[M]]
// TANH: %[[S:.*]] = stablehlo.multiply %[[H]], %[[T]]
// TANH: %[[R:.*]] = stablehlo.add %[[H]], %[[S]]
// TANH: return %[[R]]
func.func @f32(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %r = stablehlo.logistic %x : tensor<2x3xf32>
  return %r : tensor<2x3xf32>
}

// -----

// Check that complex, f16 and rank-0 logistics expand alike.
// CHECK-LABEL: func.func @other_types
// CHECK-NOT: stablehlo.logistic
// CHECK: stablehlo.constant dense<(1.000000e+00,0.000000e+00)> : tensor<complex<f32>>
// CHECK: stablehlo.divide {{.*}} : tensor<4xcomplex<f32>>
// CHECK: stablehlo.constant dense<1.000000e+00> : tensor<f16>
// CHECK: stablehlo.divide {{.*}} : tensor<f16>
// TANH-LABEL: func.func @other_types
// TANH-NOT: stablehlo.logistic
// TANH: stablehlo.tanh {{.*}} : tensor<4xcomplex<f32>>
// TANH: stablehlo.tanh {{.*}} : tensor<f16>
func.func @other_types(%z: tensor<4xcomplex<f32>>, %h: tensor<f16>) -> (tensor<4xcomplex<f32>>, tensor<f16>) {
  %a = stablehlo.logistic %z : tensor<4xcomplex<f32>>
  %b = stablehlo.logistic %h : tensor<f16>
  return %a, %b : tensor<4xcomplex<f32>>, tensor<f16>
}

// -----

// Check that a dynamically shaped logistic, and other ops, are left alone.
// CHECK-LABEL: func.func @dynamic
// CHECK: stablehlo.logistic %arg0 : tensor<?xf32>
// CHECK-NOT: stablehlo.divide
// TANH-LABEL: func.func @dynamic
// TANH: stablehlo.logistic %arg0 : tensor<?xf32>
func.func @dynamic(%x: tensor<?xf32>, %y: tensor<3xf32>) -> (tensor<?xf32>, tensor<3xf32>) {
  %r = stablehlo.logistic %x : tensor<?xf32>
  %e = stablehlo.exponential %y : tensor<3xf32>
  return %r, %e : tensor<?xf32>, tensor<3xf32>
}
