// RUN: %hlo-opt %s -p emulate-replicas --split-input-file --verify-diagnostics | filecheck %s
// RUN: %hlo-opt %s -p "emulate-replicas{num-replicas=2}" --split-input-file --verify-diagnostics \
// RUN:   | filecheck %s --check-prefix=OPTION

// Check that the entry takes and returns every replica's values (replica-major), that an
// add all_reduce becomes one add shared by the group, and that replica_id is a constant per copy.
// CHECK-LABEL: func.func @main
// CHECK-SAME: (%[[X0:.*]]: tensor<4xf32>, %[[X1:.*]]: tensor<4xf32>) -> (tensor<4xf32>, tensor<ui32>, tensor<4xf32>, tensor<ui32>)
// CHECK-NOT: stablehlo.all_reduce
// CHECK-NOT: stablehlo.replica_id
// CHECK-DAG: %[[R0:.*]] = stablehlo.constant dense<0> : tensor<ui32>
// CHECK-DAG: %[[R1:.*]] = stablehlo.constant dense<1> : tensor<ui32>
// CHECK-DAG: %[[S:.*]] = stablehlo.add %[[X0]], %[[X1]] : tensor<4xf32>
// CHECK: return %[[S]], %[[R0]], %[[S]], %[[R1]]
module @all_reduce attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 2 : i32} {
  func.func @main(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<ui32>) {
    %s = "stablehlo.all_reduce"(%x) ({
      ^bb0(%a: tensor<f32>, %b: tensor<f32>):
        %0 = stablehlo.add %a, %b : tensor<f32>
        stablehlo.return %0 : tensor<f32>
    }) {replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<4xf32>) -> tensor<4xf32>
    %id = stablehlo.replica_id : tensor<ui32>
    return %s, %id : tensor<4xf32>, tensor<ui32>
  }
}
// OPTION-LABEL: func.func @main
// OPTION-SAME: (%{{.*}}: tensor<4xf32>, %{{.*}}: tensor<4xf32>) ->

// -----

// Check that all_gather concatenates in group order, reduce_scatter slices the reduction
// per member, and a custom reducer goes through stablehlo.map.
// CHECK-LABEL: func.func @main
// CHECK-SAME: (%[[A:.*]]: tensor<2xi32>, %[[B:.*]]: tensor<2xi32>)
// CHECK: %[[G:.*]] = stablehlo.concatenate %[[B]], %[[A]], dim = 0 : (tensor<2xi32>, tensor<2xi32>) -> tensor<4xi32>
// CHECK: %[[M:.*]] = "stablehlo.map"(%[[A]], %[[B]])
// CHECK: stablehlo.compare GT
// CHECK: stablehlo.select
// CHECK: %[[L:.*]] = stablehlo.slice %[[M]] [0:1]
// CHECK: %[[H:.*]] = stablehlo.slice %[[M]] [1:2]
// CHECK: return %[[G]], %[[L]], %[[G]], %[[H]]
module @gather_scatter attributes {mhlo.num_replicas = 2 : i32} {
  func.func @main(%x: tensor<2xi32>) -> (tensor<4xi32>, tensor<1xi32>) {
    %g = "stablehlo.all_gather"(%x) {all_gather_dim = 0 : i64, replica_groups = dense<[[1, 0]]> : tensor<1x2xi64>} : (tensor<2xi32>) -> tensor<4xi32>
    %r = "stablehlo.reduce_scatter"(%x) ({
      ^bb0(%a: tensor<i32>, %b: tensor<i32>):
        %gt = stablehlo.compare GT, %a, %b : (tensor<i32>, tensor<i32>) -> tensor<i1>
        %m = stablehlo.select %gt, %a, %b : tensor<i1>, tensor<i32>
        stablehlo.return %m : tensor<i32>
    }) {scatter_dimension = 0 : i64, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<2xi32>) -> tensor<1xi32>
    return %g, %r : tensor<4xi32>, tensor<1xi32>
  }
}

// -----

// Check that collective_permute moves the source's value and gives zeros to a replica that
// is no target, and that all_to_all exchanges blocks (block k of each member goes to member k).
// CHECK-LABEL: func.func @main
// CHECK-SAME: (%[[A:.*]]: tensor<2x4xf32>, %[[B:.*]]: tensor<2x4xf32>)
// CHECK: %[[Z:.*]] = stablehlo.constant dense<0.000000e+00> : tensor<f32>
// CHECK: %[[ZB:.*]] = stablehlo.broadcast_in_dim %[[Z]], dims = [] : (tensor<f32>) -> tensor<2x4xf32>
// CHECK-DAG: %[[A0:.*]] = stablehlo.slice %[[A]] [0:2, 0:2]
// CHECK-DAG: %[[A1:.*]] = stablehlo.slice %[[A]] [0:2, 2:4]
// CHECK-DAG: %[[B0:.*]] = stablehlo.slice %[[B]] [0:2, 0:2]
// CHECK-DAG: %[[B1:.*]] = stablehlo.slice %[[B]] [0:2, 2:4]
// CHECK-DAG: %[[T0:.*]] = stablehlo.concatenate %[[A0]], %[[B0]], dim = 0
// CHECK-DAG: %[[T1:.*]] = stablehlo.concatenate %[[A1]], %[[B1]], dim = 0
// CHECK: return %[[ZB]], %[[T0]], %[[A]], %[[T1]]
module @permute attributes {mhlo.num_replicas = 2 : i32} {
  func.func @main(%x: tensor<2x4xf32>) -> (tensor<2x4xf32>, tensor<4x2xf32>) {
    %p = "stablehlo.collective_permute"(%x) {source_target_pairs = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<2x4xf32>) -> tensor<2x4xf32>
    %t = "stablehlo.all_to_all"(%x) {split_dimension = 1 : i64, concat_dimension = 0 : i64, split_count = 2 : i64, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<2x4xf32>) -> tensor<4x2xf32>
    return %p, %t : tensor<2x4xf32>, tensor<4x2xf32>
  }
}

// -----

// Check that a collective in a called function is emulated after inlining, and that
// replica_id inside a region becomes each copy's constant.
// CHECK-LABEL: func.func @main
// CHECK-NOT: func.call
// CHECK-NOT: stablehlo.replica_id
// CHECK: stablehlo.while
// CHECK: stablehlo.constant dense<0> : tensor<ui32>
// CHECK: stablehlo.while
// CHECK: stablehlo.constant dense<1> : tensor<ui32>
// CHECK: stablehlo.concatenate
// CHECK-NOT: func.func private @gather
module @nested attributes {mhlo.num_replicas = 2 : i32} {
  func.func private @gather(%v: tensor<2xf32>) -> tensor<4xf32> {
    %g = "stablehlo.all_gather"(%v) {all_gather_dim = 0 : i64, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<2xf32>) -> tensor<4xf32>
    return %g : tensor<4xf32>
  }
  func.func @main(%x: tensor<2xf32>, %n: tensor<ui32>) -> (tensor<ui32>, tensor<4xf32>) {
    %w = stablehlo.while(%i = %n) : tensor<ui32>
      cond {
        %c = stablehlo.constant dense<10> : tensor<ui32>
        %lt = stablehlo.compare LT, %i, %c : (tensor<ui32>, tensor<ui32>) -> tensor<i1>
        stablehlo.return %lt : tensor<i1>
      } do {
        %id = stablehlo.replica_id : tensor<ui32>
        %next = stablehlo.add %i, %id : tensor<ui32>
        stablehlo.return %next : tensor<ui32>
      }
    %g = func.call @gather(%x) : (tensor<2xf32>) -> tensor<4xf32>
    return %w, %g : tensor<ui32>, tensor<4xf32>
  }
}

// -----

// Check that a collective inside a while region is refused, naming the limitation.
module @in_loop attributes {mhlo.num_replicas = 2 : i32} {
  // expected-error @unknown {{emulate-replicas requires collectives at the top level of the entry function; got stablehlo.all_reduce inside stablehlo.while}}
  func.func @main(%x: tensor<2xf32>) -> tensor<2xf32> {
    %w = stablehlo.while(%v = %x) : tensor<2xf32>
      cond {
        %t = stablehlo.constant dense<false> : tensor<i1>
        stablehlo.return %t : tensor<i1>
      } do {
        %s = "stablehlo.all_reduce"(%v) ({
          ^bb0(%a: tensor<f32>, %b: tensor<f32>):
            %0 = stablehlo.add %a, %b : tensor<f32>
            stablehlo.return %0 : tensor<f32>
        }) {replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<2xf32>) -> tensor<2xf32>
        stablehlo.return %s : tensor<2xf32>
      }
    return %w : tensor<2xf32>
  }
}

// -----

// Check that replica groups that do not partition the module's replicas are refused.
module @bad_groups attributes {mhlo.num_replicas = 2 : i32} {
  // expected-error @unknown {{stablehlo.all_gather requires replica_groups that partition the replicas [0, 2) (each replica in exactly one group); got [[0, 1], [2, 3]] (replica 2 out of range, replica 3 out of range)}}
  func.func @main(%x: tensor<2xf32>) -> tensor<4xf32> {
    %g = "stablehlo.all_gather"(%x) {all_gather_dim = 0 : i64, replica_groups = dense<[[0, 1], [2, 3]]> : tensor<2x2xi64>} : (tensor<2xf32>) -> tensor<4xf32>
    return %g : tensor<4xf32>
  }
}

// -----

// Check that with a channel handle an all_reduce group spans every partition (the spec's
// cross_replica_and_partition: [[0], [1]] on 2 replicas x 2 partitions is {(0, 0), (0, 1)}
// and {(1, 0), (1, 1)}), that use_global_device_ids reads the groups as flattened process
// ids (r * 2 + p), and that partition_id is each process's constant.
// CHECK-LABEL: func.func @main
// CHECK-SAME: (%[[X0:[^:]*]]: tensor<4xf32>, %[[X1:[^:]*]]: tensor<4xf32>, %[[X2:[^:]*]]: tensor<4xf32>, %[[X3:[^:]*]]: tensor<4xf32>)
// CHECK-NOT: stablehlo.all_reduce
// CHECK-NOT: stablehlo.partition_id
// CHECK-DAG: %[[S01:.*]] = stablehlo.add %[[X0]], %[[X1]] : tensor<4xf32>
// CHECK-DAG: %[[S23:.*]] = stablehlo.add %[[X2]], %[[X3]] : tensor<4xf32>
// CHECK-DAG: %[[G02:.*]] = stablehlo.add %[[X0]], %[[X2]] : tensor<4xf32>
// CHECK-DAG: %[[G13:.*]] = stablehlo.add %[[X1]], %[[X3]] : tensor<4xf32>
// CHECK-DAG: %[[P0:.*]] = stablehlo.constant dense<0> : tensor<ui32>
// CHECK-DAG: %[[P1:.*]] = stablehlo.constant dense<1> : tensor<ui32>
// CHECK-DAG: %[[Q0:.*]] = stablehlo.constant dense<0> : tensor<ui32>
// CHECK-DAG: %[[Q1:.*]] = stablehlo.constant dense<1> : tensor<ui32>
// CHECK: return %[[S01]], %[[G02]], %[[P0]], %[[S01]], %[[G13]], %[[P1]], %[[S23]], %[[G02]], %[[Q0]], %[[S23]], %[[G13]], %[[Q1]]
module @partitions attributes {mhlo.num_partitions = 2 : i32, mhlo.num_replicas = 2 : i32} {
  func.func @main(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<ui32>) {
    %s = "stablehlo.all_reduce"(%x) ({
      ^bb0(%a: tensor<f32>, %b: tensor<f32>):
        %0 = stablehlo.add %a, %b : tensor<f32>
        stablehlo.return %0 : tensor<f32>
    }) {replica_groups = dense<[[0], [1]]> : tensor<2x1xi64>, channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>} : (tensor<4xf32>) -> tensor<4xf32>
    %g = "stablehlo.all_reduce"(%x) ({
      ^bb0(%a: tensor<f32>, %b: tensor<f32>):
        %0 = stablehlo.add %a, %b : tensor<f32>
        stablehlo.return %0 : tensor<f32>
    }) {replica_groups = dense<[[0, 2], [1, 3]]> : tensor<2x2xi64>, channel_handle = #stablehlo.channel_handle<handle = 2, type = 1>, use_global_device_ids} : (tensor<4xf32>) -> tensor<4xf32>
    %p = stablehlo.partition_id : tensor<ui32>
    return %s, %g, %p : tensor<4xf32>, tensor<4xf32>, tensor<ui32>
  }
}

// -----

// Check that a permute with a channel handle moves data between partitions (pairs of
// partition ids, within each replica): on 2 replicas x 2 partitions, process (r, 1) gets
// (r, 0)'s operand and (r, 0) gets zeros.
// CHECK-LABEL: func.func @main
// CHECK-SAME: (%[[A:.*]]: tensor<2xf32>, %[[B:.*]]: tensor<2xf32>, %[[C:.*]]: tensor<2xf32>, %[[D:.*]]: tensor<2xf32>)
// CHECK: %[[Z:.*]] = stablehlo.broadcast_in_dim
// CHECK: %[[Z2:.*]] = stablehlo.broadcast_in_dim
// CHECK: return %[[Z]], %[[A]], %[[Z2]], %[[C]]
module @cross_partition attributes {mhlo.num_partitions = 2 : i32, mhlo.num_replicas = 2 : i32} {
  func.func @main(%x: tensor<2xf32>) -> tensor<2xf32> {
    %p = "stablehlo.collective_permute"(%x) {source_target_pairs = dense<[[0, 1]]> : tensor<1x2xi64>, channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>} : (tensor<2xf32>) -> tensor<2xf32>
    return %p : tensor<2xf32>
  }
}

// -----

// Check that partition pairs outside the module's partitions are refused.
module @bad_partition_pairs attributes {mhlo.num_replicas = 2 : i32} {
  // expected-error @unknown {{stablehlo.collective_permute (pairs of partition ids) requires replica ids in [0, 1); got 1 in [(0, 1)]}}
  func.func @main(%x: tensor<2xf32>) -> tensor<2xf32> {
    %p = "stablehlo.collective_permute"(%x) {source_target_pairs = dense<[[0, 1]]> : tensor<1x2xi64>, channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>} : (tensor<2xf32>) -> tensor<2xf32>
    return %p : tensor<2xf32>
  }
}
