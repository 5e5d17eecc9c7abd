// RUN: %hlo-opt %s -p rng-bit-generator-unsigned --split-input-file | filecheck %s

// Check that f64 bits are generated as ui64 and bitcast, keeping the algorithm and state.
// CHECK-LABEL: func.func @f64_bits
// CHECK: %[[S:.*]], %[[U:.*]] = stablehlo.rng_bit_generator %arg0, algorithm = PHILOX : (tensor<3xui64>) -> (tensor<3xui64>, tensor<4xui64>)
// CHECK: %[[F:.*]] = stablehlo.bitcast_convert %[[U]] : (tensor<4xui64>) -> tensor<4xf64>
// CHECK: return %[[S]], %[[F]]
func.func @f64_bits(%s: tensor<3xui64>) -> (tensor<3xui64>, tensor<4xf64>) {
  %ns, %bits = stablehlo.rng_bit_generator %s, algorithm = PHILOX : (tensor<3xui64>) -> (tensor<3xui64>, tensor<4xf64>)
  return %ns, %bits : tensor<3xui64>, tensor<4xf64>
}

// -----

// Check that bf16 bits become ui16.
// CHECK-LABEL: func.func @bf16_bits
// CHECK: stablehlo.rng_bit_generator %arg0, algorithm = THREE_FRY : (tensor<2xui64>) -> (tensor<2xui64>, tensor<2x2xui16>)
// CHECK: stablehlo.bitcast_convert %{{.*}} : (tensor<2x2xui16>) -> tensor<2x2xbf16>
func.func @bf16_bits(%s: tensor<2xui64>) -> (tensor<2xui64>, tensor<2x2xbf16>) {
  %ns, %bits = stablehlo.rng_bit_generator %s, algorithm = THREE_FRY : (tensor<2xui64>) -> (tensor<2xui64>, tensor<2x2xbf16>)
  return %ns, %bits : tensor<2xui64>, tensor<2x2xbf16>
}

// -----

// Check that integer outputs, which IREE compiles, are left alone.
// CHECK-LABEL: func.func @int_bits
// CHECK: stablehlo.rng_bit_generator %arg0, algorithm = THREE_FRY : (tensor<2xui64>) -> (tensor<2xui64>, tensor<4xi32>)
// CHECK-NOT: stablehlo.bitcast_convert
func.func @int_bits(%s: tensor<2xui64>) -> (tensor<2xui64>, tensor<4xi32>) {
  %ns, %bits = stablehlo.rng_bit_generator %s, algorithm = THREE_FRY : (tensor<2xui64>) -> (tensor<2xui64>, tensor<4xi32>)
  return %ns, %bits : tensor<2xui64>, tensor<4xi32>
}
