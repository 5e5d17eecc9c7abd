// RUN: %hlo-opt %s -p vulkan-bf16-from-integers --split-input-file | filecheck %s

// Check that a bf16 iota is an s32 iota through f32, rounded to bf16 on the bits.
// CHECK-LABEL: func.func @iota_bf16
// CHECK-NEXT: %[[I:.*]] = stablehlo.iota dim = 1 : tensor<2x3xi32>
// CHECK-NEXT: %[[F:.*]] = stablehlo.convert %[[I]] : (tensor<2x3xi32>) -> tensor<2x3xf32>
// CHECK-NEXT: %[[B:.*]] = stablehlo.bitcast_convert %[[F]] : (tensor<2x3xf32>) -> tensor<2x3xui32>
// CHECK: stablehlo.constant dense<32767> : tensor<ui32>
// CHECK: stablehlo.shift_right_logical %[[B]]
// CHECK: %[[H:.*]] = stablehlo.shift_right_logical
// CHECK-NEXT: %[[N:.*]] = stablehlo.convert %[[H]] : (tensor<2x3xui32>) -> tensor<2x3xui16>
// CHECK-NEXT: %[[R:.*]] = stablehlo.bitcast_convert %[[N]] : (tensor<2x3xui16>) -> tensor<2x3xbf16>
// CHECK-NEXT: return %[[R]]
func.func @iota_bf16() -> tensor<2x3xbf16> {
  %0 = stablehlo.iota dim = 1 : tensor<2x3xbf16>
  return %0 : tensor<2x3xbf16>
}

// -----

// Check that converts to bf16 from an integer, and from an f32 that came from one, round on the bits.
// CHECK-LABEL: func.func @convert_to_bf16
// CHECK-NOT: stablehlo.convert {{.*}} -> tensor<4xbf16>
// CHECK: %[[F:.*]] = stablehlo.convert %arg0 : (tensor<4xui8>) -> tensor<4xf32>
// CHECK-NEXT: stablehlo.bitcast_convert %[[F]] : (tensor<4xf32>) -> tensor<4xui32>
// CHECK-NOT: stablehlo.convert {{.*}} -> tensor<4xbf16>
// CHECK: %[[A:.*]] = stablehlo.bitcast_convert %{{.*}} : (tensor<4xui16>) -> tensor<4xbf16>
// CHECK-NEXT: %[[G:.*]] = stablehlo.convert %arg1 : (tensor<4xi64>) -> tensor<4xf32>
// CHECK-NEXT: stablehlo.bitcast_convert %[[G]] : (tensor<4xf32>) -> tensor<4xui32>
// CHECK-NOT: stablehlo.convert {{.*}} -> tensor<4xbf16>
// CHECK: %[[B:.*]] = stablehlo.bitcast_convert %{{.*}} : (tensor<4xui16>) -> tensor<4xbf16>
// CHECK-NEXT: return %[[A]], %[[B]]
func.func @convert_to_bf16(%x: tensor<4xui8>, %y: tensor<4xi64>) -> (tensor<4xbf16>, tensor<4xbf16>) {
  %0 = stablehlo.convert %x : (tensor<4xui8>) -> tensor<4xbf16>
  %1 = stablehlo.convert %y : (tensor<4xi64>) -> tensor<4xf32>
  %2 = stablehlo.convert %1 : (tensor<4xf32>) -> tensor<4xbf16>
  return %0, %2 : tensor<4xbf16>, tensor<4xbf16>
}

// -----

// Check that converts to bf16 from an f32 parameter or from f16, and f32 iotas, are left alone.
// CHECK-LABEL: func.func @left_alone
// CHECK-NEXT: stablehlo.convert %arg0 : (tensor<4xf32>) -> tensor<4xbf16>
// CHECK-NEXT: stablehlo.convert %arg1 : (tensor<4xf16>) -> tensor<4xbf16>
// CHECK-NEXT: stablehlo.iota dim = 0 : tensor<4xf32>
func.func @left_alone(%x: tensor<4xf32>, %y: tensor<4xf16>) -> (tensor<4xbf16>, tensor<4xbf16>, tensor<4xf32>) {
  %0 = stablehlo.convert %x : (tensor<4xf32>) -> tensor<4xbf16>
  %1 = stablehlo.convert %y : (tensor<4xf16>) -> tensor<4xbf16>
  %2 = stablehlo.iota dim = 0 : tensor<4xf32>
  return %0, %1, %2 : tensor<4xbf16>, tensor<4xbf16>, tensor<4xf32>
}
