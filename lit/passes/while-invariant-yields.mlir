// RUN: %hlo-opt %s -p while-invariant-yields --split-input-file | filecheck %s

// Check that a loop-invariant yield (clamp to one bound; a value built from a carried
// value passed through) becomes itself plus a zero tied to its carried value by a barrier
// (the zero made once before the loop, behind a barrier of its own), and that the counter
// (carried value plus a non-zero constant) is left alone.
// CHECK-LABEL: func.func @invariant
// CHECK: %[[Z0:.*]] = stablehlo.constant dense<0> : tensor<ui32>
// CHECK-NEXT: %[[ZB0:.*]] = stablehlo.optimization_barrier %[[Z0]] : tensor<ui32>
// CHECK-NEXT: %[[Z1:.*]] = stablehlo.constant dense<0> : tensor<i32>
// CHECK-NEXT: %[[ZB1:.*]] = stablehlo.optimization_barrier %[[Z1]] : tensor<i32>
// CHECK-NEXT: stablehlo.while(%[[I:[^ ]*]] = %{{.*}}, %[[M:[^ ]*]] = %{{.*}}, %[[X:[^ ]*]] = %{{.*}}, %[[Z:[^ ]*]] = %{{.*}})
// CHECK: %[[V:.*]] = stablehlo.clamp
// CHECK: %[[W:.*]] = stablehlo.broadcast_in_dim
// CHECK: %[[I1:.*]] = stablehlo.add %[[I]], %{{.*}} : tensor<i32>
// CHECK-NEXT: %[[B:.*]]:2 = stablehlo.optimization_barrier %[[ZB0]], %[[X]] : tensor<ui32>, tensor<3xui32>
// CHECK-NEXT: %[[BB:.*]] = stablehlo.broadcast_in_dim %[[B]]#0, dims = []
// CHECK-NEXT: %[[Y0:.*]] = stablehlo.add %[[V]], %[[BB]] : tensor<3xui32>
// CHECK-NEXT: %[[C:.*]]:2 = stablehlo.optimization_barrier %[[ZB1]], %[[Z]] : tensor<i32>, tensor<3xi32>
// CHECK-NEXT: %[[CB:.*]] = stablehlo.broadcast_in_dim %[[C]]#0, dims = []
// CHECK-NEXT: %[[Y1:.*]] = stablehlo.add %[[W]], %[[CB]] : tensor<3xi32>
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
// carried values (the counter again, into %j) are tied; pred yields through xor (or(true, z)
// would fold).
// CHECK-LABEL: func.func @unread
// CHECK: %[[ZI:.*]] = stablehlo.optimization_barrier %{{.*}} : tensor<i32>
// CHECK: %[[ZP:.*]] = stablehlo.optimization_barrier %{{.*}} : tensor<i1>
// CHECK: %[[ZL:.*]] = stablehlo.optimization_barrier %{{.*}} : tensor<i64>
// CHECK-NEXT: stablehlo.while(%[[I:[^ ]*]] = %{{.*}}, %[[M:[^ ]*]] = %{{.*}}, %[[J:[^ ]*]] = %{{.*}}, %[[P:[^ ]*]] = %{{.*}}, %[[T:[^ ]*]] = %{{.*}}, %[[X:[^ ]*]] = %{{.*}})
// CHECK: %[[I1:.*]] = stablehlo.add %[[I]], %{{.*}} : tensor<i32>
// CHECK: %[[LE:.*]] = stablehlo.compare LE
// CHECK: %[[SH:.*]] = stablehlo.shift_right_logical
// CHECK-NEXT: %[[B0:.*]]:2 = stablehlo.optimization_barrier %[[ZI]], %[[J]] : tensor<i32>, tensor<i32>
// CHECK-NEXT: %[[J1:.*]] = stablehlo.add %[[I1]], %[[B0]]#0 : tensor<i32>
// CHECK-NEXT: %[[B1:.*]]:2 = stablehlo.optimization_barrier %[[ZP]], %[[P]] : tensor<i1>, tensor<i1>
// CHECK-NEXT: %[[P1:.*]] = stablehlo.xor %[[LE]], %[[B1]]#0 : tensor<i1>
// CHECK-NEXT: %[[B2:.*]]:2 = stablehlo.optimization_barrier %[[ZL]], %[[T]] : tensor<i64>, tensor<8xi64>
// CHECK-NEXT: %[[BB:.*]] = stablehlo.broadcast_in_dim %[[B2]]#0
// CHECK-NEXT: %[[T1:.*]] = stablehlo.add %[[SH]], %[[BB]] : tensor<8xi64>
// CHECK-NEXT: %[[B3:.*]]:2 = stablehlo.optimization_barrier %[[ZI]], %[[X]] : tensor<i32>, tensor<i32>
// CHECK-NEXT: %[[X1:.*]] = stablehlo.add %[[I]], %[[B3]]#0 : tensor<i32>
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
// CHECK: %[[ZB:.*]] = stablehlo.optimization_barrier %{{.*}} : tensor<f32>
// CHECK-NEXT: stablehlo.while(%{{[^ ]*}} = %{{.*}}, %[[M:[^ ]*]] = %{{.*}}, %[[X:[^ ]*]] = %{{.*}})
// CHECK: %[[U:.*]] = stablehlo.dynamic_update_slice
// CHECK-NEXT: %[[B:.*]]:2 = stablehlo.optimization_barrier %[[ZB]], %[[X]] : tensor<f32>, tensor<2xf32>
// CHECK-NEXT: %[[BB:.*]] = stablehlo.broadcast_in_dim %[[B]]#0
// CHECK-NEXT: %[[Y:.*]] = stablehlo.add %[[U]], %[[BB]] : tensor<2xf32>
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
