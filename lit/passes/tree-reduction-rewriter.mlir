// RUN: %hlo-opt %s -p tree-reduction-rewriter --split-input-file | filecheck %s

// Check that a long sum into a scalar becomes rows of 4096 reduced first, then the rest;
// the operand is padded with the init value when the window does not divide it.
// CHECK-LABEL: func.func @sum
// CHECK: %[[P:.*]] = stablehlo.pad %arg0, %[[Z:.*]], low = [0], high = [3104], interior = [0]
// CHECK: %[[R:.*]] = stablehlo.reshape %[[P]] : (tensor<303104xf32>) -> tensor<74x4096xf32>
// CHECK: %[[S:.*]] = stablehlo.reduce(%[[R]] init: %[[Z]]) applies stablehlo.add across dimensions = [1] : (tensor<74x4096xf32>, tensor<f32>) -> tensor<74xf32>
// CHECK: %[[T:.*]] = stablehlo.reduce(%[[S]] init: %[[Z]]) applies stablehlo.add across dimensions = [0] : (tensor<74xf32>, tensor<f32>) -> tensor<f32>
// CHECK: return %[[T]]
func.func @sum(%x: tensor<300000xf32>) -> tensor<f32> {
  %c0 = stablehlo.constant dense<0.0> : tensor<f32>
  %r = stablehlo.reduce(%x init: %c0) applies stablehlo.add across dimensions = [0] : (tensor<300000xf32>, tensor<f32>) -> tensor<f32>
  return %r : tensor<f32>
}

// -----

// Check that the kept dimensions stay in place: a max over the long dimension of 4 rows,
// and a column sum (the long dimension first).
// CHECK-LABEL: func.func @kept_dimensions
// CHECK: stablehlo.reshape %arg0 : (tensor<4x262144xi32>) -> tensor<4x64x4096xi32>
// CHECK: stablehlo.reduce({{.*}}) applies stablehlo.maximum across dimensions = [2] : (tensor<4x64x4096xi32>, tensor<i32>) -> tensor<4x64xi32>
// CHECK: stablehlo.reduce({{.*}}) applies stablehlo.maximum across dimensions = [1] : (tensor<4x64xi32>, tensor<i32>) -> tensor<4xi32>
// CHECK: stablehlo.reshape %arg1 : (tensor<131072x3xf32>) -> tensor<32x4096x3xf32>
// CHECK: stablehlo.reduce({{.*}}) applies stablehlo.add across dimensions = [1] : (tensor<32x4096x3xf32>, tensor<f32>) -> tensor<32x3xf32>
// CHECK: stablehlo.reduce({{.*}}) applies stablehlo.add across dimensions = [0] : (tensor<32x3xf32>, tensor<f32>) -> tensor<3xf32>
func.func @kept_dimensions(%y: tensor<4x262144xi32>, %z: tensor<131072x3xf32>) -> (tensor<4xi32>, tensor<3xf32>) {
  %m = stablehlo.constant dense<-2147483648> : tensor<i32>
  %r = stablehlo.reduce(%y init: %m) applies stablehlo.maximum across dimensions = [1] : (tensor<4x262144xi32>, tensor<i32>) -> tensor<4xi32>
  %c0 = stablehlo.constant dense<0.0> : tensor<f32>
  %s = stablehlo.reduce(%z init: %c0) applies stablehlo.add across dimensions = [0] : (tensor<131072x3xf32>, tensor<f32>) -> tensor<3xf32>
  return %r, %s : tensor<4xi32>, tensor<3xf32>
}

// -----

// Check that reductions are left alone when the init would count more than once (1.0 for
// an add), the dimension is short, or there are many results (they run in parallel already).
// CHECK-LABEL: func.func @refusals
// CHECK-NOT: stablehlo.reshape
// CHECK-COUNT-3: stablehlo.reduce
// CHECK-NOT: stablehlo.reduce
func.func @refusals(%x: tensor<300000xf32>, %short: tensor<60000xf32>, %wide: tensor<128x131072xf32>)
    -> (tensor<f32>, tensor<f32>, tensor<128xf32>) {
  %c1 = stablehlo.constant dense<1.0> : tensor<f32>
  %r = stablehlo.reduce(%x init: %c1) applies stablehlo.add across dimensions = [0] : (tensor<300000xf32>, tensor<f32>) -> tensor<f32>
  %c0 = stablehlo.constant dense<0.0> : tensor<f32>
  %s = stablehlo.reduce(%short init: %c0) applies stablehlo.add across dimensions = [0] : (tensor<60000xf32>, tensor<f32>) -> tensor<f32>
  %w = stablehlo.reduce(%wide init: %c0) applies stablehlo.add across dimensions = [1] : (tensor<128x131072xf32>, tensor<f32>) -> tensor<128xf32>
  return %r, %s, %w : tensor<f32>, tensor<f32>, tensor<128xf32>
}

// -----

// Check that a reduction over no dimension (each result is its element combined with the
// init) is left alone, not an error.
// CHECK-LABEL: func.func @no_dimensions
// CHECK: stablehlo.reduce(%arg0 init: %{{.*}}) applies stablehlo.add across dimensions = [] : (tensor<3xf32>, tensor<f32>) -> tensor<3xf32>
func.func @no_dimensions(%x: tensor<3xf32>) -> tensor<3xf32> {
  %c0 = stablehlo.constant dense<0.0> : tensor<f32>
  %r = stablehlo.reduce(%x init: %c0) applies stablehlo.add across dimensions = [] : (tensor<3xf32>, tensor<f32>) -> tensor<3xf32>
  return %r : tensor<3xf32>
}

// -----

// Check that a long reduction of a quantized type (no XLA dtype) is left alone.
// CHECK-LABEL: func.func @quantized
// CHECK-NOT: stablehlo.reshape
// CHECK: stablehlo.reduce(%arg0 init: %arg1) applies stablehlo.maximum across dimensions = [0]
func.func @quantized(%x: tensor<262144x!quant.uniform<i8:f32, 0.1:-3>>, %init: tensor<!quant.uniform<i8:f32, 0.1:-3>>) -> tensor<!quant.uniform<i8:f32, 0.1:-3>> {
  %r = stablehlo.reduce(%x init: %init) applies stablehlo.maximum across dimensions = [0] : (tensor<262144x!quant.uniform<i8:f32, 0.1:-3>>, tensor<!quant.uniform<i8:f32, 0.1:-3>>) -> tensor<!quant.uniform<i8:f32, 0.1:-3>>
  return %r : tensor<!quant.uniform<i8:f32, 0.1:-3>>
}
