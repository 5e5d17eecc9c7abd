// RUN: %hlo-opt %s -p inplace-operand-copy --split-input-file | filecheck %s

// Check that a sort reading a parameter through a barrier sorts a private copy (x + -0.0
// behind a barrier IREE cannot fold), so the parameter's other reader sees it unsorted.
// CHECK-LABEL: func.func @sort_behind_barrier
// CHECK: %[[B:.*]] = stablehlo.optimization_barrier %arg0 : tensor<4xf32>
// CHECK: %[[Z:.*]] = stablehlo.constant dense<-0.000000e+00> : tensor<f32>
// CHECK: %[[ZB:.*]] = stablehlo.optimization_barrier %[[Z]] : tensor<f32>
// CHECK: %[[ZS:.*]] = stablehlo.broadcast_in_dim %[[ZB]]
// CHECK: %[[C:.*]] = stablehlo.add %[[B]], %[[ZS]] : tensor<4xf32>
// CHECK: "stablehlo.sort"(%[[C]])
func.func @sort_behind_barrier(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %b = stablehlo.optimization_barrier %x : tensor<4xf32>
  %s = "stablehlo.sort"(%b) ({
  ^bb0(%p: tensor<f32>, %q: tensor<f32>):
    %c = stablehlo.compare GT, %p, %q : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %c : tensor<i1>
  }) {dimension = 0 : i64, is_stable = false} : (tensor<4xf32>) -> tensor<4xf32>
  %n = stablehlo.negate %x : tensor<4xf32>
  return %n, %s : tensor<4xf32>, tensor<4xf32>
}

// -----

// Check that a dynamic_update_slice of an integer read through a barrier and a reshape
// updates a copy made by adding 0.
// CHECK-LABEL: func.func @dus_behind_barrier_and_reshape
// CHECK: %[[R:.*]] = stablehlo.reshape
// CHECK: %[[Z:.*]] = stablehlo.constant dense<0> : tensor<i32>
// CHECK: %[[C:.*]] = stablehlo.add %[[R]], %{{.*}} : tensor<4xi32>
// CHECK: stablehlo.dynamic_update_slice %[[C]]
func.func @dus_behind_barrier_and_reshape(%x: tensor<2x2xi32>, %i: tensor<i32>) -> tensor<4xi32> {
  %b = stablehlo.optimization_barrier %x : tensor<2x2xi32>
  %r = stablehlo.reshape %b : (tensor<2x2xi32>) -> tensor<4xi32>
  %u = stablehlo.constant dense<9> : tensor<1xi32>
  %d = stablehlo.dynamic_update_slice %r, %u, %i : (tensor<4xi32>, tensor<1xi32>, tensor<i32>) -> tensor<4xi32>
  return %d : tensor<4xi32>
}

// -----

// Check that a PRED operand is copied with `or false`.
// CHECK-LABEL: func.func @pred_behind_barrier
// CHECK: %[[Z:.*]] = stablehlo.constant dense<false> : tensor<i1>
// CHECK: stablehlo.or
// CHECK: stablehlo.dynamic_update_slice
func.func @pred_behind_barrier(%x: tensor<4xi1>, %i: tensor<i32>) -> tensor<4xi1> {
  %b = stablehlo.optimization_barrier %x : tensor<4xi1>
  %u = stablehlo.constant dense<true> : tensor<1xi1>
  %d = stablehlo.dynamic_update_slice %b, %u, %i : (tensor<4xi1>, tensor<1xi1>, tensor<i32>) -> tensor<4xi1>
  return %d : tensor<4xi1>
}

// -----

// Check that an in-place op reading a value without a barrier, and a barrier's update
// operand (not updated in place), are left alone.
// CHECK-LABEL: func.func @no_barrier
// CHECK-NOT: stablehlo.add
// CHECK: stablehlo.dynamic_update_slice %arg0, %{{.*}}, %arg1
func.func @no_barrier(%x: tensor<4xf32>, %i: tensor<i32>) -> tensor<4xf32> {
  %u = stablehlo.constant dense<9.0> : tensor<1xf32>
  %ub = stablehlo.optimization_barrier %u : tensor<1xf32>
  %d = stablehlo.dynamic_update_slice %x, %ub, %i : (tensor<4xf32>, tensor<1xf32>, tensor<i32>) -> tensor<4xf32>
  return %d : tensor<4xf32>
}

// -----

// Check that a complex operand is copied by adding (-0, -0).
// CHECK-LABEL: func.func @complex_behind_barrier
// CHECK: stablehlo.constant dense<(-0.000000e+00,-0.000000e+00)> : tensor<complex<f32>>
// CHECK: %[[C:.*]] = stablehlo.add
// CHECK: stablehlo.dynamic_update_slice %[[C]]
func.func @complex_behind_barrier(%x: tensor<4xcomplex<f32>>, %i: tensor<i32>, %u: tensor<1xcomplex<f32>>) -> tensor<4xcomplex<f32>> {
  %b = stablehlo.optimization_barrier %x : tensor<4xcomplex<f32>>
  %d = stablehlo.dynamic_update_slice %b, %u, %i : (tensor<4xcomplex<f32>>, tensor<1xcomplex<f32>>, tensor<i32>) -> tensor<4xcomplex<f32>>
  return %d : tensor<4xcomplex<f32>>
}

// -----

// Check that a sorted constant (TopK of a constant, which IREE cannot sort in its
// read-only global) is copied first.
// CHECK-LABEL: func.func @sort_constant
// CHECK: %[[K:.*]] = stablehlo.constant dense<[3, 1, 2]> : tensor<3xi32>
// CHECK: %[[C:.*]] = stablehlo.add %[[K]], %{{.*}} : tensor<3xi32>
// CHECK: "stablehlo.sort"(%[[C]])
func.func @sort_constant() -> tensor<3xi32> {
  %k = stablehlo.constant dense<[3, 1, 2]> : tensor<3xi32>
  %s = "stablehlo.sort"(%k) ({
  ^bb0(%p: tensor<i32>, %q: tensor<i32>):
    %c = stablehlo.compare GT, %p, %q : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %c : tensor<i1>
  }) {dimension = 0 : i64, is_stable = false} : (tensor<3xi32>) -> tensor<3xi32>
  return %s : tensor<3xi32>
}

// -----

// Check that a sorted dynamic_slice of a constant (a view of the read-only global when
// its rows are contiguous) is copied first.
// CHECK-LABEL: func.func @sort_dynamic_slice_of_constant
// CHECK: %[[D:.*]] = stablehlo.dynamic_slice
// CHECK: %[[C:.*]] = stablehlo.add %[[D]], %{{.*}} : tensor<2x2xi32>
// CHECK: "stablehlo.sort"(%[[C]])
func.func @sort_dynamic_slice_of_constant(%i: tensor<i32>) -> tensor<2x2xi32> {
  %k = stablehlo.constant dense<[[3, 1], [2, 5], [7, 0]]> : tensor<3x2xi32>
  %z = stablehlo.constant dense<0> : tensor<i32>
  %d = stablehlo.dynamic_slice %k, %i, %z, sizes = [2, 2] : (tensor<3x2xi32>, tensor<i32>, tensor<i32>) -> tensor<2x2xi32>
  %s = "stablehlo.sort"(%d) ({
  ^bb0(%p: tensor<i32>, %q: tensor<i32>):
    %c = stablehlo.compare GT, %p, %q : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %c : tensor<i1>
  }) {dimension = 1 : i64, is_stable = false} : (tensor<2x2xi32>) -> tensor<2x2xi32>
  return %s : tensor<2x2xi32>
}

// -----

// Check that a sort of a non-identity slice reads it through a barrier and a copy, and
// that a sort of an identity slice (no copy in IREE) is left alone.
// CHECK-LABEL: func.func @sort_slice
// CHECK: %[[S:.*]] = stablehlo.slice %arg0 [0:2, 0:5]
// CHECK: %[[B:.*]] = stablehlo.optimization_barrier %[[S]] : tensor<2x5xi32>
// CHECK: %[[C:.*]] = stablehlo.add %[[B]], %{{.*}} : tensor<2x5xi32>
// CHECK: "stablehlo.sort"(%[[C]])
// CHECK-NOT: stablehlo.add
// CHECK: %[[T:.*]] = stablehlo.slice %arg1
// CHECK-NEXT: "stablehlo.sort"(%[[T]])
func.func @sort_slice(%x: tensor<2x6xi32>, %y: tensor<2x5xi32>) -> (tensor<2x5xi32>, tensor<2x5xi32>) {
  %s = stablehlo.slice %x [0:2, 0:5] : (tensor<2x6xi32>) -> tensor<2x5xi32>
  %r = "stablehlo.sort"(%s) ({
  ^bb0(%p: tensor<i32>, %q: tensor<i32>):
    %c = stablehlo.compare GT, %p, %q : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %c : tensor<i1>
  }) {dimension = 1 : i64, is_stable = false} : (tensor<2x5xi32>) -> tensor<2x5xi32>
  %t = stablehlo.slice %y [0:2, 0:5] : (tensor<2x5xi32>) -> tensor<2x5xi32>
  %u = "stablehlo.sort"(%t) ({
  ^bb0(%p: tensor<i32>, %q: tensor<i32>):
    %c = stablehlo.compare GT, %p, %q : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %c : tensor<i1>
  }) {dimension = 1 : i64, is_stable = false} : (tensor<2x5xi32>) -> tensor<2x5xi32>
  return %r, %u : tensor<2x5xi32>, tensor<2x5xi32>
}

// -----

// Check that a sort of a pad reads it through a barrier and a copy.
// CHECK-LABEL: func.func @sort_pad
// CHECK: %[[P:.*]] = stablehlo.pad %arg0, %arg1
// CHECK: %[[B:.*]] = stablehlo.optimization_barrier %[[P]] : tensor<1x17xui32>
// CHECK: %[[C:.*]] = stablehlo.add %[[B]], %{{.*}} : tensor<1x17xui32>
// CHECK: "stablehlo.sort"(%[[C]])
func.func @sort_pad(%x: tensor<5x8xui32>, %f: tensor<ui32>) -> tensor<1x17xui32> {
  %p = stablehlo.pad %x, %f, low = [-2, 2], high = [-2, 0], interior = [0, 1]
      : (tensor<5x8xui32>, tensor<ui32>) -> tensor<1x17xui32>
  %r = "stablehlo.sort"(%p) ({
  ^bb0(%a: tensor<ui32>, %b: tensor<ui32>):
    %c = stablehlo.compare LT, %a, %b : (tensor<ui32>, tensor<ui32>) -> tensor<i1>
    stablehlo.return %c : tensor<i1>
  }) {dimension = 1 : i64, is_stable = false} : (tensor<1x17xui32>) -> tensor<1x17xui32>
  return %r : tensor<1x17xui32>
}

// -----

// Check that a sort operand a branch of another operand's conditional returns is copied,
// and the conditional's result is not.
// CHECK-LABEL: func.func @sort_conditional_and_branch_value
// CHECK: %[[G:.*]] = stablehlo.negate %arg1
// CHECK: %[[I:.*]] = "stablehlo.if"
// CHECK: %[[C:.*]] = stablehlo.add %[[G]], %{{.*}} : tensor<6xi64>
// CHECK: "stablehlo.sort"(%[[I]], %[[C]])
func.func @sort_conditional_and_branch_value(%p: tensor<i1>, %x: tensor<6xi64>) -> tensor<6xi64> {
  %g = stablehlo.negate %x : tensor<6xi64>
  %i = "stablehlo.if"(%p) ({
    stablehlo.return %g : tensor<6xi64>
  }, {
    %n = stablehlo.negate %g : tensor<6xi64>
    stablehlo.return %n : tensor<6xi64>
  }) : (tensor<i1>) -> tensor<6xi64>
  %r:2 = "stablehlo.sort"(%i, %g) ({
  ^bb0(%a: tensor<i64>, %b: tensor<i64>, %c: tensor<i64>, %d: tensor<i64>):
    %l = stablehlo.compare GT, %a, %b : (tensor<i64>, tensor<i64>) -> tensor<i1>
    stablehlo.return %l : tensor<i1>
  }) {dimension = 0 : i64, is_stable = false} : (tensor<6xi64>, tensor<6xi64>) -> (tensor<6xi64>, tensor<6xi64>)
  return %r#1 : tensor<6xi64>
}

// -----

// Check that a sort of a slice seen through a reduce over no dimensions (IREE folds the
// reduce and fuses the slice) sorts a fenced private copy, and that a sort of an
// element-wise result (a buffer of its own) is left alone.
// CHECK-LABEL: func.func @sort_identity_reduce_of_slice
// CHECK: %[[R:.*]] = stablehlo.reduce
// CHECK: %[[B:.*]] = stablehlo.optimization_barrier %[[R]] : tensor<2x4xi32>
// CHECK: %[[C:.*]] = stablehlo.add %[[B]], %{{.*}} : tensor<2x4xi32>
// CHECK: "stablehlo.sort"(%[[C]])
// CHECK: %[[N:.*]] = stablehlo.negate %arg1
// CHECK-NEXT: "stablehlo.sort"(%[[N]])
func.func @sort_identity_reduce_of_slice(%x: tensor<2x6xi32>, %y: tensor<2x4xi32>) -> (tensor<2x4xi32>, tensor<2x4xi32>) {
  %s = stablehlo.slice %x [0:2, 0:4] : (tensor<2x6xi32>) -> tensor<2x4xi32>
  %z = stablehlo.constant dense<0> : tensor<i32>
  %r = stablehlo.reduce(%s init: %z) applies stablehlo.add across dimensions = [] : (tensor<2x4xi32>, tensor<i32>) -> tensor<2x4xi32>
  %t = "stablehlo.sort"(%r) ({
  ^bb0(%p: tensor<i32>, %q: tensor<i32>):
    %c = stablehlo.compare GT, %p, %q : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %c : tensor<i1>
  }) {dimension = 0 : i64, is_stable = false} : (tensor<2x4xi32>) -> tensor<2x4xi32>
  %n = stablehlo.negate %y : tensor<2x4xi32>
  %u = "stablehlo.sort"(%n) ({
  ^bb0(%p: tensor<i32>, %q: tensor<i32>):
    %c = stablehlo.compare GT, %p, %q : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %c : tensor<i1>
  }) {dimension = 0 : i64, is_stable = false} : (tensor<2x4xi32>) -> tensor<2x4xi32>
  return %t, %u : tensor<2x4xi32>, tensor<2x4xi32>
}

// -----

// Check that a sort of a map returning its argument of a constant (an expression of
// constants, a read-only global in IREE) sorts a private copy.
// CHECK-LABEL: func.func @sort_identity_map_of_constant
// CHECK: %[[M:.*]] = "stablehlo.map"
// CHECK: %[[C:.*]] = stablehlo.add %[[M]], %{{.*}} : tensor<4xf16>
// CHECK: "stablehlo.sort"(%[[C]])
func.func @sort_identity_map_of_constant() -> tensor<4xf16> {
  %k = stablehlo.constant dense<[3.0, 1.0, 2.0, 0.5]> : tensor<4xf16>
  %m = "stablehlo.map"(%k, %k) ({
  ^bb0(%a: tensor<f16>, %b: tensor<f16>):
    stablehlo.return %b : tensor<f16>
  }) {dimensions = array<i64: 0>} : (tensor<4xf16>, tensor<4xf16>) -> tensor<4xf16>
  %s = "stablehlo.sort"(%m) ({
  ^bb0(%p: tensor<f16>, %q: tensor<f16>):
    %c = stablehlo.compare GT, %p, %q : (tensor<f16>, tensor<f16>) -> tensor<i1>
    stablehlo.return %c : tensor<i1>
  }) {dimension = 0 : i64, is_stable = false} : (tensor<4xf16>) -> tensor<4xf16>
  return %s : tensor<4xf16>
}

// -----

// Check that a sort whose result is padded gets its results through one barrier, the
// pad and a second sort reading the barrier (the second sort a private copy of it, as
// every barrier result), and the second sort, only returned, gets no barrier.
// CHECK-LABEL: func.func @sort_result_fence
// CHECK: %[[S:.*]] = "stablehlo.sort"(%arg0)
// CHECK: %[[F:.*]] = stablehlo.optimization_barrier %[[S]] : tensor<4xf32>
// CHECK: stablehlo.pad %[[F]]
// CHECK: %[[C:.*]] = stablehlo.add %[[F]], %{{.*}} : tensor<4xf32>
// CHECK: %[[T:.*]] = "stablehlo.sort"(%[[C]])
// CHECK-NOT: stablehlo.optimization_barrier %[[T]]
// CHECK: return
func.func @sort_result_fence(%x: tensor<4xf32>, %v: tensor<f32>) -> (tensor<7xf32>, tensor<4xf32>) {
  %s = "stablehlo.sort"(%x) ({
  ^bb0(%p: tensor<f32>, %q: tensor<f32>):
    %c = stablehlo.compare GT, %p, %q : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %c : tensor<i1>
  }) {dimension = 0 : i64, is_stable = false} : (tensor<4xf32>) -> tensor<4xf32>
  %p = stablehlo.pad %s, %v, low = [0], high = [0], interior = [1] : (tensor<4xf32>, tensor<f32>) -> tensor<7xf32>
  %t = "stablehlo.sort"(%s) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %c = stablehlo.compare LT, %a, %b : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %c : tensor<i1>
  }) {dimension = 0 : i64, is_stable = false} : (tensor<4xf32>) -> tensor<4xf32>
  return %p, %t : tensor<7xf32>, tensor<4xf32>
}

// -----

// Check that a scatter into a pad by a run-time value updates a fenced private copy, and
// that a scatter into a pad by a constant (scatter-bounds' pad) is left alone.
// CHECK-LABEL: func.func @scatter_into_padded_splat
// CHECK: %[[P:.*]] = stablehlo.pad %arg0, %arg1
// CHECK: %[[B:.*]] = stablehlo.optimization_barrier %[[P]] : tensor<5xf32>
// CHECK: %[[C:.*]] = stablehlo.add %[[B]], %{{.*}} : tensor<5xf32>
// CHECK: "stablehlo.scatter"(%[[C]],
// CHECK: %[[Q:.*]] = stablehlo.pad %arg0, %cst
// CHECK-NEXT: "stablehlo.scatter"(%[[Q]],
func.func @scatter_into_padded_splat(%x: tensor<4xf32>, %v: tensor<f32>, %i: tensor<1x1xi32>, %u: tensor<1xf32>) -> (tensor<5xf32>, tensor<5xf32>) {
  %p = stablehlo.pad %x, %v, low = [0], high = [1], interior = [0] : (tensor<4xf32>, tensor<f32>) -> tensor<5xf32>
  %s = "stablehlo.scatter"(%p, %i, %u) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    stablehlo.return %b : tensor<f32>
  }) {scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>} : (tensor<5xf32>, tensor<1x1xi32>, tensor<1xf32>) -> tensor<5xf32>
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  %q = stablehlo.pad %x, %z, low = [0], high = [1], interior = [0] : (tensor<4xf32>, tensor<f32>) -> tensor<5xf32>
  %t = "stablehlo.scatter"(%q, %i, %u) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    stablehlo.return %b : tensor<f32>
  }) {scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>} : (tensor<5xf32>, tensor<1x1xi32>, tensor<1xf32>) -> tensor<5xf32>
  return %s, %t : tensor<5xf32>, tensor<5xf32>
}

// -----

// Check that a sort of a slice seen through a transpose moving only a unit dimension (a
// reshape to IREE) reads a copy, and that a sort of a transpose of a slice is left alone.
// CHECK-LABEL: func.func @sort_unit_transpose_of_slice
// CHECK: %[[T:.*]] = stablehlo.transpose
// CHECK: %[[B:.*]] = stablehlo.optimization_barrier %[[T]] : tensor<1x3x2xf32>
// CHECK: %[[C:.*]] = stablehlo.add %[[B]], %{{.*}} : tensor<1x3x2xf32>
// CHECK: "stablehlo.sort"(%[[C]])
// CHECK-NOT: stablehlo.add
// CHECK: %[[U:.*]] = stablehlo.transpose
// CHECK-NEXT: "stablehlo.sort"(%[[U]])
func.func @sort_unit_transpose_of_slice(%x: tensor<3x2x4xf32>, %y: tensor<3x4xf32>) -> (tensor<1x3x2xf32>, tensor<2x3xf32>) {
  %s = stablehlo.slice %x [0:3, 0:2, 0:1] : (tensor<3x2x4xf32>) -> tensor<3x2x1xf32>
  %t = stablehlo.transpose %s, dims = [2, 0, 1] : (tensor<3x2x1xf32>) -> tensor<1x3x2xf32>
  %r = "stablehlo.sort"(%t) ({
  ^bb0(%p: tensor<f32>, %q: tensor<f32>):
    %c = stablehlo.compare LT, %p, %q : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %c : tensor<i1>
  }) {dimension = 1 : i64, is_stable = true} : (tensor<1x3x2xf32>) -> tensor<1x3x2xf32>
  %v = stablehlo.slice %y [0:3, 0:2] : (tensor<3x4xf32>) -> tensor<3x2xf32>
  %u = stablehlo.transpose %v, dims = [1, 0] : (tensor<3x2xf32>) -> tensor<2x3xf32>
  %w = "stablehlo.sort"(%u) ({
  ^bb0(%p: tensor<f32>, %q: tensor<f32>):
    %c = stablehlo.compare LT, %p, %q : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %c : tensor<i1>
  }) {dimension = 1 : i64, is_stable = true} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return %r, %w : tensor<1x3x2xf32>, tensor<2x3xf32>
}


// -----

// Check that a sort of a conditional whose branches both return one pad (IREE folds the
// conditional to the pad) sorts a fenced private copy, and that a conditional whose
// branches differ is sorted as it is.
// CHECK-LABEL: func.func @sort_conditional_of_one_pad
// CHECK: %[[I:.*]] = "stablehlo.if"
// CHECK: %[[B:.*]] = stablehlo.optimization_barrier %[[I]] : tensor<3x8x1xf64>
// CHECK: %[[C:.*]] = stablehlo.add %[[B]], %{{.*}} : tensor<3x8x1xf64>
// CHECK: "stablehlo.sort"(%[[C]])
// CHECK: %[[J:.*]] = "stablehlo.if"
// CHECK-NOT: stablehlo.optimization_barrier
// CHECK: "stablehlo.sort"(%[[J]])
func.func @sort_conditional_of_one_pad(%x: tensor<1x5x5xf64>, %v: tensor<f64>, %p: tensor<i1>) -> (tensor<3x8x1xf64>, tensor<3x8x1xf64>) {
  %0 = stablehlo.pad %x, %v, low = [0, 2, -2], high = [2, 1, -2], interior = [0, 0, 0] : (tensor<1x5x5xf64>, tensor<f64>) -> tensor<3x8x1xf64>
  %1 = "stablehlo.if"(%p) ({
    stablehlo.return %0 : tensor<3x8x1xf64>
  }, {
    stablehlo.return %0 : tensor<3x8x1xf64>
  }) : (tensor<i1>) -> tensor<3x8x1xf64>
  %2 = "stablehlo.sort"(%1) ({
  ^bb0(%a: tensor<f64>, %b: tensor<f64>):
    %c = stablehlo.compare GT, %a, %b, TOTALORDER : (tensor<f64>, tensor<f64>) -> tensor<i1>
    stablehlo.return %c : tensor<i1>
  }) {dimension = 1 : i64, is_stable = false} : (tensor<3x8x1xf64>) -> tensor<3x8x1xf64>
  %3 = "stablehlo.if"(%p) ({
    stablehlo.return %0 : tensor<3x8x1xf64>
  }, {
    %n = stablehlo.negate %0 : tensor<3x8x1xf64>
    stablehlo.return %n : tensor<3x8x1xf64>
  }) : (tensor<i1>) -> tensor<3x8x1xf64>
  %4 = "stablehlo.sort"(%3) ({
  ^bb0(%a: tensor<f64>, %b: tensor<f64>):
    %c = stablehlo.compare GT, %a, %b, TOTALORDER : (tensor<f64>, tensor<f64>) -> tensor<i1>
    stablehlo.return %c : tensor<i1>
  }) {dimension = 1 : i64, is_stable = false} : (tensor<3x8x1xf64>) -> tensor<3x8x1xf64>
  return %2, %4 : tensor<3x8x1xf64>, tensor<3x8x1xf64>
}

// -----

// Check that a dynamic_update_slice of a concatenate another op reads (through a reshape
// too) updates a private copy (IREE updated the concatenate in place while a Neg still read
// it: seed 20261127 program 6950), and that a concatenate only the update reads stays.
// CHECK-LABEL: func.func @dus_of_concatenate_read_elsewhere
// CHECK: %[[J:.*]] = stablehlo.concatenate
// CHECK: %[[N:.*]] = stablehlo.negate %[[J]]
// CHECK: %[[Z:.*]] = stablehlo.optimization_barrier %{{.*}} : tensor<i64>
// CHECK: %[[ZB:.*]] = stablehlo.broadcast_in_dim %[[Z]]
// CHECK: %[[C:.*]] = stablehlo.add %[[J]], %[[ZB]] : tensor<12xi64>
// CHECK: stablehlo.dynamic_update_slice %[[C]]
// CHECK: %[[K:.*]] = stablehlo.concatenate
// CHECK: %[[R:.*]] = stablehlo.reshape %[[K]]
// CHECK: %[[M:.*]] = stablehlo.negate %[[R]]
// CHECK: %[[RC:.*]] = stablehlo.add %[[R]], %{{.*}} : tensor<3x4xi64>
// CHECK: stablehlo.dynamic_update_slice %[[RC]]
// CHECK: %[[L:.*]] = stablehlo.concatenate
// CHECK-NOT: stablehlo.add
// CHECK: stablehlo.dynamic_update_slice %[[L]]
func.func @dus_of_concatenate_read_elsewhere(%x: tensor<8xi64>, %u: tensor<1xi64>, %i: tensor<i64>, %v: tensor<1x1xi64>) -> (tensor<12xi64>, tensor<12xi64>, tensor<3x4xi64>, tensor<3x4xi64>, tensor<12xi64>) {
  %c = stablehlo.constant dense<[-9223372036854775807, -7]> : tensor<2xi64>
  %0 = stablehlo.concatenate %x, %c, %c, dim = 0 : (tensor<8xi64>, tensor<2xi64>, tensor<2xi64>) -> tensor<12xi64>
  %1 = stablehlo.negate %0 : tensor<12xi64>
  %2 = stablehlo.dynamic_update_slice %0, %u, %i : (tensor<12xi64>, tensor<1xi64>, tensor<i64>) -> tensor<12xi64>
  %3 = stablehlo.concatenate %c, %x, %c, dim = 0 : (tensor<2xi64>, tensor<8xi64>, tensor<2xi64>) -> tensor<12xi64>
  %4 = stablehlo.reshape %3 : (tensor<12xi64>) -> tensor<3x4xi64>
  %5 = stablehlo.negate %4 : tensor<3x4xi64>
  %6 = stablehlo.dynamic_update_slice %4, %v, %i, %i : (tensor<3x4xi64>, tensor<1x1xi64>, tensor<i64>, tensor<i64>) -> tensor<3x4xi64>
  %7 = stablehlo.concatenate %x, %c, %c, dim = 0 : (tensor<8xi64>, tensor<2xi64>, tensor<2xi64>) -> tensor<12xi64>
  %8 = stablehlo.dynamic_update_slice %7, %u, %i : (tensor<12xi64>, tensor<1xi64>, tensor<i64>) -> tensor<12xi64>
  return %1, %2, %5, %6, %8 : tensor<12xi64>, tensor<12xi64>, tensor<3x4xi64>, tensor<3x4xi64>, tensor<12xi64>
}

// -----

// Check that a dynamic_update_slice of an rng_bit_generator output another op reads updates
// a private copy (IREE updated it in place while a count_leading_zeros still read it: seed
// 20261127 program 9679), and that an output only the update reads stays.
// CHECK-LABEL: func.func @dus_of_rng_output_read_elsewhere
// CHECK: %[[S:.*]], %[[B:.*]] = stablehlo.rng_bit_generator
// CHECK: %[[Z:.*]] = stablehlo.count_leading_zeros %[[B]]
// CHECK: %[[C:.*]] = stablehlo.add %[[B]], %{{.*}} : tensor<4x3x3xui32>
// CHECK: stablehlo.dynamic_update_slice %[[C]]
// CHECK: %[[T:.*]], %[[B2:.*]] = stablehlo.rng_bit_generator
// CHECK-NOT: stablehlo.add
// CHECK: stablehlo.dynamic_update_slice %[[B2]]
func.func @dus_of_rng_output_read_elsewhere(%s: tensor<2xui64>, %i: tensor<i32>, %u: tensor<4x2x1xui32>) -> (tensor<4x3x3xui32>, tensor<4x3x3xui32>, tensor<4x3x3xui32>) {
  %state, %bits = stablehlo.rng_bit_generator %s, algorithm = THREE_FRY : (tensor<2xui64>) -> (tensor<2xui64>, tensor<4x3x3xui32>)
  %0 = stablehlo.count_leading_zeros %bits : tensor<4x3x3xui32>
  %1 = stablehlo.dynamic_update_slice %bits, %u, %i, %i, %i : (tensor<4x3x3xui32>, tensor<4x2x1xui32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<4x3x3xui32>
  %state2, %bits2 = stablehlo.rng_bit_generator %state, algorithm = THREE_FRY : (tensor<2xui64>) -> (tensor<2xui64>, tensor<4x3x3xui32>)
  %2 = stablehlo.dynamic_update_slice %bits2, %u, %i, %i, %i : (tensor<4x3x3xui32>, tensor<4x2x1xui32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<4x3x3xui32>
  return %0, %1, %2 : tensor<4x3x3xui32>, tensor<4x3x3xui32>, tensor<4x3x3xui32>
}
