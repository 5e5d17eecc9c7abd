// RUN: %hlo-opt %s -p f64-log1p --split-input-file | filecheck %s

// Check that f64 log1p is log(u) * x / (u - 1) with u = 1 + x, x itself where u rounds to 1 or x = inf.
// CHECK-LABEL: func.func @log1p_f64
// CHECK-NOT: stablehlo.log_plus_one
// CHECK: %[[U:.*]] = stablehlo.add %{{.*}}, %arg0 : tensor<4xf64>
// CHECK-NEXT: %[[L:.*]] = stablehlo.log %[[U]] : tensor<4xf64>
// CHECK: %[[D:.*]] = stablehlo.subtract %[[U]], %{{.*}} : tensor<4xf64>
// CHECK-NEXT: %[[Q:.*]] = stablehlo.divide %arg0, %[[D]] : tensor<4xf64>
// CHECK-NEXT: %[[G:.*]] = stablehlo.multiply %[[L]], %[[Q]] : tensor<4xf64>
// CHECK: %[[ONE:.*]] = stablehlo.compare EQ, %[[U]], %{{.*}}, FLOAT
// CHECK: %[[INF:.*]] = stablehlo.compare EQ, %arg0, %{{.*}}, FLOAT
// CHECK-NEXT: %[[S:.*]] = stablehlo.select %[[INF]], %arg0, %[[G]] : tensor<4xi1>, tensor<4xf64>
// CHECK-NEXT: %[[R:.*]] = stablehlo.select %[[ONE]], %arg0, %[[S]] : tensor<4xi1>, tensor<4xf64>
// CHECK-NEXT: return %[[R]]
func.func @log1p_f64(%x: tensor<4xf64>) -> tensor<4xf64> {
  %0 = stablehlo.log_plus_one %x : tensor<4xf64>
  return %0 : tensor<4xf64>
}

// -----

// Check that log1p of narrower floats is left alone.
// CHECK-LABEL: func.func @log1p_f32
// CHECK-NEXT: %[[R:.*]] = stablehlo.log_plus_one %arg0 : tensor<4xf32>
// CHECK-NEXT: return %[[R]]
func.func @log1p_f32(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = stablehlo.log_plus_one %x : tensor<4xf32>
  return %0 : tensor<4xf32>
}
