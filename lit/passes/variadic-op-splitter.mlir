// RUN: %hlo-opt %s -p 'variadic-op-splitter{max-operands=2}' --split-input-file | filecheck %s
// RUN: %hlo-opt %s -p variadic-op-splitter --split-input-file | filecheck %s --check-prefix=DEFAULT

// Check that five operands become a tree of concatenates of two, in order; the odd last
// operand is carried to the next round (XLA SplitConcatenate).
// CHECK-LABEL: func.func @five
// CHECK: %[[A:.*]] = stablehlo.concatenate %arg0, %arg1, dim = 0 : (tensor<1xf32>, tensor<2xf32>) -> tensor<3xf32>
// CHECK: %[[B:.*]] = stablehlo.concatenate %arg2, %arg3, dim = 0 : (tensor<3xf32>, tensor<4xf32>) -> tensor<7xf32>
// CHECK: %[[C:.*]] = stablehlo.concatenate %[[A]], %[[B]], dim = 0 : (tensor<3xf32>, tensor<7xf32>) -> tensor<10xf32>
// CHECK: %[[D:.*]] = stablehlo.concatenate %[[C]], %arg4, dim = 0 : (tensor<10xf32>, tensor<5xf32>) -> tensor<15xf32>
// CHECK: return %[[D]]
// DEFAULT-LABEL: func.func @five
// DEFAULT: stablehlo.concatenate %arg0, %arg1, %arg2, %arg3, %arg4, dim = 0
func.func @five(%a: tensor<1xf32>, %b: tensor<2xf32>, %c: tensor<3xf32>, %d: tensor<4xf32>, %e: tensor<5xf32>) -> tensor<15xf32> {
  %r = stablehlo.concatenate %a, %b, %c, %d, %e, dim = 0 : (tensor<1xf32>, tensor<2xf32>, tensor<3xf32>, tensor<4xf32>, tensor<5xf32>) -> tensor<15xf32>
  return %r : tensor<15xf32>
}

// -----

// Check that a concatenate along another dimension keeps it.
// CHECK-LABEL: func.func @dim1
// CHECK: %[[A:.*]] = stablehlo.concatenate %arg0, %arg1, dim = 1 : (tensor<2x1xi8>, tensor<2x1xi8>) -> tensor<2x2xi8>
// CHECK: stablehlo.concatenate %[[A]], %arg2, dim = 1 : (tensor<2x2xi8>, tensor<2x1xi8>) -> tensor<2x3xi8>
func.func @dim1(%a: tensor<2x1xi8>, %b: tensor<2x1xi8>, %c: tensor<2x1xi8>) -> tensor<2x3xi8> {
  %r = stablehlo.concatenate %a, %b, %c, dim = 1 : (tensor<2x1xi8>, tensor<2x1xi8>, tensor<2x1xi8>) -> tensor<2x3xi8>
  return %r : tensor<2x3xi8>
}

// -----

// Check that concatenates within the limit and of dynamic shapes are left alone.
// CHECK-LABEL: func.func @left_alone
// CHECK: stablehlo.concatenate %arg0, %arg1, dim = 0 : (tensor<1xf32>, tensor<2xf32>) -> tensor<3xf32>
// CHECK: stablehlo.concatenate %arg2, %arg2, %arg2, dim = 0 : (tensor<?xf32>, tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32>
func.func @left_alone(%a: tensor<1xf32>, %b: tensor<2xf32>, %c: tensor<?xf32>) -> (tensor<3xf32>, tensor<?xf32>) {
  %r = stablehlo.concatenate %a, %b, dim = 0 : (tensor<1xf32>, tensor<2xf32>) -> tensor<3xf32>
  %s = stablehlo.concatenate %c, %c, %c, dim = 0 : (tensor<?xf32>, tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32>
  return %r, %s : tensor<3xf32>, tensor<?xf32>
}
