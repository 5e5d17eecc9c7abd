// RUN: %hlo-opt %s -p gather-index-select --split-input-file | filecheck %s

// Check that an in-bounds gather of whole rows becomes torch_index_select, also with an
// explicit index vector dimension of size 1 (dropped by a reshape).
// CHECK-LABEL: func.func @rows
// CHECK: %[[A:.*]] = "stablehlo.torch_index_select"(%arg0, %arg1) <{batch_dims = 0 : i64, dim = 0 : i64}> : (tensor<32x8xf32>, tensor<5xi32>) -> tensor<5x8xf32>
// CHECK: %[[I:.*]] = stablehlo.reshape %arg2 : (tensor<5x1xi32>) -> tensor<5xi32>
// CHECK: %[[B:.*]] = "stablehlo.torch_index_select"(%arg0, %[[I]]) <{batch_dims = 0 : i64, dim = 0 : i64}>
// CHECK: return %[[A]], %[[B]]
func.func @rows(%t: tensor<32x8xf32>, %i: tensor<5xi32>, %j: tensor<5x1xi32>) -> (tensor<5x8xf32>, tensor<5x8xf32>) {
  %0 = "stablehlo.gather"(%t, %i) {dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0],
      start_index_map = [0], index_vector_dim = 1>, slice_sizes = array<i64: 1, 8>, hlo_mlir.in_bounds}
      : (tensor<32x8xf32>, tensor<5xi32>) -> tensor<5x8xf32>
  %1 = "stablehlo.gather"(%t, %j) {dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0],
      start_index_map = [0], index_vector_dim = 1>, slice_sizes = array<i64: 1, 8>, hlo_mlir.in_bounds}
      : (tensor<32x8xf32>, tensor<5x1xi32>) -> tensor<5x8xf32>
  return %0, %1 : tensor<5x8xf32>, tensor<5x8xf32>
}

// -----

// Check that gathers are left alone when their indices may be out of bounds (not marked:
// torch_index_select does not clamp), the slice is part of a row, or the row dimensions
// do not come last.
// CHECK-LABEL: func.func @refusals
// CHECK-NOT: torch_index_select
// CHECK-COUNT-3: stablehlo.gather
func.func @refusals(%t: tensor<32x8xf32>, %i: tensor<5xi32>, %j: tensor<1x5xi32>) -> (tensor<5x8xf32>, tensor<5x4xf32>, tensor<8x5xf32>) {
  %0 = "stablehlo.gather"(%t, %i) {dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0],
      start_index_map = [0], index_vector_dim = 1>, slice_sizes = array<i64: 1, 8>}
      : (tensor<32x8xf32>, tensor<5xi32>) -> tensor<5x8xf32>
  %1 = "stablehlo.gather"(%t, %i) {dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0],
      start_index_map = [0], index_vector_dim = 1>, slice_sizes = array<i64: 1, 4>, hlo_mlir.in_bounds}
      : (tensor<32x8xf32>, tensor<5xi32>) -> tensor<5x4xf32>
  %2 = "stablehlo.gather"(%t, %i) {dimension_numbers = #stablehlo.gather<offset_dims = [0], collapsed_slice_dims = [0],
      start_index_map = [0], index_vector_dim = 1>, slice_sizes = array<i64: 1, 8>, hlo_mlir.in_bounds}
      : (tensor<32x8xf32>, tensor<5xi32>) -> tensor<8x5xf32>
  return %0, %1, %2 : tensor<5x8xf32>, tensor<5x4xf32>, tensor<8x5xf32>
}
