// RUN: %hlo-opt %s -p hlo-descheduler --split-input-file | filecheck %s
// RUN: %hlo-opt %s -p hlo-descheduler --statistics --split-input-file 2>&1 >/dev/null | filecheck %s --check-prefix=STATS

// Check that the stored schedule is removed and the ops keep their order and names.
// CHECK-LABEL: module {
// CHECK-NOT: hlo.schedule
// CHECK: stablehlo.add %arg0, %arg0 {hlo.name = "a"}
// CHECK: stablehlo.multiply %{{.*}}, %arg0 {hlo.name = "b"}
// STATS: hlo-descheduler
// STATS: (S) 1 schedules-removed
module attributes {hlo.schedule = {main = ["a", "b"]}} {
  func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
    %a = stablehlo.add %x, %x {hlo.name = "a"} : tensor<4xf32>
    %b = stablehlo.multiply %a, %x {hlo.name = "b"} : tensor<4xf32>
    return %b : tensor<4xf32>
  }
}

// -----

// Check that a module without a schedule is left as it is, other attributes included.
// CHECK-LABEL: module attributes {mhlo.num_replicas = 1 : i32} {
// CHECK: stablehlo.add
module attributes {mhlo.num_replicas = 1 : i32} {
  func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
    %a = stablehlo.add %x, %x : tensor<4xf32>
    return %a : tensor<4xf32>
  }
}
