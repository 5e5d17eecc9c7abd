# RUN: %python %s | filecheck %s
"""Builder output of dialect_ops.collectives (one TEST per case)."""

from hlo_mlir import (
    AllGather,
    AllReduce,
    AllToAll,
    CollectivePermute,
    CrossReplicaSum,
    Parameter,
    ReduceScatter,
    ReplicaId,
    Shape,
    Tuple,
)

from harness import add_f32, test


def x(b, shape="f32[4,6]"):
    return Parameter(b, 0, Shape.parse(shape), "x")


# Check that the replica count becomes module attributes and ReplicaId is a u32 scalar.
# CHECK-LABEL: TEST: replica_id
# CHECK: module @replica_id attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 4 : i32}
# CHECK: %[[ID:.*]] = stablehlo.replica_id : tensor<ui32>
# CHECK: return %[[ID]] : tensor<ui32>
test("replica_id", lambda b: ReplicaId(b), replicas=4)

# Check that AllReduce inlines the reducer, spells "all replicas" as the explicit group
# when the count is known, and writes the channel and use_global_device_ids.
# CHECK-LABEL: TEST: all_reduce
# CHECK: "stablehlo.all_reduce"(%arg0) <{channel_handle = #stablehlo.channel_handle<handle = 5, type = 1>,
# CHECK-SAME: replica_groups = dense<{{\[\[}}0, 1, 2, 3]]> : tensor<1x4xi64>, use_global_device_ids}>
# CHECK-NEXT: ^bb0(%[[A:.*]]: tensor<f32>, %[[B:.*]]: tensor<f32>):
# CHECK-NEXT: %[[S:.*]] = stablehlo.add %[[A]], %[[B]] : tensor<f32>
# CHECK-NEXT: stablehlo.return %[[S]] : tensor<f32>
# CHECK-NEXT: }) : (tensor<4x6xf32>) -> tensor<4x6xf32>
test("all_reduce", lambda b: AllReduce(x(b), add_f32(), channel_id=5, use_global_device_ids=True), replicas=4)

# Check that groups of different sizes are padded with -1, and a tuple operand is reduced
# element by element (one all_reduce each: IREE crashes on the variadic form).
# CHECK-LABEL: TEST: all_reduce_tuple
# CHECK: %[[E0:.*]] = stablehlo.get_tuple_element %{{.*}}[0]
# CHECK: %[[E1:.*]] = stablehlo.get_tuple_element %{{.*}}[1]
# CHECK: %[[R0:.*]] = "stablehlo.all_reduce"(%[[E0]])
# CHECK-SAME: <{replica_groups = dense<{{\[\[}}0, -1, -1], [1, 2, 3]]> : tensor<2x3xi64>}>
# CHECK: %[[R1:.*]] = "stablehlo.all_reduce"(%[[E1]])
# CHECK: stablehlo.tuple %[[R0]], %[[R1]]
def _pair(b):
    v = x(b)
    return Tuple(b, [v, v * 2.0])


test("all_reduce_tuple", lambda b: AllReduce(_pair(b), add_f32(), [[0], [1, 2, 3]]), replicas=4)

# Check that without a replica count "all replicas" is the empty replica_groups attribute
# and CrossReplicaSum is an add all-reduce.
# CHECK-LABEL: TEST: cross_replica_sum
# CHECK-NOT: mhlo.num_replicas
# CHECK: "stablehlo.all_reduce"(%arg0) <{replica_groups = dense<> : tensor<0x0xi64>}>
# CHECK: stablehlo.add %{{.*}}, %{{.*}} : tensor<i32>
test("cross_replica_sum", lambda b: CrossReplicaSum(x(b, "s32[3]")))

# CHECK-LABEL: TEST: all_gather
# CHECK: "stablehlo.all_gather"(%arg0) <{all_gather_dim = 1 : i64,
# CHECK-SAME: replica_groups = dense<{{\[\[}}0, 2], [1, 3]]> : tensor<2x2xi64>}>
# CHECK-SAME: (tensor<4x6xf32>) -> tensor<4x12xf32>
test("all_gather", lambda b: AllGather(x(b), 1, 2, [[0, 2], [1, 3]]), replicas=4)

# CHECK-LABEL: TEST: all_to_all
# CHECK: "stablehlo.all_to_all"(%arg0) <{concat_dimension = 0 : i64,
# CHECK-SAME: replica_groups = dense<{{\[\[}}0, 1]]> : tensor<1x2xi64>,
# CHECK-SAME: split_count = 2 : i64, split_dimension = 1 : i64}>
# CHECK-SAME: (tensor<4x6xf32>) -> tensor<8x3xf32>
test("all_to_all", lambda b: AllToAll(x(b), 1, 0, 2), replicas=2)

# CHECK-LABEL: TEST: reduce_scatter
# CHECK: "stablehlo.reduce_scatter"(%arg0) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>,
# CHECK-SAME: replica_groups = dense<{{\[\[}}1, 0]]> : tensor<1x2xi64>, scatter_dimension = 0 : i64}>
# CHECK: stablehlo.add
# CHECK: (tensor<4x6xf32>) -> tensor<2x6xf32>
test("reduce_scatter", lambda b: ReduceScatter(x(b), add_f32(), 0, 2, [[1, 0]], channel_id=1), replicas=2)

# Check that permutation pairs are an Nx2 matrix (an empty one for no pairs).
# CHECK-LABEL: TEST: collective_permute
# CHECK: "stablehlo.collective_permute"(%arg0)
# CHECK-SAME: <{source_target_pairs = dense<{{\[\[}}0, 1], [1, 2], [2, 0]]> : tensor<3x2xi64>}>
# CHECK: "stablehlo.collective_permute"(%arg0) <{source_target_pairs = dense<> : tensor<0x2xi64>}>
def _permutes(b):
    v = x(b, "f32[2]")
    return Tuple(b, [CollectivePermute(v, [(0, 1), (1, 2), (2, 0)]), CollectivePermute(v, [])])


test("collective_permute", _permutes, replicas=3)
