// RUN: %hlo-opt %s -p reduction-degenerate-dim-remover --split-input-file | filecheck %s

// Check that size-1 dimensions go from the operand, reduced and kept alike, and that a
// kept size-1 dimension comes back by a reshape of the result.
// CHECK-LABEL: func.func @reduced_and_kept_units
// CHECK: %[[X:.*]] = stablehlo.reshape %arg0 : (tensor<1x4x5x1xf32>) -> tensor<4x5xf32>
// CHECK: %[[R:.*]] = stablehlo.reduce(%[[X]] init: %{{.*}}) applies stablehlo.add across dimensions = [1] : (tensor<4x5xf32>, tensor<f32>) -> tensor<4xf32>
// CHECK: %[[B:.*]] = stablehlo.reshape %[[R]] : (tensor<4xf32>) -> tensor<4x1xf32>
// CHECK: return %[[B]]
func.func @reduced_and_kept_units(%x: tensor<1x4x5x1xf32>) -> tensor<4x1xf32> {
  %c = stablehlo.constant dense<0.0> : tensor<f32>
  %r = stablehlo.reduce(%x init: %c) applies stablehlo.add across dimensions = [0, 2] : (tensor<1x4x5x1xf32>, tensor<f32>) -> tensor<4x1xf32>
  return %r : tensor<4x1xf32>
}

// -----

// Check that a reduce over size-1 dimensions only, whose init is the reducer's identity
// (-0.0 for a float add), becomes a reshape (XLA's bitcast).
// CHECK-LABEL: func.func @identity_init
// CHECK-NOT: stablehlo.reduce
// CHECK: %[[B:.*]] = stablehlo.reshape %arg0 : (tensor<1x3x1xf32>) -> tensor<3xf32>
// CHECK: return %[[B]]
func.func @identity_init(%x: tensor<1x3x1xf32>) -> tensor<3xf32> {
  %c = stablehlo.constant dense<-0.0> : tensor<f32>
  %r = stablehlo.reduce(%x init: %c) applies stablehlo.add across dimensions = [0, 2] : (tensor<1x3x1xf32>, tensor<f32>) -> tensor<3xf32>
  return %r : tensor<3xf32>
}

// -----

// Check that with any other init one size-1 reduced dimension stays, so that the init is
// still applied once (XLA's bitcast would drop it: +0.0 + -0.0 is +0.0, not -0.0).
// CHECK-LABEL: func.func @other_init
// CHECK: %[[X:.*]] = stablehlo.reshape %arg0 : (tensor<1x3x1xi32>) -> tensor<1x3xi32>
// CHECK: stablehlo.reduce(%[[X]] init: %{{.*}}) applies stablehlo.maximum across dimensions = [0] : (tensor<1x3xi32>, tensor<i32>) -> tensor<3xi32>
func.func @other_init(%x: tensor<1x3x1xi32>) -> tensor<3xi32> {
  %c = stablehlo.constant dense<5> : tensor<i32>
  %r = stablehlo.reduce(%x init: %c) applies stablehlo.maximum across dimensions = [0, 2] : (tensor<1x3x1xi32>, tensor<i32>) -> tensor<3xi32>
  return %r : tensor<3xi32>
}

// -----

// Check that a variadic reduce (an argmax) has every operand reshaped and every result
// reshaped back.
// CHECK-LABEL: func.func @variadic
// CHECK-DAG: %[[X:.*]] = stablehlo.reshape %arg0 : (tensor<1x4x1xf32>) -> tensor<4xf32>
// CHECK-DAG: %[[I:.*]] = stablehlo.reshape %arg1 : (tensor<1x4x1xi32>) -> tensor<4xi32>
// CHECK: %[[R:.*]]:2 = stablehlo.reduce(%[[X]] init: %{{.*}}), (%[[I]] init: %{{.*}}) across dimensions = [0] : (tensor<4xf32>, tensor<4xi32>, tensor<f32>, tensor<i32>) -> (tensor<f32>, tensor<i32>)
// CHECK-DAG: stablehlo.reshape %[[R]]#0 : (tensor<f32>) -> tensor<1x1xf32>
// CHECK-DAG: stablehlo.reshape %[[R]]#1 : (tensor<i32>) -> tensor<1x1xi32>
func.func @variadic(%x: tensor<1x4x1xf32>, %i: tensor<1x4x1xi32>) -> (tensor<1x1xf32>, tensor<1x1xi32>) {
  %c = stablehlo.constant dense<0xFF800000> : tensor<f32>
  %z = stablehlo.constant dense<0> : tensor<i32>
  %r:2 = stablehlo.reduce(%x init: %c), (%i init: %z) across dimensions = [1] : (tensor<1x4x1xf32>, tensor<1x4x1xi32>, tensor<f32>, tensor<i32>) -> (tensor<1x1xf32>, tensor<1x1xi32>)
    reducer(%a: tensor<f32>, %b: tensor<f32>) (%ai: tensor<i32>, %bi: tensor<i32>) {
      %ge = stablehlo.compare GE, %a, %b : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %m = stablehlo.select %ge, %a, %b : tensor<i1>, tensor<f32>
      %mi = stablehlo.select %ge, %ai, %bi : tensor<i1>, tensor<i32>
      stablehlo.return %m, %mi : tensor<f32>, tensor<i32>
    }
  return %r#0, %r#1 : tensor<1x1xf32>, tensor<1x1xi32>
}

// -----

// Check that a reduce without size-1 dimensions is left alone, and so is one whose only
// size-1 dimension is the one reduced dimension (nothing would go).
// CHECK-LABEL: func.func @nothing_to_drop
// CHECK-NOT: stablehlo.reshape
// CHECK: stablehlo.reduce(%arg0 init: %{{.*}}) applies stablehlo.add across dimensions = [1] : (tensor<2x3xf32>, tensor<f32>) -> tensor<2xf32>
// CHECK: stablehlo.reduce(%arg1 init: %{{.*}}) applies stablehlo.add across dimensions = [1] : (tensor<2x1xf32>, tensor<f32>) -> tensor<2xf32>
func.func @nothing_to_drop(%x: tensor<2x3xf32>, %y: tensor<2x1xf32>) -> (tensor<2xf32>, tensor<2xf32>) {
  %c = stablehlo.constant dense<1.0> : tensor<f32>
  %r = stablehlo.reduce(%x init: %c) applies stablehlo.add across dimensions = [1] : (tensor<2x3xf32>, tensor<f32>) -> tensor<2xf32>
  %s = stablehlo.reduce(%y init: %c) applies stablehlo.add across dimensions = [1] : (tensor<2x1xf32>, tensor<f32>) -> tensor<2xf32>
  return %r, %s : tensor<2xf32>, tensor<2xf32>
}

// -----

// Check that a reduce of a dynamic shape is left alone.
// CHECK-LABEL: func.func @dynamic
// CHECK-NOT: stablehlo.reshape
func.func @dynamic(%x: tensor<1x?xf32>) -> tensor<?xf32> {
  %c = stablehlo.constant dense<0.0> : tensor<f32>
  %r = stablehlo.reduce(%x init: %c) applies stablehlo.add across dimensions = [0] : (tensor<1x?xf32>, tensor<f32>) -> tensor<?xf32>
  return %r : tensor<?xf32>
}
