// RUN: %hlo-opt %s -p vulkan-bf16-reduce --split-input-file | filecheck %s

// Check that a bf16 sum is accumulated in f32 and rounded once.
// CHECK-LABEL: func.func @sum_bf16
// CHECK: %[[X:.*]] = stablehlo.convert %arg0 : (tensor<8x3xbf16>) -> tensor<8x3xf32>
// CHECK-NEXT: %[[I:.*]] = stablehlo.convert %{{.*}} : (tensor<bf16>) -> tensor<f32>
// CHECK-NEXT: %[[R:.*]] = stablehlo.reduce(%[[X]] init: %[[I]]) applies stablehlo.add across dimensions = [1] : (tensor<8x3xf32>, tensor<f32>) -> tensor<8xf32>
// CHECK-NEXT: %[[B:.*]] = stablehlo.convert %[[R]] : (tensor<8xf32>) -> tensor<8xbf16>
// CHECK-NEXT: return %[[B]]
func.func @sum_bf16(%x: tensor<8x3xbf16>) -> tensor<8xbf16> {
  %i = stablehlo.constant dense<0.0> : tensor<bf16>
  %0 = stablehlo.reduce(%x init: %i) applies stablehlo.add across dimensions = [1] : (tensor<8x3xbf16>, tensor<bf16>) -> tensor<8xbf16>
  return %0 : tensor<8xbf16>
}

// -----

// Check that a bf16 product is accumulated in f32 too.
// CHECK-LABEL: func.func @product_bf16
// CHECK: stablehlo.reduce(%{{.*}} init: %{{.*}}) applies stablehlo.multiply across dimensions = [0] : (tensor<4xf32>, tensor<f32>) -> tensor<f32>
func.func @product_bf16(%x: tensor<4xbf16>) -> tensor<bf16> {
  %i = stablehlo.constant dense<1.0> : tensor<bf16>
  %0 = stablehlo.reduce(%x init: %i) applies stablehlo.multiply across dimensions = [0] : (tensor<4xbf16>, tensor<bf16>) -> tensor<bf16>
  return %0 : tensor<bf16>
}

// -----

// Check that bf16 max and f32 sum reductions are left alone.
// CHECK-LABEL: func.func @left_alone
// CHECK: stablehlo.reduce(%arg0 init: %{{.*}}) applies stablehlo.maximum across dimensions = [0] : (tensor<4xbf16>, tensor<bf16>) -> tensor<bf16>
// CHECK: stablehlo.reduce(%arg1 init: %{{.*}}) applies stablehlo.add across dimensions = [0] : (tensor<4xf32>, tensor<f32>) -> tensor<f32>
func.func @left_alone(%x: tensor<4xbf16>, %y: tensor<4xf32>) -> (tensor<bf16>, tensor<f32>) {
  %i = stablehlo.constant dense<0.0> : tensor<bf16>
  %j = stablehlo.constant dense<0.0> : tensor<f32>
  %0 = stablehlo.reduce(%x init: %i) applies stablehlo.maximum across dimensions = [0] : (tensor<4xbf16>, tensor<bf16>) -> tensor<bf16>
  %1 = stablehlo.reduce(%y init: %j) applies stablehlo.add across dimensions = [0] : (tensor<4xf32>, tensor<f32>) -> tensor<f32>
  return %0, %1 : tensor<bf16>, tensor<f32>
}
