// Check that --verify-diagnostics fails (exit 4) when an expected diagnostic is missing or an
// unexpected one appears, naming both.
// RUN: %exitcode %hlo-opt %s --split-input-file --verify-diagnostics 2>&1 | filecheck %s
// CHECK-DAG: hlo_opt_verify_diagnostics_mismatch.mlir:[[# @LINE + 6]]: expected error "this message is never produced" was not produced
// CHECK-DAG: unexpected error: {{.*}}hlo_opt_verify_diagnostics_mismatch.mlir:[[# @LINE + 12]]:8: error: 'stablehlo.add' op requires
// CHECK: exit code: 4

func.func @missing(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{this message is never produced}}
  %0 = stablehlo.negate %x : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @unexpected(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = stablehlo.add %x, %x : (tensor<4xf32>, tensor<4xf32>) -> tensor<3xf32>
  return %x : tensor<4xf32>
}
