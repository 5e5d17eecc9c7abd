// RUN: %hlo-opt %s -p transpose-folding --split-input-file | filecheck %s

// Check that a transposed lhs folds into the contracting dimensions (XLA FoldDotTranspose),
// keeping the precision config.
// CHECK-LABEL: func.func @lhs
// CHECK-NOT: stablehlo.transpose
// CHECK: stablehlo.dot_general %arg0, %arg1, contracting_dims = [0] x [0], precision = [HIGHEST, DEFAULT]
// CHECK-SAME: (tensor<4x3xf32>, tensor<4x5xf32>) -> tensor<3x5xf32>
func.func @lhs(%x: tensor<4x3xf32>, %y: tensor<4x5xf32>) -> tensor<3x5xf32> {
  %t = stablehlo.transpose %x, dims = [1, 0] : (tensor<4x3xf32>) -> tensor<3x4xf32>
  %r = stablehlo.dot_general %t, %y, contracting_dims = [1] x [0], precision = [HIGHEST, DEFAULT] : (tensor<3x4xf32>, tensor<4x5xf32>) -> tensor<3x5xf32>
  return %r : tensor<3x5xf32>
}

// -----

// Check that both operands fold (XLA FoldDotTransposeConstant's shape), integer result type kept.
// CHECK-LABEL: func.func @both
// CHECK-NOT: stablehlo.transpose
// CHECK: stablehlo.dot_general %arg0, %arg1, contracting_dims = [0] x [1]
// CHECK-SAME: (tensor<4x3xi32>, tensor<5x4xi32>) -> tensor<3x5xi64>
func.func @both(%x: tensor<4x3xi32>, %y: tensor<5x4xi32>) -> tensor<3x5xi64> {
  %tx = stablehlo.transpose %x, dims = [1, 0] : (tensor<4x3xi32>) -> tensor<3x4xi32>
  %ty = stablehlo.transpose %y, dims = [1, 0] : (tensor<5x4xi32>) -> tensor<4x5xi32>
  %r = stablehlo.dot_general %tx, %ty, contracting_dims = [1] x [0] : (tensor<3x4xi32>, tensor<4x5xi32>) -> tensor<3x5xi64>
  return %r : tensor<3x5xi64>
}

// -----

// Check that batch dimensions move with the transpose (XLA FoldTransposeOfBatchWhenPermitted).
// CHECK-LABEL: func.func @batch
// CHECK-NOT: stablehlo.transpose
// CHECK: stablehlo.dot_general %arg0, %arg1, batching_dims = [1] x [0], contracting_dims = [2] x [1]
func.func @batch(%x: tensor<3x2x4xf32>, %y: tensor<2x4x5xf32>) -> tensor<2x3x5xf32> {
  %t = stablehlo.transpose %x, dims = [1, 0, 2] : (tensor<3x2x4xf32>) -> tensor<2x3x4xf32>
  %r = stablehlo.dot_general %t, %y, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<2x3x4xf32>, tensor<2x4x5xf32>) -> tensor<2x3x5xf32>
  return %r : tensor<2x3x5xf32>
}

// -----

// Check that a chain of transposes folds all the way.
// CHECK-LABEL: func.func @chain
// CHECK-NOT: stablehlo.transpose
// CHECK: stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0]
func.func @chain(%x: tensor<3x4xf32>, %y: tensor<4x5xf32>) -> tensor<3x5xf32> {
  %a = stablehlo.transpose %x, dims = [1, 0] : (tensor<3x4xf32>) -> tensor<4x3xf32>
  %b = stablehlo.transpose %a, dims = [1, 0] : (tensor<4x3xf32>) -> tensor<3x4xf32>
  %r = stablehlo.dot_general %b, %y, contracting_dims = [1] x [0] : (tensor<3x4xf32>, tensor<4x5xf32>) -> tensor<3x5xf32>
  return %r : tensor<3x5xf32>
}

// -----

// Check that a transpose that reorders the free dimensions stays: the result lists them in
// operand order, which dimension numbers cannot change.
// CHECK-LABEL: func.func @free_order
// CHECK: %[[T:.*]] = stablehlo.transpose %arg0, dims = [1, 0, 2]
// CHECK: stablehlo.dot_general %[[T]], %arg1, contracting_dims = [2] x [0]
func.func @free_order(%x: tensor<3x2x4xf32>, %y: tensor<4x5xf32>) -> tensor<2x3x5xf32> {
  %t = stablehlo.transpose %x, dims = [1, 0, 2] : (tensor<3x2x4xf32>) -> tensor<2x3x4xf32>
  %r = stablehlo.dot_general %t, %y, contracting_dims = [2] x [0] : (tensor<2x3x4xf32>, tensor<4x5xf32>) -> tensor<2x3x5xf32>
  return %r : tensor<2x3x5xf32>
}

// -----

// Check that an identity transpose is left to algsimp.
// CHECK-LABEL: func.func @identity
// CHECK: %[[T:.*]] = stablehlo.transpose %arg0, dims = [0, 1]
// CHECK: stablehlo.dot_general %[[T]], %arg1
func.func @identity(%x: tensor<3x4xf32>, %y: tensor<4x5xf32>) -> tensor<3x5xf32> {
  %t = stablehlo.transpose %x, dims = [0, 1] : (tensor<3x4xf32>) -> tensor<3x4xf32>
  %r = stablehlo.dot_general %t, %y, contracting_dims = [1] x [0] : (tensor<3x4xf32>, tensor<4x5xf32>) -> tensor<3x5xf32>
  return %r : tensor<3x5xf32>
}

// -----

// Check that a transposed convolution input folds into its dimension numbers (XLA FoldConvTransposeLhs).
// CHECK-LABEL: func.func @conv_input
// CHECK-NOT: stablehlo.transpose
// CHECK: stablehlo.convolution(%arg0, %arg1) dim_numbers = [b, 0, 1, f]x[o, i, 0, 1]->[b, f, 0, 1]
func.func @conv_input(%x: tensor<1x5x5x2xf32>, %w: tensor<4x2x3x3xf32>) -> tensor<1x4x3x3xf32> {
  %t = stablehlo.transpose %x, dims = [0, 3, 1, 2] : (tensor<1x5x5x2xf32>) -> tensor<1x2x5x5xf32>
  %r = stablehlo.convolution(%t, %w) dim_numbers = [b, f, 0, 1]x[o, i, 0, 1]->[b, f, 0, 1], window = {stride = [1, 1]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x2x5x5xf32>, tensor<4x2x3x3xf32>) -> tensor<1x4x3x3xf32>
  return %r : tensor<1x4x3x3xf32>
}

// -----

// Check that a transposed kernel folds, keeping strides and groups (XLA FoldConvComplexTransposeRhs).
// CHECK-LABEL: func.func @conv_kernel
// CHECK-NOT: stablehlo.transpose
// CHECK: stablehlo.convolution(%arg0, %arg1) dim_numbers = [b, f, 0]x[i, 0, o]->[b, f, 0], window = {stride = [2]
// CHECK-SAME: feature_group_count = 2
func.func @conv_kernel(%x: tensor<1x4x7xf32>, %w: tensor<2x3x6xf32>) -> tensor<1x6x3xf32> {
  %t = stablehlo.transpose %w, dims = [2, 0, 1] : (tensor<2x3x6xf32>) -> tensor<6x2x3xf32>
  %r = stablehlo.convolution(%x, %t) dim_numbers = [b, f, 0]x[o, i, 0]->[b, f, 0], window = {stride = [2]} {batch_group_count = 1 : i64, feature_group_count = 2 : i64} : (tensor<1x4x7xf32>, tensor<6x2x3xf32>) -> tensor<1x6x3xf32>
  return %r : tensor<1x6x3xf32>
}

// -----

// Check that a dot of mixed operand types (StableHLO allows them, XLA's builder does not)
// is left alone: our shape rule has no form of it.
// CHECK-LABEL: func.func @mixed_types
// CHECK: %[[T:.*]] = stablehlo.transpose %arg0
// CHECK: stablehlo.dot_general %[[T]], %arg1
func.func @mixed_types(%x: tensor<4x3xf32>, %y: tensor<4x5xbf16>) -> tensor<3x5xf32> {
  %t = stablehlo.transpose %x, dims = [1, 0] : (tensor<4x3xf32>) -> tensor<3x4xf32>
  %r = stablehlo.dot_general %t, %y, contracting_dims = [1] x [0] : (tensor<3x4xf32>, tensor<4x5xbf16>) -> tensor<3x5xf32>
  return %r : tensor<3x5xf32>
}

// -----

// Check XLA FoldDotTranspose: the rhs contracting dimension 0 of transpose(y) is y's 1.
// CHECK-LABEL: func.func @xla_fold_dot_transpose
// CHECK-NOT: stablehlo.transpose
// CHECK: stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [1]
func.func @xla_fold_dot_transpose(%x: tensor<2x3xf32>, %y: tensor<2x3xf32>) -> tensor<2x2xf32> {
  %t = stablehlo.transpose %y, dims = [1, 0] : (tensor<2x3xf32>) -> tensor<3x2xf32>
  %r = stablehlo.dot_general %x, %t, contracting_dims = [1] x [0] : (tensor<2x3xf32>, tensor<3x2xf32>) -> tensor<2x2xf32>
  return %r : tensor<2x2xf32>
}

// -----

// Check XLA DontFoldTransposeOfDotWithoutContractingDims: swapping two free dimensions stays.
// CHECK-LABEL: func.func @xla_no_contracting_dims
// CHECK: %[[T:.*]] = stablehlo.transpose %arg1, dims = [0, 1, 3, 2]
// CHECK: stablehlo.dot_general %arg0, %[[T]], batching_dims = [0, 1] x [0, 1]
func.func @xla_no_contracting_dims(%x: tensor<3x4xf32>, %y: tensor<3x4x6x7xf32>) -> tensor<3x4x7x6xf32> {
  %t = stablehlo.transpose %y, dims = [0, 1, 3, 2] : (tensor<3x4x6x7xf32>) -> tensor<3x4x7x6xf32>
  %r = stablehlo.dot_general %x, %t, batching_dims = [0, 1] x [0, 1], contracting_dims = [] x [] : (tensor<3x4xf32>, tensor<3x4x7x6xf32>) -> tensor<3x4x7x6xf32>
  return %r : tensor<3x4x7x6xf32>
}

// -----

// Check that a transpose read by both operands folds into both and goes.
// CHECK-LABEL: func.func @same_operand
// CHECK-NOT: stablehlo.transpose
// CHECK: stablehlo.dot_general %arg0, %arg0, contracting_dims = [0] x [0] : (tensor<4x3xf32>, tensor<4x3xf32>) -> tensor<3x3xf32>
func.func @same_operand(%x: tensor<4x3xf32>) -> tensor<3x3xf32> {
  %t = stablehlo.transpose %x, dims = [1, 0] : (tensor<4x3xf32>) -> tensor<3x4xf32>
  %r = stablehlo.dot_general %t, %t, contracting_dims = [1] x [1] : (tensor<3x4xf32>, tensor<3x4xf32>) -> tensor<3x3xf32>
  return %r : tensor<3x3xf32>
}

// -----

// Check that a folded transpose with another user stays for it.
// CHECK-LABEL: func.func @other_user
// CHECK: %[[T:.*]] = stablehlo.transpose %arg0, dims = [1, 0]
// CHECK: %[[D:.*]] = stablehlo.dot_general %arg0, %arg1, contracting_dims = [0] x [0]
// CHECK: return %[[D]], %[[T]]
func.func @other_user(%x: tensor<4x3xf32>, %y: tensor<4x5xf32>) -> (tensor<3x5xf32>, tensor<3x4xf32>) {
  %t = stablehlo.transpose %x, dims = [1, 0] : (tensor<4x3xf32>) -> tensor<3x4xf32>
  %r = stablehlo.dot_general %t, %y, contracting_dims = [1] x [0] : (tensor<3x4xf32>, tensor<4x5xf32>) -> tensor<3x5xf32>
  return %r, %t : tensor<3x5xf32>, tensor<3x4xf32>
}

// -----

// Check that a chain read at two links by two dots folds in both and goes entirely.
// CHECK-LABEL: func.func @chain_two_dots
// CHECK-NOT: stablehlo.transpose
// CHECK: stablehlo.dot_general %arg0, %arg1, contracting_dims = [0] x [0]
// CHECK: stablehlo.dot_general %arg0, %arg2, contracting_dims = [1] x [0]
func.func @chain_two_dots(%x: tensor<4x3xf32>, %y: tensor<4x5xf32>, %z: tensor<3x5xf32>) -> (tensor<3x5xf32>, tensor<4x5xf32>) {
  %a = stablehlo.transpose %x, dims = [1, 0] : (tensor<4x3xf32>) -> tensor<3x4xf32>
  %r = stablehlo.dot_general %a, %y, contracting_dims = [1] x [0] : (tensor<3x4xf32>, tensor<4x5xf32>) -> tensor<3x5xf32>
  %b = stablehlo.transpose %a, dims = [1, 0] : (tensor<3x4xf32>) -> tensor<4x3xf32>
  %s = stablehlo.dot_general %b, %z, contracting_dims = [1] x [0] : (tensor<4x3xf32>, tensor<3x5xf32>) -> tensor<4x5xf32>
  return %r, %s : tensor<3x5xf32>, tensor<4x5xf32>
}
