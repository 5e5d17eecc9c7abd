// RUN: %hlo-opt %s -p despecializer --split-input-file | filecheck %s
// RUN: %hlo-opt %s -p despecializer --statistics --split-input-file 2>&1 >/dev/null | filecheck %s --check-prefix=STATS

// Check that the stored schedule is removed and f32 ops are left as they are.
// CHECK-LABEL: module {
// CHECK-NOT: hlo.schedule
// CHECK: stablehlo.add %arg0, %arg0 {hlo.name = "a"} : tensor<4xf32>
// STATS: despecializer
// STATS: (S) 1 hlo-descheduler.schedules-removed
module attributes {hlo.schedule = {main = ["a"]}} {
  func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
    %a = stablehlo.add %x, %x {hlo.name = "a"} : tensor<4xf32>
    return %a : tensor<4xf32>
  }
}

// -----

// Check that bf16 arithmetic is computed in f32 (mixed precision removal); the signature stays.
// CHECK-LABEL: func.func @bf16
// CHECK-SAME: (%arg0: tensor<4xbf16>) -> tensor<4xbf16>
// CHECK-NOT: stablehlo.multiply {{.*}} : tensor<4xbf16>
// CHECK: stablehlo.multiply {{.*}} : tensor<4xf32>
func.func @bf16(%x: tensor<4xbf16>) -> tensor<4xbf16> {
  %m = stablehlo.multiply %x, %x : tensor<4xbf16>
  return %m : tensor<4xbf16>
}

// -----

// Check that a module with nothing platform-specific is left as it is.
// CHECK-LABEL: func.func @plain
// CHECK-NEXT: stablehlo.negate %arg0 : tensor<2xf32>
func.func @plain(%x: tensor<2xf32>) -> tensor<2xf32> {
  %n = stablehlo.negate %x : tensor<2xf32>
  return %n : tensor<2xf32>
}
