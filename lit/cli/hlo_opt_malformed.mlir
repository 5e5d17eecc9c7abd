// Check that malformed MLIR reports file:line:col of the error and exits with code 3 (no output).
// RUN: %exitcode %hlo-opt %s -p algsimp 2>&1 | filecheck %s
// CHECK-NOT: module
// CHECK: hlo_opt_malformed.mlir:[[# @LINE + 5]]:10: error: use of undeclared SSA value name
// CHECK: exit code: 3

func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = stablehlo.negate %x : tensor<4xf32>
  return %y : tensor<4xf32>
}
