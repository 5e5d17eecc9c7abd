// RUN: %hlo-opt %s -p dot-decomposer --split-input-file | filecheck %s

// Check that batch dimensions move first and the free and contracting dimensions each
// become one (XLA DotDecomposer's canonical form), with a reshape back to the result.
// CHECK-LABEL: func.func @general
// CHECK: %[[XT:.*]] = stablehlo.transpose %arg0, dims = [2, 1, 0, 3] : (tensor<2x4x5x3xf32>) -> tensor<5x4x2x3xf32>
// CHECK: %[[XR:.*]] = stablehlo.reshape %[[XT]] : (tensor<5x4x2x3xf32>) -> tensor<5x4x6xf32>
// CHECK: %[[YT:.*]] = stablehlo.transpose %arg1, dims = [0, 2, 1, 3] : (tensor<5x3x2x6xf32>) -> tensor<5x2x3x6xf32>
// CHECK: %[[YR:.*]] = stablehlo.reshape %[[YT]] : (tensor<5x2x3x6xf32>) -> tensor<5x6x6xf32>
// CHECK: %[[D:.*]] = stablehlo.dot_general %[[XR]], %[[YR]], batching_dims = [0] x [0], contracting_dims = [2] x [1], precision = [HIGH, HIGHEST]
// CHECK: return %[[D]]
func.func @general(%x: tensor<2x4x5x3xf32>, %y: tensor<5x3x2x6xf32>) -> tensor<5x4x6xf32> {
  %r = stablehlo.dot_general %x, %y, batching_dims = [2] x [0], contracting_dims = [0, 3] x [2, 1], precision = [HIGH, HIGHEST] : (tensor<2x4x5x3xf32>, tensor<5x3x2x6xf32>) -> tensor<5x4x6xf32>
  return %r : tensor<5x4x6xf32>
}

// -----

// Check that several free dimensions are reshaped into one and back, keeping the result type.
// CHECK-LABEL: func.func @free_dims
// CHECK-NOT: stablehlo.transpose
// CHECK: %[[X:.*]] = stablehlo.reshape %arg0 : (tensor<2x3x4xi8>) -> tensor<6x4xi8>
// CHECK: %[[D:.*]] = stablehlo.dot_general %[[X]], %arg1, contracting_dims = [1] x [0] : (tensor<6x4xi8>, tensor<4x5xi8>) -> tensor<6x5xi32>
// CHECK: %[[R:.*]] = stablehlo.reshape %[[D]] : (tensor<6x5xi32>) -> tensor<2x3x5xi32>
// CHECK: return %[[R]]
func.func @free_dims(%x: tensor<2x3x4xi8>, %y: tensor<4x5xi8>) -> tensor<2x3x5xi32> {
  %r = stablehlo.dot_general %x, %y, contracting_dims = [2] x [0] : (tensor<2x3x4xi8>, tensor<4x5xi8>) -> tensor<2x3x5xi32>
  return %r : tensor<2x3x5xi32>
}

// -----

// Check that an outer product (no contracting dimension) gets a contracting dimension of size 1.
// CHECK-LABEL: func.func @outer
// CHECK: %[[X:.*]] = stablehlo.reshape %arg0 : (tensor<3xcomplex<f32>>) -> tensor<3x1xcomplex<f32>>
// CHECK: %[[Y:.*]] = stablehlo.reshape %arg1 : (tensor<2xcomplex<f32>>) -> tensor<1x2xcomplex<f32>>
// CHECK: stablehlo.dot_general %[[X]], %[[Y]], contracting_dims = [1] x [0]
func.func @outer(%x: tensor<3xcomplex<f32>>, %y: tensor<2xcomplex<f32>>) -> tensor<3x2xcomplex<f32>> {
  %r = stablehlo.dot_general %x, %y, contracting_dims = [] x [] : (tensor<3xcomplex<f32>>, tensor<2xcomplex<f32>>) -> tensor<3x2xcomplex<f32>>
  return %r : tensor<3x2xcomplex<f32>>
}

// -----

// Check that canonical dots are left alone: a matmul, a batch matmul, a matrix-vector
// product and a dot whose lhs contracts its first dimension (XLA's test accepts it).
// CHECK-LABEL: func.func @canonical
// CHECK-NOT: stablehlo.transpose
// CHECK-NOT: stablehlo.reshape
// CHECK-COUNT-4: stablehlo.dot_general
func.func @canonical(%a: tensor<3x4xf32>, %b: tensor<4x5xf32>, %c: tensor<2x3x4xf32>, %d: tensor<2x4x5xf32>,
                     %v: tensor<4xf32>, %t: tensor<4x3xf32>) -> (tensor<3x5xf32>, tensor<2x3x5xf32>, tensor<3xf32>, tensor<3x5xf32>) {
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<3x4xf32>, tensor<4x5xf32>) -> tensor<3x5xf32>
  %1 = stablehlo.dot_general %c, %d, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<2x3x4xf32>, tensor<2x4x5xf32>) -> tensor<2x3x5xf32>
  %2 = stablehlo.dot_general %a, %v, contracting_dims = [1] x [0] : (tensor<3x4xf32>, tensor<4xf32>) -> tensor<3xf32>
  %3 = stablehlo.dot_general %t, %b, contracting_dims = [0] x [0] : (tensor<4x3xf32>, tensor<4x5xf32>) -> tensor<3x5xf32>
  return %0, %1, %2, %3 : tensor<3x5xf32>, tensor<2x3x5xf32>, tensor<3xf32>, tensor<3x5xf32>
}

// -----

// Check that batch dimensions not at the front are not canonical.
// CHECK-LABEL: func.func @batch_not_first
// CHECK: stablehlo.transpose %arg0, dims = [1, 0, 2]
// CHECK: stablehlo.dot_general %{{.*}}, %arg1, batching_dims = [0] x [0], contracting_dims = [2] x [1]
func.func @batch_not_first(%x: tensor<3x2x4xf32>, %y: tensor<2x4x5xf32>) -> tensor<2x3x5xf32> {
  %r = stablehlo.dot_general %x, %y, batching_dims = [1] x [0], contracting_dims = [2] x [1] : (tensor<3x2x4xf32>, tensor<2x4x5xf32>) -> tensor<2x3x5xf32>
  return %r : tensor<2x3x5xf32>
}

// -----

// Check XLA DontAddLhsNonContractingDimIfOne: the rhs free group of size 2 x 1 becomes one
// dimension of 2 and the lhs, with no free dimension, gets none.
// CHECK-LABEL: func.func @xla_lhs_free_one
// CHECK: %[[Y:.*]] = stablehlo.reshape %arg1 : (tensor<64x4x2x1xf32>) -> tensor<64x4x2xf32>
// CHECK: %[[D:.*]] = stablehlo.dot_general %arg0, %[[Y]], batching_dims = [0] x [0], contracting_dims = [1] x [1] : (tensor<64x4xf32>, tensor<64x4x2xf32>) -> tensor<64x2xf32>
// CHECK: stablehlo.reshape %[[D]] : (tensor<64x2xf32>) -> tensor<64x2x1xf32>
func.func @xla_lhs_free_one(%x: tensor<64x4xf32>, %y: tensor<64x4x2x1xf32>) -> tensor<64x2x1xf32> {
  %r = stablehlo.dot_general %x, %y, batching_dims = [0] x [0], contracting_dims = [1] x [1] : (tensor<64x4xf32>, tensor<64x4x2x1xf32>) -> tensor<64x2x1xf32>
  return %r : tensor<64x2x1xf32>
}

// -----

// Check XLA AddLhsNonContractingDimIfZero: a free group of no elements stays a dimension.
// CHECK-LABEL: func.func @xla_lhs_free_zero
// CHECK: stablehlo.dot_general {{.*}} : (tensor<64x0x4xf32>, tensor<64x4xf32>) -> tensor<64x0xf32>
func.func @xla_lhs_free_zero(%x: tensor<64x4x2x0xf32>, %y: tensor<64x4xf32>) -> tensor<64x2x0xf32> {
  %r = stablehlo.dot_general %x, %y, batching_dims = [0] x [0], contracting_dims = [1] x [1] : (tensor<64x4x2x0xf32>, tensor<64x4xf32>) -> tensor<64x2x0xf32>
  return %r : tensor<64x2x0xf32>
}

// -----

// Check XLA CanonicalizeBatchDims: batch dimensions 2, 3 and 3, 2 move to the front.
// CHECK-LABEL: func.func @xla_batch_dims
// CHECK: stablehlo.transpose %arg0, dims = [2, 3, 0, 1] : (tensor<64x4x32x8xf32>) -> tensor<32x8x64x4xf32>
// CHECK: stablehlo.transpose %arg1, dims = [3, 2, 1, 0] : (tensor<128x4x8x32xf32>) -> tensor<32x8x4x128xf32>
// CHECK: stablehlo.dot_general {{.*}}, batching_dims = [0, 1] x [0, 1], contracting_dims = [3] x [2] : {{.*}} -> tensor<32x8x64x128xf32>
func.func @xla_batch_dims(%x: tensor<64x4x32x8xf32>, %y: tensor<128x4x8x32xf32>) -> tensor<32x8x64x128xf32> {
  %r = stablehlo.dot_general %x, %y, batching_dims = [2, 3] x [3, 2], contracting_dims = [1] x [1] : (tensor<64x4x32x8xf32>, tensor<128x4x8x32xf32>) -> tensor<32x8x64x128xf32>
  return %r : tensor<32x8x64x128xf32>
}

// -----

// Check XLA DontCanonicalizeIfNoNoncontractingDims: a batched vector dot is canonical.
// CHECK-LABEL: func.func @xla_no_free_dims
// CHECK-NOT: stablehlo.reshape
// CHECK: stablehlo.dot_general %arg0, %arg1, batching_dims = [0] x [0], contracting_dims = [1] x [1]
func.func @xla_no_free_dims(%x: tensor<64x4xf32>, %y: tensor<64x4xf32>) -> tensor<64xf32> {
  %r = stablehlo.dot_general %x, %y, batching_dims = [0] x [0], contracting_dims = [1] x [1] : (tensor<64x4xf32>, tensor<64x4xf32>) -> tensor<64xf32>
  return %r : tensor<64xf32>
}
