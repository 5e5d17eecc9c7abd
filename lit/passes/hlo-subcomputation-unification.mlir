// RUN: %hlo-opt %s -p hlo-subcomputation-unification --split-input-file | filecheck %s

// Check that identical private functions (other names, other instruction names and
// locations) merge into the first, and the calls follow.
// CHECK-LABEL: func.func @identical
// CHECK: call @f(%arg0)
// CHECK: call @f(%arg1)
// CHECK-LABEL: func.func private @f(
// CHECK-NOT: func.func private @g(
func.func @identical(%x: tensor<4xf32>, %y: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %a = call @f(%x) : (tensor<4xf32>) -> tensor<4xf32>
  %b = call @g(%y) : (tensor<4xf32>) -> tensor<4xf32>
  return %a, %b : tensor<4xf32>, tensor<4xf32>
}
func.func private @f(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = stablehlo.add %x, %x {hlo.name = "add.1"} : tensor<4xf32>
  return %0 : tensor<4xf32>
}
func.func private @g(%z: tensor<4xf32>) -> tensor<4xf32> {
  %0 = stablehlo.add %z, %z {hlo.name = "add.2"} : tensor<4xf32> loc("g.py":3:1)
  return %0 : tensor<4xf32>
}

// -----

// Check that functions calling identical functions merge once those have merged.
// CHECK-LABEL: func.func @nested
// CHECK-COUNT-2: call @outer_a(
// CHECK-LABEL: func.func private @outer_a(
// CHECK: call @inner_a(
// CHECK-NOT: @outer_b
// CHECK-NOT: @inner_b
func.func @nested(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %a = call @outer_a(%x) : (tensor<4xf32>) -> tensor<4xf32>
  %b = call @outer_b(%x) : (tensor<4xf32>) -> tensor<4xf32>
  return %a, %b : tensor<4xf32>, tensor<4xf32>
}
func.func private @outer_a(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = call @inner_a(%x) : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
func.func private @outer_b(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = call @inner_b(%x) : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
func.func private @inner_a(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = stablehlo.tanh %x : tensor<4xf32>
  return %0 : tensor<4xf32>
}
func.func private @inner_b(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = stablehlo.tanh %x : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// Check that functions differing in an op, an operand order, a constant, an attribute or
// a type stay apart, and that public functions and declarations are never merged.
// CHECK-LABEL: func.func @different
// CHECK: call @sub_xy(
// CHECK: call @sub_yx(
// CHECK: call @c1(
// CHECK: call @c2(
// CHECK: call @lt(
// CHECK: call @gt(
// CHECK: call @pub(
// CHECK: call @pub2(
// CHECK: call @decl1(
// CHECK: call @decl2(
// CHECK-COUNT-10: func.func
func.func @different(%x: tensor<4xf32>, %y: tensor<4xf32>) -> tensor<4xf32> {
  %0 = call @sub_xy(%x, %y) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %1 = call @sub_yx(%x, %y) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %2 = call @c1(%x) : (tensor<4xf32>) -> tensor<4xf32>
  %3 = call @c2(%x) : (tensor<4xf32>) -> tensor<4xf32>
  %4 = call @lt(%x, %y) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  %5 = call @gt(%x, %y) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  %6 = call @pub(%x) : (tensor<4xf32>) -> tensor<4xf32>
  %7 = call @pub2(%x) : (tensor<4xf32>) -> tensor<4xf32>
  %8 = call @decl1(%x) : (tensor<4xf32>) -> tensor<4xf32>
  %9 = call @decl2(%x) : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
func.func private @sub_xy(%x: tensor<4xf32>, %y: tensor<4xf32>) -> tensor<4xf32> {
  %0 = stablehlo.subtract %x, %y : tensor<4xf32>
  return %0 : tensor<4xf32>
}
func.func private @sub_yx(%x: tensor<4xf32>, %y: tensor<4xf32>) -> tensor<4xf32> {
  %0 = stablehlo.subtract %y, %x : tensor<4xf32>
  return %0 : tensor<4xf32>
}
func.func private @c1(%x: tensor<4xf32>) -> tensor<4xf32> {
  %c = stablehlo.constant dense<1.0> : tensor<4xf32>
  %0 = stablehlo.add %x, %c : tensor<4xf32>
  return %0 : tensor<4xf32>
}
func.func private @c2(%x: tensor<4xf32>) -> tensor<4xf32> {
  %c = stablehlo.constant dense<2.0> : tensor<4xf32>
  %0 = stablehlo.add %x, %c : tensor<4xf32>
  return %0 : tensor<4xf32>
}
func.func private @lt(%x: tensor<4xf32>, %y: tensor<4xf32>) -> tensor<4xi1> {
  %0 = stablehlo.compare LT, %x, %y : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  return %0 : tensor<4xi1>
}
func.func private @gt(%x: tensor<4xf32>, %y: tensor<4xf32>) -> tensor<4xi1> {
  %0 = stablehlo.compare GT, %x, %y : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  return %0 : tensor<4xi1>
}
func.func @pub(%x: tensor<4xf32>) -> tensor<4xf32> {
  return %x : tensor<4xf32>
}
func.func @pub2(%x: tensor<4xf32>) -> tensor<4xf32> {
  return %x : tensor<4xf32>
}
func.func private @decl1(%x: tensor<4xf32>) -> tensor<4xf32>
func.func private @decl2(%x: tensor<4xf32>) -> tensor<4xf32>
