// RUN: %hlo-opt %s -p vulkan-log1p --split-input-file | filecheck %s

// Check that f32 log1p is the atanh series of s = x / (2 + x) for -0.5 <= x <= 1, Goldberg's formula elsewhere.
// CHECK-LABEL: func.func @log1p_f32
// CHECK-NOT: stablehlo.log_plus_one
// CHECK: %[[T:.*]] = stablehlo.add %{{.*}}, %arg0 : tensor<4xf32>
// CHECK-NEXT: %[[S:.*]] = stablehlo.divide %arg0, %[[T]] : tensor<4xf32>
// CHECK-NEXT: %[[Z:.*]] = stablehlo.multiply %[[S]], %[[S]] : tensor<4xf32>
// CHECK: stablehlo.constant dense<0.117647059> : tensor<f32>
// CHECK: %[[NEAR:.*]] = stablehlo.multiply %[[S]], %{{.*}} : tensor<4xf32>
// CHECK: %[[U:.*]] = stablehlo.add %{{.*}}, %arg0 : tensor<4xf32>
// CHECK: %[[L:.*]] = stablehlo.log %[[U]] : tensor<4xf32>
// CHECK: %[[FAR:.*]] = stablehlo.select %{{.*}}, %arg0, %{{.*}} : tensor<4xi1>, tensor<4xf32>
// CHECK: stablehlo.compare GE, %arg0, %{{.*}}, FLOAT
// CHECK: stablehlo.compare LE, %arg0, %{{.*}}, FLOAT
// CHECK: %[[R:.*]] = stablehlo.select %{{.*}}, %[[NEAR]], %[[FAR]] : tensor<4xi1>, tensor<4xf32>
// CHECK-NEXT: return %[[R]]
func.func @log1p_f32(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = stablehlo.log_plus_one %x : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// Check that bf16 log1p is computed in f32 and rounded once.
// CHECK-LABEL: func.func @log1p_bf16
// CHECK-NOT: stablehlo.log_plus_one
// CHECK: %[[X:.*]] = stablehlo.convert %arg0 : (tensor<4xbf16>) -> tensor<4xf32>
// CHECK: %[[R:.*]] = stablehlo.convert %{{.*}} : (tensor<4xf32>) -> tensor<4xbf16>
// CHECK-NEXT: return %[[R]]
func.func @log1p_bf16(%x: tensor<4xbf16>) -> tensor<4xbf16> {
  %0 = stablehlo.log_plus_one %x : tensor<4xbf16>
  return %0 : tensor<4xbf16>
}

// -----

// Check that f64 and complex log1p are left alone.
// CHECK-LABEL: func.func @log1p_f64_c64
// CHECK-NEXT: stablehlo.log_plus_one %arg0 : tensor<4xf64>
// CHECK-NEXT: stablehlo.log_plus_one %arg1 : tensor<4xcomplex<f32>>
func.func @log1p_f64_c64(%x: tensor<4xf64>, %z: tensor<4xcomplex<f32>>) -> (tensor<4xf64>, tensor<4xcomplex<f32>>) {
  %0 = stablehlo.log_plus_one %x : tensor<4xf64>
  %1 = stablehlo.log_plus_one %z : tensor<4xcomplex<f32>>
  return %0, %1 : tensor<4xf64>, tensor<4xcomplex<f32>>
}
