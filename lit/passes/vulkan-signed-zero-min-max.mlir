// RUN: %hlo-opt %s -p vulkan-signed-zero-min-max --split-input-file | filecheck %s

// Check that float maximum takes the AND of the bits where x == y, minimum the OR.
// CHECK-LABEL: func.func @max_min_f32
// CHECK-DAG: %[[BX:.*]] = stablehlo.bitcast_convert %arg0 : (tensor<4xf32>) -> tensor<4xi32>
// CHECK-DAG: %[[BY:.*]] = stablehlo.bitcast_convert %arg1 : (tensor<4xf32>) -> tensor<4xi32>
// CHECK: %[[M:.*]] = stablehlo.maximum %arg0, %arg1 : tensor<4xf32>
// CHECK: %[[AND:.*]] = stablehlo.and %[[BX]], %[[BY]] : tensor<4xi32>
// CHECK: %[[EQ:.*]] = stablehlo.compare EQ, %arg0, %arg1, FLOAT
// CHECK: %[[TIE:.*]] = stablehlo.bitcast_convert %[[AND]] : (tensor<4xi32>) -> tensor<4xf32>
// CHECK: %[[MAX:.*]] = stablehlo.select %[[EQ]], %[[TIE]], %[[M]]
// CHECK: %[[N:.*]] = stablehlo.minimum %arg0, %arg1 : tensor<4xf32>
// CHECK: %[[OR:.*]] = stablehlo.or %{{.*}}, %{{.*}} : tensor<4xi32>
// CHECK: %[[MIN:.*]] = stablehlo.select %{{.*}}, %{{.*}}, %[[N]]
// CHECK: return %[[MAX]], %[[MIN]]
func.func @max_min_f32(%x: tensor<4xf32>, %y: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %0 = stablehlo.maximum %x, %y : tensor<4xf32>
  %1 = stablehlo.minimum %x, %y : tensor<4xf32>
  return %0, %1 : tensor<4xf32>, tensor<4xf32>
}

// -----

// Check that bf16 maximum gets the same rewrite on 16 bits.
// CHECK-LABEL: func.func @max_bf16
// CHECK: stablehlo.maximum %arg0, %arg1 : tensor<2xbf16>
// CHECK: stablehlo.and %{{.*}}, %{{.*}} : tensor<2xi16>
// CHECK: stablehlo.select
func.func @max_bf16(%x: tensor<2xbf16>, %y: tensor<2xbf16>) -> tensor<2xbf16> {
  %0 = stablehlo.maximum %x, %y : tensor<2xbf16>
  return %0 : tensor<2xbf16>
}

// -----

// Check that integer maximum is left alone.
// CHECK-LABEL: func.func @max_i32
// CHECK-NEXT: %[[R:.*]] = stablehlo.maximum %arg0, %arg1 : tensor<4xi32>
// CHECK-NEXT: return %[[R]]
func.func @max_i32(%x: tensor<4xi32>, %y: tensor<4xi32>) -> tensor<4xi32> {
  %0 = stablehlo.maximum %x, %y : tensor<4xi32>
  return %0 : tensor<4xi32>
}
