// RUN: %hlo-opt %s -p hlo-verifier --split-input-file --verify-diagnostics
// RUN: %hlo-opt %s -p hlo-verifier --split-input-file --verify-diagnostics 2>&1 | filecheck %s

// Valid modules pass unchanged (each rule's negative case); the output shows them.

// Check that a reducer reading only its arguments, calls without a cycle, one channel
// used by a send and a receive of the same type, and replica groups that partition the
// replicas are accepted.
// CHECK-LABEL: func.func @valid
func.func @valid(%x: tensor<4xf32>, %t: !stablehlo.token) -> (tensor<f32>, tensor<4xf32>, !stablehlo.token) {
  %i = stablehlo.constant dense<0.0> : tensor<f32>
  %r = stablehlo.reduce(%x init: %i) across dimensions = [0] : (tensor<4xf32>, tensor<f32>) -> tensor<f32>
   reducer(%a: tensor<f32>, %b: tensor<f32>) {
    %s = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }
  %c = func.call @leaf(%x) : (tensor<4xf32>) -> tensor<4xf32>
  %st = "stablehlo.send"(%x, %t) {channel_handle = #stablehlo.channel_handle<handle = 5, type = 1>, is_host_transfer = false} : (tensor<4xf32>, !stablehlo.token) -> !stablehlo.token
  %rv:2 = "stablehlo.recv"(%st) {channel_handle = #stablehlo.channel_handle<handle = 5, type = 1>, is_host_transfer = false} : (!stablehlo.token) -> (tensor<4xf32>, !stablehlo.token)
  return %r, %c, %rv#1 : tensor<f32>, tensor<4xf32>, !stablehlo.token
}
func.func private @leaf(%x: tensor<4xf32>) -> tensor<4xf32> {
  %n = stablehlo.negate %x : tensor<4xf32>
  return %n : tensor<4xf32>
}

// -----

// CHECK-LABEL: module attributes {hlo.schedule = {main = ["a", "b"]}, mhlo.num_replicas = 4 : i32}
module attributes {mhlo.num_replicas = 4 : i32, hlo.schedule = {main = ["a", "b"]}} {
  func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
    %a = "stablehlo.all_reduce"(%x) ({
    ^bb0(%p: tensor<f32>, %q: tensor<f32>):
      %s = stablehlo.add %p, %q : tensor<f32>
      stablehlo.return %s : tensor<f32>
    }) {replica_groups = dense<[[0, 2], [1, 3]]> : tensor<2x2xi64>, hlo.name = "a"} : (tensor<4xf32>) -> tensor<4xf32>
    %b = "stablehlo.collective_permute"(%a) {source_target_pairs = dense<[[0, 1], [1, 3]]> : tensor<2x2xi64>, hlo.name = "b"} : (tensor<4xf32>) -> tensor<4xf32>
    return %b : tensor<4xf32>
  }
}

// -----

// Check that a reducer reading a value of the function is refused (XLA computations take
// only their parameters).
func.func @captured(%x: tensor<4xf32>, %y: tensor<f32>) -> tensor<f32> {
  %i = stablehlo.constant dense<0.0> : tensor<f32>
  // expected-error @+1 {{'stablehlo.reduce' op requires its regions to read only their own arguments and values (closed-computations); got stablehlo.add}}
  %r = stablehlo.reduce(%x init: %i) across dimensions = [0] : (tensor<4xf32>, tensor<f32>) -> tensor<f32>
   reducer(%a: tensor<f32>, %b: tensor<f32>) {
    %s = stablehlo.add %a, %y : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }
  return %r : tensor<f32>
}

// -----

// Check that recursion through calls is refused.
func.func @main(%x: tensor<f32>) -> tensor<f32> {
  %r = func.call @f(%x) : (tensor<f32>) -> tensor<f32>
  return %r : tensor<f32>
}
// expected-error @+1 {{requires an acyclic call graph (acyclic-calls); got the cycle @f -> @g -> @f}}
func.func private @f(%x: tensor<f32>) -> tensor<f32> {
  %r = func.call @g(%x) : (tensor<f32>) -> tensor<f32>
  return %r : tensor<f32>
}
func.func private @g(%x: tensor<f32>) -> tensor<f32> {
  %r = func.call @f(%x) : (tensor<f32>) -> tensor<f32>
  return %r : tensor<f32>
}

// -----

// Check that a send and a receive of one channel moving different types are refused.
func.func @channel_types(%x: tensor<4xf32>, %t: !stablehlo.token) -> !stablehlo.token {
  %s = "stablehlo.send"(%x, %t) {channel_handle = #stablehlo.channel_handle<handle = 5, type = 1>, is_host_transfer = false} : (tensor<4xf32>, !stablehlo.token) -> !stablehlo.token
  // expected-error @+1 {{requires the sends and receives of a channel to move the same types (channels); got channel 5}}
  %r:2 = "stablehlo.recv"(%s) {channel_handle = #stablehlo.channel_handle<handle = 5, type = 1>, is_host_transfer = false} : (!stablehlo.token) -> (tensor<8xf32>, !stablehlo.token)
  return %r#1 : !stablehlo.token
}

// -----

// Check that one channel used by two kinds of collectives is refused.
func.func @channel_kinds(%x: tensor<4xf32>) -> tensor<4xf32> {
  %r = "stablehlo.all_reduce"(%x) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) {replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>, channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>} : (tensor<4xf32>) -> tensor<4xf32>
  // expected-error @+1 {{requires ops sharing a channel to be of one kind (channels); got channel 1 used by stablehlo.all_reduce, stablehlo.collective_permute}}
  %q = "stablehlo.collective_permute"(%r) {source_target_pairs = dense<[[0, 1]]> : tensor<1x2xi64>, channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>} : (tensor<4xf32>) -> tensor<4xf32>
  return %q : tensor<4xf32>
}

// -----

// Check that replica ids beyond mhlo.num_replicas are refused, in groups and in pairs.
module attributes {mhlo.num_replicas = 2 : i32} {
  func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
    // expected-error @+1 {{requires replica_groups that partition the replicas [0, 2)}}
    %r = "stablehlo.all_reduce"(%x) ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %s = stablehlo.add %a, %b : tensor<f32>
      stablehlo.return %s : tensor<f32>
    }) {replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>} : (tensor<4xf32>) -> tensor<4xf32>
    // expected-error @+1 {{requires replica ids in [0, 2); got 5}}
    %q = "stablehlo.collective_permute"(%r) {source_target_pairs = dense<[[0, 1], [1, 5]]> : tensor<2x2xi64>} : (tensor<4xf32>) -> tensor<4xf32>
    return %q : tensor<4xf32>
  }
}

// -----

// Check that a stored instruction name used twice is refused.
func.func @names(%x: tensor<4xf32>) -> tensor<4xf32> {
  %a = stablehlo.add %x, %x {hlo.name = "a"} : tensor<4xf32>
  // expected-error @+1 {{requires a unique instruction name (unique-names); got 'a' again in 'names'}}
  %b = stablehlo.add %a, %x {hlo.name = "a"} : tensor<4xf32>
  return %b : tensor<4xf32>
}

// -----

// Check that a stored schedule with an op before its operand is refused ...
// expected-error @+1 {{the stored schedule (schedule) requires a dependency-respecting order; got 'b' before its operand 'a' in 'main'}}
module attributes {hlo.schedule = {main = ["b", "a"]}} {
  func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
    %a = stablehlo.add %x, %x {hlo.name = "a"} : tensor<4xf32>
    %b = stablehlo.add %a, %x {hlo.name = "b"} : tensor<4xf32>
    return %b : tensor<4xf32>
  }
}

// -----

// ... and so is a stale one, which misses an op added after scheduling.
module attributes {hlo.schedule = {main = ["a"]}} {
  func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
    %a = stablehlo.add %x, %x {hlo.name = "a"} : tensor<4xf32>
    // expected-error @+1 {{requires a name to be in the stored schedule (schedule); got an unnamed instruction in 'main': the schedule is stale}}
    %b = stablehlo.add %a, %x : tensor<4xf32>
    return %b : tensor<4xf32>
  }
}

// -----

// Check that an all_gather whose result is not the operand times the group size is refused ...
func.func @gather(%x: tensor<4xf32>) -> tensor<12xf32> {
  // expected-error @+1 {{requires dimension 0 of the result to be 2 (the group size) times that of the operand (collective-shapes); got [4] -> [12]}}
  %r = "stablehlo.all_gather"(%x) {all_gather_dim = 0 : i64, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<4xf32>) -> tensor<12xf32>
  return %r : tensor<12xf32>
}

// -----

// ... and so is a reduce_scatter whose operand is not the result times the group size.
func.func @scatter(%x: tensor<12xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{requires dimension 0 of the operand to be 2 (the group size) times that of the result (collective-shapes); got [12] -> [4]}}
  %r = "stablehlo.reduce_scatter"(%x) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) {scatter_dimension = 0 : i64, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<12xf32>) -> tensor<4xf32>
  return %r : tensor<4xf32>
}

// -----

// Check that gathers and scatters of the group size pass.
// CHECK-LABEL: func.func @sharded
func.func @sharded(%x: tensor<4x2xf32>) -> (tensor<8x2xf32>, tensor<2x2xf32>) {
  %g = "stablehlo.all_gather"(%x) {all_gather_dim = 0 : i64, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<4x2xf32>) -> tensor<8x2xf32>
  %s = "stablehlo.reduce_scatter"(%x) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %t = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %t : tensor<f32>
  }) {scatter_dimension = 0 : i64, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<4x2xf32>) -> tensor<2x2xf32>
  return %g, %s : tensor<8x2xf32>, tensor<2x2xf32>
}
