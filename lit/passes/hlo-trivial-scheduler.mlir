// RUN: %hlo-opt %s -p hlo-trivial-scheduler --split-input-file | filecheck %s
// RUN: %hlo-opt %s -p hlo-trivial-scheduler --statistics --split-input-file 2>&1 >/dev/null | filecheck %s --check-prefix=STATS

// Check that the op order of every function is stored as the schedule, unnamed ops named
// first (nested reducer ops are not listed: they run inside their reduce).
// CHECK-LABEL: module attributes {hlo.schedule = {helper = ["negate"], main = ["constant", "call", "reduce"]}}
// CHECK: stablehlo.constant {hlo.name = "constant"}
// STATS: hlo-trivial-scheduler
// STATS: (S) 2 functions-scheduled
func.func @main(%x: tensor<4xf32>) -> tensor<f32> {
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  %n = func.call @helper(%x) : (tensor<4xf32>) -> tensor<4xf32>
  %r = stablehlo.reduce(%n init: %z) applies stablehlo.add across dimensions = [0] : (tensor<4xf32>, tensor<f32>) -> tensor<f32>
  return %r : tensor<f32>
}
func.func private @helper(%x: tensor<4xf32>) -> tensor<4xf32> {
  %n = stablehlo.negate %x : tensor<4xf32>
  return %n : tensor<4xf32>
}

// -----

// Check that duplicate names are renamed (a schedule names each instruction once) and
// that the IR's order is kept as it is.
// CHECK-LABEL: module attributes {hlo.schedule = {main = ["a", "a.1"]}}
// CHECK: stablehlo.add %arg0, %arg0 {hlo.name = "a"}
// CHECK: stablehlo.multiply %{{.*}}, %arg0 {hlo.name = "a.1"}
func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  %a = stablehlo.add %x, %x {hlo.name = "a"} : tensor<4xf32>
  %b = stablehlo.multiply %a, %x {hlo.name = "a"} : tensor<4xf32>
  return %b : tensor<4xf32>
}

// -----

// Check that a schedule that already matches the IR is left as it is (a second run is a no-op).
// CHECK-LABEL: module attributes {hlo.schedule = {main = ["a"]}}
// CHECK-NOT: hlo.schedule
module attributes {hlo.schedule = {main = ["a"]}} {
  func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
    %a = stablehlo.add %x, %x {hlo.name = "a"} : tensor<4xf32>
    return %a : tensor<4xf32>
  }
}
