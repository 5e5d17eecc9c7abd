// RUN: %hlo-opt %s -p root-instruction-sinker --split-input-file | filecheck %s

// Check that an array root that a side effect follows gets a bitcast at the end of the
// schedule and of the block (XLA RootInstructionSinkerTest Nontuple).
// CHECK: module attributes {hlo.schedule = {main = ["add", "effect", "bitcast"]}}
// CHECK-LABEL: func.func @main
// CHECK: %[[A:.*]] = stablehlo.add
// CHECK: stablehlo.custom_call @effect
// CHECK: %[[B:.*]] = stablehlo.bitcast_convert %[[A]] {hlo.name = "bitcast"} : (tensor<2xf32>) -> tensor<2xf32>
// CHECK-NEXT: return %[[B]]
module attributes {hlo.schedule = {main = ["add", "effect"]}} {
  func.func @main(%x: tensor<2xf32>, %y: tensor<2xf32>) -> tensor<2xf32> {
    %r = stablehlo.add %x, %y {hlo.name = "add"} : tensor<2xf32>
    %e = stablehlo.custom_call @effect(%x) {has_side_effect = true, hlo.name = "effect"} : (tensor<2xf32>) -> tensor<2xf32>
    return %r : tensor<2xf32>
  }
}

// -----

// Check that a tuple root becomes a tuple of its elements, named uniquely
// (XLA RootInstructionSinkerTest Tuple).
// CHECK: hlo.schedule = {main = ["tuple", "mul", "get_tuple_element", "get_tuple_element.1", "tuple.1"]}
// CHECK-LABEL: func.func @main
// CHECK: %[[T:.*]] = stablehlo.tuple %arg0, %arg1 {hlo.name = "tuple"}
// CHECK: stablehlo.multiply
// CHECK: %[[G0:.*]] = stablehlo.get_tuple_element %[[T]][0] {hlo.name = "get_tuple_element"}
// CHECK: %[[G1:.*]] = stablehlo.get_tuple_element %[[T]][1] {hlo.name = "get_tuple_element.1"}
// CHECK: %[[N:.*]] = stablehlo.tuple %[[G0]], %[[G1]] {hlo.name = "tuple.1"}
// CHECK-NEXT: return %[[N]]
module attributes {hlo.schedule = {main = ["tuple", "mul"]}} {
  func.func @main(%x: tensor<2xf32>, %y: tensor<i32>) -> tuple<tensor<2xf32>, tensor<i32>> {
    %t = stablehlo.tuple %x, %y {hlo.name = "tuple"} : tuple<tensor<2xf32>, tensor<i32>>
    %m = stablehlo.multiply %x, %x {hlo.name = "mul"} : tensor<2xf32>
    return %t : tuple<tensor<2xf32>, tensor<i32>>
  }
}

// -----

// Check that a root already last in the schedule stays as it is, even when the block
// order differs (XLA RootInstructionSinkerTest NontupleNoChange).
// CHECK-LABEL: func.func @main
// CHECK-NOT: bitcast_convert
// CHECK: return
module attributes {hlo.schedule = {main = ["neg", "exp"]}} {
  func.func @main(%x: tensor<2xf32>) -> tensor<2xf32> {
    %e = stablehlo.exponential %x {hlo.name = "exp"} : tensor<2xf32>
    %n = stablehlo.negate %x {hlo.name = "neg"} : tensor<2xf32>
    return %e : tensor<2xf32>
  }
}

// -----

// Check that a module without a schedule, a function of several results and a function
// returning its argument are left alone (the return is last by construction).
// CHECK-LABEL: func.func @unscheduled
// CHECK-NOT: bitcast_convert
// CHECK: return %{{.*}}, %{{.*}} : tensor<2xf32>, tensor<2xf32>
func.func @unscheduled(%x: tensor<2xf32>) -> (tensor<2xf32>, tensor<2xf32>) {
  %n = stablehlo.negate %x : tensor<2xf32>
  %e = stablehlo.exponential %x : tensor<2xf32>
  return %n, %e : tensor<2xf32>, tensor<2xf32>
}

// -----

// CHECK-LABEL: func.func @main
// CHECK-NOT: bitcast_convert
// CHECK: return %arg0
module attributes {hlo.schedule = {main = ["neg"]}} {
  func.func @main(%x: tensor<2xf32>) -> tensor<2xf32> {
    %n = stablehlo.negate %x {hlo.name = "neg"} : tensor<2xf32>
    return %x : tensor<2xf32>
  }
}
