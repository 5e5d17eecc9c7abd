// RUN: %hlo-opt %s -p widen-sub-byte-integers --split-input-file | filecheck %s

// Check that s4 values become i8, an add is re-wrapped to 4 bits (sign-extended), and the
// public function records its XLA program shape.
// CHECK-LABEL: func.func @add_s4
// CHECK-SAME: (%[[A:.+]]: tensor<5xi8>, %[[B:.+]]: tensor<5xi8>) -> tensor<5xi8>
// CHECK-SAME: hlo_mlir.program_shape = "(s4[5], s4[5]) -> (s4[5])"
// CHECK: %[[S:.+]] = stablehlo.add %[[A]], %[[B]] : tensor<5xi8>
// CHECK: %[[L:.+]] = stablehlo.shift_left %[[S]], %{{.+}} : tensor<5xi8>
// CHECK: %[[R:.+]] = stablehlo.shift_right_arithmetic %[[L]], %{{.+}} : tensor<5xi8>
// CHECK: return %[[R]]
// CHECK-NOT: i4
func.func @add_s4(%a: tensor<5xi4>, %b: tensor<5xi4>) -> tensor<5xi4> {
  %0 = stablehlo.add %a, %b : tensor<5xi4>
  return %0 : tensor<5xi4>
}

// -----

// Check that u2 arithmetic is masked to 2 bits and constants are widened.
// CHECK-LABEL: func.func @mul_u2
// CHECK: stablehlo.constant dense<[1, 3, 2]> : tensor<3xui8>
// CHECK: %[[M:.+]] = stablehlo.multiply %{{.+}}, %{{.+}} : tensor<3xui8>
// CHECK: stablehlo.and %[[M]], %{{.+}} : tensor<3xui8>
func.func @mul_u2(%a: tensor<3xui2>) -> tensor<3xui2> {
  %c = stablehlo.constant dense<[1, 3, 2]> : tensor<3xui2>
  %0 = stablehlo.multiply %a, %c : tensor<3xui2>
  return %0 : tensor<3xui2>
}

// -----

// Check that a shift left gives 0 for amounts of 4 or more (read unsigned).
// CHECK-LABEL: func.func @shl_s4
// CHECK: stablehlo.bitcast_convert %{{.+}} : (tensor<4xi8>) -> tensor<4xui8>
// CHECK: stablehlo.compare GE
// CHECK: stablehlo.shift_left
// CHECK: stablehlo.select
// CHECK-NOT: i4
func.func @shl_s4(%a: tensor<4xi4>, %b: tensor<4xi4>) -> tensor<4xi4> {
  %0 = stablehlo.shift_left %a, %b : tensor<4xi4>
  return %0 : tensor<4xi4>
}

// -----

// Check that compares, selects and converts out of a narrow type are only retyped.
// CHECK-LABEL: func.func @compare_s2
// CHECK: stablehlo.compare LT, %{{.+}}, %{{.+}} : (tensor<3xi8>, tensor<3xi8>) -> tensor<3xi1>
// CHECK: stablehlo.convert %{{.+}} : (tensor<3xi8>) -> tensor<3xf32>
// CHECK-NOT: shift
func.func @compare_s2(%a: tensor<3xi2>, %b: tensor<3xi2>) -> (tensor<3xi1>, tensor<3xf32>) {
  %0 = stablehlo.compare LT, %a, %b : (tensor<3xi2>, tensor<3xi2>) -> tensor<3xi1>
  %1 = stablehlo.convert %a : (tensor<3xi2>) -> tensor<3xf32>
  return %0, %1 : tensor<3xi1>, tensor<3xf32>
}

// -----

// Check that a float convert saturates through s32 and a clamp, and popcnt counts the
// 4-bit pattern (the s8 value masked to 0..15).
// CHECK-LABEL: func.func @convert_popcnt
// CHECK: %[[S:.+]] = stablehlo.convert %{{.+}} : (tensor<3xf32>) -> tensor<3xi32>
// CHECK: stablehlo.compare LT, %[[S]]
// CHECK: %[[C:.+]] = stablehlo.convert %{{.+}} : (tensor<3xi32>) -> tensor<3xi8>
// CHECK: %[[U:.+]] = stablehlo.bitcast_convert %[[C]] : (tensor<3xi8>) -> tensor<3xui8>
// CHECK: %[[M:.+]] = stablehlo.and %[[U]], %{{.+}} : tensor<3xui8>
// CHECK: stablehlo.popcnt %[[M]] : tensor<3xui8>
// CHECK-NOT: i4
func.func @convert_popcnt(%f: tensor<3xf32>) -> tensor<3xi4> {
  %0 = stablehlo.convert %f : (tensor<3xf32>) -> tensor<3xi4>
  %1 = stablehlo.popcnt %0 : tensor<3xi4>
  return %1 : tensor<3xi4>
}

// -----

// Check that loop-carried values, tuples and reduce bodies are retyped, and the add of a
// reduce body is re-wrapped inside the body.
// CHECK-LABEL: func.func @reduce_tuple
// CHECK-SAME: -> tuple<tensor<ui8>, tensor<3xui8>>
// CHECK: stablehlo.reduce
// CHECK: %[[S:.+]] = stablehlo.add %{{.+}}, %{{.+}} : tensor<ui8>
// CHECK: %[[W:.+]] = stablehlo.and %[[S]], %{{.+}} : tensor<ui8>
// CHECK: stablehlo.return %[[W]] : tensor<ui8>
// CHECK: stablehlo.tuple %{{.+}}, %{{.+}} : tuple<tensor<ui8>, tensor<3xui8>>
func.func @reduce_tuple(%x: tensor<3xui4>) -> tuple<tensor<ui4>, tensor<3xui4>> {
  %z = stablehlo.constant dense<0> : tensor<ui4>
  %r = stablehlo.reduce(%x init: %z) across dimensions = [0] : (tensor<3xui4>, tensor<ui4>) -> tensor<ui4>
    reducer(%a: tensor<ui4>, %b: tensor<ui4>) {
      %s = stablehlo.add %a, %b : tensor<ui4>
      stablehlo.return %s : tensor<ui4>
    }
  %t = stablehlo.tuple %r, %x : tuple<tensor<ui4>, tensor<3xui4>>
  return %t : tuple<tensor<ui4>, tensor<3xui4>>
}

// -----

// Check that XLA's packing bitcasts become shifts of the unsigned wide value: pieces
// shifted out by 4 * iota along the new minor dimension, or shifted in and OR-reduced.
// CHECK-LABEL: func.func @packing_bitcasts
// CHECK: %[[B:.+]] = stablehlo.broadcast_in_dim %{{.+}}, dims = [0] : (tensor<2xui8>) -> tensor<2x2xui8>
// CHECK: %[[I:.+]] = stablehlo.iota dim = 1 : tensor<2x2xui8>
// CHECK: stablehlo.shift_right_logical %[[B]], %{{.+}} : tensor<2x2xui8>
// CHECK: stablehlo.iota dim = 1 : tensor<2x2xui8>
// CHECK: %[[P:.+]] = stablehlo.shift_left %{{.+}}, %{{.+}} : tensor<2x2xui8>
// CHECK: stablehlo.reduce(%[[P]] init: %{{.+}}) applies stablehlo.or across dimensions = [1]
// CHECK-NOT: bitcast_convert
func.func @packing_bitcasts(%a: tensor<2xui8>) -> (tensor<2x2xui4>, tensor<2xui8>) {
  %0 = stablehlo.bitcast_convert %a : (tensor<2xui8>) -> tensor<2x2xui4>
  %1 = stablehlo.bitcast_convert %0 : (tensor<2x2xui4>) -> tensor<2xui8>
  return %0, %1 : tensor<2x2xui4>, tensor<2xui8>
}

// -----

// Check that a module without sub-byte integers is left alone.
// CHECK-LABEL: func.func @no_narrow
// CHECK-NOT: hlo_mlir.program_shape
// CHECK: stablehlo.add %{{.+}}, %{{.+}} : tensor<5xi8>
// CHECK-NOT: shift
func.func @no_narrow(%a: tensor<5xi8>) -> tensor<5xi8> {
  %0 = stablehlo.add %a, %a : tensor<5xi8>
  return %0 : tensor<5xi8>
}
