// RUN: %hlo-opt %s -p host-calls --split-input-file | filecheck %s

// Check that infeed and outfeed become calls of host-module imports in program order,
// their tokens become the ops' token operands, and the imports are recorded in the
// public function's reflection.
// CHECK-LABEL: func.func @feeds
// CHECK-SAME: iree.reflection = {hlo_mlir.host_calls = "[{\22channel\22: 0, \22kind\22: \22infeed\22, \22name\22: \22infeed_0\22, \22operands\22: [], \22results\22: [\22f32[3]\22, \22s32[]\22]
// CHECK-NOT: stablehlo.infeed
// CHECK: %[[V:.*]]:2 = call @hlo_mlir_host.infeed_0() : () -> (tensor<3xf32>, tensor<i32>)
// CHECK: %[[M:.*]] = stablehlo.multiply %arg0, %[[V]]#0
// CHECK: call @hlo_mlir_host.outfeed_1(%[[M]]) : (tensor<3xf32>) -> ()
// CHECK-NOT: stablehlo.outfeed
// CHECK: return %[[V]]#1, %[[T:.*]] : tensor<i32>, !stablehlo.token
// CHECK-DAG: func.func private @hlo_mlir_host.infeed_0() -> (tensor<3xf32>, tensor<i32>)
// CHECK-DAG: func.func private @hlo_mlir_host.outfeed_1(tensor<3xf32>)
func.func @feeds(%x: tensor<3xf32>) -> (tensor<i32>, !stablehlo.token) {
  %t = stablehlo.create_token : !stablehlo.token
  %d:3 = "stablehlo.infeed"(%t) {infeed_config = ""} : (!stablehlo.token) -> (tensor<3xf32>, tensor<i32>, !stablehlo.token)
  %m = stablehlo.multiply %x, %d#0 : tensor<3xf32>
  %o = "stablehlo.outfeed"(%m, %d#2) {outfeed_config = ""} : (tensor<3xf32>, !stablehlo.token) -> !stablehlo.token
  return %d#1, %o : tensor<i32>, !stablehlo.token
}

// -----

// Check that a send and a recv on one channel in one block become data flow.
// CHECK-LABEL: func.func @pair
// CHECK-NOT: stablehlo.send
// CHECK-NOT: stablehlo.recv
// CHECK-NOT: call
// CHECK: %[[S:.*]] = stablehlo.multiply %arg0, %arg0
// CHECK: stablehlo.add %[[S]], %arg0
func.func @pair(%x: tensor<4xf32>) -> tensor<4xf32> {
  %t = stablehlo.create_token : !stablehlo.token
  %s = stablehlo.multiply %x, %x : tensor<4xf32>
  %u = "stablehlo.send"(%s, %t) {channel_handle = #stablehlo.channel_handle<handle = 5, type = 1>, is_host_transfer = false} : (tensor<4xf32>, !stablehlo.token) -> !stablehlo.token
  %r:2 = "stablehlo.recv"(%u) {channel_handle = #stablehlo.channel_handle<handle = 5, type = 1>, is_host_transfer = false} : (!stablehlo.token) -> (tensor<4xf32>, !stablehlo.token)
  %y = stablehlo.add %r#0, %x : tensor<4xf32>
  return %y : tensor<4xf32>
}

// -----

// Check that a recv before its send, and a host transfer, are not paired: they become
// calls on their channels' host queues.
// CHECK-LABEL: func.func @unpaired
// CHECK-SAME: \22channel\22: 2, \22kind\22: \22recv\22
// CHECK-SAME: \22channel\22: 2, \22kind\22: \22send\22
// CHECK-SAME: \22channel\22: 3, \22kind\22: \22send\22
// CHECK: %[[R:.*]] = call @hlo_mlir_host.recv_0() : () -> tensor<4xf32>
// CHECK: call @hlo_mlir_host.send_1(%[[R]]) : (tensor<4xf32>) -> ()
// CHECK: call @hlo_mlir_host.send_2(%arg0) : (tensor<4xf32>) -> ()
// CHECK-NOT: stablehlo.send
func.func @unpaired(%x: tensor<4xf32>) -> tensor<4xf32> {
  %t = stablehlo.create_token : !stablehlo.token
  %r:2 = "stablehlo.recv"(%t) {channel_handle = #stablehlo.channel_handle<handle = 2, type = 1>, is_host_transfer = false} : (!stablehlo.token) -> (tensor<4xf32>, !stablehlo.token)
  %u = "stablehlo.send"(%r#0, %r#1) {channel_handle = #stablehlo.channel_handle<handle = 2, type = 1>, is_host_transfer = false} : (tensor<4xf32>, !stablehlo.token) -> !stablehlo.token
  %h = "stablehlo.send"(%x, %u) {channel_handle = #stablehlo.channel_handle<handle = 3, type = 2>, is_host_transfer = true} : (tensor<4xf32>, !stablehlo.token) -> !stablehlo.token
  return %r#0 : tensor<4xf32>
}

// -----

// Check that custom calls of targets not registered as a HostFunction stay, and that a
// module without effects is left alone.
// CHECK-LABEL: func.func @no_host_calls
// CHECK-NOT: iree.reflection
// CHECK: stablehlo.custom_call @my_kernel(%arg0)
// CHECK-NOT: call @hlo_mlir_host
func.func @no_host_calls(%x: tensor<4xf32>) -> tensor<4xf32> {
  %y = stablehlo.custom_call @my_kernel(%x) : (tensor<4xf32>) -> tensor<4xf32>
  return %y : tensor<4xf32>
}
