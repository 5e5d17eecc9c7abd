// RUN: %hlo-opt %s -p while-loop-simplifier --split-input-file | filecheck %s

// Check that a loop whose condition fails on entry is replaced by its operands.
// CHECK-LABEL: func.func @trip_count_0
// CHECK-NOT: stablehlo.while
// CHECK: return %arg0, %c
func.func @trip_count_0(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<i32>) {
  %c10 = stablehlo.constant dense<10> : tensor<i32>
  %r:2 = stablehlo.while(%v = %x, %i = %c10) : tensor<4xf32>, tensor<i32>
  cond {
    %n = stablehlo.constant dense<10> : tensor<i32>
    %p = stablehlo.compare LT, %i, %n, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %p : tensor<i1>
  } do {
    %one = stablehlo.constant dense<1> : tensor<i32>
    %i1 = stablehlo.add %i, %one : tensor<i32>
    %v1 = stablehlo.multiply %v, %v : tensor<4xf32>
    stablehlo.return %v1, %i1 : tensor<4xf32>, tensor<i32>
  }
  return %r#0, %r#1 : tensor<4xf32>, tensor<i32>
}

// -----

// Check that a constant false condition gives trip count 0 without an induction variable,
// even with a side-effecting body: the body never runs.
// CHECK-LABEL: func.func @constant_false_condition
// CHECK-NOT: stablehlo.while
// CHECK-NOT: stablehlo.custom_call
// CHECK: return %arg0
func.func @constant_false_condition(%x: tensor<4xf32>) -> tensor<4xf32> {
  %r = stablehlo.while(%v = %x) : tensor<4xf32>
  cond {
    %f = stablehlo.constant dense<false> : tensor<i1>
    stablehlo.return %f : tensor<i1>
  } do {
    %v1 = stablehlo.custom_call @effect(%v) {has_side_effect = true} : (tensor<4xf32>) -> tensor<4xf32>
    stablehlo.return %v1 : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}

// -----

// Check that a loop running once becomes its body, with the counter's exit value.
// CHECK-LABEL: func.func @trip_count_1
// CHECK-NOT: stablehlo.while
// CHECK: %[[V:.*]] = stablehlo.multiply %arg0, %arg0
// CHECK: %[[I:.*]] = stablehlo.constant dense<8> : tensor<i32>
// CHECK: return %[[V]], %[[I]]
func.func @trip_count_1(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<i32>) {
  %c5 = stablehlo.constant dense<5> : tensor<i32>
  %r:2 = stablehlo.while(%v = %x, %i = %c5) : tensor<4xf32>, tensor<i32>
  cond {
    %n = stablehlo.constant dense<7> : tensor<i32>
    %p = stablehlo.compare LE, %i, %n, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %p : tensor<i1>
  } do {
    %three = stablehlo.constant dense<3> : tensor<i32>
    %i1 = stablehlo.add %three, %i : tensor<i32>
    %v1 = stablehlo.multiply %v, %v : tensor<4xf32>
    stablehlo.return %v1, %i1 : tensor<4xf32>, tensor<i32>
  }
  return %r#0, %r#1 : tensor<4xf32>, tensor<i32>
}

// -----

// Check that a side-effecting body that runs once stays, inlined.
// CHECK-LABEL: func.func @trip_count_1_side_effect
// CHECK-NOT: stablehlo.while
// CHECK: %[[V:.*]] = stablehlo.custom_call @effect(%arg0) {has_side_effect = true}
// CHECK: return %[[V]]
func.func @trip_count_1_side_effect(%x: tensor<4xf32>) -> tensor<4xf32> {
  %c0 = stablehlo.constant dense<0> : tensor<i32>
  %r:2 = stablehlo.while(%v = %x, %i = %c0) : tensor<4xf32>, tensor<i32>
  cond {
    %n = stablehlo.constant dense<0> : tensor<i32>
    %p = stablehlo.compare EQ, %i, %n, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %p : tensor<i1>
  } do {
    %one = stablehlo.constant dense<1> : tensor<i32>
    %i1 = stablehlo.add %i, %one : tensor<i32>
    %v1 = stablehlo.custom_call @effect(%v) {has_side_effect = true} : (tensor<4xf32>) -> tensor<4xf32>
    stablehlo.return %v1, %i1 : tensor<4xf32>, tensor<i32>
  }
  return %r#0 : tensor<4xf32>
}

// -----

// Check that loop-carried values nothing reads are dropped, also when they read each other;
// the loop keeps its attributes (here the unroller's mark).
// CHECK-LABEL: func.func @dead_carried_values
// CHECK: %[[R:.*]]:2 = stablehlo.while(%[[I:.*]] = %c, %[[V:.*]] = %arg0) : tensor<i32>, tensor<4xf32> attributes {hlo_mlir.unroll_factor = 2 : i64}
// CHECK: stablehlo.compare LT, %[[I]]
// CHECK: } do {
// CHECK-NOT: stablehlo.subtract
// CHECK-NOT: stablehlo.divide
// CHECK: %[[V1:.*]] = stablehlo.multiply %[[V]], %[[V]]
// CHECK: stablehlo.return %{{.*}}, %[[V1]] : tensor<i32>, tensor<4xf32>
// CHECK: return %[[R]]#1
func.func @dead_carried_values(%x: tensor<4xf32>, %n: tensor<i32>) -> tensor<4xf32> {
  %c0 = stablehlo.constant dense<0> : tensor<i32>
  %r:4 = stablehlo.while(%i = %c0, %v = %x, %a = %x, %b = %x) : tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
      attributes {hlo_mlir.unroll_factor = 2 : i64}
  cond {
    %p = stablehlo.compare LT, %i, %n, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %p : tensor<i1>
  } do {
    %one = stablehlo.constant dense<1> : tensor<i32>
    %i1 = stablehlo.add %i, %one : tensor<i32>
    %v1 = stablehlo.multiply %v, %v : tensor<4xf32>
    %a1 = stablehlo.subtract %b, %v : tensor<4xf32>
    %b1 = stablehlo.divide %a, %v1 : tensor<4xf32>
    stablehlo.return %i1, %v1, %a1, %b1 : tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
  }
  return %r#1 : tensor<4xf32>
}

// -----

// Check that what a side-effecting body op reads stays live, and the op stays.
// CHECK-LABEL: func.func @side_effect_keeps_values
// CHECK: stablehlo.while(%{{.*}} = %c, %{{.*}} = %arg0, %{{.*}} = %arg0) : tensor<i32>, tensor<4xf32>, tensor<4xf32>
// CHECK: stablehlo.custom_call @effect
func.func @side_effect_keeps_values(%x: tensor<4xf32>, %n: tensor<i32>) -> tensor<4xf32> {
  %c0 = stablehlo.constant dense<0> : tensor<i32>
  %r:3 = stablehlo.while(%i = %c0, %v = %x, %a = %x) : tensor<i32>, tensor<4xf32>, tensor<4xf32>
  cond {
    %p = stablehlo.compare LT, %i, %n, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %p : tensor<i1>
  } do {
    %one = stablehlo.constant dense<1> : tensor<i32>
    %i1 = stablehlo.add %i, %one : tensor<i32>
    %v1 = stablehlo.multiply %v, %v : tensor<4xf32>
    %a1 = stablehlo.add %a, %v : tensor<4xf32>
    stablehlo.custom_call @effect(%a1) {has_side_effect = true} : (tensor<4xf32>) -> ()
    stablehlo.return %i1, %v1, %a1 : tensor<i32>, tensor<4xf32>, tensor<4xf32>
  }
  return %r#1 : tensor<4xf32>
}

// -----

// Check that a loop with an unknown trip count, or a side-effecting condition, stays whole.
// CHECK-LABEL: func.func @unknown_trip_count
// CHECK: stablehlo.while(%{{.*}} = %arg1, %{{.*}} = %arg0)
// CHECK-LABEL: func.func @condition_side_effect
// CHECK: stablehlo.while
// CHECK: stablehlo.custom_call @effect
func.func @unknown_trip_count(%x: tensor<4xf32>, %start: tensor<i32>) -> tensor<4xf32> {
  %r:2 = stablehlo.while(%i = %start, %v = %x) : tensor<i32>, tensor<4xf32>
  cond {
    %n = stablehlo.constant dense<10> : tensor<i32>
    %p = stablehlo.compare LT, %i, %n, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %p : tensor<i1>
  } do {
    %one = stablehlo.constant dense<1> : tensor<i32>
    %i1 = stablehlo.add %i, %one : tensor<i32>
    %v1 = stablehlo.multiply %v, %v : tensor<4xf32>
    stablehlo.return %i1, %v1 : tensor<i32>, tensor<4xf32>
  }
  return %r#1 : tensor<4xf32>
}
func.func @condition_side_effect(%x: tensor<4xf32>) -> tensor<4xf32> {
  %c10 = stablehlo.constant dense<10> : tensor<i32>
  %r:2 = stablehlo.while(%i = %c10, %v = %x) : tensor<i32>, tensor<4xf32>
  cond {
    %n = stablehlo.constant dense<10> : tensor<i32>
    stablehlo.custom_call @effect(%i) {has_side_effect = true} : (tensor<i32>) -> ()
    %p = stablehlo.compare LT, %i, %n, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %p : tensor<i1>
  } do {
    %one = stablehlo.constant dense<1> : tensor<i32>
    %i1 = stablehlo.add %i, %one : tensor<i32>
    stablehlo.return %i1, %v : tensor<i32>, tensor<4xf32>
  }
  return %r#1 : tensor<4xf32>
}
