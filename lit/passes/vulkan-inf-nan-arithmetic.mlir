// RUN: %hlo-opt %s -p vulkan-inf-nan-arithmetic --split-input-file | filecheck %s

// Check that x - x and x + (-x) are 0 where x is finite, NaN elsewhere.
// CHECK-LABEL: func.func @self_cancelling
// CHECK-NOT: stablehlo.subtract
// CHECK: %[[F:.*]] = stablehlo.is_finite %arg0
// CHECK: stablehlo.constant dense<0x7FC00000> : tensor<f32>
// CHECK: %[[A:.*]] = stablehlo.select %[[F]], %{{.*}}, %{{.*}} : tensor<4xi1>, tensor<4xf32>
// CHECK: %[[N:.*]] = stablehlo.negate %arg0
// CHECK-NEXT: %[[G:.*]] = stablehlo.is_finite %[[N]]
// CHECK: %[[B:.*]] = stablehlo.select %[[G]], %{{.*}}, %{{.*}} : tensor<4xi1>, tensor<4xf32>
// CHECK-NOT: stablehlo.add
// CHECK: return %[[A]], %[[B]]
func.func @self_cancelling(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %0 = stablehlo.subtract %x, %x : tensor<4xf32>
  %n = stablehlo.negate %x : tensor<4xf32>
  %1 = stablehlo.add %n, %x : tensor<4xf32>
  return %0, %1 : tensor<4xf32>, tensor<4xf32>
}

// -----

// Check that x * 0 is the XOR of the sign bits where x is finite, NaN elsewhere, and 0 / x NaN where x is NaN or 0.
// CHECK-LABEL: func.func @zero_products
// CHECK-NOT: stablehlo.multiply
// CHECK: %[[F:.*]] = stablehlo.is_finite %arg0
// CHECK: %[[X:.*]] = stablehlo.xor %{{.*}}, %{{.*}} : tensor<4xi32>
// CHECK: %[[Z:.*]] = stablehlo.bitcast_convert %[[X]] : (tensor<4xi32>) -> tensor<4xf32>
// CHECK: %[[P:.*]] = stablehlo.select %[[F]], %[[Z]], %{{.*}} : tensor<4xi1>, tensor<4xf32>
// CHECK-NOT: stablehlo.divide
// CHECK: %[[NAN:.*]] = stablehlo.compare NE, %arg0, %arg0, FLOAT
// CHECK: %[[ZERO:.*]] = stablehlo.compare EQ, %arg0, %{{.*}}, FLOAT
// CHECK: %[[U:.*]] = stablehlo.or %[[NAN]], %[[ZERO]]
// CHECK: %[[Q:.*]] = stablehlo.select %[[U]], %{{.*}}, %{{.*}} : tensor<4xi1>, tensor<4xf32>
// CHECK: return %[[P]], %[[Q]]
func.func @zero_products(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %z = stablehlo.constant dense<-0.0> : tensor<f32>
  %b = stablehlo.broadcast_in_dim %z, dims = [] : (tensor<f32>) -> tensor<4xf32>
  %0 = stablehlo.multiply %b, %x : tensor<4xf32>
  %1 = stablehlo.divide %b, %x : tensor<4xf32>
  return %0, %1 : tensor<4xf32>, tensor<4xf32>
}

// -----

// Check that +0 - x is +0 where x is zero, -x elsewhere.
// CHECK-LABEL: func.func @positive_zero_minuend
// CHECK: %[[Z:.*]] = stablehlo.constant dense<0.000000e+00> : tensor<2xf16>
// CHECK: %[[E:.*]] = stablehlo.compare EQ, %arg0, %{{.*}}, FLOAT
// CHECK: %[[N:.*]] = stablehlo.negate %arg0 : tensor<2xf16>
// CHECK: %[[R:.*]] = stablehlo.select %[[E]], %[[Z]], %[[N]]
// CHECK: return %[[R]]
func.func @positive_zero_minuend(%x: tensor<2xf16>) -> tensor<2xf16> {
  %z = stablehlo.constant dense<0.0> : tensor<2xf16>
  %0 = stablehlo.subtract %z, %x : tensor<2xf16>
  return %0 : tensor<2xf16>
}

// -----

// Check that other forms are left alone: x - y, -0 - x, x * 2, 2 / x, and integer x - x.
// CHECK-LABEL: func.func @left_alone
// CHECK-NOT: stablehlo.select
// CHECK: stablehlo.subtract %arg0, %arg1 : tensor<4xf32>
// CHECK: stablehlo.subtract %{{.*}}, %arg0 : tensor<4xf32>
// CHECK: stablehlo.multiply %arg0, %{{.*}} : tensor<4xf32>
// CHECK: stablehlo.divide %{{.*}}, %arg0 : tensor<4xf32>
// CHECK: stablehlo.subtract %arg2, %arg2 : tensor<4xi32>
// CHECK-NOT: stablehlo.select
func.func @left_alone(%x: tensor<4xf32>, %y: tensor<4xf32>, %i: tensor<4xi32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xi32>) {
  %nz = stablehlo.constant dense<-0.0> : tensor<4xf32>
  %two = stablehlo.constant dense<2.0> : tensor<4xf32>
  %0 = stablehlo.subtract %x, %y : tensor<4xf32>
  %1 = stablehlo.subtract %nz, %x : tensor<4xf32>
  %2 = stablehlo.multiply %x, %two : tensor<4xf32>
  %3 = stablehlo.divide %two, %x : tensor<4xf32>
  %4 = stablehlo.subtract %i, %i : tensor<4xi32>
  return %0, %1, %2, %3, %4 : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xi32>
}
