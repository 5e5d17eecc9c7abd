// RUN: %hlo-opt %s -p token-elimination --split-input-file | filecheck %s

// Check that create_token and after_all become empty pred arrays, and that token
// parameters, results, tuples and while-loop state are retyped with them.
// CHECK-LABEL: func.func @plumbing
// CHECK-SAME: (%arg0: tensor<3xf32>, %arg1: tensor<0xi1>) -> tuple<tensor<3xf32>, tensor<0xi1>>
// CHECK-NOT: !stablehlo.token
// CHECK-NOT: create_token
// CHECK-NOT: after_all
// CHECK: stablehlo.constant dense<> : tensor<0xi1>
// CHECK: %[[E:.*]] = stablehlo.constant dense<> : tensor<0xi1>
// CHECK: stablehlo.while(%{{.*}} = %arg0, %{{.*}} = %[[E]]) : tensor<3xf32>, tensor<0xi1>
// CHECK: stablehlo.tuple %{{.*}}, %{{.*}} : tuple<tensor<3xf32>, tensor<0xi1>>
func.func @plumbing(%x: tensor<3xf32>, %t: !stablehlo.token) -> tuple<tensor<3xf32>, !stablehlo.token> {
  %c = stablehlo.create_token : !stablehlo.token
  %a = stablehlo.after_all %c, %t : !stablehlo.token
  %w:2 = stablehlo.while(%i = %x, %k = %a) : tensor<3xf32>, !stablehlo.token
    cond {
      %z = stablehlo.constant dense<false> : tensor<i1>
      stablehlo.return %z : tensor<i1>
    } do {
      %k2 = stablehlo.after_all %k : !stablehlo.token
      stablehlo.return %i, %k2 : tensor<3xf32>, !stablehlo.token
    }
  %r = stablehlo.tuple %w#0, %w#1 : tuple<tensor<3xf32>, !stablehlo.token>
  return %r : tuple<tensor<3xf32>, !stablehlo.token>
}

// -----

// Check that private functions taking tokens and the calls of them are retyped too.
// CHECK-LABEL: func.func @caller
// CHECK: call @callee(%{{.*}}) : (tensor<0xi1>) -> tensor<0xi1>
// CHECK: func.func private @callee(%arg0: tensor<0xi1>) -> tensor<0xi1>
func.func @caller() -> tensor<0xi1> {
  %c = stablehlo.create_token : !stablehlo.token
  %r = call @callee(%c) : (!stablehlo.token) -> !stablehlo.token
  %z = stablehlo.constant dense<> : tensor<0xi1>
  return %z : tensor<0xi1>
}
func.func private @callee(%t: !stablehlo.token) -> !stablehlo.token {
  return %t : !stablehlo.token
}

// -----

// Check that tokens ordering real effects (an outfeed) are kept.
// CHECK-LABEL: func.func @effects
// CHECK: stablehlo.create_token
// CHECK: stablehlo.after_all
// CHECK: "stablehlo.outfeed"
func.func @effects(%x: tensor<3xf32>) -> !stablehlo.token {
  %c = stablehlo.create_token : !stablehlo.token
  %a = stablehlo.after_all %c : !stablehlo.token
  %o = "stablehlo.outfeed"(%x, %a) {outfeed_config = ""} : (tensor<3xf32>, !stablehlo.token) -> !stablehlo.token
  return %o : !stablehlo.token
}
