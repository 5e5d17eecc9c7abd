// RUN: %hlo-opt %s -p all-reduce-split --split-input-file | filecheck %s

// Check that a variadic all_reduce becomes one all_reduce per operand, each with a copy of
// the reducer and the same groups, channel and use_global_device_ids.
// CHECK-LABEL: func.func @variadic
// CHECK: %[[A:.*]] = "stablehlo.all_reduce"(%arg0) <{channel_handle = #stablehlo.channel_handle<handle = 2, type = 1>, replica_groups = dense<{{\[\[}}0, 1]]> : tensor<1x2xi64>, use_global_device_ids}>
// CHECK: stablehlo.maximum
// CHECK: }) : (tensor<4x6xf32>) -> tensor<4x6xf32>
// CHECK: %[[B:.*]] = "stablehlo.all_reduce"(%arg1)
// CHECK: stablehlo.maximum
// CHECK: }) : (tensor<4xf32>) -> tensor<4xf32>
// CHECK: return %[[A]], %[[B]]
func.func @variadic(%x: tensor<4x6xf32>, %y: tensor<4xf32>) -> (tensor<4x6xf32>, tensor<4xf32>) {
  %r:2 = "stablehlo.all_reduce"(%x, %y) ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %0 = stablehlo.maximum %a, %b : tensor<f32>
      stablehlo.return %0 : tensor<f32>
  }) {replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>, channel_handle = #stablehlo.channel_handle<handle = 2, type = 1>, use_global_device_ids} : (tensor<4x6xf32>, tensor<4xf32>) -> (tensor<4x6xf32>, tensor<4xf32>)
  return %r#0, %r#1 : tensor<4x6xf32>, tensor<4xf32>
}

// -----

// Check that a single-operand all_reduce is left alone.
// CHECK-LABEL: func.func @single
// CHECK-COUNT-1: stablehlo.all_reduce
// CHECK-NOT: stablehlo.all_reduce
func.func @single(%x: tensor<4xf32>) -> tensor<4xf32> {
  %r = "stablehlo.all_reduce"(%x) ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %0 = stablehlo.add %a, %b : tensor<f32>
      stablehlo.return %0 : tensor<f32>
  }) {replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<4xf32>) -> tensor<4xf32>
  return %r : tensor<4xf32>
}

// -----

// Check that every attribute is kept on each part: a channel handle of type 0 (as XLA's
// SPMD partitioner emits it) and attributes of dialects hlo-mlir does not register.
// CHECK-LABEL: func.func @attributes
// CHECK: "stablehlo.all_reduce"(%arg0) <{channel_handle = #stablehlo.channel_handle<handle = 3, type = 0>, replica_groups = dense<{{\[\[}}0], [1]]> : tensor<2x1xi64>}>
// CHECK: }) {mhlo.frontend_attributes = {a = "b"}, mhlo.original_value = #mhlo.original_value<false, [<[], <"r", []>>]>} : (tensor<4xf32>) -> tensor<4xf32>
// CHECK: "stablehlo.all_reduce"(%arg1) <{channel_handle = #stablehlo.channel_handle<handle = 3, type = 0>, replica_groups = dense<{{\[\[}}0], [1]]> : tensor<2x1xi64>}>
// CHECK: }) {mhlo.frontend_attributes = {a = "b"}, mhlo.original_value = #mhlo.original_value<false, [<[], <"r", []>>]>} : (tensor<2xf32>) -> tensor<2xf32>
func.func @attributes(%x: tensor<4xf32>, %y: tensor<2xf32>) -> (tensor<4xf32>, tensor<2xf32>) {
  %r:2 = "stablehlo.all_reduce"(%x, %y) ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %0 = stablehlo.add %a, %b : tensor<f32>
      stablehlo.return %0 : tensor<f32>
  }) {replica_groups = dense<[[0], [1]]> : tensor<2x1xi64>, channel_handle = #stablehlo.channel_handle<handle = 3, type = 0>, mhlo.frontend_attributes = {a = "b"}, mhlo.original_value = #mhlo.original_value<false, [<[], <"r", []>>]>} : (tensor<4xf32>, tensor<2xf32>) -> (tensor<4xf32>, tensor<2xf32>)
  return %r#0, %r#1 : tensor<4xf32>, tensor<2xf32>
}
