// RUN: %hlo-opt %s -p custom-call-expander --split-input-file | filecheck %s

// Check that a call of a registered target (the built-in Sharding: the identity on one
// device) becomes a call of its expansion, imported once as a private function.
// CHECK-LABEL: func.func @registered
// CHECK-NOT: stablehlo.custom_call
// CHECK: %[[A:.*]] = call @[[F:.*]](%arg0) : (tensor<4xf32>) -> tensor<4xf32>
// CHECK: %[[B:.*]] = call @[[F]](%[[A]]) : (tensor<4xf32>) -> tensor<4xf32>
// CHECK: return %[[B]]
// CHECK: func.func private @[[F]](%arg0: tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT: return %arg0 : tensor<4xf32>
func.func @registered(%x: tensor<4xf32>) -> tensor<4xf32> {
  %y = stablehlo.custom_call @Sharding(%x) {mhlo.sharding = "{replicated}"} : (tensor<4xf32>) -> tensor<4xf32>
  %z = stablehlo.custom_call @Sharding(%y) {mhlo.sharding = "{replicated}"} : (tensor<4xf32>) -> tensor<4xf32>
  return %z : tensor<4xf32>
}

// -----

// Check that each signature gets its own expansion.
// CHECK-LABEL: func.func @two_signatures
// CHECK: call @[[F:.*]](%arg0) : (tensor<4xf32>) -> tensor<4xf32>
// CHECK: call @[[G:.*]](%arg1) : (tensor<2xi8>) -> tensor<2xi8>
// CHECK: func.func private @[[F]](%arg0: tensor<4xf32>)
// CHECK: func.func private @[[G]](%arg0: tensor<2xi8>)
func.func @two_signatures(%x: tensor<4xf32>, %n: tensor<2xi8>) -> (tensor<4xf32>, tensor<2xi8>) {
  %y = stablehlo.custom_call @Sharding(%x) : (tensor<4xf32>) -> tensor<4xf32>
  %m = stablehlo.custom_call @Sharding(%n) : (tensor<2xi8>) -> tensor<2xi8>
  return %y, %m : tensor<4xf32>, tensor<2xi8>
}

// -----

// Check that calls of unregistered targets stay (iree-unsupported-ops reports them).
// CHECK-LABEL: func.func @unregistered
// CHECK: stablehlo.custom_call @my_kernel(%arg0)
func.func @unregistered(%x: tensor<4xf32>) -> tensor<4xf32> {
  %y = stablehlo.custom_call @my_kernel(%x) : (tensor<4xf32>) -> tensor<4xf32>
  return %y : tensor<4xf32>
}
