// RUN: %hlo-opt %s -p while-loop-invariant-code-motion --split-input-file | filecheck %s
// RUN: %hlo-opt %s -p "while-loop-invariant-code-motion{hoist-constants=true}" --split-input-file | filecheck %s --check-prefix=CONST
// RUN: %hlo-opt %s -p "while-loop-invariant-code-motion{hoist-size-inflation-ratio=1.0}" --split-input-file | filecheck %s --check-prefix=RATIO

// Check that an add of two passed-through values leaves the loop, reading their initial
// values (XLA HoistOneInvariantOperation).
// CHECK-LABEL: func.func @hoist_one
// CHECK: %[[S:.*]] = stablehlo.add %arg0, %arg1
// CHECK-NEXT: stablehlo.while
// CHECK: do {
// CHECK-NOT: stablehlo.add %iterArg
// CHECK: stablehlo.return %{{.*}}, %{{.*}}, %[[S]]
func.func @hoist_one(%x: tensor<i32>, %y: tensor<i32>, %z: tensor<i32>, %p: tensor<i1>) -> tensor<i32> {
  %r:3 = stablehlo.while(%a = %x, %b = %y, %c = %z) : tensor<i32>, tensor<i32>, tensor<i32>
  cond {
    stablehlo.return %p : tensor<i1>
  } do {
    %s = stablehlo.add %a, %b : tensor<i32>
    stablehlo.return %a, %b, %s : tensor<i32>, tensor<i32>, tensor<i32>
  }
  return %r#2 : tensor<i32>
}

// -----

// Check that a tree of invariant ops leaves the loop with its constant, and the division
// by a loop-varying value stays (XLA HoistInvariantOperationTree).
// CHECK-LABEL: func.func @hoist_tree
// CHECK: %[[A:.*]] = stablehlo.add %arg0, %arg1
// CHECK: %[[M:.*]] = stablehlo.multiply %[[A]], %arg1
// CHECK: %[[N:.*]] = stablehlo.negate %[[M]]
// CHECK: %[[K:.*]] = stablehlo.constant dense<4>
// CHECK: %[[S:.*]] = stablehlo.subtract %[[N]], %[[K]]
// CHECK: stablehlo.while(%{{.*}} = %arg0, %{{.*}} = %arg1, %[[C:.*]] = %arg2)
// CHECK: do {
// CHECK-NEXT: %[[D:.*]] = stablehlo.divide %[[S]], %[[C]]
// CHECK-NEXT: stablehlo.return %{{.*}}, %{{.*}}, %[[D]]
func.func @hoist_tree(%x: tensor<i32>, %y: tensor<i32>, %z: tensor<i32>, %p: tensor<i1>) -> tensor<i32> {
  %r:3 = stablehlo.while(%a = %x, %b = %y, %c = %z) : tensor<i32>, tensor<i32>, tensor<i32>
  cond {
    stablehlo.return %p : tensor<i1>
  } do {
    %s = stablehlo.add %a, %b : tensor<i32>
    %m = stablehlo.multiply %s, %b : tensor<i32>
    %n = stablehlo.negate %m : tensor<i32>
    %four = stablehlo.constant dense<4> : tensor<i32>
    %d = stablehlo.subtract %n, %four : tensor<i32>
    %q = stablehlo.divide %d, %c : tensor<i32>
    stablehlo.return %a, %b, %q : tensor<i32>, tensor<i32>, tensor<i32>
  }
  return %r#2 : tensor<i32>
}

// -----

// Check that ops reading a loop-varying value stay: the updated %b, and values that
// swap places each iteration (XLA DontHoistTriviallyLoopVaryingComputation,
// DontHoistLoopVaryingComputationWithAlternatingTuples).
// CHECK-LABEL: func.func @loop_varying
// CHECK-NOT: stablehlo.add
// CHECK: stablehlo.while
// CHECK: stablehlo.add
// CHECK: stablehlo.add
func.func @loop_varying(%x: tensor<i32>, %y: tensor<i32>, %p: tensor<i1>) -> (tensor<i32>, tensor<i32>) {
  %r:2 = stablehlo.while(%a = %x, %b = %y) : tensor<i32>, tensor<i32>
  cond {
    stablehlo.return %p : tensor<i1>
  } do {
    %s = stablehlo.add %a, %b : tensor<i32>
    stablehlo.return %a, %s : tensor<i32>, tensor<i32>
  }
  %t:3 = stablehlo.while(%a = %x, %b = %y, %c = %x) : tensor<i32>, tensor<i32>, tensor<i32>
  cond {
    stablehlo.return %p : tensor<i1>
  } do {
    %s = stablehlo.add %a, %b : tensor<i32>
    stablehlo.return %b, %a, %s : tensor<i32>, tensor<i32>, tensor<i32>
  }
  return %r#1, %t#2 : tensor<i32>, tensor<i32>
}

// -----

// Check that an op with side effects stays, and the broadcast only it reads stays with it
// (XLA DontHoistInstructionWithSideEffects, DontHoistBitcastAlone).
// CHECK-LABEL: func.func @side_effects
// CHECK-NEXT: stablehlo.while
// CHECK: stablehlo.broadcast_in_dim
// CHECK: stablehlo.custom_call @effect
func.func @side_effects(%x: tensor<f32>, %p: tensor<i1>) -> tensor<f32> {
  %r = stablehlo.while(%a = %x) : tensor<f32>
  cond {
    stablehlo.return %p : tensor<i1>
  } do {
    %b = stablehlo.broadcast_in_dim %a, dims = [] : (tensor<f32>) -> tensor<4xf32>
    %e = stablehlo.custom_call @effect(%b) {has_side_effect = true} : (tensor<4xf32>) -> tensor<4xf32>
    stablehlo.return %a : tensor<f32>
  }
  return %r : tensor<f32>
}

// -----

// Check that a broadcast leaves the loop with the op reading it (XLA HoistBitcastIfNeeded),
// and that the body keeps its own broadcast for a loop-varying reader.
// CHECK-LABEL: func.func @broadcast_with_reader
// CHECK: %[[B:.*]] = stablehlo.broadcast_in_dim %arg0
// CHECK: %[[M:.*]] = stablehlo.multiply %[[B]], %arg1
// CHECK: stablehlo.while(%{{.*}} = %arg0, %{{.*}} = %arg1, %[[V:.*]] = %arg1)
// CHECK: do {
// CHECK-NEXT: %[[B2:.*]] = stablehlo.broadcast_in_dim
// CHECK-NEXT: %[[W:.*]] = stablehlo.add %[[B2]], %[[V]]
// CHECK-NEXT: stablehlo.add %[[W]], %[[M]]
func.func @broadcast_with_reader(%x: tensor<f32>, %y: tensor<4xf32>, %p: tensor<i1>) -> tensor<4xf32> {
  %r:3 = stablehlo.while(%a = %x, %c = %y, %v = %y) : tensor<f32>, tensor<4xf32>, tensor<4xf32>
  cond {
    stablehlo.return %p : tensor<i1>
  } do {
    %b = stablehlo.broadcast_in_dim %a, dims = [] : (tensor<f32>) -> tensor<4xf32>
    %m = stablehlo.multiply %b, %c : tensor<4xf32>
    %w = stablehlo.add %b, %v : tensor<4xf32>
    %u = stablehlo.add %w, %m : tensor<4xf32>
    stablehlo.return %a, %c, %u : tensor<f32>, tensor<4xf32>, tensor<4xf32>
  }
  return %r#2 : tensor<4xf32>
}

// -----

// Check that a broadcast and an iota are not hoisted alone, nor constants unless asked
// (XLA DoesNotHoistConstantByDefault, HoistsConstantWhenAsked).
// CHECK-LABEL: func.func @not_worth_alone
// CHECK-NEXT: stablehlo.while
// CONST-LABEL: func.func @not_worth_alone
// CONST-NEXT: stablehlo.constant dense<[3.000000e+00, 4.000000e+00]>
// CONST-NEXT: stablehlo.while
func.func @not_worth_alone(%x: tensor<f32>, %y: tensor<2xf32>, %p: tensor<i1>) -> tensor<2xf32> {
  %r:2 = stablehlo.while(%a = %x, %v = %y) : tensor<f32>, tensor<2xf32>
  cond {
    stablehlo.return %p : tensor<i1>
  } do {
    %b = stablehlo.broadcast_in_dim %a, dims = [] : (tensor<f32>) -> tensor<2xf32>
    %i = stablehlo.iota dim = 0 : tensor<2xf32>
    %k = stablehlo.constant dense<[3.0, 4.0]> : tensor<2xf32>
    %s = stablehlo.add %v, %b : tensor<2xf32>
    %t = stablehlo.add %s, %i : tensor<2xf32>
    %u = stablehlo.add %t, %k : tensor<2xf32>
    stablehlo.return %a, %u : tensor<f32>, tensor<2xf32>
  }
  return %r#1 : tensor<2xf32>
}

// -----

// Check that an op whose result is larger than its operands is hoisted by default and kept
// in the loop under hoist-size-inflation-ratio=1 (XLA HoistsInflatingByDefault, NoHoistInflating).
// CHECK-LABEL: func.func @inflating
// CHECK: stablehlo.iota
// CHECK: stablehlo.add
// CHECK: stablehlo.reduce
// CHECK: stablehlo.while
// RATIO-LABEL: func.func @inflating
// RATIO-NEXT: stablehlo.while
func.func @inflating(%x: tensor<f32>, %p: tensor<i1>) -> tensor<f32> {
  %r = stablehlo.while(%a = %x) : tensor<f32>
  cond {
    stablehlo.return %p : tensor<i1>
  } do {
    %i = stablehlo.iota dim = 0 : tensor<64x64xf32>
    %s = stablehlo.add %i, %i : tensor<64x64xf32>
    %one = stablehlo.constant dense<1.0> : tensor<f32>
    %m = stablehlo.reduce(%s init: %one) applies stablehlo.multiply across dimensions = [0, 1] : (tensor<64x64xf32>, tensor<f32>) -> tensor<f32>
    %n = stablehlo.add %m, %a : tensor<f32>
    stablehlo.return %n : tensor<f32>
  }
  return %r : tensor<f32>
}

// -----

// Check that a loop that runs once is left alone (XLA DoNotHoistOutOfSingleIteration).
// CHECK-LABEL: func.func @single_iteration
// CHECK-NEXT: stablehlo.constant
// CHECK-NEXT: stablehlo.while
// CHECK: stablehlo.add
func.func @single_iteration(%x: tensor<2xf32>) -> tensor<2xf32> {
  %c0 = stablehlo.constant dense<0> : tensor<i32>
  %r:3 = stablehlo.while(%i = %c0, %a = %x, %v = %x) : tensor<i32>, tensor<2xf32>, tensor<2xf32>
  cond {
    %one = stablehlo.constant dense<1> : tensor<i32>
    %q = stablehlo.compare LT, %i, %one, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %q : tensor<i1>
  } do {
    %one = stablehlo.constant dense<1> : tensor<i32>
    %i1 = stablehlo.add %i, %one : tensor<i32>
    %s = stablehlo.add %a, %a : tensor<2xf32>
    stablehlo.return %i1, %a, %s : tensor<i32>, tensor<2xf32>, tensor<2xf32>
  }
  return %r#2 : tensor<2xf32>
}

// -----

// Check that an inner loop of invariant inputs leaves a loop of unknown trip count only
// through its ops, never as a whole (it may not terminate), and leaves a loop of known trip
// count as a whole.
// CHECK-LABEL: func.func @nested_loop
// CHECK-NEXT: stablehlo.while
// CHECK: stablehlo.while
// CHECK-LABEL: func.func @nested_loop_known
// CHECK: stablehlo.while(%{{.*}} = %arg0)
// CHECK: stablehlo.multiply
// CHECK: stablehlo.while(%{{.*}} = %c
func.func @nested_loop(%x: tensor<f32>, %p: tensor<i1>, %q: tensor<i1>) -> tensor<f32> {
  %r:2 = stablehlo.while(%a = %x, %v = %x) : tensor<f32>, tensor<f32>
  cond {
    stablehlo.return %p : tensor<i1>
  } do {
    %w = stablehlo.while(%b = %a) : tensor<f32>
    cond {
      stablehlo.return %q : tensor<i1>
    } do {
      %m = stablehlo.multiply %b, %b : tensor<f32>
      stablehlo.return %m : tensor<f32>
    }
    %s = stablehlo.add %v, %w : tensor<f32>
    stablehlo.return %a, %s : tensor<f32>, tensor<f32>
  }
  return %r#1 : tensor<f32>
}
func.func @nested_loop_known(%x: tensor<f32>, %q: tensor<i1>) -> tensor<f32> {
  %c0 = stablehlo.constant dense<0> : tensor<i32>
  %r:3 = stablehlo.while(%i = %c0, %a = %x, %v = %x) : tensor<i32>, tensor<f32>, tensor<f32>
  cond {
    %n = stablehlo.constant dense<3> : tensor<i32>
    %lt = stablehlo.compare LT, %i, %n, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %lt : tensor<i1>
  } do {
    %one = stablehlo.constant dense<1> : tensor<i32>
    %i1 = stablehlo.add %i, %one : tensor<i32>
    %w = stablehlo.while(%b = %a) : tensor<f32>
    cond {
      stablehlo.return %q : tensor<i1>
    } do {
      %m = stablehlo.multiply %b, %b : tensor<f32>
      stablehlo.return %m : tensor<f32>
    }
    %s = stablehlo.add %v, %w : tensor<f32>
    stablehlo.return %i1, %a, %s : tensor<i32>, tensor<f32>, tensor<f32>
  }
  return %r#2 : tensor<f32>
}

// -----

// Check that a value captured from above is invariant, and that the frontend attribute
// _xla_disable_loop_instr_hoisting keeps a loop as it is.
// CHECK-LABEL: func.func @captured_and_disabled
// CHECK: %[[E:.*]] = stablehlo.exponential %arg0
// CHECK-NEXT: stablehlo.while
// CHECK: stablehlo.while
// CHECK: stablehlo.exponential
func.func @captured_and_disabled(%x: tensor<f32>, %p: tensor<i1>) -> (tensor<f32>, tensor<f32>) {
  %r = stablehlo.while(%a = %x) : tensor<f32>
  cond {
    stablehlo.return %p : tensor<i1>
  } do {
    %e = stablehlo.exponential %x : tensor<f32>
    %s = stablehlo.add %a, %e : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }
  %t = stablehlo.while(%a = %x) : tensor<f32> attributes {mhlo.frontend_attributes = {_xla_disable_loop_instr_hoisting = "true"}}
  cond {
    stablehlo.return %p : tensor<i1>
  } do {
    %e = stablehlo.exponential %x : tensor<f32>
    %s = stablehlo.add %a, %e : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }
  return %r, %t : tensor<f32>, tensor<f32>
}

// -----

// Check that a global load (rng-expander's state, updated in the loop) and a constant
// expression stay in the loop; an op of a loop-invariant value and a constant leaves.
// CHECK-LABEL: func.func @global_state_and_constant_expression
// CHECK: %[[M:.*]] = stablehlo.multiply %arg0
// CHECK: stablehlo.while
// CHECK: do {
// CHECK: ml_program.global_load @state
// CHECK: stablehlo.subtract
// CHECK: ml_program.global_store @state
ml_program.global private mutable @state(dense<0.0> : tensor<f32>) : tensor<f32>
func.func @global_state_and_constant_expression(%x: tensor<f32>, %p: tensor<i1>) -> tensor<f32> {
  %r = stablehlo.while(%a = %x) : tensor<f32>
  cond {
    stablehlo.return %p : tensor<i1>
  } do {
    %g = ml_program.global_load @state : tensor<f32>
    %one = stablehlo.constant dense<1.0> : tensor<f32>
    %two = stablehlo.constant dense<2.0> : tensor<f32>
    %d = stablehlo.subtract %two, %one : tensor<f32>
    %m = stablehlo.multiply %x, %two : tensor<f32>
    %s = stablehlo.add %g, %d : tensor<f32>
    ml_program.global_store @state = %s : tensor<f32>
    %t = stablehlo.add %a, %m : tensor<f32>
    stablehlo.return %t : tensor<f32>
  }
  return %r : tensor<f32>
}
