// RUN: %hlo-opt %s -p map-invariant-body --split-input-file | filecheck %s

// Check that a map whose body returns a constant becomes a broadcast of that constant,
// and that body ops the value does not depend on are not copied.
// CHECK-LABEL: func.func @constant_body
// CHECK-NOT: stablehlo.map
// CHECK-NOT: stablehlo.compare
// CHECK: %[[C:.*]] = stablehlo.constant dense<4.000000e+00> : tensor<f32>
// CHECK-NEXT: %[[B:.*]] = stablehlo.broadcast_in_dim %[[C]], dims = [] : (tensor<f32>) -> tensor<3x6xf32>
// CHECK-NEXT: return %[[B]]
func.func @constant_body(%x: tensor<3x6xf32>) -> tensor<3x6xf32> {
  %m = "stablehlo.map"(%x) <{dimensions = array<i64: 0, 1>}> ({
  ^bb0(%a: tensor<f32>):
    %c = stablehlo.constant dense<4.0> : tensor<f32>
    %u = stablehlo.compare NE, %c, %a, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %c : tensor<f32>
  }) : (tensor<3x6xf32>) -> tensor<3x6xf32>
  return %m : tensor<3x6xf32>
}

// -----

// Check that a body computing from constants and a captured value is copied out in order.
// CHECK-LABEL: func.func @captured
// CHECK: %[[C:.*]] = stablehlo.constant dense<2> : tensor<i32>
// CHECK-NEXT: %[[S:.*]] = stablehlo.multiply %[[C]], %arg1 : tensor<i32>
// CHECK-NEXT: %[[B:.*]] = stablehlo.broadcast_in_dim %[[S]], dims = [] : (tensor<i32>) -> tensor<4xi32>
// CHECK-NEXT: return %[[B]]
func.func @captured(%x: tensor<4xi32>, %y: tensor<i32>) -> tensor<4xi32> {
  %m = "stablehlo.map"(%x, %x) <{dimensions = array<i64: 0>}> ({
  ^bb0(%a: tensor<i32>, %b: tensor<i32>):
    %c = stablehlo.constant dense<2> : tensor<i32>
    %s = stablehlo.multiply %c, %y : tensor<i32>
    stablehlo.return %s : tensor<i32>
  }) : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  return %m : tensor<4xi32>
}

// -----

// Check that maps whose value reads an argument, directly or through another op, stay.
// CHECK-LABEL: func.func @reads_arguments
// CHECK-COUNT-2: stablehlo.map
// CHECK-NOT: stablehlo.broadcast_in_dim
func.func @reads_arguments(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %m = "stablehlo.map"(%x, %x) <{dimensions = array<i64: 0>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    stablehlo.return %b : tensor<f32>
  }) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %n = "stablehlo.map"(%x) <{dimensions = array<i64: 0>}> ({
  ^bb0(%a: tensor<f32>):
    %c = stablehlo.constant dense<4.0> : tensor<f32>
    %s = stablehlo.add %c, %a : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) : (tensor<4xf32>) -> tensor<4xf32>
  return %m, %n : tensor<4xf32>, tensor<4xf32>
}
