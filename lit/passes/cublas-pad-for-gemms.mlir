// RUN: %hlo-opt %s -p cublas-pad-for-gemms --split-input-file | filecheck %s
// RUN: %hlo-opt %s -p cublas-gemm-pad-for-tensor-cores --split-input-file | filecheck %s
// RUN: %hlo-opt %s -p 'cublas-pad-for-gemms{float-contracting=true}' --split-input-file | filecheck %s --check-prefix=XLA

// Check that the free dimensions of an f16 matmul pad to multiples of 8 with zeros and the
// result is sliced back; the contracting dimension (already 16) stays.
// CHECK-LABEL: func.func @f16_free
// CHECK: %[[Z:.*]] = stablehlo.constant dense<0.000000e+00> : tensor<f16>
// CHECK: %[[X:.*]] = stablehlo.pad %arg0, %[[Z]], low = [0, 0], high = [3, 0], interior = [0, 0] : (tensor<5x16xf16>, tensor<f16>) -> tensor<8x16xf16>
// CHECK: %[[Y:.*]] = stablehlo.pad %arg1, %[[Z]], low = [0, 0], high = [0, 5], interior = [0, 0] : (tensor<16x3xf16>, tensor<f16>) -> tensor<16x8xf16>
// CHECK: %[[D:.*]] = stablehlo.dot_general %[[X]], %[[Y]], contracting_dims = [1] x [0] : (tensor<8x16xf16>, tensor<16x8xf16>) -> tensor<8x8xf16>
// CHECK: %[[S:.*]] = stablehlo.slice %[[D]] [0:5, 0:3]
// CHECK: return %[[S]]
func.func @f16_free(%x: tensor<5x16xf16>, %y: tensor<16x3xf16>) -> tensor<5x3xf16> {
  %r = stablehlo.dot_general %x, %y, contracting_dims = [1] x [0] : (tensor<5x16xf16>, tensor<16x3xf16>) -> tensor<5x3xf16>
  return %r : tensor<5x3xf16>
}

// -----

// Check that a float contracting dimension is not padded by default (0 * 0 terms would
// turn a -0.0 sum into +0.0), here the only dimension to pad: the dot stays; the precision
// and the f32 result type of a bf16 dot are kept when its free dimension pads.
// CHECK-LABEL: func.func @float_contracting
// CHECK-NOT: stablehlo.pad
// CHECK: stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0] : (tensor<8x6xf16>, tensor<6x8xf16>) -> tensor<8x8xf16>
// CHECK: %[[P:.*]] = stablehlo.pad %arg2, %{{.*}} high = [3, 0]
// CHECK: stablehlo.dot_general %[[P]], %arg3, contracting_dims = [1] x [0], precision = [HIGHEST, HIGHEST] : (tensor<8x6xbf16>, tensor<6x8xbf16>) -> tensor<8x8xf32>
// XLA-LABEL: func.func @float_contracting
// XLA: stablehlo.pad %arg0, %{{.*}} high = [0, 2]
// XLA: stablehlo.pad %arg1, %{{.*}} high = [2, 0]
// XLA: stablehlo.dot_general {{.*}} : (tensor<8x8xf16>, tensor<8x8xf16>) -> tensor<8x8xf16>
func.func @float_contracting(%x: tensor<8x6xf16>, %y: tensor<6x8xf16>, %p: tensor<5x6xbf16>, %q: tensor<6x8xbf16>) -> (tensor<8x8xf16>, tensor<5x8xf32>) {
  %r = stablehlo.dot_general %x, %y, contracting_dims = [1] x [0] : (tensor<8x6xf16>, tensor<6x8xf16>) -> tensor<8x8xf16>
  %s = stablehlo.dot_general %p, %q, contracting_dims = [1] x [0], precision = [HIGHEST, HIGHEST] : (tensor<5x6xbf16>, tensor<6x8xbf16>) -> tensor<5x8xf32>
  return %r, %s : tensor<8x8xf16>, tensor<5x8xf32>
}

// -----

// Check that an s8 batch matmul pads free and contracting dimensions to multiples of 4
// (integer sums of extra 0 * 0 terms are exact) and keeps the batch dimension.
// CHECK-LABEL: func.func @s8
// CHECK: %[[X:.*]] = stablehlo.pad %arg0, %[[Z:.*]], low = [0, 0, 0], high = [0, 3, 2], interior = [0, 0, 0] : (tensor<2x5x6xi8>, tensor<i8>) -> tensor<2x8x8xi8>
// CHECK: %[[Y:.*]] = stablehlo.pad %arg1, %[[Z]], low = [0, 0, 0], high = [0, 2, 1], interior = [0, 0, 0] : (tensor<2x6x3xi8>, tensor<i8>) -> tensor<2x8x4xi8>
// CHECK: %[[D:.*]] = stablehlo.dot_general %[[X]], %[[Y]], batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<2x8x8xi8>, tensor<2x8x4xi8>) -> tensor<2x8x4xi32>
// CHECK: stablehlo.slice %[[D]] [0:2, 0:5, 0:3]
func.func @s8(%x: tensor<2x5x6xi8>, %y: tensor<2x6x3xi8>) -> tensor<2x5x3xi32> {
  %r = stablehlo.dot_general %x, %y, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<2x5x6xi8>, tensor<2x6x3xi8>) -> tensor<2x5x3xi32>
  return %r : tensor<2x5x3xi32>
}

// -----

// Check that other element types and aligned dots are left alone.
// CHECK-LABEL: func.func @left_alone
// CHECK-NOT: stablehlo.pad
// CHECK-NOT: stablehlo.slice
func.func @left_alone(%x: tensor<5x6xf32>, %y: tensor<6x3xf32>, %a: tensor<8x3xf16>, %b: tensor<3x16xf16>) -> (tensor<5x3xf32>, tensor<8x16xf16>) {
  %r = stablehlo.dot_general %x, %y, contracting_dims = [1] x [0] : (tensor<5x6xf32>, tensor<6x3xf32>) -> tensor<5x3xf32>
  %s = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<8x3xf16>, tensor<3x16xf16>) -> tensor<8x16xf16>
  return %r, %s : tensor<5x3xf32>, tensor<8x16xf16>
}
