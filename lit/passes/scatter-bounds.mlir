// RUN: %hlo-opt %s -p scatter-bounds --split-input-file | filecheck %s

// Check that a row scatter keeps its form: indices become s64, vectors outside [0, 4] are
// redirected to row 5 of an operand padded by one row, and the result is sliced back.
// CHECK-LABEL: func.func @row_scatter
// CHECK: %[[I:.*]] = stablehlo.convert %arg1 : (tensor<4x1xi32>) -> tensor<4x1xi64>
// CHECK: stablehlo.compare GE, %[[I]]
// CHECK: %[[HI:.*]] = stablehlo.constant dense<4> : tensor<1xi64>
// CHECK: stablehlo.compare LE, %[[I]]
// CHECK: %[[OK:.*]] = stablehlo.reshape %{{.*}} : (tensor<4x1xi1>) -> tensor<4xi1>
// CHECK: %[[OKB:.*]] = stablehlo.broadcast_in_dim %[[OK]], dims = [0] : (tensor<4xi1>) -> tensor<4x1xi1>
// CHECK: %[[ROW:.*]] = stablehlo.constant dense<5> : tensor<1xi64>
// CHECK: %[[ROWB:.*]] = stablehlo.broadcast_in_dim %[[ROW]], dims = [1]
// CHECK: %[[SAFE:.*]] = stablehlo.select %[[OKB]], %[[I]], %[[ROWB]] : tensor<4x1xi1>, tensor<4x1xi64>
// CHECK: %[[P:.*]] = stablehlo.pad %arg0, %{{.*}}, low = [0, 0], high = [1, 0], interior = [0, 0] : (tensor<5x3xf32>, tensor<f32>) -> tensor<6x3xf32>
// CHECK: %[[S:.*]] = "stablehlo.scatter"(%[[P]], %[[SAFE]], %arg2)
// CHECK-SAME: unique_indices = false
// CHECK: stablehlo.add
// CHECK: {hlo_mlir.in_bounds} : (tensor<6x3xf32>, tensor<4x1xi64>, tensor<4x3xf32>) -> tensor<6x3xf32>
// CHECK: %[[R:.*]] = stablehlo.slice %[[S]] [0:5, 0:3]
// CHECK: return %[[R]]
func.func @row_scatter(%op: tensor<5x3xf32>, %idx: tensor<4x1xi32>, %upd: tensor<4x3xf32>) -> tensor<5x3xf32> {
  %r = "stablehlo.scatter"(%op, %idx, %upd) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) {scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>, indices_are_sorted = false, unique_indices = true} : (tensor<5x3xf32>, tensor<4x1xi32>, tensor<4x3xf32>) -> tensor<5x3xf32>
  return %r : tensor<5x3xf32>
}

// -----

// Check that a form IREE cannot legalize (2x2 windows, no inserted dimension) becomes a
// scatter of single elements into the flattened operand, at linear index
// start0 * 4 + start1 + window0 * 4 + window1, or slot 20 when the window is out of bounds.
// CHECK-LABEL: func.func @window_scatter
// CHECK: stablehlo.constant dense<[3, 2]> : tensor<2xi64>
// CHECK-DAG: %[[W0:.*]] = stablehlo.iota dim = 1 : tensor<3x2x2xi64>
// CHECK-DAG: %[[W1:.*]] = stablehlo.iota dim = 2 : tensor<3x2x2xi64>
// CHECK: %[[SLOT:.*]] = stablehlo.constant dense<20> : tensor<i64>
// CHECK: %[[LIN:.*]] = stablehlo.select
// CHECK: %[[FLAT:.*]] = stablehlo.reshape %arg0 : (tensor<5x4xf32>) -> tensor<20xf32>
// CHECK: %[[P:.*]] = stablehlo.pad %[[FLAT]], %{{.*}}, low = [0], high = [1], interior = [0]
// CHECK: %[[I:.*]] = stablehlo.reshape %[[LIN]] : (tensor<3x2x2xi64>) -> tensor<12x1xi64>
// CHECK: %[[U:.*]] = stablehlo.reshape %arg2 : (tensor<3x2x2xf32>) -> tensor<12xf32>
// CHECK: %[[S:.*]] = "stablehlo.scatter"(%[[P]], %[[I]], %[[U]])
// CHECK-SAME: #stablehlo.scatter<inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>
// CHECK: stablehlo.multiply
// CHECK: {hlo_mlir.in_bounds} : (tensor<21xf32>, tensor<12x1xi64>, tensor<12xf32>) -> tensor<21xf32>
// CHECK: %[[SL:.*]] = stablehlo.slice %[[S]] [0:20]
// CHECK: stablehlo.reshape %[[SL]] : (tensor<20xf32>) -> tensor<5x4xf32>
func.func @window_scatter(%op: tensor<5x4xf32>, %idx: tensor<3x2xi32>, %upd: tensor<3x2x2xf32>) -> tensor<5x4xf32> {
  %r = "stablehlo.scatter"(%op, %idx, %upd) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = stablehlo.multiply %a, %b : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) {scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1, 2], scatter_dims_to_operand_dims = [0, 1], index_vector_dim = 1>, indices_are_sorted = false, unique_indices = false} : (tensor<5x4xf32>, tensor<3x2xi32>, tensor<3x2x2xf32>) -> tensor<5x4xf32>
  return %r : tensor<5x4xf32>
}

// -----

// Check that a variadic scatter whose results each depend on their own operand only is
// split into one scatter per operand, each with its part of the update computation.
// CHECK-LABEL: func.func @separable
// CHECK: "stablehlo.scatter"
// CHECK: stablehlo.add
// CHECK-NOT: stablehlo.maximum
// CHECK: -> tensor<6xf32>
// CHECK: "stablehlo.scatter"
// CHECK-NOT: stablehlo.add
// CHECK: stablehlo.maximum
// CHECK: -> tensor<6xi32>
func.func @separable(%x: tensor<5xf32>, %y: tensor<5xi32>, %idx: tensor<2x1xi32>, %u: tensor<2xf32>, %v: tensor<2xi32>) -> (tensor<5xf32>, tensor<5xi32>) {
  %r:2 = "stablehlo.scatter"(%x, %y, %idx, %u, %v) ({
  ^bb0(%a0: tensor<f32>, %a1: tensor<i32>, %b0: tensor<f32>, %b1: tensor<i32>):
    %s = stablehlo.add %a0, %b0 : tensor<f32>
    %m = stablehlo.maximum %a1, %b1 : tensor<i32>
    stablehlo.return %s, %m : tensor<f32>, tensor<i32>
  }) {scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>, indices_are_sorted = false, unique_indices = false} : (tensor<5xf32>, tensor<5xi32>, tensor<2x1xi32>, tensor<2xf32>, tensor<2xi32>) -> (tensor<5xf32>, tensor<5xi32>)
  return %r#0, %r#1 : tensor<5xf32>, tensor<5xi32>
}

// -----

// Check that empty updates leave the operand as it is (IREE's compiler crashes on them).
// CHECK-LABEL: func.func @empty_updates
// CHECK-NOT: stablehlo.scatter
// CHECK: return %arg0
func.func @empty_updates(%op: tensor<5x3xf32>, %idx: tensor<0x1xi32>, %upd: tensor<0x3xf32>) -> tensor<5x3xf32> {
  %r = "stablehlo.scatter"(%op, %idx, %upd) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    stablehlo.return %b : tensor<f32>
  }) {scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>, indices_are_sorted = false, unique_indices = false} : (tensor<5x3xf32>, tensor<0x1xi32>, tensor<0x3xf32>) -> tensor<5x3xf32>
  return %r : tensor<5x3xf32>
}

// -----

// Check the refusals: a combiner mixing the operands of a variadic scatter, and a scatter
// already marked in bounds, stay as they are; constant in-bounds indices need no padding.
// CHECK-LABEL: func.func @refusals
// CHECK: %[[M:.*]]:2 = "stablehlo.scatter"(%arg0, %arg0, %arg1, %arg2, %arg2)
// CHECK: stablehlo.return %{{.*}}, %{{.*}} : tensor<f32>, tensor<f32>
// CHECK: "stablehlo.scatter"(%arg0, %arg1, %arg2)
// CHECK: {hlo_mlir.in_bounds} : (tensor<5xf32>, tensor<2x1xi32>, tensor<2xf32>) -> tensor<5xf32>
// CHECK-NOT: stablehlo.pad
// CHECK: "stablehlo.scatter"(%arg0, %{{.*}}, %arg2)
// CHECK: {hlo_mlir.in_bounds} : (tensor<5xf32>, tensor<2x1xi64>, tensor<2xf32>) -> tensor<5xf32>
// CHECK-NOT: stablehlo.slice
// CHECK: return
func.func @refusals(%x: tensor<5xf32>, %idx: tensor<2x1xi32>, %u: tensor<2xf32>) -> (tensor<5xf32>, tensor<5xf32>, tensor<5xf32>) {
  %r:2 = "stablehlo.scatter"(%x, %x, %idx, %u, %u) ({
  ^bb0(%a0: tensor<f32>, %a1: tensor<f32>, %b0: tensor<f32>, %b1: tensor<f32>):
    %s = stablehlo.add %a0, %b1 : tensor<f32>
    stablehlo.return %s, %a1 : tensor<f32>, tensor<f32>
  }) {scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>, indices_are_sorted = false, unique_indices = false} : (tensor<5xf32>, tensor<5xf32>, tensor<2x1xi32>, tensor<2xf32>, tensor<2xf32>) -> (tensor<5xf32>, tensor<5xf32>)
  %m = "stablehlo.scatter"(%x, %idx, %u) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    stablehlo.return %b : tensor<f32>
  }) {scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>, indices_are_sorted = false, unique_indices = false, hlo_mlir.in_bounds} : (tensor<5xf32>, tensor<2x1xi32>, tensor<2xf32>) -> tensor<5xf32>
  %c = stablehlo.constant dense<[[0], [4]]> : tensor<2x1xi32>
  %k = "stablehlo.scatter"(%x, %c, %u) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    stablehlo.return %b : tensor<f32>
  }) {scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>, indices_are_sorted = false, unique_indices = false} : (tensor<5xf32>, tensor<2x1xi32>, tensor<2xf32>) -> tensor<5xf32>
  return %r#0, %m, %k : tensor<5xf32>, tensor<5xf32>, tensor<5xf32>
}

// -----

// Check that a unique scatter into a window of a larger buffer (a slice, through a reshape,
// or a pad with negative padding) loses the unique_indices hint (IREE fused the window into
// the scatter's dispatch and failed), while one into a parameter or a pad keeps it.
// CHECK-LABEL: func.func @unique_into_window
// CHECK: %[[S:.*]] = stablehlo.slice %arg0 [1:2, 1:4]
// CHECK: %[[V:.*]] = stablehlo.reshape %[[S]]
// CHECK: "stablehlo.scatter"(%[[V]], %{{.*}}, %arg2)
// CHECK-SAME: unique_indices = false
// CHECK: %[[N:.*]] = stablehlo.pad %arg1, %{{.*}}, low = [-2], high = [1]
// CHECK: "stablehlo.scatter"(%[[N]], %{{.*}}, %arg2)
// CHECK-SAME: unique_indices = false
// CHECK: "stablehlo.scatter"(%arg3, %{{.*}}, %arg2)
// CHECK-SAME: unique_indices = true
// CHECK: %[[P:.*]] = stablehlo.pad %arg1, %{{.*}}, low = [1], high = [0]
// CHECK: "stablehlo.scatter"(%[[P]], %{{.*}}, %arg2)
// CHECK-SAME: unique_indices = true
func.func @unique_into_window(%m: tensor<2x4xf32>, %p: tensor<4xf32>, %u: tensor<f32>, %q: tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<5xf32>) {
  %i = stablehlo.constant dense<2> : tensor<ui8>
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  %s = stablehlo.slice %m [1:2, 1:4] : (tensor<2x4xf32>) -> tensor<1x3xf32>
  %v = stablehlo.reshape %s : (tensor<1x3xf32>) -> tensor<3xf32>
  %r0 = "stablehlo.scatter"(%v, %i, %u) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    stablehlo.return %b : tensor<f32>
  }) {scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 0>, indices_are_sorted = false, unique_indices = true} : (tensor<3xf32>, tensor<ui8>, tensor<f32>) -> tensor<3xf32>
  %n = stablehlo.pad %p, %z, low = [-2], high = [1], interior = [0] : (tensor<4xf32>, tensor<f32>) -> tensor<3xf32>
  %r1 = "stablehlo.scatter"(%n, %i, %u) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    stablehlo.return %b : tensor<f32>
  }) {scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 0>, indices_are_sorted = false, unique_indices = true} : (tensor<3xf32>, tensor<ui8>, tensor<f32>) -> tensor<3xf32>
  %r2 = "stablehlo.scatter"(%q, %i, %u) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    stablehlo.return %b : tensor<f32>
  }) {scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 0>, indices_are_sorted = false, unique_indices = true} : (tensor<3xf32>, tensor<ui8>, tensor<f32>) -> tensor<3xf32>
  %w = stablehlo.pad %p, %z, low = [1], high = [0], interior = [0] : (tensor<4xf32>, tensor<f32>) -> tensor<5xf32>
  %r3 = "stablehlo.scatter"(%w, %i, %u) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    stablehlo.return %b : tensor<f32>
  }) {scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 0>, indices_are_sorted = false, unique_indices = true} : (tensor<5xf32>, tensor<ui8>, tensor<f32>) -> tensor<5xf32>
  return %r0, %r1, %r2, %r3 : tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<5xf32>
}

// -----

// Check that a unique scatter reading the slice this pass makes of a padded scatter's result
// loses the hint too (fuzz seed 20261127 program 5889).
// CHECK-LABEL: func.func @unique_after_scatter
// CHECK: %[[S:.*]] = "stablehlo.scatter"
// CHECK: %[[V:.*]] = stablehlo.slice %[[S]] [0:3]
// CHECK: "stablehlo.scatter"(%[[V]], %{{.*}}, %arg3)
// CHECK-SAME: unique_indices = false
func.func @unique_after_scatter(%x: tensor<3xf32>, %idx: tensor<1x2x3xi32>, %upd: tensor<2x3xf32>, %u: tensor<f32>) -> tensor<3xf32> {
  %0 = "stablehlo.scatter"(%x, %idx, %upd) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %m = stablehlo.maximum %a, %b : tensor<f32>
    stablehlo.return %m : tensor<f32>
  }) {scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 0>, indices_are_sorted = false, unique_indices = false} : (tensor<3xf32>, tensor<1x2x3xi32>, tensor<2x3xf32>) -> tensor<3xf32>
  %c = stablehlo.constant dense<2> : tensor<ui8>
  %1 = "stablehlo.scatter"(%0, %c, %u) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    stablehlo.return %b : tensor<f32>
  }) {scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 0>, indices_are_sorted = false, unique_indices = true} : (tensor<3xf32>, tensor<ui8>, tensor<f32>) -> tensor<3xf32>
  return %1 : tensor<3xf32>
}
