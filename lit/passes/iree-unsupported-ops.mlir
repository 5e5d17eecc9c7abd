// RUN: %hlo-opt %s -p iree-unsupported-ops --split-input-file --verify-diagnostics | filecheck %s --check-prefix=OK
// RUN: not %hlo-opt %s -p iree-unsupported-ops --split-input-file 2>&1 | filecheck %s
// RUN: %exitcode %hlo-opt %s -p iree-unsupported-ops --split-input-file 2>&1 | filecheck %s --check-prefix=STATUS
// RUN: %exitcode %hlo-opt %s -p custom-call-expander,iree-unsupported-ops --split-input-file 2>&1 | filecheck %s --check-prefix=EXPANDED
// STATUS: exit code: 1

// Check that a module IREE can run passes unchanged and raises nothing: the only error
// is the one of the second case.
// OK-LABEL: func.func @supported
// OK: stablehlo.optimization_barrier
// OK-NOT: func.func @effects
// CHECK-NOT: :[[# @LINE + 1]]:
func.func @supported(%x: tensor<4xf32>) -> tensor<4xf32> {
  %y = stablehlo.optimization_barrier %x : tensor<4xf32>
  return %y : tensor<4xf32>
}

// -----
// Check that infeed, outfeed, send, recv and an unregistered custom call fail with one
// error naming each op, its line and what to do instead (exit status 1).
// CHECK-LABEL: error: the module cannot run on IREE:
// expected-error@unknown {{the module cannot run on IREE:}}
func.func @effects(%x: tensor<4xf32>) -> tensor<4xf32> {
  %t = stablehlo.create_token : !stablehlo.token
  // CHECK-NEXT: :[[# @LINE + 1]]: Infeed is not supported by the IREE runtime: it has no infeed queue to read from; run pass host-calls before this check (iree-legalize does), which makes it read the loaded module's infeed queue.
  %d:2 = "stablehlo.infeed"(%t) {infeed_config = ""} : (!stablehlo.token) -> (tensor<4xf32>, !stablehlo.token)
  // CHECK-NEXT: :[[# @LINE + 1]]: Outfeed is not supported by the IREE runtime: it has no outfeed queue to write to; run pass host-calls before this check (iree-legalize does), which makes it write the loaded module's outfeed queue.
  %o = "stablehlo.outfeed"(%d#0, %d#1) {outfeed_config = ""} : (tensor<4xf32>, !stablehlo.token) -> !stablehlo.token
  // CHECK-NEXT: :[[# @LINE + 1]]: Send is not supported by the IREE runtime: it has no channels to another computation or the host
  %s = "stablehlo.send"(%x, %o) {channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, is_host_transfer = false} : (tensor<4xf32>, !stablehlo.token) -> !stablehlo.token
  // CHECK-NEXT: :[[# @LINE + 1]]: Recv is not supported by the IREE runtime: it has no channels from another computation or the host
  %r:2 = "stablehlo.recv"(%s) {channel_handle = #stablehlo.channel_handle<handle = 2, type = 1>, is_host_transfer = false} : (!stablehlo.token) -> (tensor<4xf32>, !stablehlo.token)
  // CHECK-NEXT: :[[# @LINE + 1]]: CustomCall target 'my_kernel' is not registered, and IREE has no custom-call functions; registered targets: Sharding. Register it with hlo_mlir.register_custom_call_target(name, expansion), or with hlo_mlir.HostFunction(fn) to run a Python function on the host.
  %y = stablehlo.custom_call @my_kernel(%r#0) : (tensor<4xf32>) -> tensor<4xf32>
  // CHECK-NEXT: :[[# @LINE + 1]]: CustomCall target 'Sharding' is registered but was not expanded; run custom-call-expander and host-calls before this check (a HostFunction target takes no tokens).
  %z = stablehlo.custom_call @Sharding(%y) : (tensor<4xf32>) -> tensor<4xf32>
  return %z : tensor<4xf32>
}
// Check that after custom-call-expander the registered target is gone from the report.
// EXPANDED: CustomCall target 'my_kernel' is not registered
// EXPANDED-NOT: 'Sharding'
// EXPANDED: exit code: 1
