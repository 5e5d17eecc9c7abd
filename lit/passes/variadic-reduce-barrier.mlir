// RUN: %hlo-opt %s -p variadic-reduce-barrier --split-input-file | filecheck %s

// Check that an argmax whose index a transpose reads gets its results through one
// barrier (seed 20261127 program 785), the transpose reading the barrier's result.
// CHECK-LABEL: func.func @index_transposed
// CHECK: %[[R:.*]]:2 = stablehlo.reduce
// CHECK: %[[B:.*]]:2 = stablehlo.optimization_barrier %[[R]]#0, %[[R]]#1
// CHECK-NEXT: stablehlo.transpose %[[B]]#1, dims = [1, 0]
func.func @index_transposed(%x: tensor<2x2x4xf32>, %i: tensor<2x2x4xi32>) -> tensor<2x2xi32> {
  %ninf = stablehlo.constant dense<0xFF800000> : tensor<f32>
  %max = stablehlo.constant dense<2147483647> : tensor<i32>
  %r:2 = stablehlo.reduce(%x init: %ninf), (%i init: %max) across dimensions = [2] : (tensor<2x2x4xf32>, tensor<2x2x4xi32>, tensor<f32>, tensor<i32>) -> (tensor<2x2xf32>, tensor<2x2xi32>)
   reducer(%a: tensor<f32>, %b: tensor<f32>) (%ai: tensor<i32>, %bi: tensor<i32>)  {
    %gt = stablehlo.compare GT, %b, %a, TOTALORDER : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %v = stablehlo.select %gt, %b, %a : tensor<i1>, tensor<f32>
    %k = stablehlo.select %gt, %bi, %ai : tensor<i1>, tensor<i32>
    stablehlo.return %v, %k : tensor<f32>, tensor<i32>
  }
  %t = stablehlo.transpose %r#1, dims = [1, 0] : (tensor<2x2xi32>) -> tensor<2x2xi32>
  return %t : tensor<2x2xi32>
}

// -----

// Check that a permuting broadcast reached through an element-wise op counts too.
// CHECK-LABEL: func.func @negated_then_broadcast
// CHECK: stablehlo.reduce
// CHECK: stablehlo.optimization_barrier
// CHECK-NEXT: stablehlo.negate
// CHECK-NEXT: stablehlo.broadcast_in_dim %{{.*}}, dims = [1, 0]
func.func @negated_then_broadcast(%x: tensor<2x2x3xf32>, %y: tensor<2x2x3xf32>) -> tensor<2x2xf32> {
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  %r:2 = stablehlo.reduce(%x init: %z), (%y init: %z) across dimensions = [2] : (tensor<2x2x3xf32>, tensor<2x2x3xf32>, tensor<f32>, tensor<f32>) -> (tensor<2x2xf32>, tensor<2x2xf32>)
   reducer(%a: tensor<f32>, %b: tensor<f32>) (%c: tensor<f32>, %d: tensor<f32>)  {
    %s = stablehlo.add %a, %b : tensor<f32>
    %t = stablehlo.add %c, %d : tensor<f32>
    stablehlo.return %s, %t : tensor<f32>, tensor<f32>
  }
  %n = stablehlo.negate %r#0 : tensor<2x2xf32>
  %b = stablehlo.broadcast_in_dim %n, dims = [1, 0] : (tensor<2x2xf32>) -> tensor<2x2xf32>
  return %b : tensor<2x2xf32>
}

// -----

// Check that single-result reduces, and variadic reduces read by reshapes, slices,
// sorted broadcasts, identity transposes and element-wise ops only, are left alone.
// CHECK-LABEL: func.func @left_alone
// CHECK-NOT: stablehlo.optimization_barrier
// CHECK: return
func.func @left_alone(%x: tensor<2x3xf32>, %y: tensor<2x3xf32>) -> (tensor<3xf32>, tensor<4xf32>, tensor<2x1xf32>) {
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  %s = stablehlo.reduce(%x init: %z) applies stablehlo.add across dimensions = [0] : (tensor<2x3xf32>, tensor<f32>) -> tensor<3xf32>
  %t = stablehlo.transpose %s, dims = [0] : (tensor<3xf32>) -> tensor<3xf32>
  %r:2 = stablehlo.reduce(%x init: %z), (%y init: %z) across dimensions = [1] : (tensor<2x3xf32>, tensor<2x3xf32>, tensor<f32>, tensor<f32>) -> (tensor<2xf32>, tensor<2xf32>)
   reducer(%a: tensor<f32>, %b: tensor<f32>) (%c: tensor<f32>, %d: tensor<f32>)  {
    %p = stablehlo.add %a, %b : tensor<f32>
    %q = stablehlo.add %c, %d : tensor<f32>
    stablehlo.return %p, %q : tensor<f32>, tensor<f32>
  }
  %n = stablehlo.negate %r#0 : tensor<2xf32>
  %c = stablehlo.concatenate %n, %r#1, dim = 0 : (tensor<2xf32>, tensor<2xf32>) -> tensor<4xf32>
  %m = stablehlo.reshape %r#1 : (tensor<2xf32>) -> tensor<2x1xf32>
  %k = stablehlo.broadcast_in_dim %m, dims = [0, 1] : (tensor<2x1xf32>) -> tensor<2x1xf32>
  return %t, %c, %k : tensor<3xf32>, tensor<4xf32>, tensor<2x1xf32>
}
