// RUN: %hlo-opt %s -p constant-folding,dce --split-input-file | filecheck %s
// RUN: %hlo-opt %s -p "constant-folding{max-elements=2},dce" --split-input-file | filecheck %s --check-prefix=CAP

// Check that integer arithmetic on constants folds, with XLA's division semantics
// (toward zero; x / 0 is -1).
// CHECK-LABEL: func.func @fold_int_arith
// CHECK-NOT: stablehlo.add
// CHECK-NOT: stablehlo.divide
// CHECK-DAG: stablehlo.constant dense<[2, -4, 6]> : tensor<3xi32>
// CHECK-DAG: stablehlo.constant dense<[3, -3, -1]> : tensor<3xi32>
func.func @fold_int_arith() -> (tensor<3xi32>, tensor<3xi32>) {
  %a = stablehlo.constant dense<[1, -2, 3]> : tensor<3xi32>
  %n = stablehlo.constant dense<[7, -7, 5]> : tensor<3xi32>
  %d = stablehlo.constant dense<[2, 2, 0]> : tensor<3xi32>
  %0 = stablehlo.add %a, %a : tensor<3xi32>
  %1 = stablehlo.divide %n, %d : tensor<3xi32>
  return %0, %1 : tensor<3xi32>, tensor<3xi32>
}

// -----

// Check that float ops fold exactly (1/0 is inf) and comparisons give PRED constants.
// CHECK-LABEL: func.func @fold_float
// CHECK-DAG: stablehlo.constant dense<[0x7F800000, 5.000000e-01]> : tensor<2xf32>
// CHECK-DAG: stablehlo.constant dense<[true, false]> : tensor<2xi1>
func.func @fold_float() -> (tensor<2xf32>, tensor<2xi1>) {
  %a = stablehlo.constant dense<[1.0, 1.0]> : tensor<2xf32>
  %b = stablehlo.constant dense<[0.0, 2.0]> : tensor<2xf32>
  %0 = stablehlo.divide %a, %b : tensor<2xf32>
  %1 = stablehlo.compare GT, %a, %b, FLOAT : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xi1>
  return %0, %1 : tensor<2xf32>, tensor<2xi1>
}

// -----

// Check that data movement folds: transpose, reshape, slice, concatenate, and a scalar broadcast to a splat.
// CHECK-LABEL: func.func @fold_data_movement
// CHECK-DAG: stablehlo.constant dense<{{\[}}[1, 4], [2, 5], [3, 6]]> : tensor<3x2xi32>
// CHECK-DAG: stablehlo.constant dense<[1, 2, 3, 4, 5, 6]> : tensor<6xi32>
// CHECK-DAG: stablehlo.constant dense<{{\[}}[2, 3]]> : tensor<1x2xi32>
// CHECK-DAG: stablehlo.constant dense<[1, 2, 3, 1, 2, 3]> : tensor<6xi32>
// CHECK-DAG: stablehlo.constant dense<7> : tensor<4x4xi32>
// CHECK-NOT: stablehlo.transpose
// CHECK-NOT: stablehlo.broadcast_in_dim
func.func @fold_data_movement() -> (tensor<3x2xi32>, tensor<6xi32>, tensor<1x2xi32>, tensor<6xi32>, tensor<4x4xi32>) {
  %c = stablehlo.constant dense<[[1, 2, 3], [4, 5, 6]]> : tensor<2x3xi32>
  %v = stablehlo.constant dense<[1, 2, 3]> : tensor<3xi32>
  %s = stablehlo.constant dense<7> : tensor<i32>
  %0 = stablehlo.transpose %c, dims = [1, 0] : (tensor<2x3xi32>) -> tensor<3x2xi32>
  %1 = stablehlo.reshape %c : (tensor<2x3xi32>) -> tensor<6xi32>
  %2 = stablehlo.slice %c [0:1, 1:3] : (tensor<2x3xi32>) -> tensor<1x2xi32>
  %3 = stablehlo.concatenate %v, %v, dim = 0 : (tensor<3xi32>, tensor<3xi32>) -> tensor<6xi32>
  %4 = stablehlo.broadcast_in_dim %s, dims = [] : (tensor<i32>) -> tensor<4x4xi32>
  return %0, %1, %2, %3, %4 : tensor<3x2xi32>, tensor<6xi32>, tensor<1x2xi32>, tensor<6xi32>, tensor<4x4xi32>
}

// -----

// Check that ops with a non-constant operand are not folded.
// CHECK-LABEL: func.func @no_fold_non_constant
// CHECK: stablehlo.add %arg0
func.func @no_fold_non_constant(%x: tensor<2xi32>) -> tensor<2xi32> {
  %a = stablehlo.constant dense<[1, 2]> : tensor<2xi32>
  %0 = stablehlo.add %x, %a : tensor<2xi32>
  return %0 : tensor<2xi32>
}

// -----

// Check that transcendental functions are not folded (the host libm is not the compiled code),
// and that float -> int converts fold like XLA's: saturating, NaN -> 0.
// CHECK-LABEL: func.func @no_fold_inexact
// CHECK: stablehlo.exponential
// CHECK-NOT: stablehlo.convert
// CHECK: stablehlo.constant dense<[1, 127]> : tensor<2xi8>
func.func @no_fold_inexact() -> (tensor<2xf32>, tensor<2xi8>) {
  %a = stablehlo.constant dense<[1.0, 3.0e+02]> : tensor<2xf32>
  %0 = stablehlo.exponential %a : tensor<2xf32>
  %1 = stablehlo.convert %a : (tensor<2xf32>) -> tensor<2xi8>
  return %0, %1 : tensor<2xf32>, tensor<2xi8>
}

// -----

// Check that results larger than max-elements are not folded, splats always are.
// CAP-LABEL: func.func @size_cap
// CAP: stablehlo.add
// CAP: stablehlo.constant dense<2> : tensor<8xi32>
func.func @size_cap() -> (tensor<3xi32>, tensor<8xi32>) {
  %a = stablehlo.constant dense<[1, 2, 3]> : tensor<3xi32>
  %0 = stablehlo.add %a, %a : tensor<3xi32>
  %one = stablehlo.constant dense<1> : tensor<i32>
  %b = stablehlo.broadcast_in_dim %one, dims = [] : (tensor<i32>) -> tensor<8xi32>
  %1 = stablehlo.add %b, %b : tensor<8xi32>
  return %0, %1 : tensor<3xi32>, tensor<8xi32>
}
