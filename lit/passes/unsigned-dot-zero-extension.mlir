// RUN: %hlo-opt %s -p unsigned-dot-zero-extension --split-input-file | filecheck %s

// Check that u8 operands of a u32 dot are widened as and(convert(x, i32), 255).
// CHECK-LABEL: func.func @u8_dot
// CHECK-NEXT: %[[A:.*]] = stablehlo.convert %arg0 : (tensor<2x3xui8>) -> tensor<2x3xi32>
// CHECK-NEXT: %[[M:.*]] = stablehlo.constant dense<255> : tensor<i32>
// CHECK-NEXT: %[[MB:.*]] = stablehlo.broadcast_in_dim %[[M]], dims = []
// CHECK-NEXT: %[[AM:.*]] = stablehlo.and %[[A]], %[[MB]] : tensor<2x3xi32>
// CHECK-NEXT: %[[AW:.*]] = stablehlo.convert %[[AM]] : (tensor<2x3xi32>) -> tensor<2x3xui32>
// CHECK: %[[BW:.*]] = stablehlo.convert %{{.*}} : (tensor<3x2xi32>) -> tensor<3x2xui32>
// CHECK-NEXT: %[[D:.*]] = stablehlo.dot_general %[[AW]], %[[BW]], contracting_dims = [1] x [0] : (tensor<2x3xui32>, tensor<3x2xui32>) -> tensor<2x2xui32>
// CHECK-NEXT: return %[[D]]
func.func @u8_dot(%a: tensor<2x3xui8>, %b: tensor<3x2xui8>) -> tensor<2x2xui32> {
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<2x3xui8>, tensor<3x2xui8>) -> tensor<2x2xui32>
  return %0 : tensor<2x2xui32>
}

// -----

// Check that a convert from a narrower unsigned type feeding the dot is masked too.
// CHECK-LABEL: func.func @widened_u8
// CHECK: %[[AM:.*]] = stablehlo.and %{{.*}}, %{{.*}} : tensor<2x3xi32>
// CHECK-NEXT: %[[AW:.*]] = stablehlo.convert %[[AM]] : tensor<2x3xi32>
// CHECK-NEXT: %[[D:.*]] = stablehlo.dot_general %[[AW]], %arg1
// CHECK-NEXT: return %[[D]]
func.func @widened_u8(%a: tensor<2x3xui8>, %c: tensor<3x2xi32>) -> tensor<2x2xi32> {
  %w = stablehlo.convert %a : (tensor<2x3xui8>) -> tensor<2x3xi32>
  %0 = stablehlo.dot_general %w, %c, contracting_dims = [1] x [0] : (tensor<2x3xi32>, tensor<3x2xi32>) -> tensor<2x2xi32>
  return %0 : tensor<2x2xi32>
}

// -----

// Check that unsigned operands as wide as the result, and signed dots, are left alone.
// CHECK-LABEL: func.func @left_alone
// CHECK-NOT: stablehlo.and
// CHECK-NEXT: %[[U:.*]] = stablehlo.dot_general %arg0, %arg1
// CHECK-NEXT: %[[S:.*]] = stablehlo.dot_general %arg2, %arg3
// CHECK-NEXT: return %[[U]], %[[S]]
func.func @left_alone(%a: tensor<2x3xui32>, %b: tensor<3x2xui32>, %c: tensor<2x3xi8>, %d: tensor<3x2xi8>) -> (tensor<2x2xui32>, tensor<2x2xi32>) {
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<2x3xui32>, tensor<3x2xui32>) -> tensor<2x2xui32>
  %1 = stablehlo.dot_general %c, %d, contracting_dims = [1] x [0] : (tensor<2x3xi8>, tensor<3x2xi8>) -> tensor<2x2xi32>
  return %0, %1 : tensor<2x2xui32>, tensor<2x2xi32>
}

// -----

// Check that a dot of quantized tensors (no XLA element type) is left alone.
// CHECK-LABEL: func.func @quantized
// CHECK-NOT: stablehlo.and
// CHECK: stablehlo.dot_general %arg0, %arg0
func.func @quantized(%q: tensor<2x2x!quant.uniform<ui8:f32, 0.5:0>>) -> tensor<2x2x!quant.uniform<i32:f32, 0.25:0>> {
  %0 = stablehlo.dot_general %q, %q, contracting_dims = [1] x [0] : (tensor<2x2x!quant.uniform<ui8:f32, 0.5:0>>, tensor<2x2x!quant.uniform<ui8:f32, 0.5:0>>) -> tensor<2x2x!quant.uniform<i32:f32, 0.25:0>>
  return %0 : tensor<2x2x!quant.uniform<i32:f32, 0.25:0>>
}
