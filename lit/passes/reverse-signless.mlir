// RUN: %hlo-opt %s -p reverse-signless --split-input-file | filecheck %s

// Check that an unsigned reverse goes through the signless integers of its bits.
// CHECK-LABEL: func.func @unsigned
// CHECK-NEXT: %[[B:.*]] = stablehlo.bitcast_convert %arg0 : (tensor<2x3xui16>) -> tensor<2x3xi16>
// CHECK-NEXT: %[[V:.*]] = stablehlo.reverse %[[B]], dims = [1] : tensor<2x3xi16>
// CHECK-NEXT: %[[R:.*]] = stablehlo.bitcast_convert %[[V]] : (tensor<2x3xi16>) -> tensor<2x3xui16>
// CHECK-NEXT: return %[[R]]
func.func @unsigned(%a: tensor<2x3xui16>) -> tensor<2x3xui16> {
  %0 = stablehlo.reverse %a, dims = [1] : tensor<2x3xui16>
  return %0 : tensor<2x3xui16>
}

// -----

// Check that a reverse of a rank-0 tensor or of no dimensions is its operand.
// CHECK-LABEL: func.func @empty
// CHECK-NOT: stablehlo.reverse
// CHECK: return %arg0, %arg1
func.func @empty(%b: tensor<f32>, %c: tensor<3xui8>) -> (tensor<f32>, tensor<3xui8>) {
  %0 = stablehlo.reverse %b, dims = [] : tensor<f32>
  %1 = stablehlo.reverse %c, dims = [] : tensor<3xui8>
  return %0, %1 : tensor<f32>, tensor<3xui8>
}

// -----

// Check that a signed or float reverse is left alone.
// CHECK-LABEL: func.func @left_alone
// CHECK-NEXT: %[[F:.*]] = stablehlo.reverse %arg0, dims = [0] : tensor<3xf32>
// CHECK-NEXT: %[[I:.*]] = stablehlo.reverse %arg1, dims = [0] : tensor<3xi8>
// CHECK-NEXT: return %[[F]], %[[I]]
func.func @left_alone(%c: tensor<3xf32>, %d: tensor<3xi8>) -> (tensor<3xf32>, tensor<3xi8>) {
  %0 = stablehlo.reverse %c, dims = [0] : tensor<3xf32>
  %1 = stablehlo.reverse %d, dims = [0] : tensor<3xi8>
  return %0, %1 : tensor<3xf32>, tensor<3xi8>
}
