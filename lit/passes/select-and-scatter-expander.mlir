// RUN: %hlo-opt %s -p select-and-scatter-expander --split-input-file | filecheck %s

// Check that select_and_scatter becomes a reduce_window over (value, linear index) that keeps
// the earlier index unless select says otherwise or the later one is padding (index 6), then a
// scatter into 6 + 1 slots whose last slot is sliced off.
// CHECK-LABEL: func.func @max_pool_grad
// CHECK-NOT: stablehlo.select_and_scatter
// CHECK: %[[IOTA:.*]] = stablehlo.iota dim = 0 : tensor<6xi32>
// CHECK: %[[NONE:.*]] = stablehlo.constant dense<6> : tensor<i32>
// CHECK: %[[RW:.*]]:2 = "stablehlo.reduce_window"(%arg0, %[[IOTA]], %[[INIT:.*]], %[[NONE]])
// CHECK-SAME: padding = dense<{{\[}}[1, 2]]> : tensor<1x2xi64>
// CHECK-SAME: window_dimensions = array<i64: 3>, window_strides = array<i64: 3>
// CHECK: ^bb0(%[[AV:.*]]: tensor<f32>, %[[AI:.*]]: tensor<i32>, %[[BV:.*]]: tensor<f32>, %[[BI:.*]]: tensor<i32>):
// CHECK: %[[AFIRST:.*]] = stablehlo.compare LE, %[[AI]], %[[BI]], SIGNED
// CHECK: %[[FV:.*]] = stablehlo.select %[[AFIRST]], %[[AV]], %[[BV]]
// CHECK: %[[FI:.*]] = stablehlo.select %[[AFIRST]], %[[AI]], %[[BI]]
// CHECK: %[[SV:.*]] = stablehlo.select %[[AFIRST]], %[[BV]], %[[AV]]
// CHECK: %[[SI:.*]] = stablehlo.select %[[AFIRST]], %[[BI]], %[[AI]]
// CHECK: %[[SEL:.*]] = stablehlo.compare GE, %[[FV]], %[[SV]]
// CHECK: %[[PAD:.*]] = stablehlo.compare EQ, %[[SI]], %{{.*}}, SIGNED
// CHECK: %[[KEEP:.*]] = stablehlo.or %[[SEL]], %[[PAD]]
// CHECK: stablehlo.return
// CHECK: %[[FLAT:.*]] = stablehlo.broadcast_in_dim %[[INIT]], dims = [] : (tensor<f32>) -> tensor<7xf32>
// CHECK: %[[IDX:.*]] = stablehlo.reshape %[[RW]]#1 : (tensor<3xi32>) -> tensor<3x1xi32>
// CHECK: %[[SC:.*]] = "stablehlo.scatter"(%[[FLAT]], %[[IDX]], %arg1)
// CHECK: stablehlo.add
// CHECK: %[[OUT:.*]] = stablehlo.slice %[[SC]] [0:6]
// CHECK: return %[[OUT]]
func.func @max_pool_grad(%operand: tensor<6xf32>, %source: tensor<3xf32>) -> tensor<6xf32> {
  %init = stablehlo.constant dense<0.0> : tensor<f32>
  %r = "stablehlo.select_and_scatter"(%operand, %source, %init) ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %c = stablehlo.compare GE, %a, %b : (tensor<f32>, tensor<f32>) -> tensor<i1>
      stablehlo.return %c : tensor<i1>
  }, {
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %s = stablehlo.add %a, %b : tensor<f32>
      stablehlo.return %s : tensor<f32>
  }) {window_dimensions = array<i64: 3>, window_strides = array<i64: 3>,
      padding = dense<[[1, 2]]> : tensor<1x2xi64>} : (tensor<6xf32>, tensor<3xf32>, tensor<f32>) -> tensor<6xf32>
  return %r : tensor<6xf32>
}

// -----

// Check that a rank-2 operand is indexed through a flat iota and the result reshaped back.
// CHECK-LABEL: func.func @rank2
// CHECK: %[[IOTA:.*]] = stablehlo.iota dim = 0 : tensor<12xi32>
// CHECK: stablehlo.reshape %[[IOTA]] : (tensor<12xi32>) -> tensor<3x4xi32>
// CHECK: "stablehlo.scatter"
// CHECK: %[[S:.*]] = stablehlo.slice %{{.*}} [0:12]
// CHECK: stablehlo.reshape %[[S]] : (tensor<12xi32>) -> tensor<3x4xi32>
func.func @rank2(%operand: tensor<3x4xi32>, %source: tensor<1x2xi32>) -> tensor<3x4xi32> {
  %init = stablehlo.constant dense<0> : tensor<i32>
  %r = "stablehlo.select_and_scatter"(%operand, %source, %init) ({
    ^bb0(%a: tensor<i32>, %b: tensor<i32>):
      %c = stablehlo.compare GE, %a, %b : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %c : tensor<i1>
  }, {
    ^bb0(%a: tensor<i32>, %b: tensor<i32>):
      %s = stablehlo.add %a, %b : tensor<i32>
      stablehlo.return %s : tensor<i32>
  }) {window_dimensions = array<i64: 3, 2>, window_strides = array<i64: 3, 2>} : (tensor<3x4xi32>, tensor<1x2xi32>, tensor<i32>) -> tensor<3x4xi32>
  return %r : tensor<3x4xi32>
}

// -----

// Check that an empty source leaves the init value everywhere, with no scatter.
// CHECK-LABEL: func.func @empty_source
// CHECK-NOT: stablehlo.scatter
// CHECK: %[[B:.*]] = stablehlo.broadcast_in_dim %{{.*}}, dims = [] : (tensor<f32>) -> tensor<2xf32>
// CHECK: return %[[B]]
func.func @empty_source(%operand: tensor<2xf32>, %source: tensor<0xf32>) -> tensor<2xf32> {
  %init = stablehlo.constant dense<0.0> : tensor<f32>
  %r = "stablehlo.select_and_scatter"(%operand, %source, %init) ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %c = stablehlo.compare GE, %a, %b : (tensor<f32>, tensor<f32>) -> tensor<i1>
      stablehlo.return %c : tensor<i1>
  }, {
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %s = stablehlo.add %a, %b : tensor<f32>
      stablehlo.return %s : tensor<f32>
  }) {window_dimensions = array<i64: 3>} : (tensor<2xf32>, tensor<0xf32>, tensor<f32>) -> tensor<2xf32>
  return %r : tensor<2xf32>
}

// -----

// Check that other window ops are left alone.
// CHECK-LABEL: func.func @reduce_window_untouched
// CHECK: "stablehlo.reduce_window"(%arg0, %{{.*}})
// CHECK-NOT: stablehlo.scatter
func.func @reduce_window_untouched(%x: tensor<6xf32>) -> tensor<2xf32> {
  %init = stablehlo.constant dense<0.0> : tensor<f32>
  %r = "stablehlo.reduce_window"(%x, %init) ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %s = stablehlo.add %a, %b : tensor<f32>
      stablehlo.return %s : tensor<f32>
  }) {window_dimensions = array<i64: 3>, window_strides = array<i64: 3>} : (tensor<6xf32>, tensor<f32>) -> tensor<2xf32>
  return %r : tensor<2xf32>
}
