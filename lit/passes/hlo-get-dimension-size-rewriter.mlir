// RUN: %hlo-opt %s -p hlo-get-dimension-size-rewriter --split-input-file | filecheck %s

// Check that the size of a static dimension is a constant, of a static tensor and of the
// static dimension of a bounded one.
// CHECK-LABEL: func.func @static_dimensions
// CHECK-NOT: get_dimension_size
// CHECK-DAG: %[[C3:.*]] = stablehlo.constant dense<3> : tensor<i32>
// CHECK-DAG: %[[C4:.*]] = stablehlo.constant dense<4> : tensor<i32>
// CHECK: return %[[C4]], %[[C3]]
func.func @static_dimensions(%x: tensor<4x3xf32>, %n: tensor<i32>) -> (tensor<i32>, tensor<i32>) {
  %d = stablehlo.set_dimension_size %x, %n, dim = 0 : (tensor<4x3xf32>, tensor<i32>) -> tensor<?x3xf32, #stablehlo.bounds<4, ?>>
  %g0 = stablehlo.get_dimension_size %x, dim = 0 : (tensor<4x3xf32>) -> tensor<i32>
  %g1 = stablehlo.get_dimension_size %d, dim = 1 : (tensor<?x3xf32, #stablehlo.bounds<4, ?>>) -> tensor<i32>
  return %g0, %g1 : tensor<i32>, tensor<i32>
}

// -----

// Check that a dynamic size is traced through element-wise ops and a set_dimension_size of
// another dimension to the size it was given.
// CHECK-LABEL: func.func @traced
// CHECK-NOT: get_dimension_size
// CHECK: return %arg1, %arg2
func.func @traced(%x: tensor<4x3xf32>, %n: tensor<i32>, %m: tensor<i32>) -> (tensor<i32>, tensor<i32>) {
  %d = stablehlo.set_dimension_size %x, %n, dim = 0 : (tensor<4x3xf32>, tensor<i32>) -> tensor<?x3xf32, #stablehlo.bounds<4, ?>>
  %e = stablehlo.exponential %d : tensor<?x3xf32, #stablehlo.bounds<4, ?>>
  %f = stablehlo.set_dimension_size %e, %m, dim = 1 : (tensor<?x3xf32, #stablehlo.bounds<4, ?>>, tensor<i32>) -> tensor<?x?xf32, #stablehlo.bounds<4, 3>>
  %s = stablehlo.add %f, %f : tensor<?x?xf32, #stablehlo.bounds<4, 3>>
  %g0 = stablehlo.get_dimension_size %s, dim = 0 : (tensor<?x?xf32, #stablehlo.bounds<4, 3>>) -> tensor<i32>
  %g1 = stablehlo.get_dimension_size %s, dim = 1 : (tensor<?x?xf32, #stablehlo.bounds<4, 3>>) -> tensor<i32>
  return %g0, %g1 : tensor<i32>, tensor<i32>
}

// -----

// Check that after set-dimension-size-clamp the size read is the one given, not the
// clamped one (XLA's answer for sizes outside [0, bound]).
// CHECK-LABEL: func.func @given_not_clamped
// CHECK: return %arg1
func.func @given_not_clamped(%x: tensor<4xf32>, %n: tensor<i32>) -> tensor<i32> {
  %lo = stablehlo.constant dense<0> : tensor<i32>
  %hi = stablehlo.constant dense<4> : tensor<i32>
  %c = stablehlo.clamp %lo, %n, %hi : tensor<i32>
  %d = stablehlo.set_dimension_size %x, %c, dim = 0 {hlo_mlir.in_bounds} : (tensor<4xf32>, tensor<i32>) -> tensor<?xf32, #stablehlo.bounds<4>>
  %e = stablehlo.negate %d : tensor<?xf32, #stablehlo.bounds<4>>
  %g = stablehlo.get_dimension_size %e, dim = 0 : (tensor<?xf32, #stablehlo.bounds<4>>) -> tensor<i32>
  return %g : tensor<i32>
}

// -----

// Check that dynamic sizes not set in the module (an argument's, one through another op)
// stay run-time reads.
// CHECK-LABEL: func.func @unknown
// CHECK-COUNT-2: stablehlo.get_dimension_size
func.func @unknown(%x: tensor<?xf32>, %y: tensor<?x2xf32, #stablehlo.bounds<4, ?>>) -> (tensor<i32>, tensor<i32>) {
  %g0 = stablehlo.get_dimension_size %x, dim = 0 : (tensor<?xf32>) -> tensor<i32>
  %t = stablehlo.transpose %y, dims = [1, 0] : (tensor<?x2xf32, #stablehlo.bounds<4, ?>>) -> tensor<2x?xf32, #stablehlo.bounds<?, 4>>
  %g1 = stablehlo.get_dimension_size %t, dim = 1 : (tensor<2x?xf32, #stablehlo.bounds<?, 4>>) -> tensor<i32>
  return %g0, %g1 : tensor<i32>, tensor<i32>
}
