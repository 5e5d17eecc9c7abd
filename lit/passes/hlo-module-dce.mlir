// RUN: %hlo-opt %s -p hlo-module-dce --split-input-file | filecheck %s

// Check that a result no caller reads and a parameter the body does not read leave the
// function and every call, with the ops that only computed them.
// CHECK-LABEL: func.func @unused_result_and_parameter
// CHECK: %[[A:.*]] = call @f(%arg0) : (tensor<4xf32>) -> tensor<4xf32>
// CHECK: %[[B:.*]] = call @f(%arg1) : (tensor<4xf32>) -> tensor<4xf32>
// CHECK: return %[[A]], %[[B]]
// CHECK-LABEL: func.func private @f(%arg0: tensor<4xf32>) -> tensor<4xf32>
// CHECK-NOT: stablehlo.multiply
// CHECK: %[[S:.*]] = stablehlo.add %arg0, %arg0
// CHECK: return %[[S]] : tensor<4xf32>
func.func @unused_result_and_parameter(%x: tensor<4xf32>, %y: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %a:2 = call @f(%x, %y) : (tensor<4xf32>, tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>)
  %b:2 = call @f(%y, %x) : (tensor<4xf32>, tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>)
  return %a#0, %b#0 : tensor<4xf32>, tensor<4xf32>
}
func.func private @f(%x: tensor<4xf32>, %unread: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %0 = stablehlo.add %x, %x : tensor<4xf32>
  %1 = stablehlo.multiply %x, %x : tensor<4xf32>
  return %0, %1 : tensor<4xf32>, tensor<4xf32>
}

// -----

// Check that a result read by one caller stays, and that public functions keep their signature.
// CHECK-LABEL: func.func @read_by_one_caller
// CHECK: call @g(%arg0) : (tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>)
// CHECK: call @g(%arg0) : (tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>)
// CHECK-LABEL: func.func private @g(
// CHECK-LABEL: func.func @public(%arg0: tensor<4xf32>, %arg1: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>)
func.func @read_by_one_caller(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %a:2 = call @g(%x) : (tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>)
  %b:2 = call @g(%x) : (tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>)
  return %a#0, %b#1 : tensor<4xf32>, tensor<4xf32>
}
func.func private @g(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %0 = stablehlo.negate %x : tensor<4xf32>
  return %0, %x : tensor<4xf32>, tensor<4xf32>
}
func.func @public(%x: tensor<4xf32>, %unread: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  return %x, %x : tensor<4xf32>, tensor<4xf32>
}

// -----

// Check that an unread call of an effect-free function goes, with the function; a call of
// a function with side effects stays (its result dropped, not its effect).
// CHECK-LABEL: func.func @dead_calls
// CHECK-NOT: call @pure
// CHECK: call @effect(%arg0) : (tensor<4xf32>) -> ()
// CHECK: return %arg0
// CHECK-NOT: func.func private @pure
// CHECK-LABEL: func.func private @effect(%arg0: tensor<4xf32>) {
// CHECK: stablehlo.custom_call @log(%arg0) {has_side_effect = true}
func.func @dead_calls(%x: tensor<4xf32>) -> tensor<4xf32> {
  %a = call @pure(%x) : (tensor<4xf32>) -> tensor<4xf32>
  %b = call @effect(%x) : (tensor<4xf32>) -> tensor<4xf32>
  return %x : tensor<4xf32>
}
func.func private @pure(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = stablehlo.exponential %x : tensor<4xf32>
  return %0 : tensor<4xf32>
}
func.func private @effect(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = stablehlo.custom_call @log(%x) {has_side_effect = true} : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// Check that a loop-carried value nothing reads leaves the loop (XLA's dead tuple elements).
// CHECK-LABEL: func.func @dead_carried_value
// CHECK: stablehlo.while(%[[I:.*]] = %{{.*}}) : tensor<i32>
// CHECK-NOT: stablehlo.multiply
func.func @dead_carried_value(%x: tensor<4xf32>) -> tensor<i32> {
  %c0 = stablehlo.constant dense<0> : tensor<i32>
  %r:2 = stablehlo.while(%i = %c0, %v = %x) : tensor<i32>, tensor<4xf32>
  cond {
    %n = stablehlo.constant dense<3> : tensor<i32>
    %p = stablehlo.compare LT, %i, %n, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %p : tensor<i1>
  } do {
    %one = stablehlo.constant dense<1> : tensor<i32>
    %i1 = stablehlo.add %i, %one : tensor<i32>
    %v1 = stablehlo.multiply %v, %v : tensor<4xf32>
    stablehlo.return %i1, %v1 : tensor<i32>, tensor<4xf32>
  }
  return %r#0 : tensor<i32>
}

// -----

// Check that a function another op refers to by symbol (not a func.call) keeps its
// signature, and that a function declaration is left alone.
// CHECK-LABEL: func.func @other_references
// CHECK: call @referenced(%arg0, %arg0) : (tensor<4xf32>, tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>)
// CHECK: call @declared(%arg0) : (tensor<4xf32>) -> tensor<4xf32>
// CHECK-LABEL: func.func private @referenced(%arg0: tensor<4xf32>, %arg1: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>)
func.func @other_references(%x: tensor<4xf32>) -> tensor<4xf32> {
  %a:2 = call @referenced(%x, %x) : (tensor<4xf32>, tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>)
  %b = stablehlo.custom_call @target(%a#0) {called_computations = [@referenced]} : (tensor<4xf32>) -> tensor<4xf32>
  %c = call @declared(%x) : (tensor<4xf32>) -> tensor<4xf32>
  return %b : tensor<4xf32>
}
func.func private @referenced(%x: tensor<4xf32>, %unread: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  return %x, %x : tensor<4xf32>, tensor<4xf32>
}
func.func private @declared(%x: tensor<4xf32>) -> tensor<4xf32>

// -----

// Check that a loop-carried value a side-effecting op reads stays (XLA
// WhileWithUnusedSideEffectingTupleElement), though no result reads it.
// CHECK-LABEL: func.func @effect_keeps_carried_value
// CHECK: stablehlo.while(%{{.*}} = %{{.*}}, %{{.*}} = %arg0) : tensor<i32>, tensor<4xf32>
// CHECK: stablehlo.custom_call @log
func.func @effect_keeps_carried_value(%x: tensor<4xf32>) -> tensor<i32> {
  %c0 = stablehlo.constant dense<0> : tensor<i32>
  %r:2 = stablehlo.while(%i = %c0, %v = %x) : tensor<i32>, tensor<4xf32>
  cond {
    %n = stablehlo.constant dense<3> : tensor<i32>
    %p = stablehlo.compare LT, %i, %n, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %p : tensor<i1>
  } do {
    %one = stablehlo.constant dense<1> : tensor<i32>
    %i1 = stablehlo.add %i, %one : tensor<i32>
    %v1 = stablehlo.custom_call @log(%v) {has_side_effect = true} : (tensor<4xf32>) -> tensor<4xf32>
    stablehlo.return %i1, %v1 : tensor<i32>, tensor<4xf32>
  }
  return %r#0 : tensor<i32>
}

// -----

// Check that dropping a callee's unread parameter leaves the caller's parameter unread,
// which the next sweep drops too (the pass runs to a fixed point).
// CHECK-LABEL: func.func @chain
// CHECK: call @outer(%arg0) : (tensor<4xf32>) -> tensor<4xf32>
// CHECK-LABEL: func.func private @outer(%arg0: tensor<4xf32>) -> tensor<4xf32>
// CHECK: call @inner(%arg0) : (tensor<4xf32>) -> tensor<4xf32>
// CHECK-LABEL: func.func private @inner(%arg0: tensor<4xf32>) -> tensor<4xf32>
func.func @chain(%x: tensor<4xf32>, %y: tensor<4xf32>) -> tensor<4xf32> {
  %0 = call @outer(%x, %y) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
func.func private @outer(%x: tensor<4xf32>, %y: tensor<4xf32>) -> tensor<4xf32> {
  %n = stablehlo.negate %y : tensor<4xf32>
  %0 = call @inner(%x, %n) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
func.func private @inner(%x: tensor<4xf32>, %unread: tensor<4xf32>) -> tensor<4xf32> {
  %0 = stablehlo.abs %x : tensor<4xf32>
  return %0 : tensor<4xf32>
}
