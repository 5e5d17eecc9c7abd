// RUN: %hlo-opt %s -p all-reduce-simplifier --split-input-file | filecheck %s

// Check that collectives over one-member groups are their operand (all_reduce over
// singletons; all_gather and reduce_scatter whose result type is the operand's).
// CHECK-LABEL: func.func @single_process_groups
// CHECK-NOT: stablehlo.all_reduce
// CHECK-NOT: stablehlo.all_gather
// CHECK-NOT: stablehlo.reduce_scatter
// CHECK: return %arg0, %arg0 : tensor<4xf32>, tensor<4xf32>
module attributes {mhlo.num_replicas = 2 : i32, mhlo.num_partitions = 1 : i32} {
  func.func @single_process_groups(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
    %a = "stablehlo.all_reduce"(%x) ({
    ^bb0(%p: tensor<f32>, %q: tensor<f32>):
      %s = stablehlo.add %p, %q : tensor<f32>
      stablehlo.return %s : tensor<f32>
    }) {replica_groups = dense<[[0], [1]]> : tensor<2x1xi64>} : (tensor<4xf32>) -> tensor<4xf32>
    %g = "stablehlo.all_gather"(%x) {all_gather_dim = 0 : i64, replica_groups = dense<[[1], [0]]> : tensor<2x1xi64>}
        : (tensor<4xf32>) -> tensor<4xf32>
    %r = "stablehlo.reduce_scatter"(%g) ({
    ^bb0(%p: tensor<f32>, %q: tensor<f32>):
      %s = stablehlo.add %p, %q : tensor<f32>
      stablehlo.return %s : tensor<f32>
    }) {scatter_dimension = 0 : i64, replica_groups = dense<[[0], [1]]> : tensor<2x1xi64>} : (tensor<4xf32>) -> tensor<4xf32>
    return %a, %r : tensor<4xf32>, tensor<4xf32>
  }
}

// -----

// Check that an integer sum of a replicated value (a constant) over groups of 4 is the
// value times 4, and that a sum of that sum over all 8 replicas is again a product.
// CHECK-LABEL: func.func @replicated_integer_sums
// CHECK-NOT: stablehlo.all_reduce
// CHECK: %[[C:.*]] = stablehlo.constant dense<[1, -2, 3]> : tensor<3xi32>
// CHECK: %[[F4:.*]] = stablehlo.constant dense<4> : tensor<i32>
// CHECK: %[[B4:.*]] = stablehlo.broadcast_in_dim %[[F4]], dims = []
// CHECK: %[[S:.*]] = stablehlo.multiply %[[C]], %[[B4]] : tensor<3xi32>
// CHECK: %[[F8:.*]] = stablehlo.constant dense<8> : tensor<i32>
// CHECK: %[[B8:.*]] = stablehlo.broadcast_in_dim %[[F8]], dims = []
// CHECK: %[[T:.*]] = stablehlo.multiply %[[S]], %[[B8]] : tensor<3xi32>
// CHECK: return %[[T]]
module attributes {mhlo.num_replicas = 8 : i32, mhlo.num_partitions = 1 : i32} {
  func.func @replicated_integer_sums() -> tensor<3xi32> {
    %c = stablehlo.constant dense<[1, -2, 3]> : tensor<3xi32>
    %a = "stablehlo.all_reduce"(%c) ({
    ^bb0(%p: tensor<i32>, %q: tensor<i32>):
      %s = stablehlo.add %p, %q : tensor<i32>
      stablehlo.return %s : tensor<i32>
    }) {replica_groups = dense<[[0, 1, 2, 3], [4, 5, 6, 7]]> : tensor<2x4xi64>} : (tensor<3xi32>) -> tensor<3xi32>
    %b = "stablehlo.all_reduce"(%a) ({
    ^bb0(%p: tensor<i32>, %q: tensor<i32>):
      %s = stablehlo.add %p, %q : tensor<i32>
      stablehlo.return %s : tensor<i32>
    }) {replica_groups = dense<> : tensor<0x0xi64>} : (tensor<3xi32>) -> tensor<3xi32>
    return %b : tensor<3xi32>
  }
}

// -----

// Check that a maximum of an argument marked replicated is the argument, that a float sum
// of it over 4 replicas is a product, and that the result of a sum over groups is
// replicated within those groups only (a maximum over the same groups goes, one across
// them stays).
// CHECK-LABEL: func.func @marked_argument
// CHECK: %[[F:.*]] = stablehlo.constant dense<4.000000e+00> : tensor<f32>
// CHECK: %[[B:.*]] = stablehlo.broadcast_in_dim %[[F]]
// CHECK: %[[M:.*]] = stablehlo.multiply %arg0, %[[B]] : tensor<3xf32>
// CHECK: %[[G:.*]] = "stablehlo.all_reduce"(%arg1) <{replica_groups = dense<{{\[\[}}0, 1], [2, 3]]>
// CHECK: %[[ACROSS:.*]] = "stablehlo.all_reduce"(%[[G]]) <{replica_groups = dense<{{\[\[}}0, 2], [1, 3]]>
// CHECK: stablehlo.maximum
// CHECK-NOT: stablehlo.all_reduce
// CHECK: return %arg0, %[[M]], %[[G]], %[[ACROSS]]
module attributes {mhlo.num_replicas = 4 : i32, mhlo.num_partitions = 1 : i32} {
  func.func @marked_argument(%x: tensor<3xf32> {mhlo.is_same_data_across_replicas = true}, %y: tensor<3xi32>)
      -> (tensor<3xf32>, tensor<3xf32>, tensor<3xi32>, tensor<3xi32>) {
    %m = "stablehlo.all_reduce"(%x) ({
    ^bb0(%p: tensor<f32>, %q: tensor<f32>):
      %s = stablehlo.maximum %q, %p : tensor<f32>
      stablehlo.return %s : tensor<f32>
    }) {replica_groups = dense<> : tensor<0x0xi64>} : (tensor<3xf32>) -> tensor<3xf32>
    %f = "stablehlo.all_reduce"(%x) ({
    ^bb0(%p: tensor<f32>, %q: tensor<f32>):
      %s = stablehlo.add %p, %q : tensor<f32>
      stablehlo.return %s : tensor<f32>
    }) {replica_groups = dense<> : tensor<0x0xi64>} : (tensor<3xf32>) -> tensor<3xf32>
    %g = "stablehlo.all_reduce"(%y) ({
    ^bb0(%p: tensor<i32>, %q: tensor<i32>):
      %s = stablehlo.add %p, %q : tensor<i32>
      stablehlo.return %s : tensor<i32>
    }) {replica_groups = dense<[[0, 1], [2, 3]]> : tensor<2x2xi64>} : (tensor<3xi32>) -> tensor<3xi32>
    %within = "stablehlo.all_reduce"(%g) ({
    ^bb0(%p: tensor<i32>, %q: tensor<i32>):
      %s = stablehlo.maximum %p, %q : tensor<i32>
      stablehlo.return %s : tensor<i32>
    }) {replica_groups = dense<[[1, 0], [3, 2]]> : tensor<2x2xi64>} : (tensor<3xi32>) -> tensor<3xi32>
    %across = "stablehlo.all_reduce"(%within) ({
    ^bb0(%p: tensor<i32>, %q: tensor<i32>):
      %s = stablehlo.maximum %p, %q : tensor<i32>
      stablehlo.return %s : tensor<i32>
    }) {replica_groups = dense<[[0, 2], [1, 3]]> : tensor<2x2xi64>} : (tensor<3xi32>) -> tensor<3xi32>
    return %m, %f, %g, %across : tensor<3xf32>, tensor<3xf32>, tensor<3xi32>, tensor<3xi32>
  }
}

// -----

// Check what stays: a value that differs between replicas (an argument, replica_id), a
// float sum over 5 replicas (some orders round unlike x * 5), a complex sum, a channel
// (not cross-replica), groups of unequal sizes, a non-commutative reducer, and anything
// without a replica count.
// CHECK-LABEL: func.func @kept
// CHECK-COUNT-6: "stablehlo.all_reduce"
module attributes {mhlo.num_replicas = 5 : i32, mhlo.num_partitions = 1 : i32} {
  func.func @kept(%x: tensor<3xf32> {mhlo.is_same_data_across_replicas = true}, %y: tensor<3xi32>,
                  %z: tensor<2xcomplex<f32>> {mhlo.is_same_data_across_replicas = true})
      -> (tensor<3xi32>, tensor<3xf32>, tensor<2xcomplex<f32>>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) {
    %a = "stablehlo.all_reduce"(%y) ({
    ^bb0(%p: tensor<i32>, %q: tensor<i32>):
      %s = stablehlo.add %p, %q : tensor<i32>
      stablehlo.return %s : tensor<i32>
    }) {replica_groups = dense<> : tensor<0x0xi64>} : (tensor<3xi32>) -> tensor<3xi32>
    %b = "stablehlo.all_reduce"(%x) ({
    ^bb0(%p: tensor<f32>, %q: tensor<f32>):
      %s = stablehlo.add %p, %q : tensor<f32>
      stablehlo.return %s : tensor<f32>
    }) {replica_groups = dense<> : tensor<0x0xi64>} : (tensor<3xf32>) -> tensor<3xf32>
    %c = "stablehlo.all_reduce"(%z) ({
    ^bb0(%p: tensor<complex<f32>>, %q: tensor<complex<f32>>):
      %s = stablehlo.add %p, %q : tensor<complex<f32>>
      stablehlo.return %s : tensor<complex<f32>>
    }) {replica_groups = dense<[[0, 1], [2, 3], [4, -1]]> : tensor<3x2xi64>} : (tensor<2xcomplex<f32>>) -> tensor<2xcomplex<f32>>
    %d = "stablehlo.all_reduce"(%x) ({
    ^bb0(%p: tensor<f32>, %q: tensor<f32>):
      %s = stablehlo.maximum %p, %q : tensor<f32>
      stablehlo.return %s : tensor<f32>
    }) {replica_groups = dense<> : tensor<0x0xi64>, channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>} : (tensor<3xf32>) -> tensor<3xf32>
    %e = "stablehlo.all_reduce"(%x) ({
    ^bb0(%p: tensor<f32>, %q: tensor<f32>):
      %s = stablehlo.maximum %p, %q : tensor<f32>
      stablehlo.return %s : tensor<f32>
    }) {replica_groups = dense<[[0, 1, 2], [3, 4, -1]]> : tensor<2x3xi64>} : (tensor<3xf32>) -> tensor<3xf32>
    %f = "stablehlo.all_reduce"(%x) ({
    ^bb0(%p: tensor<f32>, %q: tensor<f32>):
      %s = stablehlo.subtract %p, %q : tensor<f32>
      stablehlo.return %s : tensor<f32>
    }) {replica_groups = dense<> : tensor<0x0xi64>} : (tensor<3xf32>) -> tensor<3xf32>
    return %a, %b, %c, %d, %e, %f : tensor<3xi32>, tensor<3xf32>, tensor<2xcomplex<f32>>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>
  }
}

// -----

// Check that a value computed from replica_id is not replicated, and that without
// mhlo.num_replicas a sum of a constant over all replicas stays (its size is unknown).
// CHECK-LABEL: func.func @unknown
// CHECK-COUNT-2: "stablehlo.all_reduce"
func.func @unknown() -> (tensor<i32>, tensor<i32>) {
  %id = stablehlo.replica_id : tensor<ui32>
  %i = stablehlo.convert %id : (tensor<ui32>) -> tensor<i32>
  %a = "stablehlo.all_reduce"(%i) ({
  ^bb0(%p: tensor<i32>, %q: tensor<i32>):
    %s = stablehlo.maximum %p, %q : tensor<i32>
    stablehlo.return %s : tensor<i32>
  }) {replica_groups = dense<> : tensor<0x0xi64>} : (tensor<i32>) -> tensor<i32>
  %c = stablehlo.constant dense<3> : tensor<i32>
  %b = "stablehlo.all_reduce"(%c) ({
  ^bb0(%p: tensor<i32>, %q: tensor<i32>):
    %s = stablehlo.add %p, %q : tensor<i32>
    stablehlo.return %s : tensor<i32>
  }) {replica_groups = dense<> : tensor<0x0xi64>} : (tensor<i32>) -> tensor<i32>
  return %a, %b : tensor<i32>, tensor<i32>
}
