// RUN: %hlo-opt %s -p zero-sized-hlo-elimination --split-input-file | filecheck %s

// Check that element-wise ops on an empty slice become empty constants (those left unused
// are for dce, as in XLA).
// CHECK-LABEL: func.func @elementwise
// CHECK-NOT: stablehlo.slice
// CHECK-NOT: stablehlo.exponential
// CHECK-NOT: stablehlo.add
// CHECK-COUNT-2: stablehlo.constant dense<> : tensor<0xf32>
// CHECK-NEXT: %[[C:.*]] = stablehlo.constant dense<> : tensor<0xf32>
// CHECK-NEXT: return %[[C]]
func.func @elementwise(%x: tensor<4xf32>) -> tensor<0xf32> {
  %s = stablehlo.slice %x [2:2] : (tensor<4xf32>) -> tensor<0xf32>
  %e = stablehlo.exponential %s : tensor<0xf32>
  %a = stablehlo.add %e, %s : tensor<0xf32>
  return %a : tensor<0xf32>
}

// -----

// Check that a zero-sized dot, iota, broadcast and reduce of complex, integer and pred
// types become constants, and a reduce to a non-empty result stays (XLA ZeroSizedHlo tests).
// CHECK-LABEL: func.func @other_ops
// CHECK-DAG: stablehlo.constant dense<> : tensor<3x0xf32>
// CHECK-DAG: stablehlo.constant dense<> : tensor<0x2xcomplex<f32>>
// CHECK-DAG: stablehlo.constant dense<> : tensor<0xi1>
// CHECK-DAG: stablehlo.constant dense<> : tensor<5x0xi32>
// CHECK-NOT: stablehlo.dot_general
// CHECK-NOT: stablehlo.iota
// CHECK-NOT: stablehlo.broadcast_in_dim
// CHECK: stablehlo.reduce
func.func @other_ops(%a: tensor<3x4xf32>, %b: tensor<4x0xf32>, %c: tensor<complex<f32>>, %p: tensor<0xi1>,
                     %z: tensor<0x3xf32>) -> (tensor<3x0xf32>, tensor<0x2xcomplex<f32>>, tensor<0xi1>, tensor<5x0xi32>, tensor<3xf32>) {
  %d = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<3x4xf32>, tensor<4x0xf32>) -> tensor<3x0xf32>
  %bc = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<complex<f32>>) -> tensor<0x2xcomplex<f32>>
  %n = stablehlo.not %p : tensor<0xi1>
  %i = stablehlo.iota dim = 0 : tensor<5x0xi32>
  %zero = stablehlo.constant dense<0.0> : tensor<f32>
  %r = stablehlo.reduce(%z init: %zero) applies stablehlo.add across dimensions = [0] : (tensor<0x3xf32>, tensor<f32>) -> tensor<3xf32>
  return %d, %bc, %n, %i, %r : tensor<3x0xf32>, tensor<0x2xcomplex<f32>>, tensor<0xi1>, tensor<5x0xi32>, tensor<3xf32>
}

// -----

// Check that the zero-sized result of a sort is replaced and the sort kept for its other
// result, and that a rng_bit_generator's empty data is replaced while its state stays.
// CHECK-LABEL: func.func @several_results
// CHECK-DAG: %[[E:.*]] = stablehlo.constant dense<> : tensor<0xui32>
// CHECK-DAG: %[[S:.*]], %{{.*}} = stablehlo.rng_bit_generator
// CHECK: return %[[S]], %[[E]]
func.func @several_results(%state: tensor<2xui64>) -> (tensor<2xui64>, tensor<0xui32>) {
  %s, %d = stablehlo.rng_bit_generator %state, algorithm = THREE_FRY : (tensor<2xui64>) -> (tensor<2xui64>, tensor<0xui32>)
  return %s, %d : tensor<2xui64>, tensor<0xui32>
}

// -----

// Check that parameters, constants and ops with side effects stay even when empty (XLA
// ZeroSizedHloElimination skips constants and side-effecting instructions).
// CHECK-LABEL: func.func @kept
// CHECK: %[[K:.*]] = stablehlo.constant dense<> : tensor<0xf32>
// CHECK: %[[E:.*]] = stablehlo.custom_call @effect(%arg0) {has_side_effect = true}
// CHECK: return %arg0, %[[K]], %[[E]]
func.func @kept(%x: tensor<0xf32>) -> (tensor<0xf32>, tensor<0xf32>, tensor<0xf32>) {
  %k = stablehlo.constant dense<> : tensor<0xf32>
  %e = stablehlo.custom_call @effect(%x) {has_side_effect = true} : (tensor<0xf32>) -> tensor<0xf32>
  return %x, %k, %e : tensor<0xf32>, tensor<0xf32>, tensor<0xf32>
}

// -----

// Check that ops with elements, and dynamically shaped ones, are left alone.
// CHECK-LABEL: func.func @not_empty
// CHECK: stablehlo.exponential %arg0 : tensor<2xf32>
// CHECK: stablehlo.negate %arg1 : tensor<?xf32>
func.func @not_empty(%x: tensor<2xf32>, %y: tensor<?xf32>) -> (tensor<2xf32>, tensor<?xf32>) {
  %e = stablehlo.exponential %x : tensor<2xf32>
  %n = stablehlo.negate %y : tensor<?xf32>
  return %e, %n : tensor<2xf32>, tensor<?xf32>
}

// -----

// Check that an empty value computed in a while body becomes a constant there, and the
// loop's empty result outside it.
// CHECK-LABEL: func.func @in_loop
// CHECK: %[[R:.*]]:2 = stablehlo.while
// CHECK: do
// CHECK: %[[C:.*]] = stablehlo.constant dense<> : tensor<0x4xf32>
// CHECK-NOT: stablehlo.multiply
// CHECK: stablehlo.return %{{.*}}, %[[C]]
// CHECK: return %{{.*}}, %[[R]]#0
func.func @in_loop(%n: tensor<i32>, %v: tensor<0x4xf32>) -> (tensor<0x4xf32>, tensor<i32>) {
  %c0 = stablehlo.constant dense<0> : tensor<i32>
  %r:2 = stablehlo.while(%i = %c0, %w = %v) : tensor<i32>, tensor<0x4xf32>
  cond {
    %p = stablehlo.compare LT, %i, %n, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %p : tensor<i1>
  } do {
    %one = stablehlo.constant dense<1> : tensor<i32>
    %i1 = stablehlo.add %i, %one : tensor<i32>
    %m = stablehlo.multiply %w, %w : tensor<0x4xf32>
    stablehlo.return %i1, %m : tensor<i32>, tensor<0x4xf32>
  }
  return %r#1, %r#0 : tensor<0x4xf32>, tensor<i32>
}
