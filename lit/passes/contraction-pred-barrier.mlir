// RUN: %hlo-opt %s -p contraction-pred-barrier --split-input-file | filecheck %s

// Check that a dot whose select consumer reads a PRED tensor is read through a barrier.
// CHECK-LABEL: func.func @select_after_dot
// CHECK: %[[D:.*]] = stablehlo.dot_general
// CHECK-NEXT: %[[B:.*]] = stablehlo.optimization_barrier %[[D]] : tensor<4xf32>
// CHECK-NEXT: stablehlo.select %arg3, %[[B]], %arg2
func.func @select_after_dot(%a: tensor<4x2xf32>, %v: tensor<2xf32>, %x: tensor<4xf32>, %p: tensor<4xi1>) -> tensor<4xf32> {
  %d = stablehlo.dot_general %a, %v, contracting_dims = [1] x [0] : (tensor<4x2xf32>, tensor<2xf32>) -> tensor<4xf32>
  %r = stablehlo.select %p, %d, %x : tensor<4xi1>, tensor<4xf32>
  return %r : tensor<4xf32>
}

// -----

// Check that a PRED converted two element-wise ops down the chain counts too.
// CHECK-LABEL: func.func @converted_pred_later
// CHECK: %[[D:.*]] = stablehlo.dot_general
// CHECK-NEXT: %[[B:.*]] = stablehlo.optimization_barrier %[[D]] : tensor<4x3xf32>
// CHECK-NEXT: stablehlo.exponential %[[B]]
func.func @converted_pred_later(%a: tensor<4x2xf32>, %w: tensor<2x3xf32>, %p: tensor<4x3xi1>) -> tensor<4x3xf32> {
  %d = stablehlo.dot_general %a, %w, contracting_dims = [1] x [0] : (tensor<4x2xf32>, tensor<2x3xf32>) -> tensor<4x3xf32>
  %e = stablehlo.exponential %d : tensor<4x3xf32>
  %c = stablehlo.convert %p : (tensor<4x3xi1>) -> tensor<4x3xf32>
  %r = stablehlo.add %c, %e : tensor<4x3xf32>
  return %r : tensor<4x3xf32>
}

// -----

// Check that a scalar predicate, a PRED result and PRED-free consumers are left alone.
// CHECK-LABEL: func.func @left_alone
// CHECK-NOT: stablehlo.optimization_barrier
func.func @left_alone(%a: tensor<4x2xf32>, %w: tensor<2x3xf32>, %x: tensor<4x3xf32>, %p: tensor<i1>) -> (tensor<4x3xf32>, tensor<4x3xi1>) {
  %d = stablehlo.dot_general %a, %w, contracting_dims = [1] x [0] : (tensor<4x2xf32>, tensor<2x3xf32>) -> tensor<4x3xf32>
  %s = stablehlo.select %p, %d, %x : tensor<i1>, tensor<4x3xf32>
  %t = stablehlo.add %s, %x : tensor<4x3xf32>
  %c = stablehlo.compare GT, %d, %x : (tensor<4x3xf32>, tensor<4x3xf32>) -> tensor<4x3xi1>
  return %t, %c : tensor<4x3xf32>, tensor<4x3xi1>
}

// -----

// Check that a PRED computed in the consumer's dispatch from floats, and a broadcast
// scalar PRED, are left alone (IREE compiles both).
// CHECK-LABEL: func.func @computed_and_scalar_preds
// CHECK-NOT: stablehlo.optimization_barrier
func.func @computed_and_scalar_preds(%a: tensor<4x2xf32>, %w: tensor<2x3xf32>, %x: tensor<4x3xf32>, %q: tensor<4x3xf32>, %s: tensor<i1>) -> (tensor<4x3xf32>, tensor<4x3xf32>) {
  %d = stablehlo.dot_general %a, %w, contracting_dims = [1] x [0] : (tensor<4x2xf32>, tensor<2x3xf32>) -> tensor<4x3xf32>
  %p = stablehlo.compare GT, %q, %x : (tensor<4x3xf32>, tensor<4x3xf32>) -> tensor<4x3xi1>
  %r = stablehlo.select %p, %d, %x : tensor<4x3xi1>, tensor<4x3xf32>
  %b = stablehlo.broadcast_in_dim %s, dims = [] : (tensor<i1>) -> tensor<4x3xi1>
  %t = stablehlo.select %b, %d, %x : tensor<4x3xi1>, tensor<4x3xf32>
  return %r, %t : tensor<4x3xf32>, tensor<4x3xf32>
}

// -----

// Check that a PRED parameter broadcast along a dimension, and a convolution, count.
// CHECK-LABEL: func.func @broadcast_pred_after_convolution
// CHECK: %[[C:.*]] = stablehlo.convolution
// CHECK-NEXT: %[[B:.*]] = stablehlo.optimization_barrier %[[C]]
// CHECK: stablehlo.select %{{.*}}, %[[B]], %arg2
func.func @broadcast_pred_after_convolution(%x: tensor<1x4x4x2xf32>, %k: tensor<1x1x2x3xf32>, %y: tensor<1x4x4x3xf32>, %p: tensor<4xi1>) -> tensor<1x4x4x3xf32> {
  %c = stablehlo.convolution(%x, %k) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x4x4x2xf32>, tensor<1x1x2x3xf32>) -> tensor<1x4x4x3xf32>
  %q = stablehlo.broadcast_in_dim %p, dims = [1] : (tensor<4xi1>) -> tensor<1x4x4x3xi1>
  %r = stablehlo.select %q, %c, %y : tensor<1x4x4x3xi1>, tensor<1x4x4x3xf32>
  return %r : tensor<1x4x4x3xf32>
}

// -----

// Check that a dot operand computed by a convert that a concatenate reads too is read through a barrier.
// CHECK-LABEL: func.func @shared_convert_operand
// CHECK: %[[C:.*]] = stablehlo.convert %arg0
// CHECK-NEXT: %[[B:.*]] = stablehlo.optimization_barrier %[[C]] : tensor<2x3xf32>
// CHECK-NEXT: stablehlo.dot_general %arg1, %[[B]]
// CHECK-NEXT: stablehlo.concatenate %[[C]], %[[C]]
func.func @shared_convert_operand(%x: tensor<2x3xi32>, %v: tensor<2xf32>) -> (tensor<3xf32>, tensor<4x3xf32>) {
  %c = stablehlo.convert %x : (tensor<2x3xi32>) -> tensor<2x3xf32>
  %d = stablehlo.dot_general %v, %c, contracting_dims = [0] x [0] : (tensor<2xf32>, tensor<2x3xf32>) -> tensor<3xf32>
  %r = stablehlo.concatenate %c, %c, dim = 0 : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<4x3xf32>
  return %d, %r : tensor<3xf32>, tensor<4x3xf32>
}

// -----

// Check that a convert only the dot reads, and an argument read elsewhere, are left alone.
// CHECK-LABEL: func.func @unshared_convert_operand
// CHECK-NOT: stablehlo.optimization_barrier
func.func @unshared_convert_operand(%x: tensor<2x3xi32>, %v: tensor<2xf32>) -> (tensor<3xf32>, tensor<4xf32>) {
  %c = stablehlo.convert %x : (tensor<2x3xi32>) -> tensor<2x3xf32>
  %d = stablehlo.dot_general %v, %c, contracting_dims = [0] x [0] : (tensor<2xf32>, tensor<2x3xf32>) -> tensor<3xf32>
  %r = stablehlo.concatenate %v, %v, dim = 0 : (tensor<2xf32>, tensor<2xf32>) -> tensor<4xf32>
  return %d, %r : tensor<3xf32>, tensor<4xf32>
}

// -----

// Check that a non-splat PRED constant read by a consumer of a convolution counts (IREE
// loads it like an argument), through a sine as in seed 20261129 program 166.
// CHECK-LABEL: func.func @constant_pred_after_convolution
// CHECK: %[[C:.*]] = stablehlo.convolution
// CHECK-NEXT: %[[B:.*]] = stablehlo.optimization_barrier %[[C]] : tensor<1x1x4xf32>
// CHECK-NEXT: %[[S:.*]] = stablehlo.sine %[[B]]
// CHECK: stablehlo.select %{{.*}}, %[[S]], %[[B]]
func.func @constant_pred_after_convolution(%x: tensor<4x2x1xf32>, %k: tensor<1x1x2xf32>) -> tensor<1x1x4xf32> {
  %c = stablehlo.convolution(%x, %k) dim_numbers = [0, f, b]x[0, o, i]->[f, b, 0], window = {stride = [2], pad = [[-1, 2]], lhs_dilate = [2], rhs_dilate = [1]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<4x2x1xf32>, tensor<1x1x2xf32>) -> tensor<1x1x4xf32>
  %s = stablehlo.sine %c : tensor<1x1x4xf32>
  %p = stablehlo.constant dense<[[[true, false, true, true]]]> : tensor<1x1x4xi1>
  %r = stablehlo.select %p, %s, %c : tensor<1x1x4xi1>, tensor<1x1x4xf32>
  return %r : tensor<1x1x4xf32>
}

// -----

// Check that a splat PRED constant is left alone (IREE makes it a fill and compiles).
// CHECK-LABEL: func.func @splat_constant_pred
// CHECK-NOT: stablehlo.optimization_barrier
func.func @splat_constant_pred(%a: tensor<4x2xf32>, %v: tensor<2xf32>, %x: tensor<4xf32>) -> tensor<4xf32> {
  %d = stablehlo.dot_general %a, %v, contracting_dims = [1] x [0] : (tensor<4x2xf32>, tensor<2xf32>) -> tensor<4xf32>
  %p = stablehlo.constant dense<true> : tensor<4xi1>
  %r = stablehlo.select %p, %d, %x : tensor<4xi1>, tensor<4xf32>
  return %r : tensor<4xf32>
}

// -----

// Check that a non-splat PRED constant reaching the consumer through data movement
// (transpose, then dynamic_slice, as in the loop of an upper cholesky of a masked matrix)
// counts: IREE fuses them into the consumer and loads the constant there.
// CHECK-LABEL: func.func @constant_pred_through_transpose_and_slice
// CHECK: %[[D:.*]] = stablehlo.dot_general
// CHECK-NEXT: %[[B:.*]] = stablehlo.optimization_barrier %[[D]] : tensor<2x1xf32>
// CHECK-NEXT: stablehlo.subtract %{{.*}}, %[[B]]
func.func @constant_pred_through_transpose_and_slice(%x: tensor<2x2xf32>, %y: tensor<2x2xf32>, %v: tensor<2x1xf32>, %i: tensor<i32>) -> tensor<2x1xf32> {
  %c = stablehlo.constant dense<[[true, true], [false, true]]> : tensor<2x2xi1>
  %a = stablehlo.add %x, %x : tensor<2x2xf32>
  %s = stablehlo.select %c, %a, %x : tensor<2x2xi1>, tensor<2x2xf32>
  %t = stablehlo.transpose %s, dims = [1, 0] : (tensor<2x2xf32>) -> tensor<2x2xf32>
  %z = stablehlo.constant dense<0> : tensor<i32>
  %m = stablehlo.dynamic_slice %t, %z, %i, sizes = [2, 1] : (tensor<2x2xf32>, tensor<i32>, tensor<i32>) -> tensor<2x1xf32>
  %d = stablehlo.dot_general %y, %v, contracting_dims = [1] x [0] : (tensor<2x2xf32>, tensor<2x1xf32>) -> tensor<2x1xf32>
  %r = stablehlo.subtract %m, %d : tensor<2x1xf32>
  return %r : tensor<2x1xf32>
}

// -----

// Check that data movement of a float computed from a PRED in the dispatch (a compare),
// and of a splat PRED constant, is left alone.
// CHECK-LABEL: func.func @moved_computed_and_splat_preds
// CHECK-NOT: stablehlo.optimization_barrier
func.func @moved_computed_and_splat_preds(%x: tensor<2x2xf32>, %q: tensor<2x2xf32>, %y: tensor<2x2xf32>, %v: tensor<2x2xf32>) -> tensor<2x2xf32> {
  %p = stablehlo.compare GT, %q, %x : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xi1>
  %s = stablehlo.select %p, %q, %x : tensor<2x2xi1>, tensor<2x2xf32>
  %t = stablehlo.transpose %s, dims = [1, 0] : (tensor<2x2xf32>) -> tensor<2x2xf32>
  %c = stablehlo.constant dense<true> : tensor<2x2xi1>
  %u = stablehlo.select %c, %x, %q : tensor<2x2xi1>, tensor<2x2xf32>
  %w = stablehlo.reverse %u, dims = [0] : tensor<2x2xf32>
  %d = stablehlo.dot_general %y, %v, contracting_dims = [1] x [0] : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xf32>
  %e = stablehlo.subtract %t, %d : tensor<2x2xf32>
  %r = stablehlo.add %e, %w : tensor<2x2xf32>
  return %r : tensor<2x2xf32>
}
