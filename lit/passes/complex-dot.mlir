// RUN: %hlo-opt %s -p complex-dot --split-input-file | filecheck %s

// Check that a complex<f32> matrix product becomes four real products of the parts, with
// the same dimension numbers, combined into the real and imaginary parts.
// CHECK-LABEL: func.func @matmul
// CHECK-DAG: %[[AR:.*]] = stablehlo.real %arg0 : (tensor<2x3xcomplex<f32>>) -> tensor<2x3xf32>
// CHECK-DAG: %[[AI:.*]] = stablehlo.imag %arg0 : (tensor<2x3xcomplex<f32>>) -> tensor<2x3xf32>
// CHECK-DAG: %[[BR:.*]] = stablehlo.real %arg1
// CHECK-DAG: %[[BI:.*]] = stablehlo.imag %arg1
// CHECK: %[[RR:.*]] = stablehlo.dot_general %[[AR]], %[[BR]], contracting_dims = [1] x [0] : (tensor<2x3xf32>, tensor<3x2xf32>) -> tensor<2x2xf32>
// CHECK: %[[II:.*]] = stablehlo.dot_general %[[AI]], %[[BI]], contracting_dims = [1] x [0]
// CHECK: %[[RE:.*]] = stablehlo.subtract %[[RR]], %[[II]] : tensor<2x2xf32>
// CHECK: %[[RI:.*]] = stablehlo.dot_general %[[AR]], %[[BI]], contracting_dims = [1] x [0]
// CHECK: %[[IR:.*]] = stablehlo.dot_general %[[AI]], %[[BR]], contracting_dims = [1] x [0]
// CHECK: %[[IM:.*]] = stablehlo.add %[[RI]], %[[IR]] : tensor<2x2xf32>
// CHECK: %[[C:.*]] = stablehlo.complex %[[RE]], %[[IM]] : tensor<2x2xcomplex<f32>>
// CHECK: return %[[C]]
func.func @matmul(%a: tensor<2x3xcomplex<f32>>, %b: tensor<3x2xcomplex<f32>>) -> tensor<2x2xcomplex<f32>> {
  %r = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<2x3xcomplex<f32>>, tensor<3x2xcomplex<f32>>) -> tensor<2x2xcomplex<f32>>
  return %r : tensor<2x2xcomplex<f32>>
}

// -----

// Check that batch dimensions are kept on every real product.
// CHECK-LABEL: func.func @batched
// CHECK-COUNT-4: stablehlo.dot_general {{.*}}, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<4x2x3xf32>, tensor<4x3x5xf32>) -> tensor<4x2x5xf32>
func.func @batched(%a: tensor<4x2x3xcomplex<f32>>, %b: tensor<4x3x5xcomplex<f32>>) -> tensor<4x2x5xcomplex<f32>> {
  %r = stablehlo.dot_general %a, %b, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<4x2x3xcomplex<f32>>, tensor<4x3x5xcomplex<f32>>) -> tensor<4x2x5xcomplex<f32>>
  return %r : tensor<4x2x5xcomplex<f32>>
}

// -----

// Check that complex<f64> products (which IREE compiles) and real ones are left alone.
// CHECK-LABEL: func.func @left_alone
// CHECK: stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0] : (tensor<2x3xcomplex<f64>>, tensor<3x2xcomplex<f64>>) -> tensor<2x2xcomplex<f64>>
// CHECK: stablehlo.dot_general %arg2, %arg3, contracting_dims = [1] x [0] : (tensor<2x3xf32>, tensor<3x2xf32>) -> tensor<2x2xf32>
func.func @left_alone(%a: tensor<2x3xcomplex<f64>>, %b: tensor<3x2xcomplex<f64>>, %c: tensor<2x3xf32>, %d: tensor<3x2xf32>) -> (tensor<2x2xcomplex<f64>>, tensor<2x2xf32>) {
  %r = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<2x3xcomplex<f64>>, tensor<3x2xcomplex<f64>>) -> tensor<2x2xcomplex<f64>>
  %s = stablehlo.dot_general %c, %d, contracting_dims = [1] x [0] : (tensor<2x3xf32>, tensor<3x2xf32>) -> tensor<2x2xf32>
  return %r, %s : tensor<2x2xcomplex<f64>>, tensor<2x2xf32>
}
