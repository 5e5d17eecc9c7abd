// RUN: %hlo-opt %s -p scatter-unsigned-scalar-updates --split-input-file | filecheck %s

// Check that a constant rank-0 unsigned update goes through an optimization barrier.
// CHECK-LABEL: func.func @unsigned_scalar
// CHECK: %[[C:.*]] = stablehlo.constant dense<4> : tensor<ui8>
// CHECK-NEXT: %[[B:.*]] = stablehlo.optimization_barrier %[[C]] : tensor<ui8>
// CHECK-NEXT: "stablehlo.scatter"(%arg0, %arg1, %[[B]])
func.func @unsigned_scalar(%x: tensor<5xui8>, %i: tensor<1xui64>) -> tensor<5xui8> {
  %c = stablehlo.constant dense<4> : tensor<ui8>
  %0 = "stablehlo.scatter"(%x, %i, %c) <{indices_are_sorted = false, scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [0], scatter_dims_to_operand_dims = [0]>, unique_indices = false}> ({
  ^bb0(%a: tensor<ui8>, %b: tensor<ui8>):
    stablehlo.return %b : tensor<ui8>
  }) : (tensor<5xui8>, tensor<1xui64>, tensor<ui8>) -> tensor<5xui8>
  return %0 : tensor<5xui8>
}

// -----

// Check that signed, computed and rank-1 constant updates (one scatter dimension) are left alone.
// CHECK-LABEL: func.func @left_alone
// CHECK-NOT: stablehlo.optimization_barrier
// CHECK: "stablehlo.scatter"(%arg0, %arg1, %c)
// CHECK: "stablehlo.scatter"(%arg2, %arg1, %arg3)
// CHECK: "stablehlo.scatter"(%arg2, %arg4, %c_0)
func.func @left_alone(%x: tensor<5xi8>, %i: tensor<1xi32>, %y: tensor<5xui8>, %u: tensor<ui8>, %j: tensor<1x1xi32>) -> (tensor<5xi8>, tensor<5xui8>, tensor<5xui8>) {
  %c = stablehlo.constant dense<4> : tensor<i8>
  %0 = "stablehlo.scatter"(%x, %i, %c) <{indices_are_sorted = false, scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [0], scatter_dims_to_operand_dims = [0]>, unique_indices = false}> ({
  ^bb0(%a: tensor<i8>, %b: tensor<i8>):
    stablehlo.return %b : tensor<i8>
  }) : (tensor<5xi8>, tensor<1xi32>, tensor<i8>) -> tensor<5xi8>
  %1 = "stablehlo.scatter"(%y, %i, %u) <{indices_are_sorted = false, scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [0], scatter_dims_to_operand_dims = [0]>, unique_indices = false}> ({
  ^bb0(%a: tensor<ui8>, %b: tensor<ui8>):
    stablehlo.return %b : tensor<ui8>
  }) : (tensor<5xui8>, tensor<1xi32>, tensor<ui8>) -> tensor<5xui8>
  %c1 = stablehlo.constant dense<4> : tensor<1xui8>
  %2 = "stablehlo.scatter"(%y, %j, %c1) <{indices_are_sorted = false, scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>, unique_indices = false}> ({
  ^bb0(%a: tensor<ui8>, %b: tensor<ui8>):
    stablehlo.return %b : tensor<ui8>
  }) : (tensor<5xui8>, tensor<1x1xi32>, tensor<1xui8>) -> tensor<5xui8>
  return %0, %1, %2 : tensor<5xi8>, tensor<5xui8>, tensor<5xui8>
}

// -----

// Check that splat unsigned updates with two scatter dimensions go through a barrier: a
// constant (fuzz seed 20261127 program 5710), one beside a window dimension, and a
// broadcast of a constant scalar.
// CHECK-LABEL: func.func @unsigned_splat_two_scatter_dims
// CHECK: %[[C:.*]] = stablehlo.constant dense<8> : tensor<1x2xui8>
// CHECK-NEXT: %[[B:.*]] = stablehlo.optimization_barrier %[[C]] : tensor<1x2xui8>
// CHECK-NEXT: "stablehlo.scatter"(%arg0, %arg1, %[[B]])
// CHECK: %[[W:.*]] = stablehlo.constant dense<8> : tensor<2x2x3xui16>
// CHECK-NEXT: %[[BW:.*]] = stablehlo.optimization_barrier %[[W]] : tensor<2x2x3xui16>
// CHECK-NEXT: "stablehlo.scatter"(%arg2, %arg3, %[[BW]])
// CHECK: %[[BC:.*]] = stablehlo.broadcast_in_dim
// CHECK-NEXT: %[[BB:.*]] = stablehlo.optimization_barrier %[[BC]] : tensor<1x2xui8>
// CHECK-NEXT: "stablehlo.scatter"(%arg0, %arg1, %[[BB]])
func.func @unsigned_splat_two_scatter_dims(%x: tensor<2xui8>, %i: tensor<1x2x1xi16>, %y: tensor<4x3xui16>, %j: tensor<2x2x1xi32>) -> (tensor<2xui8>, tensor<4x3xui16>, tensor<2xui8>) {
  %c = stablehlo.constant dense<8> : tensor<1x2xui8>
  %0 = "stablehlo.scatter"(%x, %i, %c) <{indices_are_sorted = false, scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 2>, unique_indices = false}> ({
  ^bb0(%a: tensor<ui8>, %b: tensor<ui8>):
    %s = stablehlo.add %a, %b : tensor<ui8>
    stablehlo.return %s : tensor<ui8>
  }) : (tensor<2xui8>, tensor<1x2x1xi16>, tensor<1x2xui8>) -> tensor<2xui8>
  %w = stablehlo.constant dense<8> : tensor<2x2x3xui16>
  %1 = "stablehlo.scatter"(%y, %j, %w) <{indices_are_sorted = false, scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [2], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 2>, unique_indices = false}> ({
  ^bb0(%a: tensor<ui16>, %b: tensor<ui16>):
    stablehlo.return %b : tensor<ui16>
  }) : (tensor<4x3xui16>, tensor<2x2x1xi32>, tensor<2x2x3xui16>) -> tensor<4x3xui16>
  %s8 = stablehlo.constant dense<8> : tensor<ui8>
  %bc = stablehlo.broadcast_in_dim %s8, dims = [] : (tensor<ui8>) -> tensor<1x2xui8>
  %2 = "stablehlo.scatter"(%x, %i, %bc) <{indices_are_sorted = false, scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 2>, unique_indices = false}> ({
  ^bb0(%a: tensor<ui8>, %b: tensor<ui8>):
    stablehlo.return %b : tensor<ui8>
  }) : (tensor<2xui8>, tensor<1x2x1xi16>, tensor<1x2xui8>) -> tensor<2xui8>
  return %0, %1, %2 : tensor<2xui8>, tensor<4x3xui16>, tensor<2xui8>
}

// -----

// Check that a non-splat constant with two scatter dimensions, a splat with one scatter
// dimension and one with none beside a window dimension are left alone (IREE compiles them).
// CHECK-LABEL: func.func @unsigned_left_alone
// CHECK-NOT: stablehlo.optimization_barrier
// CHECK: "stablehlo.scatter"(%arg0, %arg1, %c)
// CHECK: "stablehlo.scatter"(%arg0, %arg2, %c_0)
// CHECK: "stablehlo.scatter"(%arg3, %arg4, %c_1)
func.func @unsigned_left_alone(%x: tensor<2xui8>, %i: tensor<1x2x1xi16>, %k: tensor<2x1xi64>, %y: tensor<4xui8>, %j: tensor<1xi64>) -> (tensor<2xui8>, tensor<2xui8>, tensor<4xui8>) {
  %c = stablehlo.constant dense<[[8, 9]]> : tensor<1x2xui8>
  %0 = "stablehlo.scatter"(%x, %i, %c) <{indices_are_sorted = false, scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 2>, unique_indices = false}> ({
  ^bb0(%a: tensor<ui8>, %b: tensor<ui8>):
    stablehlo.return %b : tensor<ui8>
  }) : (tensor<2xui8>, tensor<1x2x1xi16>, tensor<1x2xui8>) -> tensor<2xui8>
  %c1 = stablehlo.constant dense<8> : tensor<2xui8>
  %1 = "stablehlo.scatter"(%x, %k, %c1) <{indices_are_sorted = false, scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>, unique_indices = false}> ({
  ^bb0(%a: tensor<ui8>, %b: tensor<ui8>):
    stablehlo.return %b : tensor<ui8>
  }) : (tensor<2xui8>, tensor<2x1xi64>, tensor<2xui8>) -> tensor<2xui8>
  %c2 = stablehlo.constant dense<8> : tensor<2xui8>
  %2 = "stablehlo.scatter"(%y, %j, %c2) <{indices_are_sorted = false, scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 0>, unique_indices = false}> ({
  ^bb0(%a: tensor<ui8>, %b: tensor<ui8>):
    stablehlo.return %b : tensor<ui8>
  }) : (tensor<4xui8>, tensor<1xi64>, tensor<2xui8>) -> tensor<4xui8>
  return %0, %1, %2 : tensor<2xui8>, tensor<2xui8>, tensor<4xui8>
}
