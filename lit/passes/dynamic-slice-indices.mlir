// RUN: %hlo-opt %s -p dynamic-slice-indices --split-input-file | filecheck %s

// Check that s8 and s16 starts are widened to i32 in tensor code, for both ops.
// CHECK-LABEL: func.func @narrow_signed
// CHECK: %[[I:.*]] = stablehlo.convert %arg1 : (tensor<i8>) -> tensor<i32>
// CHECK: stablehlo.dynamic_slice %arg0, %[[I]], sizes = [2] : (tensor<4xf32>, tensor<i32>) -> tensor<2xf32>
// CHECK: %[[J:.*]] = stablehlo.convert %arg3 : (tensor<i16>) -> tensor<i32>
// CHECK: stablehlo.dynamic_update_slice %arg0, %arg2, %[[J]] : (tensor<4xf32>, tensor<2xf32>, tensor<i32>) -> tensor<4xf32>
func.func @narrow_signed(%x: tensor<4xf32>, %i: tensor<i8>, %u: tensor<2xf32>, %j: tensor<i16>) -> (tensor<2xf32>, tensor<4xf32>) {
  %0 = stablehlo.dynamic_slice %x, %i, sizes = [2] : (tensor<4xf32>, tensor<i8>) -> tensor<2xf32>
  %1 = stablehlo.dynamic_update_slice %x, %u, %j : (tensor<4xf32>, tensor<2xf32>, tensor<i16>) -> tensor<4xf32>
  return %0, %1 : tensor<2xf32>, tensor<4xf32>
}

// -----

// Check that ui64 starts are clamped to 2^63 - 1 before becoming i64, and ui8 widened.
// CHECK-LABEL: func.func @unsigned
// CHECK: %[[B:.*]] = stablehlo.constant dense<9223372036854775807> : tensor<ui64>
// CHECK: %[[M:.*]] = stablehlo.minimum %arg1, %[[B]] : tensor<ui64>
// CHECK: %[[I:.*]] = stablehlo.convert %[[M]] : (tensor<ui64>) -> tensor<i64>
// CHECK: stablehlo.dynamic_slice %arg0, %[[I]], %{{.*}}, sizes = [2, 2]
// CHECK: %[[W:.*]] = stablehlo.convert %arg2 : (tensor<ui8>) -> tensor<i32>
// CHECK: %[[V:.*]] = stablehlo.convert %arg2 : (tensor<ui8>) -> tensor<i32>
// CHECK: stablehlo.dynamic_slice %arg0, %[[W]], %[[V]], sizes = [1, 1]
func.func @unsigned(%x: tensor<4x3xf32>, %i: tensor<ui64>, %k: tensor<ui8>) -> (tensor<2x2xf32>, tensor<1x1xf32>) {
  %0 = stablehlo.dynamic_slice %x, %i, %i, sizes = [2, 2] : (tensor<4x3xf32>, tensor<ui64>, tensor<ui64>) -> tensor<2x2xf32>
  %1 = stablehlo.dynamic_slice %x, %k, %k, sizes = [1, 1] : (tensor<4x3xf32>, tensor<ui8>, tensor<ui8>) -> tensor<1x1xf32>
  return %0, %1 : tensor<2x2xf32>, tensor<1x1xf32>
}

// -----

// Check that a rank-0 dynamic_slice becomes its operand and a rank-0 dynamic_update_slice its update.
// CHECK-LABEL: func.func @rank0
// CHECK-NOT: stablehlo.dynamic
// CHECK: return %arg0, %arg1
func.func @rank0(%x: tensor<f32>, %y: tensor<f32>) -> (tensor<f32>, tensor<f32>) {
  %0 = "stablehlo.dynamic_slice"(%x) <{slice_sizes = array<i64>}> : (tensor<f32>) -> tensor<f32>
  %1 = stablehlo.dynamic_update_slice %x, %y : (tensor<f32>, tensor<f32>) -> tensor<f32>
  return %0, %1 : tensor<f32>, tensor<f32>
}

// -----

// Check that i32, i64 and ui32 starts, which IREE reads right, are left alone.
// CHECK-LABEL: func.func @wide
// CHECK-NOT: stablehlo.convert
// CHECK: stablehlo.dynamic_slice %arg0, %arg1, sizes = [2] : (tensor<4xf32>, tensor<i32>)
// CHECK: stablehlo.dynamic_slice %arg0, %arg2, sizes = [2] : (tensor<4xf32>, tensor<i64>)
// CHECK: stablehlo.dynamic_update_slice %arg0, %{{.*}}, %arg3 : (tensor<4xf32>, tensor<2xf32>, tensor<ui32>)
func.func @wide(%x: tensor<4xf32>, %i: tensor<i32>, %j: tensor<i64>, %k: tensor<ui32>) -> (tensor<2xf32>, tensor<2xf32>, tensor<4xf32>) {
  %0 = stablehlo.dynamic_slice %x, %i, sizes = [2] : (tensor<4xf32>, tensor<i32>) -> tensor<2xf32>
  %1 = stablehlo.dynamic_slice %x, %j, sizes = [2] : (tensor<4xf32>, tensor<i64>) -> tensor<2xf32>
  %2 = stablehlo.dynamic_update_slice %x, %0, %k : (tensor<4xf32>, tensor<2xf32>, tensor<ui32>) -> tensor<4xf32>
  return %0, %1, %2 : tensor<2xf32>, tensor<2xf32>, tensor<4xf32>
}
