// RUN: %hlo-opt %s -p bf16-negate-sign --split-input-file | filecheck %s

// Check that a bf16 negate flips the sign bit of the element's bits.
// CHECK-LABEL: func.func @bf16
// CHECK-NEXT: %[[B:.*]] = stablehlo.bitcast_convert %arg0 : (tensor<2x3xbf16>) -> tensor<2x3xi16>
// CHECK-NEXT: %[[M:.*]] = stablehlo.constant dense<-32768> : tensor<i16>
// CHECK-NEXT: %[[MB:.*]] = stablehlo.broadcast_in_dim %[[M]], dims = [] : (tensor<i16>) -> tensor<2x3xi16>
// CHECK-NEXT: %[[F:.*]] = stablehlo.xor %[[B]], %[[MB]] : tensor<2x3xi16>
// CHECK-NEXT: %[[R:.*]] = stablehlo.bitcast_convert %[[F]] : (tensor<2x3xi16>) -> tensor<2x3xbf16>
// CHECK-NOT: stablehlo.negate
// CHECK: return %[[R]]
func.func @bf16(%x: tensor<2x3xbf16>) -> tensor<2x3xbf16> {
  %0 = stablehlo.negate %x : tensor<2x3xbf16>
  return %0 : tensor<2x3xbf16>
}

// -----

// Check that negates of other element types are left alone.
// CHECK-LABEL: func.func @others
// CHECK-NEXT: stablehlo.negate %arg0 : tensor<4xf16>
// CHECK-NEXT: stablehlo.negate %arg1 : tensor<4xf32>
// CHECK-NEXT: stablehlo.negate %arg2 : tensor<4xi16>
// CHECK-NOT: xor
func.func @others(%a: tensor<4xf16>, %b: tensor<4xf32>, %c: tensor<4xi16>) -> (tensor<4xf16>, tensor<4xf32>, tensor<4xi16>) {
  %0 = stablehlo.negate %a : tensor<4xf16>
  %1 = stablehlo.negate %b : tensor<4xf32>
  %2 = stablehlo.negate %c : tensor<4xi16>
  return %0, %1, %2 : tensor<4xf16>, tensor<4xf32>, tensor<4xi16>
}
