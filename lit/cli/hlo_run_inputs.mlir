// RUN: %hlo-compile %s -o %t.vmfb
// RUN: %hlo-run %t.vmfb --function=mixed '--input=2x3xf32=[1 2 3][4 5 6]' --input=f32=0.5 --input=4xi1=1,0,1,1 | filecheck %s --check-prefix=FULL
// RUN: %hlo-run %t.vmfb --function=mixed --input=2x3xf32=2 --input=-1 --input=4xi1=true,false,false,true | filecheck %s --check-prefix=SPLAT
// RUN: %hlo-run %s --function=mixed --input=f32[2,3]= --input=f32=1 --input=4xi1=0 --device=local-sync --expected_output=2x3xf32=1 --expected_output=4xi1=1 --output=- --output=- | filecheck %s --check-prefix=MLIR

// Check iree-run-module's input forms: shape and type with values (commas, spaces or
// brackets), a splat, a bare value typed by the signature, booleans, zeros, XLA shape
// syntax, and an .mlir input compiled on the fly; results print like iree-run-module.
// FULL: EXEC @mixed
// FULL-NEXT: result[0]: hal.buffer_view
// FULL-NEXT: 2x3xf32=[1.5 2.5 3.5][4.5 5.5 6.5]
// FULL-NEXT: result[1]: hal.buffer_view
// FULL-NEXT: 4xi1=0 1 0 0
// SPLAT: 2x3xf32=[1 1 1][1 1 1]
// SPLAT: 4xi1=0 1 1 0
// MLIR: 2x3xf32=[1 1 1][1 1 1]
// MLIR: 4xi1=1 1 1 1
// MLIR: [SUCCESS] all function outputs matched their expected values.
func.func @mixed(%x: tensor<2x3xf32>, %s: tensor<f32>, %p: tensor<4xi1>) -> (tensor<2x3xf32>, tensor<4xi1>) {
  %b = stablehlo.broadcast_in_dim %s, dims = [] : (tensor<f32>) -> tensor<2x3xf32>
  %0 = stablehlo.add %x, %b : tensor<2x3xf32>
  %1 = stablehlo.not %p : tensor<4xi1>
  return %0, %1 : tensor<2x3xf32>, tensor<4xi1>
}
