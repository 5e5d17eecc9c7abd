// RUN: %hlo-opt %s -p dot-empty-contraction --split-input-file | filecheck %s

// Check that a dot over an empty contracting dimension becomes zeros.
// CHECK-LABEL: func.func @empty_contraction
// CHECK-NOT: stablehlo.dot_general
// CHECK: %[[Z:.*]] = stablehlo.constant dense<0.000000e+00> : tensor<2xf32>
// CHECK-NEXT: return %[[Z]]
func.func @empty_contraction(%x: tensor<0xf32>, %y: tensor<0x2xf32>) -> tensor<2xf32> {
  %r = stablehlo.dot_general %x, %y, contracting_dims = [0] x [0] : (tensor<0xf32>, tensor<0x2xf32>) -> tensor<2xf32>
  return %r : tensor<2xf32>
}

// -----

// Check that batch dimensions and integers are handled: i64 zeros of the result shape.
// CHECK-LABEL: func.func @batched_integers
// CHECK-NOT: stablehlo.dot_general
// CHECK: stablehlo.constant dense<0> : tensor<1x2x1xi64>
func.func @batched_integers(%x: tensor<1x2x0xi64>, %y: tensor<1x0x2x1xi64>) -> tensor<1x2x1xi64> {
  %r = stablehlo.dot_general %x, %y, batching_dims = [0, 1] x [0, 2], contracting_dims = [2] x [1] : (tensor<1x2x0xi64>, tensor<1x0x2x1xi64>) -> tensor<1x2x1xi64>
  return %r : tensor<1x2x1xi64>
}

// -----

// Check that a dot with elements to contract is left alone.
// CHECK-LABEL: func.func @not_empty
// CHECK: stablehlo.dot_general
func.func @not_empty(%x: tensor<3xf32>, %y: tensor<3x2xf32>) -> tensor<2xf32> {
  %r = stablehlo.dot_general %x, %y, contracting_dims = [0] x [0] : (tensor<3xf32>, tensor<3x2xf32>) -> tensor<2xf32>
  return %r : tensor<2xf32>
}

// -----

// Check that an empty result is left alone (IREE compiles it).
// CHECK-LABEL: func.func @empty_result
// CHECK: stablehlo.dot_general
func.func @empty_result(%x: tensor<0x0xf32>, %y: tensor<0x2xf32>) -> tensor<0x2xf32> {
  %r = stablehlo.dot_general %x, %y, contracting_dims = [1] x [0] : (tensor<0x0xf32>, tensor<0x2xf32>) -> tensor<0x2xf32>
  return %r : tensor<0x2xf32>
}

// -----

// Check that a dot without contracting dimensions becomes a multiply of operands broadcast
// to their result positions (batch, lhs free, rhs free).
// CHECK-LABEL: func.func @no_contraction
// CHECK-NOT: stablehlo.dot_general
// CHECK-DAG: %[[A:.*]] = stablehlo.broadcast_in_dim %arg0, dims = [0, 1] : (tensor<2x3xf32>) -> tensor<2x3x4xf32>
// CHECK-DAG: %[[T:.*]] = stablehlo.transpose %arg1, dims = [1, 0] : (tensor<4x2xf32>) -> tensor<2x4xf32>
// CHECK-DAG: %[[B:.*]] = stablehlo.broadcast_in_dim %[[T]], dims = [0, 2] : (tensor<2x4xf32>) -> tensor<2x3x4xf32>
// CHECK: %[[P:.*]] = stablehlo.multiply %[[A]], %[[B]] : tensor<2x3x4xf32>
// CHECK-NEXT: return %[[P]]
func.func @no_contraction(%x: tensor<2x3xf32>, %y: tensor<4x2xf32>) -> tensor<2x3x4xf32> {
  %r = stablehlo.dot_general %x, %y, batching_dims = [0] x [1], contracting_dims = [] x [] : (tensor<2x3xf32>, tensor<4x2xf32>) -> tensor<2x3x4xf32>
  return %r : tensor<2x3x4xf32>
}

// -----

// Check that a wider result type converts the operands first (XLA's OperandUpcaster) and
// that an operand already in result order is not broadcast.
// CHECK-LABEL: func.func @upcast
// CHECK-DAG: %[[A:.*]] = stablehlo.convert %arg0 : (tensor<3xi32>) -> tensor<3xf32>
// CHECK-DAG: %[[B:.*]] = stablehlo.convert %arg1 : (tensor<3xi32>) -> tensor<3xf32>
// CHECK: %[[P:.*]] = stablehlo.multiply %[[A]], %[[B]] : tensor<3xf32>
// CHECK-NEXT: return %[[P]]
func.func @upcast(%x: tensor<3xi32>, %y: tensor<3xi32>) -> tensor<3xf32> {
  %r = stablehlo.dot_general %x, %y, batching_dims = [0] x [0], contracting_dims = [] x [] : (tensor<3xi32>, tensor<3xi32>) -> tensor<3xf32>
  return %r : tensor<3xf32>
}

// -----

// Check that a narrower result type rounds the product (XLA's ResultCaster).
// CHECK-LABEL: func.func @round_product
// CHECK: %[[P:.*]] = stablehlo.multiply %{{.*}}, %{{.*}} : tensor<2x3xf32>
// CHECK-NEXT: %[[R:.*]] = stablehlo.convert %[[P]] : (tensor<2x3xf32>) -> tensor<2x3xbf16>
// CHECK-NEXT: return %[[R]]
func.func @round_product(%x: tensor<2xf32>, %y: tensor<3xf32>) -> tensor<2x3xbf16> {
  %r = stablehlo.dot_general %x, %y, contracting_dims = [] x [] : (tensor<2xf32>, tensor<3xf32>) -> tensor<2x3xbf16>
  return %r : tensor<2x3xbf16>
}

// -----

// Check that a dot with an algorithm attribute is left alone (XLA keeps it too).
// CHECK-LABEL: func.func @with_algorithm
// CHECK: stablehlo.dot_general
func.func @with_algorithm(%x: tensor<2xf32>, %y: tensor<3xf32>) -> tensor<2x3xf32> {
  %r = stablehlo.dot_general %x, %y, contracting_dims = [] x [], algorithm = <lhs_precision_type = f32, rhs_precision_type = f32, accumulation_type = f32, lhs_component_count = 1, rhs_component_count = 1, num_primitive_operations = 1, allow_imprecise_accumulation = false> : (tensor<2xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  return %r : tensor<2x3xf32>
}
