// RUN: %hlo-opt %s -p trivial-collectives --split-input-file | filecheck %s

// Check that collectives whose replica groups all have one member become their operand.
// CHECK-LABEL: func.func @singletons
// CHECK-NOT: stablehlo.all_to_all
// CHECK-NOT: stablehlo.all_reduce
// CHECK-NOT: stablehlo.all_gather
// CHECK-NOT: stablehlo.reduce_scatter
// CHECK: return %arg0, %arg0, %arg0, %arg0
func.func @singletons(%x: tensor<2x4xf32>) -> (tensor<2x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>) {
  %t = "stablehlo.all_to_all"(%x) {split_dimension = 0 : i64, concat_dimension = 1 : i64, split_count = 1 : i64, replica_groups = dense<[[0], [1]]> : tensor<2x1xi64>} : (tensor<2x4xf32>) -> tensor<2x4xf32>
  %r = "stablehlo.all_reduce"(%x) ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %0 = stablehlo.add %a, %b : tensor<f32>
      stablehlo.return %0 : tensor<f32>
  }) {replica_groups = dense<[[1], [0]]> : tensor<2x1xi64>} : (tensor<2x4xf32>) -> tensor<2x4xf32>
  %g = "stablehlo.all_gather"(%x) {all_gather_dim = 1 : i64, replica_groups = dense<[[0], [1]]> : tensor<2x1xi64>} : (tensor<2x4xf32>) -> tensor<2x4xf32>
  %s = "stablehlo.reduce_scatter"(%x) ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %0 = stablehlo.add %a, %b : tensor<f32>
      stablehlo.return %0 : tensor<f32>
  }) {scatter_dimension = 0 : i64, replica_groups = dense<[[0], [1]]> : tensor<2x1xi64>} : (tensor<2x4xf32>) -> tensor<2x4xf32>
  return %t, %r, %g, %s : tensor<2x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>
}

// -----

// Check that groups of several replicas, the empty attribute (all replicas) and
// collective_permute (zeros for non-targets) are left alone.
// CHECK-LABEL: func.func @not_trivial
// CHECK: stablehlo.all_reduce
// CHECK: stablehlo.all_gather
// CHECK: stablehlo.collective_permute
func.func @not_trivial(%x: tensor<2xf32>) -> (tensor<2xf32>, tensor<4xf32>, tensor<2xf32>) {
  %r = "stablehlo.all_reduce"(%x) ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %0 = stablehlo.add %a, %b : tensor<f32>
      stablehlo.return %0 : tensor<f32>
  }) {replica_groups = dense<> : tensor<0x0xi64>} : (tensor<2xf32>) -> tensor<2xf32>
  %g = "stablehlo.all_gather"(%x) {all_gather_dim = 0 : i64, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<2xf32>) -> tensor<4xf32>
  %p = "stablehlo.collective_permute"(%x) {source_target_pairs = dense<[[0, 0]]> : tensor<1x2xi64>} : (tensor<2xf32>) -> tensor<2xf32>
  return %r, %g, %p : tensor<2xf32>, tensor<4xf32>, tensor<2xf32>
}

// -----

// Check that with a channel handle (and no use_global_device_ids) singleton replica groups
// span every partition (the spec's cross_replica_and_partition): with 2 partitions each
// group has two processes, so the all_reduce, all_gather and reduce_scatter stay.
// CHECK-LABEL: func.func @channel_two_partitions
// CHECK: stablehlo.all_reduce
// CHECK: stablehlo.all_gather
// CHECK: stablehlo.reduce_scatter
module attributes {mhlo.num_partitions = 2 : i32, mhlo.num_replicas = 1 : i32} {
  func.func @channel_two_partitions(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<8xf32>, tensor<2xf32>) {
    %r = "stablehlo.all_reduce"(%x) ({
      ^bb0(%a: tensor<f32>, %b: tensor<f32>):
        %0 = stablehlo.add %a, %b : tensor<f32>
        stablehlo.return %0 : tensor<f32>
    }) {replica_groups = dense<[[0]]> : tensor<1x1xi64>, channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>} : (tensor<4xf32>) -> tensor<4xf32>
    %g = "stablehlo.all_gather"(%x) {all_gather_dim = 0 : i64, replica_groups = dense<[[0]]> : tensor<1x1xi64>, channel_handle = #stablehlo.channel_handle<handle = 2, type = 1>} : (tensor<4xf32>) -> tensor<8xf32>
    %s = "stablehlo.reduce_scatter"(%x) ({
      ^bb0(%a: tensor<f32>, %b: tensor<f32>):
        %0 = stablehlo.add %a, %b : tensor<f32>
        stablehlo.return %0 : tensor<f32>
    }) {scatter_dimension = 0 : i64, replica_groups = dense<[[0]]> : tensor<1x1xi64>, channel_handle = #stablehlo.channel_handle<handle = 3, type = 1>} : (tensor<4xf32>) -> tensor<2xf32>
    return %r, %g, %s : tensor<4xf32>, tensor<8xf32>, tensor<2xf32>
  }
}

// -----

// Check that a channel handle in a module that does not declare its partition count keeps
// the op (the groups' size is unknown).
// CHECK-LABEL: func.func @channel_unknown_partitions
// CHECK: stablehlo.all_reduce
func.func @channel_unknown_partitions(%x: tensor<4xf32>) -> tensor<4xf32> {
  %r = "stablehlo.all_reduce"(%x) ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %0 = stablehlo.add %a, %b : tensor<f32>
      stablehlo.return %0 : tensor<f32>
  }) {replica_groups = dense<[[0], [1]]> : tensor<2x1xi64>, channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>} : (tensor<4xf32>) -> tensor<4xf32>
  return %r : tensor<4xf32>
}

// -----

// Check that singleton groups of flattened ids (use_global_device_ids), singletons with a
// channel on one partition, and the empty attribute on one replica are removed.
// CHECK-LABEL: func.func @one_process_groups
// CHECK-NOT: stablehlo.all_reduce
// CHECK: return %arg0, %arg0, %arg0
module attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func @one_process_groups(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) {
    %r = "stablehlo.all_reduce"(%x) ({
      ^bb0(%a: tensor<f32>, %b: tensor<f32>):
        %0 = stablehlo.add %a, %b : tensor<f32>
        stablehlo.return %0 : tensor<f32>
    }) {replica_groups = dense<[[0]]> : tensor<1x1xi64>, channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, use_global_device_ids} : (tensor<4xf32>) -> tensor<4xf32>
    %c = "stablehlo.all_reduce"(%x) ({
      ^bb0(%a: tensor<f32>, %b: tensor<f32>):
        %0 = stablehlo.add %a, %b : tensor<f32>
        stablehlo.return %0 : tensor<f32>
    }) {replica_groups = dense<[[0]]> : tensor<1x1xi64>, channel_handle = #stablehlo.channel_handle<handle = 2, type = 1>} : (tensor<4xf32>) -> tensor<4xf32>
    %e = "stablehlo.all_reduce"(%x) ({
      ^bb0(%a: tensor<f32>, %b: tensor<f32>):
        %0 = stablehlo.add %a, %b : tensor<f32>
        stablehlo.return %0 : tensor<f32>
    }) {replica_groups = dense<> : tensor<0x0xi64>} : (tensor<4xf32>) -> tensor<4xf32>
    return %r, %c, %e : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
  }
}

// -----

// Check that singleton flattened-id groups stay when the grid has more processes in a
// group: use_global_device_ids with groups [[0, 1]] on 1 replica x 2 partitions.
// CHECK-LABEL: func.func @flattened_pair
// CHECK: stablehlo.all_reduce
module attributes {mhlo.num_partitions = 2 : i32, mhlo.num_replicas = 1 : i32} {
  func.func @flattened_pair(%x: tensor<4xf32>) -> tensor<4xf32> {
    %r = "stablehlo.all_reduce"(%x) ({
      ^bb0(%a: tensor<f32>, %b: tensor<f32>):
        %0 = stablehlo.add %a, %b : tensor<f32>
        stablehlo.return %0 : tensor<f32>
    }) {replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>, channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, use_global_device_ids} : (tensor<4xf32>) -> tensor<4xf32>
    return %r : tensor<4xf32>
  }
}
