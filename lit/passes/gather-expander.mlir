// RUN: %hlo-opt %s -p gather-expander --split-input-file | filecheck %s
// RUN: %hlo-opt %s -p "gather-expander{mode=simple}" --split-input-file | filecheck %s --check-prefix=SIMPLE

// Check that a gather of columns (XLA's TensorFlowGatherMultipleBatchDims) becomes a while
// loop of 4 trips over the index vectors: a dynamic_slice of the operand at the spread
// index, written into row i of the accumulator; then the rows are split into the index
// batch dimensions and the slice dimension moved to offset_dims.
// CHECK-LABEL: func.func @columns
// CHECK-NOT: stablehlo.gather
// CHECK: %[[M:.*]] = stablehlo.reshape %arg1 : (tensor<2x2xi32>) -> tensor<4x1xi32>
// CHECK: %[[ACC:.*]] = stablehlo.broadcast_in_dim {{.*}} -> tensor<4x3xi32>
// CHECK: %[[W:.*]]:2 = stablehlo.while(%[[I:[a-zA-Z0-9_]+]] = %{{[a-zA-Z0-9_]+}}, %[[A:[a-zA-Z0-9_]+]] = %[[ACC]])
// CHECK: stablehlo.constant dense<4> : tensor<i32>
// CHECK: stablehlo.compare LT, %[[I]]
// CHECK: %[[ROW:.*]] = stablehlo.dynamic_slice %[[M]], %[[I]], %{{.*}}, sizes = [1, 1]
// CHECK: %[[S:.*]] = stablehlo.dynamic_slice %arg0, %{{.*}}, %{{.*}}, sizes = [3, 1]
// CHECK: %[[P:.*]] = stablehlo.reshape %[[S]] : (tensor<3x1xi32>) -> tensor<1x3xi32>
// CHECK: stablehlo.dynamic_update_slice %[[A]], %[[P]], %[[I]], %{{.*}} : (tensor<4x3xi32>, tensor<1x3xi32>, tensor<i32>, tensor<i32>)
// CHECK: %[[R:.*]] = stablehlo.reshape %[[W]]#1 : (tensor<4x3xi32>) -> tensor<2x2x3xi32>
// CHECK: %[[T:.*]] = stablehlo.transpose %[[R]], dims = [0, 2, 1] : (tensor<2x2x3xi32>) -> tensor<2x3x2xi32>
// CHECK: return %[[T]]
// SIMPLE-LABEL: func.func @columns
// SIMPLE: stablehlo.gather
func.func @columns(%x: tensor<3x3xi32>, %idx: tensor<2x2xi32>) -> tensor<2x3x2xi32> {
  %r = "stablehlo.gather"(%x, %idx) {dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [1], start_index_map = [1], index_vector_dim = 2>, slice_sizes = array<i64: 3, 1>} : (tensor<3x3xi32>, tensor<2x2xi32>) -> tensor<2x3x2xi32>
  return %r : tensor<2x3x2xi32>
}

// -----

// Check that a gather of one index vector (a dynamic slice) is expanded in both modes,
// as a one-trip loop, and needs no transpose.
// CHECK-LABEL: func.func @one_index
// CHECK: stablehlo.while
// CHECK-NOT: stablehlo.transpose
// CHECK: return
// SIMPLE-LABEL: func.func @one_index
// SIMPLE-NOT: stablehlo.gather
// SIMPLE: stablehlo.while
func.func @one_index(%x: tensor<5x4xf32>, %idx: tensor<2xi64>) -> tensor<2x3xf32> {
  %r = "stablehlo.gather"(%x, %idx) {dimension_numbers = #stablehlo.gather<offset_dims = [0, 1], start_index_map = [0, 1], index_vector_dim = 0>, slice_sizes = array<i64: 2, 3>} : (tensor<5x4xf32>, tensor<2xi64>) -> tensor<2x3xf32>
  return %r : tensor<2x3xf32>
}

// -----

// Check that a gather of the whole operand is a broadcast (every start clamps to 0).
// CHECK-LABEL: func.func @whole_operand
// CHECK-NOT: stablehlo.while
// CHECK: %[[R:.*]] = stablehlo.reshape %arg0 : (tensor<1x3xf32>) -> tensor<3xf32>
// CHECK: stablehlo.broadcast_in_dim %[[R]], dims = [1] : (tensor<3xf32>) -> tensor<4x3xf32>
// SIMPLE-LABEL: func.func @whole_operand
// SIMPLE-NOT: stablehlo.gather
func.func @whole_operand(%x: tensor<1x3xf32>, %idx: tensor<4x1xi32>) -> tensor<4x3xf32> {
  %r = "stablehlo.gather"(%x, %idx) {dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, slice_sizes = array<i64: 1, 3>} : (tensor<1x3xf32>, tensor<4x1xi32>) -> tensor<4x3xf32>
  return %r : tensor<4x3xf32>
}

// -----

// Check that a batching pair becomes an ordinary index component: the position along the
// paired index dimension (an iota) is appended to each index vector and indexes the
// operand's batching dimension, which is collapsed like collapsed_slice_dims.
// CHECK-LABEL: func.func @batching
// CHECK-NOT: stablehlo.gather
// CHECK: %[[POS:.*]] = stablehlo.iota dim = 0 : tensor<2x3x1xi32>
// CHECK: %[[V:.*]] = stablehlo.concatenate %arg1, %[[POS]], dim = 2 : (tensor<2x3x1xi32>, tensor<2x3x1xi32>) -> tensor<2x3x2xi32>
// CHECK: stablehlo.reshape %[[V]] : (tensor<2x3x2xi32>) -> tensor<6x2xi32>
// CHECK: stablehlo.while
// CHECK: stablehlo.dynamic_slice %arg0, {{.*}} sizes = [1, 1, 1]
// CHECK: stablehlo.reshape {{.*}} : (tensor<6xf32>) -> tensor<2x3xf32>
// SIMPLE-LABEL: func.func @batching
// SIMPLE: stablehlo.gather
func.func @batching(%b: tensor<2x4x5xf32>, %bi: tensor<2x3x1xi32>) -> tensor<2x3xf32> {
  %s = "stablehlo.gather"(%b, %bi) {dimension_numbers = #stablehlo.gather<collapsed_slice_dims = [1, 2], operand_batching_dims = [0], start_indices_batching_dims = [0], start_index_map = [1], index_vector_dim = 2>, slice_sizes = array<i64: 1, 1, 1>} : (tensor<2x4x5xf32>, tensor<2x3x1xi32>) -> tensor<2x3xf32>
  return %s : tensor<2x3xf32>
}

// -----

// Check that an empty result is left alone (XLA leaves it to zero-sized-hlo-elimination).
// CHECK-LABEL: func.func @left_alone
// CHECK: stablehlo.gather
// SIMPLE-LABEL: func.func @left_alone
// SIMPLE: stablehlo.gather
func.func @left_alone(%x: tensor<3x4xf32>, %idx: tensor<0x1xi32>) -> tensor<0x4xf32> {
  %r = "stablehlo.gather"(%x, %idx) {dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, slice_sizes = array<i64: 1, 4>} : (tensor<3x4xf32>, tensor<0x1xi32>) -> tensor<0x4xf32>
  return %r : tensor<0x4xf32>
}
