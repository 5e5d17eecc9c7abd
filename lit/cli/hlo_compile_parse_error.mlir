// RUN: rm -f %t.vmfb
// RUN: not %hlo-compile %s -o %t.vmfb 2>&1 | filecheck %s
// RUN: not %python -c "import os, sys; sys.exit(not os.path.exists(sys.argv[1]))" %t.vmfb

// Check that malformed MLIR is an error naming the file, line and column, and that no
// output file is left behind.
// CHECK: hlo-compile: error: could not parse MLIR input:
// CHECK: error: {{.*}}hlo_compile_parse_error.mlir:[[# @LINE + 2]]:26: use of undeclared SSA value name
func.func @main(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = stablehlo.add %a, %b : tensor<4xf32>
  return %0 : tensor<4xf32>
}
