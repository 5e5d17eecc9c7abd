// RUN: %hlo-opt %s -p sort-splat-operands --split-input-file | filecheck %s

// Check that a sort operand broadcast from a scalar goes through an optimization barrier.
// CHECK-LABEL: func.func @scalar_broadcast
// CHECK: %[[K:.*]] = stablehlo.broadcast_in_dim %arg0, dims = []
// CHECK-NEXT: %[[B:.*]] = stablehlo.optimization_barrier %[[K]] : tensor<1x3xi32>
// CHECK-NEXT: "stablehlo.sort"(%[[B]], %arg1)
func.func @scalar_broadcast(%s: tensor<i32>, %i: tensor<1x3xi32>) -> tensor<1x3xi32> {
  %k = stablehlo.broadcast_in_dim %s, dims = [] : (tensor<i32>) -> tensor<1x3xi32>
  %r:2 = "stablehlo.sort"(%k, %i) <{dimension = 1 : i64, is_stable = false}> ({
  ^bb0(%a: tensor<i32>, %b: tensor<i32>, %c: tensor<i32>, %d: tensor<i32>):
    %x = stablehlo.compare LT, %a, %b, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %x : tensor<i1>
  }) : (tensor<1x3xi32>, tensor<1x3xi32>) -> (tensor<1x3xi32>, tensor<1x3xi32>)
  return %r#1 : tensor<1x3xi32>
}

// -----

// Check that broadcasts of higher rank and splat constants are left alone.
// CHECK-LABEL: func.func @left_alone
// CHECK-NOT: stablehlo.optimization_barrier
func.func @left_alone(%v: tensor<3xi32>) -> tensor<2x3xi32> {
  %k = stablehlo.broadcast_in_dim %v, dims = [1] : (tensor<3xi32>) -> tensor<2x3xi32>
  %c = stablehlo.constant dense<4> : tensor<2x3xi32>
  %r:2 = "stablehlo.sort"(%k, %c) <{dimension = 1 : i64, is_stable = false}> ({
  ^bb0(%a: tensor<i32>, %b: tensor<i32>, %e: tensor<i32>, %d: tensor<i32>):
    %x = stablehlo.compare LT, %a, %b, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %x : tensor<i1>
  }) : (tensor<2x3xi32>, tensor<2x3xi32>) -> (tensor<2x3xi32>, tensor<2x3xi32>)
  return %r#1 : tensor<2x3xi32>
}

// -----

// Check that a splat constant of the neutral element (0) goes through a barrier: the
// private copy inplace-operand-copy adds to it would fold to a scalar broadcast.
// CHECK-LABEL: func.func @zero_splat
// CHECK: %[[C:.*]] = stablehlo.constant dense<0> : tensor<4xi32>
// CHECK-NEXT: %[[B:.*]] = stablehlo.optimization_barrier %[[C]] : tensor<4xi32>
// CHECK-NEXT: "stablehlo.sort"(%[[B]], %arg0)
func.func @zero_splat(%i: tensor<4xi32>) -> tensor<4xi32> {
  %c = stablehlo.constant dense<0> : tensor<4xi32>
  %r:2 = "stablehlo.sort"(%c, %i) <{dimension = 0 : i64, is_stable = false}> ({
  ^bb0(%a: tensor<i32>, %b: tensor<i32>, %e: tensor<i32>, %d: tensor<i32>):
    %x = stablehlo.compare LT, %a, %b, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %x : tensor<i1>
  }) : (tensor<4xi32>, tensor<4xi32>) -> (tensor<4xi32>, tensor<4xi32>)
  return %r#1 : tensor<4xi32>
}

// -----

// Check that +0.0 is not f32's neutral element (-0.0 is): a +0.0 splat is left alone.
// CHECK-LABEL: func.func @positive_zero_splat
// CHECK-NOT: stablehlo.optimization_barrier
func.func @positive_zero_splat(%i: tensor<4xi32>) -> tensor<4xi32> {
  %c = stablehlo.constant dense<0.0> : tensor<4xf32>
  %r:2 = "stablehlo.sort"(%c, %i) <{dimension = 0 : i64, is_stable = false}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>, %e: tensor<i32>, %d: tensor<i32>):
    %x = stablehlo.compare LT, %a, %b, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %x : tensor<i1>
  }) : (tensor<4xf32>, tensor<4xi32>) -> (tensor<4xf32>, tensor<4xi32>)
  return %r#1 : tensor<4xi32>
}

// -----

// Check that an element-wise op of a splat constant and a scalar broadcast (IREE folds it
// into the broadcast) goes through a barrier, and one reading a parameter does not.
// CHECK-LABEL: func.func @elementwise_of_scalars
// CHECK: %[[A:.*]] = stablehlo.add %{{.*}}, %{{.*}} : tensor<4xi32>
// CHECK-NEXT: %[[B:.*]] = stablehlo.optimization_barrier %[[A]] : tensor<4xi32>
// CHECK-NEXT: "stablehlo.sort"(%[[B]], %arg1)
// CHECK-LABEL: func.func @elementwise_of_a_parameter
// CHECK-NOT: stablehlo.optimization_barrier
func.func @elementwise_of_scalars(%s: tensor<i32>, %i: tensor<4xi32>) -> tensor<4xi32> {
  %c = stablehlo.constant dense<0> : tensor<4xi32>
  %k = stablehlo.broadcast_in_dim %s, dims = [] : (tensor<i32>) -> tensor<4xi32>
  %a = stablehlo.add %c, %k : tensor<4xi32>
  %r:2 = "stablehlo.sort"(%a, %i) <{dimension = 0 : i64, is_stable = false}> ({
  ^bb0(%x: tensor<i32>, %y: tensor<i32>, %e: tensor<i32>, %d: tensor<i32>):
    %l = stablehlo.compare LT, %x, %y, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %l : tensor<i1>
  }) : (tensor<4xi32>, tensor<4xi32>) -> (tensor<4xi32>, tensor<4xi32>)
  return %r#1 : tensor<4xi32>
}

func.func @elementwise_of_a_parameter(%v: tensor<4xi32>, %i: tensor<4xi32>) -> tensor<4xi32> {
  %c = stablehlo.constant dense<3> : tensor<4xi32>
  %a = stablehlo.add %c, %v : tensor<4xi32>
  %r:2 = "stablehlo.sort"(%a, %i) <{dimension = 0 : i64, is_stable = false}> ({
  ^bb0(%x: tensor<i32>, %y: tensor<i32>, %e: tensor<i32>, %d: tensor<i32>):
    %l = stablehlo.compare LT, %x, %y, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %l : tensor<i1>
  }) : (tensor<4xi32>, tensor<4xi32>) -> (tensor<4xi32>, tensor<4xi32>)
  return %r#1 : tensor<4xi32>
}

// -----

// Check that an iota, and a barrier over one, are no scalar broadcasts (left alone).
// CHECK-LABEL: func.func @iota_operands
// CHECK: %[[I:.*]] = stablehlo.iota
// CHECK-NEXT: %[[B:.*]] = stablehlo.optimization_barrier %[[I]]
// CHECK-NEXT: "stablehlo.sort"(%arg0, %[[B]])
func.func @iota_operands(%k: tensor<4xi32>) -> tensor<4xi32> {
  %i = stablehlo.iota dim = 0 : tensor<4xi32>
  %b = stablehlo.optimization_barrier %i : tensor<4xi32>
  %r:2 = "stablehlo.sort"(%k, %b) <{dimension = 0 : i64, is_stable = false}> ({
  ^bb0(%x: tensor<i32>, %y: tensor<i32>, %e: tensor<i32>, %d: tensor<i32>):
    %l = stablehlo.compare LT, %x, %y, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %l : tensor<i1>
  }) : (tensor<4xi32>, tensor<4xi32>) -> (tensor<4xi32>, tensor<4xi32>)
  return %r#1 : tensor<4xi32>
}
