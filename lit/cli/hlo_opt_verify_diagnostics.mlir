// Check that --verify-diagnostics matches expected-error comments (@+N, same line) and succeeds,
// printing the chunks that had no error.
// RUN: %hlo-opt %s --split-input-file --verify-diagnostics -p algsimp | filecheck %s
// CHECK-LABEL: func.func @fine
// CHECK-NOT: stablehlo.negate

func.func @fine(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = stablehlo.negate %x : tensor<4xf32>
  %1 = stablehlo.negate %0 : tensor<4xf32>
  return %1 : tensor<4xf32>
}

// -----

func.func @shape_mismatch(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'stablehlo.add' op requires the same shape for all operands and results}}
  %0 = stablehlo.add %x, %x : (tensor<4xf32>, tensor<4xf32>) -> tensor<3xf32>
  return %x : tensor<4xf32>
}

// -----

func.func @undeclared(%x: tensor<4xf32>) -> tensor<4xf32> {
  return %nope : tensor<4xf32> // expected-error {{use of undeclared SSA value name}}
}
