// RUN: %hlo-opt %s -p all-reduce-combiner --split-input-file | filecheck %s
// RUN: %hlo-opt %s -p all-reduce-combiner{threshold-count=1} --split-input-file | filecheck %s --check-prefix=COUNT1

// Check that two independent sums over the same groups become one variadic all_reduce,
// placed after the last definition of their operands and before the first read, and
// that an all_reduce with another reducer or other groups stays alone.
// CHECK-LABEL: func.func @independent
// CHECK: %[[Y:.*]] = stablehlo.negate %arg1
// CHECK: %[[R:.*]]:2 = "stablehlo.all_reduce"(%arg0, %[[Y]]) <{replica_groups = dense<{{\[\[}}0, 1]]> : tensor<1x2xi64>}>
// CHECK: stablehlo.add
// CHECK: (tensor<4xf32>, tensor<2x3xf32>) -> (tensor<4xf32>, tensor<2x3xf32>)
// CHECK: %[[N:.*]] = stablehlo.negate %[[R]]#0
// CHECK: %[[M:.*]] = "stablehlo.all_reduce"(%arg0)
// CHECK: stablehlo.maximum
// CHECK: %[[S:.*]] = "stablehlo.all_reduce"(%arg0) <{replica_groups = dense<{{\[\[}}0], [1]]>
// CHECK: return %[[R]]#0, %[[R]]#1, %[[N]], %[[M]], %[[S]]
// COUNT1-LABEL: func.func @independent
// COUNT1-COUNT-4: "stablehlo.all_reduce"(%{{[^,]*}})
module attributes {mhlo.num_replicas = 2 : i32, mhlo.num_partitions = 1 : i32} {
  func.func @independent(%x: tensor<4xf32>, %w: tensor<2x3xf32>)
      -> (tensor<4xf32>, tensor<2x3xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) {
    %a = "stablehlo.all_reduce"(%x) ({
    ^bb0(%p: tensor<f32>, %q: tensor<f32>):
      %s = stablehlo.add %p, %q : tensor<f32>
      stablehlo.return %s : tensor<f32>
    }) {replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<4xf32>) -> tensor<4xf32>
    %y = stablehlo.negate %w : tensor<2x3xf32>
    %n = stablehlo.negate %a : tensor<4xf32>
    %b = "stablehlo.all_reduce"(%y) ({
    ^bb0(%p: tensor<f32>, %q: tensor<f32>):
      %s = stablehlo.add %q, %p : tensor<f32>
      stablehlo.return %s : tensor<f32>
    }) {replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<2x3xf32>) -> tensor<2x3xf32>
    %m = "stablehlo.all_reduce"(%x) ({
    ^bb0(%p: tensor<f32>, %q: tensor<f32>):
      %s = stablehlo.maximum %p, %q : tensor<f32>
      stablehlo.return %s : tensor<f32>
    }) {replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<4xf32>) -> tensor<4xf32>
    %g = "stablehlo.all_reduce"(%x) ({
    ^bb0(%p: tensor<f32>, %q: tensor<f32>):
      %s = stablehlo.add %p, %q : tensor<f32>
      stablehlo.return %s : tensor<f32>
    }) {replica_groups = dense<[[0], [1]]> : tensor<2x1xi64>} : (tensor<4xf32>) -> tensor<4xf32>
    return %a, %b, %n, %m, %g : tensor<4xf32>, tensor<2x3xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
  }
}

// -----

// Check that dependent sums stay apart: one reads the other directly, one through an op;
// sums of other element types, with and without a channel, and in other blocks stay too.
// CHECK-LABEL: func.func @dependent
// CHECK-COUNT-3: "stablehlo.all_reduce"(%{{[^,]*}}) <{replica_groups
// CHECK: "stablehlo.all_reduce"(%{{[^,]*}}) <{channel_handle
// CHECK: stablehlo.while
// CHECK: "stablehlo.all_reduce"(%{{[^,]*}}) <{replica_groups
module attributes {mhlo.num_replicas = 2 : i32, mhlo.num_partitions = 1 : i32} {
  func.func @dependent(%x: tensor<4xf32>, %i: tensor<4xi32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xi32>, tensor<4xf32>, tensor<4xf32>) {
    %a = "stablehlo.all_reduce"(%x) ({
    ^bb0(%p: tensor<f32>, %q: tensor<f32>):
      %s = stablehlo.add %p, %q : tensor<f32>
      stablehlo.return %s : tensor<f32>
    }) {replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<4xf32>) -> tensor<4xf32>
    %b = "stablehlo.all_reduce"(%a) ({
    ^bb0(%p: tensor<f32>, %q: tensor<f32>):
      %s = stablehlo.add %p, %q : tensor<f32>
      stablehlo.return %s : tensor<f32>
    }) {replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<4xf32>) -> tensor<4xf32>
    %j = "stablehlo.all_reduce"(%i) ({
    ^bb0(%p: tensor<i32>, %q: tensor<i32>):
      %s = stablehlo.add %p, %q : tensor<i32>
      stablehlo.return %s : tensor<i32>
    }) {replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<4xi32>) -> tensor<4xi32>
    %c = "stablehlo.all_reduce"(%x) ({
    ^bb0(%p: tensor<f32>, %q: tensor<f32>):
      %s = stablehlo.add %p, %q : tensor<f32>
      stablehlo.return %s : tensor<f32>
    }) {replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>, channel_handle = #stablehlo.channel_handle<handle = 5, type = 1>} : (tensor<4xf32>) -> tensor<4xf32>
    %w = stablehlo.while(%v = %b) : tensor<4xf32>
    cond {
      %t = stablehlo.constant dense<false> : tensor<i1>
      stablehlo.return %t : tensor<i1>
    } do {
      %d = "stablehlo.all_reduce"(%x) ({
      ^bb0(%p: tensor<f32>, %q: tensor<f32>):
        %s = stablehlo.add %p, %q : tensor<f32>
        stablehlo.return %s : tensor<f32>
      }) {replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<4xf32>) -> tensor<4xf32>
      stablehlo.return %d : tensor<4xf32>
    }
    return %a, %b, %j, %c, %w : tensor<4xf32>, tensor<4xf32>, tensor<4xi32>, tensor<4xf32>, tensor<4xf32>
  }
}

// -----

// Check that an all_reduce read inside a region counts as read where that region's op
// is: the second sum comes after the loop that reads the first, yet both combine before
// the loop (every operand is defined before it).
// CHECK-LABEL: func.func @read_in_region
// CHECK: %[[R:.*]]:2 = "stablehlo.all_reduce"(%arg0, %arg1)
// CHECK: stablehlo.while
// CHECK: stablehlo.add %{{.*}}, %[[R]]#0
// CHECK-NOT: "stablehlo.all_reduce"
module attributes {mhlo.num_replicas = 2 : i32, mhlo.num_partitions = 1 : i32} {
  func.func @read_in_region(%x: tensor<4xf32>, %y: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
    %a = "stablehlo.all_reduce"(%x) ({
    ^bb0(%p: tensor<f32>, %q: tensor<f32>):
      %s = stablehlo.add %p, %q : tensor<f32>
      stablehlo.return %s : tensor<f32>
    }) {replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<4xf32>) -> tensor<4xf32>
    %w = stablehlo.while(%v = %x) : tensor<4xf32>
    cond {
      %t = stablehlo.constant dense<false> : tensor<i1>
      stablehlo.return %t : tensor<i1>
    } do {
      %u = stablehlo.add %v, %a : tensor<4xf32>
      stablehlo.return %u : tensor<4xf32>
    }
    %b = "stablehlo.all_reduce"(%y) ({
    ^bb0(%p: tensor<f32>, %q: tensor<f32>):
      %s = stablehlo.add %p, %q : tensor<f32>
      stablehlo.return %s : tensor<f32>
    }) {replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<4xf32>) -> tensor<4xf32>
    return %w, %b : tensor<4xf32>, tensor<4xf32>
  }
}
