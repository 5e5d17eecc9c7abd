// RUN: %hlo-opt %s -p convolution-group-converter --split-input-file | filecheck %s

// Check that feature groups split the input features and the kernel's output features,
// one convolution per group, concatenated on the output features.
// CHECK-LABEL: func.func @feature_groups
// CHECK-DAG: %[[X0:.*]] = stablehlo.slice %arg0 [0:1, 0:2, 0:5]
// CHECK-DAG: %[[W0:.*]] = stablehlo.slice %arg1 [0:3, 0:2, 0:3]
// CHECK-DAG: %[[X1:.*]] = stablehlo.slice %arg0 [0:1, 2:4, 0:5]
// CHECK-DAG: %[[W1:.*]] = stablehlo.slice %arg1 [3:6, 0:2, 0:3]
// CHECK-DAG: %[[C0:.*]] = stablehlo.convolution(%[[X0]], %[[W0]]) {{.*}} feature_group_count = 1
// CHECK-DAG: %[[C1:.*]] = stablehlo.convolution(%[[X1]], %[[W1]]) {{.*}} feature_group_count = 1
// CHECK: %[[R:.*]] = stablehlo.concatenate %[[C0]], %[[C1]], dim = 1
// CHECK: return %[[R]]
func.func @feature_groups(%x: tensor<1x4x5xf32>, %w: tensor<6x2x3xf32>) -> tensor<1x6x3xf32> {
  %r = stablehlo.convolution(%x, %w) dim_numbers = [b, f, 0]x[o, i, 0]->[b, f, 0], window = {stride = [1]} {batch_group_count = 1 : i64, feature_group_count = 2 : i64} : (tensor<1x4x5xf32>, tensor<6x2x3xf32>) -> tensor<1x6x3xf32>
  return %r : tensor<1x6x3xf32>
}

// -----

// Check that batch groups split the input batch (here dimension 2 of an NWC-like layout).
// CHECK-LABEL: func.func @batch_groups
// CHECK: stablehlo.slice %arg0 [0:5, 0:3, 0:2]
// CHECK: stablehlo.slice %arg1 [0:2, 0:3, 0:2]
// CHECK: stablehlo.convolution{{.*}}batch_group_count = 1
// CHECK: stablehlo.slice %arg0 [0:5, 0:3, 2:4]
// CHECK: stablehlo.slice %arg1 [0:2, 0:3, 2:4]
// CHECK: stablehlo.convolution{{.*}}batch_group_count = 1
// CHECK: stablehlo.concatenate {{.*}}, dim = 0
func.func @batch_groups(%x: tensor<5x3x4xi32>, %w: tensor<2x3x4xi32>) -> tensor<4x2x2xi32> {
  %r = stablehlo.convolution(%x, %w) dim_numbers = [0, f, b]x[0, i, o]->[f, 0, b], window = {stride = [2]} {batch_group_count = 2 : i64, feature_group_count = 1 : i64} : (tensor<5x3x4xi32>, tensor<2x3x4xi32>) -> tensor<4x2x2xi32>
  return %r : tensor<4x2x2xi32>
}

// -----

// Check that ungrouped convolutions stay.
// CHECK-LABEL: func.func @one_group
// CHECK-NOT: stablehlo.slice
// CHECK: stablehlo.convolution(%arg0, %arg1)
func.func @one_group(%x: tensor<1x4x5xf32>, %w: tensor<6x4x3xf32>) -> tensor<1x6x3xf32> {
  %r = stablehlo.convolution(%x, %w) dim_numbers = [b, f, 0]x[o, i, 0]->[b, f, 0], window = {stride = [1]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x4x5xf32>, tensor<6x4x3xf32>) -> tensor<1x6x3xf32>
  return %r : tensor<1x6x3xf32>
}
