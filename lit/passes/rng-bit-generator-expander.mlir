// RUN: %hlo-opt %s -p rng-bit-generator-expander --split-input-file | filecheck %s
// RUN: %hlo-opt %s -p "rng-bit-generator-expander{only=PHILOX}" --split-input-file | filecheck %s --check-prefix=PHILOX

// With only=PHILOX (what iree-legalize runs: the pinned IREE's own THREE_FRY is right, its
// PHILOX is not), THREE_FRY stays and PHILOX and DEFAULT (PHILOX by default) expand.
// PHILOX-LABEL: func.func @three_fry
// PHILOX: stablehlo.rng_bit_generator %arg0, algorithm = THREE_FRY
// PHILOX-LABEL: func.func @philox
// PHILOX-NOT: stablehlo.rng_bit_generator
// PHILOX-LABEL: func.func @default_two_words
// PHILOX-NOT: stablehlo.rng_bit_generator
// PHILOX-LABEL: func.func @empty

// Check that THREE_FRY becomes Threefry-2x32 in integer ops: counters from the state's
// second word plus an iota over half of the output, the rotations and key schedule, the
// two words of each block paired along a new axis, the counter advanced by the blocks.
// CHECK-LABEL: func.func @three_fry
// CHECK-NOT: stablehlo.rng_bit_generator
// CHECK: %[[KEY:.*]] = stablehlo.slice %arg0 [0:1]
// CHECK: %[[CTR:.*]] = stablehlo.slice %arg0 [1:2]
// CHECK: stablehlo.iota dim = 0 : tensor<9xui64>
// CHECK: stablehlo.constant dense<466688986> : tensor<ui32>
// CHECK: stablehlo.shift_left
// CHECK: stablehlo.shift_right_logical
// CHECK: stablehlo.concatenate {{.*}}, dim = 1 : (tensor<3x1x3xui32>, tensor<3x1x3xui32>) -> tensor<3x2x3xui32>
// CHECK: stablehlo.slice {{.*}} [0:5, 0:3] : (tensor<6x3xui32>) -> tensor<5x3xui32>
// CHECK: stablehlo.constant dense<9> : tensor<ui64>
// CHECK: stablehlo.concatenate {{.*}} dim = 0 : (tensor<1xui64>, tensor<1xui64>) -> tensor<2xui64>
func.func @three_fry(%s: tensor<2xui64>) -> (tensor<2xui64>, tensor<5x3xui32>) {
  %s2, %bits = stablehlo.rng_bit_generator %s, algorithm = THREE_FRY : (tensor<2xui64>) -> (tensor<2xui64>, tensor<5x3xui32>)
  return %s2, %bits : tensor<2xui64>, tensor<5x3xui32>
}

// -----

// Check that PHILOX with a 3-word state counts in 128 bits over (s[1], s[2]) with a carry,
// runs the Philox-4x32 multipliers, lays the four words of a block side by side, keeps
// the low 16 bits of each and bitcasts them to f16; the new state has three words.
// CHECK-LABEL: func.func @philox
// CHECK-NOT: stablehlo.rng_bit_generator
// CHECK: stablehlo.slice %arg0 [1:2]
// CHECK: stablehlo.slice %arg0 [2:3]
// CHECK: stablehlo.iota dim = 0 : tensor<2xui64>
// CHECK: stablehlo.compare LT
// CHECK: stablehlo.constant dense<3528531795> : tensor<ui64>
// CHECK: stablehlo.constant dense<3449720151> : tensor<ui64>
// CHECK: stablehlo.concatenate {{.*}} dim = 1 : (tensor<2x1xui32>, tensor<2x1xui32>, tensor<2x1xui32>, tensor<2x1xui32>) -> tensor<2x4xui32>
// CHECK: stablehlo.slice {{.*}} [0:6] : (tensor<8xui32>) -> tensor<6xui32>
// CHECK: stablehlo.convert {{.*}} -> tensor<6xui16>
// CHECK: stablehlo.bitcast_convert {{.*}} -> tensor<6xf16>
// CHECK: stablehlo.concatenate {{.*}} dim = 0 : (tensor<1xui64>, tensor<1xui64>, tensor<1xui64>) -> tensor<3xui64>
func.func @philox(%s: tensor<3xui64>) -> (tensor<3xui64>, tensor<6xf16>) {
  %s2, %bits = stablehlo.rng_bit_generator %s, algorithm = PHILOX : (tensor<3xui64>) -> (tensor<3xui64>, tensor<6xf16>)
  return %s2, %bits : tensor<3xui64>, tensor<6xf16>
}

// -----

// Check that DEFAULT is PHILOX (XLA CPU's) and that a 2-word state uses the key as the
// counter's high word and keeps a 2-word state.
// CHECK-LABEL: func.func @default_two_words
// CHECK-NOT: stablehlo.rng_bit_generator
// CHECK: stablehlo.constant dense<3528531795> : tensor<ui64>
// CHECK: stablehlo.concatenate {{.*}} dim = 0 : (tensor<1xui64>, tensor<1xui64>) -> tensor<2xui64>
func.func @default_two_words(%s: tensor<2xui64>) -> (tensor<2xui64>, tensor<3xi64>) {
  %s2, %bits = stablehlo.rng_bit_generator %s, algorithm = DEFAULT : (tensor<2xui64>) -> (tensor<2xui64>, tensor<3xi64>)
  return %s2, %bits : tensor<2xui64>, tensor<3xi64>
}

// -----

// Check that an empty output is a constant and leaves the state as it was.
// CHECK-LABEL: func.func @empty
// CHECK-NOT: stablehlo.rng_bit_generator
// CHECK: %[[E:.*]] = stablehlo.constant dense<> : tensor<2x0xui32>
// CHECK: return %arg0, %[[E]]
func.func @empty(%s: tensor<2xui64>) -> (tensor<2xui64>, tensor<2x0xui32>) {
  %s2, %bits = stablehlo.rng_bit_generator %s, algorithm = THREE_FRY : (tensor<2xui64>) -> (tensor<2xui64>, tensor<2x0xui32>)
  return %s2, %bits : tensor<2xui64>, tensor<2x0xui32>
}

// -----

// Check that sub-byte outputs are left alone (XLA draws them from 32-bit numbers; nothing
// here converts to 4 bits).
// CHECK-LABEL: func.func @left_alone
// CHECK: stablehlo.rng_bit_generator {{.*}} -> (tensor<2xui64>, tensor<4xui4>)
func.func @left_alone(%s: tensor<2xui64>) -> tensor<4xui4> {
  %s2, %bits = stablehlo.rng_bit_generator %s, algorithm = THREE_FRY : (tensor<2xui64>) -> (tensor<2xui64>, tensor<4xui4>)
  return %bits : tensor<4xui4>
}
