// RUN: %hlo-opt %s -p vulkan-narrow-clz --split-input-file | filecheck %s

// Check that i8 clz zero-extends to 32 bits and subtracts 24.
// CHECK-LABEL: func.func @clz_i8
// CHECK: %[[U:.*]] = stablehlo.bitcast_convert %arg0 : (tensor<4xi8>) -> tensor<4xui8>
// CHECK-NEXT: %[[W:.*]] = stablehlo.convert %[[U]] : (tensor<4xui8>) -> tensor<4xui32>
// CHECK-NEXT: %[[S:.*]] = stablehlo.bitcast_convert %[[W]] : (tensor<4xui32>) -> tensor<4xi32>
// CHECK-NEXT: %[[C:.*]] = stablehlo.count_leading_zeros %[[S]] : tensor<4xi32>
// CHECK: stablehlo.constant dense<24> : tensor<i32>
// CHECK: %[[D:.*]] = stablehlo.subtract %[[C]], %{{.*}} : tensor<4xi32>
// CHECK-NEXT: %[[R:.*]] = stablehlo.convert %[[D]] : (tensor<4xi32>) -> tensor<4xi8>
// CHECK-NEXT: return %[[R]]
func.func @clz_i8(%x: tensor<4xi8>) -> tensor<4xi8> {
  %0 = stablehlo.count_leading_zeros %x : tensor<4xi8>
  return %0 : tensor<4xi8>
}

// -----

// Check that ui16 clz needs no bitcast and subtracts 16.
// CHECK-LABEL: func.func @clz_ui16
// CHECK-NEXT: %[[W:.*]] = stablehlo.convert %arg0 : (tensor<4xui16>) -> tensor<4xui32>
// CHECK: stablehlo.count_leading_zeros %{{.*}} : tensor<4xi32>
// CHECK: stablehlo.constant dense<16> : tensor<i32>
// CHECK: stablehlo.convert %{{.*}} : (tensor<4xi32>) -> tensor<4xui16>
func.func @clz_ui16(%x: tensor<4xui16>) -> tensor<4xui16> {
  %0 = stablehlo.count_leading_zeros %x : tensor<4xui16>
  return %0 : tensor<4xui16>
}

// -----

// Check that 32- and 64-bit clz are left alone.
// CHECK-LABEL: func.func @clz_i32_i64
// CHECK-NEXT: stablehlo.count_leading_zeros %arg0 : tensor<4xi32>
// CHECK-NEXT: stablehlo.count_leading_zeros %arg1 : tensor<4xi64>
func.func @clz_i32_i64(%x: tensor<4xi32>, %y: tensor<4xi64>) -> (tensor<4xi32>, tensor<4xi64>) {
  %0 = stablehlo.count_leading_zeros %x : tensor<4xi32>
  %1 = stablehlo.count_leading_zeros %y : tensor<4xi64>
  return %0, %1 : tensor<4xi32>, tensor<4xi64>
}
