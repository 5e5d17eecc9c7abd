// RUN: %hlo-opt %s -p canonicalize --split-input-file | filecheck %s

// Check that upstream canonicalization drops unused ops.
// CHECK-LABEL: func.func @dead
// CHECK-NOT: stablehlo.negate
// CHECK: return %arg0
func.func @dead(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = stablehlo.negate %x : tensor<4xf32>
  return %x : tensor<4xf32>
}

// -----

// Check that canonicalize keeps live StableHLO arithmetic (it has no StableHLO algebra; that is algsimp).
// CHECK-LABEL: func.func @live
// CHECK: stablehlo.multiply
func.func @live(%x: tensor<4xf32>) -> tensor<4xf32> {
  %c = stablehlo.constant dense<3.0> : tensor<4xf32>
  %0 = stablehlo.multiply %x, %c : tensor<4xf32>
  return %0 : tensor<4xf32>
}
