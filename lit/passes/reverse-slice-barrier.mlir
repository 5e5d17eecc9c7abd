// RUN: %hlo-opt %s -p reverse-slice-barrier --split-input-file | filecheck %s

// Check that a reverse of a rank-3 slice keeping one element of the minor dimension reads
// the slice through a barrier.
// CHECK-LABEL: func.func @slice
// CHECK: %[[S:.*]] = stablehlo.slice %arg0 [0:2, 0:3, 1:2]
// CHECK-NEXT: %[[B:.*]] = stablehlo.optimization_barrier %[[S]] : tensor<2x3x1xf32>
// CHECK-NEXT: %[[R:.*]] = stablehlo.reverse %[[B]], dims = [0] : tensor<2x3x1xf32>
// CHECK-NEXT: return %[[R]]
func.func @slice(%x: tensor<2x3x2xf32>) -> tensor<2x3x1xf32> {
  %0 = stablehlo.slice %x [0:2, 0:3, 1:2] : (tensor<2x3x2xf32>) -> tensor<2x3x1xf32>
  %1 = stablehlo.reverse %0, dims = [0] : tensor<2x3x1xf32>
  return %1 : tensor<2x3x1xf32>
}

// -----

// Check that a pad (negative padding) and a dynamic_slice are fenced the same way.
// CHECK-LABEL: func.func @pad_and_dynamic_slice
// CHECK: %[[P:.*]] = stablehlo.pad
// CHECK-NEXT: %[[BP:.*]] = stablehlo.optimization_barrier %[[P]] : tensor<6x8x1xf32>
// CHECK-NEXT: stablehlo.reverse %[[BP]], dims = [0, 1, 2]
// CHECK: %[[D:.*]] = stablehlo.dynamic_slice
// CHECK-NEXT: %[[BD:.*]] = stablehlo.optimization_barrier %[[D]] : tensor<2x3x1xf32>
// CHECK-NEXT: stablehlo.reverse %[[BD]], dims = [1]
func.func @pad_and_dynamic_slice(%x: tensor<2x3x2xf32>, %v: tensor<f32>, %i: tensor<i32>) -> (tensor<6x8x1xf32>, tensor<2x3x1xf32>) {
  %0 = stablehlo.pad %x, %v, low = [1, -1, 1], high = [2, 2, -2], interior = [1, 2, 0] : (tensor<2x3x2xf32>, tensor<f32>) -> tensor<6x8x1xf32>
  %1 = stablehlo.reverse %0, dims = [0, 1, 2] : tensor<6x8x1xf32>
  %2 = stablehlo.dynamic_slice %x, %i, %i, %i, sizes = [2, 3, 1] : (tensor<2x3x2xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<2x3x1xf32>
  %3 = stablehlo.reverse %2, dims = [1] : tensor<2x3x1xf32>
  return %1, %3 : tensor<6x8x1xf32>, tensor<2x3x1xf32>
}

// -----

// Check that reverses of rank-2 slices, of slices whose minor dimension is longer than 1
// or was 1 already, and of other producers are left alone.
// CHECK-LABEL: func.func @left_alone
// CHECK-NOT: stablehlo.optimization_barrier
// CHECK: return
func.func @left_alone(%x: tensor<2x3x2xf32>, %y: tensor<4x2xf32>, %z: tensor<2x3x1xf32>) -> (tensor<4x1xf32>, tensor<2x3x2xf32>, tensor<1x3x1xf32>, tensor<2x3x1xf32>) {
  %0 = stablehlo.slice %y [0:4, 1:2] : (tensor<4x2xf32>) -> tensor<4x1xf32>
  %1 = stablehlo.reverse %0, dims = [0] : tensor<4x1xf32>
  %2 = stablehlo.slice %x [0:2, 0:3, 0:2] : (tensor<2x3x2xf32>) -> tensor<2x3x2xf32>
  %3 = stablehlo.reverse %2, dims = [0] : tensor<2x3x2xf32>
  %4 = stablehlo.slice %z [0:1, 0:3, 0:1] : (tensor<2x3x1xf32>) -> tensor<1x3x1xf32>
  %5 = stablehlo.reverse %4, dims = [1] : tensor<1x3x1xf32>
  %6 = stablehlo.negate %z : tensor<2x3x1xf32>
  %7 = stablehlo.reverse %6, dims = [0] : tensor<2x3x1xf32>
  return %1, %3, %5, %7 : tensor<4x1xf32>, tensor<2x3x2xf32>, tensor<1x3x1xf32>, tensor<2x3x1xf32>
}
