// RUN: %hlo-opt %s -p vulkan-float-rem --split-input-file | filecheck %s

// Check that an f32 remainder is computed on the 64-bit integer mantissas (2^(ex - ey) mod my by
// 8 squaring steps), scaled back by two powers of two, NaN where undefined, x where |y| = inf,
// and given x's sign bit.
// CHECK-LABEL: func.func @rem_f32
// CHECK-NOT: stablehlo.remainder %arg0
// CHECK: %[[AX:.*]] = stablehlo.abs %arg0 : tensor<4xf32>
// CHECK-NEXT: %[[BX:.*]] = stablehlo.bitcast_convert %[[AX]] : (tensor<4xf32>) -> tensor<4xi32>
// CHECK-NEXT: stablehlo.convert %[[BX]] : (tensor<4xi32>) -> tensor<4xi64>
// CHECK-COUNT-17: stablehlo.remainder %{{.*}}, %{{.*}} : tensor<4xi64>
// CHECK: %[[R:.*]] = stablehlo.remainder %{{.*}}, %{{.*}} : tensor<4xi64>
// CHECK-NOT: stablehlo.remainder
// CHECK: stablehlo.convert %[[R]] : (tensor<4xi64>) -> tensor<4xf32>
// CHECK: stablehlo.bitcast_convert %{{.*}} : (tensor<4xi32>) -> tensor<4xf32>
// CHECK: stablehlo.multiply %{{.*}}, %{{.*}} : tensor<4xf32>
// CHECK: %[[SCALED:.*]] = stablehlo.multiply %{{.*}}, %{{.*}} : tensor<4xf32>
// CHECK: %[[BELOW:.*]] = stablehlo.compare LT, %{{.*}}, %{{.*}}, SIGNED : (tensor<4xi64>, tensor<4xi64>) -> tensor<4xi1>
// CHECK-NEXT: %[[Q:.*]] = stablehlo.select %[[BELOW]], %[[AX]], %[[SCALED]] : tensor<4xi1>, tensor<4xf32>
// CHECK: stablehlo.constant dense<0x7FC00000> : tensor<f32>
// CHECK: %[[D:.*]] = stablehlo.select %{{.*}}, %[[Q]], %{{.*}} : tensor<4xi1>, tensor<4xf32>
// CHECK: %[[INF:.*]] = stablehlo.compare EQ, %{{.*}}, %{{.*}}, FLOAT
// CHECK: %[[KEEP:.*]] = stablehlo.and %{{.*}}, %[[INF]]
// CHECK: %[[F:.*]] = stablehlo.select %[[KEEP]], %arg0, %[[D]] : tensor<4xi1>, tensor<4xf32>
// CHECK: stablehlo.bitcast_convert %[[F]] : (tensor<4xf32>) -> tensor<4xi32>
// CHECK: stablehlo.constant dense<-2147483648>
// CHECK: %[[OR:.*]] = stablehlo.or
// CHECK: %[[OUT:.*]] = stablehlo.bitcast_convert %[[OR]] : (tensor<4xi32>) -> tensor<4xf32>
// CHECK: return %[[OUT]]
func.func @rem_f32(%x: tensor<4xf32>, %y: tensor<4xf32>) -> tensor<4xf32> {
  %0 = stablehlo.remainder %x, %y : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// Check that an f16 remainder is computed the same way in f32 (exactly) and rounded back once.
// CHECK-LABEL: func.func @rem_f16
// CHECK: %[[X:.*]] = stablehlo.convert %arg0 : (tensor<4xf16>) -> tensor<4xf32>
// CHECK-NEXT: %[[Y:.*]] = stablehlo.convert %arg1 : (tensor<4xf16>) -> tensor<4xf32>
// CHECK: stablehlo.remainder %{{.*}}, %{{.*}} : tensor<4xi64>
// CHECK: %[[Q16:.*]] = stablehlo.convert %{{.*}} : (tensor<4xf32>) -> tensor<4xf16>
// CHECK: stablehlo.select %{{.*}}, %arg0, %[[Q16]] : tensor<4xi1>, tensor<4xf16>
// CHECK: stablehlo.bitcast_convert %{{.*}} : (tensor<4xi16>) -> tensor<4xf16>
func.func @rem_f16(%x: tensor<4xf16>, %y: tensor<4xf16>) -> tensor<4xf16> {
  %0 = stablehlo.remainder %x, %y : tensor<4xf16>
  return %0 : tensor<4xf16>
}

// -----

// Check that an f64 remainder keeps IREE's remainder inside, with fmod's inf and sign fixes only.
// CHECK-LABEL: func.func @rem_f64
// CHECK-NEXT: %[[Q:.*]] = stablehlo.remainder %arg0, %arg1 : tensor<4xf64>
// CHECK-NOT: tensor<4xi32>
// CHECK: stablehlo.select %{{.*}}, %arg0, %[[Q]] : tensor<4xi1>, tensor<4xf64>
// CHECK: stablehlo.bitcast_convert %{{.*}} : (tensor<4xi64>) -> tensor<4xf64>
func.func @rem_f64(%x: tensor<4xf64>, %y: tensor<4xf64>) -> tensor<4xf64> {
  %0 = stablehlo.remainder %x, %y : tensor<4xf64>
  return %0 : tensor<4xf64>
}

// -----

// Check that an integer remainder is left alone.
// CHECK-LABEL: func.func @rem_i32
// CHECK-NEXT: %[[R:.*]] = stablehlo.remainder %arg0, %arg1 : tensor<4xi32>
// CHECK-NEXT: return %[[R]]
func.func @rem_i32(%x: tensor<4xi32>, %y: tensor<4xi32>) -> tensor<4xi32> {
  %0 = stablehlo.remainder %x, %y : tensor<4xi32>
  return %0 : tensor<4xi32>
}
