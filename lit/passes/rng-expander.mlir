// RUN: %hlo-opt %s -p rng-expander --split-input-file | filecheck %s

// Check that a float UNIFORM rng draws THREE_FRY bits from the module state (load, generate,
// store), keeps the top 23 bits as [0, 1), scales to [a, b) and caps below b.
// CHECK: ml_program.global private mutable @hlo_mlir_rng_state(dense<[{{[0-9]+}}, 0]> : tensor<2xui64>) : tensor<2xui64>
// CHECK-LABEL: func.func @uniform_f32
// CHECK-NOT: stablehlo.rng %
// CHECK: %[[S:.*]] = ml_program.global_load @hlo_mlir_rng_state : tensor<2xui64>
// CHECK: %[[S2:.*]], %[[BITS:.*]] = stablehlo.rng_bit_generator %[[S]], algorithm = THREE_FRY : (tensor<2xui64>) -> (tensor<2xui64>, tensor<4xui32>)
// CHECK: ml_program.global_store @hlo_mlir_rng_state = %[[S2]]
// CHECK: %[[TOP:.*]] = stablehlo.shift_right_logical %[[BITS]], %{{.*}} : tensor<4xui32>
// CHECK: %[[F:.*]] = stablehlo.convert %[[TOP]] : (tensor<4xui32>) -> tensor<4xf32>
// CHECK: %[[U:.*]] = stablehlo.multiply %[[F]], %{{.*}} : tensor<4xf32>
// CHECK: %[[SPAN:.*]] = stablehlo.subtract %arg1, %arg0 : tensor<f32>
// CHECK: %[[R:.*]] = stablehlo.add
// CHECK: %[[BELOW:.*]] = chlo.next_after %arg1, %{{.*}} : tensor<f32>, tensor<f32> -> tensor<f32>
// CHECK: %[[CAP:.*]] = stablehlo.broadcast_in_dim %[[BELOW]], dims = []
// CHECK: %[[OUT:.*]] = stablehlo.minimum %[[R]], %[[CAP]] : tensor<4xf32>
// CHECK: return %[[OUT]]
func.func @uniform_f32(%a: tensor<f32>, %b: tensor<f32>) -> tensor<4xf32> {
  %shape = stablehlo.constant dense<4> : tensor<1xi64>
  %r = stablehlo.rng %a, %b, %shape, distribution = UNIFORM : (tensor<f32>, tensor<f32>, tensor<1xi64>) -> tensor<4xf32>
  return %r : tensor<4xf32>
}

// -----

// Check that two rng ops share one state global and each advances it, and that integer
// UNIFORM is a + (64 random bits mod (b - a)), with b == a guarded.
// CHECK-COUNT-1: ml_program.global private mutable @hlo_mlir_rng_state
// CHECK-LABEL: func.func @two_ints
// CHECK: %[[S:.*]] = ml_program.global_load @hlo_mlir_rng_state
// CHECK: %[[S2:.*]], %[[BITS:.*]] = stablehlo.rng_bit_generator %[[S]], algorithm = THREE_FRY : (tensor<2xui64>) -> (tensor<2xui64>, tensor<3xui64>)
// CHECK: ml_program.global_store @hlo_mlir_rng_state = %[[S2]]
// CHECK: stablehlo.remainder %[[BITS]], %{{.*}} : tensor<3xui64>
// CHECK: %[[T:.*]] = ml_program.global_load @hlo_mlir_rng_state
// CHECK: %[[T2:.*]], %{{.*}} = stablehlo.rng_bit_generator %[[T]], algorithm = THREE_FRY
// CHECK: ml_program.global_store @hlo_mlir_rng_state = %[[T2]]
// CHECK: stablehlo.convert %{{.*}} : (tensor<3xi64>) -> tensor<3xi32>
func.func @two_ints(%a: tensor<i32>, %b: tensor<i32>) -> (tensor<3xi32>, tensor<3xi32>) {
  %shape = stablehlo.constant dense<3> : tensor<1xi64>
  %r = stablehlo.rng %a, %b, %shape, distribution = UNIFORM : (tensor<i32>, tensor<i32>, tensor<1xi64>) -> tensor<3xi32>
  %s = stablehlo.rng %a, %b, %shape, distribution = UNIFORM : (tensor<i32>, tensor<i32>, tensor<1xi64>) -> tensor<3xi32>
  return %r, %s : tensor<3xi32>, tensor<3xi32>
}

// -----

// Check that NORMAL is Box-Muller on a 2 x ceil(n/2) block of uniforms, sliced back to n.
// CHECK-LABEL: func.func @normal_odd
// CHECK: stablehlo.rng_bit_generator %{{.*}}, algorithm = THREE_FRY : (tensor<2xui64>) -> (tensor<2xui64>, tensor<2x3xui32>)
// CHECK: stablehlo.log
// CHECK: stablehlo.sqrt
// CHECK: stablehlo.sine
// CHECK: stablehlo.cosine
// CHECK: stablehlo.concatenate
// CHECK: stablehlo.slice %{{.*}} [0:5]
// CHECK: stablehlo.convert %{{.*}} : (tensor<5xf32>) -> tensor<5xf16>
func.func @normal_odd(%mu: tensor<f16>, %sigma: tensor<f16>) -> tensor<5xf16> {
  %shape = stablehlo.constant dense<5> : tensor<1xi64>
  %r = stablehlo.rng %mu, %sigma, %shape, distribution = NORMAL : (tensor<f16>, tensor<f16>, tensor<1xi64>) -> tensor<5xf16>
  return %r : tensor<5xf16>
}

// -----

// Check that a module without rng gets no state global, and that an rng with a dynamic
// result shape is left alone.
// CHECK-NOT: ml_program.global
// CHECK-LABEL: func.func @dynamic
// CHECK: stablehlo.rng %arg0, %arg1, %arg2, distribution = UNIFORM
func.func @dynamic(%a: tensor<f32>, %b: tensor<f32>, %shape: tensor<1xi64>) -> tensor<?xf32> {
  %r = stablehlo.rng %a, %b, %shape, distribution = UNIFORM : (tensor<f32>, tensor<f32>, tensor<1xi64>) -> tensor<?xf32>
  return %r : tensor<?xf32>
}
