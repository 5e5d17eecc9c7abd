// RUN: %hlo-opt %s -p gather-clamp --split-input-file | filecheck %s

// Check that a row gather gets its start indices clamped into [0, 5 - 1] along the index
// vector dimension, keeps its attributes and is marked so that the pass skips it next time.
// CHECK-LABEL: func.func @row_gather
// CHECK: %[[LO:.*]] = stablehlo.constant dense<0> : tensor<1xi32>
// CHECK: %[[LOB:.*]] = stablehlo.broadcast_in_dim %[[LO]], dims = [1] : (tensor<1xi32>) -> tensor<4x1xi32>
// CHECK: %[[HI:.*]] = stablehlo.constant dense<4> : tensor<1xi32>
// CHECK: %[[HIB:.*]] = stablehlo.broadcast_in_dim %[[HI]], dims = [1]
// CHECK: %[[C:.*]] = stablehlo.clamp %[[LOB]], %arg1, %[[HIB]] : tensor<4x1xi32>
// CHECK: "stablehlo.gather"(%arg0, %[[C]])
// CHECK-SAME: indices_are_sorted = true, slice_sizes = array<i64: 1, 3>
// CHECK-SAME: {hlo_mlir.in_bounds}
func.func @row_gather(%op: tensor<5x3xf32>, %idx: tensor<4x1xi32>) -> tensor<4x3xf32> {
  %r = "stablehlo.gather"(%op, %idx) {dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, slice_sizes = array<i64: 1, 3>, indices_are_sorted = true} : (tensor<5x3xf32>, tensor<4x1xi32>) -> tensor<4x3xf32>
  return %r : tensor<4x3xf32>
}

// -----

// Check that each component gets its own bound (dimension size minus slice size, through
// start_index_map), and that a bound beyond the index type is cut to its maximum (ui8: 255).
// CHECK-LABEL: func.func @window_gather
// CHECK: stablehlo.constant dense<[255, 2]> : tensor<2xui8>
// CHECK: stablehlo.clamp
// CHECK: "stablehlo.gather"
func.func @window_gather(%op: tensor<4x300xf32>, %idx: tensor<3x2xui8>) -> tensor<3x2x2xf32> {
  %r = "stablehlo.gather"(%op, %idx) {dimension_numbers = #stablehlo.gather<offset_dims = [1, 2], start_index_map = [1, 0], index_vector_dim = 1>, slice_sizes = array<i64: 2, 2>, indices_are_sorted = false} : (tensor<4x300xf32>, tensor<3x2xui8>) -> tensor<3x2x2xf32>
  return %r : tensor<3x2x2xf32>
}

// -----

// Check that an implicit index vector dimension clamps with scalar bounds.
// CHECK-LABEL: func.func @scalar_bounds
// CHECK: %[[LO:.*]] = stablehlo.constant dense<0> : tensor<i64>
// CHECK: %[[HI:.*]] = stablehlo.constant dense<4> : tensor<i64>
// CHECK: stablehlo.clamp %[[LO]], %arg1, %[[HI]] : (tensor<i64>, tensor<3xi64>, tensor<i64>) -> tensor<3xi64>
func.func @scalar_bounds(%op: tensor<5x3xf32>, %idx: tensor<3xi64>) -> tensor<3x3xf32> {
  %r = "stablehlo.gather"(%op, %idx) {dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, slice_sizes = array<i64: 1, 3>, indices_are_sorted = false} : (tensor<5x3xf32>, tensor<3xi64>) -> tensor<3x3xf32>
  return %r : tensor<3x3xf32>
}

// -----

// Check that constant indices already in bounds and gathers already marked are left alone.
// CHECK-LABEL: func.func @refusals
// CHECK-NOT: stablehlo.clamp
// CHECK: "stablehlo.gather"
// CHECK: "stablehlo.gather"
func.func @refusals(%op: tensor<5x3xf32>, %idx: tensor<2x1xi32>) -> (tensor<2x3xf32>, tensor<2x3xf32>) {
  %c = stablehlo.constant dense<[[0], [4]]> : tensor<2x1xi32>
  %a = "stablehlo.gather"(%op, %c) {dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, slice_sizes = array<i64: 1, 3>, indices_are_sorted = false} : (tensor<5x3xf32>, tensor<2x1xi32>) -> tensor<2x3xf32>
  %b = "stablehlo.gather"(%op, %idx) {dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, slice_sizes = array<i64: 1, 3>, indices_are_sorted = false, hlo_mlir.in_bounds} : (tensor<5x3xf32>, tensor<2x1xi32>) -> tensor<2x3xf32>
  return %a, %b : tensor<2x3xf32>, tensor<2x3xf32>
}

// -----

// Check that a gather of a quantized operand gets its integer indices clamped, the gather
// copied with its element type and attributes.
// CHECK-LABEL: func.func @quantized_gather
// CHECK: %[[C:.*]] = stablehlo.clamp %{{.*}}, %arg1, %{{.*}} : tensor<2x1xi32>
// CHECK: "stablehlo.gather"(%arg0, %[[C]])
// CHECK-SAME: mhlo.frontend_attributes = {a = "b"}
// CHECK-SAME: -> tensor<2x!quant.uniform<i8:f32, 1.000000e-01:-3>>
func.func @quantized_gather(%op: tensor<5x!quant.uniform<i8:f32, 0.1:-3>>, %idx: tensor<2x1xi32>) -> tensor<2x!quant.uniform<i8:f32, 0.1:-3>> {
  %r = "stablehlo.gather"(%op, %idx) {dimension_numbers = #stablehlo.gather<collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, slice_sizes = array<i64: 1>, mhlo.frontend_attributes = {a = "b"}} : (tensor<5x!quant.uniform<i8:f32, 0.1:-3>>, tensor<2x1xi32>) -> tensor<2x!quant.uniform<i8:f32, 0.1:-3>>
  return %r : tensor<2x!quant.uniform<i8:f32, 0.1:-3>>
}

// -----

// Check that a gather of an operand with an unbounded dynamic dimension is left alone.
// CHECK-LABEL: func.func @dynamic_operand
// CHECK-NOT: stablehlo.clamp
func.func @dynamic_operand(%op: tensor<?x3xf32>, %idx: tensor<4x1xi32>) -> tensor<4x3xf32> {
  %r = "stablehlo.gather"(%op, %idx) {dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, slice_sizes = array<i64: 1, 3>} : (tensor<?x3xf32>, tensor<4x1xi32>) -> tensor<4x3xf32>
  return %r : tensor<4x3xf32>
}
