// RUN: %hlo-opt %s -p pred-arithmetic --split-input-file | filecheck %s

// Check that add on PRED becomes or and multiply becomes and.
// CHECK-LABEL: func.func @pred
// CHECK-NEXT: %[[O:.*]] = stablehlo.or %arg0, %arg1 : tensor<4xi1>
// CHECK-NEXT: %[[A:.*]] = stablehlo.and %arg0, %arg1 : tensor<4xi1>
// CHECK-NOT: stablehlo.add
// CHECK-NOT: stablehlo.multiply
// CHECK: return %[[O]], %[[A]]
func.func @pred(%p: tensor<4xi1>, %q: tensor<4xi1>) -> (tensor<4xi1>, tensor<4xi1>) {
  %0 = stablehlo.add %p, %q : tensor<4xi1>
  %1 = stablehlo.multiply %p, %q : tensor<4xi1>
  return %0, %1 : tensor<4xi1>, tensor<4xi1>
}

// -----

// Check that add and multiply on other element types are left alone.
// CHECK-LABEL: func.func @integers
// CHECK-NEXT: %[[A:.*]] = stablehlo.add %arg0, %arg0 : tensor<4xi8>
// CHECK-NEXT: %[[M:.*]] = stablehlo.multiply %arg0, %arg0 : tensor<4xi8>
// CHECK-NEXT: return %[[A]], %[[M]]
func.func @integers(%x: tensor<4xi8>) -> (tensor<4xi8>, tensor<4xi8>) {
  %0 = stablehlo.add %x, %x : tensor<4xi8>
  %1 = stablehlo.multiply %x, %x : tensor<4xi8>
  return %0, %1 : tensor<4xi8>, tensor<4xi8>
}
