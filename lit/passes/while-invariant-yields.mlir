// RUN: %hlo-opt %s -p while-invariant-yields --split-input-file | filecheck %s

// Check that a loop-invariant yield (clamp to one bound; a value built from a carried
// value passed through) becomes a select of itself and its carried value by a false
// predicate behind a barrier (made once before the loop, broadcast to the yield's
// dimensions in it), with no barrier inside the loop, and that the counter (carried value
// plus a non-zero constant) is left alone.
// CHECK-LABEL: func.func @invariant
// CHECK: %[[F:.*]] = stablehlo.constant dense<false> : tensor<i1>
// CHECK-NEXT: %[[FB:.*]] = stablehlo.optimization_barrier %[[F]] : tensor<i1>
// CHECK-NEXT: stablehlo.while(%[[I:[^ ]*]] = %{{.*}}, %[[M:[^ ]*]] = %{{.*}}, %[[X:[^ ]*]] = %{{.*}}, %[[Z:[^ ]*]] = %{{.*}})
// CHECK: %[[V:.*]] = stablehlo.clamp
// CHECK: %[[W:.*]] = stablehlo.broadcast_in_dim
// CHECK: %[[I1:.*]] = stablehlo.add %[[I]], %{{.*}} : tensor<i32>
// CHECK-NOT: stablehlo.optimization_barrier
// CHECK-NEXT: %[[P0:.*]] = stablehlo.broadcast_in_dim %[[FB]], dims = [] : (tensor<i1>) -> tensor<3xi1>
// CHECK-NEXT: %[[Y0:.*]] = stablehlo.select %[[P0]], %[[X]], %[[V]] : tensor<3xi1>, tensor<3xui32>
// CHECK-NEXT: %[[P1:.*]] = stablehlo.broadcast_in_dim %[[FB]], dims = [] : (tensor<i1>) -> tensor<3xi1>
// CHECK-NEXT: %[[Y1:.*]] = stablehlo.select %[[P1]], %[[Z]], %[[W]] : tensor<3xi1>, tensor<3xi32>
// CHECK-NEXT: stablehlo.return %[[I1]], %[[M]], %[[Y0]], %[[Y1]]
func.func @invariant(%a: tensor<3xui32>, %n: tensor<i32>, %y: tensor<3xi32>) -> tensor<3xui32> {
  %c = stablehlo.constant dense<0> : tensor<i32>
  %r:4 = stablehlo.while(%i = %c, %m = %n, %x = %a, %z = %y) : tensor<i32>, tensor<i32>, tensor<3xui32>, tensor<3xi32>
  cond {
    %p = stablehlo.compare LT, %i, %m, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %p : tensor<i1>
  } do {
    %c4 = stablehlo.constant dense<4> : tensor<ui32>
    %v = stablehlo.clamp %c4, %x, %c4 : (tensor<ui32>, tensor<3xui32>, tensor<ui32>) -> tensor<3xui32>
    %w = stablehlo.broadcast_in_dim %m, dims = [] : (tensor<i32>) -> tensor<3xi32>
    %one = stablehlo.constant dense<1> : tensor<i32>
    %i1 = stablehlo.add %i, %one : tensor<i32>
    stablehlo.return %i1, %m, %v, %w : tensor<i32>, tensor<i32>, tensor<3xui32>, tensor<3xi32>
  }
  return %r#2 : tensor<3xui32>
}

// -----

// Check that a yield that does not read its carried value (the counter written into %x;
// a comparison into %p), a yield IREE folds (x >> x is 0) and a yield given for two
// carried values (the counter again, into %j) are tied; scalars, pred included, select by
// the scalar predicate.
// CHECK-LABEL: func.func @unread
// CHECK: %[[FB:.*]] = stablehlo.optimization_barrier %{{.*}} : tensor<i1>
// CHECK-NEXT: stablehlo.while(%[[I:[^ ]*]] = %{{.*}}, %[[M:[^ ]*]] = %{{.*}}, %[[J:[^ ]*]] = %{{.*}}, %[[P:[^ ]*]] = %{{.*}}, %[[T:[^ ]*]] = %{{.*}}, %[[X:[^ ]*]] = %{{.*}})
// CHECK: %[[I1:.*]] = stablehlo.add %[[I]], %{{.*}} : tensor<i32>
// CHECK: %[[LE:.*]] = stablehlo.compare LE
// CHECK: %[[SH:.*]] = stablehlo.shift_right_logical
// CHECK-NEXT: %[[J1:.*]] = stablehlo.select %[[FB]], %[[J]], %[[I1]] : tensor<i1>, tensor<i32>
// CHECK-NEXT: %[[P1:.*]] = stablehlo.select %[[FB]], %[[P]], %[[LE]] : tensor<i1>, tensor<i1>
// CHECK-NEXT: %[[PB:.*]] = stablehlo.broadcast_in_dim %[[FB]], dims = [] : (tensor<i1>) -> tensor<8xi1>
// CHECK-NEXT: %[[T1:.*]] = stablehlo.select %[[PB]], %[[T]], %[[SH]] : tensor<8xi1>, tensor<8xi64>
// CHECK-NEXT: %[[X1:.*]] = stablehlo.select %[[FB]], %[[X]], %[[I]] : tensor<i1>, tensor<i32>
// CHECK-NEXT: stablehlo.return %[[I1]], %[[M]], %[[J1]], %[[P1]], %[[T1]], %[[X1]]
func.func @unread(%n: tensor<i32>, %s: tensor<8xi64>) -> tensor<i32> {
  %c = stablehlo.constant dense<0> : tensor<i32>
  %f = stablehlo.constant dense<false> : tensor<i1>
  %r:6 = stablehlo.while(%i = %c, %m = %n, %j = %c, %p = %f, %t = %s, %x = %c) : tensor<i32>, tensor<i32>, tensor<i32>, tensor<i1>, tensor<8xi64>, tensor<i32>
  cond {
    %q = stablehlo.compare LT, %i, %m, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %q : tensor<i1>
  } do {
    %one = stablehlo.constant dense<1> : tensor<i32>
    %i1 = stablehlo.add %i, %one : tensor<i32>
    %le = stablehlo.compare LE, %i, %m, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %sh = stablehlo.shift_right_logical %t, %t : tensor<8xi64>
    stablehlo.return %i1, %m, %i1, %le, %sh, %i : tensor<i32>, tensor<i32>, tensor<i32>, tensor<i1>, tensor<8xi64>, tensor<i32>
  }
  return %r#5 : tensor<i32>
}

// -----

// Check that a dynamic_update_slice whose update covers its whole operand (IREE folds it
// to the update) is tied.
// CHECK-LABEL: func.func @whole_update
// CHECK: %[[FB:.*]] = stablehlo.optimization_barrier %{{.*}} : tensor<i1>
// CHECK-NEXT: stablehlo.while(%{{[^ ]*}} = %{{.*}}, %[[M:[^ ]*]] = %{{.*}}, %[[X:[^ ]*]] = %{{.*}})
// CHECK: %[[U:.*]] = stablehlo.dynamic_update_slice
// CHECK-NEXT: %[[PB:.*]] = stablehlo.broadcast_in_dim %[[FB]]
// CHECK-NEXT: %[[Y:.*]] = stablehlo.select %[[PB]], %[[X]], %[[U]] : tensor<2xi1>, tensor<2xf32>
// CHECK-NEXT: stablehlo.return %{{.*}}, %[[M]], %[[Y]]
func.func @whole_update(%n: tensor<i32>, %a: tensor<2xf32>, %u: tensor<2xf32>) -> tensor<2xf32> {
  %c = stablehlo.constant dense<0> : tensor<i32>
  %r:3 = stablehlo.while(%i = %c, %m = %n, %x = %a) : tensor<i32>, tensor<i32>, tensor<2xf32>
  cond {
    %q = stablehlo.compare LT, %i, %m, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %q : tensor<i1>
  } do {
    %one = stablehlo.constant dense<1> : tensor<i32>
    %i1 = stablehlo.add %i, %one : tensor<i32>
    %v = stablehlo.dynamic_update_slice %x, %u, %i : (tensor<2xf32>, tensor<2xf32>, tensor<i32>) -> tensor<2xf32>
    stablehlo.return %i1, %m, %v : tensor<i32>, tensor<i32>, tensor<2xf32>
  }
  return %r#2 : tensor<2xf32>
}

// -----

// Check that pass-through values, counters (a carried value plus or minus a non-zero
// constant) and in-place updates of a carried value (a chain of partial
// dynamic_update_slice and scatter) are left alone.
// CHECK-LABEL: func.func @kept
// CHECK-NOT: stablehlo.optimization_barrier
func.func @kept(%n: tensor<i32>, %a: tensor<4xf32>, %u: tensor<1xf32>) -> tensor<4xf32> {
  %c = stablehlo.constant dense<0> : tensor<i32>
  %r:4 = stablehlo.while(%i = %c, %m = %n, %x = %a, %k = %n) : tensor<i32>, tensor<i32>, tensor<4xf32>, tensor<i32>
  cond {
    %q = stablehlo.compare LT, %i, %m, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %q : tensor<i1>
  } do {
    %one = stablehlo.constant dense<1> : tensor<i32>
    %i1 = stablehlo.add %i, %one : tensor<i32>
    %k1 = stablehlo.subtract %k, %one : tensor<i32>
    %v = stablehlo.dynamic_update_slice %x, %u, %i : (tensor<4xf32>, tensor<1xf32>, tensor<i32>) -> tensor<4xf32>
    %idx = stablehlo.reshape %i : (tensor<i32>) -> tensor<1x1xi32>
    %w = "stablehlo.scatter"(%v, %idx, %u) ({
    ^bb0(%p0: tensor<f32>, %p1: tensor<f32>):
      stablehlo.return %p1 : tensor<f32>
    }) {scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>,
        indices_are_sorted = false, unique_indices = false}
      : (tensor<4xf32>, tensor<1x1xi32>, tensor<1xf32>) -> tensor<4xf32>
    %w2 = stablehlo.dynamic_update_slice %w, %u, %k : (tensor<4xf32>, tensor<1xf32>, tensor<i32>) -> tensor<4xf32>
    stablehlo.return %i1, %m, %w2, %k1 : tensor<i32>, tensor<i32>, tensor<4xf32>, tensor<i32>
  }
  return %r#2 : tensor<4xf32>
}

// -----

// Check that an array yield computed from a gather of its carried value (as in
// sort-network-expander's loops) is left alone.
// CHECK-LABEL: func.func @gathered
// CHECK-NOT: stablehlo.optimization_barrier
func.func @gathered(%n: tensor<i32>, %a: tensor<4xf32>, %p: tensor<4xi32>, %s: tensor<4xi1>) -> tensor<4xf32> {
  %c = stablehlo.constant dense<0> : tensor<i32>
  %r:3 = stablehlo.while(%i = %c, %m = %n, %x = %a) : tensor<i32>, tensor<i32>, tensor<4xf32>
  cond {
    %q = stablehlo.compare LT, %i, %m, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %q : tensor<i1>
  } do {
    %one = stablehlo.constant dense<1> : tensor<i32>
    %i1 = stablehlo.add %i, %one : tensor<i32>
    %g = "stablehlo.torch_index_select"(%x, %p) <{batch_dims = 0 : i64, dim = 0 : i64}> : (tensor<4xf32>, tensor<4xi32>) -> tensor<4xf32>
    %y = stablehlo.select %s, %g, %x : tensor<4xi1>, tensor<4xf32>
    stablehlo.return %i1, %m, %y : tensor<i32>, tensor<i32>, tensor<4xf32>
  }
  return %r#2 : tensor<4xf32>
}

// -----

// Check that a yield of a value captured from above (%x) or computed from one (tanh %y),
// and the yields of two carried values of one init, are tied by a select with no barrier
// inside the loop: IREE splits a barrier over the carried value into a barrier of its own,
// and such loops failed at run time ("ref is null"; docs/iree-defects.md).
// CHECK-LABEL: func.func @captured_yields
// CHECK: %[[FB:.*]] = stablehlo.optimization_barrier %{{.*}} : tensor<i1>
// CHECK-NEXT: stablehlo.while(%[[I:[^ ]*]] = %{{.*}}, %[[A:[^ ]*]] = %[[K:[^ ,]*]], %[[B:[^ ]*]] = %[[K]], %[[C:[^ ]*]] = %{{.*}})
// CHECK: } do {
// CHECK-NOT: stablehlo.optimization_barrier
// CHECK: %[[TY:.*]] = stablehlo.tanh %arg1
// CHECK-NOT: stablehlo.optimization_barrier
// CHECK: stablehlo.select %{{.*}}, %[[A]], %{{.*}} : tensor<4xi1>, tensor<4xf32>
// CHECK-NOT: stablehlo.optimization_barrier
// CHECK: stablehlo.select %{{.*}}, %[[B]], %[[TY]] : tensor<4xi1>, tensor<4xf32>
// CHECK-NOT: stablehlo.optimization_barrier
// CHECK: stablehlo.select %{{.*}}, %[[C]], %arg0 : tensor<4xi1>, tensor<4xf32>
// CHECK-NOT: stablehlo.optimization_barrier
// CHECK: stablehlo.return
func.func @captured_yields(%x: tensor<4xf32>, %y: tensor<4xf32>, %n: tensor<i32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) {
  %c = stablehlo.constant dense<0> : tensor<i32>
  %k = stablehlo.constant dense<1.5> : tensor<4xf32>
  %r:4 = stablehlo.while(%i = %c, %a = %k, %b = %k, %d = %x) : tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
  cond {
    %q = stablehlo.compare LT, %i, %n, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %q : tensor<i1>
  } do {
    %one = stablehlo.constant dense<1> : tensor<i32>
    %i1 = stablehlo.add %i, %one : tensor<i32>
    %a1 = stablehlo.tanh %a : tensor<4xf32>
    %ty = stablehlo.tanh %y : tensor<4xf32>
    stablehlo.return %i1, %a1, %ty, %x : tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
  }
  return %r#1, %r#2, %r#3 : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
}

// -----

// Check that a while without yields to tie gets no predicate, and that a yield of a
// dynamic shape is left alone.
// CHECK-LABEL: func.func @nothing_to_tie
// CHECK-NOT: stablehlo.optimization_barrier
// CHECK-NOT: stablehlo.select
func.func @nothing_to_tie(%n: tensor<i32>, %a: tensor<?xf32>) -> tensor<?xf32> {
  %c = stablehlo.constant dense<0> : tensor<i32>
  %r:3 = stablehlo.while(%i = %c, %m = %n, %x = %a) : tensor<i32>, tensor<i32>, tensor<?xf32>
  cond {
    %q = stablehlo.compare LT, %i, %m, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %q : tensor<i1>
  } do {
    %one = stablehlo.constant dense<1> : tensor<i32>
    %i1 = stablehlo.add %i, %one : tensor<i32>
    %x1 = stablehlo.negate %x : tensor<?xf32>
    stablehlo.return %i1, %m, %x1 : tensor<i32>, tensor<i32>, tensor<?xf32>
  }
  return %r#2 : tensor<?xf32>
}
