// RUN: %hlo-opt %s -p map-inliner --split-input-file | filecheck %s

// Check that a body of one element-wise op on the arguments becomes that op on the
// operands, in the body's operand order.
// CHECK-LABEL: func.func @binary
// CHECK-NOT: stablehlo.map
// CHECK: %[[S:.*]] = stablehlo.subtract %arg1, %arg0 : tensor<2x3xf32>
// CHECK: return %[[S]]
func.func @binary(%x: tensor<2x3xf32>, %y: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %m = "stablehlo.map"(%x, %y) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = stablehlo.subtract %b, %a : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) {dimensions = array<i64: 0, 1>} : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  return %m : tensor<2x3xf32>
}

// -----

// Check that attributes and a new element type carry over (compare gives i1).
// CHECK-LABEL: func.func @compare
// CHECK-NOT: stablehlo.map
// CHECK: stablehlo.compare GE, %arg0, %arg0, SIGNED : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi1>
func.func @compare(%x: tensor<4xi32>) -> tensor<4xi1> {
  %m = "stablehlo.map"(%x) ({
  ^bb0(%a: tensor<i32>):
    %s = stablehlo.compare GE, %a, %a, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %s : tensor<i1>
  }) {dimensions = array<i64: 0>} : (tensor<4xi32>) -> tensor<4xi1>
  return %m : tensor<4xi1>
}

// -----

// Check that a body constant the op reads is broadcast to the map's shape.
// CHECK-LABEL: func.func @scalar_constant
// CHECK-NOT: stablehlo.map
// CHECK: %[[C:.*]] = stablehlo.constant dense<2.000000e+00> : tensor<f32>
// CHECK: %[[B:.*]] = stablehlo.broadcast_in_dim %[[C]], dims = [] : (tensor<f32>) -> tensor<3xf32>
// CHECK: stablehlo.multiply %[[B]], %arg0 : tensor<3xf32>
func.func @scalar_constant(%x: tensor<3xf32>) -> tensor<3xf32> {
  %m = "stablehlo.map"(%x) ({
  ^bb0(%a: tensor<f32>):
    %two = stablehlo.constant dense<2.0> : tensor<f32>
    %s = stablehlo.multiply %two, %a : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) {dimensions = array<i64: 0>} : (tensor<3xf32>) -> tensor<3xf32>
  return %m : tensor<3xf32>
}

// -----

// Check that a body returning an argument is that operand, and a body returning a
// constant is its broadcast (map-invariant-body's rewrite).
// CHECK-LABEL: func.func @parameter_and_constant
// CHECK-NOT: stablehlo.map
// CHECK: %[[C:.*]] = stablehlo.constant dense<7> : tensor<i32>
// CHECK: %[[B:.*]] = stablehlo.broadcast_in_dim %[[C]], dims = [] : (tensor<i32>) -> tensor<2xi32>
// CHECK: return %arg1, %[[B]]
func.func @parameter_and_constant(%x: tensor<2xi32>, %y: tensor<2xi32>) -> (tensor<2xi32>, tensor<2xi32>) {
  %p = "stablehlo.map"(%x, %y) ({
  ^bb0(%a: tensor<i32>, %b: tensor<i32>):
    stablehlo.return %b : tensor<i32>
  }) {dimensions = array<i64: 0>} : (tensor<2xi32>, tensor<2xi32>) -> tensor<2xi32>
  %c = "stablehlo.map"(%x) ({
  ^bb0(%a: tensor<i32>):
    %seven = stablehlo.constant dense<7> : tensor<i32>
    stablehlo.return %seven : tensor<i32>
  }) {dimensions = array<i64: 0>} : (tensor<2xi32>) -> tensor<2xi32>
  return %p, %c : tensor<2xi32>, tensor<2xi32>
}

// -----

// Check that bodies of two ops, of a non-element-wise op, and a scalar in a map of dynamic
// shape stay maps.
// CHECK-LABEL: func.func @not_inlined
// CHECK-COUNT-3: stablehlo.map
func.func @not_inlined(%x: tensor<4xf32>, %d: tensor<?xf32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<?xf32>) {
  %two_ops = "stablehlo.map"(%x) ({
  ^bb0(%a: tensor<f32>):
    %s = stablehlo.multiply %a, %a : tensor<f32>
    %t = stablehlo.add %s, %a : tensor<f32>
    stablehlo.return %t : tensor<f32>
  }) {dimensions = array<i64: 0>} : (tensor<4xf32>) -> tensor<4xf32>
  %reshape = "stablehlo.map"(%x) ({
  ^bb0(%a: tensor<f32>):
    %r = stablehlo.reshape %a : (tensor<f32>) -> tensor<f32>
    stablehlo.return %r : tensor<f32>
  }) {dimensions = array<i64: 0>} : (tensor<4xf32>) -> tensor<4xf32>
  %dynamic = "stablehlo.map"(%d) ({
  ^bb0(%a: tensor<f32>):
    %one = stablehlo.constant dense<1.0> : tensor<f32>
    %s = stablehlo.add %a, %one : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) {dimensions = array<i64: 0>} : (tensor<?xf32>) -> tensor<?xf32>
  return %two_ops, %reshape, %dynamic : tensor<4xf32>, tensor<4xf32>, tensor<?xf32>
}
