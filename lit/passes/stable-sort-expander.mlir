// RUN: %hlo-opt %s -p stable-sort-expander --split-input-file | filecheck %s

// Check that a stable sort gets a position operand along its dimension, a comparator that
// breaks ties by position (the original comparator cloned twice, arguments swapped in the
// second), is_stable = false, and that the position result is dropped.
// CHECK-LABEL: func.func @stable_keys_values
// CHECK: %[[POS:.*]] = stablehlo.iota dim = 1 : tensor<3x8xi32>
// CHECK: %[[S:.*]]:3 = "stablehlo.sort"(%arg0, %arg1, %[[POS]]) <{dimension = 1 : i64, is_stable = false}>
// CHECK: ^bb0(%[[A:.*]]: tensor<f32>, %[[B:.*]]: tensor<f32>, %{{.*}}: tensor<i8>, %{{.*}}: tensor<i8>, %[[I:.*]]: tensor<i32>, %[[J:.*]]: tensor<i32>):
// CHECK: %[[AB:.*]] = stablehlo.compare LT, %[[A]], %[[B]], TOTALORDER
// CHECK: %[[BA:.*]] = stablehlo.compare LT, %[[B]], %[[A]], TOTALORDER
// CHECK: %[[NBA:.*]] = stablehlo.not %[[BA]]
// CHECK: %[[IJ:.*]] = stablehlo.compare LT, %[[I]], %[[J]], SIGNED
// CHECK: %[[TIE:.*]] = stablehlo.and %[[NBA]], %[[IJ]]
// CHECK: %[[R:.*]] = stablehlo.or %[[AB]], %[[TIE]]
// CHECK: stablehlo.return %[[R]]
// CHECK: return %[[S]]#0, %[[S]]#1 : tensor<3x8xf32>, tensor<3x8xi8>
func.func @stable_keys_values(%k: tensor<3x8xf32>, %v: tensor<3x8xi8>) -> (tensor<3x8xf32>, tensor<3x8xi8>) {
  %0:2 = "stablehlo.sort"(%k, %v) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>, %c: tensor<i8>, %d: tensor<i8>):
    %1 = stablehlo.compare LT, %a, %b, TOTALORDER : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %1 : tensor<i1>
  }) {dimension = -1 : i64, is_stable = true} : (tensor<3x8xf32>, tensor<3x8xi8>) -> (tensor<3x8xf32>, tensor<3x8xi8>)
  return %0#0, %0#1 : tensor<3x8xf32>, tensor<3x8xi8>
}

// -----

// Check that an argsort (an s32 iota along the sort dimension among the operands) breaks
// ties by that iota and gets no second position operand; an iota along another dimension
// does not count.
// CHECK-LABEL: func.func @argsort
// CHECK: %[[I:.*]] = stablehlo.iota dim = 0 : tensor<6xi32>
// CHECK-NOT: stablehlo.iota
// CHECK: %[[S:.*]]:2 = "stablehlo.sort"(%arg0, %[[I]]) <{dimension = 0 : i64, is_stable = false}>
// CHECK: ^bb0(%[[A:.*]]: tensor<f32>, %[[B:.*]]: tensor<f32>, %[[P:.*]]: tensor<i32>, %[[Q:.*]]: tensor<i32>):
// CHECK: stablehlo.compare LT, %[[P]], %[[Q]], SIGNED
// CHECK: return %[[S]]#0, %[[S]]#1
// CHECK-LABEL: func.func @iota_along_other_dimension
// CHECK: %[[J:.*]] = stablehlo.iota dim = 0 : tensor<2x3xi32>
// CHECK: %[[POS:.*]] = stablehlo.iota dim = 1 : tensor<2x3xi32>
// CHECK: "stablehlo.sort"(%arg0, %[[J]], %[[POS]])
func.func @argsort(%k: tensor<6xf32>) -> (tensor<6xf32>, tensor<6xi32>) {
  %i = stablehlo.iota dim = 0 : tensor<6xi32>
  %0:2 = "stablehlo.sort"(%k, %i) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>, %c: tensor<i32>, %d: tensor<i32>):
    %1 = stablehlo.compare LT, %a, %b, TOTALORDER : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %1 : tensor<i1>
  }) {dimension = 0 : i64, is_stable = true} : (tensor<6xf32>, tensor<6xi32>) -> (tensor<6xf32>, tensor<6xi32>)
  return %0#0, %0#1 : tensor<6xf32>, tensor<6xi32>
}
func.func @iota_along_other_dimension(%k: tensor<2x3xf32>) -> (tensor<2x3xf32>, tensor<2x3xi32>) {
  %i = stablehlo.iota dim = 0 : tensor<2x3xi32>
  %0:2 = "stablehlo.sort"(%k, %i) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>, %c: tensor<i32>, %d: tensor<i32>):
    %1 = stablehlo.compare LT, %a, %b, TOTALORDER : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %1 : tensor<i1>
  }) {dimension = 1 : i64, is_stable = true} : (tensor<2x3xf32>, tensor<2x3xi32>) -> (tensor<2x3xf32>, tensor<2x3xi32>)
  return %0#0, %0#1 : tensor<2x3xf32>, tensor<2x3xi32>
}

// -----

// Check that unstable sorts are left alone.
// CHECK-LABEL: func.func @unstable
// CHECK-NOT: stablehlo.iota
// CHECK: "stablehlo.sort"(%arg0) <{dimension = 0 : i64, is_stable = false}>
func.func @unstable(%k: tensor<8xi32>) -> tensor<8xi32> {
  %0 = "stablehlo.sort"(%k) ({
  ^bb0(%a: tensor<i32>, %b: tensor<i32>):
    %1 = stablehlo.compare LT, %a, %b, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %1 : tensor<i1>
  }) {dimension = 0 : i64, is_stable = false} : (tensor<8xi32>) -> tensor<8xi32>
  return %0 : tensor<8xi32>
}

// -----

// Check that a stable sort of a dimension of one element (nothing to reorder) is left alone.
// CHECK-LABEL: func.func @single_element
// CHECK-NOT: stablehlo.iota
// CHECK: is_stable = true
func.func @single_element(%k: tensor<1x5xi32>) -> tensor<1x5xi32> {
  %0 = "stablehlo.sort"(%k) ({
  ^bb0(%a: tensor<i32>, %b: tensor<i32>):
    %1 = stablehlo.compare LT, %a, %b, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %1 : tensor<i1>
  }) {dimension = 0 : i64, is_stable = true} : (tensor<1x5xi32>) -> tensor<1x5xi32>
  return %0 : tensor<1x5xi32>
}
