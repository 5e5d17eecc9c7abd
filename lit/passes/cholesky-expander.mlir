// RUN: %hlo-opt %s -p cholesky-expander --split-input-file | filecheck %s

// Check that a lower Cholesky becomes a while loop over the columns: column j of A minus
// L @ L[j, :]^T, divided by the pivot sqrt below the diagonal, the pivot on it; a matrix
// with a non-finite entry becomes NaN.
// CHECK-LABEL: func.func @lower
// CHECK-NOT: stablehlo.cholesky
// CHECK: %[[ZEROS:.*]] = stablehlo.broadcast_in_dim %{{.*}}, dims = [] : (tensor<f32>) -> tensor<2x3x3xf32>
// CHECK: %[[W:.*]]:2 = stablehlo.while(%[[J:.*]] = %{{.*}}, %[[L:.*]] = %[[ZEROS]])
// CHECK: stablehlo.compare LT, %[[J]]
// CHECK: %[[COL:.*]] = stablehlo.dynamic_slice %arg0, %{{.*}}, %{{.*}}, %[[J]], sizes = [2, 3, 1]
// CHECK: %[[ROW:.*]] = stablehlo.dynamic_slice %[[L]], %{{.*}}, %[[J]], %{{.*}}, sizes = [2, 1, 3]
// CHECK: %[[ROWT:.*]] = stablehlo.transpose %[[ROW]], dims = [0, 2, 1]
// CHECK: %[[DOT:.*]] = stablehlo.dot_general %[[L]], %[[ROWT]], batching_dims = [0] x [0], contracting_dims = [2] x [1]
// CHECK: %[[V:.*]] = stablehlo.subtract %[[COL]], %[[DOT]]
// CHECK: %[[D:.*]] = stablehlo.dynamic_slice %[[V]], %{{.*}}, %[[J]], %{{.*}}, sizes = [2, 1, 1]
// CHECK: %[[PIVOT:.*]] = stablehlo.sqrt %[[D]]
// CHECK: stablehlo.divide %[[V]]
// CHECK: %[[L1:.*]] = stablehlo.dynamic_update_slice %[[L]], %{{.*}}, %{{.*}}, %{{.*}}, %[[J]]
// CHECK: %[[L2:.*]] = stablehlo.dynamic_update_slice %[[L1]], %[[PIVOT]], %{{.*}}, %[[J]], %[[J]]
// CHECK: stablehlo.return %{{.*}}, %[[L2]]
// CHECK: %[[FINITE:.*]] = stablehlo.is_finite %[[W]]#1
// CHECK: %[[OK:.*]] = stablehlo.reduce(%[[FINITE]] init: %{{.*}}) applies stablehlo.and across dimensions = [1, 2]
// CHECK: %[[OKB:.*]] = stablehlo.broadcast_in_dim %[[OK]], dims = [0]
// CHECK: %[[NAN:.*]] = stablehlo.constant dense<0x7FC00000> : tensor<f32>
// CHECK: %[[R:.*]] = stablehlo.select %[[OKB]], %[[W]]#1, %{{.*}}
// CHECK: return %[[R]]
func.func @lower(%a: tensor<2x3x3xf32>) -> tensor<2x3x3xf32> {
  %r = "stablehlo.cholesky"(%a) {lower = true} : (tensor<2x3x3xf32>) -> tensor<2x3x3xf32>
  return %r : tensor<2x3x3xf32>
}

// -----

// Check that an upper Cholesky factors the conjugate transpose and conjugate-transposes the
// result (complex parts rebuilt with stablehlo.complex).
// CHECK-LABEL: func.func @upper_complex
// CHECK-NOT: stablehlo.cholesky
// CHECK: %[[T:.*]] = stablehlo.transpose %arg0, dims = [1, 0]
// CHECK: stablehlo.real %[[T]]
// CHECK: stablehlo.imag %[[T]]
// CHECK: %[[W:.*]]:2 = stablehlo.while
// CHECK: %[[R:.*]] = stablehlo.select %{{.*}}, %[[W]]#1
// CHECK: %[[RT:.*]] = stablehlo.transpose %[[R]], dims = [1, 0]
// CHECK: stablehlo.negate
// CHECK: %[[OUT:.*]] = stablehlo.complex
// CHECK: return %[[OUT]]
func.func @upper_complex(%a: tensor<4x4xcomplex<f32>>) -> tensor<4x4xcomplex<f32>> {
  %r = "stablehlo.cholesky"(%a) {lower = false} : (tensor<4x4xcomplex<f32>>) -> tensor<4x4xcomplex<f32>>
  return %r : tensor<4x4xcomplex<f32>>
}

// -----

// Check that other ops are left alone.
// CHECK-LABEL: func.func @no_cholesky
// CHECK-NEXT: stablehlo.sqrt %arg0
// CHECK-NEXT: return
func.func @no_cholesky(%a: tensor<3x3xf32>) -> tensor<3x3xf32> {
  %r = stablehlo.sqrt %a : tensor<3x3xf32>
  return %r : tensor<3x3xf32>
}
