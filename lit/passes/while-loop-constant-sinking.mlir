// RUN: %hlo-opt %s -p while-loop-constant-sinking --split-input-file | filecheck %s
// RUN: %hlo-opt %s -p "while-loop-constant-sinking{sink-broadcast-of-constants=true}" --split-input-file | filecheck %s --check-prefix=BCAST

// Check that a passed-through constant is read as a constant in the body, and that the
// body still returns its block argument at that position (XLA SinkOneConstant).
// CHECK-LABEL: func.func @sink_one_constant
// CHECK: stablehlo.while(%[[A:.*]] = %{{.*}}, %[[B:.*]] = %{{.*}})
// CHECK: do {
// CHECK-NEXT: %[[K:.*]] = stablehlo.constant dense<[2.000000e+00, 1.000000e+00]>
// CHECK-NEXT: %[[S:.*]] = stablehlo.add %[[A]], %[[K]]
// CHECK-NEXT: stablehlo.return %[[S]], %[[B]]
func.func @sink_one_constant() -> tensor<2xf32> {
  %c0 = stablehlo.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %c1 = stablehlo.constant dense<[2.0, 1.0]> : tensor<2xf32>
  %r:2 = stablehlo.while(%a = %c0, %b = %c1) : tensor<2xf32>, tensor<2xf32>
  cond {
    %t = stablehlo.constant dense<true> : tensor<i1>
    stablehlo.return %t : tensor<i1>
  } do {
    %s = stablehlo.add %a, %b : tensor<2xf32>
    stablehlo.return %s, %b : tensor<2xf32>, tensor<2xf32>
  }
  return %r#0 : tensor<2xf32>
}

// -----

// Check that the condition reads the bound as a constant (XLA ConditionalSinkConstant).
// CHECK-LABEL: func.func @sink_into_condition
// CHECK: cond {
// CHECK-NEXT: %[[K:.*]] = stablehlo.constant dense<10>
// CHECK-NEXT: stablehlo.compare LT, %{{.*}}, %[[K]]
// CHECK: do {
// CHECK-NOT: dense<10>
// CHECK: stablehlo.return
func.func @sink_into_condition() -> tensor<i32> {
  %c0 = stablehlo.constant dense<0> : tensor<i32>
  %c10 = stablehlo.constant dense<10> : tensor<i32>
  %r:2 = stablehlo.while(%i = %c0, %n = %c10) : tensor<i32>, tensor<i32>
  cond {
    %p = stablehlo.compare LT, %i, %n, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %p : tensor<i1>
  } do {
    %one = stablehlo.constant dense<1> : tensor<i32>
    %i1 = stablehlo.add %i, %one : tensor<i32>
    stablehlo.return %i1, %n : tensor<i32>, tensor<i32>
  }
  return %r#0 : tensor<i32>
}

// -----

// Check that both passed-through constants are sunk and the updated value is not
// (XLA KeepConstantsLoopInvariant).
// CHECK-LABEL: func.func @keep_loop_invariant
// CHECK: stablehlo.while(%[[A:.*]] = %{{.*}}, %[[B:.*]] = %{{.*}}, %[[C:.*]] = %{{.*}})
// CHECK: do {
// CHECK-DAG: %[[KB:.*]] = stablehlo.constant dense<[2.000000e+00, 1.000000e+00]>
// CHECK-DAG: %[[KC:.*]] = stablehlo.constant dense<[3.000000e+00, 1.000000e+00]>
// CHECK: %[[S:.*]] = stablehlo.add %[[KB]], %[[KC]]
// CHECK-NEXT: stablehlo.return %[[S]], %[[B]], %[[C]]
func.func @keep_loop_invariant() -> tensor<2xf32> {
  %c0 = stablehlo.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %c1 = stablehlo.constant dense<[2.0, 1.0]> : tensor<2xf32>
  %c2 = stablehlo.constant dense<[3.0, 1.0]> : tensor<2xf32>
  %r:3 = stablehlo.while(%a = %c0, %b = %c1, %c = %c2) : tensor<2xf32>, tensor<2xf32>, tensor<2xf32>
  cond {
    %t = stablehlo.constant dense<true> : tensor<i1>
    stablehlo.return %t : tensor<i1>
  } do {
    %s = stablehlo.add %b, %c : tensor<2xf32>
    stablehlo.return %s, %b, %c : tensor<2xf32>, tensor<2xf32>, tensor<2xf32>
  }
  return %r#0 : tensor<2xf32>
}

// -----

// Check that a constant the body only passes through creates no dead constant, and that
// a loop-varying value and a non-constant initial value are left alone
// (XLA DontCreateDeadConstant).
// CHECK-LABEL: func.func @no_dead_constant
// CHECK: do {
// CHECK-NOT: stablehlo.constant
// CHECK: stablehlo.return
func.func @no_dead_constant(%x: tensor<2xf32>) -> tensor<2xf32> {
  %c0 = stablehlo.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %c1 = stablehlo.constant dense<[2.0, 1.0]> : tensor<2xf32>
  %r:3 = stablehlo.while(%a = %c0, %b = %c1, %v = %x) : tensor<2xf32>, tensor<2xf32>, tensor<2xf32>
  cond {
    %t = stablehlo.constant dense<true> : tensor<i1>
    stablehlo.return %t : tensor<i1>
  } do {
    %s = stablehlo.add %a, %v : tensor<2xf32>
    %m = stablehlo.multiply %s, %v : tensor<2xf32>
    stablehlo.return %m, %b, %v : tensor<2xf32>, tensor<2xf32>, tensor<2xf32>
  }
  return %r#0 : tensor<2xf32>
}

// -----

// Check that a constant carried value the body updates is not sunk into the condition
// either: the condition sees every iteration's value.
// CHECK-LABEL: func.func @updated_not_sunk
// CHECK: cond {
// CHECK-NOT: stablehlo.constant
// CHECK: stablehlo.compare
func.func @updated_not_sunk() -> tensor<i32> {
  %c0 = stablehlo.constant dense<0> : tensor<i32>
  %c10 = stablehlo.constant dense<10> : tensor<i32>
  %r:2 = stablehlo.while(%i = %c0, %n = %c10) : tensor<i32>, tensor<i32>
  cond {
    %p = stablehlo.compare LT, %i, %n, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %p : tensor<i1>
  } do {
    %one = stablehlo.constant dense<1> : tensor<i32>
    %i1 = stablehlo.add %i, %one : tensor<i32>
    %n1 = stablehlo.subtract %n, %one : tensor<i32>
    stablehlo.return %i1, %n1 : tensor<i32>, tensor<i32>
  }
  return %r#0 : tensor<i32>
}

// -----

// Check that a constant sunk into an outer body reaches the loop nested in it in the
// same run (outer loops first).
// CHECK-LABEL: func.func @nested
// CHECK: stablehlo.while
// CHECK: stablehlo.while
// CHECK: cond {
// CHECK-NEXT: stablehlo.constant dense<3>
// CHECK-NEXT: stablehlo.compare LT
func.func @nested() -> tensor<i32> {
  %c0 = stablehlo.constant dense<0> : tensor<i32>
  %c3 = stablehlo.constant dense<3> : tensor<i32>
  %r:2 = stablehlo.while(%i = %c0, %n = %c3) : tensor<i32>, tensor<i32>
  cond {
    %p = stablehlo.compare LT, %i, %n, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %p : tensor<i1>
  } do {
    %inner:2 = stablehlo.while(%j = %i, %m = %n) : tensor<i32>, tensor<i32>
    cond {
      %q = stablehlo.compare LT, %j, %m, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %q : tensor<i1>
    } do {
      %one = stablehlo.constant dense<1> : tensor<i32>
      %j1 = stablehlo.add %j, %one : tensor<i32>
      stablehlo.return %j1, %m : tensor<i32>, tensor<i32>
    }
    stablehlo.return %inner#0, %n : tensor<i32>, tensor<i32>
  }
  return %r#0 : tensor<i32>
}

// -----

// Check that a broadcast of a constant is sunk only with sink-broadcast-of-constants
// (XLA SinkBroadcastOfConstant), as a copy of both ops.
// CHECK-LABEL: func.func @broadcast_of_constant
// CHECK: do {
// CHECK-NOT: stablehlo.broadcast_in_dim
// CHECK: stablehlo.return
// BCAST-LABEL: func.func @broadcast_of_constant
// BCAST: do {
// BCAST-NEXT: %[[K:.*]] = stablehlo.constant dense<2.000000e+00>
// BCAST-NEXT: %[[B:.*]] = stablehlo.broadcast_in_dim %[[K]]
// BCAST-NEXT: stablehlo.add %{{.*}}, %[[B]]
func.func @broadcast_of_constant() -> tensor<16xf32> {
  %c0 = stablehlo.constant dense<1.0> : tensor<f32>
  %c1 = stablehlo.constant dense<2.0> : tensor<f32>
  %b0 = stablehlo.broadcast_in_dim %c0, dims = [] : (tensor<f32>) -> tensor<16xf32>
  %b1 = stablehlo.broadcast_in_dim %c1, dims = [] : (tensor<f32>) -> tensor<16xf32>
  %r:2 = stablehlo.while(%a = %b0, %b = %b1) : tensor<16xf32>, tensor<16xf32>
  cond {
    %t = stablehlo.constant dense<true> : tensor<i1>
    stablehlo.return %t : tensor<i1>
  } do {
    %s = stablehlo.add %a, %b : tensor<16xf32>
    stablehlo.return %s, %b : tensor<16xf32>, tensor<16xf32>
  }
  return %r#0 : tensor<16xf32>
}
