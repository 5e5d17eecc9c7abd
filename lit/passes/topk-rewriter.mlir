// RUN: %hlo-opt %s -p topk-rewriter --split-input-file | filecheck %s

// Check that a stable total-order descending sort of (values, iota) whose results are only
// sliced to their first k becomes chlo.top_k, and the sort and slices vanish.
// CHECK-LABEL: func.func @values_and_indices
// CHECK-NOT: stablehlo.sort
// CHECK: %[[V:[a-z0-9_]+]], %[[I:[a-z0-9_]+]] = chlo.top_k(%arg0, k = 2) : tensor<3x8xf32> -> (tensor<3x2xf32>, tensor<3x2xi32>)
// CHECK-NOT: stablehlo.slice
// CHECK: return %[[V]], %[[I]]
func.func @values_and_indices(%x: tensor<3x8xf32>) -> (tensor<3x2xf32>, tensor<3x2xi32>) {
  %iota = stablehlo.iota dim = 1 : tensor<3x8xi32>
  %s:2 = "stablehlo.sort"(%x, %iota) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>, %i: tensor<i32>, %j: tensor<i32>):
    %gt = stablehlo.compare GT, %a, %b, TOTALORDER : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %gt : tensor<i1>
  }) {dimension = 1 : i64, is_stable = true} : (tensor<3x8xf32>, tensor<3x8xi32>) -> (tensor<3x8xf32>, tensor<3x8xi32>)
  %v = stablehlo.slice %s#0 [0:3, 0:2] : (tensor<3x8xf32>) -> tensor<3x2xf32>
  %i = stablehlo.slice %s#1 [0:3, 0:2] : (tensor<3x8xi32>) -> tensor<3x2xi32>
  return %v, %i : tensor<3x2xf32>, tensor<3x2xi32>
}

// -----

// Check that a sort of the values alone (here b < a, unstable: equal keys are equal bits)
// of a signed integer type becomes chlo.top_k whose indices go unused.
// CHECK-LABEL: func.func @values_only
// CHECK: %[[V:[a-z0-9_]+]], %{{[a-z0-9_]+}} = chlo.top_k(%arg0, k = 3) : tensor<5xi32> -> (tensor<3xi32>, tensor<3xi32>)
// CHECK: return %[[V]], %[[V]]
func.func @values_only(%x: tensor<5xi32>) -> (tensor<3xi32>, tensor<3xi32>) {
  %s = "stablehlo.sort"(%x) ({
  ^bb0(%a: tensor<i32>, %b: tensor<i32>):
    %lt = stablehlo.compare LT, %b, %a, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %lt : tensor<i1>
  }) {dimension = 0 : i64, is_stable = false} : (tensor<5xi32>) -> tensor<5xi32>
  %v = stablehlo.slice %s [0:3] : (tensor<5xi32>) -> tensor<3xi32>
  %w = stablehlo.slice %s [0:3] : (tensor<5xi32>) -> tensor<3xi32>
  return %v, %w : tensor<3xi32>, tensor<3xi32>
}

// -----

// Check that a broadcast 1-D iota counts as the position operand.
// CHECK-LABEL: func.func @broadcast_iota
// CHECK: chlo.top_k(%arg0, k = 1)
func.func @broadcast_iota(%x: tensor<2x4xui8>) -> tensor<2x1xi32> {
  %iota = stablehlo.iota dim = 0 : tensor<4xi32>
  %pos = stablehlo.broadcast_in_dim %iota, dims = [1] : (tensor<4xi32>) -> tensor<2x4xi32>
  %s:2 = "stablehlo.sort"(%x, %pos) ({
  ^bb0(%a: tensor<ui8>, %b: tensor<ui8>, %i: tensor<i32>, %j: tensor<i32>):
    %gt = stablehlo.compare GT, %a, %b : (tensor<ui8>, tensor<ui8>) -> tensor<i1>
    stablehlo.return %gt : tensor<i1>
  }) {dimension = 1 : i64, is_stable = true} : (tensor<2x4xui8>, tensor<2x4xi32>) -> (tensor<2x4xui8>, tensor<2x4xi32>)
  %i = stablehlo.slice %s#1 [0:2, 0:1] : (tensor<2x4xi32>) -> tensor<2x1xi32>
  return %i : tensor<2x1xi32>
}

// -----

// Check that IEEE > on floats is left alone: NaNs have no place in it and -0 ties +0,
// where chlo.top_k (XLA's TopK) uses the total order.
// CHECK-LABEL: func.func @ieee_compare
// CHECK-NOT: chlo.top_k
// CHECK: stablehlo.sort
func.func @ieee_compare(%x: tensor<8xf32>) -> tensor<2xf32> {
  %s = "stablehlo.sort"(%x) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %gt = stablehlo.compare GT, %a, %b, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %gt : tensor<i1>
  }) {dimension = 0 : i64} : (tensor<8xf32>) -> tensor<8xf32>
  %v = stablehlo.slice %s [0:2] : (tensor<8xf32>) -> tensor<2xf32>
  return %v : tensor<2xf32>
}

// -----

// Check that an unstable sort whose indices are read is left alone (ties may come out in
// any order; chlo.top_k puts the lowest index first).
// CHECK-LABEL: func.func @unstable_indices
// CHECK-NOT: chlo.top_k
func.func @unstable_indices(%x: tensor<8xf32>) -> tensor<2xi32> {
  %iota = stablehlo.iota dim = 0 : tensor<8xi32>
  %s:2 = "stablehlo.sort"(%x, %iota) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>, %i: tensor<i32>, %j: tensor<i32>):
    %gt = stablehlo.compare GT, %a, %b, TOTALORDER : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %gt : tensor<i1>
  }) {dimension = 0 : i64, is_stable = false} : (tensor<8xf32>, tensor<8xi32>) -> (tensor<8xf32>, tensor<8xi32>)
  %i = stablehlo.slice %s#1 [0:2] : (tensor<8xi32>) -> tensor<2xi32>
  return %i : tensor<2xi32>
}

// -----

// Check that an ascending sort, a sort along a dimension other than the last, a slice not
// from 0, a whole-result user and slices of different k are all left alone.
// CHECK-LABEL: func.func @not_top_k
// CHECK-NOT: chlo.top_k
func.func @not_top_k(%x: tensor<4x6xf32>) -> (tensor<4x2xf32>, tensor<2x6xf32>, tensor<4x2xf32>, tensor<4x6xf32>, tensor<4x1xf32>, tensor<4x2xf32>) {
  %up = "stablehlo.sort"(%x) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %lt = stablehlo.compare LT, %a, %b, TOTALORDER : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %lt : tensor<i1>
  }) {dimension = 1 : i64} : (tensor<4x6xf32>) -> tensor<4x6xf32>
  %r0 = stablehlo.slice %up [0:4, 0:2] : (tensor<4x6xf32>) -> tensor<4x2xf32>
  %d0 = "stablehlo.sort"(%x) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %gt = stablehlo.compare GT, %a, %b, TOTALORDER : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %gt : tensor<i1>
  }) {dimension = 0 : i64} : (tensor<4x6xf32>) -> tensor<4x6xf32>
  %r1 = stablehlo.slice %d0 [0:2, 0:6] : (tensor<4x6xf32>) -> tensor<2x6xf32>
  %s = "stablehlo.sort"(%x) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %gt = stablehlo.compare GT, %a, %b, TOTALORDER : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %gt : tensor<i1>
  }) {dimension = 1 : i64} : (tensor<4x6xf32>) -> tensor<4x6xf32>
  %r2 = stablehlo.slice %s [0:4, 1:3] : (tensor<4x6xf32>) -> tensor<4x2xf32>
  %t = "stablehlo.sort"(%x) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %gt = stablehlo.compare GT, %a, %b, TOTALORDER : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %gt : tensor<i1>
  }) {dimension = 1 : i64} : (tensor<4x6xf32>) -> tensor<4x6xf32>
  %u = "stablehlo.sort"(%x) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %gt = stablehlo.compare GT, %a, %b, TOTALORDER : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %gt : tensor<i1>
  }) {dimension = 1 : i64} : (tensor<4x6xf32>) -> tensor<4x6xf32>
  %r4 = stablehlo.slice %u [0:4, 0:1] : (tensor<4x6xf32>) -> tensor<4x1xf32>
  %r5 = stablehlo.slice %u [0:4, 0:2] : (tensor<4x6xf32>) -> tensor<4x2xf32>
  return %r0, %r1, %r2, %t, %r4, %r5 : tensor<4x2xf32>, tensor<2x6xf32>, tensor<4x2xf32>, tensor<4x6xf32>, tensor<4x1xf32>, tensor<4x2xf32>
}
