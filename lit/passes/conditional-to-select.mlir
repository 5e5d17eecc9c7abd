// RUN: %hlo-opt %s -p conditional-to-select --split-input-file | filecheck %s
// RUN: %hlo-opt %s -p "conditional-to-select{max-branch-ops=1}" --split-input-file | filecheck %s --check-prefix=SMALL

// Check that scalar results select on the predicate itself (XLA MapConditionalConstants).
// CHECK-LABEL: func.func @scalar
// CHECK-NOT: stablehlo.if
// CHECK-DAG: %[[T:.*]] = stablehlo.constant dense<0.0{{.*}}> : tensor<f32>
// CHECK-DAG: %[[F:.*]] = stablehlo.constant dense<1.0{{.*}}> : tensor<f32>
// CHECK: %[[S:.*]] = stablehlo.select %arg0, %[[T]], %[[F]] : tensor<i1>, tensor<f32>
// CHECK: return %[[S]]
func.func @scalar(%p: tensor<i1>) -> tensor<f32> {
  %r = "stablehlo.if"(%p) ({
    %c = stablehlo.constant dense<0.0> : tensor<f32>
    stablehlo.return %c : tensor<f32>
  }, {
    %c = stablehlo.constant dense<1.0> : tensor<f32>
    stablehlo.return %c : tensor<f32>
  }) : (tensor<i1>) -> tensor<f32>
  return %r : tensor<f32>
}

// -----

// Check that both branches are computed and a non-scalar result selects on the
// predicate broadcast once per shape (XLA MapConditionalNonScalar).
// CHECK-LABEL: func.func @non_scalar
// CHECK-NOT: stablehlo.if
// CHECK: %[[A:.*]] = stablehlo.add %arg1, %arg1
// CHECK: %[[M:.*]] = stablehlo.multiply %arg1, %arg1
// CHECK: %[[A2:.*]] = stablehlo.add %arg1, %arg1
// CHECK: %[[B:.*]] = stablehlo.broadcast_in_dim %arg0, dims = [] : (tensor<i1>) -> tensor<2x3xi1>
// CHECK: %[[S0:.*]] = stablehlo.select %[[B]], %[[A]], %[[M]]
// CHECK: %[[S1:.*]] = stablehlo.select %[[B]], %arg1, %[[A2]]
// CHECK-NOT: stablehlo.broadcast_in_dim
// CHECK: return %[[S0]], %[[S1]]
func.func @non_scalar(%p: tensor<i1>, %x: tensor<2x3xf32>) -> (tensor<2x3xf32>, tensor<2x3xf32>) {
  %r:2 = "stablehlo.if"(%p) ({
    %a = stablehlo.add %x, %x : tensor<2x3xf32>
    stablehlo.return %a, %x : tensor<2x3xf32>, tensor<2x3xf32>
  }, {
    %m = stablehlo.multiply %x, %x : tensor<2x3xf32>
    %a = stablehlo.add %x, %x : tensor<2x3xf32>
    stablehlo.return %m, %a : tensor<2x3xf32>, tensor<2x3xf32>
  }) : (tensor<i1>) -> (tensor<2x3xf32>, tensor<2x3xf32>)
  return %r#0, %r#1 : tensor<2x3xf32>, tensor<2x3xf32>
}

// -----

// Check that a case of two branches selects on index == 0 (any other index runs the last).
// CHECK-LABEL: func.func @two_way_case
// CHECK-NOT: stablehlo.case
// CHECK: %[[N:.*]] = stablehlo.negate %arg1
// CHECK: %[[Z:.*]] = stablehlo.constant dense<0> : tensor<i32>
// CHECK: %[[P:.*]] = stablehlo.compare EQ, %arg0, %[[Z]], SIGNED
// CHECK: %[[S:.*]] = stablehlo.select %[[P]], %[[N]], %arg1 : tensor<i1>, tensor<i32>
// CHECK: return %[[S]]
func.func @two_way_case(%i: tensor<i32>, %x: tensor<i32>) -> tensor<i32> {
  %r = "stablehlo.case"(%i) ({
    %n = stablehlo.negate %x : tensor<i32>
    stablehlo.return %n : tensor<i32>
  }, {
    stablehlo.return %x : tensor<i32>
  }) : (tensor<i32>) -> tensor<i32>
  return %r : tensor<i32>
}

// -----

// Check that a conditional inside a map body becomes a select (where XLA applies it).
// CHECK-LABEL: func.func @in_map
// CHECK: "stablehlo.map"
// CHECK-NOT: stablehlo.if
// CHECK: %[[LT:.*]] = stablehlo.compare LT
// CHECK: stablehlo.select %[[LT]]
func.func @in_map(%x: tensor<8xf32>, %y: tensor<8xf32>) -> tensor<8xf32> {
  %0 = "stablehlo.map"(%x, %y) <{dimensions = array<i64: 0>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %lt = stablehlo.compare LT, %a, %b : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %r = "stablehlo.if"(%lt) ({
      %s = stablehlo.subtract %b, %a : tensor<f32>
      stablehlo.return %s : tensor<f32>
    }, {
      %s = stablehlo.subtract %a, %b : tensor<f32>
      stablehlo.return %s : tensor<f32>
    }) : (tensor<i1>) -> tensor<f32>
    stablehlo.return %r : tensor<f32>
  }) : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

// Check that an inner conditional becomes a select first, so that the outer one, then
// cheap, does too; a reduce with its body counts as cheap.
// CHECK-LABEL: func.func @nested
// CHECK-NOT: stablehlo.if
// CHECK: stablehlo.reduce
// CHECK: stablehlo.select
// CHECK: stablehlo.select
// CHECK: return
func.func @nested(%p: tensor<i1>, %q: tensor<i1>, %x: tensor<4xf32>) -> tensor<f32> {
  %r = "stablehlo.if"(%p) ({
    %z = stablehlo.constant dense<0.0> : tensor<f32>
    %s = stablehlo.reduce(%x init: %z) applies stablehlo.add across dimensions = [0] : (tensor<4xf32>, tensor<f32>) -> tensor<f32>
    stablehlo.return %s : tensor<f32>
  }, {
    %inner = "stablehlo.if"(%q) ({
      %c = stablehlo.constant dense<1.0> : tensor<f32>
      stablehlo.return %c : tensor<f32>
    }, {
      %c = stablehlo.constant dense<2.0> : tensor<f32>
      stablehlo.return %c : tensor<f32>
    }) : (tensor<i1>) -> tensor<f32>
    stablehlo.return %inner : tensor<f32>
  }) : (tensor<i1>) -> tensor<f32>
  return %r : tensor<f32>
}

// -----

// Check that branches with side effects stay a conditional.
// CHECK-LABEL: func.func @side_effect
// CHECK: "stablehlo.if"
// CHECK-NOT: stablehlo.select
func.func @side_effect(%p: tensor<i1>, %x: tensor<4xf32>) -> tensor<4xf32> {
  %r = "stablehlo.if"(%p) ({
    %e = stablehlo.custom_call @effect(%x) {has_side_effect = true} : (tensor<4xf32>) -> tensor<4xf32>
    stablehlo.return %e : tensor<4xf32>
  }, {
    stablehlo.return %x : tensor<4xf32>
  }) : (tensor<i1>) -> tensor<4xf32>
  return %r : tensor<4xf32>
}

// -----

// Check that rng (a new draw on every execution) stays conditional.
// CHECK-LABEL: func.func @rng
// CHECK: "stablehlo.if"
// CHECK-NOT: stablehlo.select
func.func @rng(%p: tensor<i1>, %lo: tensor<f32>, %hi: tensor<f32>) -> tensor<2xf32> {
  %r = "stablehlo.if"(%p) ({
    %shape = stablehlo.constant dense<2> : tensor<1xi64>
    %u = stablehlo.rng %lo, %hi, %shape, distribution = UNIFORM : (tensor<f32>, tensor<f32>, tensor<1xi64>) -> tensor<2xf32>
    stablehlo.return %u : tensor<2xf32>
  }, {
    %z = stablehlo.constant dense<0.0> : tensor<2xf32>
    stablehlo.return %z : tensor<2xf32>
  }) : (tensor<i1>) -> tensor<2xf32>
  return %r : tensor<2xf32>
}

// -----

// Check that a branch with a while loop stays conditional.
// CHECK-LABEL: func.func @while_loop
// CHECK: "stablehlo.if"
// CHECK-NOT: stablehlo.select
func.func @while_loop(%p: tensor<i1>, %x: tensor<i32>) -> tensor<i32> {
  %r = "stablehlo.if"(%p) ({
    %w = stablehlo.while(%i = %x) : tensor<i32>
    cond {
      %c = stablehlo.constant dense<10> : tensor<i32>
      %lt = stablehlo.compare LT, %i, %c, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %lt : tensor<i1>
    } do {
      %one = stablehlo.constant dense<1> : tensor<i32>
      %i1 = stablehlo.add %i, %one : tensor<i32>
      stablehlo.return %i1 : tensor<i32>
    }
    stablehlo.return %w : tensor<i32>
  }, {
    stablehlo.return %x : tensor<i32>
  }) : (tensor<i1>) -> tensor<i32>
  return %r : tensor<i32>
}

// -----

// Check that a branch with a call stays conditional.
// CHECK-LABEL: func.func @call
// CHECK: "stablehlo.if"
// CHECK-NOT: stablehlo.select
func.func private @callee(%x: tensor<i32>) -> tensor<i32> {
  return %x : tensor<i32>
}
func.func @call(%p: tensor<i1>, %x: tensor<i32>) -> tensor<i32> {
  %r = "stablehlo.if"(%p) ({
    %c = func.call @callee(%x) : (tensor<i32>) -> tensor<i32>
    stablehlo.return %c : tensor<i32>
  }, {
    stablehlo.return %x : tensor<i32>
  }) : (tensor<i1>) -> tensor<i32>
  return %r : tensor<i32>
}

// -----

// Check that an expensive op (a dot) keeps the conditional.
// CHECK-LABEL: func.func @expensive
// CHECK: "stablehlo.if"
// CHECK-NOT: stablehlo.select
func.func @expensive(%p: tensor<i1>, %x: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %r = "stablehlo.if"(%p) ({
    %d = stablehlo.dot_general %x, %x, contracting_dims = [1] x [0] : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
    stablehlo.return %d : tensor<4x4xf32>
  }, {
    stablehlo.return %x : tensor<4x4xf32>
  }) : (tensor<i1>) -> tensor<4x4xf32>
  return %r : tensor<4x4xf32>
}

// -----

// Check that a case of three branches stays (XLA's pass handles two-way conditionals).
// CHECK-LABEL: func.func @three_way_case
// CHECK: "stablehlo.case"
// CHECK-NOT: stablehlo.select
func.func @three_way_case(%i: tensor<i32>, %x: tensor<i32>) -> tensor<i32> {
  %r = "stablehlo.case"(%i) ({
    %n = stablehlo.negate %x : tensor<i32>
    stablehlo.return %n : tensor<i32>
  }, {
    stablehlo.return %x : tensor<i32>
  }, {
    %a = stablehlo.add %x, %x : tensor<i32>
    stablehlo.return %a : tensor<i32>
  }) : (tensor<i32>) -> tensor<i32>
  return %r : tensor<i32>
}

// -----

// Check that a token result (not an array) keeps the conditional.
// CHECK-LABEL: func.func @token_result
// CHECK: "stablehlo.if"
// CHECK-NOT: stablehlo.select
func.func @token_result(%p: tensor<i1>, %t: !stablehlo.token, %u: !stablehlo.token) -> !stablehlo.token {
  %r = "stablehlo.if"(%p) ({
    stablehlo.return %t : !stablehlo.token
  }, {
    stablehlo.return %u : !stablehlo.token
  }) : (tensor<i1>) -> !stablehlo.token
  return %r : !stablehlo.token
}

// -----

// Check that max-branch-ops bounds each branch: two ops stay conditional under a bound of 1,
// one op (constants not counted) does not.
// CHECK-LABEL: func.func @branch_size
// CHECK-NOT: stablehlo.if
// SMALL-LABEL: func.func @branch_size
// SMALL: "stablehlo.if"
// SMALL: stablehlo.select
// SMALL-NOT: "stablehlo.if"
// SMALL: return
func.func @branch_size(%p: tensor<i1>, %q: tensor<i1>, %x: tensor<f32>) -> (tensor<f32>, tensor<f32>) {
  %r = "stablehlo.if"(%p) ({
    %a = stablehlo.add %x, %x : tensor<f32>
    %m = stablehlo.multiply %a, %x : tensor<f32>
    stablehlo.return %m : tensor<f32>
  }, {
    stablehlo.return %x : tensor<f32>
  }) : (tensor<i1>) -> tensor<f32>
  %s = "stablehlo.if"(%q) ({
    %one = stablehlo.constant dense<1.0> : tensor<f32>
    %a = stablehlo.add %x, %one : tensor<f32>
    stablehlo.return %a : tensor<f32>
  }, {
    stablehlo.return %x : tensor<f32>
  }) : (tensor<i1>) -> tensor<f32>
  return %r, %s : tensor<f32>, tensor<f32>
}
