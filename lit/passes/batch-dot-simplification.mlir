// RUN: %hlo-opt %s -p batch-dot-simplification --split-input-file | filecheck %s
// RUN: %hlo-opt %s -p 'batch-dot-simplification{xla-conditions=true}' --split-input-file \
// RUN:   | filecheck %s --check-prefix=XLA

// Check that a unit batch dimension is reshaped away and put back in the result
// (XLA ElideSingleDegenerateBatchDotDim_MatrixMatrix), also under XLA's conditions.
// CHECK-LABEL: func.func @one_unit
// XLA-LABEL: func.func @one_unit
// XLA: stablehlo.dot_general {{.*}} : (tensor<3x4xf32>, tensor<4x5xf32>) -> tensor<3x5xf32>
// CHECK: %[[X:.*]] = stablehlo.reshape %arg0 : (tensor<1x3x4xf32>) -> tensor<3x4xf32>
// CHECK: %[[Y:.*]] = stablehlo.reshape %arg1 : (tensor<1x4x5xf32>) -> tensor<4x5xf32>
// CHECK: %[[D:.*]] = stablehlo.dot_general %[[X]], %[[Y]], contracting_dims = [1] x [0], precision = [HIGHEST, HIGHEST] : (tensor<3x4xf32>, tensor<4x5xf32>) -> tensor<3x5xf32>
// CHECK: %[[R:.*]] = stablehlo.reshape %[[D]] : (tensor<3x5xf32>) -> tensor<1x3x5xf32>
// CHECK: return %[[R]]
func.func @one_unit(%x: tensor<1x3x4xf32>, %y: tensor<1x4x5xf32>) -> tensor<1x3x5xf32> {
  %r = stablehlo.dot_general %x, %y, batching_dims = [0] x [0], contracting_dims = [2] x [1], precision = [HIGHEST, HIGHEST] : (tensor<1x3x4xf32>, tensor<1x4x5xf32>) -> tensor<1x3x5xf32>
  return %r : tensor<1x3x5xf32>
}

// -----

// Check that only the unit batch dimensions go (XLA ElideMultipleDegenerateBatchDotDims_*),
// wherever they are (XLA's conditions: only dimensions 0..n-1), and that the result type stays.
// CHECK-LABEL: func.func @mixed
// CHECK: %[[X:.*]] = stablehlo.reshape %arg0 : (tensor<2x1x3x4xi32>) -> tensor<2x3x4xi32>
// CHECK: %[[Y:.*]] = stablehlo.reshape %arg1 : (tensor<4x1x2x5xi32>) -> tensor<4x2x5xi32>
// CHECK: %[[D:.*]] = stablehlo.dot_general %[[X]], %[[Y]], batching_dims = [0] x [1], contracting_dims = [2] x [0] : (tensor<2x3x4xi32>, tensor<4x2x5xi32>) -> tensor<2x3x5xi64>
// CHECK: stablehlo.reshape %[[D]] : (tensor<2x3x5xi64>) -> tensor<2x1x3x5xi64>
func.func @mixed(%x: tensor<2x1x3x4xi32>, %y: tensor<4x1x2x5xi32>) -> tensor<2x1x3x5xi64> {
  %r = stablehlo.dot_general %x, %y, batching_dims = [0, 1] x [2, 1], contracting_dims = [3] x [0] : (tensor<2x1x3x4xi32>, tensor<4x1x2x5xi32>) -> tensor<2x1x3x5xi64>
  return %r : tensor<2x1x3x5xi64>
}

// -----

// Check that dots without unit batch dimensions stay, unit free dimensions included.
// CHECK-LABEL: func.func @none
// CHECK-NOT: stablehlo.reshape
// CHECK: stablehlo.dot_general %arg0, %arg1, batching_dims = [0] x [0]
// CHECK: stablehlo.dot_general %arg2, %arg3, contracting_dims = [1] x [0]
func.func @none(%x: tensor<2x3x4xf32>, %y: tensor<2x4x5xf32>, %a: tensor<1x4xf32>, %b: tensor<4x1xf32>) -> (tensor<2x3x5xf32>, tensor<1x1xf32>) {
  %r = stablehlo.dot_general %x, %y, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<2x3x4xf32>, tensor<2x4x5xf32>) -> tensor<2x3x5xf32>
  %s = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<1x4xf32>, tensor<4x1xf32>) -> tensor<1x1xf32>
  return %r, %s : tensor<2x3x5xf32>, tensor<1x1xf32>
}

// -----

// Check XLA ElideMultipleDegenerateBatchDotDimsMultipleContracting: XLA refuses two contracting
// dimensions; the default drops the unit batch pair and renumbers the others.
// CHECK-LABEL: func.func @xla_multiple_contracting
// CHECK: %[[D:.*]] = stablehlo.dot_general %{{.*}}, %{{.*}}, batching_dims = [2] x [1], contracting_dims = [0, 3] x [4, 2] : (tensor<5x17x10x13xf32>, tensor<9x10x13x6x5xf32>) -> tensor<10x17x9x6xf32>
// CHECK: stablehlo.reshape %[[D]] : (tensor<10x17x9x6xf32>) -> tensor<10x1x17x9x6xf32>
// XLA-LABEL: func.func @xla_multiple_contracting
// XLA-NOT: stablehlo.reshape
// XLA: stablehlo.dot_general %arg0, %arg1
func.func @xla_multiple_contracting(%x: tensor<1x5x17x10x13xf32>, %y: tensor<1x9x10x13x6x5xf32>) -> tensor<10x1x17x9x6xf32> {
  %r = stablehlo.dot_general %x, %y, batching_dims = [3, 0] x [2, 0], contracting_dims = [1, 4] x [5, 3] : (tensor<1x5x17x10x13xf32>, tensor<1x9x10x13x6x5xf32>) -> tensor<10x1x17x9x6xf32>
  return %r : tensor<10x1x17x9x6xf32>
}

// -----

// Check XLA ElideMultipleDegenerateBatchDotDimsNonContracting: XLA refuses a dot without
// contracting dimensions; the default makes it an outer product.
// CHECK-LABEL: func.func @xla_non_contracting
// CHECK: stablehlo.dot_general {{.*}} : (tensor<101xf32>, tensor<101xf32>) -> tensor<101x101xf32>
// XLA-LABEL: func.func @xla_non_contracting
// XLA-NOT: stablehlo.reshape
// XLA: stablehlo.dot_general %arg0, %arg1
func.func @xla_non_contracting(%x: tensor<1x101xf32>, %y: tensor<1x101xf32>) -> tensor<1x101x101xf32> {
  %r = stablehlo.dot_general %x, %y, batching_dims = [0] x [0], contracting_dims = [] x [] : (tensor<1x101xf32>, tensor<1x101xf32>) -> tensor<1x101x101xf32>
  return %r : tensor<1x101x101xf32>
}
