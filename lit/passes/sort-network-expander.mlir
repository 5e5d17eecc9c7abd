// RUN: %hlo-opt %s -p "sort-network-expander{min-size=4}" --split-input-file | filecheck %s

// Check that a long sort along a non-minor dimension becomes a bitonic network: the sort
// dimension moved last, rows padded to a power of two and flattened, positions carried,
// a while loop over (k, j) stages that gathers partners and compares them with the
// tie-breaking comparator in a map, then the rows sliced back and transposed.
// CHECK-LABEL: func.func @network
// CHECK-NOT: "stablehlo.sort"
// CHECK: %[[T:.*]] = stablehlo.transpose %arg0, dims = [1, 0] : (tensor<5x2xf32>) -> tensor<2x5xf32>
// CHECK: %[[P:.*]] = stablehlo.pad %{{.*}}, %{{.*}}, low = [0, 0], high = [0, 3], interior = [0, 0] : (tensor<2x5xf32>, tensor<f32>) -> tensor<2x8xf32>
// CHECK: %[[F:.*]] = stablehlo.reshape %[[P]] : (tensor<2x8xf32>) -> tensor<16xf32>
// CHECK: %[[POS:.*]] = stablehlo.iota dim = 1 : tensor<2x8xi32>
// CHECK: %[[W:.*]]:4 = stablehlo.while(%[[K:.*]] = %{{.*}}, %[[J:.*]] = %{{.*}}, %{{.*}} = %[[F]], %{{.*}} = %{{.*}})
// CHECK: cond
// CHECK: %[[WIDTH:.*]] = stablehlo.constant dense<8> : tensor<i32>
// CHECK: stablehlo.compare LE, %[[K]], %[[WIDTH]]
// CHECK: do
// CHECK: stablehlo.xor
// CHECK: "stablehlo.gather"
// CHECK-SAME: hlo_mlir.in_bounds
// CHECK: "stablehlo.map"
// CHECK: stablehlo.compare LT, %{{.*}}, %{{.*}}, TOTALORDER
// CHECK: stablehlo.compare LT, %{{.*}}, %{{.*}}, TOTALORDER
// CHECK: stablehlo.not
// CHECK: stablehlo.return
// CHECK: stablehlo.shift_left %[[K]]
// CHECK: stablehlo.shift_right_logical %[[J]]
// CHECK: %[[R:.*]] = stablehlo.reshape %[[W]]#2 : (tensor<16xf32>) -> tensor<2x8xf32>
// CHECK: %[[S:.*]] = stablehlo.slice %[[R]] [0:2, 0:5]
// CHECK: %[[B:.*]] = stablehlo.transpose %{{.*}}, dims = [1, 0] : (tensor<2x5xf32>) -> tensor<5x2xf32>
// CHECK: return %[[B]]
func.func @network(%k: tensor<5x2xf32>) -> tensor<5x2xf32> {
  %0 = "stablehlo.sort"(%k) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %1 = stablehlo.compare LT, %a, %b, TOTALORDER : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %1 : tensor<i1>
  }) {dimension = 0 : i64, is_stable = false} : (tensor<5x2xf32>) -> tensor<5x2xf32>
  return %0 : tensor<5x2xf32>
}

// -----

// Check that sorts shorter than min-size are left to IREE.
// CHECK-LABEL: func.func @short
// CHECK-NOT: stablehlo.while
// CHECK: "stablehlo.sort"
func.func @short(%k: tensor<8x3xi32>) -> tensor<8x3xi32> {
  %0 = "stablehlo.sort"(%k) ({
  ^bb0(%a: tensor<i32>, %b: tensor<i32>):
    %1 = stablehlo.compare LT, %a, %b, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %1 : tensor<i1>
  }) {dimension = 1 : i64, is_stable = false} : (tensor<8x3xi32>) -> tensor<8x3xi32>
  return %0 : tensor<8x3xi32>
}
