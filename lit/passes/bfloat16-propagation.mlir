// RUN: %hlo-opt %s -p bfloat16-propagation --split-input-file | filecheck %s

// Check that a chain of value-moving ops read only through a convert to bf16 computes in
// bf16 as a whole, and that the bf16 -> f32 -> bf16 round trip of an operand disappears.
// CHECK-LABEL: func.func @chain
// CHECK: %[[X:.*]] = stablehlo.convert %arg0 : (tensor<2x3xf32>) -> tensor<2x3xbf16>
// CHECK: %[[M:.*]] = stablehlo.maximum %[[X]], %arg1 : tensor<2x3xbf16>
// CHECK: %[[T:.*]] = stablehlo.transpose %[[M]], dims = [1, 0] : (tensor<2x3xbf16>) -> tensor<3x2xbf16>
// CHECK: %[[R:.*]] = stablehlo.reshape %[[T]] : (tensor<3x2xbf16>) -> tensor<6xbf16>
// CHECK: return %[[R]]
func.func @chain(%x: tensor<2x3xf32>, %b: tensor<2x3xbf16>) -> tensor<6xbf16> {
  %w = stablehlo.convert %b : (tensor<2x3xbf16>) -> tensor<2x3xf32>
  %m = stablehlo.maximum %x, %w : tensor<2x3xf32>
  %t = stablehlo.transpose %m, dims = [1, 0] : (tensor<2x3xf32>) -> tensor<3x2xf32>
  %r = stablehlo.reshape %t : (tensor<3x2xf32>) -> tensor<6xf32>
  %c = stablehlo.convert %r : (tensor<6xf32>) -> tensor<6xbf16>
  return %c : tensor<6xbf16>
}

// -----

// Check that select keeps its predicate, pad converts its padding value and concatenate
// every operand.
// CHECK-LABEL: func.func @select_pad_concat
// CHECK: %[[S:.*]] = stablehlo.select %arg0, %{{.*}}, %{{.*}} : tensor<4xi1>, tensor<4xbf16>
// CHECK: %[[P:.*]] = stablehlo.pad %[[S]], %{{.*}}, low = [1], high = [0], interior = [0] : (tensor<4xbf16>, tensor<bf16>) -> tensor<5xbf16>
// CHECK: %[[C:.*]] = stablehlo.concatenate %[[P]], %{{.*}}, dim = 0 : (tensor<5xbf16>, tensor<4xbf16>) -> tensor<9xbf16>
// CHECK: return %[[C]]
func.func @select_pad_concat(%p: tensor<4xi1>, %x: tensor<4xf32>, %y: tensor<4xf32>, %v: tensor<f32>) -> tensor<9xbf16> {
  %s = stablehlo.select %p, %x, %y : tensor<4xi1>, tensor<4xf32>
  %q = stablehlo.pad %s, %v, low = [1], high = [0], interior = [0] : (tensor<4xf32>, tensor<f32>) -> tensor<5xf32>
  %c = stablehlo.concatenate %q, %y, dim = 0 : (tensor<5xf32>, tensor<4xf32>) -> tensor<9xf32>
  %r = stablehlo.convert %c : (tensor<9xf32>) -> tensor<9xbf16>
  return %r : tensor<9xbf16>
}

// -----

// Check that arithmetic is not changed (it would round differently).
// CHECK-LABEL: func.func @arithmetic
// CHECK: %[[A:.*]] = stablehlo.add %arg0, %arg0 : tensor<4xf32>
// CHECK: stablehlo.convert %[[A]] : (tensor<4xf32>) -> tensor<4xbf16>
func.func @arithmetic(%x: tensor<4xf32>) -> tensor<4xbf16> {
  %a = stablehlo.add %x, %x : tensor<4xf32>
  %c = stablehlo.convert %a : (tensor<4xf32>) -> tensor<4xbf16>
  return %c : tensor<4xbf16>
}

// -----

// Check that an op with a reader that needs f32 stays f32.
// CHECK-LABEL: func.func @other_reader
// CHECK: %[[T:.*]] = stablehlo.transpose %arg0, dims = [1, 0] : (tensor<2x3xf32>) -> tensor<3x2xf32>
// CHECK: stablehlo.convert %[[T]] : (tensor<3x2xf32>) -> tensor<3x2xbf16>
// CHECK: return %{{.*}}, %[[T]]
func.func @other_reader(%x: tensor<2x3xf32>) -> (tensor<3x2xbf16>, tensor<3x2xf32>) {
  %t = stablehlo.transpose %x, dims = [1, 0] : (tensor<2x3xf32>) -> tensor<3x2xf32>
  %c = stablehlo.convert %t : (tensor<3x2xf32>) -> tensor<3x2xbf16>
  return %c, %t : tensor<3x2xbf16>, tensor<3x2xf32>
}

// -----

// Check that a convert pair bf16 -> f32 -> bf16 is the bf16 value itself (the first
// convert is left to dce), and that an f16 -> bf16 convert (no narrowing) is kept.
// CHECK-LABEL: func.func @round_trip
// CHECK: %[[H:.*]] = stablehlo.convert %arg1 : (tensor<4xf16>) -> tensor<4xbf16>
// CHECK: return %arg0, %[[H]]
func.func @round_trip(%b: tensor<4xbf16>, %h: tensor<4xf16>) -> (tensor<4xbf16>, tensor<4xbf16>) {
  %w = stablehlo.convert %b : (tensor<4xbf16>) -> tensor<4xf32>
  %n = stablehlo.convert %w : (tensor<4xf32>) -> tensor<4xbf16>
  %k = stablehlo.convert %h : (tensor<4xf16>) -> tensor<4xbf16>
  return %n, %k : tensor<4xbf16>, tensor<4xbf16>
}

// -----

// Check that a splat constant operand becomes a bf16 constant rounded to nearest even
// (1 + 2^-8 is a tie: 1.0).
// CHECK-LABEL: func.func @constant_pad
// CHECK: %[[X:.*]] = stablehlo.convert %arg0 : (tensor<3xf32>) -> tensor<3xbf16>
// CHECK: %[[V:.*]] = stablehlo.constant dense<1.000000e+00> : tensor<bf16>
// CHECK: %[[P:.*]] = stablehlo.pad %[[X]], %[[V]], low = [1], high = [0], interior = [0] : (tensor<3xbf16>, tensor<bf16>) -> tensor<4xbf16>
// CHECK: return %[[P]]
func.func @constant_pad(%x: tensor<3xf32>) -> tensor<4xbf16> {
  %v = stablehlo.constant dense<1.00390625> : tensor<f32>
  %p = stablehlo.pad %x, %v, low = [1], high = [0], interior = [0] : (tensor<3xf32>, tensor<f32>) -> tensor<4xf32>
  %c = stablehlo.convert %p : (tensor<4xf32>) -> tensor<4xbf16>
  return %c : tensor<4xbf16>
}
