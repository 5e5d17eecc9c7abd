// RUN: %hlo-opt %s -p sort-simplifier --split-input-file | filecheck %s

// Check that a value operand whose result is unused and that the comparator does not read
// is dropped (XLA RemoveUnusedSortOperandArrayResult).
// CHECK-LABEL: func.func @unused_value
// CHECK: %[[S:.*]] = "stablehlo.sort"(%arg0) <{dimension = 1 : i64, is_stable = false}>
// CHECK: ^bb0(%[[A:.*]]: tensor<f32>, %[[B:.*]]: tensor<f32>):
// CHECK: stablehlo.compare LT, %[[A]], %[[B]]
// CHECK: }) : (tensor<4x8xf32>) -> tensor<4x8xf32>
// CHECK: return %[[S]]
func.func @unused_value(%k: tensor<4x8xf32>, %v: tensor<4x8xi32>) -> tensor<4x8xf32> {
  %r:2 = "stablehlo.sort"(%k, %v) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>, %c: tensor<i32>, %d: tensor<i32>):
    %p = stablehlo.compare LT, %a, %b : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %p : tensor<i1>
  }) {dimension = 1 : i64} : (tensor<4x8xf32>, tensor<4x8xi32>) -> (tensor<4x8xf32>, tensor<4x8xi32>)
  return %r#0 : tensor<4x8xf32>
}

// -----

// Check that the middle of three operands goes and the others keep their order, the
// comparator reading its new arguments (XLA RemoveUnusedSortOperandTuple); is_stable stays.
// CHECK-LABEL: func.func @unused_middle
// CHECK: %[[S:.*]]:2 = "stablehlo.sort"(%arg0, %arg2) <{dimension = 1 : i64, is_stable = true}>
// CHECK: ^bb0(%[[A:.*]]: tensor<f32>, %[[B:.*]]: tensor<f32>, %{{.*}}: tensor<ui32>, %{{.*}}: tensor<ui32>):
// CHECK: stablehlo.compare LT, %[[A]], %[[B]]
// CHECK: return %[[S]]#0, %[[S]]#1
func.func @unused_middle(%k: tensor<4x8xf32>, %v: tensor<4x8xi32>, %w: tensor<4x8xui32>) -> (tensor<4x8xf32>, tensor<4x8xui32>) {
  %r:3 = "stablehlo.sort"(%k, %v, %w) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>, %c: tensor<i32>, %d: tensor<i32>, %e: tensor<ui32>, %f: tensor<ui32>):
    %p = stablehlo.compare LT, %a, %b : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %p : tensor<i1>
  }) {dimension = 1 : i64, is_stable = true} : (tensor<4x8xf32>, tensor<4x8xi32>, tensor<4x8xui32>) -> (tensor<4x8xf32>, tensor<4x8xi32>, tensor<4x8xui32>)
  return %r#0, %r#2 : tensor<4x8xf32>, tensor<4x8xui32>
}

// -----

// Check that an unused first operand goes when the comparator reads only the second
// (XLA RemoveUnusedFirstOperand).
// CHECK-LABEL: func.func @unused_first
// CHECK: %[[S:.*]] = "stablehlo.sort"(%arg1)
// CHECK: ^bb0(%[[A:.*]]: tensor<i32>, %[[B:.*]]: tensor<i32>):
// CHECK: stablehlo.compare GT, %[[A]], %[[B]]
// CHECK: return %[[S]]
func.func @unused_first(%k: tensor<8xf32>, %v: tensor<8xi32>) -> tensor<8xi32> {
  %r:2 = "stablehlo.sort"(%k, %v) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>, %c: tensor<i32>, %d: tensor<i32>):
    %p = stablehlo.compare GT, %c, %d : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %p : tensor<i1>
  }) {dimension = 0 : i64} : (tensor<8xf32>, tensor<8xi32>) -> (tensor<8xf32>, tensor<8xi32>)
  return %r#1 : tensor<8xi32>
}

// -----

// Check that an unused key the comparator reads stays (XLA DontRemoveUnusedSortKey), as
// does an operand read only by the rhs argument of a nested op.
// CHECK-LABEL: func.func @read_by_comparator
// CHECK: "stablehlo.sort"(%arg0, %arg1)
// CHECK: "stablehlo.sort"(%arg0, %arg1)
func.func @read_by_comparator(%k: tensor<8xf32>, %v: tensor<8xi32>) -> (tensor<8xi32>, tensor<8xf32>) {
  %r:2 = "stablehlo.sort"(%k, %v) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>, %c: tensor<i32>, %d: tensor<i32>):
    %p = stablehlo.compare LT, %a, %b : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %p : tensor<i1>
  }) {dimension = 0 : i64} : (tensor<8xf32>, tensor<8xi32>) -> (tensor<8xf32>, tensor<8xi32>)
  %s:2 = "stablehlo.sort"(%k, %v) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>, %c: tensor<i32>, %d: tensor<i32>):
    %p = stablehlo.compare LT, %a, %b : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %z = stablehlo.constant dense<0> : tensor<i32>
    %q = stablehlo.compare GT, %d, %z : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %o = stablehlo.or %p, %q : tensor<i1>
    stablehlo.return %o : tensor<i1>
  }) {dimension = 0 : i64} : (tensor<8xf32>, tensor<8xi32>) -> (tensor<8xf32>, tensor<8xi32>)
  return %r#1, %s#0 : tensor<8xi32>, tensor<8xf32>
}

// -----

// Check that a sort of one operand, and one none of whose results is read, are left
// alone (the latter is for dce).
// CHECK-LABEL: func.func @nothing_to_drop
// CHECK: "stablehlo.sort"(%arg0)
// CHECK: "stablehlo.sort"(%arg0, %arg1)
func.func @nothing_to_drop(%k: tensor<8xf32>, %v: tensor<8xi32>) -> tensor<8xf32> {
  %r = "stablehlo.sort"(%k) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %p = stablehlo.compare LT, %a, %b : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %p : tensor<i1>
  }) {dimension = 0 : i64} : (tensor<8xf32>) -> tensor<8xf32>
  %s:2 = "stablehlo.sort"(%k, %v) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>, %c: tensor<i32>, %d: tensor<i32>):
    %t = stablehlo.constant dense<true> : tensor<i1>
    stablehlo.return %t : tensor<i1>
  }) {dimension = 0 : i64} : (tensor<8xf32>, tensor<8xi32>) -> (tensor<8xf32>, tensor<8xi32>)
  return %r : tensor<8xf32>
}
