// RUN: %hlo-opt %s -p reduction-splitter --split-input-file | filecheck %s
// RUN: %hlo-opt %s -p 'reduction-splitter{reassociate=true}' --split-input-file | filecheck %s --check-prefix=REASSOC

// Check that a reduction neither from nor to contiguous dimensions reduces its largest
// dimension first (XLA ReductionSplitter), an exact integer sum.
// CHECK-LABEL: func.func @split
// CHECK: %[[P:.*]] = stablehlo.reduce(%arg0 init: %[[C:.*]]) applies stablehlo.add across dimensions = [2] : (tensor<8x3x16x5xi32>, tensor<i32>) -> tensor<8x3x5xi32>
// CHECK: %[[R:.*]] = stablehlo.reduce(%[[P]] init: %[[C]]) applies stablehlo.add across dimensions = [0] : (tensor<8x3x5xi32>, tensor<i32>) -> tensor<3x5xi32>
// CHECK: return %[[R]]
func.func @split(%x: tensor<8x3x16x5xi32>) -> tensor<3x5xi32> {
  %c = stablehlo.constant dense<0> : tensor<i32>
  %r = stablehlo.reduce(%x init: %c) applies stablehlo.add across dimensions = [0, 2] : (tensor<8x3x16x5xi32>, tensor<i32>) -> tensor<3x5xi32>
  return %r : tensor<3x5xi32>
}

// -----

// Check that three scattered reduced dimensions split until what is left is contiguous
// (float max: exact in any order, its init repeats safely).
// CHECK-LABEL: func.func @three
// CHECK: %[[P:.*]] = stablehlo.reduce(%arg0 init: %{{.*}}) applies stablehlo.maximum across dimensions = [4] : (tensor<2x3x4x5x6x7xf32>, tensor<f32>) -> tensor<2x3x4x5x7xf32>
// CHECK: %[[Q:.*]] = stablehlo.reduce(%[[P]] init: %{{.*}}) applies stablehlo.maximum across dimensions = [2] : (tensor<2x3x4x5x7xf32>, tensor<f32>) -> tensor<2x3x5x7xf32>
// CHECK: stablehlo.reduce(%[[Q]] init: %{{.*}}) applies stablehlo.maximum across dimensions = [0] : (tensor<2x3x5x7xf32>, tensor<f32>) -> tensor<3x5x7xf32>
func.func @three(%x: tensor<2x3x4x5x6x7xf32>) -> tensor<3x5x7xf32> {
  %c = stablehlo.constant dense<1.0> : tensor<f32>
  %r = stablehlo.reduce(%x init: %c) applies stablehlo.maximum across dimensions = [0, 2, 4] : (tensor<2x3x4x5x6x7xf32>, tensor<f32>) -> tensor<3x5x7xf32>
  return %r : tensor<3x5x7xf32>
}

// -----

// Check that a float sum splits only with reassociate=true.
// CHECK-LABEL: func.func @float_sum
// CHECK-COUNT-1: stablehlo.reduce
// CHECK-NOT: stablehlo.reduce
// REASSOC-LABEL: func.func @float_sum
// REASSOC-COUNT-2: stablehlo.reduce
func.func @float_sum(%x: tensor<8x3x16x5xf32>) -> tensor<3x5xf32> {
  %c = stablehlo.constant dense<0.0> : tensor<f32>
  %r = stablehlo.reduce(%x init: %c) applies stablehlo.add across dimensions = [0, 2] : (tensor<8x3x16x5xf32>, tensor<f32>) -> tensor<3x5xf32>
  return %r : tensor<3x5xf32>
}

// -----

// Check that an init that is not the identity of a non-idempotent reducer is not applied
// twice: no split, even with reassociate=true.
// CHECK-LABEL: func.func @init_once
// CHECK-COUNT-1: stablehlo.reduce
// REASSOC-LABEL: func.func @init_once
// REASSOC-COUNT-1: stablehlo.reduce
// REASSOC-NOT: stablehlo.reduce
func.func @init_once(%x: tensor<8x3x16x5xi32>) -> tensor<3x5xi32> {
  %c = stablehlo.constant dense<7> : tensor<i32>
  %r = stablehlo.reduce(%x init: %c) applies stablehlo.add across dimensions = [0, 2] : (tensor<8x3x16x5xi32>, tensor<i32>) -> tensor<3x5xi32>
  return %r : tensor<3x5xi32>
}

// -----

// Check that reductions from or to contiguous dimensions stay whole (XLA's reduction
// emitters handle them): reduced [0, 2] of a rank-3 operand keeps one dimension,
// reduced [1, 2] are adjacent.
// CHECK-LABEL: func.func @contiguous
// CHECK-COUNT-2: stablehlo.reduce
// CHECK-NOT: stablehlo.reduce
// REASSOC-LABEL: func.func @contiguous
// REASSOC-COUNT-2: stablehlo.reduce
// REASSOC-NOT: stablehlo.reduce
func.func @contiguous(%x: tensor<8x3x16xi32>) -> (tensor<3xi32>, tensor<8xi32>) {
  %c = stablehlo.constant dense<0> : tensor<i32>
  %r = stablehlo.reduce(%x init: %c) applies stablehlo.add across dimensions = [0, 2] : (tensor<8x3x16xi32>, tensor<i32>) -> tensor<3xi32>
  %s = stablehlo.reduce(%x init: %c) applies stablehlo.add across dimensions = [1, 2] : (tensor<8x3x16xi32>, tensor<i32>) -> tensor<8xi32>
  return %r, %s : tensor<3xi32>, tensor<8xi32>
}
