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

// Check that signed, computed and rank-1 constant updates are left alone.
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
