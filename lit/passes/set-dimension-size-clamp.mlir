// RUN: %hlo-opt %s -p set-dimension-size-clamp --split-input-file | filecheck %s

// Check that a run-time size is clamped into [0, bound] and the op marked, and that
// get_dimension_size of it reads the size as given.
// CHECK-LABEL: func.func @runtime_size
// CHECK: %[[LO:.*]] = stablehlo.constant dense<0> : tensor<i32>
// CHECK: %[[HI:.*]] = stablehlo.constant dense<10> : tensor<i32>
// CHECK: %[[C:.*]] = stablehlo.clamp %[[LO]], %arg1, %[[HI]] : tensor<i32>
// CHECK: %[[D:.*]] = stablehlo.set_dimension_size %arg0, %[[C]], dim = 0 {hlo_mlir.in_bounds}
// CHECK-NOT: get_dimension_size
// CHECK: return %[[D]], %arg1
func.func @runtime_size(%x: tensor<10xf32>, %n: tensor<i32>) -> (tensor<?xf32, #stablehlo.bounds<10>>, tensor<i32>) {
  %d = stablehlo.set_dimension_size %x, %n, dim = 0 : (tensor<10xf32>, tensor<i32>) -> tensor<?xf32, #stablehlo.bounds<10>>
  %g = stablehlo.get_dimension_size %d, dim = 0 : (tensor<?xf32, #stablehlo.bounds<10>>) -> tensor<i32>
  return %d, %g : tensor<?xf32, #stablehlo.bounds<10>>, tensor<i32>
}

// -----

// Check that a constant size in [0, bound] and an already clamped op are left alone, and
// that get_dimension_size of another dimension stays.
// CHECK-LABEL: func.func @in_bounds
// CHECK-NOT: stablehlo.clamp
// CHECK: stablehlo.get_dimension_size %{{.*}}, dim = 1
func.func @in_bounds(%x: tensor<10x3xf32>) -> tensor<i32> {
  %n = stablehlo.constant dense<10> : tensor<i32>
  %d = stablehlo.set_dimension_size %x, %n, dim = 0 : (tensor<10x3xf32>, tensor<i32>) -> tensor<?x3xf32, #stablehlo.bounds<10, ?>>
  %e = stablehlo.set_dimension_size %x, %n, dim = 0 {hlo_mlir.in_bounds} : (tensor<10x3xf32>, tensor<i32>) -> tensor<?x3xf32, #stablehlo.bounds<10, ?>>
  %g = stablehlo.get_dimension_size %d, dim = 1 : (tensor<?x3xf32, #stablehlo.bounds<10, ?>>) -> tensor<i32>
  return %g : tensor<i32>
}

// -----

// Check that a constant size past the bound is clamped.
// CHECK-LABEL: func.func @constant_past_bound
// CHECK: stablehlo.clamp
func.func @constant_past_bound(%x: tensor<4xf32>) -> tensor<?xf32, #stablehlo.bounds<4>> {
  %n = stablehlo.constant dense<7> : tensor<i32>
  %d = stablehlo.set_dimension_size %x, %n, dim = 0 : (tensor<4xf32>, tensor<i32>) -> tensor<?xf32, #stablehlo.bounds<4>>
  return %d : tensor<?xf32, #stablehlo.bounds<4>>
}
