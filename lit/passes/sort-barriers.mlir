// RUN: %hlo-opt %s -p sort-barriers --split-input-file | filecheck %s

// Check that an unused result whose operand the comparator reads is tied to the used one
// by an optimization_barrier, that the uses read the barrier, and that the iota operand
// is read through a barrier of its own.
// CHECK-LABEL: func.func @dead_position
// CHECK: %[[I:.*]] = stablehlo.iota dim = 0 : tensor<5xi32>
// CHECK: %[[P:.*]] = stablehlo.optimization_barrier %[[I]] : tensor<5xi32>
// CHECK: %[[S:.*]]:2 = "stablehlo.sort"(%arg0, %[[P]])
// CHECK: %[[B:.*]]:2 = stablehlo.optimization_barrier %[[S]]#0, %[[S]]#1 : tensor<5xf32>, tensor<5xi32>
// CHECK: return %[[B]]#0
func.func @dead_position(%x: tensor<5xf32>) -> tensor<5xf32> {
  %i = stablehlo.iota dim = 0 : tensor<5xi32>
  %0:2 = "stablehlo.sort"(%x, %i) <{dimension = 0 : i64, is_stable = false}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>, %p: tensor<i32>, %q: tensor<i32>):
    %lt = stablehlo.compare LT, %a, %b, TOTALORDER : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %gt = stablehlo.compare LT, %b, %a, TOTALORDER : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %ng = stablehlo.not %gt : tensor<i1>
    %pos = stablehlo.compare LT, %p, %q, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %tie = stablehlo.and %ng, %pos : tensor<i1>
    %r = stablehlo.or %lt, %tie : tensor<i1>
    stablehlo.return %r : tensor<i1>
  }) : (tensor<5xf32>, tensor<5xi32>) -> (tensor<5xf32>, tensor<5xi32>)
  return %0#0 : tensor<5xf32>
}

// -----

// Check that two sorts of one iota read it through a barrier each, and that their live
// results get no barrier.
// CHECK-LABEL: func.func @shared_iota
// CHECK: %[[I:.*]] = stablehlo.iota dim = 0 : tensor<4xi32>
// CHECK: %[[P:.*]] = stablehlo.optimization_barrier %[[I]] : tensor<4xi32>
// CHECK: %[[S:.*]]:2 = "stablehlo.sort"(%arg0, %[[P]])
// CHECK: %[[Q:.*]] = stablehlo.optimization_barrier %[[I]] : tensor<4xi32>
// CHECK: %[[T:.*]]:2 = "stablehlo.sort"(%arg0, %[[Q]])
// CHECK-NOT: stablehlo.optimization_barrier
// CHECK: return %[[S]]#0, %[[S]]#1, %[[T]]#0, %[[T]]#1
func.func @shared_iota(%k: tensor<4xi32>) -> (tensor<4xi32>, tensor<4xi32>, tensor<4xi32>, tensor<4xi32>) {
  %i = stablehlo.iota dim = 0 : tensor<4xi32>
  %s:2 = "stablehlo.sort"(%k, %i) <{dimension = 0 : i64, is_stable = false}> ({
  ^bb0(%a: tensor<i32>, %b: tensor<i32>, %c: tensor<i32>, %d: tensor<i32>):
    %r = stablehlo.compare LT, %a, %b, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %r : tensor<i1>
  }) : (tensor<4xi32>, tensor<4xi32>) -> (tensor<4xi32>, tensor<4xi32>)
  %t:2 = "stablehlo.sort"(%k, %i) <{dimension = 0 : i64, is_stable = false}> ({
  ^bb0(%a: tensor<i32>, %b: tensor<i32>, %c: tensor<i32>, %d: tensor<i32>):
    %r = stablehlo.compare GT, %a, %b, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %r : tensor<i1>
  }) : (tensor<4xi32>, tensor<4xi32>) -> (tensor<4xi32>, tensor<4xi32>)
  return %s#0, %s#1, %t#0, %t#1 : tensor<4xi32>, tensor<4xi32>, tensor<4xi32>, tensor<4xi32>
}

// -----

// Check that sorts are left alone when every result is used, when the unused result's
// operand is only carried (the comparator does not read it), and when no result is used.
// CHECK-LABEL: func.func @nothing_to_do
// CHECK-NOT: stablehlo.optimization_barrier
func.func @nothing_to_do(%x: tensor<5xf32>, %y: tensor<5xf32>) -> (tensor<5xf32>, tensor<5xf32>, tensor<5xf32>) {
  %0:2 = "stablehlo.sort"(%x, %y) <{dimension = 0 : i64, is_stable = false}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>, %p: tensor<f32>, %q: tensor<f32>):
    %r = stablehlo.compare LT, %p, %q, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %r : tensor<i1>
  }) : (tensor<5xf32>, tensor<5xf32>) -> (tensor<5xf32>, tensor<5xf32>)
  %1:2 = "stablehlo.sort"(%x, %y) <{dimension = 0 : i64, is_stable = false}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>, %p: tensor<f32>, %q: tensor<f32>):
    %r = stablehlo.compare LT, %a, %b, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %r : tensor<i1>
  }) : (tensor<5xf32>, tensor<5xf32>) -> (tensor<5xf32>, tensor<5xf32>)
  %2:2 = "stablehlo.sort"(%x, %y) <{dimension = 0 : i64, is_stable = false}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>, %p: tensor<f32>, %q: tensor<f32>):
    %r = stablehlo.compare LT, %p, %q, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %r : tensor<i1>
  }) : (tensor<5xf32>, tensor<5xf32>) -> (tensor<5xf32>, tensor<5xf32>)
  return %0#0, %0#1, %1#0 : tensor<5xf32>, tensor<5xf32>, tensor<5xf32>
}

// -----

// Check that a value given for two operands is read through a barrier by its repeat (the
// first stays), and that an operand given once gets none.
// CHECK-LABEL: func.func @repeated_operand
// CHECK: %[[Q:.*]] = stablehlo.optimization_barrier %arg1 : tensor<10xi32>
// CHECK-NOT: stablehlo.optimization_barrier
// CHECK: %[[S:.*]]:3 = "stablehlo.sort"(%arg0, %arg1, %[[Q]])
// CHECK-NOT: stablehlo.optimization_barrier
// CHECK: return %[[S]]#0, %[[S]]#1, %[[S]]#2
func.func @repeated_operand(%k: tensor<10xi32>, %p: tensor<10xi32>) -> (tensor<10xi32>, tensor<10xi32>, tensor<10xi32>) {
  %s:3 = "stablehlo.sort"(%k, %p, %p) <{dimension = 0 : i64, is_stable = false}> ({
  ^bb0(%a: tensor<i32>, %b: tensor<i32>, %c: tensor<i32>, %d: tensor<i32>, %e: tensor<i32>, %f: tensor<i32>):
    %lt = stablehlo.compare LT, %a, %b, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %gt = stablehlo.compare LT, %b, %a, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %ng = stablehlo.not %gt : tensor<i1>
    %pos = stablehlo.compare LT, %e, %f, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %tie = stablehlo.and %ng, %pos : tensor<i1>
    %r = stablehlo.or %lt, %tie : tensor<i1>
    stablehlo.return %r : tensor<i1>
  }) : (tensor<10xi32>, tensor<10xi32>, tensor<10xi32>) -> (tensor<10xi32>, tensor<10xi32>, tensor<10xi32>)
  return %s#0, %s#1, %s#2 : tensor<10xi32>, tensor<10xi32>, tensor<10xi32>
}

// -----

// Check that an iota given twice gets one barrier per operand (shared-iota), none more.
// CHECK-LABEL: func.func @repeated_iota
// CHECK: %[[I:.*]] = stablehlo.iota dim = 0 : tensor<4xi32>
// CHECK: %[[P:.*]] = stablehlo.optimization_barrier %[[I]] : tensor<4xi32>
// CHECK: %[[Q:.*]] = stablehlo.optimization_barrier %[[I]] : tensor<4xi32>
// CHECK-NOT: stablehlo.optimization_barrier
// CHECK: "stablehlo.sort"(%arg0, %[[P]], %[[Q]])
func.func @repeated_iota(%k: tensor<4xi32>) -> (tensor<4xi32>, tensor<4xi32>, tensor<4xi32>) {
  %i = stablehlo.iota dim = 0 : tensor<4xi32>
  %s:3 = "stablehlo.sort"(%k, %i, %i) <{dimension = 0 : i64, is_stable = false}> ({
  ^bb0(%a: tensor<i32>, %b: tensor<i32>, %c: tensor<i32>, %d: tensor<i32>, %e: tensor<i32>, %f: tensor<i32>):
    %r = stablehlo.compare LT, %a, %b, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %r : tensor<i1>
  }) : (tensor<4xi32>, tensor<4xi32>, tensor<4xi32>) -> (tensor<4xi32>, tensor<4xi32>, tensor<4xi32>)
  return %s#0, %s#1, %s#2 : tensor<4xi32>, tensor<4xi32>, tensor<4xi32>
}
