// RUN: %hlo-opt %s -p "hlo-rematerialization{memory-limit-bytes=4100}" --split-input-file | filecheck %s
// RUN: %hlo-opt %s -p "hlo-rematerialization{memory-limit-bytes=4100}" --statistics --split-input-file 2>&1 >/dev/null | filecheck %s --check-prefix=STATS

// Check that a big constant and a broadcast of a parameter, live across the chain in the
// middle, are recomputed right before their late readers (peak 5124 -> 4100 bytes), and
// that their early readers keep the originals.
// CHECK-LABEL: func.func @main
// CHECK: %[[C:.*]] = stablehlo.constant dense<2.000000e+00>
// CHECK: %[[B:.*]] = stablehlo.broadcast_in_dim %arg1
// CHECK: stablehlo.add %arg0, %[[C]]
// CHECK: stablehlo.sine
// CHECK: %[[C2:.*]] = stablehlo.constant dense<2.000000e+00>
// CHECK-NEXT: %[[M:.*]] = stablehlo.multiply %{{.*}}, %[[C2]]
// CHECK-NEXT: %[[B2:.*]] = stablehlo.broadcast_in_dim %arg1
// CHECK-NEXT: stablehlo.add %[[M]], %[[B2]]
// STATS: hlo-rematerialization
// STATS: (S) 2 ops-rematerialized
// STATS: (S) 4100 peak-bytes-after
// STATS: (S) 5124 peak-bytes-before
func.func @main(%x: tensor<256xf32>, %y: tensor<f32>) -> tensor<256xf32> {
  %c = stablehlo.constant dense<2.0> : tensor<256xf32>
  %b = stablehlo.broadcast_in_dim %y, dims = [] : (tensor<f32>) -> tensor<256xf32>
  %u = stablehlo.add %x, %c : tensor<256xf32>
  %w = stablehlo.multiply %u, %b : tensor<256xf32>
  %e = stablehlo.exponential %w : tensor<256xf32>
  %t = stablehlo.tanh %e : tensor<256xf32>
  %s = stablehlo.sine %t : tensor<256xf32>
  %v = stablehlo.multiply %s, %c : tensor<256xf32>
  %r = stablehlo.add %v, %b : tensor<256xf32>
  return %r : tensor<256xf32>
}

// -----

// Check that a stored schedule follows the copies, which are named <name>.remat, and that
// a value with no early reader is moved rather than copied (the budget stays out of reach:
// three f32[256] meet at the multiply).
// CHECK-LABEL: module attributes {hlo.schedule = {main = ["u", "e", "t", "s", "c.remat", "v"]}}
// CHECK-NOT: {hlo.name = "c"}
// CHECK: stablehlo.constant {hlo.name = "c.remat"}
module attributes {hlo.schedule = {main = ["c", "u", "e", "t", "s", "v"]}} {
  func.func @main(%x: tensor<256xf32>, %unused: tensor<4xf32>) -> tensor<256xf32> {
    %c = stablehlo.constant {hlo.name = "c"} dense<2.0> : tensor<256xf32>
    %u = stablehlo.add %x, %x {hlo.name = "u"} : tensor<256xf32>
    %e = stablehlo.exponential %u {hlo.name = "e"} : tensor<256xf32>
    %t = stablehlo.tanh %e {hlo.name = "t"} : tensor<256xf32>
    %s = stablehlo.sine %t {hlo.name = "s"} : tensor<256xf32>
    %v = stablehlo.multiply %s, %c {hlo.name = "v"} : tensor<256xf32>
    return %v : tensor<256xf32>
  }
}

// -----

// Check that nothing is copied when the peak is within the budget ...
// CHECK-LABEL: func.func @within_budget
// CHECK-COUNT-1: stablehlo.constant
// CHECK-NOT: stablehlo.constant
func.func @within_budget(%x: tensor<4xf32>) -> tensor<4xf32> {
  %c = stablehlo.constant dense<2.0> : tensor<4xf32>
  %u = stablehlo.add %x, %c : tensor<4xf32>
  %e = stablehlo.exponential %u : tensor<4xf32>
  %v = stablehlo.multiply %e, %c : tensor<4xf32>
  return %v : tensor<4xf32>
}

// -----

// ... and that values of expensive or side-effecting ops are never copied, even over budget.
// CHECK-LABEL: func.func @not_cheap
// CHECK-COUNT-1: stablehlo.dot_general
// CHECK-COUNT-1: stablehlo.custom_call
// CHECK-NOT: stablehlo.dot_general
// CHECK-NOT: stablehlo.custom_call
func.func @not_cheap(%x: tensor<16x16xf32>) -> tensor<16x16xf32> {
  %d = stablehlo.dot_general %x, %x, contracting_dims = [1] x [0] : (tensor<16x16xf32>, tensor<16x16xf32>) -> tensor<16x16xf32>
  %r = stablehlo.custom_call @draw() {has_side_effect = true} : () -> tensor<16x16xf32>
  %e = stablehlo.exponential %x : tensor<16x16xf32>
  %t = stablehlo.tanh %e : tensor<16x16xf32>
  %s = stablehlo.sine %t : tensor<16x16xf32>
  %a = stablehlo.add %s, %d : tensor<16x16xf32>
  %b = stablehlo.add %a, %r : tensor<16x16xf32>
  return %b : tensor<16x16xf32>
}
