// RUN: %hlo-opt %s -p conditional-simplifier --split-input-file | filecheck %s

// Check that a constant true predicate inlines the first region (XLA ConditionalGetsInlined).
// CHECK-LABEL: func.func @constant_true
// CHECK-NOT: stablehlo.if
// CHECK: %[[A:.*]] = stablehlo.add %arg0, %{{.*}}
// CHECK-NOT: stablehlo.multiply
// CHECK: return %[[A]]
func.func @constant_true(%x: tensor<i32>) -> tensor<i32> {
  %t = stablehlo.constant dense<true> : tensor<i1>
  %r = "stablehlo.if"(%t) ({
    %one = stablehlo.constant dense<1> : tensor<i32>
    %a = stablehlo.add %x, %one : tensor<i32>
    stablehlo.return %a : tensor<i32>
  }, {
    %m = stablehlo.multiply %x, %x : tensor<i32>
    stablehlo.return %m : tensor<i32>
  }) : (tensor<i1>) -> tensor<i32>
  return %r : tensor<i32>
}

// -----

// Check that a constant false predicate inlines the second region.
// CHECK-LABEL: func.func @constant_false
// CHECK-NOT: stablehlo.if
// CHECK-NOT: stablehlo.add
// CHECK: %[[M:.*]] = stablehlo.multiply %arg0, %arg0
// CHECK: return %[[M]]
func.func @constant_false(%x: tensor<3xf32>) -> tensor<3xf32> {
  %f = stablehlo.constant dense<false> : tensor<i1>
  %r = "stablehlo.if"(%f) ({
    %a = stablehlo.add %x, %x : tensor<3xf32>
    stablehlo.return %a : tensor<3xf32>
  }, {
    %m = stablehlo.multiply %x, %x : tensor<3xf32>
    stablehlo.return %m : tensor<3xf32>
  }) : (tensor<i1>) -> tensor<3xf32>
  return %r : tensor<3xf32>
}

// -----

// Check that a constant index in range runs its own branch.
// CHECK-LABEL: func.func @constant_index
// CHECK-NOT: stablehlo.case
// CHECK: %[[S:.*]] = stablehlo.subtract %arg0, %arg1
// CHECK: return %[[S]]
func.func @constant_index(%x: tensor<2xf32>, %y: tensor<2xf32>) -> tensor<2xf32> {
  %c = stablehlo.constant dense<1> : tensor<i32>
  %r = "stablehlo.case"(%c) ({
    %a = stablehlo.add %x, %y : tensor<2xf32>
    stablehlo.return %a : tensor<2xf32>
  }, {
    %s = stablehlo.subtract %x, %y : tensor<2xf32>
    stablehlo.return %s : tensor<2xf32>
  }, {
    %m = stablehlo.multiply %x, %y : tensor<2xf32>
    stablehlo.return %m : tensor<2xf32>
  }) : (tensor<i32>) -> tensor<2xf32>
  return %r : tensor<2xf32>
}

// -----

// Check that an index past the last branch, and a negative one, run the last branch.
// CHECK-LABEL: func.func @out_of_range_index
// CHECK-NOT: stablehlo.case
// CHECK: %[[M1:.*]] = stablehlo.multiply %arg0, %arg1
// CHECK: %[[M2:.*]] = stablehlo.multiply %arg0, %arg1
// CHECK: return %[[M1]], %[[M2]]
func.func @out_of_range_index(%x: tensor<2xf32>, %y: tensor<2xf32>) -> (tensor<2xf32>, tensor<2xf32>) {
  %big = stablehlo.constant dense<7> : tensor<i32>
  %neg = stablehlo.constant dense<-1> : tensor<i32>
  %r = "stablehlo.case"(%big) ({
    %a = stablehlo.add %x, %y : tensor<2xf32>
    stablehlo.return %a : tensor<2xf32>
  }, {
    %m = stablehlo.multiply %x, %y : tensor<2xf32>
    stablehlo.return %m : tensor<2xf32>
  }) : (tensor<i32>) -> tensor<2xf32>
  %s = "stablehlo.case"(%neg) ({
    %a = stablehlo.add %x, %y : tensor<2xf32>
    stablehlo.return %a : tensor<2xf32>
  }, {
    %m = stablehlo.multiply %x, %y : tensor<2xf32>
    stablehlo.return %m : tensor<2xf32>
  }) : (tensor<i32>) -> tensor<2xf32>
  return %r, %s : tensor<2xf32>, tensor<2xf32>
}

// -----

// Check that a case of one branch is inlined whatever its index.
// CHECK-LABEL: func.func @single_branch
// CHECK-NOT: stablehlo.case
// CHECK: %[[E:.*]] = stablehlo.exponential %arg1
// CHECK: return %[[E]]
func.func @single_branch(%i: tensor<i32>, %x: tensor<4xf32>) -> tensor<4xf32> {
  %r = "stablehlo.case"(%i) ({
    %e = stablehlo.exponential %x : tensor<4xf32>
    stablehlo.return %e : tensor<4xf32>
  }) : (tensor<i32>) -> tensor<4xf32>
  return %r : tensor<4xf32>
}

// -----

// Check that a conditional with a run-time predicate whose results are all used and
// distinct is left alone.
// CHECK-LABEL: func.func @runtime_predicate
// CHECK: %[[R:.*]]:2 = "stablehlo.if"(%arg0)
// CHECK: stablehlo.return %{{.*}}, %{{.*}} : tensor<4xf32>, tensor<4xf32>
// CHECK: stablehlo.return %{{.*}}, %{{.*}} : tensor<4xf32>, tensor<4xf32>
// CHECK: return %[[R]]#0, %[[R]]#1
func.func @runtime_predicate(%p: tensor<i1>, %x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %r:2 = "stablehlo.if"(%p) ({
    %a = stablehlo.add %x, %x : tensor<4xf32>
    %n = stablehlo.negate %x : tensor<4xf32>
    stablehlo.return %a, %n : tensor<4xf32>, tensor<4xf32>
  }, {
    %m = stablehlo.multiply %x, %x : tensor<4xf32>
    stablehlo.return %m, %x : tensor<4xf32>, tensor<4xf32>
  }) : (tensor<i1>) -> (tensor<4xf32>, tensor<4xf32>)
  return %r#0, %r#1 : tensor<4xf32>, tensor<4xf32>
}

// -----

// Check that a constant predicate does not inline a branch with side effects (XLA:
// NotRemovedIfContainsNonRemovableInstruction).
// CHECK-LABEL: func.func @constant_predicate_side_effect
// CHECK: "stablehlo.if"
// CHECK: stablehlo.custom_call @effect
func.func @constant_predicate_side_effect(%x: tensor<4xf32>) -> tensor<4xf32> {
  %t = stablehlo.constant dense<true> : tensor<i1>
  %r = "stablehlo.if"(%t) ({
    %e = stablehlo.custom_call @effect(%x) {has_side_effect = true} : (tensor<4xf32>) -> tensor<4xf32>
    stablehlo.return %e : tensor<4xf32>
  }, {
    stablehlo.return %x : tensor<4xf32>
  }) : (tensor<i1>) -> tensor<4xf32>
  return %r : tensor<4xf32>
}

// -----

// Check that an outfeed in a branch that does not run still keeps the conditional (XLA
// refuses any conditional with side effects, as for send and recv).
// CHECK-LABEL: func.func @constant_predicate_outfeed
// CHECK: "stablehlo.if"
// CHECK: stablehlo.outfeed
func.func @constant_predicate_outfeed(%x: tensor<4xf32>, %t: !stablehlo.token) -> tensor<4xf32> {
  %f = stablehlo.constant dense<false> : tensor<i1>
  %r = "stablehlo.if"(%f) ({
    %o = "stablehlo.outfeed"(%x, %t) {outfeed_config = ""} : (tensor<4xf32>, !stablehlo.token) -> !stablehlo.token
    stablehlo.return %x : tensor<4xf32>
  }, {
    %n = stablehlo.negate %x : tensor<4xf32>
    stablehlo.return %n : tensor<4xf32>
  }) : (tensor<i1>) -> tensor<4xf32>
  return %r : tensor<4xf32>
}

// -----

// Check that rng counts as a side effect (XLA: a new draw on every execution).
// CHECK-LABEL: func.func @constant_index_rng
// CHECK: "stablehlo.case"
// CHECK: stablehlo.rng
func.func @constant_index_rng(%lo: tensor<f32>, %hi: tensor<f32>) -> tensor<2xf32> {
  %c = stablehlo.constant dense<0> : tensor<i32>
  %shape = stablehlo.constant dense<2> : tensor<1xi64>
  %r = "stablehlo.case"(%c) ({
    %u = stablehlo.rng %lo, %hi, %shape, distribution = UNIFORM : (tensor<f32>, tensor<f32>, tensor<1xi64>) -> tensor<2xf32>
    stablehlo.return %u : tensor<2xf32>
  }, {
    %z = stablehlo.constant dense<0.0> : tensor<2xf32>
    stablehlo.return %z : tensor<2xf32>
  }) : (tensor<i32>) -> tensor<2xf32>
  return %r : tensor<2xf32>
}

// -----

// Check that results nobody reads are dropped from the op and every branch's return
// (XLA SecondTupleElementUnusedAndRemoved); the ops that computed them stay for dce.
// CHECK-LABEL: func.func @unused_result
// CHECK: %[[R:.*]] = "stablehlo.if"(%arg0)
// CHECK: stablehlo.add
// CHECK: stablehlo.return %{{.*}} : tensor<4xf32>
// CHECK: stablehlo.multiply
// CHECK: stablehlo.return %{{.*}} : tensor<4xf32>
// CHECK: }) : (tensor<i1>) -> tensor<4xf32>
// CHECK: return %[[R]]
func.func @unused_result(%p: tensor<i1>, %x: tensor<4xf32>) -> tensor<4xf32> {
  %r:2 = "stablehlo.if"(%p) ({
    %a = stablehlo.add %x, %x : tensor<4xf32>
    %n = stablehlo.negate %x : tensor<4xf32>
    stablehlo.return %n, %a : tensor<4xf32>, tensor<4xf32>
  }, {
    %m = stablehlo.multiply %x, %x : tensor<4xf32>
    %e = stablehlo.exponential %x : tensor<4xf32>
    stablehlo.return %e, %m : tensor<4xf32>, tensor<4xf32>
  }) : (tensor<i1>) -> (tensor<4xf32>, tensor<4xf32>)
  return %r#1 : tensor<4xf32>
}

// -----

// Check that a result every branch returns as the same captured value is that value.
// CHECK-LABEL: func.func @captured_result
// CHECK: %[[R:.*]] = "stablehlo.case"(%arg0)
// CHECK: return %[[R]], %arg1
func.func @captured_result(%i: tensor<i32>, %x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %r:2 = "stablehlo.case"(%i) ({
    %a = stablehlo.add %x, %x : tensor<4xf32>
    stablehlo.return %a, %x : tensor<4xf32>, tensor<4xf32>
  }, {
    %m = stablehlo.multiply %x, %x : tensor<4xf32>
    stablehlo.return %m, %x : tensor<4xf32>, tensor<4xf32>
  }, {
    stablehlo.return %x, %x : tensor<4xf32>, tensor<4xf32>
  }) : (tensor<i32>) -> (tensor<4xf32>, tensor<4xf32>)
  return %r#0, %r#1 : tensor<4xf32>, tensor<4xf32>
}

// -----

// Check that a result returned as different captured values per branch stays.
// CHECK-LABEL: func.func @different_captured_values
// CHECK: %[[R:.*]] = "stablehlo.if"(%arg0)
// CHECK: stablehlo.return %arg1
// CHECK: stablehlo.return %arg2
// CHECK: return %[[R]]
func.func @different_captured_values(%p: tensor<i1>, %x: tensor<4xf32>, %y: tensor<4xf32>) -> tensor<4xf32> {
  %r = "stablehlo.if"(%p) ({
    stablehlo.return %x : tensor<4xf32>
  }, {
    stablehlo.return %y : tensor<4xf32>
  }) : (tensor<i1>) -> tensor<4xf32>
  return %r : tensor<4xf32>
}

// -----

// Check that two results each branch returns as one value become one (XLA
// MergeDuplicateTupleElements; the rng keeps the conditional).
// CHECK-LABEL: func.func @duplicate_results
// CHECK: %[[R:.*]] = "stablehlo.if"(%arg0)
// CHECK: }) : (tensor<i1>) -> tensor<2xf32>
// CHECK: %[[S:.*]] = stablehlo.add %[[R]], %[[R]]
// CHECK: return %[[S]]
func.func @duplicate_results(%p: tensor<i1>, %x: tensor<2xf32>, %lo: tensor<f32>) -> tensor<2xf32> {
  %r:2 = "stablehlo.if"(%p) ({
    %n = stablehlo.negate %x : tensor<2xf32>
    stablehlo.return %n, %n : tensor<2xf32>, tensor<2xf32>
  }, {
    %shape = stablehlo.constant dense<2> : tensor<1xi64>
    %u = stablehlo.rng %lo, %lo, %shape, distribution = UNIFORM : (tensor<f32>, tensor<f32>, tensor<1xi64>) -> tensor<2xf32>
    stablehlo.return %u, %u : tensor<2xf32>, tensor<2xf32>
  }) : (tensor<i1>) -> (tensor<2xf32>, tensor<2xf32>)
  %s = stablehlo.add %r#0, %r#1 : tensor<2xf32>
  return %s : tensor<2xf32>
}

// -----

// Check that a conditional with no used result and no side effects is removed, and one
// with side effects keeps its effects with no result (XLA RemoveDeadRoots).
// CHECK-LABEL: func.func @unused_conditionals
// CHECK-NOT: stablehlo.negate
// CHECK: "stablehlo.if"(%arg0)
// CHECK: stablehlo.custom_call @effect
// CHECK: stablehlo.return{{ *$}}
// CHECK: stablehlo.return{{ *$}}
// CHECK: }) : (tensor<i1>) -> ()
// CHECK: return %arg1
func.func @unused_conditionals(%p: tensor<i1>, %x: tensor<4xf32>) -> tensor<4xf32> {
  %r = "stablehlo.if"(%p) ({
    %n = stablehlo.negate %x : tensor<4xf32>
    stablehlo.return %n : tensor<4xf32>
  }, {
    stablehlo.return %x : tensor<4xf32>
  }) : (tensor<i1>) -> tensor<4xf32>
  %s = "stablehlo.if"(%p) ({
    %e = stablehlo.custom_call @effect(%x) {has_side_effect = true} : (tensor<4xf32>) -> tensor<4xf32>
    stablehlo.return %e : tensor<4xf32>
  }, {
    stablehlo.return %x : tensor<4xf32>
  }) : (tensor<i1>) -> tensor<4xf32>
  return %x : tensor<4xf32>
}

// -----

// Check that conditionals nested in a while body and in another conditional's branch are
// simplified, inner ones first.
// CHECK-LABEL: func.func @nested
// CHECK-NOT: stablehlo.if
// CHECK-NOT: stablehlo.case
// CHECK: stablehlo.while
// CHECK: stablehlo.multiply
// CHECK: return
func.func @nested(%x: tensor<4xf32>, %n: tensor<i32>) -> tensor<4xf32> {
  %c0 = stablehlo.constant dense<0> : tensor<i32>
  %r:2 = stablehlo.while(%i = %c0, %v = %x) : tensor<i32>, tensor<4xf32>
  cond {
    %p = stablehlo.compare LT, %i, %n, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %p : tensor<i1>
  } do {
    %one = stablehlo.constant dense<1> : tensor<i32>
    %i1 = stablehlo.add %i, %one : tensor<i32>
    %f = stablehlo.constant dense<false> : tensor<i1>
    %v1 = "stablehlo.if"(%f) ({
      stablehlo.return %v : tensor<4xf32>
    }, {
      %k = stablehlo.constant dense<2> : tensor<i32>
      %w = "stablehlo.case"(%k) ({
        stablehlo.return %v : tensor<4xf32>
      }, {
        %m = stablehlo.multiply %v, %v : tensor<4xf32>
        stablehlo.return %m : tensor<4xf32>
      }) : (tensor<i32>) -> tensor<4xf32>
      stablehlo.return %w : tensor<4xf32>
    }) : (tensor<i1>) -> tensor<4xf32>
    stablehlo.return %i1, %v1 : tensor<i32>, tensor<4xf32>
  }
  return %r#1 : tensor<4xf32>
}
