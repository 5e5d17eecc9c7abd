// RUN: %hlo-opt %s -p empty-pad --split-input-file | filecheck %s

// Check that a pad of a zero-element operand becomes a broadcast of the padding value,
// and that a pad of an operand with elements is left alone.
// CHECK-LABEL: func.func @empty_pad
// CHECK: %[[B:.*]] = stablehlo.broadcast_in_dim %arg1, dims = [] : (tensor<f16>) -> tensor<3x5x1xf16>
// CHECK: %[[P:.*]] = stablehlo.pad %arg2, %arg1
// CHECK: return %[[B]], %[[P]]
func.func @empty_pad(%x: tensor<1x2x0xf16>, %v: tensor<f16>, %y: tensor<1x2x1xf16>) -> (tensor<3x5x1xf16>, tensor<3x5x2xf16>) {
  %0 = stablehlo.pad %x, %v, low = [0, 0, 2], high = [2, 1, -1], interior = [0, 2, 0] : (tensor<1x2x0xf16>, tensor<f16>) -> tensor<3x5x1xf16>
  %1 = stablehlo.pad %y, %v, low = [0, 0, 2], high = [2, 1, -1], interior = [0, 2, 0] : (tensor<1x2x1xf16>, tensor<f16>) -> tensor<3x5x2xf16>
  return %0, %1 : tensor<3x5x1xf16>, tensor<3x5x2xf16>
}

// -----

// Check that algsimp's other rules are not applied here: a reshape of a reshape stays.
// CHECK-LABEL: func.func @other_rules_stay
// CHECK: stablehlo.reshape
// CHECK: stablehlo.reshape
func.func @other_rules_stay(%x: tensor<6xf32>) -> tensor<3x2xf32> {
  %0 = stablehlo.reshape %x : (tensor<6xf32>) -> tensor<2x3xf32>
  %1 = stablehlo.reshape %0 : (tensor<2x3xf32>) -> tensor<3x2xf32>
  return %1 : tensor<3x2xf32>
}

// -----

// Check that a pad that pads nothing (rank 0, or all paddings 0) is its operand, and that a
// pad of the same type that shifts its operand (low -1, high 1) is kept.
// CHECK-LABEL: func.func @nop_pad
// CHECK: %[[S:.*]] = stablehlo.pad %arg2, %arg1, low = [-1], high = [1]
// CHECK: return %arg0, %arg2, %[[S]]
func.func @nop_pad(%x: tensor<f64>, %v: tensor<f64>, %y: tensor<3xf64>) -> (tensor<f64>, tensor<3xf64>, tensor<3xf64>) {
  %0 = stablehlo.pad %x, %v, low = [], high = [], interior = [] : (tensor<f64>, tensor<f64>) -> tensor<f64>
  %1 = stablehlo.pad %y, %v, low = [0], high = [0], interior = [0] : (tensor<3xf64>, tensor<f64>) -> tensor<3xf64>
  %2 = stablehlo.pad %y, %v, low = [-1], high = [1], interior = [0] : (tensor<3xf64>, tensor<f64>) -> tensor<3xf64>
  return %0, %1, %2 : tensor<f64>, tensor<3xf64>, tensor<3xf64>
}
