// RUN: %hlo-opt %s -p sort-duplicate-operands --split-input-file | filecheck %s

// Check that a value given twice is sorted once, its comparator arguments and results shared.
// CHECK-LABEL: func.func @repeated
// CHECK: %[[S:.*]]:2 = "stablehlo.sort"(%arg0, %arg1)
// CHECK-SAME: is_stable = true
// CHECK-NEXT: ^bb0(%[[A0:.*]]: tensor<f32>, %[[A1:.*]]: tensor<f32>, %[[B0:.*]]: tensor<i32>, %[[B1:.*]]: tensor<i32>):
// CHECK-NEXT: stablehlo.compare GT, %[[A0]], %[[A1]]
// CHECK-NEXT: stablehlo.compare LT, %[[A0]], %[[A1]]
// CHECK: return %[[S]]#0, %[[S]]#1, %[[S]]#0
func.func @repeated(%a: tensor<5xf32>, %b: tensor<5xi32>) -> (tensor<5xf32>, tensor<5xi32>, tensor<5xf32>) {
  %r:3 = "stablehlo.sort"(%a, %b, %a) <{dimension = 0 : i64, is_stable = true}> ({
  ^bb0(%a0: tensor<f32>, %a1: tensor<f32>, %b0: tensor<i32>, %b1: tensor<i32>, %c0: tensor<f32>, %c1: tensor<f32>):
    %x = stablehlo.compare GT, %a0, %a1 : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %y = stablehlo.compare LT, %c0, %c1 : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %z = stablehlo.and %x, %y : tensor<i1>
    stablehlo.return %z : tensor<i1>
  }) : (tensor<5xf32>, tensor<5xi32>, tensor<5xf32>) -> (tensor<5xf32>, tensor<5xi32>, tensor<5xf32>)
  return %r#0, %r#1, %r#2 : tensor<5xf32>, tensor<5xi32>, tensor<5xf32>
}

// -----

// Check that a sort of distinct values is left alone.
// CHECK-LABEL: func.func @distinct
// CHECK: %{{.*}}:2 = "stablehlo.sort"(%arg0, %arg1)
// CHECK: }) : (tensor<5xf32>, tensor<5xf32>) -> (tensor<5xf32>, tensor<5xf32>)
func.func @distinct(%a: tensor<5xf32>, %b: tensor<5xf32>) -> tensor<5xf32> {
  %r:2 = "stablehlo.sort"(%a, %b) <{dimension = 0 : i64, is_stable = false}> ({
  ^bb0(%a0: tensor<f32>, %a1: tensor<f32>, %b0: tensor<f32>, %b1: tensor<f32>):
    %x = stablehlo.compare LT, %a0, %a1 : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %x : tensor<i1>
  }) : (tensor<5xf32>, tensor<5xf32>) -> (tensor<5xf32>, tensor<5xf32>)
  return %r#1 : tensor<5xf32>
}
