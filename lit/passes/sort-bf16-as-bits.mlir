// RUN: %hlo-opt %s -p sort-bf16-as-bits --split-input-file | filecheck %s

// Check that bf16 operands are sorted as i16 bit patterns, the comparator gets its bf16
// values back, other operands and is_stable are kept, and the results are bitcast back.
// CHECK-LABEL: func.func @bf16_keys
// CHECK: %[[K:.*]] = stablehlo.bitcast_convert %arg0 : (tensor<6xbf16>) -> tensor<6xi16>
// CHECK: %[[S:.*]]:2 = "stablehlo.sort"(%[[K]], %arg1) <{dimension = 0 : i64, is_stable = true}>
// CHECK: ^bb0(%[[A:.*]]: tensor<i16>, %[[B:.*]]: tensor<i16>, %{{.*}}: tensor<i32>, %{{.*}}: tensor<i32>):
// CHECK: %[[FA:.*]] = stablehlo.bitcast_convert %[[A]] : (tensor<i16>) -> tensor<bf16>
// CHECK: %[[FB:.*]] = stablehlo.bitcast_convert %[[B]] : (tensor<i16>) -> tensor<bf16>
// CHECK: stablehlo.compare LT, %[[FA]], %[[FB]], TOTALORDER
// CHECK: %[[V:.*]] = stablehlo.bitcast_convert %[[S]]#0 : (tensor<6xi16>) -> tensor<6xbf16>
// CHECK: return %[[V]], %[[S]]#1
func.func @bf16_keys(%k: tensor<6xbf16>, %v: tensor<6xi32>) -> (tensor<6xbf16>, tensor<6xi32>) {
  %0:2 = "stablehlo.sort"(%k, %v) ({
  ^bb0(%a: tensor<bf16>, %b: tensor<bf16>, %c: tensor<i32>, %d: tensor<i32>):
    %1 = stablehlo.compare LT, %a, %b, TOTALORDER : (tensor<bf16>, tensor<bf16>) -> tensor<i1>
    stablehlo.return %1 : tensor<i1>
  }) {dimension = 0 : i64, is_stable = true} : (tensor<6xbf16>, tensor<6xi32>) -> (tensor<6xbf16>, tensor<6xi32>)
  return %0#0, %0#1 : tensor<6xbf16>, tensor<6xi32>
}

// -----

// Check that sorts without bf16 operands (f16 keeps its bits in IREE) are left alone.
// CHECK-LABEL: func.func @f16_keys
// CHECK-NOT: bitcast_convert
// CHECK: "stablehlo.sort"(%arg0)
func.func @f16_keys(%k: tensor<6xf16>) -> tensor<6xf16> {
  %0 = "stablehlo.sort"(%k) ({
  ^bb0(%a: tensor<f16>, %b: tensor<f16>):
    %1 = stablehlo.compare LT, %a, %b, TOTALORDER : (tensor<f16>, tensor<f16>) -> tensor<i1>
    stablehlo.return %1 : tensor<i1>
  }) {dimension = 0 : i64, is_stable = false} : (tensor<6xf16>) -> tensor<6xf16>
  return %0 : tensor<6xf16>
}
