// RUN: %hlo-opt %s -p all-gather-decomposer --split-input-file | filecheck %s
// RUN: %hlo-opt %s -p all-gather-decomposer{as-bits=false} --split-input-file | filecheck %s --check-prefix=FLOAT

// Check that a gather over reordered groups writes the operand's bits at its position in
// the group (a table indexed by replica_id) into a zero buffer, and sums the buffers over
// the same groups.
// CHECK-LABEL: func.func @reordered
// CHECK-NOT: stablehlo.all_gather
// CHECK: %[[ID:.*]] = stablehlo.replica_id
// CHECK: %[[TABLE:.*]] = stablehlo.constant dense<[1, 0]> : tensor<2xui32>
// CHECK: %[[ROW:.*]] = stablehlo.dynamic_slice %[[TABLE]], %[[ID]], sizes = [1]
// CHECK: %[[K:.*]] = stablehlo.reshape %[[ROW]]
// CHECK: %[[START:.*]] = stablehlo.multiply %[[K]], %{{.*}} : tensor<ui32>
// CHECK: %[[BITS:.*]] = stablehlo.bitcast_convert %arg0 : (tensor<2x3xf32>) -> tensor<2x3xi32>
// CHECK: %[[ZERO:.*]] = stablehlo.constant dense<0> : tensor<i32>
// CHECK: %[[BUF:.*]] = stablehlo.broadcast_in_dim %[[ZERO]], dims = [] : (tensor<i32>) -> tensor<2x6xi32>
// CHECK: %[[DUS:.*]] = stablehlo.dynamic_update_slice %[[BUF]], %[[BITS]], %{{.*}}, %[[START]]
// CHECK: %[[SUM:.*]] = "stablehlo.all_reduce"(%[[DUS]]) <{replica_groups = dense<{{\[\[}}1, 0]]> : tensor<1x2xi64>}>
// CHECK: stablehlo.add
// CHECK: %[[OUT:.*]] = stablehlo.bitcast_convert %[[SUM]] : (tensor<2x6xi32>) -> tensor<2x6xf32>
// CHECK: return %[[OUT]]
// FLOAT-LABEL: func.func @reordered
// FLOAT-NOT: bitcast_convert
// FLOAT: stablehlo.constant dense<-0.000000e+00> : tensor<f32>
// FLOAT: "stablehlo.all_reduce"
// FLOAT: stablehlo.add
module attributes {mhlo.num_replicas = 2 : i32, mhlo.num_partitions = 1 : i32} {
  func.func @reordered(%x: tensor<2x3xf32>) -> tensor<2x6xf32> {
    %r = "stablehlo.all_gather"(%x) {all_gather_dim = 1 : i64, replica_groups = dense<[[1, 0]]> : tensor<1x2xi64>}
        : (tensor<2x3xf32>) -> tensor<2x6xf32>
    return %r : tensor<2x6xf32>
  }
}

// -----

// Check that with positions equal to ids (all replicas) the id is the position, and that
// PRED buffers are combined with or over false.
// CHECK-LABEL: func.func @all_replicas_pred
// CHECK-NOT: stablehlo.dynamic_slice
// CHECK: %[[ID:.*]] = stablehlo.replica_id
// CHECK: %[[START:.*]] = stablehlo.multiply %[[ID]], %{{.*}} : tensor<ui32>
// CHECK: stablehlo.constant dense<false> : tensor<i1>
// CHECK: stablehlo.dynamic_update_slice %{{.*}}, %arg0, %[[START]]
// CHECK: "stablehlo.all_reduce"
// CHECK: stablehlo.or
module attributes {mhlo.num_replicas = 4 : i32, mhlo.num_partitions = 1 : i32} {
  func.func @all_replicas_pred(%p: tensor<2xi1>) -> tensor<8xi1> {
    %r = "stablehlo.all_gather"(%p) {all_gather_dim = 0 : i64, replica_groups = dense<> : tensor<0x0xi64>}
        : (tensor<2xi1>) -> tensor<8xi1>
    return %r : tensor<8xi1>
  }
}

// -----

// Check that flattened ids over 2 partitions index the table with replica_id * 2 +
// partition_id, that the all-reduce keeps the channel and use_global_device_ids, and
// that a variadic gather gives one all-reduce per operand.
// CHECK-LABEL: func.func @flattened
// CHECK: %[[R:.*]] = stablehlo.replica_id
// CHECK: %[[R2:.*]] = stablehlo.multiply %[[R]], %{{.*}}
// CHECK: %[[P:.*]] = stablehlo.partition_id
// CHECK: %[[ID:.*]] = stablehlo.add %[[R2]], %[[P]]
// CHECK: stablehlo.dynamic_slice %{{.*}}, %[[ID]]
// CHECK: "stablehlo.all_reduce"({{.*}}) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = {{.*}}, use_global_device_ids}>
// CHECK: "stablehlo.all_reduce"({{.*}}) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = {{.*}}, use_global_device_ids}>
// CHECK-NOT: stablehlo.all_gather
module attributes {mhlo.num_replicas = 2 : i32, mhlo.num_partitions = 2 : i32} {
  func.func @flattened(%x: tensor<2xf32>, %y: tensor<1x2xi32>) -> (tensor<4xf32>, tensor<2x2xi32>) {
    %r:2 = "stablehlo.all_gather"(%x, %y) {all_gather_dim = 0 : i64, replica_groups = dense<[[3, 1], [0, 2]]> : tensor<2x2xi64>,
        channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, use_global_device_ids}
        : (tensor<2xf32>, tensor<1x2xi32>) -> (tensor<4xf32>, tensor<2x2xi32>)
    return %r#0, %r#1 : tensor<4xf32>, tensor<2x2xi32>
  }
}

// -----

// Check that gathers whose positions are not known stay: all replicas without a replica
// count, a channel without global ids over two partitions (the StableHLO spec and XLA
// order such groups differently), flattened ids without a replica count.
// CHECK-LABEL: func.func @unknown_positions
// CHECK-COUNT-3: stablehlo.all_gather
// CHECK-NOT: stablehlo.all_reduce
module attributes {mhlo.num_partitions = 2 : i32} {
  func.func @unknown_positions(%x: tensor<2xf32>) -> (tensor<4xf32>, tensor<8xf32>, tensor<4xf32>) {
    %a = "stablehlo.all_gather"(%x) {all_gather_dim = 0 : i64, replica_groups = dense<> : tensor<0x0xi64>}
        : (tensor<2xf32>) -> tensor<4xf32>
    %b = "stablehlo.all_gather"(%x) {all_gather_dim = 0 : i64, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>,
        channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>} : (tensor<2xf32>) -> tensor<8xf32>
    %c = "stablehlo.all_gather"(%x) {all_gather_dim = 0 : i64, replica_groups = dense<[[0, 1], [2, 3]]> : tensor<2x2xi64>,
        channel_handle = #stablehlo.channel_handle<handle = 2, type = 1>, use_global_device_ids}
        : (tensor<2xf32>) -> tensor<4xf32>
    return %a, %b, %c : tensor<4xf32>, tensor<8xf32>, tensor<4xf32>
  }
}

// -----

// Check that complex gathers stay with as-bits (no integer of their bits) and are summed
// over -0.0 - 0.0i without it.
// CHECK-LABEL: func.func @complex
// CHECK: stablehlo.all_gather
// FLOAT-LABEL: func.func @complex
// FLOAT-NOT: stablehlo.all_gather
// FLOAT: stablehlo.constant dense<(-0.000000e+00,-0.000000e+00)> : tensor<complex<f32>>
module attributes {mhlo.num_replicas = 2 : i32, mhlo.num_partitions = 1 : i32} {
  func.func @complex(%x: tensor<2xcomplex<f32>>) -> tensor<4xcomplex<f32>> {
    %r = "stablehlo.all_gather"(%x) {all_gather_dim = 0 : i64, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>}
        : (tensor<2xcomplex<f32>>) -> tensor<4xcomplex<f32>>
    return %r : tensor<4xcomplex<f32>>
  }
}
