// RUN: %hlo-opt %s -p nested-pad-barrier --split-input-file | filecheck %s

// Check that a pad of a pad by a parameter reads the inner pad through a barrier
// (seed 20261127 program 734: scatter-bounds' pad of a scatter operand).
// CHECK-LABEL: func.func @pad_of_runtime_pad
// CHECK: %[[I:.*]] = stablehlo.pad %{{.*}}, %arg1
// CHECK: %[[B:.*]] = stablehlo.optimization_barrier %[[I]] : tensor<7xbf16>
// CHECK-NEXT: stablehlo.pad %[[B]], %{{.*}}, low = [0], high = [1]
func.func @pad_of_runtime_pad(%x: tensor<5xf16>, %p: tensor<bf16>) -> tensor<8xbf16> {
  %c = stablehlo.convert %x : (tensor<5xf16>) -> tensor<5xbf16>
  %1 = stablehlo.pad %c, %p, low = [0], high = [2], interior = [0] : (tensor<5xbf16>, tensor<bf16>) -> tensor<7xbf16>
  %z = stablehlo.constant dense<0.0> : tensor<bf16>
  %2 = stablehlo.pad %1, %z, low = [0], high = [1], interior = [0] : (tensor<7xbf16>, tensor<bf16>) -> tensor<8xbf16>
  return %2 : tensor<8xbf16>
}

// -----

// Check that the walk looks through a reshape between the pads, and the barrier is on
// the pad's operand (the reshape), not on its padding value.
// CHECK-LABEL: func.func @through_reshape
// CHECK: %[[R:.*]] = stablehlo.reshape
// CHECK: %[[B:.*]] = stablehlo.optimization_barrier %[[R]] : tensor<7x1xf32>
// CHECK-NEXT: stablehlo.pad %[[B]], %cst
func.func @through_reshape(%x: tensor<5xf32>, %p: tensor<f32>) -> tensor<9x1xf32> {
  %n = stablehlo.negate %x : tensor<5xf32>
  %1 = stablehlo.pad %n, %p, low = [0], high = [2], interior = [0] : (tensor<5xf32>, tensor<f32>) -> tensor<7xf32>
  %r = stablehlo.reshape %1 : (tensor<7xf32>) -> tensor<7x1xf32>
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  %2 = stablehlo.pad %r, %z, low = [1, 0], high = [1, 0], interior = [0, 0] : (tensor<7x1xf32>, tensor<f32>) -> tensor<9x1xf32>
  return %2 : tensor<9x1xf32>
}

// -----

// Check that pads of constant-padded pads, pads of parameters, a single pad by a
// parameter and a pad of an op between the pads are left alone.
// CHECK-LABEL: func.func @left_alone
// CHECK-NOT: stablehlo.optimization_barrier
// CHECK: return
func.func @left_alone(%x: tensor<5xf32>, %p: tensor<f32>) -> (tensor<8xf32>, tensor<7xf32>, tensor<8xf32>) {
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  %n = stablehlo.negate %x : tensor<5xf32>
  %1 = stablehlo.pad %n, %z, low = [0], high = [2], interior = [0] : (tensor<5xf32>, tensor<f32>) -> tensor<7xf32>
  %2 = stablehlo.pad %1, %p, low = [0], high = [1], interior = [0] : (tensor<7xf32>, tensor<f32>) -> tensor<8xf32>
  %3 = stablehlo.pad %x, %p, low = [0], high = [2], interior = [0] : (tensor<5xf32>, tensor<f32>) -> tensor<7xf32>
  %4 = stablehlo.negate %3 : tensor<7xf32>
  %5 = stablehlo.pad %4, %z, low = [1], high = [0], interior = [0] : (tensor<7xf32>, tensor<f32>) -> tensor<8xf32>
  return %2, %3, %5 : tensor<8xf32>, tensor<7xf32>, tensor<8xf32>
}
