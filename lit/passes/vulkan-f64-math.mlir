// RUN: %hlo-opt %s -p vulkan-f64-math --split-input-file --verify-diagnostics | filecheck %s
// RUN: not %hlo-opt %s -p vulkan-f64-math --split-input-file 2>&1 | filecheck %s --check-prefix=ERR

// Check that f32 transcendentals and f64 arithmetic and sqrt pass unchanged.
// CHECK-LABEL: func.func @supported
// CHECK-NEXT: stablehlo.log %arg0 : tensor<4xf32>
// CHECK-NEXT: stablehlo.sqrt %arg1 : tensor<4xf64>
// CHECK-NEXT: stablehlo.multiply
// CHECK-NOT: func.func @unsupported
func.func @supported(%x: tensor<4xf32>, %y: tensor<4xf64>) -> (tensor<4xf32>, tensor<4xf64>) {
  %0 = stablehlo.log %x : tensor<4xf32>
  %1 = stablehlo.sqrt %y : tensor<4xf64>
  %2 = stablehlo.multiply %1, %y : tensor<4xf64>
  return %0, %2 : tensor<4xf32>, tensor<4xf64>
}

// -----

// Check that each f64 transcendental is named with its type (exp of complex<f64> too).
// ERR: the module cannot run on vulkan-spirv: SPIR-V's GLSL.std.450 math instructions take only 16- and 32-bit floats
// ERR-NEXT: :[[# @LINE + 4]]: stablehlo.tanh requires f16 or f32 elements on vulkan-spirv; got tensor<4xf64>
// ERR-NEXT: :[[# @LINE + 4]]: stablehlo.exponential requires f16 or f32 elements on vulkan-spirv; got tensor<2xcomplex<f64>>
// expected-error@unknown {{the module cannot run on vulkan-spirv:}}
func.func @unsupported(%x: tensor<4xf64>, %z: tensor<2xcomplex<f64>>) -> (tensor<4xf64>, tensor<2xcomplex<f64>>) {
  %0 = stablehlo.tanh %x : tensor<4xf64>
  %1 = stablehlo.exponential %z : tensor<2xcomplex<f64>>
  return %0, %1 : tensor<4xf64>, tensor<2xcomplex<f64>>
}
