// RUN: %hlo-opt %s -p slice-sinker --split-input-file | filecheck %s

// Check that selects on adjacent slices of the same three sources become one select on
// the sources and two slices of it (XLA SliceSinkerTest TernaryOperation).
// CHECK-LABEL: func.func @ternary
// CHECK: %[[S:.*]] = stablehlo.select %arg0, %arg1, %arg2 : tensor<8x9xi1>, tensor<8x9xf32>
// CHECK: %[[A:.*]] = stablehlo.slice %[[S]] [0:2, 0:9]
// CHECK: %[[B:.*]] = stablehlo.slice %[[S]] [2:8, 0:9]
// CHECK-NOT: stablehlo.select
// CHECK: return %[[A]], %[[B]]
func.func @ternary(%p0: tensor<8x9xi1>, %p1: tensor<8x9xf32>, %p2: tensor<8x9xf32>) -> (tensor<2x9xf32>, tensor<6x9xf32>) {
  %s00 = stablehlo.slice %p0 [0:2, 0:9] : (tensor<8x9xi1>) -> tensor<2x9xi1>
  %s01 = stablehlo.slice %p0 [2:8, 0:9] : (tensor<8x9xi1>) -> tensor<6x9xi1>
  %s10 = stablehlo.slice %p1 [0:2, 0:9] : (tensor<8x9xf32>) -> tensor<2x9xf32>
  %s11 = stablehlo.slice %p1 [2:8, 0:9] : (tensor<8x9xf32>) -> tensor<6x9xf32>
  %s20 = stablehlo.slice %p2 [0:2, 0:9] : (tensor<8x9xf32>) -> tensor<2x9xf32>
  %s21 = stablehlo.slice %p2 [2:8, 0:9] : (tensor<8x9xf32>) -> tensor<6x9xf32>
  %sel0 = stablehlo.select %s00, %s10, %s20 : tensor<2x9xi1>, tensor<2x9xf32>
  %sel1 = stablehlo.select %s01, %s11, %s21 : tensor<6x9xi1>, tensor<6x9xf32>
  return %sel0, %sel1 : tensor<2x9xf32>, tensor<6x9xf32>
}

// -----

// Check that overlapping slices, strided ones included, sink when together they cover as
// many elements as a source (XLA OverlappingMultipleSlices), and that two groups on the
// same sources sink separately (XLA SameSliceSourcesTwoPeerGroups, SlicesWithMultiUsers).
// CHECK-LABEL: func.func @overlapping_and_two_groups
// CHECK-DAG: %[[ADD:.*]] = stablehlo.add %arg0, %arg1 : tensor<8x9xf32>
// CHECK-DAG: %[[MUL:.*]] = stablehlo.multiply %arg0, %arg1 : tensor<8x9xf32>
// CHECK-DAG: %[[A0:.*]] = stablehlo.slice %[[ADD]] [0:2, 0:9]
// CHECK-DAG: %[[A1:.*]] = stablehlo.slice %[[ADD]] [3:8, 0:9]
// CHECK-DAG: %[[A2:.*]] = stablehlo.slice %[[ADD]] [0:8:2, 0:9]
// CHECK-DAG: %[[M0:.*]] = stablehlo.slice %[[MUL]] [0:2, 0:9]
// CHECK-DAG: %[[M1:.*]] = stablehlo.slice %[[MUL]] [3:8, 0:9]
// CHECK-DAG: %[[M2:.*]] = stablehlo.slice %[[MUL]] [0:8:2, 0:9]
// CHECK: return %[[A0]], %[[A1]], %[[A2]], %[[M0]], %[[M1]], %[[M2]]
func.func @overlapping_and_two_groups(%p0: tensor<8x9xf32>, %p1: tensor<8x9xf32>)
    -> (tensor<2x9xf32>, tensor<5x9xf32>, tensor<4x9xf32>, tensor<2x9xf32>, tensor<5x9xf32>, tensor<4x9xf32>) {
  %s00 = stablehlo.slice %p0 [0:2, 0:9] : (tensor<8x9xf32>) -> tensor<2x9xf32>
  %s01 = stablehlo.slice %p0 [3:8, 0:9] : (tensor<8x9xf32>) -> tensor<5x9xf32>
  %s02 = stablehlo.slice %p0 [0:8:2, 0:9] : (tensor<8x9xf32>) -> tensor<4x9xf32>
  %s10 = stablehlo.slice %p1 [0:2, 0:9] : (tensor<8x9xf32>) -> tensor<2x9xf32>
  %s11 = stablehlo.slice %p1 [3:8, 0:9] : (tensor<8x9xf32>) -> tensor<5x9xf32>
  %s12 = stablehlo.slice %p1 [0:8:2, 0:9] : (tensor<8x9xf32>) -> tensor<4x9xf32>
  %add0 = stablehlo.add %s00, %s10 : tensor<2x9xf32>
  %add1 = stablehlo.add %s01, %s11 : tensor<5x9xf32>
  %add2 = stablehlo.add %s02, %s12 : tensor<4x9xf32>
  %mul0 = stablehlo.multiply %s00, %s10 : tensor<2x9xf32>
  %mul1 = stablehlo.multiply %s01, %s11 : tensor<5x9xf32>
  %mul2 = stablehlo.multiply %s02, %s12 : tensor<4x9xf32>
  return %add0, %add1, %add2, %mul0, %mul1, %mul2 : tensor<2x9xf32>, tensor<5x9xf32>, tensor<4x9xf32>, tensor<2x9xf32>, tensor<5x9xf32>, tensor<4x9xf32>
}

// -----

// Check that disjoint slices covering less than a source stay (XLA DisjointedPartialSlices),
// as do ops whose operands swap sources (XLA DifferentOrderingOfSliceSources), ops of
// different names (XLA DifferentOperator) and compares of different directions (XLA
// SameOperatorDifferentAttributes).
// CHECK-LABEL: func.func @refused
// CHECK-NOT: stablehlo.add %arg0, %arg1
// CHECK-NOT: stablehlo.compare {{.*}} %arg0, %arg1
// CHECK-NOT: stablehlo.multiply %arg0, %arg1
// CHECK: return
func.func @refused(%p0: tensor<8x9xf32>, %p1: tensor<8x9xf32>)
    -> (tensor<2x9xf32>, tensor<5x9xf32>, tensor<6x9xf32>, tensor<2x9xi1>, tensor<6x9xi1>, tensor<2x9xf32>) {
  %s00 = stablehlo.slice %p0 [0:2, 0:9] : (tensor<8x9xf32>) -> tensor<2x9xf32>
  %s01 = stablehlo.slice %p0 [2:7, 0:9] : (tensor<8x9xf32>) -> tensor<5x9xf32>
  %s02 = stablehlo.slice %p0 [2:8, 0:9] : (tensor<8x9xf32>) -> tensor<6x9xf32>
  %s10 = stablehlo.slice %p1 [0:2, 0:9] : (tensor<8x9xf32>) -> tensor<2x9xf32>
  %s11 = stablehlo.slice %p1 [2:7, 0:9] : (tensor<8x9xf32>) -> tensor<5x9xf32>
  %s12 = stablehlo.slice %p1 [2:8, 0:9] : (tensor<8x9xf32>) -> tensor<6x9xf32>
  %add0 = stablehlo.add %s00, %s10 : tensor<2x9xf32>
  %add1 = stablehlo.add %s01, %s11 : tensor<5x9xf32>
  %swap = stablehlo.add %s12, %s02 : tensor<6x9xf32>
  %gt = stablehlo.compare GT, %s00, %s10 : (tensor<2x9xf32>, tensor<2x9xf32>) -> tensor<2x9xi1>
  %lt = stablehlo.compare LT, %s02, %s12 : (tensor<6x9xf32>, tensor<6x9xf32>) -> tensor<6x9xi1>
  %mul = stablehlo.multiply %s00, %s10 : tensor<2x9xf32>
  return %add0, %add1, %swap, %gt, %lt, %mul : tensor<2x9xf32>, tensor<5x9xf32>, tensor<6x9xf32>, tensor<2x9xi1>, tensor<6x9xi1>, tensor<2x9xf32>
}

// -----

// Check that slices of the same sources in different blocks stay apart, and that ops
// reading a slice and a whole value stay (XLA NonElementWise and friends).
// CHECK-LABEL: func.func @other_blocks
// CHECK-NOT: stablehlo.add %arg0, %arg0
// CHECK: return
func.func @other_blocks(%p: tensor<i1>, %x: tensor<4xf32>, %y: tensor<2xf32>) -> (tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) {
  %a = stablehlo.slice %x [0:2] : (tensor<4xf32>) -> tensor<2xf32>
  %b = stablehlo.slice %x [2:4] : (tensor<4xf32>) -> tensor<2xf32>
  %aa = stablehlo.add %a, %a : tensor<2xf32>
  %r = "stablehlo.if"(%p) ({
    %bb = stablehlo.add %b, %b : tensor<2xf32>
    stablehlo.return %bb : tensor<2xf32>
  }, {
    stablehlo.return %b : tensor<2xf32>
  }) : (tensor<i1>) -> tensor<2xf32>
  %ay = stablehlo.add %a, %y : tensor<2xf32>
  return %aa, %r, %ay : tensor<2xf32>, tensor<2xf32>, tensor<2xf32>
}
