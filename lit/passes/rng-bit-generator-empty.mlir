// RUN: %hlo-opt %s -p rng-bit-generator-empty --split-input-file | filecheck %s

// Check that a generator with an empty output returns its state and an empty constant.
// CHECK-LABEL: func.func @empty
// CHECK-NOT: stablehlo.rng_bit_generator
// CHECK: %[[E:.*]] = stablehlo.constant dense<> : tensor<0x6xui32>
// CHECK-NEXT: return %arg0, %[[E]]
func.func @empty(%s: tensor<2xui64>) -> (tensor<2xui64>, tensor<0x6xui32>) {
  %s2, %x = stablehlo.rng_bit_generator %s, algorithm = THREE_FRY : (tensor<2xui64>) -> (tensor<2xui64>, tensor<0x6xui32>)
  return %s2, %x : tensor<2xui64>, tensor<0x6xui32>
}

// -----

// Check that a generator with elements to draw is left alone.
// CHECK-LABEL: func.func @not_empty
// CHECK: stablehlo.rng_bit_generator %arg0, algorithm = PHILOX
func.func @not_empty(%s: tensor<3xui64>) -> (tensor<3xui64>, tensor<1x6xui32>) {
  %s2, %x = stablehlo.rng_bit_generator %s, algorithm = PHILOX : (tensor<3xui64>) -> (tensor<3xui64>, tensor<1x6xui32>)
  return %s2, %x : tensor<3xui64>, tensor<1x6xui32>
}
