// Check that IR that parses but fails verification reports the op's location and exits with code 4.
// RUN: %exitcode %hlo-opt %s 2>&1 | filecheck %s
// CHECK: hlo_opt_invalid_ir.mlir:[[# @LINE + 4]]:8: error: 'stablehlo.add' op requires the same shape
// CHECK: exit code: 4

func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = stablehlo.add %x, %x : (tensor<4xf32>, tensor<4xf32>) -> tensor<3xf32>
  return %x : tensor<4xf32>
}
