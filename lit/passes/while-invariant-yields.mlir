// RUN: %hlo-opt %s -p while-invariant-yields --split-input-file | filecheck %s

// Check that a loop-invariant yield (clamp to one bound; a value built from a carried
// value passed through) becomes itself plus a zero tied to its carried value by a barrier.
// CHECK-LABEL: func.func @invariant
// CHECK: %[[V:.*]] = stablehlo.clamp
// CHECK: %[[W:.*]] = stablehlo.broadcast_in_dim
// CHECK: %[[Z0:.*]] = stablehlo.constant dense<0> : tensor<ui32>
// CHECK-NEXT: %[[B:.*]]:2 = stablehlo.optimization_barrier %[[Z0]], %{{.*}} : tensor<ui32>, tensor<3xui32>
// CHECK-NEXT: %[[BB:.*]] = stablehlo.broadcast_in_dim %[[B]]#0, dims = []
// CHECK-NEXT: %[[Y0:.*]] = stablehlo.add %[[V]], %[[BB]] : tensor<3xui32>
// CHECK: %[[C:.*]]:2 = stablehlo.optimization_barrier %{{.*}}, %{{.*}} : tensor<i32>, tensor<3xi32>
// CHECK-NEXT: %[[CB:.*]] = stablehlo.broadcast_in_dim %[[C]]#0, dims = []
// CHECK-NEXT: %[[Y1:.*]] = stablehlo.add %[[W]], %[[CB]] : tensor<3xi32>
// CHECK-NEXT: stablehlo.return %{{.*}}, %{{.*}}, %[[Y0]], %[[Y1]]
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

// Check that yields that change per iteration, pass-through values and clamps to two
// different bounds are left alone.
// CHECK-LABEL: func.func @varying
// CHECK-NOT: stablehlo.optimization_barrier
func.func @varying(%a: tensor<3xui32>, %n: tensor<i32>) -> tensor<3xui32> {
  %c = stablehlo.constant dense<0> : tensor<i32>
  %r:4 = stablehlo.while(%i = %c, %m = %n, %x = %a, %z = %a) : tensor<i32>, tensor<i32>, tensor<3xui32>, tensor<3xui32>
  cond {
    %p = stablehlo.compare LT, %i, %m, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %p : tensor<i1>
  } do {
    %c4 = stablehlo.constant dense<4> : tensor<ui32>
    %c5 = stablehlo.constant dense<5> : tensor<ui32>
    %v = stablehlo.clamp %c4, %x, %c5 : (tensor<ui32>, tensor<3xui32>, tensor<ui32>) -> tensor<3xui32>
    %w = stablehlo.add %z, %x : tensor<3xui32>
    %one = stablehlo.constant dense<1> : tensor<i32>
    %i1 = stablehlo.add %i, %one : tensor<i32>
    stablehlo.return %i1, %m, %v, %w : tensor<i32>, tensor<i32>, tensor<3xui32>, tensor<3xui32>
  }
  return %r#3 : tensor<3xui32>
}
