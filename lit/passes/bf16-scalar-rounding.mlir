// RUN: %hlo-opt %s -p bf16-scalar-rounding --split-input-file | filecheck %s

// Check that a rank-0 f32 -> bf16 convert rounds the f32 bits to nearest even first (NaN quiet),
// so the convert itself is exact.
// CHECK-LABEL: func.func @f32_rank0
// CHECK: %[[B:.*]] = stablehlo.bitcast_convert %arg0 : (tensor<f32>) -> tensor<ui32>
// CHECK: stablehlo.shift_right_logical %[[B]], %{{.*}} : tensor<ui32>
// CHECK: stablehlo.constant dense<4294901760> : tensor<ui32>
// CHECK: %[[NAN:.*]] = stablehlo.compare EQ, %arg0, %arg0, FLOAT
// CHECK: %[[S:.*]] = stablehlo.select %[[NAN]], %{{.*}}, %{{.*}} : tensor<i1>, tensor<ui32>
// CHECK-NEXT: %[[Y:.*]] = stablehlo.bitcast_convert %[[S]] : (tensor<ui32>) -> tensor<f32>
// CHECK-NEXT: %[[R:.*]] = stablehlo.convert %[[Y]] : (tensor<f32>) -> tensor<bf16>
// CHECK-NEXT: return %[[R]]
func.func @f32_rank0(%x: tensor<f32>) -> tensor<bf16> {
  %0 = stablehlo.convert %x : (tensor<f32>) -> tensor<bf16>
  return %0 : tensor<bf16>
}

// -----

// Check that an s64 source of one element is converted to f32 first, then rounded.
// CHECK-LABEL: func.func @s64_one_element
// CHECK: %[[F:.*]] = stablehlo.convert %arg0 : (tensor<1x1xi64>) -> tensor<1x1xf32>
// CHECK-NEXT: stablehlo.bitcast_convert %[[F]] : (tensor<1x1xf32>) -> tensor<1x1xui32>
// CHECK: %[[R:.*]] = stablehlo.convert %{{.*}} : (tensor<1x1xf32>) -> tensor<1x1xbf16>
// CHECK-NEXT: return %[[R]]
func.func @s64_one_element(%x: tensor<1x1xi64>) -> tensor<1x1xbf16> {
  %0 = stablehlo.convert %x : (tensor<1x1xi64>) -> tensor<1x1xbf16>
  return %0 : tensor<1x1xbf16>
}

// -----

// Check that the converts in a map body (rank 0) are rounded too.
// CHECK-LABEL: func.func @map_body
// CHECK: stablehlo.map
// CHECK: stablehlo.bitcast_convert %{{.*}} : (tensor<f32>) -> tensor<ui32>
// CHECK: stablehlo.convert %{{.*}} : (tensor<f32>) -> tensor<bf16>
func.func @map_body(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = "stablehlo.map"(%x) <{dimensions = array<i64: 0>}> ({
  ^bb0(%a: tensor<f32>):
    %1 = stablehlo.convert %a : (tensor<f32>) -> tensor<bf16>
    %2 = stablehlo.convert %1 : (tensor<bf16>) -> tensor<f32>
    stablehlo.return %2 : tensor<f32>
  }) : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// Check that converts of more than one element, from bf16, and to other types are left alone.
// CHECK-LABEL: func.func @left_alone
// CHECK-NOT: bitcast_convert
// CHECK: stablehlo.convert %arg0 : (tensor<3xf32>) -> tensor<3xbf16>
// CHECK: stablehlo.convert %arg1 : tensor<bf16>
// CHECK: stablehlo.convert %arg2 : (tensor<f32>) -> tensor<f16>
func.func @left_alone(%x: tensor<3xf32>, %y: tensor<bf16>, %z: tensor<f32>) -> (tensor<3xbf16>, tensor<bf16>, tensor<f16>) {
  %0 = stablehlo.convert %x : (tensor<3xf32>) -> tensor<3xbf16>
  %1 = stablehlo.convert %y : (tensor<bf16>) -> tensor<bf16>
  %2 = stablehlo.convert %z : (tensor<f32>) -> tensor<f16>
  return %0, %1, %2 : tensor<3xbf16>, tensor<bf16>, tensor<f16>
}
