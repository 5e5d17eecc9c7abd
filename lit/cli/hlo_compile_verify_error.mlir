// RUN: not %hlo-compile %s -o %t.vmfb 2>&1 | filecheck %s

// Check that an op that fails its verifier is reported with its location.
// CHECK: hlo-compile: error:
// CHECK: hlo_compile_verify_error.mlir:{{[0-9]+}}:8: 'stablehlo.add' op requires the same shape for all operands and results
func.func @main(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = stablehlo.add %a, %a : (tensor<4xf32>, tensor<4xf32>) -> tensor<5xf32>
  return %a : tensor<4xf32>
}
