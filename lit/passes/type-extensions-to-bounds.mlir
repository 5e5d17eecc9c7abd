// RUN: %hlo-opt %s -p type-extensions-to-bounds --split-input-file | filecheck %s

// Check that MHLO bounds become StableHLO bounds on results, block arguments and the
// signature, and that ops whose types carry none are untouched.
// CHECK-LABEL: func.func @bounded
// CHECK-SAME: (%arg0: tensor<?x3xf32, #stablehlo.bounds<4, ?>>, %arg1: tensor<i32>) -> (tensor<?x3xf32, #stablehlo.bounds<4, ?>>, tensor<i32>)
// CHECK-NOT: mhlo.type_extensions
// CHECK: %[[E:.*]] = stablehlo.exponential %arg0 : tensor<?x3xf32, #stablehlo.bounds<4, ?>>
// CHECK: %[[G:.*]] = stablehlo.get_dimension_size %[[E]], dim = 0 : (tensor<?x3xf32, #stablehlo.bounds<4, ?>>) -> tensor<i32>
// CHECK: return %[[E]], %[[G]]
func.func @bounded(%x: tensor<?x3xf32, #mhlo.type_extensions<bounds = [4, ?]>>, %n: tensor<i32>) -> (tensor<?x3xf32, #mhlo.type_extensions<bounds = [4, ?]>>, tensor<i32>) {
  %e = stablehlo.exponential %x : tensor<?x3xf32, #mhlo.type_extensions<bounds = [4, ?]>>
  %g = stablehlo.get_dimension_size %e, dim = 0 : (tensor<?x3xf32, #mhlo.type_extensions<bounds = [4, ?]>>) -> tensor<i32>
  return %e, %g : tensor<?x3xf32, #mhlo.type_extensions<bounds = [4, ?]>>, tensor<i32>
}

// -----

// Check that tensors inside tuples and in a region's block arguments are retyped, and
// that bounds of only `?` drop the encoding.
// CHECK-LABEL: func.func @tuple_and_region
// CHECK-SAME: -> tuple<tensor<?xf32, #stablehlo.bounds<5>>, tensor<?xi32>>
// CHECK-NOT: mhlo.type_extensions
// CHECK: stablehlo.while(%{{.*}} = %c, %[[V:.*]] = %arg0) : tensor<i32>, tensor<?xf32, #stablehlo.bounds<5>>
// CHECK: stablehlo.return %{{.*}}, %[[V]] : tensor<i32>, tensor<?xf32, #stablehlo.bounds<5>>
// CHECK: stablehlo.tuple %{{.*}}#1, %arg1 : tuple<tensor<?xf32, #stablehlo.bounds<5>>, tensor<?xi32>>
func.func @tuple_and_region(%x: tensor<?xf32, #mhlo.type_extensions<bounds = [5]>>, %y: tensor<?xi32, #mhlo.type_extensions<bounds = [?]>>) -> tuple<tensor<?xf32, #mhlo.type_extensions<bounds = [5]>>, tensor<?xi32, #mhlo.type_extensions<bounds = [?]>>> {
  %c = stablehlo.constant dense<0> : tensor<i32>
  %w:2 = stablehlo.while(%i = %c, %v = %x) : tensor<i32>, tensor<?xf32, #mhlo.type_extensions<bounds = [5]>>
    cond {
    %lt = stablehlo.compare LT, %i, %c : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %lt : tensor<i1>
  } do {
    stablehlo.return %i, %v : tensor<i32>, tensor<?xf32, #mhlo.type_extensions<bounds = [5]>>
  }
  %t = stablehlo.tuple %w#1, %y : tuple<tensor<?xf32, #mhlo.type_extensions<bounds = [5]>>, tensor<?xi32, #mhlo.type_extensions<bounds = [?]>>>
  return %t : tuple<tensor<?xf32, #mhlo.type_extensions<bounds = [5]>>, tensor<?xi32, #mhlo.type_extensions<bounds = [?]>>>
}

// -----

// Check that other encodings, other MHLO attributes and type extensions that do not fit
// the shape (a bound on a static dimension, one bound for two dimensions) are left alone.
// CHECK-LABEL: func.func @left_alone
// CHECK-NOT: stablehlo.bounds
// CHECK: #mhlo.type_extensions<bounds = [4, 3]>
// CHECK: #mhlo.type_extensions<bounds = [4]>
// CHECK: #mhlo.other<bounds = [4]>
// CHECK: #foo.type_extensions<bounds = [4]>
func.func @left_alone(%a: tensor<?x3xf32, #mhlo.type_extensions<bounds = [4, 3]>>, %b: tensor<?x?xf32, #mhlo.type_extensions<bounds = [4]>>, %c: tensor<?xf32, #mhlo.other<bounds = [4]>>, %d: tensor<?xf32, #foo.type_extensions<bounds = [4]>>) -> tensor<?x3xf32, #mhlo.type_extensions<bounds = [4, 3]>> {
  return %a : tensor<?x3xf32, #mhlo.type_extensions<bounds = [4, 3]>>
}
