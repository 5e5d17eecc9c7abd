// RUN: %hlo-opt %s -p flatten-call-graph --split-input-file | filecheck %s

// Check that a function called from two sites gets a copy for the second site, and that
// the callee it calls gets a copy too (the copy's call is a site of its own).
// CHECK-LABEL: func.func @two_sites
// CHECK: call @f(%arg0)
// CHECK: call @f_1(%arg1)
// CHECK-LABEL: func.func private @f(
// CHECK: call @g(
// CHECK-LABEL: func.func private @g(
// CHECK: stablehlo.add
// CHECK-LABEL: func.func private @f_1(
// CHECK: call @g_1(
// CHECK-LABEL: func.func private @g_1(
// CHECK: stablehlo.add
func.func @two_sites(%x: tensor<4xf32>, %y: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %a = call @f(%x) : (tensor<4xf32>) -> tensor<4xf32>
  %b = call @f(%y) : (tensor<4xf32>) -> tensor<4xf32>
  return %a, %b : tensor<4xf32>, tensor<4xf32>
}
func.func private @f(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = call @g(%x) : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
func.func private @g(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = stablehlo.add %x, %x : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// Check that a call inside a loop body counts as one site (a region is not copied), and
// that a function called once is left alone.
// CHECK-LABEL: func.func @loop_site
// CHECK: call @once(
// CHECK: stablehlo.while
// CHECK: call @twice(
// CHECK: call @twice_1(
// CHECK-NOT: @once_1
func.func @loop_site(%x: tensor<i32>) -> tensor<i32> {
  %c = call @once(%x) : (tensor<i32>) -> tensor<i32>
  %r = stablehlo.while(%i = %c) : tensor<i32>
  cond {
    %n = stablehlo.constant dense<5> : tensor<i32>
    %p = stablehlo.compare LT, %i, %n, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %p : tensor<i1>
  } do {
    %j = func.call @twice(%i) : (tensor<i32>) -> tensor<i32>
    stablehlo.return %j : tensor<i32>
  }
  %s = call @twice(%r) : (tensor<i32>) -> tensor<i32>
  return %s : tensor<i32>
}
func.func private @once(%x: tensor<i32>) -> tensor<i32> {
  return %x : tensor<i32>
}
func.func private @twice(%x: tensor<i32>) -> tensor<i32> {
  %one = stablehlo.constant dense<1> : tensor<i32>
  %0 = stablehlo.add %x, %one : tensor<i32>
  return %0 : tensor<i32>
}

// -----

// Check that a public function is never copied, even when called twice.
// CHECK-LABEL: func.func @public_callee
// CHECK-COUNT-2: call @helper(
// CHECK-NOT: @helper_1
func.func @public_callee(%x: tensor<4xf32>) -> tensor<4xf32> {
  %a = call @helper(%x) : (tensor<4xf32>) -> tensor<4xf32>
  %b = call @helper(%a) : (tensor<4xf32>) -> tensor<4xf32>
  return %b : tensor<4xf32>
}
func.func @helper(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = stablehlo.negate %x : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// Check that a recursive call graph is left as it is (a copy per site would never end).
// CHECK-LABEL: func.func @recursive
// CHECK-COUNT-2: call @r(
// CHECK-NOT: @r_1
func.func @recursive(%x: tensor<i32>) -> tensor<i32> {
  %a = call @r(%x) : (tensor<i32>) -> tensor<i32>
  %b = call @r(%a) : (tensor<i32>) -> tensor<i32>
  return %b : tensor<i32>
}
func.func private @r(%x: tensor<i32>) -> tensor<i32> {
  %0 = call @r(%x) : (tensor<i32>) -> tensor<i32>
  return %0 : tensor<i32>
}
